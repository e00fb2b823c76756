/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tracebuf.h: the per-rank state of libmsgperf-trace: the record buffers,
 * the request and communicator ids, and the writing of DIR/trace.RANK as
 * the buffers fill and at MPI_Finalize, MPI_Abort or a fatal signal.
 * Single-threaded use of MPI is assumed (MPI_THREAD_SINGLE or
 * FUNNELED).  */
#ifndef MSGPERF_TRACEBUF_H
#define MSGPERF_TRACEBUF_H

#include <stdint.h>

#include "traceformat.h"

/* After MPI_Init: RANK and SIZE of MPI_COMM_WORLD, T0 and WTICK from
   MPI_Wtime and MPI_Wtick.  Reserves the two buffers (of
   MSGPERF_TRACE_RECORDS records each), makes DIR (from
   MSGPERF_TRACE_DIR, default "msgperf-trace"), opens the trace and
   installs the handlers of
   SIGSEGV, SIGABRT, SIGTERM (and SIGBUS, SIGFPE).  Returns 0, or -1 when
   tracing is off (the reason printed once to stderr).  */
int tracebuf_start (int rank, int size, double t0, double wtick,
                    int wtime_global);

/* The trace's origin T0 (MPI_Wtime at the clock's origin), set again
   after tracebuf_start: the tracer's own start-up is no part of the
   traced program's time.  */
void tracebuf_origin (double t0);

/* Is tracing on (tracebuf_start succeeded and the trace not yet written)? */
extern int tracebuf_on;

/* The next record to fill (its seq set), or NULL when a write failed
   (the trace is then flagged TRACE_F_WRITE_ERROR).  Fill it, its times in
   clock units since T0 (clock.h), then commit.  */
struct trace_record *tracebuf_next (void);
void tracebuf_commit (void);

/* Write the trace with FLAGS (TRACE_F_COMPLETE at MPI_Finalize,
   TRACE_F_ABORT at MPI_Abort).  Once only; later calls do nothing.  */
void tracebuf_write (uint32_t flags);

/* What a non-blocking call posted, kept until its wait or test.  */
struct tracebuf_req
{
  int64_t id, bytes;
  int32_t comm, peer, tag;
  uint16_t call, flags;   /* the posting call; TRACE_R_ANY_* */
};

/* Request ids: a new id (1, 2 ...) for request handle KEY, remembering
   POSTED (its id is set); look up (peek) or look up and forget (take, at
   completion) what KEY posted: 0, or -1 with *OUT's id -1 when unknown.  */
int64_t tracebuf_request_new (uintptr_t key, const struct tracebuf_req *posted);
int tracebuf_request_take (uintptr_t key, struct tracebuf_req *out);
int tracebuf_request_peek (uintptr_t key, struct tracebuf_req *out);

/* Communicator ids: 0 world, 1 self, then in creation order.  KEY is the
   handle's bits; -1 for an unknown handle.  */
int32_t tracebuf_comm_id (uintptr_t key);
int32_t tracebuf_comm_add (uintptr_t key);
void tracebuf_comm_forget (uintptr_t key);

#endif
