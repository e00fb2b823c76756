/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ring: a pipelined ring for examples/trace.
 *
 *   mpiexec -np P ring [BLOCKS [DOUBLES [SWEEPS]]]
 *
 * Rank 0 broadcasts the run's sizes (MPI_Bcast), then sends BLOCKS
 * blocks (default 400) of DOUBLES doubles (default 2048, 16 KiB) around
 * the ring 0 -> 1 -> ... -> P-1 -> 0.  Every rank works on each block it
 * holds (SWEEPS passes of a recurrence over it, default 8) before passing
 * it on, so the ring is a pipeline: rank r works on block b while rank
 * r + 1 works on block b - 1.  Rank 0 posts the receive of block b from
 * P - 1 (MPI_Irecv) before sending it, and waits for block b - 1
 * (MPI_Wait) after, so two blocks are in flight; the other ranks use
 * MPI_Recv and MPI_Send.  At the end the ranks' checksums are summed on
 * rank 0 (MPI_Reduce) and checked against the same computation done
 * alone, after MPI_Finalize.  Rank 0 prints one line per rank (see
 * ranklines.h): the rank, its seconds from the end of MPI_Init to the
 * end of the reduce (what a trace covers, less the gather of these
 * lines), and its checksum (rank 0: the sum; the run ends with status 1
 * when it is wrong).  */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "ranklines.h"

/* SWEEPS passes of x[i] = 0.5 x[i] + 0.25 (x[i-1] + 1): a rank's work on
   a block, in place; returns the block's sum.  */
static double
work (double *x, int n, int sweeps)
{
  for (int s = 0; s < sweeps; s++)
    {
      double prev = 0;
      for (int i = 0; i < n; i++)
        {
          double y = 0.5 * x[i] + 0.25 * (prev + 1.0);
          prev = x[i];
          x[i] = y;
        }
    }
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += x[i];
  return sum;
}

/* Block B's content as rank 0 makes it.  */
static void
fill (double *x, int n, int b)
{
  for (int i = 0; i < n; i++)
    x[i] = (double) ((b * 7 + i) % 13);
}

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  double t0 = MPI_Wtime ();
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  int cfg[3] = { 400, 2048, 8 };
  if (rank == 0)
    for (int k = 0; k < 3 && k + 1 < argc; k++)
      cfg[k] = atoi (argv[k + 1]);
  MPI_Bcast (cfg, 3, MPI_INT, 0, MPI_COMM_WORLD);
  int blocks = cfg[0], n = cfg[1], sweeps = cfg[2];
  if (size < 2 || blocks < 1 || n < 1 || sweeps < 0)
    {
      if (rank == 0)
        fprintf (stderr, "ring: need P >= 2, BLOCKS >= 1, DOUBLES >= 1, "
                 "SWEEPS >= 0\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  double *x = malloc ((size_t) n * sizeof *x);
  double *back[2] = { malloc ((size_t) n * sizeof (double)),
                      malloc ((size_t) n * sizeof (double)) };
  if (!x || !back[0] || !back[1])
    MPI_Abort (MPI_COMM_WORLD, 1);
  double mine = 0;
  if (rank == 0)
    {
      MPI_Request rq[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
      for (int b = 0; b <= blocks; b++)
        {
          if (b < blocks)
            {
              MPI_Irecv (back[b % 2], n, MPI_DOUBLE, prev, b, MPI_COMM_WORLD,
                         &rq[b % 2]);
              fill (x, n, b);
              mine += work (x, n, sweeps);
              MPI_Send (x, n, MPI_DOUBLE, next, b, MPI_COMM_WORLD);
            }
          if (b > 0)
            MPI_Wait (&rq[(b - 1) % 2], MPI_STATUS_IGNORE);
        }
    }
  else
    for (int b = 0; b < blocks; b++)
      {
        MPI_Recv (x, n, MPI_DOUBLE, prev, b, MPI_COMM_WORLD,
                  MPI_STATUS_IGNORE);
        mine += work (x, n, sweeps);
        MPI_Send (x, n, MPI_DOUBLE, next, b, MPI_COMM_WORLD);
      }
  double total = 0;
  MPI_Reduce (&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  double t1 = MPI_Wtime ();
  print_rank_lines (rank, size, t1 - t0, rank == 0 ? total : mine, 10);
  MPI_Finalize ();
  /* The check is outside the traced span (it ends at MPI_Finalize): the
     same passes, one rank after the other, alone.  */
  int status = 0;
  if (rank == 0)
    {
      double want = 0;
      for (int b = 0; b < blocks; b++)
        {
          fill (x, n, b);
          for (int r = 0; r < size; r++)
            want += work (x, n, sweeps);
        }
      if (!(fabs (total - want) <= 1e-9 * fabs (want)))
        {
          fprintf (stderr, "ring: checksum %.17g, expected %.17g\n", total,
                   want);
          status = 1;
        }
    }
  free (x);
  free (back[0]);
  free (back[1]);
  return status;
}
