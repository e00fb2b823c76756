/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagcost.h: what the simulator (dagsim.c) asks of a message's cost
 * model and of the network, each behind one small interface chosen
 * once when a simulation is set up.
 *
 * A cost model (LogGOPS and its special cases LogP and LogGP, pLogP,
 * LoGPC, hyperbolic) says what a message of s bytes costs its sender
 * and its receiver; a network (a NIC per rank, a bus, the links of a
 * topology, a fat tree) says when a message whose first byte is ready
 * goes on the wire and when it reaches the receiver.  The engine knows
 * neither by name: a new model or network is a file of its own and a
 * row of the table in dagcost.c.  */
#ifndef MSGPERF_DAGCOST_H
#define MSGPERF_DAGCOST_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"
#include "dagsim.h"

/* A send, as its model costs it from its start T.  */
struct dagcost_send
{
  double cpu_end;  /* the sender's CPU is free again (before noise) */
  double busy;     /* the CPU span that noise lengthens from T */
  double ready;    /* the first byte can go on the wire */
  double flight;   /* from the wire to the receiver (without a network) */
  double arrive;   /* reaches the receiver when nothing is in its way */
  double hold;     /* the bytes that hold a link ((s - 1) or s) */
  double G;        /* their time per byte on a link without its own */
  double late;     /* added once the network has delivered it (LoGPC's
                      contention; 0 for the others) */
  int32_t op;      /* the send operation (set by the engine, for a
                      network that follows messages: settle) */
};

struct dagcost_model
{
  const char *name;
  /* Does the cost C ask for this model?  (The table is searched in
     order; the last row takes every cost.)  */
  int (*uses) (const struct dagsim_cost *c);
  /* The send of BYTES by processor PROC (of the DAG) starting at T:
     fills *M, and when the model holds a sending NIC, sets *NIC to
     when it is free again.  */
  void (*send) (const struct dagsim_cost *c, int32_t proc, int64_t bytes,
                double t, struct dagcost_send *m, double *nic);
  /* The receiver's handling of BYTES from T: returns its end (before
     noise), *OR_ the span noise lengthens and *NIC when the receiving
     NIC is free again.  NULL: the receiver pays nothing (its CPU and
     NIC are not needed).  */
  double (*recv) (const struct dagsim_cost *c, int64_t bytes, double t,
                  double *or_, double *nic);
  /* Add a message of BYTES's CPU times to *SEND and *RECV (the
     per-processor sums of dagsim_proc).  */
  void (*totals) (const struct dagsim_cost *c, int64_t bytes, double *send,
                  double *recv);
  /* The model reads no other processor's state: rounds may run
     processor by processor (dagsim.c, run_by_proc).  */
  int local;
};

/* A network's state for one simulation.  */
struct dagcost_net_state;

struct dagcost_net
{
  const char *name;
  int (*uses) (const struct dagsim_cost *c);
  /* State for simulating D (LINK_STATS: record what each link carried).
     NULL from a network that needs none.  */
  struct dagcost_net_state *(*start) (const struct dagsim_cost *c,
                                      const struct dag *d, int link_stats);
  /* The message of send operation V from rank FROM to rank TO, costed
     M: when it reaches the receiver (before M->late).  NULL: at
     M->arrive (a NIC per rank, nothing shared).  */
  double (*wire) (struct dagcost_net_state *st, int32_t from, int32_t to,
                  const struct dagcost_send *m, double bytes);
  /* Hand the per-link figures to R (--link-stats), then free ST.  */
  void (*finish) (struct dagcost_net_state *st, struct dagsim_result *r);
  /* Free ST (a simulation that did not complete).  */
  void (*release) (struct dagcost_net_state *st);
  /* A network named with arguments on the command line, NAME:ARGS
     (dag_network_parse; NULL: not so named): parse ARGS into a new
     *ARG (the cost's net_arg).  Returns 0, or -1 with *COL the 1-based
     column of ARGS where it goes wrong and *WHY what was expected.  */
  int (*parse) (const char *args, void **arg, int *col, const char **why);
  /* What ARGS look like, for the list of networks (e.g. "K:R").  */
  const char *syntax;
  /* A network whose arrivals move as later messages start and end
     (links whose bandwidth the messages on them share, net_topology.c):
     wire () gives the arrival as it stands then, and when the event of
     send V's message (M->op) comes up at T the engine asks settle ():
     T (it arrives now), a later time (its event is queued again for
     then) or a negative value (an event left behind by an arrival
     since moved earlier: dropped).  After each wire () and settle (),
     moved () hands out, one per call, the messages whose arrival came
     earlier than their event (the send in *V, the new time in *T, no
     earlier than the engine's; returns 0 when none is left), and the
     engine queues an event for each.  Times
     have M->late added.  NULL: wire ()'s answer is final.  */
  double (*settle) (struct dagcost_net_state *st, int32_t v, double t);
  int (*moved) (struct dagcost_net_state *st, int32_t *v, double *t);
};

/* What moves the bytes of a rendezvous message (above the cost's S)
   once its receive is matched: a progress thread, or only the MPI calls
   of both ranks (progress.c).  */
struct dagcost_progress
{
  const char *name;
  /* The message of BYTES costed by MODEL, matched at T_MATCH, whose
     receiver's handling ends at T_FIN by the model's rules: sets
     *SND_DONE, when the sender is free again (its CPU and NIC held till
     then; it comes in as T_MATCH), and *RCV_DONE, when the receive
     completes (it comes in as max (T_FIN, T_MATCH)).  */
  void (*matched) (const struct dagsim_cost *c,
                   const struct dagcost_model *model, int64_t bytes,
                   double t_match, double *snd_done, double *rcv_done);
};

extern const struct dagcost_progress dagcost_progress_thread,
  dagcost_progress_mpi;

/* The progress rule named NAME, else NULL; the I-th (NULL past the
   last).  */
const struct dagcost_progress *dagcost_progress_named (const char *name);
const struct dagcost_progress *dagcost_progress_arg (size_t i);

/* The model and the network cost C asks for (first row that uses it).  */
const struct dagcost_model *dagcost_model_of (const struct dagsim_cost *c);
const struct dagcost_net *dagcost_net_of (const struct dagsim_cost *c);

/* The network of the table named NAME (LEN characters) that takes
   arguments (parse), else NULL; and the I-th such network (NULL past
   the last).  */
const struct dagcost_net *dagcost_net_named (const char *name, size_t len);
const struct dagcost_net *dagcost_net_arg (size_t i);

/* The rows, each in its own file.  */
extern const struct dagcost_model dagcost_loggops, dagcost_plogp,
  dagcost_logpc, dagcost_hyperbolic;
extern const struct dagcost_net dagcost_nic, dagcost_bus, dagcost_topology,
  dagcost_topology_fifo;

/* s - 1 for a message of s >= 1 bytes, else 0 (LogGP's (s - 1) G).  */
static inline double
dagcost_bytes1 (int64_t bytes)
{
  return bytes > 0 ? (double) (bytes - 1) : 0;
}

#endif
