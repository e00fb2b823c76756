/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kernels.c: comet-run's kernel table.  A kernel is one row: its name,
 * the function that runs it, what --help and --list say of it, the
 * fewest ranks it needs, the optional columns its rows fill, and the
 * hooks main calls at each stage of the run (struct comet_kernel in
 * comet.h), so that the program treats every kernel alike.  */
#include <config.h>

#include <stddef.h>

#include "comet.h"

/* The hooks of the kernels that need none.  */
#define NO_HOOKS NULL, NULL, NULL, NULL
/* The matrix kernels: their block orders checked against --sizes before
   MPI starts, and the grids on which they move no byte between ranks
   (DIRS: the directions they exchange in, NULL for one).  */
#define MATRIX_HOOKS(dirs) \
  comet_matrix_check, NULL, comet_self_exchange, dirs
/* The tree kernels: the clock offsets through the first --topology, as
   metadata, once per run.  */
#define TREE_HOOKS NULL, comet_tree_meta, NULL, NULL

static const char *const shift_directions[] = { "north", "east", NULL };

/* The kernels, in the order of Section 2.2 of the paper.  To add one:
   write its function in a file of this directory (declared in comet.h,
   built through Makefile.am's tools_comet_run_comet_run_SOURCES), and
   add one row here:
     { NAME, FUNCTION, ONE-LINE DESCRIPTION, FEWEST RANKS, COLUMNS,
       CHECK, RUN_META, SELF_EXCHANGE, DIRECTIONS }
   COLUMNS is the set of optional output columns its rows fill; a kernel
   that needs a column nobody has yet adds it to the COL_* enum of comet.h
   and to the header in output.c.  The function is called on every rank
   of the adjacency matrix (struct comet_ctx), measures with comet_measure
   and writes its rows with comet_emit.  The table ends with a NULL
   row.  */
const struct comet_kernel comet_kernels[] = {
  { "echo", kernel_echo,
    "ping-pong; one-way time = half the round trip, per size and hops",
    2, COL_BYTES | COL_HOPS | COL_MBPS,
    NO_HOOKS },
  { "pairwise", kernel_pairwise,
    "simultaneous exchange between two nodes (MPI_Sendrecv), per hops",
    2, COL_BYTES | COL_HOPS | COL_MBPS,
    NO_HOOKS },
  { "broadcast", kernel_broadcast,
    "MPI_Bcast from the test node to all, timed to the last acknowledgement",
    2, COL_BYTES | COL_MBPS,
    NO_HOOKS },
  { "globalsum", kernel_globalsum,
    "MPI_Allreduce sum of a vector of doubles, verified on every rank",
    2, COL_VECLEN | COL_BYTES | COL_MBPS,
    NO_HOOKS },
  { "barrier", kernel_barrier,
    "best-case MPI_Barrier (first call not reported)",
    2, COL_BYTES,
    NO_HOOKS },
  { "contention", kernel_contention,
    "echo between two ranks while two others exchange continuously",
    4, COL_BYTES | COL_HOPS | COL_LOAD | COL_MBPS,
    NO_HOOKS },
  { "overlap", kernel_overlap,
    "pairwise exchange and DAXPY, synchronous versus asynchronous",
    2, COL_BYTES | COL_VECLEN | COL_HOPS | COL_OVERLAP,
    NO_HOOKS },
  { "update-guard", kernel_update_guard,
    "halo exchange of the guard wrapper with the four neighbours",
    2, COL_ORDER | COL_BYTES | COL_MBPS,
    MATRIX_HOOKS (NULL) },
  { "shift", kernel_shift,
    "shift the block matrix one block north, then east",
    2, COL_ORDER | COL_DIRECTION | COL_BYTES | COL_MBPS,
    MATRIX_HOOKS (shift_directions) },
  { "transpose", kernel_transpose,
    "exchange with the transposed node plus local transpose",
    2, COL_ORDER | COL_BYTES | COL_MBPS,
    MATRIX_HOOKS (NULL) },
  { "rowbcast", kernel_rowbcast,
    "broadcast one matrix row down the grid columns",
    2, COL_ORDER | COL_BYTES | COL_MBPS,
    MATRIX_HOOKS (NULL) },
  { "colbcast", kernel_colbcast,
    "broadcast one matrix column along the grid rows",
    2, COL_ORDER | COL_BYTES | COL_MBPS,
    MATRIX_HOOKS (NULL) },
  { "alltoall", kernel_alltoall,
    "MPI_Alltoall of --sizes bytes per rank pair, verified on every rank",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "allgather", kernel_allgather,
    "MPI_Allgather of --sizes bytes per rank, verified on every rank",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "allreduce", kernel_allreduce,
    "MPI_Allreduce sum of --sizes bytes, verified on every rank",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "reduce", kernel_reduce,
    "MPI_Reduce sum of --sizes bytes to the test node, verified there",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "scatter", kernel_scatter,
    "MPI_Scatter of --sizes bytes per rank, timed to the last acknowledgement",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "gather", kernel_gather,
    "MPI_Gather of --sizes bytes per rank to the test node, verified there",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "bcast", kernel_bcast,
    "MPI_Bcast of --sizes bytes, timed to the last acknowledgement, verified",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "reduce_local", kernel_reduce_local,
    "MPI_Reduce_local sum of --sizes bytes, each rank alone: the "
    "reduction's arithmetic (dag-predict --reduce-cost)",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "combine", kernel_combine,
    "a reduction step: the next rank sends --sizes bytes, the test node "
    "adds its own (MPI_Reduce_local) and sends the sum back; the round "
    "trip",
    2, COL_BYTES | COL_MBPS | COL_SYNC,
    NO_HOOKS },
  { "tree-roundtrip", kernel_tree_roundtrip,
    "multicast then sum reduction through each --topology tree",
    2, COL_BYTES | COL_TREE | COL_PACKETS,
    TREE_HOOKS },
  { "tree-throughput", kernel_tree_throughput,
    "pipelined sum reductions through each --topology tree",
    2, COL_BYTES | COL_TREE | COL_RATE | COL_PACKETS,
    TREE_HOOKS },
  { "tree-startup", kernel_tree_startup,
    "building each --topology tree (topology down, reports up)",
    2, COL_BYTES | COL_TREE,
    TREE_HOOKS },
  { NULL, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL }
};

