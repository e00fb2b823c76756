/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trace-nullsend.c: the cost of one MPI call with no communication, for
 * bench/trace-overhead: every rank times loops of ITERS MPI_Send of 0
 * bytes to MPI_PROC_NULL, 31 repetitions, and rank 0 prints the median
 * time per call in microseconds.  Run with and without libmsgperf-trace:
 * the difference is what the library adds to a call.  A second column is
 * the mean time per call over all 31 repetitions, which, unlike the
 * median, holds the rare calls that hand a full buffer to the writer
 * (and wait for it when it is behind): with small buffers
 * (MSGPERF_TRACE_RECORDS), the per-call cost with the writing charged.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { REPS = 31, ITERS = 20000 };

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

int
main (int argc, char **argv)
{
  int rank;
  char c = 0;
  double t[REPS], sum = 0;
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  for (int i = 0; i < ITERS; i++)
    MPI_Send (&c, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  for (int r = 0; r < REPS; r++)
    {
      double t0 = MPI_Wtime ();
      for (int i = 0; i < ITERS; i++)
        MPI_Send (&c, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
      t[r] = (MPI_Wtime () - t0) / ITERS * 1e6;
      sum += t[r];
    }
  qsort (t, REPS, sizeof *t, cmp);
  if (rank == 0)
    printf ("%.4f %.4f\n", t[REPS / 2], sum / REPS);
  MPI_Finalize ();
  return 0;
}
