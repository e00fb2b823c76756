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

#include <string.h>

/* The ping-pong of every size of PINGPONG_SIZES; rank 0 writes the lines
   "WHEN<TAB>bytes<TAB>t" to PINGPONG_OUT (appending).  */
static void
run_sizes (const char *when)
{
  const char *sizes = getenv ("PINGPONG_SIZES");
  const char *out = getenv ("PINGPONG_OUT");
  if (!sizes || !out)
    return;
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (size < 2)
    return;
  FILE *fp = NULL;
  if (rank == 0 && !(fp = fopen (out, "a")))
    {
      perror (out);
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  char *list = strdup (sizes);
  for (char *tok = strtok (list, " ,"); tok; tok = strtok (NULL, " ,"))
    {
      int n = atoi (tok);
      double t = pingpong_size (MPI_COMM_WORLD, rank, n);
      if (fp)
        fprintf (fp, "%s\t%d\t%.6g\n", when, n, t);
    }
  free (list);
  if (fp)
    fclose (fp);
  MPI_Barrier (MPI_COMM_WORLD);
}

int
MPI_Init (int *argc, char ***argv)
{
  int rc = PMPI_Init (argc, argv);
  if (rc == MPI_SUCCESS)
    run_sizes ("init");
  return rc;
}

int
MPI_Finalize (void)
{
  int done = 0;
  MPI_Finalized (&done);
  if (!done)
    run_sizes ("finalize");
  return PMPI_Finalize ();
}
