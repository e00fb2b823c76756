/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ranklines.h: every rank's line of ring.c and jacobi.c, printed by
   rank 0.

   Open MPI 4's launcher forwards a rank's standard output in the pieces
   it reads them, and a rank's terminal (a pseudo-terminal) hands a line
   over in pieces cut at its tabs; two ranks that print at once can have
   their lines cut into each other ("0", then rank 1's whole line, then
   the rest of rank 0's: 24 broken lines out of 40000 in a run of two
   ranks printing 20000 each).  So rank 0 gathers every rank's numbers
   (MPI_Gather) and prints the lines, in rank order.  The gather comes
   after each rank took its end time, and a trace of the run holds it:
   its messages (at 2 ranks, one of 16 bytes) are in the schedule but
   not in the timed span, a few microseconds in a prediction of runs of
   milliseconds.  */
#ifndef RANKLINES_H
#define RANKLINES_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* One line per rank: the rank, SECONDS (6 decimals) and VALUE (DIGITS
   significant digits), tab-separated.  Collective over MPI_COMM_WORLD.  */
static void
print_rank_lines (int rank, int size, double seconds, double value,
                  int digits)
{
  double mine[2] = { seconds, value };
  double *all = NULL;
  if (rank == 0)
    {
      all = malloc (2 * (size_t) size * sizeof *all);
      if (!all)
        MPI_Abort (MPI_COMM_WORLD, 1);
    }
  MPI_Gather (mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    {
      for (int r = 0; r < size; r++)
        printf ("%d\t%.6f\t%.*g\n", r, all[2 * r], digits, all[2 * r + 1]);
      fflush (stdout);
      free (all);
    }
}

#endif
