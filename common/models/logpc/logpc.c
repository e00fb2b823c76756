/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logpc.c: the LoGPC contention model of Moritz and Frank (logpc.h).
 *
 * Agarwal's open model of a wormhole-routed k-ary n-cube (M/G/1 switch
 * queues, dimension-order routing) gives the contention per message for a
 * known injection rate (eqs. 3 to 6); LoGPC closes it by feeding the
 * contention back into the rate (eq. 7).  */
#include <config.h>

#include "logpc.h"

#include <math.h>

const char *
logpc_strerror (enum logpc_status s)
{
  switch (s)
    {
    case LOGPC_OK:
      return "ok";
    case LOGPC_SATURATED:
      return "the network is saturated (channel utilisation rho >= 1)";
    case LOGPC_DOMAIN:
      return "an input is outside the model's domain, or a value computed "
             "from the inputs is above the largest double (about 1.8e308: "
             "rescale the times or sizes)";
    }
  return "unknown status";
}

void
logpc_net_set (struct logpc_net *net, int n, double kd, int bidirectional)
{
  net->n = n;
  net->kd = kd;
  net->chan = bidirectional ? 2.0 : 1.0;
  net->Gc = 1.0;
}

double
logpc_gc_default (double G)
{
  return isfinite (G) && G > 0 ? G : 1.0;
}

static int
net_ok (const struct logpc_net *net)
{
  return net->n >= 1 && isfinite (net->kd) && net->kd >= 0
         && (net->chan == 1.0 || net->chan == 2.0) && isfinite (net->Gc)
         && net->Gc > 0;
}

static void
clear (struct logpc_contention *c)
{
  c->m = c->rho = c->wb = c->Cn = c->m_sat = NAN;
  c->T = c->Tc = c->mult = c->qa = c->qb = c->qc = c->s = NAN;
  c->clamped = 0;
}

double
logpc_occupancy (const struct logpc_net *net, double B)
{
  /* B bytes at Gc time units per byte; the paper's B cycles when
     Gc = 1 cycle per byte (Alewife).  */
  return B * net->Gc;
}

double
logpc_rho (const struct logpc_net *net, double B, double m)
{
  /* eq. (4): a message travels n k_d hops, occupies each channel for
     s = B Gc, and a switch has chan * n outgoing channels.  */
  double s = logpc_occupancy (net, B);
  return s * m * (double) net->n * net->kd / (net->chan * (double) net->n);
}

double
logpc_saturation_rate (const struct logpc_net *net, double B)
{
  double s = logpc_occupancy (net, B);
  if (!(s > 0) || !(net->kd > 0))
    return INFINITY;
  return net->chan / (s * net->kd);
}

/* The (k_d - 1) factor of eqs. (3), (5), (9) and (10), clamped at 0.  */
static double
kd_factor (const struct logpc_net *net, int *clamped)
{
  double f = net->kd - 1.0;
  *clamped = f < 0;
  return f < 0 ? 0.0 : f;
}

enum logpc_status
logpc_contention (const struct logpc_net *net, double B, double m,
                  struct logpc_contention *out)
{
  clear (out);
  if (!net_ok (net) || !isfinite (B) || !(B > 0) || !isfinite (m)
      || !(m >= 0))
    return LOGPC_DOMAIN;
  out->m = m;
  out->s = logpc_occupancy (net, B);
  out->m_sat = logpc_saturation_rate (net, B);
  out->rho = logpc_rho (net, B, m);                          /* eq. (4) */
  if (out->rho >= 1.0)
    return LOGPC_SATURATED;
  double f = kd_factor (net, &out->clamped);
  double n = (double) net->n;
  if (net->kd > 0)
    /* eq. (3): w_b = rho s / (1 - rho) (k_d - 1) / k_d^2 (1 + 1/n),
       which is eq. (5) once rho = s m k_d / 2 is substituted; the paper
       writes B for s (Gc = 1 cycle per byte).  */
    out->wb = out->rho * out->s / (1.0 - out->rho) * f / (net->kd * net->kd)
              * (1.0 + 1.0 / n);
  else
    out->wb = 0;
  out->Cn = n * net->kd * out->wb;                           /* eq. (6) */
  return LOGPC_OK;
}

double
logpc_cn (const struct logpc_net *net, double B, double m)
{
  struct logpc_contention c;
  if (logpc_contention (net, B, m, &c) != LOGPC_OK)
    return NAN;
  return c.Cn;
}

enum logpc_status
logpc_closed (const struct logpc_net *net, double B, double T, double mult,
              struct logpc_contention *out)
{
  clear (out);
  if (!net_ok (net) || !isfinite (B) || !(B > 0) || !isfinite (T)
      || !(T > 0) || !isfinite (mult) || !(mult > 0))
    return LOGPC_DOMAIN;
  int clamped;
  double f = kd_factor (net, &clamped);
  double n = (double) net->n;
  /* C_n(m) = A' m / (1 - beta m) with A' = s^2 (k_d - 1)(n + 1) / chan
     (eqs. 4 to 6, as in eqs. 9 and 10) and beta = s k_d / chan, where
     s = B Gc is the channel occupancy (the paper's B).
     m (T + mult C_n(m)) = 1 becomes (A - beta T) m^2 + (T + beta) m - 1
     = 0 with A = mult A'.  */
  double s = logpc_occupancy (net, B);
  double A = mult * s * s * f * (n + 1.0) / net->chan;
  double beta = s * net->kd / net->chan;
  out->s = s;
  out->T = T;
  out->mult = mult;
  out->clamped = clamped;
  out->qa = A - beta * T;
  out->qb = T + beta;
  out->qc = -1.0;
  out->m_sat = logpc_saturation_rate (net, B);
  /* The discriminant (T + beta)^2 + 4 (A - beta T) equals
     (T - beta)^2 + 4 A >= 0, so both roots are real.  The quadratic is
     -1 at m = 0 and A / beta^2 >= 0 at m = 1 / beta (rho = 1): exactly
     one root lies in (0, m_sat], the smaller positive one; the other is
     negative (qa > 0) or beyond saturation (qa < 0).  Written as
     2 / (qb + sqrt(D)) it needs no division by qa (which may be 0) and
     suffers no cancellation.  */
  double D = (T - beta) * (T - beta) + 4.0 * A;
  double m = 2.0 / (out->qb + sqrt (D));
  out->m = m;
  out->rho = logpc_rho (net, B, m);
  out->Tc = 1.0 / m;                                          /* eq. (7) */
  if (out->rho >= 1.0)
    return LOGPC_SATURATED;
  /* C_n from eq. (7) itself, T_c = T + mult C_n, agrees with eq. (6) at
     the root; eq. (6) is used so that the terms stay consistent.  */
  struct logpc_contention open;
  enum logpc_status st = logpc_contention (net, B, m, &open);
  if (st != LOGPC_OK)
    return st;
  out->wb = open.wb;
  out->Cn = open.Cn;
  return LOGPC_OK;
}

/* ---------------------------------------------------- transfer times */

void
logpc_machine_init (struct logpc_machine *p)
{
  p->L = p->os = p->orr = p->osl = p->orl = p->G = p->Gm = p->a = NAN;
}

double
logpc_short (const struct logpc_machine *p, double Cn)
{
  return p->os + p->L + Cn + p->orr;                  /* eqs. (8), (9) */
}

double
logpc_long (const struct logpc_machine *p, double B, double Cn)
{
  return p->osl + (B - 1.0) * p->G + p->L + Cn;       /* eqs. (1), (10) */
}

double
logpc_e2e (const struct logpc_machine *p, double B, double Cn)
{
  double dma = p->orl + p->a * p->G + B * p->Gm;
  double net = (B - 1.0) * p->G;
  return p->osl + p->L + Cn + (dma > net ? dma : net);        /* eq. (2) */
}

/* ---------------------------------------------------- upper bound */

enum logpc_status
logpc_bound (const struct logpc_net *net, double G, struct logpc_bound *out)
{
  struct logpc_contention c;
  out->F = out->inflation = out->mcB = NAN;
  if (!isfinite (G) || !(G > 0))
    return LOGPC_DOMAIN;
  /* eq. (13) with B = 1: m_c = 1 / (2 G + C_n(m_c)), C_n with the
     occupancy s = Gc; every term scales so that m_c B is the same for
     any B.  */
  enum logpc_status s = logpc_closed (net, 1.0, 2.0 * G, 1.0, &c);
  if (s != LOGPC_OK)
    return s;
  out->mcB = c.m;
  out->F = 1.0 / c.m;
  out->inflation = out->F / (2.0 * G);                       /* eq. (14) */
  return LOGPC_OK;
}

/* ---------------------------------------------------- Section 5 */

enum logpc_status
logpc_remap_short (const struct logpc_net *net,
                   const struct logpc_machine *p, double B, double Cr,
                   struct logpc_remap *out)
{
  enum logpc_status s;
  out->logp_sync = 2.0 * (p->os + p->L + p->orr);      /* Table 4, LogP */
  /* LoPC's empirical C_r: the cost of a handler that sends the reply.  */
  out->Cr = (isnan (Cr) || Cr < 0) ? p->orr + p->os : Cr;
  out->lopc_sync = out->logp_sync + out->Cr;
  /* Each node sends a request and serves one per round trip, so two
     messages per 2 (os + L + C_n + or) + C_r:
       m_c = 2 / (lopc + 2 C_n)  <=>  m_c = 1 / (lopc / 2 + C_n).  */
  s = logpc_closed (net, B, out->lopc_sync / 2.0, 1.0, &out->sync);
  if (s != LOGPC_OK)
    return s;
  out->logpc_sync = out->lopc_sync + 2.0 * out->sync.Cn;
  out->async = p->os + p->orr;                          /* Section 5.1.2 */
  return logpc_contention (net, B, 1.0 / out->async, &out->async_c);
}

enum logpc_status
logpc_remap_long (const struct logpc_net *net, double G, double B,
                  struct logpc_remap_long *out)
{
  out->T = 2.0 * G * B;                                 /* Section 5.1.3 */
  enum logpc_status s = logpc_closed (net, B, out->T, 1.0, &out->c);
  out->Tc = out->c.Tc;                                        /* eq. (13) */
  return s;
}

void
logpc_eq15 (double n, double P, double b, double task, double agg,
            double B, double L, double os, double G, double a,
            struct logpc_eq15 *out)
{
  out->wa = n * n / (P * b) * task;         /* algorithmic work per block */
  out->W = out->wa + agg * n / b;           /* W = w_a + alpha n / b */
  out->d = L + a * G;                       /* d = L + a G */
  out->Os = os + (B - 1.0) * G;             /* O_s = o_s + (B - 1) G */
  out->Or = (B - 1.0 - a) * G;              /* O_r = (B - 1 - a) G */
  out->u = out->Or + out->W + out->d;       /* u = O_r + W + d */
  out->v = out->Os + out->W + out->Or;      /* v = O_s + W + O_r */
  /* eq. (15): M = (W + d) + (P - 2) u + (b - 1) v + O_r + W */
  out->M = (out->W + out->d) + (P - 2.0) * out->u + (b - 1.0) * out->v
           + out->Or + out->W;
}

enum logpc_status
logpc_diamond (const struct logpc_net *net, const struct logpc_machine *p,
               const struct logpc_diamond_in *in, struct logpc_diamond *out)
{
  double n = in->n_dag, P = in->P, b = in->b, B = in->B;
  if (!(n > 0) || !(P >= 2) || !(b >= 1) || !(B >= 1) || !(in->task >= 0)
      || !(in->agg >= 0))
    return LOGPC_DOMAIN;
  struct logpc_eq15 t;
  logpc_eq15 (n, P, b, in->task, in->agg, B, p->L, p->os, p->G, p->a, &t);
  out->wa = t.wa;
  out->W = t.W;
  out->d = t.d;
  out->Os = t.Os;
  out->Or = t.Or;
  out->u = t.u;
  out->v = t.v;
  out->M = t.M;
  /* m_c = 1 / (v + 2 C_n) (Section 5.2.1).  */
  enum logpc_status s = logpc_closed (net, B, out->v, 2.0, &out->c);
  out->sends = (P - 1.0) + 2.0 * (b - 1.0);
  out->Mc = s == LOGPC_OK ? out->M + out->sends * out->c.Cn : NAN;
  return s;
}

enum logpc_status
logpc_em3d (const struct logpc_net *net, const struct logpc_machine *p,
            double B, double msgs, struct logpc_em3d *out)
{
  if (!(msgs >= 0))
    return LOGPC_DOMAIN;
  out->t_msg = p->os + p->orr;                          /* Section 5.3 */
  out->t_comm = msgs * out->t_msg;
  enum logpc_status s = logpc_contention (net, B, 1.0 / out->t_msg,
                                          &out->c);
  out->t_comm_c = s == LOGPC_OK ? msgs * (out->t_msg + out->c.Cn) : NAN;
  return s;
}
