/* SPDX-License-Identifier: GPL-3.0-or-later */
/* jacobi: a 2-D Jacobi stencil for examples/trace.
 *
 *   mpiexec -np P jacobi [N [ITERATIONS]]
 *
 * An N x N grid (default 512) of doubles, fixed at 1 on the top edge and
 * 0 elsewhere, split into P blocks of rows.  Each iteration exchanges one
 * halo row with each neighbour (MPI_Irecv, MPI_Isend, MPI_Waitall),
 * updates the interior with the 5-point average, and sums the squared
 * change with MPI_Allreduce (default 200 iterations).  Rank 0 prints one
 * line per rank (see ranklines.h): the rank, its seconds from the end of
 * MPI_Init to the end of the last MPI_Allreduce (what a trace of the run
 * covers, less the gather of these lines) and the residual.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ranklines.h"

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  double t0 = MPI_Wtime ();
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  int n = argc > 1 ? atoi (argv[1]) : 512;
  int iters = argc > 2 ? atoi (argv[2]) : 200;
  if (n < size || n < 3 || iters < 1)
    {
      if (rank == 0)
        fprintf (stderr, "jacobi: need N >= P, N >= 3, ITERATIONS >= 1\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  /* rows [lo, hi) of the grid, with one halo row on each side */
  int lo = (int) ((long) n * rank / size), hi = (int) ((long) n * (rank + 1)
                                                       / size);
  int rows = hi - lo;
  double *u = calloc ((size_t) (rows + 2) * (size_t) n, sizeof *u);
  double *v = calloc ((size_t) (rows + 2) * (size_t) n, sizeof *v);
  if (!u || !v)
    MPI_Abort (MPI_COMM_WORLD, 1);
  if (lo == 0)
    for (int j = 0; j < n; j++)
      u[(size_t) n + j] = v[(size_t) n + j] = 1.0;
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL;
  int down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double res = 0;
  for (int it = 0; it < iters; it++)
    {
      MPI_Request rq[4];
      MPI_Irecv (u, n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD, &rq[0]);
      MPI_Irecv (u + (size_t) (rows + 1) * n, n, MPI_DOUBLE, down, 0,
                 MPI_COMM_WORLD, &rq[1]);
      MPI_Isend (u + (size_t) n, n, MPI_DOUBLE, up, 0, MPI_COMM_WORLD,
                 &rq[2]);
      MPI_Isend (u + (size_t) rows * n, n, MPI_DOUBLE, down, 1,
                 MPI_COMM_WORLD, &rq[3]);
      MPI_Waitall (4, rq, MPI_STATUSES_IGNORE);
      double local = 0;
      for (int i = 1; i <= rows; i++)
        {
          int g = lo + i - 1;          /* global row */
          if (g == 0 || g == n - 1)
            continue;
          for (int j = 1; j < n - 1; j++)
            {
              size_t k = (size_t) i * n + j;
              double x = 0.25 * (u[k - n] + u[k + n] + u[k - 1] + u[k + 1]);
              local += (x - u[k]) * (x - u[k]);
              v[k] = x;
            }
        }
      double *t = u;
      u = v;
      v = t;
      MPI_Allreduce (&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  double t1 = MPI_Wtime ();
  print_rank_lines (rank, size, t1 - t0, res, 6);
  free (u);
  free (v);
  MPI_Finalize ();
  return 0;
}
