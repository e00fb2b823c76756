/* SPDX-License-Identifier: GPL-3.0-or-later */
/* halo: a 1-D halo exchange for examples/programs.
 *
 *   mpiexec -np P halo [STEPS [CELLS [SWEEPS]]]
 *
 * A periodic line of P * CELLS doubles (default 8192 cells, 64 KiB, per
 * rank) split into P blocks, with a halo of 1024 doubles (8 KiB) on
 * each side.  Each step (default 400) sends the rank's leftmost 8 KiB to
 * the left neighbour while receiving the right halo from the right one,
 * and the other way round (two MPI_Sendrecv of 8 KiB), runs SWEEPS
 * (default 2) passes of a 3-point average over its cells, and sums the
 * change with an 8-byte MPI_Allreduce.  Rank 0 prints one line per rank
 * (ranklines.h): the rank, its seconds from the end of MPI_Init to the
 * end of the last MPI_Allreduce, and the last sum.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ranklines.h"

enum { HALO = 1024 };

/* SWEEPS passes of the 3-point average over cells [HALO, HALO + N) of
   U (halos on both sides), through V; returns the last pass's summed
   squared change.  */
static double
sweep (double *u, double *v, int n, int sweeps)
{
  double d = 0;
  for (int s = 0; s < sweeps; s++)
    {
      d = 0;
      for (int i = HALO; i < HALO + n; i++)
        {
          double x = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
          d += (x - u[i]) * (x - u[i]);
          v[i] = x;
        }
      for (int i = HALO; i < HALO + n; i++)
        u[i] = v[i];
    }
  return d;
}

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  double t0 = MPI_Wtime ();
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  int steps = argc > 1 ? atoi (argv[1]) : 400;
  int n = argc > 2 ? atoi (argv[2]) : 8192;
  int sweeps = argc > 3 ? atoi (argv[3]) : 2;
  if (steps < 1 || n < HALO || sweeps < 0)
    {
      if (rank == 0)
        fprintf (stderr, "halo: need STEPS >= 1, CELLS >= %d, "
                 "SWEEPS >= 0\n", HALO);
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  double *u = malloc ((size_t) (n + 2 * HALO) * sizeof *u);
  double *v = malloc ((size_t) (n + 2 * HALO) * sizeof *v);
  if (!u || !v)
    MPI_Abort (MPI_COMM_WORLD, 1);
  for (int i = 0; i < n + 2 * HALO; i++)
    u[i] = v[i] = (double) ((rank * n + i) % 17);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double sum = 0;
  for (int s = 0; s < steps; s++)
    {
      /* my left cells to the left, my right halo from the right */
      MPI_Sendrecv (u + HALO, HALO, MPI_DOUBLE, left, 0, u + HALO + n,
                    HALO, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE);
      MPI_Sendrecv (u + n, HALO, MPI_DOUBLE, right, 1, u, HALO, MPI_DOUBLE,
                    left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      double d = sweep (u, v, n, sweeps);
      MPI_Allreduce (&d, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  double t1 = MPI_Wtime ();
  print_rank_lines (rank, size, t1 - t0, sum, 10);
  free (u);
  free (v);
  MPI_Finalize ();
  return 0;
}
