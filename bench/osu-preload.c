/* SPDX-License-Identifier: GPL-3.0-or-later */
/* osu-preload.c: OSU Micro-Benchmarks' method for latency, broadcast,
 * allreduce and all-to-all,
 * written here from its published description, run inside another MPI
 * program's launch (as bench/pingpong-preload.c does for the ping-pong).
 *
 *   OSU_SIZES="1 1024" OSU_OUT=FILE LD_PRELOAD=./osu-preload.so \
 *     mpirun -np 2 -x OSU_SIZES -x OSU_OUT -x LD_PRELOAD PROGRAM ...
 *
 * After the real MPI_Init and again before the real MPI_Finalize, for
 * every size of OSU_SIZES, rank 0 appends "WHEN<TAB>KIND<TAB>bytes<TAB>t"
 * to OSU_OUT, t in microseconds:
 *
 *   latency  ranks 0 and 1, separate page-aligned send and receive
 *            buffers; a barrier, SKIP untimed round trips, then ITERS
 *            round trips timed as one loop; t = loop time / (2 ITERS).
 *   bcast    every rank; each iteration timed on its own around
 *            MPI_Bcast from rank 0, a barrier after it (untimed); each
 *            rank's mean over ITERS, and t the mean of those over the
 *            ranks.
 *   allreduce  the same around MPI_Allreduce of bytes MPI_UNSIGNED_CHAR
 *            with MPI_SUM (comet-run's datatype; OSU sums floats, whose
 *            arithmetic costs differently).
 *   alltoall the same around MPI_Alltoall, bytes to each rank.
 *
 * ITERS and SKIP: 10000 and 100 (latency) or 1000 and 200 (collectives)
 * up to 8 KiB, 1000 and 10 (latency) or 100 and 10 (collectives) above,
 * of the order
 * of OSU's defaults (which differ between its versions); the method, not
 * the counts, is what is compared.  OSU_ITERS=N sets the collectives'
 * ITERS up to 8 KiB (N / 10 above): a mean of 1000 sub-microsecond calls
 * moves by several percent with one scheduler delay of some 10 us.  */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *
page_alloc (size_t n)
{
  long pg = sysconf (_SC_PAGESIZE);
  void *p = NULL;
  if (posix_memalign (&p, pg > 0 ? (size_t) pg : 4096, n ? n : 1))
    MPI_Abort (MPI_COMM_WORLD, 1);
  memset (p, 1, n ? n : 1);
  return p;
}

static double
latency (int rank, int n)
{
  int large = n > 8192;
  long iters = large ? 1000 : 10000, skip = large ? 10 : 100;
  char *s = page_alloc ((size_t) n), *r = page_alloc ((size_t) n);
  double t0 = 0;
  MPI_Barrier (MPI_COMM_WORLD);
  for (long i = 0; i < iters + skip; i++)
    {
      if (i == skip)
        t0 = MPI_Wtime ();
      if (rank == 0)
        {
          MPI_Send (s, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
          MPI_Recv (r, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
      else if (rank == 1)
        {
          MPI_Recv (r, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send (s, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
        }
    }
  double t = (MPI_Wtime () - t0) * 1e6 / (2.0 * (double) iters);
  free (s);
  free (r);
  MPI_Barrier (MPI_COMM_WORLD);
  return t;
}

enum coll { C_BCAST, C_ALLREDUCE, C_ALLTOALL };

/* One collective of N bytes (per destination for the all-to-all).  */
static void
coll_call (enum coll k, char *s, char *r, int n)
{
  if (k == C_BCAST)
    MPI_Bcast (s, n, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (k == C_ALLREDUCE)
    MPI_Allreduce (s, r, n, MPI_UNSIGNED_CHAR, MPI_SUM, MPI_COMM_WORLD);
  else
    MPI_Alltoall (s, n, MPI_BYTE, r, n, MPI_BYTE, MPI_COMM_WORLD);
}

/* OSU's collective loop: each call timed alone, a barrier after it; the
   mean over the iterations, averaged over the ranks.  */
static double
collective (enum coll k, int n)
{
  int large = n > 8192, size;
  long iters = large ? 100 : 1000, skip = large ? 10 : 200;
  const char *e = getenv ("OSU_ITERS");
  if (e && atol (e) >= 10)
    iters = large ? atol (e) / 10 : atol (e);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  size_t len = (size_t) n * (k == C_ALLTOALL ? (size_t) size : 1);
  char *s = page_alloc (len), *r = page_alloc (len);
  /* Small values: a sum over the ranks stays below 256.  */
  memset (s, 1, len);
  double acc = 0;
  MPI_Barrier (MPI_COMM_WORLD);
  for (long i = 0; i < iters + skip; i++)
    {
      double t1 = MPI_Wtime ();
      coll_call (k, s, r, n);
      double t2 = MPI_Wtime ();
      if (i >= skip)
        acc += t2 - t1;
      MPI_Barrier (MPI_COMM_WORLD);
    }
  double mine = acc * 1e6 / (double) iters, sum = 0;
  MPI_Reduce (&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  free (s);
  free (r);
  return sum / size;
}

#define PRELOAD_SIZES "OSU_SIZES"
#define PRELOAD_OUT "OSU_OUT"
#include "preload.h"

static void
preload_each (FILE *fp, const char *when, int rank, int n)
{
  double l = latency (rank, n);
  double b = collective (C_BCAST, n);
  double a = collective (C_ALLREDUCE, n);
  double t = collective (C_ALLTOALL, n);
  if (fp)
    fprintf (fp, "%s\tlatency\t%d\t%.6g\n%s\tbcast\t%d\t%.6g\n"
             "%s\tallreduce\t%d\t%.6g\n%s\talltoall\t%d\t%.6g\n", when, n,
             l, when, n, b, when, n, a, when, n, t);
}
