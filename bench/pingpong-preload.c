/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pingpong-preload.c: bench/pingpong.c's loop, run inside another MPI
 * program's launch.
 *
 *   PINGPONG_SIZES="0 1 4" PINGPONG_OUT=FILE LD_PRELOAD=./pingpong-preload.so \
 *     mpirun -np 2 -x PINGPONG_SIZES -x PINGPONG_OUT -x LD_PRELOAD PROGRAM ...
 *
 * It takes the place of MPI_Init and MPI_Finalize: after the real
 * MPI_Init (PMPI_Init), and again before the real MPI_Finalize, it runs
 * the ping-pong of every size of PINGPONG_SIZES between world ranks 0 and
 * 1, rank 0 appends "init|finalize<TAB>bytes<TAB>t" lines to PINGPONG_OUT,
 * and the program goes on as if nothing had happened.  Running it at both
 * ends lets a comparison see whether the machine drifted meanwhile.
 *
 * Why: on shared memory the one-way time of a small message differs from
 * one launch to the next (a few discrete values, steady inside a launch),
 * so comparing two programs launched separately compares launches as
 * much as timing loops.  Inside one launch both meet the same state.  */
#define PINGPONG_NO_MAIN
#include "pingpong.c"

#define PRELOAD_SIZES "PINGPONG_SIZES"
#define PRELOAD_OUT "PINGPONG_OUT"
#include "preload.h"

/* Rank 0 writes the lines "WHEN<TAB>bytes<TAB>t" to PINGPONG_OUT.  */
static void
preload_each (FILE *fp, const char *when, int rank, int n)
{
  double t = pingpong_size (MPI_COMM_WORLD, rank, n);
  if (fp)
    fprintf (fp, "%s\t%d\t%.6g\n", when, n, t);
}
