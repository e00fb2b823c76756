/* SPDX-License-Identifier: GPL-3.0-or-later */
/* untraced.c: the MPI calls libmsgperf-trace does not trace, counted.
 *
 * Each wrapper counts its call by name and calls PMPI; at MPI_Finalize
 * the counts go into the trace as TRACE_UNTRACED records (traceformat.h),
 * so that msgperf-trace dump and goal say by name what the schedule
 * misses instead of a replay silently leaving it out.  The list is
 * TRACE_UNTRACED_CALLS; the parameters are the MPI standard's.  A
 * Fortran program's untraced calls, which go to PMPI through Open MPI's
 * bindings, are counted by funtraced.c's entry points.  This file is the
 * list of the wrappers, one each.  */
#include <config.h>

#include <stdint.h>

#include <mpi.h>

#include "clock.h"
#include "tracebuf.h"
#include "untraced.h"

static uint64_t counts[TRACE_NUNTRACED];

void
untraced_records (void)
{
  double t = trace_clock_now ();
  for (unsigned u = 0; u < TRACE_NUNTRACED; u++)
    {
      if (!counts[u])
        continue;
      struct trace_record *r = tracebuf_next ();
      if (!r)
        return;
      r->call = TRACE_UNTRACED;
      r->t_start = r->t_end = t;
      r->flags = 0;
      r->aux = (int32_t) u;
      r->bytes = (int64_t) counts[u];
      tracebuf_commit ();
    }
}

void
untraced_count (unsigned u)
{
  if (u < TRACE_NUNTRACED)
    counts[u]++;
}

#define U(name, params, args) \
  int MPI_##name params \
  { \
    counts[TRACE_U_##name]++; \
    return PMPI_##name args; \
  }

U (Bsend, (const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m),
   (b, c, t, d, tag, m))
U (Rsend, (const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m),
   (b, c, t, d, tag, m))
U (Ibsend, (const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m,
   MPI_Request *r), (b, c, t, d, tag, m, r))
U (Irsend, (const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm m,
   MPI_Request *r), (b, c, t, d, tag, m, r))
U (Bsend_init, (const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm
   m, MPI_Request *r), (b, c, t, d, tag, m, r))
U (Rsend_init, (const void *b, int c, MPI_Datatype t, int d, int tag, MPI_Comm
   m, MPI_Request *r), (b, c, t, d, tag, m, r))
U (Sendrecv_replace, (void *b, int c, MPI_Datatype t, int d, int st, int s,
   int rt, MPI_Comm m, MPI_Status *x), (b, c, t, d, st, s, rt, m, x))
U (Mprobe, (int s, int tag, MPI_Comm m, MPI_Message *g, MPI_Status *x), (s,
   tag, m, g, x))
U (Improbe, (int s, int tag, MPI_Comm m, int *f, MPI_Message *g, MPI_Status
   *x), (s, tag, m, f, g, x))
U (Mrecv, (void *b, int c, MPI_Datatype t, MPI_Message *g, MPI_Status *x), (b,
   c, t, g, x))
U (Imrecv, (void *b, int c, MPI_Datatype t, MPI_Message *g, MPI_Request *r),
   (b, c, t, g, r))
U (Cancel, (MPI_Request *r), (r))
U (Alltoallw, (const void *sb, const int sc[], const int sd[], const
   MPI_Datatype st[], void *rb, const int rc[], const int rd[], const
   MPI_Datatype rt[], MPI_Comm m), (sb, sc, sd, st, rb, rc, rd, rt, m))
U (Ibarrier, (MPI_Comm m, MPI_Request *r), (m, r))
U (Ibcast, (void *b, int c, MPI_Datatype t, int root, MPI_Comm m, MPI_Request
   *r), (b, c, t, root, m, r))
U (Ireduce, (const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op o, int
   root, MPI_Comm m, MPI_Request *r), (sb, rb, c, t, o, root, m, r))
U (Iallreduce, (const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op o,
   MPI_Comm m, MPI_Request *r), (sb, rb, c, t, o, m, r))
U (Iallgather, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
   MPI_Datatype rt, MPI_Comm m, MPI_Request *r), (sb, sc, st, rb, rc, rt, m,
   r))
U (Iallgatherv, (const void *sb, int sc, MPI_Datatype st, void *rb, const int
   rc[], const int rd[], MPI_Datatype rt, MPI_Comm m, MPI_Request *r), (sb,
   sc, st, rb, rc, rd, rt, m, r))
U (Ialltoall, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
   MPI_Datatype rt, MPI_Comm m, MPI_Request *r), (sb, sc, st, rb, rc, rt, m,
   r))
U (Ialltoallv, (const void *sb, const int sc[], const int sd[], MPI_Datatype
   st, void *rb, const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm m,
   MPI_Request *r), (sb, sc, sd, st, rb, rc, rd, rt, m, r))
U (Ialltoallw, (const void *sb, const int sc[], const int sd[], const
   MPI_Datatype st[], void *rb, const int rc[], const int rd[], const
   MPI_Datatype rt[], MPI_Comm m, MPI_Request *r), (sb, sc, sd, st, rb, rc,
   rd, rt, m, r))
U (Igather, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
   MPI_Datatype rt, int root, MPI_Comm m, MPI_Request *r), (sb, sc, st, rb,
   rc, rt, root, m, r))
U (Igatherv, (const void *sb, int sc, MPI_Datatype st, void *rb, const int
   rc[], const int rd[], MPI_Datatype rt, int root, MPI_Comm m, MPI_Request
   *r), (sb, sc, st, rb, rc, rd, rt, root, m, r))
U (Iscatter, (const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
   MPI_Datatype rt, int root, MPI_Comm m, MPI_Request *r), (sb, sc, st, rb,
   rc, rt, root, m, r))
U (Iscatterv, (const void *sb, const int sc[], const int sd[], MPI_Datatype
   st, void *rb, int rc, MPI_Datatype rt, int root, MPI_Comm m, MPI_Request
   *r), (sb, sc, sd, st, rb, rc, rt, root, m, r))
U (Ireduce_scatter, (const void *sb, void *rb, const int rc[], MPI_Datatype t,
   MPI_Op o, MPI_Comm m, MPI_Request *r), (sb, rb, rc, t, o, m, r))
U (Ireduce_scatter_block, (const void *sb, void *rb, int rc, MPI_Datatype t,
   MPI_Op o, MPI_Comm m, MPI_Request *r), (sb, rb, rc, t, o, m, r))
U (Iscan, (const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op o, MPI_Comm
   m, MPI_Request *r), (sb, rb, c, t, o, m, r))
U (Iexscan, (const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op o,
   MPI_Comm m, MPI_Request *r), (sb, rb, c, t, o, m, r))
U (Neighbor_allgather, (const void *sb, int sc, MPI_Datatype st, void *rb, int
   rc, MPI_Datatype rt, MPI_Comm m), (sb, sc, st, rb, rc, rt, m))
U (Neighbor_allgatherv, (const void *sb, int sc, MPI_Datatype st, void *rb,
   const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm m), (sb, sc, st,
   rb, rc, rd, rt, m))
U (Neighbor_alltoall, (const void *sb, int sc, MPI_Datatype st, void *rb, int
   rc, MPI_Datatype rt, MPI_Comm m), (sb, sc, st, rb, rc, rt, m))
U (Neighbor_alltoallv, (const void *sb, const int sc[], const int sd[],
   MPI_Datatype st, void *rb, const int rc[], const int rd[], MPI_Datatype rt,
   MPI_Comm m), (sb, sc, sd, st, rb, rc, rd, rt, m))
U (Neighbor_alltoallw, (const void *sb, const int sc[], const MPI_Aint sd[],
   const MPI_Datatype st[], void *rb, const int rc[], const MPI_Aint rd[],
   const MPI_Datatype rt[], MPI_Comm m), (sb, sc, sd, st, rb, rc, rd, rt, m))
U (Ineighbor_allgather, (const void *sb, int sc, MPI_Datatype st, void *rb,
   int rc, MPI_Datatype rt, MPI_Comm m, MPI_Request *r), (sb, sc, st, rb, rc,
   rt, m, r))
U (Ineighbor_allgatherv, (const void *sb, int sc, MPI_Datatype st, void *rb,
   const int rc[], const int rd[], MPI_Datatype rt, MPI_Comm m, MPI_Request
   *r), (sb, sc, st, rb, rc, rd, rt, m, r))
U (Ineighbor_alltoall, (const void *sb, int sc, MPI_Datatype st, void *rb, int
   rc, MPI_Datatype rt, MPI_Comm m, MPI_Request *r), (sb, sc, st, rb, rc, rt,
   m, r))
U (Ineighbor_alltoallv, (const void *sb, const int sc[], const int sd[],
   MPI_Datatype st, void *rb, const int rc[], const int rd[], MPI_Datatype rt,
   MPI_Comm m, MPI_Request *r), (sb, sc, sd, st, rb, rc, rd, rt, m, r))
U (Ineighbor_alltoallw, (const void *sb, const int sc[], const MPI_Aint sd[],
   const MPI_Datatype st[], void *rb, const int rc[], const MPI_Aint rd[],
   const MPI_Datatype rt[], MPI_Comm m, MPI_Request *r), (sb, sc, sd, st, rb,
   rc, rd, rt, m, r))
U (Put, (const void *ob, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc,
   MPI_Datatype tt, MPI_Win w), (ob, oc, ot, tr, td, tc, tt, w))
U (Get, (void *ob, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc,
   MPI_Datatype tt, MPI_Win w), (ob, oc, ot, tr, td, tc, tt, w))
U (Accumulate, (const void *ob, int oc, MPI_Datatype ot, int tr, MPI_Aint td,
   int tc, MPI_Datatype tt, MPI_Op o, MPI_Win w), (ob, oc, ot, tr, td, tc, tt,
   o, w))
U (Get_accumulate, (const void *ob, int oc, MPI_Datatype ot, void *rb, int rc,
   MPI_Datatype rt, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op o,
   MPI_Win w), (ob, oc, ot, rb, rc, rt, tr, td, tc, tt, o, w))
U (Fetch_and_op, (const void *ob, void *rb, MPI_Datatype t, int tr, MPI_Aint
   td, MPI_Op o, MPI_Win w), (ob, rb, t, tr, td, o, w))
U (Compare_and_swap, (const void *ob, const void *cb, void *rb, MPI_Datatype
   t, int tr, MPI_Aint td, MPI_Win w), (ob, cb, rb, t, tr, td, w))
U (Rput, (const void *ob, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int
   tc, MPI_Datatype tt, MPI_Win w, MPI_Request *r), (ob, oc, ot, tr, td, tc,
   tt, w, r))
U (Rget, (void *ob, int oc, MPI_Datatype ot, int tr, MPI_Aint td, int tc,
   MPI_Datatype tt, MPI_Win w, MPI_Request *r), (ob, oc, ot, tr, td, tc, tt,
   w, r))
U (Raccumulate, (const void *ob, int oc, MPI_Datatype ot, int tr, MPI_Aint td,
   int tc, MPI_Datatype tt, MPI_Op o, MPI_Win w, MPI_Request *r), (ob, oc, ot,
   tr, td, tc, tt, o, w, r))
U (Rget_accumulate, (const void *ob, int oc, MPI_Datatype ot, void *rb, int
   rc, MPI_Datatype rt, int tr, MPI_Aint td, int tc, MPI_Datatype tt, MPI_Op
   o, MPI_Win w, MPI_Request *r), (ob, oc, ot, rb, rc, rt, tr, td, tc, tt, o,
   w, r))
U (Win_fence, (int a, MPI_Win w), (a, w))
U (Win_lock, (int lt, int rank, int a, MPI_Win w), (lt, rank, a, w))
U (Win_unlock, (int rank, MPI_Win w), (rank, w))
U (Win_lock_all, (int a, MPI_Win w), (a, w))
U (Win_unlock_all, (MPI_Win w), (w))
U (Win_post, (MPI_Group g, int a, MPI_Win w), (g, a, w))
U (Win_start, (MPI_Group g, int a, MPI_Win w), (g, a, w))
U (Win_complete, (MPI_Win w), (w))
U (Win_wait, (MPI_Win w), (w))
U (Win_flush, (int rank, MPI_Win w), (rank, w))
U (Win_flush_all, (MPI_Win w), (w))
U (Comm_create_group, (MPI_Comm m, MPI_Group g, int tag, MPI_Comm *n), (m, g,
   tag, n))
U (Comm_split_type, (MPI_Comm m, int st, int key, MPI_Info i, MPI_Comm *n),
   (m, st, key, i, n))
U (Comm_idup, (MPI_Comm m, MPI_Comm *n, MPI_Request *r), (m, n, r))
U (Intercomm_create, (MPI_Comm lc, int ll, MPI_Comm pc, int rl, int tag,
   MPI_Comm *n), (lc, ll, pc, rl, tag, n))
U (Intercomm_merge, (MPI_Comm ic, int high, MPI_Comm *n), (ic, high, n))
U (Cart_sub, (MPI_Comm m, const int rd[], MPI_Comm *n), (m, rd, n))
U (Graph_create, (MPI_Comm m, int nn, const int idx[], const int e[], int re,
   MPI_Comm *n), (m, nn, idx, e, re, n))
U (Dist_graph_create, (MPI_Comm m, int nn, const int s[], const int d[], const
   int ds[], const int w[], MPI_Info i, int re, MPI_Comm *n), (m, nn, s, d,
   ds, w, i, re, n))
U (Dist_graph_create_adjacent, (MPI_Comm m, int ind, const int s[], const int
   sw[], int outd, const int d[], const int dw[], MPI_Info i, int re, MPI_Comm
   *n), (m, ind, s, sw, outd, d, dw, i, re, n))
U (Comm_spawn, (const char *cmd, char *argv[], int mp, MPI_Info i, int root,
   MPI_Comm m, MPI_Comm *n, int ec[]), (cmd, argv, mp, i, root, m, n, ec))
