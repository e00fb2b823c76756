/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logpc.h: the LoGPC model of Moritz and Frank (network contention in
 * message-passing programs on k-ary n-cubes), as pure functions.
 *
 * C. A. Moritz and M. I. Frank, "LoGPC: Modeling Network Contention in
 * Message-Passing Programs", IEEE TPDS 12(4), 2001.  Equation numbers in
 * the comments are the paper's.
 *
 * Units: every time is in one unit (cycles, us, ...), message sizes are
 * in bytes, rates are messages per time unit, G, Gm and Gc are time per
 * byte.  The contention terms (eqs. 3 to 7 and Section 3.4) need the
 * time a B-byte message occupies a channel: s = B Gc, where Gc is the
 * channel time per byte (struct logpc_net).  The paper measures time in
 * Alewife network cycles, in which a channel carries one byte per cycle
 * (Gc = 1) and writes B for s; on a machine timed in microseconds s is
 * B Gc us, not B.  Sizes stay in bytes where the equations use B as a
 * size, e.g. the (B - 1) G of eqs. (8) to (10).
 *
 * Nothing here prints or exits: functions return a status and fill a
 * result structure.  */
#ifndef MSGPERF_LOGPC_H
#define MSGPERF_LOGPC_H

#include <stdint.h>

enum logpc_status
{
  LOGPC_OK = 0,
  LOGPC_SATURATED,   /* rho >= 1: no stable queue (see m_sat) */
  LOGPC_DOMAIN       /* an argument outside the model's domain */
};

/* "saturated", "outside the model's domain", ...  */
const char *logpc_strerror (enum logpc_status s);

/* The network as the contention model sees it.  */
struct logpc_net
{
  int n;          /* network dimension n */
  double kd;      /* average distance per dimension k_d (Table 3) */
  double chan;    /* physical channels per dimension and switch: 2 for
                     bidirectional channels (the 2 of eq. 4), 1 for
                     unidirectional ones */
  double Gc;      /* channel time per byte (> 0): a B-byte message
                     occupies each channel of its path for s = B Gc time
                     units.  1 is the paper's byte per network cycle;
                     on a measured machine, its G */
};

/* The default channel time per byte for a machine whose network gap per
   byte is G: G when G > 0 and finite (a measured machine: a channel
   moves bytes at the rate the network delivers them), else 1 (the
   paper's one byte per time unit).  */
double logpc_gc_default (double G);

/* Fill NET; BIDIRECTIONAL selects chan = 2 or 1; Gc is set to 1 (the
   paper's one byte per time unit): set NET->Gc for any other unit.  */
void logpc_net_set (struct logpc_net *net, int n, double kd,
                    int bidirectional);

/* The contention quantities of one message class.  */
struct logpc_contention
{
  double m;       /* injection rate used (m, or m_c when closed) */
  double rho;     /* channel utilisation, eq. (4) */
  double wb;      /* delay per switch, eqs. (3) and (5) */
  double Cn;      /* network contention per message, eq. (6) */
  double m_sat;   /* saturation rate: rho = 1, i.e. chan / (s k_d) */
  double s;       /* channel occupancy s = B Gc of one message */
  double T;       /* closed model: contention-free inter-message time */
  double Tc;      /* closed model: T + mult * Cn = 1 / m_c */
  double mult;    /* closed model: the MULT of logpc_closed */
  double qa, qb, qc;  /* closed model: the quadratic qa m^2 + qb m + qc = 0
                         of eq. (7) */
  int clamped;    /* k_d <= 1: Agarwal's (k_d - 1) factor would make the
                     delay negative; it is taken as 0 */
};

/* The channel occupancy s = B Gc of a B-byte message.  */
double logpc_occupancy (const struct logpc_net *net, double B);

/* eq. (4): rho = s m k_d / chan, s = B Gc.  */
double logpc_rho (const struct logpc_net *net, double B, double m);

/* The rate at which rho reaches 1 for B-byte messages.  */
double logpc_saturation_rate (const struct logpc_net *net, double B);

/* Open model (Agarwal, eqs. 3 to 6): contention of B-byte messages
   injected at rate M per node.  LOGPC_SATURATED when rho >= 1 (OUT->m_sat
   is then the rate not to exceed); LOGPC_DOMAIN for B <= 0, M < 0,
   k_d < 0, n < 1, Gc <= 0 or non-finite input.  With s = B Gc:
   w_b = rho s / (1 - rho) (k_d - 1) / k_d^2 (1 + 1/n), C_n = n k_d w_b.  */
enum logpc_status logpc_contention (const struct logpc_net *net, double B,
                                    double m, struct logpc_contention *out);

/* The contention per message C_n (eq. 6) for B bytes at rate M, or a NaN
   when the network is saturated or the input is outside the domain.  The
   function dag-predict calls to inflate latencies.  */
double logpc_cn (const struct logpc_net *net, double B, double m);

/* Closed model, eq. (7) generalised: the rate m_c solving
       m_c = 1 / (T + MULT * C_n(m_c))
   (MULT = 1 is eq. 7 and eq. 13; MULT = 2 is the Diamond DAG's
   m_c = 1 / (v + 2 C_n)).  This is the quadratic
       (A - beta T) m^2 + (T + beta) m - 1 = 0,
       A = MULT s^2 (k_d - 1)(n + 1) / chan,   beta = s k_d / chan,
   s = B Gc,
   whose physical root, the only one with 0 < m_c < m_sat, is
       m_c = 2 / ((T + beta) + sqrt((T - beta)^2 + 4 A)).
   It always exists for k_d > 1 and T > 0; LOGPC_SATURATED only when the
   contention term vanishes (k_d <= 1) and one message occupies a channel
   longer than T.  */
enum logpc_status logpc_closed (const struct logpc_net *net, double B,
                                double T, double mult,
                                struct logpc_contention *out);

/* ---------------------------------------------------- transfer times */

/* Machine parameters (Tables 1 and 2).  NaN marks one not given.  */
struct logpc_machine
{
  double L;      /* network latency */
  double os;     /* send overhead, short messages */
  double orr;    /* receive overhead, short messages (`or`) */
  double osl;    /* send overhead, long messages */
  double orl;    /* receive overhead, long messages (includes interrupt) */
  double G;      /* gap per byte, network */
  double Gm;     /* gap per byte, memory transfer (DMA) */
  double a;      /* bytes that arrive before the interrupt is taken */
};

/* Fill every field with NaN.  */
void logpc_machine_init (struct logpc_machine *p);

/* eqs. (8)/(9): os + L + Cn + or.  */
double logpc_short (const struct logpc_machine *p, double Cn);

/* eq. (10) (eq. 1 when Cn = 0): osl + (B - 1) G + L + Cn.  */
double logpc_long (const struct logpc_machine *p, double B, double Cn);

/* eq. (2) plus the header delay Cn:
   osl + L + Cn + max(orl + a G + B Gm, (B - 1) G).  */
double logpc_e2e (const struct logpc_machine *p, double B, double Cn);

/* ---------------------------------------------------- upper bound */

struct logpc_bound
{
  double F;          /* m_c = 1 / (F B), eq. (13) */
  double inflation;  /* T_c / T = F / (2 G), eq. (14) */
  double mcB;        /* m_c B = 1 / F */
};

/* Section 3.4: maximal injection (T = 2 G B) on NET.  B cancels; the
   solve is done with B = 1 (occupancy s = Gc).  F depends on G / Gc
   only: the paper's 2.17 (Alewife, G = 0.5) needs Gc = 1.  LOGPC_DOMAIN
   for G <= 0.  */
enum logpc_status logpc_bound (const struct logpc_net *net, double G,
                               struct logpc_bound *out);

/* ---------------------------------------------------- Section 5 */

/* 5.1: all-to-all remap with short messages of B bytes, one iteration.  */
struct logpc_remap
{
  double logp_sync;    /* 2 (os + L + or) */
  double lopc_sync;    /* + C_r */
  double logpc_sync;   /* + 2 C_n */
  double Cr;           /* C_r used */
  struct logpc_contention sync;   /* closed: m_c = 2 / (lopc_sync + 2 C_n) */
  double async;        /* os + or (LogP = LoPC = LoGPC) */
  struct logpc_contention async_c;/* open: m = 1 / (os + or) */
};

/* CR < 0 (or NaN) uses LoPC's empirical C_r = or + os.  A saturated
   asynchronous rate gives LOGPC_SATURATED.  */
enum logpc_status logpc_remap_short (const struct logpc_net *net,
                                     const struct logpc_machine *p,
                                     double B, double Cr,
                                     struct logpc_remap *out);

/* 5.1.3: asynchronous remap with long messages: base iteration 2 G B,
   with contention the eq. (13) rate.  */
struct logpc_remap_long
{
  double T;       /* 2 G B */
  double Tc;      /* 1 / m_c */
  struct logpc_contention c;
};
enum logpc_status logpc_remap_long (const struct logpc_net *net, double G,
                                    double B, struct logpc_remap_long *out);

/* 5.2: Diamond DAG with stripe partitioning (eq. 15).  */
/* The terms of eq. (15) and M itself, without contention: the one place
   the formula is written (dag-predict's diamond closed form uses it too).
   N_DAG x N_DAG tasks of time TASK on P stripes of B_BLOCKS blocks, AGG
   per value sent, block messages of BYTES bytes; L, os, G, a as in
   struct logpc_machine.  */
struct logpc_eq15
{
  double wa;       /* n^2 / (P b) tasks of work per block, times task */
  double W;        /* wa + alpha n / b */
  double d;        /* L + a G */
  double Os, Or;   /* os + (B - 1) G, (B - 1 - a) G */
  double u, v;     /* Or + W + d, Os + W + Or */
  double M;        /* eq. (15) */
};
void logpc_eq15 (double n_dag, double P, double b_blocks, double task,
                 double agg, double bytes, double L, double os, double G,
                 double a, struct logpc_eq15 *out);

struct logpc_diamond_in
{
  double n_dag;   /* the DAG is n x n tasks */
  double P;       /* processors (stripes) */
  double b;       /* blocks per stripe */
  double task;    /* time of one task */
  double agg;     /* aggregation cost per value sent (alpha) */
  double B;       /* bytes per block message */
};
struct logpc_diamond
{
  double wa, W, d, Os, Or, u, v;
  double M;        /* eq. (15), no contention */
  struct logpc_contention c;   /* m_c = 1 / (v + 2 C_n) */
  double sends;    /* critical-path primitives that see C_n:
                      (P - 1) + 2 (b - 1) */
  double Mc;       /* M + sends * C_n (the Section 5.2.1 bound) */
};
enum logpc_status logpc_diamond (const struct logpc_net *net,
                                 const struct logpc_machine *p,
                                 const struct logpc_diamond_in *in,
                                 struct logpc_diamond *out);

/* 5.3: EM3D-style asynchronous exchange: MSGS short messages of B bytes
   per processor, each costing os + or (m = 1 / (os + or), open model).  */
struct logpc_em3d
{
  double t_msg;     /* os + or */
  double t_comm;    /* msgs (os + or): LogP = LoGPC without hotspots */
  struct logpc_contention c;
  double t_comm_c;  /* msgs (os + or + Cn): the estimate when every send
                       stalls for its message's contention delay (the
                       hotspot case of Section 5.3) */
};
enum logpc_status logpc_em3d (const struct logpc_net *net,
                              const struct logpc_machine *p, double B,
                              double msgs, struct logpc_em3d *out);

#endif
