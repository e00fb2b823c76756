/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mpitime: the run time of an MPI program that cannot be changed (a
 * packaged binary such as NetPIPE's or HPCC's), measured through the MPI
 * profiling interface, for examples/programs.
 *
 *   mpiexec -np P -x LD_PRELOAD=/path/libmpitime.so PROGRAM [ARG...]
 *
 * Each rank takes MPI_Wtime when MPI_Init (or MPI_Init_thread) returns
 * and when MPI_Finalize is called; rank 0 then appends to the file named
 * by MPITIME_FILE (standard error when unset) one line: "mpitime", a
 * tab, and the slowest rank's seconds between the two (6 decimals).
 * That is the span a trace of msgperf-trace covers (its schedule starts
 * at the end of MPI_Init), so the two compare.  The reduction that finds
 * the slowest rank runs after every rank took its end time.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double t_init;

int
MPI_Init (int *argc, char ***argv)
{
  int rc = PMPI_Init (argc, argv);
  t_init = PMPI_Wtime ();
  return rc;
}

int
MPI_Init_thread (int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread (argc, argv, required, provided);
  t_init = PMPI_Wtime ();
  return rc;
}

int
MPI_Finalize (void)
{
  double mine = PMPI_Wtime () - t_init, slowest = 0;
  int rank = 0;
  PMPI_Comm_rank (MPI_COMM_WORLD, &rank);
  PMPI_Reduce (&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    {
      const char *path = getenv ("MPITIME_FILE");
      FILE *f = path && *path ? fopen (path, "a") : stderr;
      if (!f)
        perror (path);
      else
        {
          fprintf (f, "mpitime\t%.6f\n", slowest);
          if (f != stderr)
            fclose (f);
        }
    }
  return PMPI_Finalize ();
}
