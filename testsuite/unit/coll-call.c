/* SPDX-License-Identifier: GPL-3.0-or-later */
/* coll-call.c: one call of an MPI collective, for the testsuite to
 * compare the messages Open MPI sends (counted by its pml monitoring
 * component) with what dag-predict gen coll:OP:ALGO generates.
 *
 * Usage: coll-call OP BYTES [ROOT]
 *   OP: bcast, reduce, allreduce, allgather, alltoall, barrier, gather
 *   or scatter; BYTES as in dag-predict(1) (MPI_BYTE, MPI_BAND).  */
#include <config.h>

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int P, rank;
  MPI_Comm_size (MPI_COMM_WORLD, &P);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  if (argc < 3 || argc > 4)
    {
      if (rank == 0)
        fprintf (stderr, "usage: coll-call OP BYTES [ROOT]\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  const char *op = argv[1];
  int n = atoi (argv[2]), root = argc > 3 ? atoi (argv[3]) : 0;
  if (n < 0 || root < 0 || root >= P)
    MPI_Abort (MPI_COMM_WORLD, 2);
  char *a = calloc ((size_t) n * (size_t) P + 1, 1);
  char *b = calloc ((size_t) n * (size_t) P + 1, 1);
  if (!a || !b)
    MPI_Abort (MPI_COMM_WORLD, 1);
  MPI_Comm w = MPI_COMM_WORLD;
  if (strcmp (op, "bcast") == 0)
    MPI_Bcast (a, n, MPI_BYTE, root, w);
  else if (strcmp (op, "reduce") == 0)
    MPI_Reduce (a, b, n, MPI_BYTE, MPI_BAND, root, w);
  else if (strcmp (op, "allreduce") == 0)
    MPI_Allreduce (a, b, n, MPI_BYTE, MPI_BAND, w);
  else if (strcmp (op, "allgather") == 0)
    MPI_Allgather (a, n, MPI_BYTE, b, n, MPI_BYTE, w);
  else if (strcmp (op, "alltoall") == 0)
    MPI_Alltoall (a, n, MPI_BYTE, b, n, MPI_BYTE, w);
  else if (strcmp (op, "barrier") == 0)
    MPI_Barrier (w);
  else if (strcmp (op, "gather") == 0)
    MPI_Gather (a, n, MPI_BYTE, b, n, MPI_BYTE, root, w);
  else if (strcmp (op, "scatter") == 0)
    MPI_Scatter (b, n, MPI_BYTE, a, n, MPI_BYTE, root, w);
  else
    {
      if (rank == 0)
        fprintf (stderr, "coll-call: unknown operation '%s'\n", op);
      MPI_Abort (w, 2);
    }
  free (a);
  free (b);
  MPI_Finalize ();
  return 0;
}
