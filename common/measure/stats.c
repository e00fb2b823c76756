/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stats.c: medians, quantiles and the order-statistic interval of the
   median; adaptive stopping of repeated measurements (see stats.h).  */
#include <config.h>
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "err.h"
#include "xalloc.h"

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

void
stats_sort (double *x, size_t n)
{
  qsort (x, n, sizeof *x, cmp_double);
}

double
stats_quantile_sorted (const double *x, size_t n, double p)
{
  if (n == 0)
    return NAN;
  if (p <= 0)
    return x[0];
  if (p >= 1)
    return x[n - 1];
  double h = (double) (n - 1) * p;
  size_t lo = (size_t) floor (h);
  if (lo + 1 >= n)
    return x[n - 1];
  return x[lo] + (h - (double) lo) * (x[lo + 1] - x[lo]);
}

double
stats_median_sorted (const double *x, size_t n)
{
  return stats_quantile_sorted (x, n, 0.5);
}

/* Coverage of [x_(j), x_(n+1-j)] for the median: the probability that the
   number of samples below the median, X ~ Binomial(n, 1/2), lies in
   [j, n-j], which is 1 - 2 P(X <= j-1) by symmetry.  */
static double
coverage (size_t j, size_t n)
{
  return 1.0 - 2.0 * gsl_cdf_binomial_P ((unsigned) (j - 1), 0.5, (unsigned) n);
}

int
stats_median_ci_sorted (const double *x, size_t n, double level,
                        double *lo, double *hi)
{
  if (n == 0)
    {
      *lo = *hi = NAN;
      return 0;
    }
  if (coverage (1, n) < level)
    {
      *lo = x[0];
      *hi = x[n - 1];
      return 0;
    }
  /* Coverage falls as j grows: find the largest j that keeps LEVEL.  */
  size_t good = 1, bad = n / 2 + 1;
  while (bad - good > 1)
    {
      size_t mid = good + (bad - good) / 2;
      if (coverage (mid, n) >= level)
        good = mid;
      else
        bad = mid;
    }
  *lo = x[good - 1];
  *hi = x[n - good];
  return 1;
}

void
stats_summarize (double *x, size_t n, struct stats_summary *s)
{
  memset (s, 0, sizeof *s);
  s->n = n;
  if (n == 0)
    {
      s->median = s->min = s->max = s->p05 = s->p95 = NAN;
      s->ci_lo = s->ci_hi = NAN;
      return;
    }
  stats_sort (x, n);
  s->median = stats_median_sorted (x, n);
  s->min = x[0];
  s->max = x[n - 1];
  s->p05 = stats_quantile_sorted (x, n, 0.05);
  s->p95 = stats_quantile_sorted (x, n, 0.95);
  s->ci_exact = stats_median_ci_sorted (x, n, 0.95, &s->ci_lo, &s->ci_hi);
}

const char *
stats_stop_name (enum stats_stop s)
{
  switch (s)
    {
    case STATS_CONVERGED:
      return "converged";
    case STATS_MAX_REPS:
      return "max_reps";
    case STATS_TIME_CAP:
      return "time_cap";
    case STATS_CONTINUE:
      break;
    }
  return "continue";
}

enum stats_stop
stats_adapt_check (const struct stats_adapt *cfg, const double *x, size_t n,
                   double elapsed)
{
  if (n > 0 && n >= cfg->min_reps)
    {
      double *y = xmalloc (n * sizeof *y);
      memcpy (y, x, n * sizeof *y);
      stats_sort (y, n);
      double med = stats_median_sorted (y, n), lo, hi;
      int exact = stats_median_ci_sorted (y, n, 0.95, &lo, &hi);
      free (y);
      if (exact && (hi - lo) / 2 <= cfg->eps * fabs (med))
        return STATS_CONVERGED;
    }
  if (cfg->max_reps && n >= cfg->max_reps)
    return STATS_MAX_REPS;
  if (cfg->time_cap > 0 && elapsed >= cfg->time_cap)
    return STATS_TIME_CAP;
  return STATS_CONTINUE;
}

void
stats_samples_push (struct stats_samples *s, double v)
{
  if (s->n == s->cap)
    {
      size_t cap = s->cap ? 2 * s->cap : 64;
      double *x = xrealloc (s->x, cap * sizeof *x);
      s->x = x;
      s->cap = cap;
    }
  s->x[s->n++] = v;
}

void
stats_samples_clear (struct stats_samples *s)
{
  s->n = 0;
}

void
stats_samples_free (struct stats_samples *s)
{
  free (s->x);
  s->x = NULL;
  s->n = s->cap = 0;
}
