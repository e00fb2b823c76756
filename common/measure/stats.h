/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats.h: robust statistics for measured times (msgperf(7): NAMES AND
 * UNITS, MPI PROGRAMS).
 *
 * A measured time is reported as its median with a distribution-free 95%
 * confidence interval built from order statistics (the binomial
 * distribution of the number of samples below the true median), so no
 * normality is assumed and no degrees of freedom can be got wrong.  */
#ifndef MSGPERF_STATS_H
#define MSGPERF_STATS_H

#include <stddef.h>

void stats_sort (double *x, size_t n);

/* Quantile P in [0,1] of sorted X (linear interpolation between order
   statistics, Hyndman and Fan type 7).  N must be > 0.  */
double stats_quantile_sorted (const double *x, size_t n, double p);

double stats_median_sorted (const double *x, size_t n);

/* Distribution-free confidence interval of the median at LEVEL (e.g.
   0.95) from sorted X: [x_(j), x_(k)] with the largest j and smallest k
   (1-based, k = n + 1 - j) such that the binomial coverage is >= LEVEL.
   Returns 1 when such an interval exists, 0 when N is too small (then
   [min, max] is returned, whose coverage is below LEVEL).  */
int stats_median_ci_sorted (const double *x, size_t n, double level,
                            double *lo, double *hi);

struct stats_summary
{
  size_t n;
  double median, min, max, p05, p95, ci_lo, ci_hi;
  int ci_exact;   /* the interval reaches the 95% level */
};

/* Summarise N samples; sorts X in place.  */
void stats_summarize (double *x, size_t n, struct stats_summary *s);

/* ------------------------------------------------- adaptive stopping */

enum stats_stop
{
  STATS_CONTINUE = 0,
  STATS_CONVERGED,   /* the interval's half-width is within eps * median */
  STATS_MAX_REPS,
  STATS_TIME_CAP
};

/* "converged", "max_reps", "time_cap" (the `stop` column).  */
const char *stats_stop_name (enum stats_stop s);

struct stats_adapt
{
  size_t min_reps;   /* never stop before */
  size_t max_reps;   /* stop here at the latest */
  double eps;        /* relative half-width of the 95% interval */
  double time_cap;   /* seconds (in whatever unit ELAPSED is given) */
};

/* Decide whether to stop after N samples X (unsorted; copied, not
   modified) taking ELAPSED so far.  */
enum stats_stop stats_adapt_check (const struct stats_adapt *cfg,
                                   const double *x, size_t n, double elapsed);

/* A growable sample buffer.  */
struct stats_samples
{
  double *x;
  size_t n, cap;
};
void stats_samples_push (struct stats_samples *s, double v);
void stats_samples_clear (struct stats_samples *s);
void stats_samples_free (struct stats_samples *s);

#endif
