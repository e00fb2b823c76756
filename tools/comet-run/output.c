/* SPDX-License-Identifier: GPL-3.0-or-later */
/* output.c: comet-run's rows.  The header holds the union of the
 * columns of the kernels asked for (comet_set_columns); each measurement
 * point is one row, written by the test node as soon as it is measured,
 * with its progress line on stderr.  */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "comet.h"
#include "err.h"
#include "mpiutil.h"
#include "num.h"
#include "stats.h"
#include "tsv.h"

static int out_columns;   /* union of the kernels' COL_* */

void
comet_set_columns (int columns)
{
  out_columns = columns;
}

void
comet_row_init (struct comet_row *r, const char *kernel)
{
  memset (r, 0, sizeof *r);
  r->kernel = kernel;
  r->bytes = r->veclen = r->order = r->load = -1;
  r->hops = -1;
  r->direction = NULL;
  r->mbps = r->tsync = r->tcomm = r->tcomp = r->overlap = NAN;
  r->overlap_raw = NAN;
  r->topology = NULL;
  r->depth = r->fanout = -1;
  r->rate = NAN;
  r->packets = -1;
  r->t_mean = NAN;
  r->ops = -1;
  r->t_quantum = NAN;
  r->span.n = 0;
  r->span.median = r->span.ci_lo = r->span.ci_hi = NAN;
  r->n_invalid = -1;
  r->window = NAN;
}

void
comet_write_header (tsv_writer *w)
{
  const char *names[40];
  size_t n = 0;
  names[n++] = "kernel";
  names[n++] = "nprocs";
  if (out_columns & COL_BYTES) names[n++] = "bytes";
  if (out_columns & COL_VECLEN) names[n++] = "veclen";
  if (out_columns & COL_ORDER) names[n++] = "order";
  if (out_columns & COL_HOPS) names[n++] = "hops";
  if (out_columns & COL_DIRECTION) names[n++] = "direction";
  if (out_columns & COL_LOAD) names[n++] = "load";
  if (out_columns & COL_TREE)
    {
      names[n++] = "topology";
      names[n++] = "depth";
      names[n++] = "fanout";
    }
  static const char *const stats[] = { "t", "t_mean", "t_min", "t_max",
    "t_p05", "t_p95", "t_ci_lo", "t_ci_hi", "reps", "ops", "stop" };
  for (size_t i = 0; i < sizeof stats / sizeof *stats; i++)
    names[n++] = stats[i];
  if (out_columns & COL_SYNC)
    {
      names[n++] = "t_span";
      names[n++] = "t_span_ci_lo";
      names[n++] = "t_span_ci_hi";
      names[n++] = "n_invalid";
      names[n++] = "window";
    }
  if (out_columns & COL_MBPS) names[n++] = "MBps";
  if (out_columns & COL_RATE) names[n++] = "per_s";
  if (out_columns & COL_PACKETS) names[n++] = "packets";
  if (out_columns & COL_OVERLAP)
    {
      names[n++] = "tsync";
      names[n++] = "tcomm";
      names[n++] = "tcomp";
      names[n++] = "overlap";
      names[n++] = "overlap_raw";
      names[n++] = "overlap_flag";
    }
  tsv_write_header (w, n, names);
}

static void
put_count (tsv_writer *w, int64_t v)
{
  if (v < 0)
    tsv_put_na (w);
  else
    tsv_put_int (w, v);
}

/* msgperf(7), NUMBERS: a statistic of the samples (the median, a
   percentile, an interval bound, the extremes, and the mean) to the step
   of a sample, the timer's resolution / (repeat * divisor): one rounding
   for all but the mean (put_mean_us), so that t_min <= t_mean <= t_max
   still holds as printed (6
   significant digits would print a mean of 91342.53 below the minimum
   91342.53 as 91342.5); values derived from times (MBps, per_s, the
   overlap times and shares) to 6 significant digits.  --precision rounds
   further.  */
static void
put_sample_us (tsv_writer *w, double v, double quantum)
{
  if (!(quantum > 0))
    quantum = 0;
  char buf[NUM_BUFSIZE];
  int sig = tsv_precision > 0 ? tsv_precision
                              : quantum > 0 ? -1 : NUM_DERIVED_DIGITS;
  num_format_measured (v, quantum, sig, buf);
  tsv_put_str (w, buf);
}

/* The mean of N samples holds finer digits than one sample: each sample's
   rounding error (up to a step Q) averages down as Q / sqrt (N), and at
   --stat osu a 0.16 us bcast timed to 0.01 us would otherwise be printed
   to within 3%.  It is rounded to the decade of Q / sqrt (N), after being
   held between the extremes as they are printed, so that t_min <= t_mean
   <= t_max still holds as printed.  */
static void
put_mean_us (tsv_writer *w, const struct comet_row *r)
{
  double q = r->t_quantum, v = r->t_mean;
  if (!(q > 0) || tsv_precision > 0 || !isfinite (v) || r->t.n < 2)
    {
      put_sample_us (w, v, q);
      return;
    }
  char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE], buf[NUM_BUFSIZE];
  num_format_measured (r->t.min, q, -1, lo);
  num_format_measured (r->t.max, q, -1, hi);
  double vlo = strtod (lo, NULL), vhi = strtod (hi, NULL);
  if (v < vlo)
    v = vlo;
  if (v > vhi)
    v = vhi;
  num_format_measured (v, q / sqrt ((double) r->t.n), -1, buf);
  tsv_put_str (w, buf);
}

static void
put_derived (tsv_writer *w, double v)
{
  char buf[NUM_BUFSIZE];
  int sig = tsv_precision > 0 && tsv_precision < NUM_DERIVED_DIGITS
    ? tsv_precision : NUM_DERIVED_DIGITS;
  num_format_measured (v, 0, sig, buf);
  tsv_put_str (w, buf);
}

/* The progress line of row R: the point, its time, and where the
   kernel's size sweep is.  */
static void
emit_progress (struct comet_ctx *c, const struct comet_row *r)
{
  if (c->rank != c->test || !cli_progress_now (c->progress))
    return;
  char extra[160] = "";
  size_t m = 0;
  if (r->hops >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " hops=%d", r->hops);
  if (r->load >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " load=%lld",
                            (long long) r->load);
  if (r->direction)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " %s",
                            r->direction);
  if (r->topology)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " topology=%s",
                            r->topology);
  if (r->order >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " order=%lld",
                            (long long) r->order);
  if (r->veclen >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " veclen=%lld",
                            (long long) r->veclen);
  if (r->bytes >= 0)
    snprintf (extra + m, sizeof extra - m, " bytes=%lld",
              (long long) r->bytes);
  /* How far the kernel's size sweep is, and the time the rest will take
     at the mean so far (larger sizes take longer: a lower bound).  */
  char eta[96] = "";
  const struct comet_sweep *sz = &c->opt->sizes;
  for (size_t k = 0; r->bytes >= 0 && k < sz->n; k++)
    if (sz->v[k] == r->bytes)
      {
        double spent = MPI_Wtime () - c->kernel_t0;
        snprintf (eta, sizeof eta, "; size %zu of %zu, at least %.2g s left",
                  k + 1, sz->n, spent / (double) (k + 1)
                                * (double) (sz->n - k - 1));
        break;
      }
  comet_progress (c, "%s%s: %.4g us (%s, %zu reps)%s", r->kernel, extra,
                  r->t.median, stats_stop_name (r->stop), r->t.n, eta);
}

void
comet_emit (struct comet_ctx *c, const struct comet_row *r)
{
  if (c->rank != c->test)
    return;
  tsv_writer *w = c->w;
  tsv_put_str (w, r->kernel);
  tsv_put_int (w, c->size);
  if (out_columns & COL_BYTES) put_count (w, r->bytes);
  if (out_columns & COL_VECLEN) put_count (w, r->veclen);
  if (out_columns & COL_ORDER) put_count (w, r->order);
  if (out_columns & COL_HOPS) put_count (w, r->hops);
  if (out_columns & COL_DIRECTION)
    {
      if (r->direction)
        tsv_put_str (w, r->direction);
      else
        tsv_put_na (w);
    }
  if (out_columns & COL_LOAD) put_count (w, r->load);
  if (out_columns & COL_TREE)
    {
      if (r->topology)
        tsv_put_str (w, r->topology);
      else
        tsv_put_na (w);
      put_count (w, r->depth);
      put_count (w, r->fanout);
    }
  put_sample_us (w, r->t.median, r->t_quantum);
  put_mean_us (w, r);
  put_sample_us (w, r->t.min, r->t_quantum);
  put_sample_us (w, r->t.max, r->t_quantum);
  put_sample_us (w, r->t.p05, r->t_quantum);
  put_sample_us (w, r->t.p95, r->t_quantum);
  put_sample_us (w, r->t.ci_lo, r->t_quantum);
  put_sample_us (w, r->t.ci_hi, r->t_quantum);
  tsv_put_int (w, (int64_t) r->t.n);
  put_count (w, r->ops);
  tsv_put_str (w, stats_stop_name (r->stop));
  if (out_columns & COL_SYNC)
    {
      put_sample_us (w, r->span.median, r->t_quantum);
      put_sample_us (w, r->span.ci_lo, r->t_quantum);
      put_sample_us (w, r->span.ci_hi, r->t_quantum);
      put_count (w, r->n_invalid);
      put_derived (w, r->window);
    }
  if (out_columns & COL_MBPS) put_derived (w, r->mbps);
  if (out_columns & COL_RATE) put_derived (w, r->rate);
  if (out_columns & COL_PACKETS) put_count (w, r->packets);
  if (out_columns & COL_OVERLAP)
    {
      put_derived (w, r->tsync);
      put_derived (w, r->tcomm);
      put_derived (w, r->tcomp);
      put_derived (w, r->overlap);
      put_derived (w, r->overlap_raw);
      /* Whether the clamp changed the share, so that a reader sees a
         measurement that went wrong instead of a plausible 0 or 100.  */
      if (isnan (r->overlap_raw))
        tsv_put_na (w);
      else
        tsv_put_str (w, r->overlap_raw < 0 ? "below_0"
                        : r->overlap_raw > 100 ? "above_100" : "in_range");
    }
  tsv_end_row (w);
  /* Row by row: a run ended by --timeout or a signal leaves whole rows.  */
  tsv_flush (w);

  emit_progress (c, r);
}

void
comet_progress (struct comet_ctx *c, const char *fmt, ...)
{
  if (c->rank != c->test || !cli_progress_now (c->progress))
    return;
  va_list ap;
  va_start (ap, fmt);
  fprintf (stderr, "%s: ", err_program);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
}

/* ------------------------------------------------------------ helpers */

int
comet_mpi_count (int64_t n, const char *what)
{
  if (n < 0 || n > 0x7fffffff)
    mpu_die (EXIT_DATA, "%s %lld does not fit an MPI count", what,
             (long long) n);
  return (int) n;
}
