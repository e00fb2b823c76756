/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagsim.h: event-driven makespan simulation of an operation graph
 * (dag.h) under the LogP family of cost models.
 *
 * Timing rules (LogGOPS, as in LogGOPSim; s = bytes, s1 = max(s-1, 0)):
 *   CALC w starting at t       CPU busy [t, t+w]
 *   SEND starting at t         needs CPU and NIC free:
 *                              CPU busy [t, t + os + s1*O]
 *                              NIC busy [t, t + g + s1*G]
 *                              first byte at the receiver at t + os + L
 *                              eager (s <= S): completes at t + os + s1*O;
 *                              rendezvous (s > S): completes when the
 *                              receive matches (sender CPU and NIC held)
 *   message handled at t_a     needs receiver CPU and NIC free:
 *                              CPU busy [t_a, t_a + or + max(s1*O, s1*G)]
 *                              NIC busy [t_a, t_a + g + s1*G]
 *   RECV posted at t           completes when its message has been handled
 * With GOAL's cpu and nic numbers (dag.h) a processor has several CPUs
 * and NICs, each its own time line: an operation uses those it names, a
 * handled message those of its send's numbers at the receiver
 * (LogGOPSim's rules).
 * LogP is the rule set with G = O = 0 and S infinite, LogGP with O = 0 and
 * S infinite.  The hyperbolic model replaces the whole transfer by
 * T(x) = a^2/(a + b x) + b x (eq. (2) of the hyperbolic paper) of sender
 * CPU time, delivered at the end of it.  LoGPC adds C_n (eqs. (5), (6)
 * of the LoGPC paper) to L per message, at the sender's injection rate.
 *
 * Matching: MPI order (the earliest posted matching receive; the earliest
 * arrived matching message) through hash queues keyed by (receiver,
 * source, tag), with one queue per wildcard class.  */
#ifndef MSGPERF_DAGSIM_H
#define MSGPERF_DAGSIM_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"
#include "noise.h"

struct plogp;
struct dag_topo;
struct dagcost_net;
struct dagcost_progress;

struct dagsim_cost
{
  double L, os, or_, g, G, O;
  double S;            /* eager up to S bytes; INFINITY: always eager */
  int hyperbolic;      /* use T(x; a, b) instead of the LogGOPS rules */
  double a, b;
  /* LoGPC: extra latency of a message of BYTES sent by a processor whose
     injection rate is RATE[proc] (NULL: none).  */
  const double *rate;
  double (*contention) (const void *ctx, double rate, double bytes);
  const void *ctx;
  /* The network (dag-predict --network): 0, every processor has its own
     NIC (the rules above); 1, one shared link (a bus) that every message
     occupies for its wire time, first come first served: a message whose
     first byte is ready at t_r = t + os goes on the wire at
     t_w = max(t_r, bus free), holds it until t_w + s1*G (hyperbolic:
     t_w = max(t, bus free), held for b s), and reaches the receiver at
     t_w + L (hyperbolic: delivered at t_w + T(s)).  */
  int bus;
  /* The network of links of a topology (topology.h; NULL: none).
     With its fifo set (topology-fifo:FILE), a message from one rank to
     another reserves every link l_1..l_k of its route at once, first
     come first served, from t_w = max(t_r, free(l_1), ..., free(l_k))
     until t_w + s1 * max_i G(l_i) (hyperbolic: t_r = t, held until
     t_w + s * max_i G(l_i)), G(l) being the link's own time per byte or
     the model's (G; hyperbolic: b); it reaches the receiver at
     t_w + L + sum_i L(l_i) (hyperbolic: t_w + T(s) + sum_i L(l_i)).
     Otherwise (topology:FILE) its s1 (hyperbolic: s) bytes are a flow
     from t_r over l_1..l_k at no more than 1/G, each link's 1/G(l)
     shared max-min fair among the flows on it at every instant
     (linkshare.h); a flow that ends at t_e delivers its message at
     t_e - s1 G + L + sum_i L(l_i) (hyperbolic: t_e - s b + T(s) +
     sum_i L(l_i)): alone on its route, the first rule's time.  A
     message to its own rank uses no link.  Every message must have a
     route (dag_topo_route_dag checks them all beforehand): one without
     ends the program.  */
  struct dag_topo *topo;
  /* Another network of dagcost.c's table (NULL: the one the fields
     above ask for, a NIC per rank by default), and its parameters
     (the network's parse).  */
  const struct dagcost_net *net;
  const void *net_arg;
  /* What moves a rendezvous message's bytes (dagcost.h; NULL: a
     progress thread, the rules above).  */
  const struct dagcost_progress *progress;
  /* Parameterized LogP (Kielmann, Bal, Verstoep; dag-predict -m plogp):
     when not NULL, a message of s bytes costs os(s), or(s), g(s) and
     L' = L + g(s) - os(s) - or(s) read from this table at its size
     (plogp_loggp, common/models/logp/plogp.h) with G = O = 0, instead of
     the fixed L, os, or, g, G, O above.  */
  const struct plogp *plogp;
  /* CPU sharing (--cores): 0, every processor has its own CPU; N > 0,
     processor p runs on core p mod N, and the CPU time of the processors
     of one core (overheads and computations) is served one at a time,
     first come first served.  */
  int64_t cores;
  /* With cores: a core that last ran another processor's CPU time
     first switches to this one, which takes CS (a context switch: ranks
     that wait for messages by polling and yielding hand the core over
     at each message).  0: switches are free.  */
  double cs;
};

enum dagsim_kind { GANTT_COMPUTE, GANTT_SEND, GANTT_RECV, GANTT_WAIT };

struct dagsim_interval
{
  double start, end;
  int32_t proc;
  int32_t node;        /* operation (for GANTT_RECV: the receive if it
                          was matched already, else the send) */
  uint8_t kind;
};

struct dagsim_proc
{
  double finish;       /* last time a CPU of the processor is busy */
  double compute;      /* CPU time in CALC */
  double send, recv;   /* CPU time sending, handling messages */
  int64_t nsend, nrecv;
};

/* --qstat: the matching queues of one processor, the posted receives
   (posted_) and the unexpected messages (unexpected_).  A receive
   searches the unexpected queue when it is posted, a message the posted
   queue when its receiver handles it; what does not match is appended.
   A queue shrinks only when searched, so in a schedule that completes
   its longest is its length at a search, the match included:
   LogGOPSim's --qstat rq-max and uq-max (with its list matching).  */
struct dagsim_queue
{
  int64_t posted, unexpected;             /* entries appended */
  int64_t posted_max, unexpected_max;     /* the longest each queue was */
  double posted_mean, unexpected_mean;    /* time average over [0,
                                             makespan]; NaN when the
                                             makespan is 0 */
};

/* --link-stats: what one link of the topology (dagsim_cost's topo)
   carried.  First come first served, a message holds every link of its
   route at once, for its bytes at the route's slowest time per byte
   (after the first byte under the LogP family, as LogGP's (s - 1) G),
   so a link's holds never overlap and busy <= makespan; a message that
   found its route busy waited for the link of the route that came free
   last: that link counts the message and the wait.  Shared, busy is
   the time some flow crossed the link (it may end after the makespan,
   past the receiver's first byte), and a message slower than alone on
   its route waited that much longer, counted on the link whose share
   set its rate last.  */
struct dagsim_link
{
  int64_t messages;     /* messages routed over it */
  double bytes;         /* their bytes */
  double busy;          /* the time it was held */
  int64_t waited;       /* messages that waited for it */
  double wait;          /* their waits, summed */
};

struct dagsim_result
{
  double makespan;
  int32_t last_proc;        /* processor finishing last */
  uint64_t events;          /* events processed (operations started or
                               posted, messages, wake-ups) */
  int64_t messages;
  const char *stuck;        /* NULL, or why the schedule cannot complete */
  struct dagsim_proc *proc; /* nprocs entries; NULL with finish_only */
  /* --gantt */
  struct dagsim_interval *gantt;
  size_t ngantt, gantt_cap;
  /* --critical-path: operations from the first to the last, with their
     start and end times.  */
  int32_t *cp;
  double *cp_start, *cp_end;
  size_t ncp;
  /* --qstat: nprocs entries (NULL unless asked for) */
  struct dagsim_queue *queue;
  /* --link-stats: one entry per link of the topology, in its order
     (NULL unless asked for with a topology) */
  struct dagsim_link *link;
  size_t nlinks;
};

struct dagsim_opts
{
  int gantt;
  int critical_path;
  /* Only the makespan, last_proc and the count of messages: no
     per-processor results (proc is NULL), whose sums of compute, send
     and receive time take a pass over the DAG and a processor lookup
     per operation, and whose 48 bytes per processor are fresh memory
     (200 MB for 2^22 ranks).  */
  int finish_only;
  /* Order of events at one instant (enum dagsim_tie); 0, the default,
     is LogGOPSim's.  */
  int tie_order;
  /* Long runs: called about every 2^20 events with the events so far and
     the simulated time reached (NULL: never).  */
  void (*progress) (void *ctx, uint64_t events, double t);
  void *progress_ctx;
  /* Record the matching queues' lengths (result's queue).  */
  int qstat;
  /* Record what each link of the topology carried (result's link).  */
  int link_stats;
  /* CPU noise (noise.h; NULL: none): computations and the o of sends
     and of handled messages are lengthened by the detours they meet, as
     in LogGOPSim (a message still leaves at t + os).  */
  struct dag_noise *noise;
};

/* Same-instant events.  DAGSIM_TIE_CREATION: in the order they were
   created, as LogGOPSim (with a stable sort) runs them: the operations
   freed together by one event by processor, then sends, receives,
   computations, each kind in the order its dependencies were satisfied;
   a message when its send starts; an operation or message that waits
   for a busy resource keeps its place.  An operation freed by a
   dependency enters the queue at the later of that time and the time
   its processor's CPU (a send: and NIC) is free, as LogGOPSim's do, so
   a receive is posted no earlier than the CPU is free.
   DAGSIM_TIE_CLASS: by class (sends, receives, computations, then
   arriving messages), each in operation order; a receive is posted when
   its dependencies are satisfied.  */
enum dagsim_tie { DAGSIM_TIE_CREATION = 0, DAGSIM_TIE_CLASS = 1 };

/* Simulate the finalized DAG D.  Returns 0, or -1 when the schedule
   cannot complete (a deadlock, unmatched sends or receives): then
   R->stuck names what never completed ("SOURCE: schedule cannot
   complete: ..."; valid until the next call), R->makespan is NaN and R
   holds no other result.  Out of memory and schedules beyond the
   simulator's limits still end the program (err.h).  */
int dagsim_run (const struct dag *d, const struct dagsim_cost *c,
                const struct dagsim_opts *opt, struct dagsim_result *r);
void dagsim_result_free (struct dagsim_result *r);

#endif
