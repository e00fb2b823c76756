/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagsim.c: event-driven simulation of an operation graph (dagsim.h).
 *
 * One queue of events ordered by time (same-time events in rounds, see
 * evq_pop): EV_OP (an operation whose dependencies are satisfied tries
 * to start), EV_MSG (a message's first byte reaches its receiver; named
 * after its send, or EV_RMSG after the receive it completes) and EV_WAKE
 * (a processor's resource frees for the head of a waiting line).
 * An operation or message whose resources (CPU, NIC) are busy waits in
 * its processor's line, first come first served, where LogGOPSim would
 * poll.  Completion times are known when an operation starts, so
 * successors are released at once with their satisfaction time: no
 * completion events.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "dagcost.h"
#include "dagsim.h"
#include "err.h"
#include "evqueue.h"
#include "matchq.h"
#include "xalloc.h"

/* Waiting lines of a processor (see run_wake).  */
enum { W_SEND, W_CALC, W_MSG, W_NCLASS };

/* Order of the event classes within a round: sends 0, receives 1,
   computations 2, messages 3; a waiting line's wake-up goes with its
   class.  */
static const uint8_t op_cls[3] = { 2, 0, 1 };   /* by enum dag_op */
static const uint8_t wake_cls[3] = { 0, 2, 3 }; /* by waiting line */

/* ------------------------------------------------------------ the state */

/* Per operation and per processor state, small (16 and 32 bytes): the
   simulation of a million ranks is bound by memory latency and by the
   page faults of its state, so four operations share a cache line.
   What only a rendezvous send needs is in struct sim's aux.  */
struct nstate
{
  union
  {
    double ready;      /* latest satisfaction time; for a SEND after it
                          started: when the receiver finished handling */
    uint32_t wstamp;   /* creation order: the stamp of the operation (a
                          SEND: or of its message) waiting in a line,
                          while ready is read by nothing (wait_stamp) */
  };
  uint32_t link;       /* bits 0-29: until the operation is released, the
                          predecessors not yet satisfied; then the next
                          operation in its list (RECV: the next posted
                          receive of its queue; CALC, SEND: the next in
                          its processor's waiting line), NS_NONE for
                          none.  Bits 30-31: the node's op. */
  uint32_t pst;        /* bits 0-27: processor, in the simulator's
                          numbering (at most 2^28); bits 28-31: ST_ */
};

/* Operations are numbered below 2^30 - 1 (dag_reserve), so the all-ones
   30 bits are no operation.  A count of predecessors must fit too.  */
#define NS_NONE 0x3fffffffu
#define NS_PROC 0x0fffffffu
#define ST_STARTED (1u << 28)
#define ST_DONE (1u << 29)
#define ST_MATCHED (1u << 30)
/* A SEND's message has been handled at its receiver (ST_ARRIVED), a
   RECV waits in its queue (ST_POSTED): never on the same operation, so
   one bit.  */
#define ST_ARRIVED (1u << 31)
#define ST_POSTED (1u << 31)

static inline int
ns_op (const struct nstate *x)
{
  return (int) (x->link >> 30);
}

static inline int32_t
ns_proc (const struct nstate *x)
{
  return (int32_t) (x->pst & NS_PROC);
}

static inline int32_t
ns_next (const struct nstate *x)
{
  uint32_t n = x->link & NS_NONE;
  return n == NS_NONE ? -1 : (int32_t) n;
}

static inline void
ns_set_next (struct nstate *x, int32_t v)
{
  x->link = (x->link & ~NS_NONE) | (v < 0 ? NS_NONE : (uint32_t) v);
}

/* What every event looks at: 32 bytes, two processors a cache line.  */
struct pstate
{
  double cpu, nic_s, nic_r;   /* when each resource is free again */
  uint32_t lines;             /* LINE_BUSY (c): waiting line c is not
                                 empty; LINE_WAKE (c): it has a wake-up
                                 pending (so struct pline needs no
                                 initialisation) */
};
#define LINE_BUSY(c) (1u << (c))
#define LINE_WAKE(c) (16u << (c))

/* A waiting line of a processor, touched only when something waits;
   one array per class of line, so that a schedule whose operations
   wait only for sends (a broadcast tree) never touches the pages of
   the other two.  */
struct pline
{
  double wake;                /* pending wake-up (valid when the line's
                                 LINE_WAKE bit is set) */
  int32_t head, tail;         /* (valid when its LINE_BUSY bit is set) */
};

/* A child of an event run processor by processor: its time and what
   it acts on; its stamp is given when the round ends (run_by_proc).  */
struct child
{
  double t;
  uint32_t tv;         /* type << 30 | operation */
};

struct byproc
{
  uint64_t *order;     /* processor << 32 | batch index, the order run */
  size_t n, pos, cap;
  uint32_t *cs, *ce;   /* per batch index of a leading event: its
                          children and those of its followers */
  size_t cscap;
  struct child *ch;
  size_t nch, chcap;
  uint64_t *tail;      /* keys after the round's last one (run after) */
  size_t ntail, tailcap;
  uint32_t *lead_ins;  /* inserted leading events (batch indices) */
  size_t nlead, leadcap;
  uint64_t kmax;       /* the round's last key */
  int32_t proc;        /* the processor being run */
};

struct sim
{
  const struct dag *d;
  const struct dagsim_cost *c;
  struct dagsim_result *r;
  const struct dagsim_opts *opt;
  struct evq h;
  struct mq mq;
  /* Per operation, without wildcards: the other end of its channel
     (chan_pairs), or -1 when the channel goes through the matching
     queues; NULL when every channel does.  */
  int32_t *mate;
  /* A message whose receive is known (rmsg_recv: a native message's,
     or the mate of a send) is an EV_RMSG event, named after its
     receive (run_rmsg): handled at once, as it mostly is, it reads
     only the receiver's state, not the send's three cache lines (its
     state, node and mate), which lie anywhere, or for a native
     message, the send's state and node next to the receive's, which
     its handling (handle_msg, deliver, match_pair) would write.  Only
     where nothing needs the send then (rmsg): no rendezvous, Gantt
     chart, critical path, --qstat, noise, several CPUs or hyperbolic
     model.  Mates as well (rmsg_mate) when every pair's sizes are
     equal, and every pair made without buckets (chan_pairs: each
     receiver has one send and one receive at most, as in a broadcast
     tree); a native message's two sizes are one (dag_add_message).
     The send's ST_MATCHED is then its receive's (op_matched).  */
  int rmsg, rmsg_mate;
  struct nstate *ns;
  struct pstate *ps;
  struct pline *pl[W_NCLASS];   /* per class, per processor */
  /* Processors are numbered in the order the operations name them
     (pnum[p]: the simulator's number of processor p of the DAG, porig[]
     the inverse), so that operations lying together in the DAG find
     their processors' state together in memory; the order of events
     within a round still follows the DAG's numbers (EV_KEY).  Both are
     NULL when the numbering is the DAG's (a GOAL file's ranks come in
     order): then they would take 8 bytes per processor for nothing.  */
  int32_t *pnum, *porig;
  /* pnum[p] == p for every p: the receiver of a message is its peer,
     without a read of pnum, a cache miss per message.  */
  int pnum_same;
  double *aux;         /* the end of each SEND's CPU part, when a send can
                          be a rendezvous (bytes > S) */
  int32_t *uq_next;    /* per SEND x nclass */
  uint64_t *order;     /* posting / arrival order (wildcards only) */
  uint64_t order_seq;
  int nclass;
  int gantt;           /* --gantt: record the intervals */
  /* Creation order (DAGSIM_TIE_CREATION): each event's stamp, in the
     bits that order it in its round (EV_KEY, class 0).  */
  int creation;
  uint32_t seq;        /* stamps given */
  uint32_t cur_ts;     /* the stamp of the event being run */
  uint32_t *wts;       /* --critical-path: per operation, its stamp while
                          it waits in a line (a SEND's slot also serves
                          its message); see wait_stamp */
  int32_t *freed;      /* operations freed by the event being run, in
                          the order their dependencies were satisfied */
  size_t nfreed, freed_cap;
  /* Creation order, a round run processor by processor (run_by_proc):
     whether the schedule allows it, whether a round is being run so,
     and its state.  */
  int by_proc_ok, by_proc;
  /* The processors' state outgrows the cache (BY_PROC_STATE): a round's
     events reach the operations' arrays all over, and prefetch_ahead
     asks for their successor lists' offsets and waiting lines too.
     Measured on a 2^20-rank broadcast, 4-7% less simulation time; on a
     1024-rank all-to-all, whose lists stay in the cache, 4% more:
     hence the condition.  */
  int far;
  struct byproc bp;
  /* critical path */
  int32_t *cp_pred;    /* operation that determined the start */
  int32_t *cpu_owner;  /* last operation that held each CPU */
  double *t_start, *t_end;
  int32_t *rpred;      /* latest-satisfying predecessor */
  /* The message costs and the network (dagcost.h), chosen at set-up;
     the model's send and recv (one load less per message than through
     model), recv NULL when the receiver pays nothing (then a
     message needs neither its CPU nor its NIC), and the network's
     wire, NULL when a message's arrival is the model's.  */
  const struct dagcost_model *model;
  void (*send) (const struct dagsim_cost *c, int32_t proc, int64_t bytes,
                double t, struct dagcost_send *m, double *nic);
  double (*recv) (const struct dagsim_cost *c, int64_t bytes, double t,
                  double *or_, double *nic);
  const struct dagcost_net *net;
  struct dagcost_net_state *net_st;
  double (*wire) (struct dagcost_net_state *st, int32_t from, int32_t to,
                  const struct dagcost_send *m, double bytes);
  /* the network's settle, NULL when wire's arrival is final */
  double (*settle) (struct dagcost_net_state *st, int32_t v, double t);
  /* --cores: when each core is free again (NULL: no sharing), and the
     core of each processor in the simulator's numbering */
  double *core;
  int32_t *pcore;
  int32_t *core_owner; /* --critical-path: last operation to hold each
                          core */
  int32_t *core_last;  /* cost's cs > 0: the processor each core ran last
                          (-1: none yet) */
  struct dag_noise *noise;   /* NULL: none */
  /* --qstat: per processor of the DAG, its posted (2 p + Q_POSTED) and
     unexpected (2 p + Q_UNEXPECTED) queue */
  struct qtrack *qt;
  /* Several CPUs or NICs per processor (GOAL's cpu and nic numbers;
     NULL: one of each, in struct pstate): per processor in the
     simulator's numbering, NCPU CPU timelines (xcpu[p * ncpu + cpu])
     and NNIC sending and receiving NIC timelines (xnic_s, xnic_r [p *
     nnic + nic]), as LogGOPSim's nexto, nextgs and nextgr.  struct
     pstate's cpu is then the latest of the processor's CPUs (its
     finish).  An operation or message that finds its CPU or NIC busy
     is queued again for when they are free, as LogGOPSim's are: a line
     per processor would hold up operations whose own CPU and NIC are
     free behind one whose are not.  The code of one CPU and one NIC
     runs as it is and these follow it (set_xcpu), so that it pays one
     test per operation.  */
  double *xcpu, *xnic_s, *xnic_r;
  int32_t *xcpu_owner; /* --critical-path: last operation to hold each */
  int32_t ncpu, nnic;
  int x_by_recv;       /* the event being run is a receive's posting (1)
                          or a message's handling (0): rendezvous_done */
};

enum { Q_POSTED = 0, Q_UNEXPECTED = 1 };

/* The receive named by the message of send V (node ND) when it is an
   EV_RMSG (struct sim's rmsg), else -1.  */
static inline int32_t
rmsg_recv (const struct sim *s, int32_t v, const struct dag_node *nd)
{
  if (!s->rmsg)
    return -1;
  if (s->rmsg_mate && s->mate[v] >= 0)
    return s->mate[v];
  return nd->derived ? v + 1 : -1;   /* a native message's
                                        (dag_add_message) */
}

/* Has send or receive V been matched?  A send whose message was an
   EV_RMSG handled at once (run_rmsg) is marked only on its receive.  */
static inline int
op_matched (const struct sim *s, size_t v)
{
  const struct nstate *x = &s->ns[v];
  if (x->pst & ST_MATCHED)
    return 1;
  if (ns_op (x) != DAG_SEND)
    return 0;
  int32_t rv = rmsg_recv (s, (int32_t) v, &s->d->node[v]);
  return rv >= 0 && (s->ns[rv].pst & ST_MATCHED);
}

/* Processor P of the simulator's numbering in the DAG's.  */
static inline int32_t
porig_of (const struct sim *s, int32_t p)
{
  return s->porig ? s->porig[p] : p;
}

/* The detours CPU work of length X from T on processor PROC (of the
   DAG) meets: its extra time (noise.h).  */
static inline double
noise_at (const struct sim *s, int32_t proc, double t, double x)
{
  return s->noise ? dag_noise_delay (s->noise, proc, t, x) : 0;
}

struct qtrack
{
  int64_t len, max, added;
  double area, last;   /* integral of len over [0, last] */
};

/* --qstat: queue K of processor P grows or shrinks by DELTA at T (events
   run in time order, so T never decreases).  */
static inline void
q_change (struct sim *s, int32_t p, int k, int delta, double t)
{
  if (s->qt)
    {
      struct qtrack *q = &s->qt[2 * (size_t) p + (size_t) k];
      q->area += (double) q->len * (t - q->last);
      q->last = t;
      q->len += delta;
      q->added += delta > 0;
      if (q->len > q->max)
        q->max = q->len;
    }
}

/* Processor P takes its core at T: when the core ran another processor
   last, the switch to P takes the cost's cs first (dagsim.h).  Returns
   when P's CPU time begins.  */
static inline double
core_switch (struct sim *s, int32_t p, double t)
{
  if (!s->core_last)
    return t;
  int32_t *last = &s->core_last[s->pcore[p]];
  if (*last != p)
    {
      if (*last >= 0)
        t += s->c->cs;
      *last = p;
    }
  return t;
}

/* When processor P's CPU is free: its core's time when processors share
   cores (struct dagsim_cost, cores), else its own.  */
static inline double
cpu_free (const struct sim *s, int32_t p)
{
  return s->core ? s->core[s->pcore[p]] : s->ps[p].cpu;
}

static void
gantt_add1 (struct sim *s, int32_t proc, double a, double b, int kind,
            int32_t v)
{
  struct dagsim_result *r = s->r;
  if (r->ngantt == r->gantt_cap)
    {
      r->gantt_cap = r->gantt_cap ? 2 * r->gantt_cap : 1024;
      r->gantt = xrealloc (r->gantt, r->gantt_cap * sizeof *r->gantt);
    }
  struct dagsim_interval *iv = &r->gantt[r->ngantt++];
  iv->start = a;
  iv->end = b;
  iv->proc = proc;
  iv->node = v;
  iv->kind = (uint8_t) kind;
}

static inline void
gantt_add (struct sim *s, int32_t proc, double a, double b, int kind,
           int32_t v)
{
  if (s->gantt && b > a)
    gantt_add1 (s, proc, a, b, kind, v);
}

static void
freed_add (struct sim *s, int32_t w)
{
  if (s->nfreed == s->freed_cap)
    {
      s->freed_cap = s->freed_cap ? 2 * s->freed_cap : 64;
      s->freed = xrealloc (s->freed, s->freed_cap * sizeof *s->freed);
    }
  s->freed[s->nfreed++] = w;
}

/* Release the successors of V of kind KIND (requires/irequires) at T.  */
static void
release (struct sim *s, int32_t v, int kind, double t)
{
  const struct dag *d = s->d;
  for (size_t i = d->succ_off[v]; i < d->succ_off[v + 1]; i++)
    {
      uint32_t e = d->succ[i];
      if ((int) (e & 1) != kind)
        continue;
      int32_t w = (int32_t) (e >> 1);
      if (t >= s->ns[w].ready)
        {
          s->ns[w].ready = t;
          /* Started by V's start (irequires): on the critical path it
             follows what started V, not V, whose interval can later
             span a message handled after W began (match_pair), which
             would make the path go back in time and loop.  */
          if (s->rpred)
            s->rpred[w] = kind == DAG_IREQUIRES ? s->cp_pred[v] : v;
        }
      if ((--s->ns[w].link & NS_NONE) == 0)
        {
          /* The operation tries to start when ready; if its resources
             are busy then, it waits in its processor's line (run_op).
             Only the operation's own state is touched here.  */
          if (s->creation)
            freed_add (s, w);
          else
            evq_push (&s->h, s->ns[w].ready,
                       EV_KEY (op_cls[ns_op (&s->ns[w])], w, EV_OP, w));
        }
    }
}

/* Creation order: queue a new event of TYPE on V at T with the next
   stamp, or in a round run by processor keep it until the round ends
   (run_by_proc).  */
static void
push_new (struct sim *s, double t, int type, int32_t v)
{
  if (!s->by_proc)
    {
      evq_push (&s->h, t, EV_KEY (0, s->seq++, type, v));
      return;
    }
  struct byproc *b = &s->bp;
  if (b->nch == b->chcap)
    {
      b->chcap = b->chcap ? 2 * b->chcap : 1024;
      b->ch = xrealloc (b->ch, b->chcap * sizeof *b->ch);
    }
  b->ch[b->nch].t = t;
  b->ch[b->nch].tv = (uint32_t) type << 30 | (uint32_t) v;
  b->nch++;
}

/* Several CPUs or NICs: when operation V of processor P (in the
   simulator's numbering) finds its CPU free, and a send its sending
   NIC too.  */
static double
x_need (const struct sim *s, int32_t v, int32_t p)
{
  const struct dag_node *nd = &s->d->node[v];
  double t = s->xcpu[(size_t) p * (size_t) s->ncpu + nd->cpu];
  if (nd->op == DAG_SEND)
    {
      double g = s->xnic_s[(size_t) p * (size_t) s->nnic + nd->nic];
      if (g > t)
        t = g;
    }
  return t;
}

/* Several CPUs or NICs: push_freed for W's own CPU and NIC.  Out of
   line, as the other x_ functions, so that the code for one CPU and one
   NIC keeps its registers.  */
static void __attribute__ ((noinline))
x_push_freed (struct sim *s, int32_t w)
{
  double t = s->ns[w].ready;
  double need = x_need (s, w, ns_proc (&s->ns[w]));
  push_new (s, need > t ? need : t, EV_OP, w);
}

/* Creation order: queue operation W, freed at the event being run, with
   the next stamp, at the later of its satisfaction and the time its
   processor's CPU (a send: and sending side) is free, as LogGOPSim's
   freed operations are.  */
static void
push_freed (struct sim *s, int32_t w)
{
  if (s->xcpu)
    {
      x_push_freed (s, w);
      return;
    }
  int32_t p = ns_proc (&s->ns[w]);
  const struct pstate *q = &s->ps[p];
  double t = s->ns[w].ready;
  if (cpu_free (s, p) > t)
    t = cpu_free (s, p);
  if (ns_op (&s->ns[w]) == DAG_SEND && q->nic_s > t)
    t = q->nic_s;
  push_new (s, t, EV_OP, w);
}

/* Stamp and queue the operations the event just run freed: by
   processor (in the DAG's numbering), then sends, receives,
   computations, each in the order they were freed (LogGOPSim's order,
   its sort by type made stable).  They are on the event's processor,
   and for a rendezvous on the sender's too.  */
static void
flush_freed (struct sim *s)
{
  size_t n = s->nfreed;
  if (!n)
    return;
  s->nfreed = 0;
  int32_t *f = s->freed;
  if (n == 1)
    {
      push_freed (s, f[0]);
      return;
    }
  int32_t p0 = ns_proc (&s->ns[f[0]]);
  size_t i = 1;
  while (i < n && ns_proc (&s->ns[f[i]]) == p0)
    i++;
  if (i == n)
    {
      for (int cls = 0; cls < 3; cls++)
        for (i = 0; i < n; i++)
          if (op_cls[ns_op (&s->ns[f[i]])] == cls)
            push_freed (s, f[i]);
      return;
    }
  /* several processors: sort (processor, class, position) */
  uint64_t *k = xmalloc (n * sizeof *k);
  for (i = 0; i < n; i++)
    k[i] = (uint64_t) porig_of (s, ns_proc (&s->ns[f[i]])) << 34
           | (uint64_t) op_cls[ns_op (&s->ns[f[i]])] << 32 | i;
  qsort (k, n, sizeof *k, evq_cmp_u64);
  for (i = 0; i < n; i++)
    push_freed (s, f[k[i] & 0xffffffffu]);
  free (k);
}

static void
mark_start (struct sim *s, int32_t v, double t)
{
  s->ns[v].pst |= ST_STARTED;
  if (s->t_start)
    {
      s->t_start[v] = t;
      int32_t p = ns_proc (&s->ns[v]);
      /* a wait for a shared core is a wait for whoever held it last */
      int32_t owner = s->core_owner ? s->core_owner[s->pcore[p]]
                      : s->xcpu ? s->xcpu_owner[(size_t) p * (size_t) s->ncpu
                                                + s->d->node[v].cpu]
                      : s->cpu_owner[p];
      if (t > s->ns[v].ready && owner >= 0)
        s->cp_pred[v] = owner;
      else
        s->cp_pred[v] = s->rpred[v];
    }
  if (s->d->has_irequires)
    release (s, v, DAG_IREQUIRES, t);
}

static void
mark_done (struct sim *s, int32_t v, double t)
{
  s->ns[v].pst |= ST_DONE;
  if (s->t_end)
    s->t_end[v] = t;
  release (s, v, DAG_REQUIRES, t);
}

/* Several CPUs or NICs: after set_cpu (which keeps the latest of the
   processor's CPUs in struct pstate, its finish), CPU K of processor P
   busy until T, for OWNER.  */
static void
set_xcpu (struct sim *s, int32_t p, int k, double t, int32_t owner)
{
  size_t i = (size_t) p * (size_t) s->ncpu + (size_t) k;
  if (t > s->xcpu[i])
    {
      s->xcpu[i] = t;
      if (s->xcpu_owner)
        s->xcpu_owner[i] = owner;
    }
}

static void
set_cpu (struct sim *s, int32_t proc, double t, int32_t owner)
{
  if (t > s->ps[proc].cpu)
    {
      s->ps[proc].cpu = t;
      if (s->cpu_owner)
        s->cpu_owner[proc] = owner;
    }
  if (s->core && t > s->core[s->pcore[proc]])
    {
      s->core[s->pcore[proc]] = t;
      if (s->core_owner)
        s->core_owner[s->pcore[proc]] = owner;
    }
}

/* Queue heads, skipping messages already matched through another class
   (lazy deletion).  */
static int32_t
uq_head (struct sim *s, struct mq_slot *q, int cls)
{
  while (q->head >= 0 && (s->ns[q->head].pst & ST_MATCHED))
    q->head = s->uq_next[(size_t) q->head * s->nclass + cls];
  return q->head;
}

static void
uq_pop (struct sim *s, struct mq_slot *q, int cls)
{
  q->head = s->uq_next[(size_t) q->head * s->nclass + cls];
  if (q->head < 0)
    q->tail = -1;
}

/* Several CPUs or NICs: rendezvous_done holds CPU and NIC of processor
   P numbered as BY's until T, for the send SND.  */
static void __attribute__ ((noinline))
x_rendezvous (struct sim *s, int32_t p, int32_t by, int32_t snd, double t)
{
  const struct dag_node *nb = &s->d->node[by];
  set_xcpu (s, p, nb->cpu, t, snd);
  double *ns = &s->xnic_s[(size_t) p * (size_t) s->nnic + nb->nic];
  if (*ns < t)
    *ns = t;
}

/* Rendezvous: the send SND completes when matched with RCV at T.  With
   several CPUs or NICs, the sender's CPU and NIC held until T are those
   numbered as the operation whose event matched (RCV being posted, or
   SND whose message is handled), as LogGOPSim's (its nexto and nextgs
   of the sender indexed by the processed operation's numbers).  */
static void
rendezvous_done (struct sim *s, int32_t snd, int32_t rcv, double t)
{
  int32_t p = ns_proc (&s->ns[snd]);
  double done = s->aux[snd] > t ? s->aux[snd] : t;
  set_cpu (s, p, t, snd);
  if (s->ps[p].nic_s < t)
    s->ps[p].nic_s = t;
  if (s->xcpu)
    x_rendezvous (s, p, s->x_by_recv ? rcv : snd, snd, t);
  mark_done (s, snd, done);
}

static void
match_pair (struct sim *s, int32_t snd, int32_t rcv, double t_match,
            double t_done)
{
  s->ns[snd].pst |= ST_MATCHED;
  s->ns[rcv].pst |= ST_MATCHED;
  if (s->rpred && t_done > s->t_start[rcv])
    {
      /* the receive's completion is determined by the message: on the
         critical path it spans the handling of the message */
      s->cp_pred[rcv] = snd;
      s->t_start[rcv] = t_match;
    }
  if ((double) s->d->node[snd].u.bytes > s->c->S)
    {
      /* the progress rule may hold the sender, and the receive, while
         the bytes move after the match (dagcost.h) */
      double t_snd = t_match;
      if (s->c->progress)
        s->c->progress->matched (s->c, s->model, s->d->node[snd].u.bytes,
                                 t_match, &t_snd, &t_done);
      rendezvous_done (s, snd, rcv, t_snd);
    }
  mark_done (s, rcv, t_done);
}

static void
post_recv (struct sim *s, int32_t v, double t)
{
  const struct dag *d = s->d;
  const struct dag_node *nd = &d->node[v];
  mark_start (s, v, t);
  /* A native message's send is the node before (dag_add_message); a
     channel's only send its mate (chan_pairs): nothing else can
     match.  */
  int32_t m = nd->derived ? v - 1 : s->mate ? s->mate[v] : -1;
  if (m >= 0)
    {
      if (s->ns[m].pst & ST_ARRIVED)
        {
          double fin = s->ns[m].ready;
          q_change (s, nd->proc, Q_UNEXPECTED, -1, t);
          match_pair (s, m, v, t, fin > t ? fin : t);
        }
      else
        {
          q_change (s, nd->proc, Q_POSTED, 1, t);
          s->ns[v].pst |= ST_POSTED;
        }
      return;
    }
  int cls = (nd->peer == DAG_ANY) | ((nd->tag == DAG_ANY) << 1);
  int32_t src = nd->peer == DAG_ANY ? DAG_ANY : nd->peer;
  int64_t tag = nd->tag == DAG_ANY ? DAG_ANY : nd->tag;
  struct mq_slot *q = !s->mq.nuq ? NULL
                      : mq_get (&s->mq, TBL_UQ << 2 | cls, nd->proc, src,
                                tag, 0);
  if (q && uq_head (s, q, cls) >= 0)
    {
      m = q->head;
      uq_pop (s, q, cls);
      q_change (s, nd->proc, Q_UNEXPECTED, -1, t);
      double fin = s->ns[m].ready;
      match_pair (s, m, v, t, fin > t ? fin : t);
      return;
    }
  q = mq_get (&s->mq, TBL_RQ << 2 | cls, nd->proc, src, tag, 1);
  q_change (s, nd->proc, Q_POSTED, 1, t);
  ns_set_next (&s->ns[v], -1);
  if (s->order)
    s->order[v] = s->order_seq++;
  if (q->tail >= 0)
    ns_set_next (&s->ns[q->tail], v);
  else
    q->head = v;
  q->tail = v;
  s->ns[v].pst |= ST_POSTED;
}

/* A message (send M) has been handled at its receiver; match it with the
   earliest posted receive or queue it as unexpected.  */
static int32_t
deliver (struct sim *s, int32_t m, double t, double fin)
{
  const struct dag_node *sn = &s->d->node[m];
  int32_t dst = sn->peer;
  int32_t v = sn->derived ? m + 1 : s->mate ? s->mate[m] : -1;
  if (v >= 0)
    {
      /* the receive's processor only for --qstat: a cache miss */
      int32_t rp = s->qt ? s->d->node[v].proc : 0;
      s->ns[m].ready = fin;
      s->ns[m].pst |= ST_ARRIVED;
      if (s->ns[v].pst & ST_POSTED)
        {
          q_change (s, rp, Q_POSTED, -1, t);
          match_pair (s, m, v, t, fin);
          return v;
        }
      q_change (s, rp, Q_UNEXPECTED, 1, t);
      return -1;
    }
  int ncls = s->d->has_wildcard ? 4 : 1;
  struct mq_slot *best = NULL;
  for (int cls = 0; cls < ncls; cls++)
    {
      int32_t src = (cls & 1) ? DAG_ANY : sn->proc;
      int64_t tag = (cls & 2) ? DAG_ANY : sn->tag;
      struct mq_slot *q = mq_get (&s->mq, TBL_RQ << 2 | cls, dst, src, tag,
                                  0);
      if (q && q->head >= 0
          && (!best || s->order[q->head] < s->order[best->head]))
        best = q;
    }
  s->ns[m].ready = fin;
  s->ns[m].pst |= ST_ARRIVED;
  if (best)
    {
      q_change (s, dst, Q_POSTED, -1, t);
      v = best->head;
      best->head = ns_next (&s->ns[v]);
      if (best->head < 0)
        best->tail = -1;
      else
        /* the queue's next message is matched later, when this one's
           state has left the cache: a ring's rank posts every receive
           at once, and the heads of all ranks' queues step through
           their state together, too many streams to be guessed */
        __builtin_prefetch (&s->ns[best->head], 1);
      match_pair (s, m, v, t, fin);
      return v;
    }
  q_change (s, dst, Q_UNEXPECTED, 1, t);
  if (s->order)
    s->order[m] = s->order_seq++;
  if (!s->uq_next)
    /* only schedules with unexpected messages need it; every entry read
       was written when its message was queued */
    s->uq_next = dag_hugepages (big_alloc (s->d->n * (size_t) s->nclass
                                           * sizeof *s->uq_next),
                                s->d->n * (size_t) s->nclass
                                * sizeof *s->uq_next);
  for (int cls = 0; cls < s->nclass; cls++)
    {
      int32_t src = (cls & 1) ? DAG_ANY : sn->proc;
      int64_t tag = (cls & 2) ? DAG_ANY : sn->tag;
      struct mq_slot *q = mq_get (&s->mq, TBL_UQ << 2 | cls, dst, src, tag,
                                  1);
      s->uq_next[(size_t) m * s->nclass + cls] = -1;
      if (q->tail >= 0 && q->head >= 0)
        s->uq_next[(size_t) q->tail * s->nclass + cls] = m;
      else
        q->head = m;
      q->tail = m;
    }
  return -1;
}

/* ------------------------------------------------ starting operations */

/* start_calc, start_send and handle_msg return when the CPU they took
   is free again, for their several-CPU forms (x_start_calc, ...) that
   run them and then set the CPU and NIC the operation names: one CPU
   and one NIC per processor pays nothing for several.  */

static double
start_calc (struct sim *s, int32_t v, double t)
{
  const struct dag_node *nd = &s->d->node[v];
  int32_t p = ns_proc (&s->ns[v]);
  t = core_switch (s, p, t);
  double w = nd->u.work + noise_at (s, nd->proc, t, nd->u.work);
  mark_start (s, v, t);
  set_cpu (s, p, t + w, v);
  gantt_add (s, nd->proc, t, t + w, GANTT_COMPUTE, v);
  mark_done (s, v, t + w);
  return t + w;
}

/* Several CPUs or NICs: start_calc on the CPU V names.  */
static void
x_start_calc (struct sim *s, int32_t v, double t)
{
  double end = start_calc (s, v, t);
  set_xcpu (s, ns_proc (&s->ns[v]), s->d->node[v].cpu, end, v);
}

/* The message of send V arrives at T: queue its event (a network that
   moves arrivals, dagcost.h's settle).  */
static void
push_msg (struct sim *s, int32_t v, double t)
{
  if (s->creation)
    push_new (s, t, EV_MSG, v);
  else
    evq_push (&s->h, t, EV_KEY (3, v, EV_MSG, v));
}

/* The messages whose arrival the last send moved earlier: an event
   each (the ones left behind the network drops).  */
static void
net_moved (struct sim *s)
{
  int32_t v;
  double t;
  while (s->net->moved (s->net_st, &v, &t))
    push_msg (s, v, t);
}

/* Send V at T: its costs from the model, its arrival from the network
   (dagcost.h).  */
static double
start_send (struct sim *s, int32_t v, double t)
{
  const struct dag_node *nd = &s->d->node[v];
  const struct dagsim_cost *c = s->c;
  int32_t p = ns_proc (&s->ns[v]);
  double x = (double) nd->u.bytes;
  struct dagcost_send mc;
  t = core_switch (s, p, t);
  s->send (c, nd->proc, nd->u.bytes, t, &mc, &s->ps[p].nic_s);
  /* the detours met while the CPU works delay only the CPU (a message
     still leaves at t + os) */
  double cpu_end = mc.cpu_end + noise_at (s, nd->proc, t, mc.busy);
  mc.op = v;
  double arrive = s->wire ? s->wire (s->net_st, nd->proc, nd->peer, &mc, x)
                  : mc.arrive;
  arrive += mc.late;
  mark_start (s, v, t);
  set_cpu (s, p, cpu_end, v);
  if (s->aux)
    s->aux[v] = cpu_end;
  gantt_add (s, nd->proc, t, cpu_end, GANTT_SEND, v);
  /* (a message named after its receive keeps the send's place in the
     class order) */
  int32_t rv = rmsg_recv (s, v, nd);
  if (s->creation)
    push_new (s, arrive, rv >= 0 ? EV_RMSG : EV_MSG, rv >= 0 ? rv : v);
  else
    evq_push (&s->h, arrive, rv >= 0 ? EV_KEY (3, v, EV_RMSG, rv)
                                      : EV_KEY (3, v, EV_MSG, v));
  if (s->settle)
    net_moved (s);   /* (none from this network's wire: its settle's) */
  if (x <= c->S)
    mark_done (s, v, cpu_end);
  return cpu_end;
}

/* Several CPUs or NICs: start_send on the CPU and NIC V names (a
   model whose receiver pays nothing holds no NIC: the hyperbolic).  */
static void
x_start_send (struct sim *s, int32_t v, double t)
{
  double end = start_send (s, v, t);
  int32_t p = ns_proc (&s->ns[v]);
  const struct dag_node *nd = &s->d->node[v];
  set_xcpu (s, p, nd->cpu, end, v);
  if (s->recv)
    s->xnic_s[(size_t) p * (size_t) s->nnic + nd->nic] = s->ps[p].nic_s;
}

/* The receiver of the message of send M, in the simulator's numbering
   (a native message's receive is the next operation).  */
static inline int32_t
recv_proc (const struct sim *s, int32_t m)
{
  const struct dag_node *sn = &s->d->node[m];
  return sn->derived ? ns_proc (&s->ns[m + 1])
         : s->pnum_same ? sn->peer : s->pnum[sn->peer];
}

/* The receiver handles message M (send node) at T.  */
static double
handle_msg (struct sim *s, int32_t m, double t)
{
  const struct dag_node *sn = &s->d->node[m];
  const struct dagsim_cost *c = s->c;
  int32_t r = recv_proc (s, m);
  double fin = t;
  if (s->recv)
    {
      /* the receiver's CPU time, on its core (some models' receiver
         has none: the hyperbolic) */
      t = core_switch (s, r, t);
      double or_;
      fin = s->recv (c, sn->u.bytes, t, &or_, &s->ps[r].nic_r)
            + noise_at (s, sn->derived ? s->d->node[m + 1].proc : sn->peer,
                        t, or_);
      set_cpu (s, r, fin, m);
    }
  else if (t > s->ps[r].cpu)
    /* a receiver that pays nothing is not done before
       the message is there: a link (bus, topology) that delays the
       delivery past the sender's T(x) delays the receiver's finish */
    s->ps[r].cpu = t;
  int32_t v = deliver (s, m, t, fin);
  /* Name the handling after the receive it completes (the receiving
     task of a native message), else after the send.  */
  gantt_add (s, sn->peer, t, fin, GANTT_RECV,
             v >= 0 ? v : sn->derived ? m + 1 : m);
  return fin;
}

/* Several CPUs or NICs: handle_msg on the receiver's CPU and NIC
   numbered as the send's (LogGOPSim's messages carry the send's
   numbers; the hyperbolic model's receiver pays nothing).  */
static void
x_handle_msg (struct sim *s, int32_t m, double t)
{
  double fin = handle_msg (s, m, t);
  if (!s->recv)
    return;
  int32_t r = recv_proc (s, m);
  const struct dag_node *sn = &s->d->node[m];
  set_xcpu (s, r, sn->cpu, fin, m);
  s->xnic_r[(size_t) r * (size_t) s->nnic + sn->nic] = s->ps[r].nic_r;
}

/* ------------------------------------------------------- waiting lines */

/* An operation or message whose resources are busy waits in its
   processor's line for its class (first come, first served) instead of
   polling: one wake-up event per processor, at the earliest time a head
   of line can go.  Without the lines, k messages waiting for one receiver
   would cost k^2 retries.  */

/* When the head of line CLS of processor P can go: every line belongs to
   the processor whose resources it waits for (a message's line is its
   receiver's).  */
static double
need_time (const struct sim *s, int cls, int32_t p)
{
  const struct pstate *q = &s->ps[p];
  double cpu = cpu_free (s, p);
  switch (cls)
    {
    case W_SEND:
      return cpu > q->nic_s ? cpu : q->nic_s;
    case W_CALC:
      return cpu;
    default:
      return cpu > q->nic_r ? cpu : q->nic_r;
    }
}

static void by_proc_insert (struct sim *s, int32_t p, uint64_t key);

/* Creation order: the stamp of V, waiting in a line (enqueue), which
   its wake-up takes when V is the head (schedule_wake).  Between
   entering a line and leaving it, nothing reads V's ready: it was
   satisfied before (push_freed), a SEND's is next written when its
   message is handled (deliver), and only the critical path's
   mark_start reads it after.  So the stamp takes its place, in the
   cache line that the line's links use, except with --critical-path
   (struct sim's wts, made at the first wait).  */
static inline void
set_wait_stamp (struct sim *s, int32_t v, uint32_t ts)
{
  if (!s->t_start)
    {
      s->ns[v].wstamp = ts;
      return;
    }
  if (!s->wts)
    /* only entries of waiting operations are read */
    s->wts = dag_hugepages (big_alloc (s->d->n * sizeof *s->wts),
                            s->d->n * sizeof *s->wts);
  s->wts[v] = ts;
}

static inline uint32_t
wait_stamp (const struct sim *s, int32_t v)
{
  return s->t_start ? s->wts[v] : s->ns[v].wstamp;
}

static void
schedule_wake (struct sim *s, int32_t p, int cls)
{
  struct pline *q = &s->pl[cls][p];
  uint32_t *lines = &s->ps[p].lines;
  if (!(*lines & LINE_BUSY (cls)))
    return;
  double e = need_time (s, cls, p);
  if (!(*lines & LINE_WAKE (cls)) || e < q->wake)
    {
      q->wake = e;
      *lines |= LINE_WAKE (cls);
      if (!s->creation)
        evq_push (&s->h, e, EV_KEY (wake_cls[cls],
                                     porig_of (s, p) * W_NCLASS + cls,
                                     EV_WAKE,
                                     p * W_NCLASS + cls));
      else
        {
          /* the wake-up takes the place of the head of line, with its
             stamp: at the current time, possibly before events of this
             round not yet run */
          uint64_t k = EV_KEY (0, wait_stamp (s, q->head), EV_WAKE,
                               p * W_NCLASS + cls);
          struct evq *h = &s->h;
          if (s->by_proc && e == h->btime)
            by_proc_insert (s, p, k);
          else if (h->bpos < h->blen && e == h->btime)
            evq_insert (h, k);
          else
            evq_push (h, e, k);
        }
    }
}

static void
enqueue (struct sim *s, int32_t p, int cls, int32_t v)
{
  struct pline *q = &s->pl[cls][p];
  ns_set_next (&s->ns[v], -1);
  if (s->creation)
    set_wait_stamp (s, v, s->cur_ts);
  if (s->ps[p].lines & LINE_BUSY (cls))
    ns_set_next (&s->ns[q->tail], v);
  else
    {
      q->head = v;
      s->ps[p].lines |= LINE_BUSY (cls);
    }
  q->tail = v;
  schedule_wake (s, p, cls);
}

/* Wake-up KEY = proc * W_NCLASS + class: start the heads of that line
   that can go at T.  */
static void
run_wake (struct sim *s, int32_t key, double t)
{
  int32_t p = key / W_NCLASS;
  int cls = key % W_NCLASS;
  struct pline *q = &s->pl[cls][p];
  uint32_t *lines = &s->ps[p].lines;
  if (!(*lines & LINE_WAKE (cls)) || t != q->wake)
    return;                     /* superseded by an earlier wake-up */
  *lines &= ~LINE_WAKE (cls);
  while (*lines & LINE_BUSY (cls))
    {
      int32_t v = q->head;
      if (need_time (s, cls, p) > t)
        break;
      q->head = ns_next (&s->ns[v]);
      if (q->head < 0)
        *lines &= ~LINE_BUSY (cls);
      if (cls == W_SEND)
        start_send (s, v, t);
      else if (cls == W_CALC)
        start_calc (s, v, t);
      else
        handle_msg (s, v, t);
      if (s->creation)
        {
          /* one event per head, as LogGOPSim retries each: the next
             head goes by its own stamp */
          flush_freed (s);
          break;
        }
    }
  schedule_wake (s, p, cls);
}

/* Several CPUs or NICs: the event of TYPE on V (key class CLS in class
   order) runs again at T, when what it waits for is free, with its
   stamp in creation order (LogGOPSim's retry keeps its place).  */
static void
x_retry (struct sim *s, int type, int32_t v, int cls, double t)
{
  evq_push (&s->h, t, s->creation ? EV_KEY (0, s->cur_ts, type, v)
                                   : EV_KEY (cls, v, type, v));
}

/* Several CPUs or NICs: start operation V at T when its own CPU (a
   send: and NIC) is free, else retry.  */
static void __attribute__ ((noinline))
x_run_op (struct sim *s, int32_t v, double t)
{
  int op = ns_op (&s->ns[v]);
  if (op == DAG_RECV)
    {
      s->x_by_recv = 1;
      post_recv (s, v, t);
      return;
    }
  double need = x_need (s, v, ns_proc (&s->ns[v]));
  if (need > t)
    x_retry (s, EV_OP, v, op_cls[op], need);
  else if (op == DAG_SEND)
    x_start_send (s, v, t);
  else
    x_start_calc (s, v, t);
}

static void
run_op (struct sim *s, int32_t v, double t)
{
  if (s->xcpu)
    {
      x_run_op (s, v, t);
      return;
    }
  int32_t p = ns_proc (&s->ns[v]);
  const struct pstate *q = &s->ps[p];
  switch (ns_op (&s->ns[v]))
    {
    case DAG_CALC:
      if ((q->lines & LINE_BUSY (W_CALC)) || cpu_free (s, p) > t)
        enqueue (s, p, W_CALC, v);
      else
        start_calc (s, v, t);
      return;
    case DAG_SEND:
      if ((q->lines & LINE_BUSY (W_SEND)) || cpu_free (s, p) > t
          || q->nic_s > t)
        enqueue (s, p, W_SEND, v);
      else
        start_send (s, v, t);
      return;
    case DAG_RECV:
      /* Posting a receive costs nothing: the receive overhead is charged
         when the message is handled (LogGOPSim's rule).  */
      post_recv (s, v, t);
      return;
    }
}

static void run_msg (struct sim *s, int32_t m, double t);
static void run_rmsg (struct sim *s, int32_t rv, double t);

/* Run one event and stamp what it freed.  */
static void
run_event (struct sim *s, int type, int32_t v, double t)
{
  if (type == EV_OP)
    run_op (s, v, t);
  else if (type == EV_MSG)
    run_msg (s, v, t);
  else if (type == EV_RMSG)
    run_rmsg (s, v, t);
  else
    run_wake (s, v, t);
  if (s->nfreed)
    flush_freed (s);
}

/* Several CPUs or NICs: run_msg for message M to processor R.  */
static void __attribute__ ((noinline))
x_run_msg (struct sim *s, int32_t m, int32_t r, double t)
{
  /* the CPU and receiving NIC of the send's numbers (x_handle_msg);
     the hyperbolic model's receiver pays nothing */
  const struct dag_node *sn = &s->d->node[m];
  double need = s->xcpu[(size_t) r * (size_t) s->ncpu + sn->cpu];
  double g = s->xnic_r[(size_t) r * (size_t) s->nnic + sn->nic];
  if (g > need)
    need = g;
  if (need > t && s->recv)
    x_retry (s, EV_MSG, m, 3, need);
  else
    {
      s->x_by_recv = 0;
      x_handle_msg (s, m, t);
    }
}

static void
run_msg (struct sim *s, int32_t m, double t)
{
  if (s->settle)
    {
      /* the network's arrival as it stands (dagcost.h) */
      double a = s->settle (s->net_st, m, t);
      net_moved (s);
      if (a != t)
        {
          if (a > t)
            push_msg (s, m, a);
          return;
        }
    }
  int32_t r = recv_proc (s, m);
  if (s->xcpu)
    {
      x_run_msg (s, m, r, t);
      return;
    }
  const struct pstate *q = &s->ps[r];
  if (s->recv
      && ((q->lines & LINE_BUSY (W_MSG)) || cpu_free (s, r) > t
          || q->nic_r > t))
    enqueue (s, r, W_MSG, m);
  else
    handle_msg (s, m, t);
}

/* The message completing receive RV (struct sim's rmsg): handled at
   once when RV is posted and its processor free, as handle_msg and
   deliver would (the sizes of send and receive are one); otherwise,
   to wait in the line or find its receive later, it becomes its send's
   (run_msg).  */
static void
run_rmsg (struct sim *s, int32_t rv, double t)
{
  struct nstate *x = &s->ns[rv];
  int32_t r = ns_proc (x);
  struct pstate *q = &s->ps[r];
  if (!(x->pst & ST_POSTED) || (q->lines & LINE_BUSY (W_MSG))
      || cpu_free (s, r) > t || q->nic_r > t)
    {
      /* a native message's send is the operation before (never a
         mate: chan_pairs) */
      run_msg (s, s->rmsg_mate && s->mate[rv] >= 0 ? s->mate[rv] : rv - 1,
               t);
      return;
    }
  t = core_switch (s, r, t);
  double or_;
  double fin = s->recv (s->c, s->d->node[rv].u.bytes, t, &or_, &q->nic_r);
  set_cpu (s, r, fin, rv);
  x->pst |= ST_MATCHED;
  mark_done (s, rv, fin);
}

/* ------------------------------------- creation order, by processor */

/* A round in creation order runs its events in stamp order (evq_pop).
   Consecutive stamps are far apart in memory, so when the schedule
   allows it (by_proc_ok: every dependency joins operations of one
   processor, no rendezvous, no wildcard, no contention model, neither
   Gantt chart nor critical path) a large round runs processor by
   processor instead, in memory order, and gives the same results:

   1. Then an event reads and writes only the state of its own
      processor (its CPU, NIC, lines, matching queues and operations),
      and the events it inserts into the round (schedule_wake) are its
      processor's.  So the stamp order restricted to one processor P
      (always the pending event with the least key, evq_insert) is
      P's own: between two of P's events only P's events change P's
      pending ones.  Running every processor's events in that order,
      one processor after another, leaves every processor's state as
      the stamp order does.
   2. What differs is the stamps of the new events (push_new), given in
      the order the events run.  The stamp order runs a round as
      leading events in increasing key, each followed by the events it
      inserted with a smaller key than its own (run at once, being the
      least) and so on: all of its processor's.  Within a processor, an
      event leads exactly when its key exceeds the key of the last
      leading event of its processor in this round.  So the new events
      are kept (struct child), by leading event, and given their stamps
      when the round ends, leading events in increasing key.
   3. An event inserted at the current time goes into the round only
      while the round has an event not yet run (evq_insert), a
      condition on the whole round.  The round's last key KMAX (and
      anything inserted after it) is therefore run after the others, by
      stamp as before: until then the event of key KMAX has not run.  */

/* Sort the N entries of A (processor << 32 | index) by processor,
   indices in order within one: an LSD radix sort on the processor's
   BITS bits (TMP: room for N).  It serves only rounds of BY_PROC_MIN
   events or more, so it has no case for a few entries.  */
static void
sort_by_proc (uint64_t *a, uint64_t *tmp, size_t n, int bits)
{
  enum { PBITS = 11, PSIZE = 1 << PBITS };
  static size_t cnt[PSIZE];
  uint64_t *src = a, *dst = tmp;
  for (int shift = 32; shift < 32 + bits; shift += PBITS)
    {
      memset (cnt, 0, sizeof cnt);
      for (size_t j = 0; j < n; j++)
        cnt[(src[j] >> shift) & (PSIZE - 1)]++;
      size_t sum = 0;
      for (size_t k = 0; k < PSIZE; k++)
        {
          size_t c = cnt[k];
          cnt[k] = sum;
          sum += c;
        }
      for (size_t j = 0; j < n; j++)
        dst[cnt[(src[j] >> shift) & (PSIZE - 1)]++] = src[j];
      uint64_t *x = src;
      src = dst;
      dst = x;
    }
  if (src != a)
    memcpy (a, src, n * sizeof *a);
}

/* Room for N entries in the batch and the per-index arrays.  */
static void
by_proc_room (struct sim *s, size_t n)
{
  struct evq *h = &s->h;
  struct byproc *b = &s->bp;
  if (n > h->batch_cap)
    {
      size_t cap = n + n / 2 + 16;
      h->batch = evq_keys_grow (h->batch, h->blen, cap);
      h->batch_cap = cap;
    }
  if (n > b->cscap)
    {
      b->cscap = n + n / 2 + 16;
      b->cs = xrealloc (b->cs, b->cscap * sizeof *b->cs);
      b->ce = xrealloc (b->ce, b->cscap * sizeof *b->ce);
    }
}

static void
tail_add (struct byproc *b, uint64_t key)
{
  if (b->ntail == b->tailcap)
    {
      b->tailcap = b->tailcap ? 2 * b->tailcap : 16;
      b->tail = xrealloc (b->tail, b->tailcap * sizeof *b->tail);
    }
  b->tail[b->ntail++] = key;
}

/* A wake-up KEY of processor P at the current time (schedule_wake),
   while a round runs by processor: after the round's last key it waits
   for the tail (3. above), else it joins P's events not yet run, in
   key order.  P is the processor being run (1. above).  */
static void
by_proc_insert (struct sim *s, int32_t p, uint64_t key)
{
  struct evq *h = &s->h;
  struct byproc *b = &s->bp;
  if (key > b->kmax)
    {
      tail_add (b, key);
      return;
    }
  size_t idx = h->blen;
  by_proc_room (s, idx + 1);
  h->batch[idx] = key;
  h->blen++;
  /* P's events not yet run: from pos to the first of another
     processor */
  size_t lo = b->pos, hi = b->n;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if ((int32_t) (b->order[mid] >> 32) == p)
        lo = mid + 1;
      else
        hi = mid;
    }
  size_t end = lo;
  lo = b->pos;
  hi = end;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (h->batch[b->order[mid] & 0xffffffffu] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (b->n == b->cap)
    {
      b->cap = 2 * b->cap + 16;
      b->order = xrealloc (b->order, b->cap * sizeof *b->order);
    }
  memmove (&b->order[lo + 1], &b->order[lo],
           (b->n - lo) * sizeof *b->order);
  b->order[lo] = (uint64_t) p << 32 | idx;
  b->n++;
}

static int
cmp_pair (const void *x, const void *y)
{
  const uint64_t *a = x, *b = y;
  return (a[0] > b[0]) - (a[0] < b[0]);
}

/* Stamp and queue the children of leading event IDX (2. above).  */
static void
emit_children (struct sim *s, size_t idx)
{
  struct byproc *b = &s->bp;
  for (uint32_t i = b->cs[idx]; i < b->ce[idx]; i++)
    evq_push (&s->h, b->ch[i].t,
               EV_KEY (0, s->seq++, b->ch[i].tv >> 30,
                       b->ch[i].tv & 0x3fffffffu));
}

static void run_event (struct sim *s, int type, int32_t v, double t);

/* Run the round just taken from the queue (evq_next_round) by
   processor, all but its last key and what follows it, which are left
   in the batch to run by stamp.  Returns the number of events run.  */
static uint64_t
run_by_proc (struct sim *s)
{
  struct evq *h = &s->h;
  struct byproc *b = &s->bp;
  size_t n = h->blen, m = n - 1;
  double t = h->btime;
  b->kmax = h->batch[m];
  b->ntail = 0;
  tail_add (b, b->kmax);
  if (m > b->cap)
    {
      b->cap = m + m / 2;
      b->order = xrealloc (b->order, b->cap * sizeof *b->order);
    }
  for (size_t i = 0; i < m; i++)
    {
      uint64_t k = h->batch[i];
      int32_t v = EV_NODE (k);
      int type = EV_TYPE (k);
      int32_t p = type == EV_OP || type == EV_RMSG ? ns_proc (&s->ns[v])
                  : type == EV_MSG ? recv_proc (s, v) : v / W_NCLASS;
      b->order[i] = (uint64_t) p << 32 | i;
    }
  int bits = 1;
  while (bits < 31 && ((int64_t) 1 << bits) < s->d->nprocs)
    bits++;
  sort_by_proc (b->order, h->tmp, m, bits);
  b->n = m;
  b->pos = 0;
  b->nch = 0;
  b->nlead = 0;
  by_proc_room (s, n);
  s->by_proc = 1;
  b->proc = -1;
  uint64_t lead_key = 0;
  size_t lead = 0;
  uint64_t events = 0;
  while (b->pos < b->n)
    {
      if (b->pos + 8 < b->n)
        {
          uint64_t e = b->order[b->pos + 8];
          uint64_t k = h->batch[e & 0xffffffffu];
          __builtin_prefetch (&s->ps[e >> 32], 1);
          if (EV_TYPE (k) != EV_WAKE)
            {
              __builtin_prefetch (&s->ns[EV_NODE (k)], 1);
              __builtin_prefetch (&s->d->node[EV_NODE (k)], 0);
            }
        }
      uint64_t e = b->order[b->pos++];
      size_t idx = e & 0xffffffffu;
      int32_t p = (int32_t) (e >> 32);
      uint64_t k = h->batch[idx];
      if (p != b->proc || k > lead_key)
        {
          b->proc = p;
          lead_key = k;
          lead = idx;
          b->cs[idx] = (uint32_t) b->nch;
          if (idx >= n)
            {
              if (b->nlead == b->leadcap)
                {
                  b->leadcap = b->leadcap ? 2 * b->leadcap : 16;
                  b->lead_ins = xrealloc (b->lead_ins,
                                          b->leadcap * sizeof *b->lead_ins);
                }
              b->lead_ins[b->nlead++] = (uint32_t) idx;
            }
        }
      s->cur_ts = (uint32_t) ((k >> 32) & 0x3fffffff);
      run_event (s, EV_TYPE (k), EV_NODE (k), t);
      b->ce[lead] = (uint32_t) b->nch;
      events++;
    }
  s->by_proc = 0;
  /* the new events, by leading event in key order */
  uint64_t *li = NULL;
  if (b->nlead)
    {
      li = xmalloc (2 * b->nlead * sizeof *li);
      for (size_t j = 0; j < b->nlead; j++)
        {
          li[2 * j] = h->batch[b->lead_ins[j]];
          li[2 * j + 1] = b->lead_ins[j];
        }
      qsort (li, b->nlead, 2 * sizeof *li, cmp_pair);
    }
  size_t j = 0;
  for (size_t i = 0; i < m; i++)
    {
      while (j < b->nlead && li[2 * j] < h->batch[i])
        emit_children (s, li[2 * j++ + 1]);
      emit_children (s, i);
    }
  while (j < b->nlead)
    emit_children (s, li[2 * j++ + 1]);
  free (li);
  /* the tail, by stamp */
  qsort (b->tail, b->ntail, sizeof *b->tail, evq_cmp_u64);
  by_proc_room (s, b->ntail);
  memcpy (h->batch, b->tail, b->ntail * sizeof *b->tail);
  h->blen = b->ntail;
  h->bpos = 0;
  return events;
}

/* A round's events are known in advance (the sorted batch): ask for
   the memory the events a few places ahead will read, so that its
   cache misses overlap with the work of the events before them.  Their
   operation's state first (PREFETCH_FAR ahead), then the processor
   state it names (PREFETCH_NEAR ahead, when the operation's state has
   arrived).  With many processors (struct sim's far) also the
   successor lists' offsets of the operations the events will release
   (release found them in no cache, and half its time went to that
   read), and an operation's waiting line.  A hint only: nothing else
   changes.  Always inlined: a function whose only effect is
   __builtin_prefetch counts for GCC (12) as one without side effects,
   and its calls were deleted.  */
enum { PREFETCH_FAR = 32, PREFETCH_NEAR = 12 };

/* Are most consecutive events of the round just taken (in stamp order)
   far apart in memory, so that running it by processor pays?  A look
   at the keys only.  */
enum { SCATTER_PAIRS = 1024 };

static int
scattered (const struct evq *h)
{
  /* More than half the neighbours far apart, judged on at most
     SCATTER_PAIRS pairs spread over the round: the choice decides only
     the speed (both ways give the same results, see run_by_proc).  */
  size_t n = h->blen, step = n / SCATTER_PAIRS + 1, far = 0, pairs = 0;
  for (size_t i = 1; i < n; i += step)
    {
      int32_t a = EV_NODE (h->batch[i - 1]), b = EV_NODE (h->batch[i]);
      far += (a > b ? a - b : b - a) > 64;
      pairs++;
    }
  return 2 * far > (step == 1 ? n : pairs);
}

/* Rounds of fewer events run by stamp (run_by_proc), and so do all
   when the processors' state is small enough to stay in the cache
   (bytes; measured: a 1024-rank all-to-all runs slower by processor).  */
#ifndef BY_PROC_STATE
# define BY_PROC_STATE (1 << 20)
#endif
#ifndef BY_PROC_MIN
# define BY_PROC_MIN 256
#endif

static inline void prefetch_ahead (const struct sim *s)
  __attribute__ ((always_inline));
static inline void
prefetch_ahead (const struct sim *s)
{
  const struct evq *h = &s->h;
  if (h->bpos + PREFETCH_FAR < h->blen)
    {
      uint64_t k = h->batch[h->bpos + PREFETCH_FAR];
      int32_t v = EV_NODE (k);
      int type = EV_TYPE (k);
      if (type == EV_WAKE)
        {
          __builtin_prefetch (&s->ps[v / W_NCLASS], 1);
          __builtin_prefetch (&s->pl[v % W_NCLASS][v / W_NCLASS], 1);
        }
      else
        {
          __builtin_prefetch (&s->ns[v], 1);
          __builtin_prefetch (&s->d->node[v], 0);
          if (type != EV_MSG && s->far)
            __builtin_prefetch (&s->d->succ_off[v], 0);
          /* a message's receive: a native message's is the next
             operation, a paired channel's its mate (read near) */
          if (type == EV_MSG)
            __builtin_prefetch (s->mate ? (const void *) &s->mate[v]
                                        : (const void *) &s->ns[v + 1], 1);
        }
    }
  if (h->bpos + PREFETCH_NEAR < h->blen)
    {
      uint64_t k = h->batch[h->bpos + PREFETCH_NEAR];
      int32_t v = EV_NODE (k);
      int type = EV_TYPE (k);
      if (type == EV_OP)
        {
          const struct nstate *x = &s->ns[v];
          int32_t p = ns_proc (x);
          __builtin_prefetch (&s->ps[p], 1);
          /* and, should it find its processor busy, its waiting line
             (enqueue) */
          int op = ns_op (x);
          if (s->far && op != DAG_RECV)
            __builtin_prefetch (&s->pl[op == DAG_SEND ? W_SEND : W_CALC][p],
                                1);
        }
      else if (type == EV_WAKE)
        {
          /* the head of the line (read only when the line is busy) */
          const struct pline *q = &s->pl[v % W_NCLASS][v / W_NCLASS];
          if (s->ps[v / W_NCLASS].lines & LINE_BUSY (v % W_NCLASS))
            {
              __builtin_prefetch (&s->ns[q->head], 1);
              __builtin_prefetch (&s->d->node[q->head], 0);
              if (s->far)
                {
                  __builtin_prefetch (&s->d->succ_off[q->head], 0);
                  /* a send's mate names its message (start_send) */
                  if (s->rmsg_mate)
                    __builtin_prefetch (&s->mate[q->head], 0);
                }
            }
        }
      else if (type == EV_RMSG)
        __builtin_prefetch (&s->ps[ns_proc (&s->ns[v])], 1);
      else
        {
          __builtin_prefetch (&s->ps[recv_proc (s, v)], 1);
          /* the receive it completes */
          if (s->mate && s->mate[v] >= 0)
            {
              __builtin_prefetch (&s->ns[s->mate[v]], 1);
              if (s->far)
                __builtin_prefetch (&s->d->succ_off[s->mate[v]], 0);
            }
        }
    }
}

/* Append ", KIND DESCRIPTION" to the message being built.  */
static void
stuck_item (const struct dag *d, char *msg, size_t cap, const char *kind,
            int32_t v)
{
  char desc[256];
  dag_describe (d, v, desc, sizeof desc);
  size_t len = strlen (msg);
  snprintf (msg + len, cap - len, "; %s: %s", kind, desc);
}

static const char *
stuck_message (struct sim *s)
{
  const struct dag *d = s->d;
  /* Name what never completed: receives posted but unmatched, messages
     sent but never received, then operations that never started (they
     wait, directly or not, for the former).  At most 4 of each.  */
  enum { SHOW = 4 };
  static char list[4096];
  size_t cap = sizeof list, nrecv = 0, nsend = 0, nwait = 0;
  list[0] = '\0';
  for (size_t v = 0; v < d->n; v++)
    {
      uint32_t st = s->ns[v].pst;
      const struct dag_node *nd = &d->node[v];
      if (nd->op == DAG_SEND && (st & ST_STARTED) && !op_matched (s, v))
        {
          if (nsend++ < SHOW)
            stuck_item (d, list, cap, "unmatched send", (int32_t) v);
        }
      else if (nd->op == DAG_RECV && (st & ST_STARTED)
               && !(st & ST_MATCHED))
        {
          if (nrecv++ < SHOW)
            stuck_item (d, list, cap, "unmatched receive", (int32_t) v);
        }
    }
  for (size_t v = 0; v < d->n; v++)
    if (!(s->ns[v].pst & ST_STARTED))
      {
        if (nwait++ < SHOW && !nsend && !nrecv)
          stuck_item (d, list, cap, "never started", (int32_t) v);
      }
  static char msg[sizeof list + 256];
  snprintf (msg, sizeof msg, "%s: schedule cannot complete: %zu unmatched "
            "send%s, %zu unmatched receive%s, %zu operation%s never "
            "started%s", d->source, nsend, nsend == 1 ? "" : "s", nrecv,
            nrecv == 1 ? "" : "s", nwait, nwait == 1 ? "" : "s", list);
  return msg;
}

static void sim_release (struct sim *s);

/* The schedule cannot complete: say why in R, keep nothing else.  */
static int
stuck (struct sim *s, struct dagsim_result *r)
{
  const char *why = stuck_message (s);
  dagsim_result_free (r);
  r->stuck = why;
  r->makespan = NAN;
  r->last_proc = -1;
  sim_release (s);
  return -1;
}

/* Is V, with nothing before it, a receive posted at time 0 directly
   rather than as an event: a native message's, or any when the
   schedule has no irequires (dagsim_run)?  */
static inline int
posted_at_start (const struct dag *d, size_t v)
{
  return d->node[v].op == DAG_RECV
         && (d->node[v].derived || !d->has_irequires);
}

/* Is V an operation queued at time 0 (no dependencies, not
   posted_at_start)?  */
static inline int
is_root (const struct dag *d, size_t v)
{
  return !d->npred[v] && !posted_at_start (d, v);
}

/* Stamp and queue the N roots G in the order of push_roots: sends,
   receives, computations, each in operation order.  Each entry of G is
   the operation with its class (op_cls) in bits 30 and 31.  */
static void
push_group (struct sim *s, const uint32_t *g, size_t n)
{
  if (n == 1)
    {
      evq_push (&s->h, 0.0, EV_KEY (0, s->seq++, EV_OP,
                                     (int32_t) (g[0] & NS_NONE)));
      return;
    }
  for (uint32_t cls = 0; cls < 3; cls++)
    for (size_t k = 0; k < n; k++)
      if (g[k] >> 30 == cls)
        evq_push (&s->h, 0.0, EV_KEY (0, s->seq++, EV_OP,
                                       (int32_t) (g[k] & NS_NONE)));
}

/* Creation order: stamp and queue the operations free at the start as
   LogGOPSim does: by processor, then sends, receives, computations,
   each in operation order.  Operations usually come grouped by
   processor (a GOAL file's rank blocks): then one pass, which gathers
   each group's roots (a few) and pushes them, else a sort.  NROOT: the
   number of roots (is_root); GROUPED: whether their processors never
   decrease in operation order; the roots are operations LO to HI - 1
   and others between (all three found by dagsim_run's first pass: a
   broadcast's roots are its root's first operations, and a second pass
   over 2^20 ranks' took some 5 ms, 2% of the simulation).  */
static void
push_roots (struct sim *s, size_t nroot, int grouped, size_t lo, size_t hi)
{
  const struct dag *d = s->d;
  if (nroot)
    evq_room (&s->h, 0.0, nroot);
  if (grouped)
    {
      size_t ng = 0, gcap = 64;
      int32_t gp = -1;   /* the group's processor */
      uint32_t *g = xmalloc (gcap * sizeof *g);
      for (size_t v = lo; v < hi; v++)
        if (is_root (d, v))
          {
            int32_t p = d->node[v].proc;
            if (ng && p != gp)
              {
                push_group (s, g, ng);
                ng = 0;
              }
            gp = p;
            if (ng == gcap)
              g = xrealloc (g, (gcap *= 2) * sizeof *g);
            g[ng++] = (uint32_t) v | (uint32_t) op_cls[d->node[v].op] << 30;
          }
      if (ng)
        push_group (s, g, ng);
      free (g);
      return;
    }
  uint64_t *k = dag_hugepages (big_alloc ((nroot ? nroot : 1) * sizeof *k),
                              (nroot ? nroot : 1) * sizeof *k);
  size_t i = 0;
  for (size_t v = lo; v < hi; v++)
    if (is_root (d, v))
      k[i++] = (uint64_t) d->node[v].proc << 32
               | (uint64_t) op_cls[d->node[v].op] << 30 | v;
  qsort (k, nroot, sizeof *k, evq_cmp_u64);
  for (i = 0; i < nroot; i++)
    evq_push (&s->h, 0.0, EV_KEY (0, s->seq++, EV_OP,
                                   (int32_t) (k[i] & 0x3fffffff)));
  big_free (k);
}

/* Does every dependency join operations of one processor?  */
static int
edges_local (const struct dag *d)
{
  for (size_t v = 0; v < d->n; v++)
    for (size_t i = d->succ_off[v]; i < d->succ_off[v + 1]; i++)
      if (d->node[d->succ[i] >> 1].proc != d->node[v].proc)
        return 0;
  return 1;
}

/* N zeroed elements of SIZE bytes that the run writes every one of
   (dag_populate).  */
static void *
xcalloc_touched (size_t n, size_t size)
{
  return dag_populate (xcalloc (n, size), n * size);
}

/* Free the state of a run (also what a run that died through err.h left:
   the state is static so that a harness that catches the exit neither
   loses nor leaks it).  */
static void
sim_release (struct sim *s)
{
  evq_free (&s->h);
  free (s->mq.slot);
  big_free (s->mate);
  big_free (s->ns);
  big_free (s->uq_next);
  big_free (s->order);
  free (s->ps);
  for (int c = 0; c < W_NCLASS; c++)
    free (s->pl[c]);
  free (s->pnum);
  free (s->porig);
  big_free (s->aux);
  big_free (s->cp_pred);
  big_free (s->rpred);
  big_free (s->t_start);
  big_free (s->t_end);
  free (s->cpu_owner);
  big_free (s->wts);
  free (s->freed);
  free (s->bp.order);
  free (s->bp.cs);
  free (s->bp.ce);
  free (s->bp.ch);
  free (s->bp.tail);
  free (s->bp.lead_ins);
  free (s->core);
  free (s->core_last);
  if (s->net_st)
    s->net->release (s->net_st);
  free (s->pcore);
  free (s->core_owner);
  free (s->qt);
  free (s->xcpu);
  free (s->xnic_s);
  free (s->xnic_r);
  free (s->xcpu_owner);
  memset (s, 0, sizeof *s);
}

/* --qstat: the queues' statistics into the result, each queue's time
   average closed at the makespan.  */
static void
queue_stats (struct sim *s, size_t np)
{
  struct dagsim_result *r = s->r;
  r->queue = xcalloc (np, sizeof *r->queue);
  for (size_t p = 0; p < np; p++)
    {
      struct qtrack *q = &s->qt[2 * p];
      struct dagsim_queue *o = &r->queue[p];
      double m = r->makespan;
      for (int k = 0; k < 2; k++)
        if (m > q[k].last)
          q[k].area += (double) q[k].len * (m - q[k].last);
      o->posted_max = q[Q_POSTED].max;
      o->unexpected_max = q[Q_UNEXPECTED].max;
      o->posted_mean = m > 0 ? q[Q_POSTED].area / m : NAN;
      o->unexpected_mean = m > 0 ? q[Q_UNEXPECTED].area / m : NAN;
      o->posted = q[Q_POSTED].added;
      o->unexpected = q[Q_UNEXPECTED].added;
    }
}

/* The numbering arrays of S for NP processors, once an operation
   names a processor out of order: the first NEXTP, named in order so
   far, keep their numbers.  */
static void
number_procs (struct sim *s, size_t np, int32_t nextp)
{
  /* mapped in at once, on huge pages, like the per-operation arrays
     (dag_populate): a page fault per 4 KiB costs, and on a virtual
     machine it can cost 10 us */
  s->pnum = dag_populate (xmalloc (np * sizeof *s->pnum),
                          np * sizeof *s->pnum);
  s->porig = dag_populate (xmalloc (np * sizeof *s->porig),
                           np * sizeof *s->porig);
  for (size_t p = 0; p < np; p++)
    s->pnum[p] = s->porig[p] = p < (size_t) nextp ? (int32_t) p : -1;
}

/* What set-up learns in its pass over the operations (scan_ops).  */
struct scan
{
  size_t n, np;        /* operations, processors (at least 1) */
  size_t nsend;
  int rendezvous;      /* a send is above the cost's S */
  int native;          /* a native message (dag_add_message) */
  /* the operations free at the start: receives posted at once
     (posted_at_start) and the others (push_roots), whose processors
     may come grouped; the roots lie within [root_lo, root_hi) */
  size_t nposted, nroot, root_lo, root_hi;
  int grouped;
};

/* The pass over the operations: their state, the simulator's numbering
   of the processors, and what K counts.  The simulator's numbering is
   the DAG's as long as the operations name processors 0, 1, 2 ... in
   that order (nextp: the next new one); the numbering arrays are made
   only when one comes out of order, holding the order so far.  */
static void
scan_ops (struct sim *s, struct scan *k)
{
  const struct dag *d = s->d;
  int32_t nextp = 0, lastroot = -1;
  k->grouped = 1;
  for (size_t v = 0; v < k->n; v++)
    {
      int32_t p = d->node[v].proc;
      if (d->node[v].op == DAG_SEND)
        {
          k->nsend++;
          k->native |= d->node[v].derived;
          if ((double) d->node[v].u.bytes > s->c->S)
            k->rendezvous = 1;
        }
      if (!d->npred[v])
        {
          if (posted_at_start (d, v))
            k->nposted++;
          else
            {
              if (p < lastroot)
                k->grouped = 0;
              lastroot = p;
              if (!k->nroot++)
                k->root_lo = v;
              k->root_hi = v + 1;
            }
        }
      if (!s->pnum && p >= nextp)
        {
          if (p == nextp)
            nextp++;
          else
            number_procs (s, k->np, nextp);
        }
      if (s->pnum && s->pnum[p] < 0)
        {
          s->porig[nextp] = p;
          s->pnum[p] = nextp++;
        }
      if (d->npred[v] >= NS_NONE)
        {
          char desc[256];
          dag_describe (d, (int32_t) v, desc, sizeof desc);
          die ("%s: %s has %lu dependencies: at most 2^30 - 2 can be "
               "simulated", d->source, desc, (unsigned long) d->npred[v]);
        }
      s->ns[v].link = d->npred[v] | (uint32_t) d->node[v].op << 30;
      s->ns[v].pst = (uint32_t) (s->pnum ? s->pnum[p] : p);
    }
  /* processors that only appear as a message's peer (in the DAG's
     numbering those not yet numbered are nextp ... np - 1, in order) */
  s->pnum_same = 1;
  if (s->pnum)
    {
      for (size_t p = 0; p < k->np; p++)
        if (s->pnum[p] < 0)
          {
            s->porig[nextp] = (int32_t) p;
            s->pnum[p] = nextp++;
          }
      for (size_t p = 0; p < k->np && s->pnum_same; p++)
        s->pnum_same = s->pnum[p] == (int32_t) p;
    }
}

/* The widths of the ordering numbers: class order, operations and
   processor * W_NCLASS + line; creation order, a stamp per operation
   and per message.  */
static void
set_key_width (struct sim *s, const struct scan *k)
{
  size_t maxsort = k->n > k->np * W_NCLASS ? k->n : k->np * W_NCLASS;
  if (s->creation)
    {
      maxsort = k->n + k->nsend;
      if (maxsort >= ((size_t) 1 << 30))
        die ("%s: %zu operations and messages: at most 2^30 - 1 can be "
             "simulated in creation order (--tie-order class has no such "
             "limit below 2^30 operations)", s->d->source, maxsort);
    }
  s->h.vbits = 1;
  while (s->h.vbits < 30 && ((size_t) 1 << s->h.vbits) < maxsort)
    s->h.vbits++;
}

/* --cores: processor p of the DAG on core p mod N.  */
static void
alloc_cores (struct sim *s, size_t np)
{
  const struct dagsim_cost *c = s->c;
  size_t ncore = (uint64_t) c->cores < np ? (size_t) c->cores : np;
  s->core = xcalloc (ncore, sizeof *s->core);
  s->pcore = xmalloc (np * sizeof *s->pcore);
  for (size_t p = 0; p < np; p++)
    s->pcore[p] = (int32_t) ((uint64_t) porig_of (s, (int32_t) p)
                             % (uint64_t) c->cores);
  if (c->cs > 0)
    {
      s->core_last = xmalloc (ncore * sizeof *s->core_last);
      for (size_t i = 0; i < ncore; i++)
        s->core_last[i] = -1;
    }
}

/* --critical-path: who determined each operation's start.  */
static void
alloc_critical_path (struct sim *s, size_t n, size_t np)
{
  s->cp_pred = big_calloc (n, sizeof *s->cp_pred);
  s->rpred = big_calloc (n, sizeof *s->rpred);
  s->t_start = big_calloc (n, sizeof *s->t_start);
  s->t_end = big_calloc (n, sizeof *s->t_end);
  s->cpu_owner = xcalloc (np, sizeof *s->cpu_owner);
  for (size_t v = 0; v < n; v++)
    s->cp_pred[v] = s->rpred[v] = -1;
  for (size_t p = 0; p < np; p++)
    s->cpu_owner[p] = -1;
  if (s->xcpu)
    {
      size_t nx = np * (size_t) s->ncpu;
      s->xcpu_owner = xmalloc (nx * sizeof *s->xcpu_owner);
      for (size_t i = 0; i < nx; i++)
        s->xcpu_owner[i] = -1;
    }
  if (s->core)
    {
      size_t ncore = (uint64_t) s->c->cores < np ? (size_t) s->c->cores
                     : np;
      s->core_owner = xmalloc (ncore * sizeof *s->core_owner);
      for (size_t i = 0; i < ncore; i++)
        s->core_owner[i] = -1;
    }
}

/* The state of the simulation beyond the operations': the processors',
   the cost model and network (dagcost.h, chosen here once), and what
   the options ask for.  */
static void
alloc_state (struct sim *s, const struct scan *k)
{
  const struct dag *d = s->d;
  const struct dagsim_cost *c = s->c;
  const struct dagsim_opts *opt = s->opt;
  size_t n = k->n, np = k->np;
  if (k->rendezvous)
    s->aux = dag_hugepages (big_alloc (n * sizeof *s->aux),
                            n * sizeof *s->aux);
  if (d->has_wildcard)
    s->order = dag_hugepages (big_calloc (n, sizeof *s->order),
                              n * sizeof *s->order);
  s->ps = xcalloc_touched (np, sizeof *s->ps);
  s->ncpu = 1;
  if (d->maxcpu > 0 || d->maxnic > 0)
    {
      if (c->cores > 0)
        die ("%s: cpu and nic numbers and shared cores cannot be combined",
             d->source);
      s->ncpu = d->maxcpu + 1;
      s->nnic = d->maxnic + 1;
      s->xcpu = xcalloc (np * (size_t) s->ncpu, sizeof *s->xcpu);
      s->xnic_s = xcalloc (np * (size_t) s->nnic, sizeof *s->xnic_s);
      s->xnic_r = xcalloc (np * (size_t) s->nnic, sizeof *s->xnic_r);
    }
  s->model = dagcost_model_of (c);
  s->send = s->model->send;
  s->recv = s->model->recv;
  s->net = dagcost_net_of (c);
  s->wire = s->net->wire;
  s->settle = s->net->settle;
  if (s->settle && s->xcpu)
    die ("%s: cpu and nic numbers and the %s network cannot be combined "
         "(topology-fifo:FILE can)", d->source, s->net->name);
  s->net_st = s->net->start ? s->net->start (c, d, opt && opt->link_stats)
              : NULL;
  if (c->cores > 0)
    alloc_cores (s, np);
  /* zeroed pages: only the processors that ever wait touch theirs */
  for (int cls = 0; cls < W_NCLASS; cls++)
    s->pl[cls] = dag_hugepages (xcalloc (np, sizeof *s->pl[cls]),
                                np * sizeof *s->pl[cls]);
  if (opt && opt->critical_path)
    alloc_critical_path (s, n, np);
  if (opt && opt->qstat)
    s->qt = xcalloc (2 * np, sizeof *s->qt);
  s->noise = opt ? opt->noise : NULL;
}

/* The fast paths the schedule, the options and the costs allow (struct
   sim's rmsg, rmsg_mate, by_proc_ok): the model's and the network's
   choice, made here once.  */
static void
choose_paths (struct sim *s, const struct scan *k)
{
  const struct dagsim_opts *opt = s->opt;
  int cp = opt && opt->critical_path;
  s->far = k->np * sizeof *s->ps > BY_PROC_STATE;
  s->rmsg_mate = s->rmsg_mate && s->mate;
  /* (off when no message can be: a test less per send) */
  s->rmsg = (s->rmsg_mate || k->native) && !k->rendezvous && !s->gantt
            && !cp && !s->qt && !s->noise && !s->xcpu && s->recv
            && !s->settle;
  s->rmsg_mate = s->rmsg && s->rmsg_mate;
  s->by_proc_ok = s->creation && !k->rendezvous && !s->d->has_wildcard
                  && !s->gantt && !cp && s->model->local && !s->wire
                  && !s->c->cores && !s->xcpu
                  && k->np * sizeof *s->ps > BY_PROC_STATE;
}

/* Receives with nothing before them are posted at time 0 directly,
   in operation order, each counted as the event it replaces: those of
   native messages (as their events would run first), and in a
   schedule without irequires all others.  Then a posting frees
   nothing (a receive's successors wait for its message) and changes
   only its processor's queues, while the first round's other events
   (sends and computations at time 0) make nothing a receive can see
   before the round is over (a message is an event of a later round):
   the order the receives' events would have taken among them does
   not matter.  A 2^20-rank broadcast's first round had a million
   receives.  Returns the events counted.  */
static uint64_t
start_roots (struct sim *s, const struct scan *k)
{
  const struct dag *d = s->d;
  uint64_t events = 0;
  for (size_t v = 0; (k->nposted || !s->creation) && v < k->n; v++)
    if (!d->npred[v])
      {
        if (posted_at_start (d, v))
          {
            post_recv (s, (int32_t) v, 0.0);
            events++;
          }
        else if (!s->creation)
          evq_push (&s->h, 0.0, EV_KEY (op_cls[d->node[v].op], v, EV_OP, v));
      }
  if (s->creation)
    {
      push_roots (s, k->nroot, k->grouped, k->root_lo, k->root_hi);
      flush_freed (s);   /* freed by the postings */
    }
  return events;
}

/* The event loop, from EVENTS events counted; returns them all.  */
static uint64_t
run_events (struct sim *s, uint64_t events)
{
  const struct dagsim_opts *opt = s->opt;
  /* edges_local, a pass over the dependencies, only asked when a round
     would run by processor: -1 not known yet */
  int edges_ok = -1;
  /* without a progress callback the next report never comes */
  uint64_t next_report = opt && opt->progress ? 1u << 20 : UINT64_MAX;
  while (evq_pending (&s->h))
    {
      double t;
      int type;
      int32_t v;
      if (s->by_proc_ok && s->h.bpos == s->h.blen)
        {
          evq_next_round (&s->h);
          if (s->h.blen >= BY_PROC_MIN && scattered (&s->h))
            {
              if (edges_ok < 0)
                edges_ok = edges_local (s->d);
              if (edges_ok)
                events += run_by_proc (s);
              else
                s->by_proc_ok = 0;
            }
          continue;
        }
      evq_pop (&s->h, &t, &type, &v, &s->cur_ts);
      events++;
      if (events >= next_report)
        {
          opt->progress (opt->progress_ctx, events, t);
          next_report = events + (1u << 20);
        }
      prefetch_ahead (s);
      if (type == EV_OP)
        run_op (s, v, t);
      else if (type == EV_MSG)
        run_msg (s, v, t);
      else if (type == EV_RMSG)
        run_rmsg (s, v, t);
      else
        run_wake (s, v, t);
      if (s->nfreed)
        flush_freed (s);
    }
  return events;
}

/* The processor finishing last, from the simulator's state (in its
   numbering, the order of that state): the latest finish, and of those
   equal the lowest number in the DAG.  */
static void
last_finish (const struct sim *s, size_t np, struct dagsim_result *r)
{
  r->makespan = 0;
  r->last_proc = 0;
  for (size_t p = 0; p < np; p++)
    {
      double f = s->ps[p].cpu;
      int32_t q = porig_of (s, (int32_t) p);
      if (f > r->makespan || (f == r->makespan && f > 0 && q < r->last_proc))
        {
          r->makespan = f;
          r->last_proc = q;
        }
    }
}

/* Did operation V (state SV) complete?  */
static int
op_done (const struct sim *s, size_t v, const struct nstate *sv)
{
  return (sv->pst & ST_DONE) && (ns_op (sv) == DAG_CALC || op_matched (s, v));
}

/* The per-processor sums (dagsim_proc) into R, in the DAG's numbering,
   and the count of messages; -1 when an operation did not complete.
   The CPU time of each operation follows from its kind and size: it is
   summed here rather than in the event loop, per processor in the
   simulator's numbering (in operation order, as the sums always were).
   FINISH_ONLY: only the count of messages.  */
static int
sum_procs (struct sim *s, size_t np, int finish_only,
           struct dagsim_result *r)
{
  const struct dag *d = s->d;
  struct dagsim_proc *acc = finish_only ? NULL
                            : xcalloc_touched (np, sizeof *acc);
  for (size_t v = 0; v < d->n; v++)
    {
      const struct dag_node *nd = &d->node[v];
      const struct nstate *sv = &s->ns[v];
      if (!op_done (s, v, sv))
        {
          free (acc);
          return -1;
        }
      if (finish_only)
        r->messages += ns_op (sv) == DAG_SEND;
      else if (nd->op == DAG_CALC)
        acc[ns_proc (sv)].compute += nd->u.work;
      else if (nd->op == DAG_SEND)
        {
          struct dagsim_proc *snd = &acc[ns_proc (sv)];
          struct dagsim_proc *rcv = &acc[recv_proc (s, (int32_t) v)];
          r->messages++;
          snd->nsend++;
          rcv->nrecv++;
          s->model->totals (s->c, nd->u.bytes, &snd->send, &rcv->recv);
        }
    }
  big_free (s->ns);
  s->ns = NULL;
  big_free (s->uq_next);
  s->uq_next = NULL;
  if (finish_only)
    return 0;
  r->proc = acc;
  /* Into the DAG's numbering, in place: follow each cycle of the
     permutation (porig is spent on the way).  */
  for (size_t p = 0; p < np; p++)
    acc[p].finish = s->ps[p].cpu;
  for (size_t i = 0; s->porig && i < np; i++)
    {
      if (s->porig[i] < 0)
        continue;
      struct dagsim_proc val = acc[i];
      size_t cur = i;
      while (s->porig[cur] >= 0)
        {
          size_t dst = (size_t) s->porig[cur];
          s->porig[cur] = -1;
          struct dagsim_proc tmp = acc[dst];
          acc[dst] = val;
          val = tmp;
          cur = dst;
        }
    }
  return 0;
}

/* --critical-path into R: walk back from the operation that ends
   last.  */
static void
take_critical_path (const struct sim *s, struct dagsim_result *r)
{
  size_t n = s->d->n;
  int32_t last = -1;
  for (size_t v = 0; v < n; v++)
    if (last < 0 || s->t_end[v] > s->t_end[last])
      last = (int32_t) v;
  size_t cnt = 0;
  for (int32_t v = last; v >= 0 && cnt <= n; v = s->cp_pred[v])
    cnt++;
  r->cp = xcalloc (cnt, sizeof *r->cp);
  r->cp_start = xcalloc (cnt, sizeof *r->cp_start);
  r->cp_end = xcalloc (cnt, sizeof *r->cp_end);
  size_t i = cnt;
  for (int32_t v = last; v >= 0 && i > 0; v = s->cp_pred[v])
    {
      i--;
      r->cp[i] = v;
      r->cp_start[i] = s->t_start[v];
      r->cp_end[i] = s->t_end[v];
    }
  r->ncp = cnt;
}

int
dagsim_run (const struct dag *d, const struct dagsim_cost *c,
            const struct dagsim_opts *opt, struct dagsim_result *r)
{
  static struct sim s;
  sim_release (&s);
  memset (r, 0, sizeof *r);
  s.d = d;
  s.c = c;
  s.r = r;
  s.opt = opt;
  evq_init (&s.h);
  if (d->nprocs > (1 << 28))
    die ("%s: %ld processors: at most 2^28 can be simulated", d->source,
         (long) d->nprocs);
  struct scan k = { .n = d->n,
                    .np = d->nprocs > 0 ? (size_t) d->nprocs : 1 };
  s.nclass = d->has_wildcard ? 4 : 1;
  s.gantt = opt && opt->gantt;
  s.creation = !opt || opt->tie_order == DAGSIM_TIE_CREATION;
  /* first, so that its temporary arrays are gone before the state
     comes */
  s.rmsg_mate = 0;
  if (!d->has_wildcard)
    s.mate = chan_pairs (d, k.np, &s.rmsg_mate);
  s.ns = dag_populate (big_calloc (k.n, sizeof *s.ns), k.n * sizeof *s.ns);
  scan_ops (&s, &k);
  set_key_width (&s, &k);
  alloc_state (&s, &k);
  choose_paths (&s, &k);

  r->events = run_events (&s, start_roots (&s, &k));

  evq_free (&s.h);
  evq_init (&s.h);
  for (int cls = 0; cls < W_NCLASS; cls++)
    {
      free (s.pl[cls]);
      s.pl[cls] = NULL;
    }
  last_finish (&s, k.np, r);
  if (sum_procs (&s, k.np, opt && opt->finish_only, r) != 0)
    return stuck (&s, r);
  if (s.t_start)
    take_critical_path (&s, r);
  if (s.qt)
    queue_stats (&s, k.np);
  if (s.net_st)
    {
      s.net->finish (s.net_st, r);
      s.net_st = NULL;
    }
  sim_release (&s);
  return 0;
}

void
dagsim_result_free (struct dagsim_result *r)
{
  free (r->proc);
  free (r->gantt);
  free (r->cp);
  free (r->cp_start);
  free (r->cp_end);
  free (r->queue);
  free (r->link);
  memset (r, 0, sizeof *r);
}
