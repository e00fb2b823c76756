/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp-pingpong.c: the plain ping-pong bench/logp-measure compares the
 * fast LogP procedure with, between ranks 0 and 1.  Every rank sends from
 * one buffer and receives into another, each on pages of its own
 * (posix_memalign), as in the usual MPI micro-benchmarks: an MPI
 * library's copy into a misaligned buffer can be several times slower,
 * and the comparison is only fair on aligned buffers.
 *
 * Built as a program (mpicc -O2 -o pingpong logp-pingpong.c):
 *   mpirun -np 2 pingpong SIZE...
 * for each SIZE 10 warm-up round trips, then 1000 timed ones (100 from
 * 64 KiB on), as a loop of the usual benchmarks costs; prints
 * "bytes<TAB>half_rtt" (us, the mean) per size and the total time on
 * stderr ("pingpong_time_s=S").
 *
 * Built as a preload (mpicc -O2 -fPIC -shared -DLOGP_PINGPONG_PRELOAD
 * -o pp.so logp-pingpong.c), it takes the place of MPI_Init and
 * MPI_Finalize in another MPI program's launch:
 *   LOGP_PINGPONG_SIZES="65536 1048576" LOGP_PINGPONG_OUT=FILE \
 *     mpirun -np 2 -x LOGP_PINGPONG_SIZES -x LOGP_PINGPONG_OUT \
 *     -x LD_PRELOAD=pp.so logp-measure ...
 * After the real MPI_Init and again before the real MPI_Finalize it
 * measures the one-way time (half the round trip) of each size, the
 * median of 31 repetitions of as many round trips as last about 2 ms,
 * and rank 0 appends "init|finalize<TAB>bytes<TAB>us" lines to FILE.
 * Inside one launch both programs meet the same state of the machine
 * and of the MPI library (bench/comet-run says why that matters on
 * shared memory); the two ends bracket the program's own run.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* N bytes (at least 1) on pages of their own, written once.  */
static char *
page_buffer (size_t n)
{
  long page = sysconf (_SC_PAGESIZE);
  void *p = NULL;
  if (posix_memalign (&p, page > 0 ? (size_t) page : 4096, n ? n : 1) != 0)
    {
      fprintf (stderr, "logp-pingpong: out of memory (%zu bytes)\n", n);
      MPI_Abort (MPI_COMM_WORLD, 1);
    }
  memset (p, 'x', n ? n : 1);
  return p;
}

/* ITERS round trips of M bytes between ranks 0 and 1 of WORLD.  */
static void
bounce (int rank, char *sbuf, char *rbuf, int m, long iters)
{
  MPI_Comm w = MPI_COMM_WORLD;
  for (long i = 0; i < iters; i++)
    if (rank == 0)
      {
        MPI_Send (sbuf, m, MPI_BYTE, 1, 1, w);
        MPI_Recv (rbuf, m, MPI_BYTE, 1, 1, w, MPI_STATUS_IGNORE);
      }
    else if (rank == 1)
      {
        MPI_Recv (rbuf, m, MPI_BYTE, 0, 1, w, MPI_STATUS_IGNORE);
        MPI_Send (sbuf, m, MPI_BYTE, 0, 1, w);
      }
}

#ifdef LOGP_PINGPONG_PRELOAD

enum { REPS = 31, WARMUP = 20 };

static int
cmp (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median one-way time (us) of M-byte messages; every rank calls it. */
static double
one_way (int rank, int m)
{
  char *sbuf = page_buffer ((size_t) m), *rbuf = page_buffer ((size_t) m);
  MPI_Barrier (MPI_COMM_WORLD);
  double t0 = MPI_Wtime ();
  bounce (rank, sbuf, rbuf, m, WARMUP);
  double one = (MPI_Wtime () - t0) / WARMUP;
  long iters = one > 0 ? (long) (2e-3 / one) : 1000;
  if (iters < 1)
    iters = 1;
  if (iters > 10000)
    iters = 10000;
  MPI_Bcast (&iters, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  double t[REPS];
  for (int r = 0; r < REPS; r++)
    {
      double a = MPI_Wtime ();
      bounce (rank, sbuf, rbuf, m, iters);
      t[r] = (MPI_Wtime () - a) / (double) iters / 2 * 1e6;
    }
  qsort (t, REPS, sizeof *t, cmp);
  free (sbuf);
  free (rbuf);
  return t[REPS / 2];
}

#define PRELOAD_SIZES "LOGP_PINGPONG_SIZES"
#define PRELOAD_OUT "LOGP_PINGPONG_OUT"
#include "preload.h"

static void
preload_each (FILE *fp, const char *when, int rank, int m)
{
  double t = one_way (rank, m);
  if (fp)
    fprintf (fp, "%s\t%d\t%.6g\n", when, m, t);
}

#else

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
  char *sbuf = page_buffer ((size_t) max), *rbuf = page_buffer ((size_t) max);
  MPI_Barrier (MPI_COMM_WORLD);
  double start = MPI_Wtime ();
  if (rank == 0)
    printf ("bytes\thalf_rtt\n");
  for (int i = 1; i < argc; i++)
    {
      int m = atoi (argv[i]);
      long reps = m >= 65536 ? 100 : 1000;
      bounce (rank, sbuf, rbuf, m, 10);
      double t0 = MPI_Wtime ();
      bounce (rank, sbuf, rbuf, m, reps);
      if (rank == 0)
        printf ("%d\t%.6g\n", m, (MPI_Wtime () - t0) / (double) reps / 2
                                 * 1e6);
    }
  if (rank == 0)
    fprintf (stderr, "pingpong_time_s=%.6f\n", MPI_Wtime () - start);
  free (sbuf);
  free (rbuf);
  MPI_Finalize ();
  return 0;
}

#endif
