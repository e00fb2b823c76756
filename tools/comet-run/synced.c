/* SPDX-License-Identifier: GPL-3.0-or-later */
/* synced.c: repetitions that start together on every rank (--rep-sync
 * barrier or window), the way of Hunold and Carpen-Amarie's ReproMPI
 * ("MPI Benchmarking Revisited: Experimental Design and
 * Reproducibility", 2015).
 *
 * Once per launch every rank's MPI_Wtime is fitted against the test
 * node's by a line (clockmodel.h, clocksync.h), and before every batch
 * the line is moved through a fresh offset (mpu_clock_anchor): a fit
 * over 20 ms can find a drift of 15 ppm where the ranks read one clock
 * (seen here), 30 us of error after 2 s if extrapolated from the fit,
 * 3 ns over a batch of 10 windows of 20 us.  Under --rep-sync window
 * the repetitions of a point run in batches: the test node picks a
 * global start s_0 a little ahead, and repetition k begins on every rank
 * when its global clock reaches s_0 + k w (window.h, eq. (4)); a
 * repetition that a rank began late, or that ran past its window, is
 * dropped on every rank and counted in n_invalid.  Under barrier each
 * repetition begins after an MPI_Barrier and none is dropped.  Each
 * repetition is one call between two clock readings on every rank: the
 * test node's own durations give t and its statistics, the earliest
 * start and latest end over the ranks on the global clock give t_span
 * (window.h, eq. (5)), ReproMPI's time of a collective.  The repetitions
 * go on (valid or not, each counts towards --max-reps as in ReproMPI's
 * --nrep) until t_span's interval is within --epsilon, or a cap.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "clocksync.h"
#include "comet.h"
#include "mpiutil.h"
#include "stats.h"
#include "window.h"
#include "xalloc.h"

/* Repetitions per batch: their times are gathered on the test node
   after each batch, outside every window.  */
enum { BATCH = 10 };

/* The first window of a batch opens this long after the test node chose
   it (seconds): time for the broadcast of s_0 to reach every rank
   (ReproMPI waits 1 ms before its first window).  */
#define LEAD 1e-3

/* The window of a point when --window is not given: 4 times the slowest
   rank's median time of one call, from 10 barrier-separated calls, plus
   10 us for the clock model's error and the polling loop.  A window
   that a typical repetition fills to a quarter leaves room for the
   spread of a quiet machine, while a repetition slowed fourfold, which
   is an outlier by any rule, expires.  */
static double
pilot_window (const struct comet_timing *t)
{
  enum { N = 10 };
  double x[N];
  for (int i = 0; i < N; i++)
    {
      COMET_MPI (MPI_Barrier (t->comm), "MPI_Barrier");
      double t1 = MPI_Wtime ();
      t->op (t->arg);
      x[i] = MPI_Wtime () - t1;
    }
  stats_sort (x, N);
  double med = stats_median_sorted (x, N), slowest;
  mpu_check (MPI_Allreduce (&med, &slowest, 1, MPI_DOUBLE, MPI_MAX,
                            t->comm), "MPI_Allreduce");
  return 4 * slowest + 10e-6;
}

/* One batch of N repetitions on this rank: flags, global begin and end,
   local durations.  S0 and W: the first window and the length (W 0:
   barrier).  */
static void
run_batch (const struct comet_ctx *c, const struct comet_timing *t,
           double s0, double w, size_t n, int *flags, double *begin,
           double *end, double *self)
{
  const struct clock_model *m = &c->clock;
  for (size_t k = 0; k < n; k++)
    {
      double start = 0, first = 0;
      if (w > 0)
        {
          start = window_start (s0, w, k);
          first = mpu_global_time (m);
          for (double g = first; g < start; g = mpu_global_time (m))
            ;
        }
      else
        COMET_MPI (MPI_Barrier (t->comm), "MPI_Barrier");
      double l1 = MPI_Wtime ();
      t->op (t->arg);
      double l2 = MPI_Wtime ();
      begin[k] = clock_model_global (m, l1);
      end[k] = clock_model_global (m, l2);
      self[k] = l2 - l1;
      flags[k] = w > 0 ? window_flags (start, w, first, end[k]) : 0;
    }
}

/* The arrays of a point's batches.  */
struct synced_buf
{
  int *flags, *all_flags;
  double *begin, *end, *self, *all_begin, *all_end, *span, *self_kept;
};

static void
buf_init (struct synced_buf *b, int size, int root)
{
  size_t all = root ? (size_t) size * BATCH : 1;
  b->flags = xcalloc (BATCH, sizeof *b->flags);
  b->begin = xcalloc (BATCH, sizeof *b->begin);
  b->end = xcalloc (BATCH, sizeof *b->end);
  b->self = xcalloc (BATCH, sizeof *b->self);
  b->all_flags = xcalloc (all, sizeof *b->all_flags);
  b->all_begin = xcalloc (all, sizeof *b->all_begin);
  b->all_end = xcalloc (all, sizeof *b->all_end);
  b->span = xcalloc (BATCH, sizeof *b->span);
  b->self_kept = xcalloc (BATCH, sizeof *b->self_kept);
}

static void
buf_free (struct synced_buf *b)
{
  free (b->flags);
  free (b->begin);
  free (b->end);
  free (b->self);
  free (b->all_flags);
  free (b->all_begin);
  free (b->all_end);
  free (b->span);
  free (b->self_kept);
}

/* Gather a batch of N repetitions on the root and keep its valid ones
   (microseconds) in SPANS and SELVES; returns the number dropped.  */
static size_t
collect (const struct comet_timing *t, struct synced_buf *b, int size,
         int root, size_t n, struct stats_samples *spans,
         struct stats_samples *selves)
{
  int cnt = (int) n;
  mpu_check (MPI_Gather (b->flags, cnt, MPI_INT, b->all_flags, cnt, MPI_INT,
                         t->root, t->comm), "MPI_Gather");
  mpu_check (MPI_Gather (b->begin, cnt, MPI_DOUBLE, b->all_begin, cnt,
                         MPI_DOUBLE, t->root, t->comm), "MPI_Gather");
  mpu_check (MPI_Gather (b->end, cnt, MPI_DOUBLE, b->all_end, cnt,
                         MPI_DOUBLE, t->root, t->comm), "MPI_Gather");
  if (!root)
    return 0;
  struct window_tally tally;
  window_collect (b->all_flags, b->all_begin, b->all_end, (size_t) size, n,
                  b->self, b->span, b->self_kept, &tally);
  for (size_t j = 0; j < tally.valid; j++)
    {
      stats_samples_push (spans, b->span[j] * 1e6);
      stats_samples_push (selves, b->self_kept[j] * 1e6);
    }
  return n - tally.valid;
}

void
comet_measure_synced (struct comet_ctx *c, const struct comet_timing *t,
                      int root, struct comet_result *res)
{
  const struct comet_opts *o = c->opt;
  int size;
  mpu_check (MPI_Comm_size (t->comm, &size), "MPI_Comm_size");
  for (int64_t i = 0; i < o->warmup; i++)
    t->op (t->arg);
  double w = 0;
  if (o->rep_sync == COMET_SYNC_WINDOW)
    w = o->window > 0 ? o->window : pilot_window (t);
  struct synced_buf b;
  buf_init (&b, size, root);
  struct stats_samples spans = { NULL, 0, 0 }, selves = { NULL, 0, 0 };
  size_t attempts = 0, dropped = 0;
  int decision = STATS_CONTINUE;
  double started = MPI_Wtime ();
  do
    {
      size_t n = o->adapt.max_reps - attempts;
      n = n > BATCH ? BATCH : n;
      /* (The tree is the one of the fit, over every rank from rank 0:
         any common reference serves the windows and the spans.)  */
      if (o->clock_tree)
        mpu_clock_anchor_tree (MPI_COMM_WORLD, 0, &c->clock,
                               &c->clock_parent);
      else
        mpu_clock_anchor (t->comm, t->root, &c->clock);
      double s0 = root ? mpu_global_time (&c->clock) + LEAD : 0;
      mpu_check (MPI_Bcast (&s0, 1, MPI_DOUBLE, t->root, t->comm),
                 "MPI_Bcast");
      run_batch (c, t, s0, w, n, b.flags, b.begin, b.end, b.self);
      dropped += collect (t, &b, size, root, n, &spans, &selves);
      attempts += n;
      if (root)
        {
          /* Every attempt counts towards --max-reps, valid or not.  */
          struct stats_adapt a = o->adapt;
          a.max_reps = 0;
          decision = stats_adapt_check (&a, spans.x, spans.n,
                                        MPI_Wtime () - started);
          if (decision == STATS_CONTINUE && attempts >= o->adapt.max_reps)
            decision = STATS_MAX_REPS;
        }
      mpu_check (MPI_Bcast (&decision, 1, MPI_INT, t->root, t->comm),
                 "MPI_Bcast");
    }
  while (decision == STATS_CONTINUE);

  res->stop = (enum stats_stop) decision;
  res->repeat = 1;
  res->n_invalid = (int64_t) dropped;
  res->window = w > 0 ? w * 1e6 : NAN;
  res->quantum = mpu_timer_resolution () * 1e6;
  double sum = 0;
  for (size_t i = 0; i < selves.n; i++)
    sum += selves.x[i];
  res->mean = selves.n ? sum / (double) selves.n : NAN;
  stats_summarize (selves.x, selves.n, &res->s);
  stats_summarize (spans.x, spans.n, &res->span);
  stats_samples_free (&spans);
  stats_samples_free (&selves);
  buf_free (&b);
}

void
comet_clock_setup (struct comet_ctx *c)
{
  clock_model_identity (&c->clock);
  if (c->opt->rep_sync == COMET_SYNC_NONE)
    return;
  if (c->opt->clock_tree)
    mpu_clock_sync_tree (MPI_COMM_WORLD, 0, &c->clock, &c->clock_parent);
  else
    mpu_clock_sync (MPI_COMM_WORLD, 0, &c->clock);
  /* The model of each rank at the time of the fit: offset (us),
     drift, residual (us).  */
  double now = MPI_Wtime ();
  double mine[3] = { (c->clock.drift * now + c->clock.intercept) * 1e6,
                     c->clock.drift, c->clock.residual * 1e6 };
  double *all = c->w ? xcalloc ((size_t) mpu_size, sizeof mine) : NULL;
  mpu_check (MPI_Gather (mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0,
                         MPI_COMM_WORLD), "MPI_Gather");
  if (!c->w)
    return;
  size_t cap = 64 + (size_t) mpu_size * 64, m = 0, k = 0, l = 0;
  char *off = xcalloc (3, cap), *drift = off + cap, *resid = drift + cap;
  double worst = 0;
  for (int r = 0; r < mpu_size; r++)
    {
      const char *sep = r ? "," : "";
      m += (size_t) snprintf (off + m, cap - m, "%s%d:%.3f", sep, r,
                              all[3 * r]);
      k += (size_t) snprintf (drift + k, cap - k, "%s%d:%.3g", sep, r,
                              all[3 * r + 1]);
      l += (size_t) snprintf (resid + l, cap - l, "%s%d:%.3f", sep, r,
                              all[3 * r + 2]);
      if (all[3 * r + 2] > worst)
        worst = all[3 * r + 2];
    }
  tsv_meta (c->w, "clock_sync", "%s fitpoints=%d exchanges=%d "
            "spacing=%gs anchor=batch", c->opt->clock_tree ? "hca" : "linear",
            CLOCKSYNC_FITPOINTS,
            CLOCKSYNC_EXCHANGES, CLOCKSYNC_SPACING);
  tsv_meta (c->w, "clock_offset", "%s", off);
  tsv_meta (c->w, "clock_drift", "%s", drift);
  tsv_meta (c->w, "clock_residual", "%s", resid);
  tsv_meta (c->w, "clock_residual_max", "%.3f", worst);
  free (off);
  free (all);
}
