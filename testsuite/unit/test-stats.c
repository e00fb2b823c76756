/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-stats: medians, quantiles, the median's interval, adaptive stop.  */
#include <config.h>
#include <stdlib.h>

#include "stats.h"
#include "unit.h"

int
main (void)
{
  double a[] = { 5, 1, 4, 2, 3 };
  stats_sort (a, 5);
  CHECK (a[0] == 1 && a[4] == 5);
  CHECK (stats_median_sorted (a, 5) == 3);
  double b[] = { 1, 2, 3, 4 };
  CHECK (stats_median_sorted (b, 4) == 2.5);
  CHECK_NEAR (stats_quantile_sorted (b, 4, 0.05), 1.15, 1e-12);
  CHECK_NEAR (stats_quantile_sorted (b, 4, 0.95), 3.85, 1e-12);
  CHECK (stats_quantile_sorted (b, 4, 0) == 1);
  CHECK (stats_quantile_sorted (b, 4, 1) == 4);

  /* Order-statistic interval: for n = 10 the 95% interval of the median
     is [x_(2), x_(9)] (coverage 1 - 2 P(X <= 1) = 0.9785; j = 3 would
     give 0.8906).  */
  double x[20];
  for (int i = 0; i < 20; i++)
    x[i] = i + 1;
  double lo, hi;
  CHECK (stats_median_ci_sorted (x, 10, 0.95, &lo, &hi) == 1);
  CHECK (lo == 2 && hi == 9);
  /* n = 20: [x_(6), x_(15)] (coverage 0.9586).  */
  CHECK (stats_median_ci_sorted (x, 20, 0.95, &lo, &hi) == 1);
  CHECK (lo == 6 && hi == 15);
  /* n = 6 is the smallest with a 95% interval: [x_(1), x_(6)], 0.96875. */
  CHECK (stats_median_ci_sorted (x, 6, 0.95, &lo, &hi) == 1);
  CHECK (lo == 1 && hi == 6);
  CHECK (stats_median_ci_sorted (x, 5, 0.95, &lo, &hi) == 0);
  CHECK (lo == 1 && hi == 5);

  /* Coverage by simulation: the interval holds the true median (0 for a
     symmetric distribution) in at least ~95% of 2000 experiments.  */
  srand (1);
  int hits = 0;
  for (int e = 0; e < 2000; e++)
    {
      double s[31];
      for (int i = 0; i < 31; i++)
        s[i] = (double) rand () / RAND_MAX - 0.5;
      stats_sort (s, 31);
      stats_median_ci_sorted (s, 31, 0.95, &lo, &hi);
      hits += lo <= 0 && 0 <= hi;
    }
  CHECK (hits >= 1880);

  struct stats_summary sum;
  double c[] = { 10, 11, 9, 10, 10, 12, 8, 10, 10, 10 };
  stats_summarize (c, 10, &sum);
  CHECK (sum.n == 10 && sum.median == 10 && sum.min == 8 && sum.max == 12);
  CHECK (sum.ci_exact && sum.ci_lo == 9 && sum.ci_hi == 11);

  /* Adaptive stopping.  */
  struct stats_adapt cfg = { 6, 100, 0.01, 10 };
  double same[10] = { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 };
  CHECK (stats_adapt_check (&cfg, same, 5, 0) == STATS_CONTINUE);
  CHECK (stats_adapt_check (&cfg, same, 6, 0) == STATS_CONVERGED);
  double noisy[100];
  for (int i = 0; i < 100; i++)
    noisy[i] = (i % 2) ? 1 : 2;
  CHECK (stats_adapt_check (&cfg, noisy, 50, 0) == STATS_CONTINUE);
  CHECK (stats_adapt_check (&cfg, noisy, 100, 0) == STATS_MAX_REPS);
  CHECK (stats_adapt_check (&cfg, noisy, 50, 11) == STATS_TIME_CAP);
  CHECK_STR (stats_stop_name (STATS_CONVERGED), "converged");
  CHECK_STR (stats_stop_name (STATS_MAX_REPS), "max_reps");
  CHECK_STR (stats_stop_name (STATS_TIME_CAP), "time_cap");

  struct stats_samples sm = { 0 };
  for (int i = 0; i < 1000; i++)
    stats_samples_push (&sm, i);
  CHECK (sm.n == 1000 && sm.x[999] == 999);
  stats_samples_clear (&sm);
  CHECK (sm.n == 0);
  stats_samples_free (&sm);
  return unit_done ();
}
