/* SPDX-License-Identifier: GPL-3.0-or-later */
/* measure.c: the timing engine of comet-run.
 *
 * comet-benchmark.txt, Section 2.1: times are elapsed wall-clock times
 * taken on a single node (the test node), "architectures with low clock
 * resolution are handled by using a repeat loop to execute each kernel
 * multiple times for each time measurement.  The use of a call to a dummy
 * function inside the loop, with the increment variable as a parameter,
 * prevents optimizing compilers from removing this loop.  The overhead of
 * the repeat loop and dummy function calls is measured separately and
 * subtracted from the total time."
 *
 * Where the paper averaged a fixed 1000 runs, every repeat loop here is
 * one sample; samples are taken until the 95% interval of their median is
 * within --epsilon of it, or a cap is reached (stats.h), and the median,
 * its interval and the stopping reason are reported.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "comet.h"
#include "err.h"
#include "mpiutil.h"
#include "xalloc.h"
#include "stats.h"

enum { TAG_RESULT = 91 };

static volatile int64_t dummy_sink;
static const char negative_key[] = "negative sample";

void
comet_row_result (struct comet_row *row, const struct comet_result *res)
{
  row->t = res->s;
  row->t_mean = res->mean;
  row->ops = res->repeat;
  row->stop = res->stop;
  row->t_quantum = res->quantum;
  row->span = res->span;
  row->n_invalid = res->n_invalid;
  row->window = res->window;
}

__attribute__ ((noinline)) void
comet_dummy (int64_t i)
{
  dummy_sink = i;
}

static double
median_of (double *x, size_t n)
{
  stats_sort (x, n);
  return stats_median_sorted (x, n);
}

/* The kernel of the empty loop: called like a real one, through a
   pointer the compiler cannot see through.  */
static void
empty_op (void *arg)
{
  (void) arg;
}
static comet_op volatile empty_op_ptr = empty_op;

void
comet_loop_overhead (struct comet_ctx *c)
{
  enum { NFIXED = 201, NITER = 21, K = 20000 };
  double x[NFIXED];
  /* The empty timed region: two clock reads.  */
  for (int s = 0; s < NFIXED; s++)
    {
      double t1 = MPI_Wtime ();
      double t2 = MPI_Wtime ();
      x[s] = t2 - t1;
    }
  c->loop_fixed = median_of (x, NFIXED);
  /* The repeat loop with its dummy call and the call of an empty kernel,
     and nothing else.  */
  comet_op op = empty_op_ptr;
  for (int s = 0; s < NITER; s++)
    {
      double t1 = MPI_Wtime ();
      for (int64_t i = 0; i < K; i++)
        {
          op (NULL);
          comet_dummy (i);
        }
      double t2 = MPI_Wtime ();
      x[s] = t2 - t1;
    }
  double per = (median_of (x, NITER) - c->loop_fixed) / K;
  c->loop_iter = per > 0 ? per : 0;
}

/* The repeat count k that makes one timed loop last about --sample-time
   (at most CAP), chosen by the test node from untimed batches of 1, 2, 4,
   ... iterations, until a batch lasts at least half the sample time and
   its time per iteration is within a quarter of the previous batch's.
   Why not from the warm-up's duration: the first calls of a point can be
   far slower than the rest (Open MPI's shared-memory path, for one, gives
   a peer its fast lane only after 16 messages), so the warm-up's mean
   made a small message's iteration look ten times longer, and the first
   point of every run got a tenth of the repeat count it asked for, with a
   per-sample start-up cost ten times less amortised (about 15% on the
   one-way time of small messages).  Each batch costs one broadcast; at
   most 30 batches, and no more once they have taken a quarter of
   --time-cap (a partner that is very slow, or whose times never settle,
   then gets the count of the last batch rather than a long calibration
   outside the cap).  */
static int64_t
calibrate (const struct comet_timing *t, const struct comet_opts *o,
           int64_t cap, int root)
{
  int64_t k = 1;
  double prev = 0, start = MPI_Wtime ();
  for (int round = 0;; round++)
    {
      double t1 = MPI_Wtime ();
      for (int64_t i = 0; i < k; i++)
        {
          t->op (t->arg);
          comet_dummy (i);
        }
      double el = MPI_Wtime () - t1;
      int64_t next[2] = { k, 0 };      /* repeat count, done */
      if (root)
        {
          double per = el / (double) k;
          double want = per > 0 ? ceil (o->sample_time / per) : (double) cap;
          int64_t w = want < 1 ? 1 : want > (double) cap ? cap : (int64_t) want;
          int steady = prev > 0 && fabs (per - prev) <= 0.25 * prev;
          if (round >= 29 || MPI_Wtime () - start > 0.25 * o->adapt.time_cap
              || (el >= 0.5 * o->sample_time && steady)
              || (k == cap && steady))
            next[0] = w, next[1] = 1;
          else
            next[0] = el >= 0.5 * o->sample_time ? w
                      : (2 * k > cap ? cap : 2 * k);
          prev = per;
        }
      mpu_check (MPI_Bcast (next, 2, MPI_INT64_T, t->root, t->comm),
                 "MPI_Bcast");
      k = next[0];
      if (next[1])
        return k;
    }
}

/* One sample of SECONDS for DIVISOR operations, in microseconds, floored
   at 0 (said once).  */
static double
sample_us (double seconds, double overhead, double per)
{
  double us = (seconds - overhead) / per * 1e6;
  /* The loop overhead is a median of its own: a sample faster than it
     would come out negative, which no operation takes.  */
  if (us < 0)
    {
      warn_once (negative_key, "a sample came out shorter than the "
                 "measured loop overhead (%.3g us); samples floored at 0 "
                 "(t_min may be 0)", overhead * 1e6);
      us = 0;
    }
  return us;
}

/* --stat osu: OSU Micro-Benchmarks' way, for lining the two up.
   - A round trip (DIVISOR 2: echo) as osu_latency: after --warmup
     untimed iterations and a barrier, one loop of --iterations round
     trips timed as a whole; the one sample (ops = --iterations) is the
     loop's time per one-way trip.
   - Anything else as OSU's collectives: after --warmup untimed
     iterations, --iterations iterations, each timed on its own between
     two clock reads and separated from the next by a barrier outside
     the timed region, on every rank; the samples are every rank's
     iterations (reps = --iterations times the ranks), so t_mean is the
     mean of the ranks' means (OSU's "average latency").  */
static void
measure_osu (struct comet_ctx *c, const struct comet_timing *t, int root,
             struct comet_result *res)
{
  const struct comet_opts *o = c->opt;
  for (int64_t i = 0; i < o->warmup; i++)
    t->op (t->arg);
  int64_t n = o->iterations;
  int loop = t->divisor == 2.0;
  size_t ns = loop ? 1 : (size_t) n;
  double *x = xcalloc (1, ns * sizeof *x);
  if (loop)
    {
      COMET_MPI (MPI_Barrier (t->comm), "MPI_Barrier");
      double t1 = MPI_Wtime ();
      for (int64_t i = 0; i < n; i++)
        t->op (t->arg);
      double t2 = MPI_Wtime ();
      x[0] = sample_us ((t2 - t1) / (double) n, 0, t->divisor);
    }
  else
    for (int64_t i = 0; i < n; i++)
      {
        COMET_MPI (MPI_Barrier (t->comm), "MPI_Barrier");
        double t1 = MPI_Wtime ();
        t->op (t->arg);
        double t2 = MPI_Wtime ();
        /* OSU subtracts no clock overhead: neither here.  */
        x[i] = sample_us (t2 - t1, 0, t->divisor);
      }
  /* Every rank's iterations, gathered on the root: their mean is the
     mean of the ranks' means (a round trip: the root's loop, as
     osu_latency prints rank 0's).  */
  int size = 1;
  double *all = x;
  if (!loop)
    {
      mpu_check (MPI_Comm_size (t->comm, &size), "MPI_Comm_size");
      all = root ? xcalloc ((size_t) size, ns * sizeof *all) : NULL;
      mpu_check (MPI_Gather (x, (int) n, MPI_DOUBLE, all, (int) n,
                             MPI_DOUBLE, t->root, t->comm), "MPI_Gather");
    }
  size_t nall = ns * (size_t) size;
  struct stats_summary none = { 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0 };
  res->s = none;
  res->mean = NAN;
  res->stop = STATS_MAX_REPS;
  res->repeat = loop ? n : 1;
  res->quantum = NAN;
  if (root)
    {
      res->quantum = mpu_timer_resolution () * 1e6 / t->divisor
                     / (double) res->repeat;
      double sum = 0;
      for (size_t i = 0; i < nall; i++)
        sum += all[i];
      res->mean = sum / (double) nall;
      stats_summarize (all, nall, &res->s);
    }
  if (all != x)
    free (all);
  free (x);
}

void
comet_measure (struct comet_ctx *c, const struct comet_timing *t,
               struct comet_result *res)
{
  const struct comet_opts *o = c->opt;
  int me;
  mpu_check (MPI_Comm_rank (t->comm, &me), "MPI_Comm_rank");
  int root = me == t->root;
  struct stats_summary na = { 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0 };
  res->span = na;
  res->n_invalid = -1;
  res->window = NAN;
  if (t->synced && o->rep_sync != COMET_SYNC_NONE)
    {
      comet_measure_synced (c, t, root, res);
      goto report;
    }
  if (o->stat_osu)
    {
      measure_osu (c, t, root, res);
      goto report;
    }

  /* Warm-up: untimed as far as the results go (the first call, which may
     set up connections, is never reported).  */
  for (int64_t i = 0; i < o->warmup; i++)
    {
      t->op (t->arg);
      comet_dummy (i);
    }

  int64_t cap = t->max_repeat > 0 ? t->max_repeat : o->max_repeat;
  if (cap > o->max_repeat)
    cap = o->max_repeat;
  int64_t k = calibrate (t, o, cap, root);
  struct stats_samples samples = { NULL, 0, 0 };
  int decision = STATS_CONTINUE;
  double start = MPI_Wtime ();
  double overhead = c->loop_fixed + (double) k * c->loop_iter;
  do
    {
      double t1 = MPI_Wtime ();
      for (int64_t i = 0; i < k; i++)
        {
          t->op (t->arg);
          comet_dummy (i);
        }
      double t2 = MPI_Wtime ();
      if (root)
        {
          double us = sample_us (t2 - t1, overhead,
                                 (double) k * t->divisor);
          stats_samples_push (&samples, us);
          decision = stats_adapt_check (&o->adapt, samples.x, samples.n,
                                        MPI_Wtime () - start);
        }
      mpu_check (MPI_Bcast (&decision, 1, MPI_INT, t->root, t->comm),
                 "MPI_Bcast");
    }
  while (decision == STATS_CONTINUE);

  res->stop = (enum stats_stop) decision;
  res->repeat = k;
  struct stats_summary none = { 0, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0 };
  res->s = none;
  res->mean = NAN;
  res->quantum = NAN;
  if (root)
    {
      /* A sample is one timer interval divided by k * divisor.  */
      res->quantum = mpu_timer_resolution () * 1e6
                     / ((double) k * t->divisor);
      double sum = 0;
      for (size_t i = 0; i < samples.n; i++)
        sum += samples.x[i];
      res->mean = samples.n ? sum / (double) samples.n : NAN;
      stats_summarize (samples.x, samples.n, &res->s);
    }
  stats_samples_free (&samples);
report:
  /* A kernel whose test node would not see the pattern (a diagonal node
     of transpose exchanges with itself) times on another rank and hands
     the result over.  */
  if (t->report != t->root)
    {
      if (root)
        mpu_check (MPI_Send (res, (int) sizeof *res, MPI_BYTE,
                             t->report, TAG_RESULT, t->comm), "MPI_Send");
      else if (me == t->report)
        mpu_check (MPI_Recv (res, (int) sizeof *res, MPI_BYTE, t->root,
                             TAG_RESULT, t->comm, MPI_STATUS_IGNORE),
                   "MPI_Recv");
    }
}
