/* SPDX-License-Identifier: GPL-3.0-or-later */
/* funtraced.c: the Fortran entry points of the MPI calls
 * libmsgperf-trace does not trace (traceformat.h's
 * TRACE_UNTRACED_CALLS), counted like the C ones (untraced.c).
 *
 * Open MPI's Fortran bindings call PMPI directly, so a Fortran
 * program's untraced calls pass none of untraced.c's C wrappers.  Each
 * routine here is exported under the names Open MPI's bindings give it
 * (mpi_bsend_, mpi_bsend__, mpi_bsend, MPI_BSEND, and ompi_bsend_f,
 * which the mpi_f08 module calls), counts its call and goes on to Open
 * MPI's own routine under its profiling name (pmpi_bsend_, the same
 * code in libmpi_mpifh), found at the first call.
 *
 * None of these calls is recorded, only counted, so its arguments are
 * not read: they are passed on as they came, as FU_NARGS words.  Under
 * the calling conventions of x86-64 (System V) and AArch64, where every
 * Fortran argument is an address or a hidden string length and a callee
 * reads only the arguments it has, passing more words than the routine
 * takes (the longest, MPI_RGET_ACCUMULATE, takes 14 with its error
 * code) hands it its own arguments unchanged; elsewhere this file
 * defines nothing, and a Fortran program's untraced calls go uncounted
 * as before.  */
#define _GNU_SOURCE 1      /* RTLD_DEFAULT */
#include <config.h>

#include <stddef.h>
#include <stdint.h>

#include <dlfcn.h>

#include "traceformat.h"
#include "untraced.h"

#if defined __x86_64__ || defined __aarch64__

#define FU_NARGS 16
#define FU_PARAMS void *a0, void *a1, void *a2, void *a3, void *a4, \
  void *a5, void *a6, void *a7, void *a8, void *a9, void *a10, void *a11, \
  void *a12, void *a13, void *a14, void *a15
#define FU_ARGS a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, \
  a13, a14, a15

typedef void fu_fn (FU_PARAMS);

/* Open MPI's routine of profiling name PNAME, looked up once (NULL:
   none, and the call fails as MPI would not let it: never, as a
   Fortran program that calls the routine has the bindings loaded).  */
static fu_fn *
fu_real (fu_fn **cache, const char *pname)
{
  fu_fn *f = __atomic_load_n (cache, __ATOMIC_ACQUIRE);
  if (!f)
    {
      void *p = dlsym (RTLD_DEFAULT, pname);
      f = (fu_fn *) (uintptr_t) p;
      __atomic_store_n (cache, f, __ATOMIC_RELEASE);
    }
  return f;
}

#define FU_ALIAS(sym, lower) \
  extern void sym (FU_PARAMS) \
    __attribute__ ((alias ("fu_" #lower), visibility ("default")));
#define FU(lower, upper, name) \
  static void \
  fu_##lower (FU_PARAMS) \
  { \
    static fu_fn *real; \
    untraced_count (TRACE_U_##name); \
    fu_fn *f = fu_real (&real, "pmpi_" #lower "_"); \
    if (f) \
      f (FU_ARGS); \
  } \
  FU_ALIAS (mpi_##lower##_, lower) \
  FU_ALIAS (mpi_##lower##__, lower) \
  FU_ALIAS (mpi_##lower, lower) \
  FU_ALIAS (MPI_##upper, lower) \
  FU_ALIAS (ompi_##lower##_f, lower)

/* TRACE_UNTRACED_CALLS, in its order: lower case, upper case, C name.  */
FU (bsend, BSEND, Bsend)
FU (rsend, RSEND, Rsend)
FU (ibsend, IBSEND, Ibsend)
FU (irsend, IRSEND, Irsend)
FU (bsend_init, BSEND_INIT, Bsend_init)
FU (rsend_init, RSEND_INIT, Rsend_init)
FU (sendrecv_replace, SENDRECV_REPLACE, Sendrecv_replace)
FU (mprobe, MPROBE, Mprobe)
FU (improbe, IMPROBE, Improbe)
FU (mrecv, MRECV, Mrecv)
FU (imrecv, IMRECV, Imrecv)
FU (cancel, CANCEL, Cancel)
FU (alltoallw, ALLTOALLW, Alltoallw)
FU (ibarrier, IBARRIER, Ibarrier)
FU (ibcast, IBCAST, Ibcast)
FU (ireduce, IREDUCE, Ireduce)
FU (iallreduce, IALLREDUCE, Iallreduce)
FU (iallgather, IALLGATHER, Iallgather)
FU (iallgatherv, IALLGATHERV, Iallgatherv)
FU (ialltoall, IALLTOALL, Ialltoall)
FU (ialltoallv, IALLTOALLV, Ialltoallv)
FU (ialltoallw, IALLTOALLW, Ialltoallw)
FU (igather, IGATHER, Igather)
FU (igatherv, IGATHERV, Igatherv)
FU (iscatter, ISCATTER, Iscatter)
FU (iscatterv, ISCATTERV, Iscatterv)
FU (ireduce_scatter, IREDUCE_SCATTER, Ireduce_scatter)
FU (ireduce_scatter_block, IREDUCE_SCATTER_BLOCK, Ireduce_scatter_block)
FU (iscan, ISCAN, Iscan)
FU (iexscan, IEXSCAN, Iexscan)
FU (neighbor_allgather, NEIGHBOR_ALLGATHER, Neighbor_allgather)
FU (neighbor_allgatherv, NEIGHBOR_ALLGATHERV, Neighbor_allgatherv)
FU (neighbor_alltoall, NEIGHBOR_ALLTOALL, Neighbor_alltoall)
FU (neighbor_alltoallv, NEIGHBOR_ALLTOALLV, Neighbor_alltoallv)
FU (neighbor_alltoallw, NEIGHBOR_ALLTOALLW, Neighbor_alltoallw)
FU (ineighbor_allgather, INEIGHBOR_ALLGATHER, Ineighbor_allgather)
FU (ineighbor_allgatherv, INEIGHBOR_ALLGATHERV, Ineighbor_allgatherv)
FU (ineighbor_alltoall, INEIGHBOR_ALLTOALL, Ineighbor_alltoall)
FU (ineighbor_alltoallv, INEIGHBOR_ALLTOALLV, Ineighbor_alltoallv)
FU (ineighbor_alltoallw, INEIGHBOR_ALLTOALLW, Ineighbor_alltoallw)
FU (put, PUT, Put)
FU (get, GET, Get)
FU (accumulate, ACCUMULATE, Accumulate)
FU (get_accumulate, GET_ACCUMULATE, Get_accumulate)
FU (fetch_and_op, FETCH_AND_OP, Fetch_and_op)
FU (compare_and_swap, COMPARE_AND_SWAP, Compare_and_swap)
FU (rput, RPUT, Rput)
FU (rget, RGET, Rget)
FU (raccumulate, RACCUMULATE, Raccumulate)
FU (rget_accumulate, RGET_ACCUMULATE, Rget_accumulate)
FU (win_fence, WIN_FENCE, Win_fence)
FU (win_lock, WIN_LOCK, Win_lock)
FU (win_unlock, WIN_UNLOCK, Win_unlock)
FU (win_lock_all, WIN_LOCK_ALL, Win_lock_all)
FU (win_unlock_all, WIN_UNLOCK_ALL, Win_unlock_all)
FU (win_post, WIN_POST, Win_post)
FU (win_start, WIN_START, Win_start)
FU (win_complete, WIN_COMPLETE, Win_complete)
FU (win_wait, WIN_WAIT, Win_wait)
FU (win_flush, WIN_FLUSH, Win_flush)
FU (win_flush_all, WIN_FLUSH_ALL, Win_flush_all)
FU (comm_create_group, COMM_CREATE_GROUP, Comm_create_group)
FU (comm_split_type, COMM_SPLIT_TYPE, Comm_split_type)
FU (comm_idup, COMM_IDUP, Comm_idup)
FU (intercomm_create, INTERCOMM_CREATE, Intercomm_create)
FU (intercomm_merge, INTERCOMM_MERGE, Intercomm_merge)
FU (cart_sub, CART_SUB, Cart_sub)
FU (graph_create, GRAPH_CREATE, Graph_create)
FU (dist_graph_create, DIST_GRAPH_CREATE, Dist_graph_create)
FU (dist_graph_create_adjacent, DIST_GRAPH_CREATE_ADJACENT,
    Dist_graph_create_adjacent)
FU (comm_spawn, COMM_SPAWN, Comm_spawn)

#endif
