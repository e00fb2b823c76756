/* logp-pingpong.c: the plain ping-pong loop bench/logp-measure compares the
   fast LogP procedure with.  Ranks 0 and 1; for each size given on the
   command line: 10 warm-up round trips, then 1000 timed ones (100 from
   64 KiB on), as the usual MPI micro-benchmarks do.  Prints
   "bytes<TAB>half_rtt_us" per size and the total time on stderr.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (size < 2)
    {
      fprintf (stderr, "logp-pingpong: needs 2 ranks\n");
      MPI_Abort (MPI_COMM_WORLD, 1);
    }
  long max = 0;
  for (int i = 1; i < argc; i++)
    if (atol (argv[i]) > max)
      max = atol (argv[i]);
  char *buf = calloc ((size_t) max + 1, 1);
  if (buf == NULL)
    MPI_Abort (MPI_COMM_WORLD, 1);
  MPI_Barrier (MPI_COMM_WORLD);
  double start = MPI_Wtime ();
  if (rank == 0)
    printf ("bytes\thalf_rtt\n");
  for (int i = 1; i < argc; i++)
    {
      int m = atoi (argv[i]);
      int reps = m >= 65536 ? 100 : 1000;
      double t0 = 0;
      for (int r = -10; r < reps; r++)
        {
          if (r == 0)
            t0 = MPI_Wtime ();
          if (rank == 0)
            {
              MPI_Send (buf, m, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
              MPI_Recv (buf, m, MPI_BYTE, 1, 1, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE);
            }
          else if (rank == 1)
            {
              MPI_Recv (buf, m, MPI_BYTE, 0, 1, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE);
              MPI_Send (buf, m, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
      if (rank == 0)
        printf ("%d\t%.17g\n", m, (MPI_Wtime () - t0) / reps / 2 * 1e6);
    }
  if (rank == 0)
    fprintf (stderr, "pingpong_time_s=%.6f\n", MPI_Wtime () - start);
  free (buf);
  MPI_Finalize ();
  return 0;
}
