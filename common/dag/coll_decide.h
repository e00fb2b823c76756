/* SPDX-License-Identifier: GPL-3.0-or-later */
/* coll_decide.h: which algorithm Open MPI 4.1's coll/tuned component runs
 * by default for a collective call, as its fixed decision rules choose
 * it from the communicator size P and the call's size in bytes (the
 * rules of coll_tuned_decision_fixed.c in Open MPI 4.1.4, the version
 * installed here; reimplemented from their thresholds), and the
 * collective generator of dag_coll.h that models it.
 *
 * BYTES is the size dag_coll.h takes (MPI's count times the type's
 * size: the buffer of a bcast, the vector of a reduce or allreduce, a
 * rank's block of an allgather, gather or scatter, one pair's block of
 * an alltoall), which is the size the decision rules use.  Reductions
 * are taken as commutative (MPI's predefined operations are; a
 * non-commutative user operation has rules of its own, not kept here).
 * Segment sizes: the fixed rules of 4.1 segment nothing.  Pure: no I/O.  */
#ifndef MSGPERF_COLL_DECIDE_H
#define MSGPERF_COLL_DECIDE_H

#include <stdint.h>

/* Open MPI's name of the algorithm (a value of coll_tuned_OP_algorithm)
   for operation OP ("barrier", "bcast", "reduce", "allreduce",
   "allgather", "alltoall", "gather", "scatter", and the collectives with
   per-rank sizes, which dag_coll does not generate: "alltoallv", whose
   rules look at P only, "allgatherv" with BYTES a rank's mean block
   (the total over P, rounded down), "reduce_scatter" with BYTES the
   whole vector and "reduce_scatter_block" with BYTES a rank's block)
   on P >= 2 ranks with BYTES >= 0; NULL for another OP, P < 2 or
   BYTES < 0.  */
const char *coll_decide (const char *op, int64_t P, int64_t bytes);

/* The algorithm the fixed rules' choice ALGO of OP runs: they give no
   fan-out, and a chain of fan-out 0 is made a chain of one
   (coll_base_topo.c), so bcast and reduce "chain" run as "pipeline";
   ALGO itself otherwise.  (A chain forced by the user runs with the
   component's fan-out, 4 by default, as dag_coll's chain.)  */
const char *coll_decide_fixed_run (const char *op, const char *algo);

/* What Open MPI runs instead of ALGO for a reduction of COUNT elements
   (MPI's count, not bytes; -1: not known, then ALGO) on P ranks, when
   the count is too small for it: allreduce ring and segmented_ring
   (unsegmented by the fixed rules, so a ring) with COUNT < P: recursive
   doubling; allreduce rabenseifner with COUNT below the largest power
   of two <= P: basic_linear.  ALGO itself otherwise.  */
const char *coll_decide_fallback (const char *op, const char *algo,
                                  int64_t P, int64_t count);

/* The dag_coll.h algorithm of OP that models Open MPI's ALGO: ALGO
   itself when dag_coll has it, else the nearest one it has (bcast
   split_binary_tree: binary_tree; reduce rabenseifner: linear, which Open MPI runs when the count is
   below the largest power of two <= P, the only sizes its rules pick
   it for); NULL when there is none.  */
const char *coll_decide_generator (const char *op, const char *algo);

/* What `coll:OP:default` generates: the dag_coll.h algorithm of OP
   that models the fixed rules' choice on P ranks for BYTES
   (coll_decide, then coll_decide_fixed_run and coll_decide_generator;
   the element count is not known, so no coll_decide_fallback); NULL
   when OP has no rules or no generator, P < 2 or BYTES < 0.  */
const char *coll_decide_default (const char *op, int64_t P, int64_t bytes);

#endif
