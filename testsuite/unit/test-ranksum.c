/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-ranksum: the rank-sum test against published table values and
   hand computations, Moses' interval, modes, adjusted p-values, and the
   order-statistic interval of the median at launch counts.  */
#include <config.h>
#include <math.h>
#include <stdlib.h>

#include "modes.h"
#include "padjust.h"
#include "ranksum.h"
#include "stats.h"
#include "unit.h"

/* P(U <= u) by enumerating every way to place the n x-values among the
   n + m ranks (bit masks), independent of the recurrence.  */
static double
brute_cdf (unsigned n, unsigned m, unsigned u0)
{
  unsigned total = 0, below = 0;
  for (unsigned mask = 0; mask < 1u << (n + m); mask++)
    {
      if ((unsigned) __builtin_popcount (mask) != n)
        continue;
      unsigned u = 0, ys = 0;
      for (unsigned r = 0; r < n + m; r++)
        if (mask >> r & 1)
          u += ys;         /* this x exceeds every y ranked below it */
        else
          ys++;
      total++;
      below += u <= u0;
    }
  return (double) below / total;
}

static void
test_exact (void)
{
  double c;
  /* Mann and Whitney (1947), Table I, n = m = 4: P(U <= 0) = .014,
     P(U <= 2) = .057, P(U <= 3) = .100, P(U <= 4) = .171
     (1, 4, 7 and 12 of the 70 arrangements).  */
  CHECK (ranksum_exact_cdf (4, 4, 0, &c) == 0);
  CHECK_NEAR (c, 1.0 / 70, 1e-12);
  ranksum_exact_cdf (4, 4, 2, &c);
  CHECK_NEAR (c, 4.0 / 70, 1e-12);
  ranksum_exact_cdf (4, 4, 3, &c);
  CHECK_NEAR (c, 0.100, 1e-12);
  ranksum_exact_cdf (4, 4, 4, &c);
  CHECK_NEAR (c, 12.0 / 70, 1e-12);
  /* Critical values of U at the two-sided 5% level, as tabled in
     S. Siegel and N. J. Castellan, Nonparametric Statistics for the
     Behavioral Sciences (2nd ed., 1988), Table J (and J. H. Zar,
     Biostatistical Analysis, Table B.11): 23 for n = m = 10, 2 for
     n = m = 5, 13 for n = m = 8: P(U <= crit) <= .025 < P(U <= crit+1). */
  ranksum_exact_cdf (10, 10, 23, &c);
  CHECK (c <= 0.025);
  CHECK_NEAR (c, 0.0216285262724891, 1e-12);  /* 4004 of 184756 */
  ranksum_exact_cdf (10, 10, 24, &c);
  CHECK (c > 0.025);
  ranksum_exact_cdf (5, 5, 2, &c);
  CHECK (c <= 0.025);
  ranksum_exact_cdf (5, 5, 3, &c);
  CHECK (c > 0.025);
  ranksum_exact_cdf (8, 8, 13, &c);
  CHECK (c <= 0.025);
  ranksum_exact_cdf (8, 8, 14, &c);
  CHECK (c > 0.025);
  /* Against enumeration, unequal sizes, every u.  */
  for (unsigned u = 0; u <= 21; u++)
    {
      ranksum_exact_cdf (3, 7, u, &c);
      CHECK_NEAR (c, brute_cdf (3, 7, u), 1e-12);
      ranksum_exact_cdf (7, 3, u, &c);
      CHECK_NEAR (c, brute_cdf (7, 3, u), 1e-12);
    }

  /* The test: every x below every y, n = m = 4: U = 0, p = 2/70.  */
  double x[] = { 1, 2, 3, 4 }, y[] = { 5, 6, 7, 8 };
  struct ranksum r;
  CHECK (ranksum_test (x, 4, y, 4, &r) == 0);
  CHECK (r.exact && r.u == 0);
  CHECK_NEAR (r.p, 2.0 / 70, 1e-12);
  CHECK (ranksum_test (y, 4, x, 4, &r) == 0);
  CHECK (r.u == 16);
  CHECK_NEAR (r.p, 2.0 / 70, 1e-12);
  /* Interleaved: x = 1 3 5 7, y = 2 4 6 8: U = 0+1+2+3 = 6, P(U <= 6)
     = 24/70 (partitions of 0..6 into at most 4 parts <= 4: 1 1 2 3 5
     5 7), p = 48/70.  */
  double x2[] = { 1, 3, 5, 7 }, y2[] = { 2, 4, 6, 8 };
  ranksum_test (x2, 4, y2, 4, &r);
  CHECK (r.u == 6);
  CHECK_NEAR (r.p, 48.0 / 70, 1e-12);
  /* Empty samples and NaN are refused.  */
  CHECK (ranksum_test (x, 0, y, 4, &r) == -2);
  double bad[] = { 1, NAN };
  CHECK (ranksum_test (bad, 2, y, 4, &r) == -2);
}

static void
test_normal (void)
{
  /* Ties: the normal approximation.  x = 1 1 2, y = 2 3 3: U = 0.5;
     ties of 2 at 1, 2 and 3 give sum (t^3 - t) = 18; Var U =
     9/12 (7 - 18/30) = 4.8; z = -(4 - 0.5)/sqrt (4.8) = -1.59752,
     p = 2 Q(1.59752) = 0.110149 (by hand with erfc).  */
  double x[] = { 1, 1, 2 }, y[] = { 2, 3, 3 };
  struct ranksum r;
  CHECK (ranksum_test (x, 3, y, 3, &r) == 0);
  CHECK (!r.exact);
  CHECK (r.u == 0.5);
  CHECK_NEAR (r.z, -1.5975241260567346, 1e-12);
  CHECK_NEAR (r.p, 0.11014892418594698, 1e-9);
  /* Beyond RANKSUM_EXACT_MAX: x = 1..60, y = 31..90 (30 ties, t = 2
     each: sum (t^3 - t) = 180).  U = 435 + 15 = 450 (x = 32..60 beat
     1..29 values of y; 30 tied pairs count one half).  Var U = 3600/12
     (121 - 180 / (120 * 119)) = 36296.218; z = -(1350 - 0.5)/190.5156
     = -7.0834.  */
  double a[60], b[60];
  for (int i = 0; i < 60; i++)
    {
      a[i] = i + 1;
      b[i] = i + 31;
    }
  CHECK (ranksum_test (a, 60, b, 60, &r) == 0);
  CHECK (!r.exact && r.u == 450);
  CHECK_NEAR (r.z, -1349.5 / sqrt (3600.0 / 12 * (121 - 180.0 / (120 * 119))),
              1e-12);
  CHECK_NEAR (r.z, -7.0834, 1e-4);
  CHECK (r.p > 0 && r.p < 2e-12);
  /* All values equal: no evidence, p = 1.  */
  double e[] = { 3, 3 };
  ranksum_test (e, 2, e, 2, &r);
  CHECK (r.p == 1);
  /* The exact p and the approximation at 10 against 10: x = 1..10,
     y = 6.5..15.5: U = 1+2+3+4 = 10, exact p = 2 * 139/184756 = 0.0015047
     (enumeration), normal 2 Q((40 - 0.5)/sqrt (175)) = 0.0028: the
     approximation is off by a factor of 2 this far in the tail, which is
     why small samples get the exact distribution.  */
  double p10[10], q10[10];
  for (int i = 0; i < 10; i++)
    {
      p10[i] = i + 1;
      q10[i] = i + 6.5;
    }
  ranksum_test (p10, 10, q10, 10, &r);
  CHECK (r.exact && r.u == 10);
  CHECK_NEAR (r.p, 2 * 139.0 / 184756, 1e-12);
}

static void
test_shift (void)
{
  /* y = x + 0.5, x = 1..10: the differences are j - i + 0.5, value v + 0.5
     occurring 10 - |v| times; k = 24 (P(U <= 23) = .0216 <= .025), and
     the 24th smallest is -3 + 0.5, the 77th 3 + 0.5.  */
  double x[10], y[10], lo, hi, est;
  for (int i = 0; i < 10; i++)
    {
      x[i] = i + 1;
      y[i] = i + 1.5;
    }
  CHECK (ranksum_shift_ci (x, 10, y, 10, 0.95, &lo, &hi, &est) == 1);
  CHECK (lo == -2.5 && hi == 3.5 && est == 0.5);
  /* 3 against 3: P(U = 0) = 0.05 > 0.025: no 95% interval.  */
  CHECK (ranksum_shift_ci (x, 3, y, 3, 0.95, &lo, &hi, &est) == 0);
  CHECK (lo == -1.5 && hi == 2.5);
  /* 4 against 4: P(U = 0) = 1/70 = .0143 <= .025 < 2/70: k = 1, the
     extremes.  */
  CHECK (ranksum_shift_ci (x, 4, y, 4, 0.95, &lo, &hi, &est) == 1);
  CHECK (lo == -2.5 && hi == 3.5);
}

static void
test_modes (void)
{
  struct mode g[10];
  /* Seven launches near 0.13 us and three near 0.42 (3.3x apart).  */
  double a[] = { 0.125, 0.128, 0.13, 0.131, 0.132, 0.135, 0.14,
                 0.41, 0.42, 0.44 };
  CHECK (modes_find (a, 10, 1.5, 2, g) == 2);
  CHECK (g[0].first == 0 && g[0].count == 7 && g[0].median == 0.131);
  CHECK (g[1].first == 7 && g[1].count == 3 && g[1].median == 0.42);
  CHECK_NEAR (g[0].share, 0.7, 1e-12);
  CHECK_NEAR (g[1].share, 0.3, 1e-12);
  /* A 1.32x spread (44 to 58 us) is one mode.  */
  double b[] = { 44, 46, 47, 49, 50, 52, 53, 55, 58 };
  CHECK (modes_find (b, 9, 1.5, 2, g) == 1);
  CHECK (g[0].count == 9 && g[0].median == 50 && g[0].share == 1);
  /* A lone value far out is an outlier, not a mode.  */
  double c[] = { 10, 10.5, 11, 11.2, 40 };
  CHECK (modes_find (c, 5, 1.5, 2, g) == 1);
  CHECK (g[0].count == 5);
  /* ... unless single values may form modes.  */
  CHECK (modes_find (c, 5, 1.5, 1, g) == 2);
  CHECK (g[1].count == 1 && g[1].median == 40);
  /* A lone value between two modes joins the nearer one (ratio).  */
  double d[] = { 1, 1.1, 2, 5, 5.2 };
  CHECK (modes_find (d, 5, 1.5, 2, g) == 2);
  CHECK (g[0].count == 3 && g[1].count == 2);
  /* Three modes, and a non-positive value gives none.  */
  double e[] = { 1, 1.1, 3, 3.1, 9, 9.5 };
  CHECK (modes_find (e, 6, 1.5, 2, g) == 3);
  double f[] = { -1, 1, 10, 11 };
  CHECK (modes_find (f, 4, 1.5, 2, g) == 1);
  CHECK (modes_find (f + 1, 1, 1.5, 2, g) == 1);
}

static void
test_padjust (void)
{
  double p[] = { 0.01, 0.04, 0.03, 0.005, NAN }, out[5];
  /* Holm: sorted 0.005 0.01 0.03 0.04 times 4 3 2 1 = 0.02 0.03 0.06
     0.04, then non-decreasing: 0.02 0.03 0.06 0.06.  */
  CHECK (padjust (p, 5, PADJUST_HOLM, out) == 0);
  CHECK_NEAR (out[0], 0.03, 1e-15);
  CHECK_NEAR (out[1], 0.06, 1e-15);
  CHECK_NEAR (out[2], 0.06, 1e-15);
  CHECK_NEAR (out[3], 0.02, 1e-15);
  CHECK (isnan (out[4]));
  /* Benjamini-Hochberg: times 4/1 4/2 4/3 4/4 = 0.02 0.02 0.04 0.04.  */
  padjust (p, 5, PADJUST_BH, out);
  CHECK_NEAR (out[0], 0.02, 1e-15);
  CHECK_NEAR (out[1], 0.04, 1e-15);
  CHECK_NEAR (out[2], 0.04, 1e-15);
  CHECK_NEAR (out[3], 0.02, 1e-15);
  padjust (p, 5, PADJUST_NONE, out);
  CHECK (out[1] == 0.04);
  CHECK (padjust_parse ("holm") == PADJUST_HOLM);
  CHECK (padjust_parse ("bh") == PADJUST_BH);
  CHECK (padjust_parse ("none") == PADJUST_NONE);
  CHECK (padjust_parse ("bonferroni") == -1);
  CHECK (padjust (p, 0, PADJUST_HOLM, out) == 0);
}

static void
test_median_interval (void)
{
  /* The order-statistic interval at launch counts, by hand from the
     binomial coverage 1 - 2 P(B <= j-1), B ~ Bin(n, 1/2): n = 7, 8:
     [x_(1), x_(n)] (0.984, 0.992; j = 2 gives 0.875, 0.930); n = 9:
     [x_(2), x_(8)] (1 - 2 * 10/512 = 0.961); n = 5: none.  */
  double x[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, lo, hi;
  CHECK (stats_median_ci_sorted (x, 7, 0.95, &lo, &hi) == 1);
  CHECK (lo == 1 && hi == 7);
  CHECK (stats_median_ci_sorted (x, 8, 0.95, &lo, &hi) == 1);
  CHECK (lo == 1 && hi == 8);
  CHECK (stats_median_ci_sorted (x, 9, 0.95, &lo, &hi) == 1);
  CHECK (lo == 2 && hi == 8);
  CHECK (stats_median_ci_sorted (x, 5, 0.95, &lo, &hi) == 0);
}

int
main (void)
{
  test_exact ();
  test_normal ();
  test_shift ();
  test_modes ();
  test_padjust ();
  test_median_interval ();
  return unit_done ();
}
