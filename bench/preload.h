/* SPDX-License-Identifier: GPL-3.0-or-later */
/* preload.h: a reference measurement inside another MPI program's launch,
 * shared by the preloaded benchmarks (logp-pingpong.c, pingpong-preload.c,
 * osu-preload.c).
 *
 * The including file defines PRELOAD_SIZES and PRELOAD_OUT (the names of
 * the environment variables holding the sizes and the output file) and
 *
 *   static void preload_each (FILE *fp, const char *when, int rank, int n);
 *
 * which every rank calls for each size N (FP is the output on rank 0,
 * NULL elsewhere).  This file takes the place of MPI_Init and
 * MPI_Finalize: after the real MPI_Init (PMPI_Init), and again before the
 * real MPI_Finalize, the sizes run between world ranks 0 and 1 with
 * WHEN = "init" or "finalize", and the program goes on as if nothing had
 * happened.  Both ends let a comparison see whether the machine drifted
 * meanwhile; inside one launch, the program and the reference meet the
 * same state (shared-memory timings differ from one launch to the next).  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void preload_each (FILE *fp, const char *when, int rank, int n);

static void
preload_run (const char *when)
{
  const char *sizes = getenv (PRELOAD_SIZES);
  const char *out = getenv (PRELOAD_OUT);
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
    preload_each (fp, when, rank, atoi (tok));
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
    preload_run ("init");
  return rc;
}

int
MPI_Finalize (void)
{
  int done = 0;
  MPI_Finalized (&done);
  if (!done)
    preload_run ("finalize");
  return PMPI_Finalize ();
}
