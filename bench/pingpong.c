/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pingpong.c: the minimal MPI ping-pong that bench/comet-run compares
 * `comet-run echo` with.  No library of the project, no statistics layer:
 *
 *   mpirun -np 2 pingpong SIZE...
 *
 * For each SIZE (bytes) rank 0 and rank 1 bounce one message; after a
 * warm-up, the number of round trips per repetition is set so that one
 * repetition lasts about 1 ms, and 31 repetitions are timed with
 * MPI_Wtime.  Prints "bytes<TAB>t" with t the median one-way time (half a
 * round trip) in microseconds.
 *
 * Buffers as comet-run's default (--buffers separate) and OSU's and IMB's
 * ping-pong: each rank sends from a send buffer and receives into a
 * receive buffer, each page-aligned.  PINGPONG_BUFFERS=shared bounces one
 * buffer instead (the same buffer for both directions on each rank).
 *
 * bench/pingpong-preload.c includes this file with PINGPONG_NO_MAIN
 * defined, to run the same loop inside another MPI program's launch.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { REPS = 31, WARMUP = 20 };

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
bounce (MPI_Comm comm, int rank, char *sbuf, char *rbuf, int n, long iters)
{
  for (long i = 0; i < iters; i++)
    if (rank == 0)
      {
        MPI_Send (sbuf, n, MPI_BYTE, 1, 0, comm);
        MPI_Recv (rbuf, n, MPI_BYTE, 1, 0, comm, MPI_STATUS_IGNORE);
      }
    else
      {
        MPI_Recv (rbuf, n, MPI_BYTE, 0, 0, comm, MPI_STATUS_IGNORE);
        MPI_Send (sbuf, n, MPI_BYTE, 0, 0, comm);
      }
}

/* N zeroed bytes on a page boundary.  */
static char *
page_alloc (int n)
{
  long pg = sysconf (_SC_PAGESIZE);
  void *p = NULL;
  if (posix_memalign (&p, pg > 0 ? (size_t) pg : 4096, n ? (size_t) n : 1))
    MPI_Abort (MPI_COMM_WORLD, 1);
  memset (p, 0, n ? (size_t) n : 1);
  return p;
}

/* The median one-way time (us) of N-byte messages between ranks 0 and 1
   of COMM; every rank of COMM calls it (ranks above 1 only take part in
   the broadcast).  */
static double
pingpong_size (MPI_Comm comm, int rank, int n)
{
  const char *mode = getenv ("PINGPONG_BUFFERS");
  int shared = mode && strcmp (mode, "shared") == 0;
  char *sbuf = page_alloc (n);
  char *rbuf = shared ? sbuf : page_alloc (n);
  double t0 = MPI_Wtime ();
  if (rank < 2)
    bounce (comm, rank, sbuf, rbuf, n, WARMUP);
  double one = (MPI_Wtime () - t0) / WARMUP;
  long iters = one > 0 ? (long) (1e-3 / one) : 1000;
  if (iters < 1)
    iters = 1;
  if (iters > 10000)
    iters = 10000;
  MPI_Bcast (&iters, 1, MPI_LONG, 0, comm);
  double t[REPS];
  for (int r = 0; r < REPS; r++)
    {
      double t1 = MPI_Wtime ();
      if (rank < 2)
        bounce (comm, rank, sbuf, rbuf, n, iters);
      t[r] = (MPI_Wtime () - t1) / (double) iters / 2 * 1e6;
    }
  qsort (t, REPS, sizeof *t, cmp);
  if (rbuf != sbuf)
    free (rbuf);
  free (sbuf);
  return t[REPS / 2];
}

#ifndef PINGPONG_NO_MAIN
int
main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int rank, size;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (size != 2)
    {
      if (rank == 0)
        fprintf (stderr, "pingpong: run on exactly 2 ranks\n");
      MPI_Abort (MPI_COMM_WORLD, 2);
    }
  if (rank == 0)
    printf ("bytes\tt\n");
  for (int a = 1; a < argc; a++)
    {
      int n = atoi (argv[a]);
      double t = pingpong_size (MPI_COMM_WORLD, rank, n);
      if (rank == 0)
        printf ("%d\t%.6g\n", n, t);
    }
  MPI_Finalize ();
  return 0;
}
#endif
