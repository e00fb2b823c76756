/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_coll.h: the MPI collective algorithms of Open MPI 4.1's coll/tuned
 * component as task graphs for dag-predict (`gen coll:OP:ALGO`).
 *
 * Each generator emits, through a dag_sink of dag_gen.h, the exchange
 * the named algorithm makes: who sends how many bytes to whom, in which
 * order, and what each rank waits for before it sends on.  A rank's
 * steps are tasks of no work chained one after the other; a message
 * goes from the sender's task that has the data to the receiver's task
 * that needs it.  Reduction arithmetic is a task of its own, after the
 * receive, when a cost per byte is given (struct dag_coll).  Pure: no
 * I/O, errors are returned as a message.  */
#ifndef MSGPERF_DAG_COLL_H
#define MSGPERF_DAG_COLL_H

#include <stdint.h>

#include "dag_gen.h"

/* Prefix of a collective's pattern name: "coll:OP:ALGO".  */
#define DAG_COLL_PREFIX "coll:"

struct dag_coll
{
  const char *name;     /* "coll:OP:ALGO" */
  int64_t procs;        /* P, the communicator size */
  int64_t bytes;        /* message size of one MPI call (see the man page) */
  int64_t root;         /* -1: not given (rooted collectives use 0) */
  int64_t segment;      /* segment size in bytes; 0: not given (one) */
  /* Reduction arithmetic, time units per byte: in reduce and allreduce,
     every rank that receives partial results combines them in a task of
     reduce_cost times their bytes before it sends on (0: none, and no
     task is added, so the DAG is that of the exchange alone).  */
  double reduce_cost;
};

/* The OP:ALGO names, with one-line descriptions, NULL-terminated.  */
extern const char *const dag_coll_algorithms[][2];

/* Is NAME a collective's pattern name (starts with "coll:")?  */
int dag_coll_is (const char *name);

/* Run the generator named by C->name.  Returns NULL on success, or a
   message (in a static buffer) naming the bad parameter: an unknown
   operation or algorithm with its column in NAME, fewer than 2
   processes, a root out of range, a segment given to an algorithm that
   does not segment.  */
const char *dag_coll_run (const struct dag_coll *c, const struct dag_sink *s);

/* coll:OP:all: when NAME is "coll:OP:all", the pattern names
   "coll:OP:ALGO" of every algorithm of OP that runs on P ranks (two_proc
   only on 2; a second name of the same exchange, such as bcast:linear
   for basic_linear, left out), malloc'ed in *NAMES (each and the array
   for the caller to free), and their number; 0 and NULL otherwise.  */
size_t dag_coll_all (const char *name, int64_t P, char ***names);

/* ORDER[0..N-1]: the indices of MS by increasing value, ties in index
   order, NaN last (best first).  */
void dag_coll_order (const double *ms, size_t n, size_t *order);

#endif
