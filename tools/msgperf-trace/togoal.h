/* SPDX-License-Identifier: GPL-3.0-or-later */
/* togoal.h: msgperf-trace goal, the per-rank traces of libmsgperf-trace
 * as a GOAL schedule for dag-predict (issue 25, item 2; msgperf-trace(1),
 * GOAL SCHEDULE).
 *
 * Per rank, in trace order: the time between one call's end and the next
 * call's start becomes a calc; blocking sends and receives a send or recv
 * that requires the rank's previous operation; MPI_Isend/Irecv a send or
 * recv that the next operation irequires, and the wait or test that
 * completed it a requires of the operation after it; collectives expand
 * through dag_coll.h over the communicator's world ranks.  */
#ifndef MSGPERF_TOGOAL_H
#define MSGPERF_TOGOAL_H

#include <stdint.h>
#include <stdio.h>

#include "traceformat.h"

/* The collectives a trace records, in the order of enum trace_call:
   the first TOGOAL_NGEN expand through dag_coll.h's generators, the
   others (the collectives with per-rank sizes, scan and exscan) through
   togoal's own algorithms.  */
#define TOGOAL_NGEN 8
#define TOGOAL_NCOLL 16

/* "barrier", "bcast", ... "gatherv", ... "exscan", for operation I:
   TRACE_BARRIER + i (i < TOGOAL_NGEN), TRACE_GATHERV + i - TOGOAL_NGEN
   (the others); NULL for I out of range.  */
const char *togoal_coll_op (int i);

/* The algorithms togoal offers for operation I >= TOGOAL_NGEN,
   NULL-terminated (the default: coll_decide's where it has a rule,
   else the first); NULL for the generators' operations
   (dag_coll_algorithms lists theirs).  */
const char *const *togoal_coll_algos (int i);


/* One rank's trace: its header and decoded records.  */
struct togoal_rank
{
  const struct trace_header *h;   /* NULL: no trace of this rank */
  const struct trace_record *rec;   /* TRACE_UNTRACED ones skipped */
  uint64_t nrec;
  /* REC points into a read-only mapping of the trace file (MAP_PRIVATE,
     page-aligned): the conversion lets the pages it has gone past go
     (madvise), so that a long trace is not held whole in memory.  */
  int mapped;
};

struct togoal_input
{
  int32_t size;                   /* world size: ranks[0 .. size-1] */
  const struct togoal_rank *ranks;
  /* NULL: what Open MPI 4.1 runs by default for the call's
     communicator size and bytes (coll_decide.h) */
  const char *algo[TOGOAL_NCOLL];
  int precision;                  /* of the calcs: num_format's */
  /* When not NULL (an incomplete trace): cut each rank's schedule before
     its first message that no operation of the peer matches, until
     every message is matched, and count there the operations cut.  */
  uint64_t *cut;                  /* [size] */
  double scale_compute;           /* the calcs are the gaps times this */
  /* When not NULL: called for every operation written, with its rank,
     its label, and the sequence number and call name of the record it
     comes from ("compute" for a calc, which comes from the gap before
     that record), so that dag-predict's per-operation output can be
     named by source call (msgperf-trace attribute).  */
  void (*map) (void *ctx, int32_t rank, const char *label, uint64_t seq,
               const char *call);
  void *map_ctx;
  /* When not NULL: set to the algorithms expanded, "OP=ALGO ..." in the
     order first met (Open MPI's name, "(as GEN)" after it when another
     generator models it), "" for none.  */
  char *used;
  size_t usedsize;
  /* Operations kept in memory per rank while converting (0: all): the
     others wait in a temporary file (togoal_spill.c) until the text is
     written, so that memory does not grow with the trace's length.
     Not with CUT, which needs every operation.  The output is the same
     whatever the window.  */
  uint64_t window;
  /* When not NULL: set to the number of receives posted for any source
     that were cancelled (completed from no source: MPI_Cancel, which is
     not traced), each an empty calc in the schedule.  */
  uint64_t *cancelled;
  /* When not NULL: called once the conversion has succeeded, before
     the first byte of the schedule is written (the caller's comment
     lines, which name the collectives in USED).  */
  void (*before) (void *ctx);
  void *before_ctx;
};

/* Write the GOAL schedule of IN to OUT.  Returns 0, or -1 with a message
   naming the rank and record in ERR (ERRSIZE bytes); nothing is written
   then unless the failure came while writing (the temporary file could
   not be read back).  */
int togoal_write (FILE *out, const struct togoal_input *in, char *err,
                  size_t errsize);

#endif
