/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ranksum.c: the Wilcoxon rank-sum (Mann-Whitney U) test, exact and
   approximate, and Moses' interval of the shift (see ranksum.h).

   References: H. B. Mann and D. R. Whitney, "On a test of whether one of
   two random variables is stochastically larger than the other", Ann.
   Math. Statist. 18 (1947) 50-60; F. Wilcoxon, "Individual comparisons
   by ranking methods", Biometrics Bulletin 1 (1945) 80-83; L. E. Moses,
   in Walker and Lev, Statistical Inference (1953), the interval of the
   shift; M. Hollander and D. A. Wolfe, Nonparametric Statistical Methods
   (2nd ed., 1999), Sections 4.1-4.3, for the tie correction.  */
#include <config.h>
#include "ranksum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

/* The whole null distribution of U for samples of N and M values, as
   probabilities P(U = u), u = 0..N*M, into OUT (N*M + 1 numbers).
   Mann and Whitney (1947), the recurrence of their Section 3: the
   largest of the N + M values is an x with probability N/(N+M), and then
   it exceeds all M values of y,
     p_{n,m}(u) = n/(n+m) p_{n-1,m}(u-m) + m/(n+m) p_{n,m-1}(u),
   with p_{0,m} and p_{n,0} the point mass at 0.  Rows i = 0..N are built
   in turn, each holding j = 0..M; probabilities rather than counts keep
   every number below 1.  Returns 0, or -1 when out of memory.  */
static int
exact_pmf (size_t n, size_t m, double *out)
{
  size_t width = n * m + 1;
  double *prev = calloc ((m + 1) * width, sizeof *prev);
  double *cur = calloc ((m + 1) * width, sizeof *cur);
  if (!prev || !cur)
    {
      free (prev);
      free (cur);
      return -1;
    }
  for (size_t j = 0; j <= m; j++)
    prev[j * width] = 1;                        /* p_{0,j} */
  for (size_t i = 1; i <= n; i++)
    {
      memset (cur, 0, (m + 1) * width * sizeof *cur);
      cur[0] = 1;                               /* p_{i,0} */
      for (size_t j = 1; j <= m; j++)
        {
          double a = (double) i / (double) (i + j), b = 1 - a;
          double *row = cur + j * width;
          const double *up = prev + j * width;  /* p_{i-1,j} */
          const double *left = cur + (j - 1) * width;  /* p_{i,j-1} */
          for (size_t u = 0; u <= i * j; u++)
            row[u] = (u >= j ? a * up[u - j] : 0) + b * left[u];
        }
      double *t = prev;
      prev = cur;
      cur = t;
    }
  memcpy (out, prev + m * width, width * sizeof *out);
  free (prev);
  free (cur);
  return 0;
}

int
ranksum_exact_cdf (size_t n, size_t m, double u0, double *cdf)
{
  *cdf = NAN;
  double *p = malloc ((n * m + 1) * sizeof *p);
  if (!p || exact_pmf (n, m, p) < 0)
    {
      free (p);
      return -1;
    }
  double s = 0;
  for (size_t u = 0; u <= n * m && (double) u <= u0 + 1e-9; u++)
    s += p[u];
  *cdf = s > 1 ? 1 : s;
  free (p);
  return 0;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* U of X against Y (pairs x > y, ties counted one half), and whether
   any two of the N + M values are equal; T3 gets sum (t^3 - t) over the
   groups of tied values of the pooled sample (the tie correction of the
   variance, Hollander and Wolfe (1999) eq. (4.11)).  POOL holds N + M
   scratch numbers.  */
static double
u_statistic (const double *x, size_t n, const double *y, size_t m,
             double *pool, int *ties, double *t3)
{
  double u = 0;
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++)
      u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
  memcpy (pool, x, n * sizeof *pool);
  memcpy (pool + n, y, m * sizeof *pool);
  qsort (pool, n + m, sizeof *pool, cmp_double);
  *ties = 0;
  *t3 = 0;
  for (size_t i = 0; i < n + m;)
    {
      size_t k = i + 1;
      while (k < n + m && pool[k] == pool[i])
        k++;
      double t = (double) (k - i);
      if (t > 1)
        {
          *ties = 1;
          *t3 += t * t * t - t;
        }
      i = k;
    }
  return u;
}

static int
has_nan (const double *x, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (isnan (x[i]))
      return 1;
  return 0;
}

int
ranksum_test (const double *x, size_t n, const double *y, size_t m,
              struct ranksum *r)
{
  r->u = r->p = r->z = NAN;
  r->exact = 0;
  if (n == 0 || m == 0 || has_nan (x, n) || has_nan (y, m))
    return -2;
  double *pool = malloc ((n + m) * sizeof *pool);
  if (!pool)
    return -1;
  int ties;
  double t3;
  r->u = u_statistic (x, n, y, m, pool, &ties, &t3);
  free (pool);
  double nm = (double) n * (double) m, big_n = (double) (n + m);
  if (!ties && n <= RANKSUM_EXACT_MAX && m <= RANKSUM_EXACT_MAX)
    {
      /* Two-sided: twice the smaller tail, U being symmetric about
         nm/2 under the null hypothesis.  */
      double lower, upper;
      if (ranksum_exact_cdf (n, m, r->u, &lower) < 0
          || ranksum_exact_cdf (n, m, nm - r->u, &upper) < 0)
        return -1;
      double tail = lower < upper ? lower : upper;
      r->p = 2 * tail > 1 ? 1 : 2 * tail;
      r->exact = 1;
      return 0;
    }
  /* E U = nm/2; Var U = nm/12 ((N+1) - sum (t^3 - t) / (N (N-1))),
     Hollander and Wolfe (1999) eqs. (4.7) and (4.11), N = n + m.  */
  double var = nm / 12 * ((big_n + 1) - t3 / (big_n * (big_n - 1)));
  double d = r->u - nm / 2;
  if (var <= 0)
    {
      /* Every value the same: no evidence of a difference.  */
      r->z = 0;
      r->p = 1;
      return 0;
    }
  /* Continuity correction: half a step of U towards its mean.  */
  double ad = fabs (d) - 0.5;
  r->z = copysign ((ad > 0 ? ad : 0) / sqrt (var), d);
  double p = 2 * gsl_cdf_ugaussian_Q (fabs (r->z));
  r->p = p > 1 ? 1 : p;
  return 0;
}

/* The largest k such that P(U <= k-1) <= ALPHA2 (0 when even P(U = 0)
   is larger): exact for small samples, from the normal approximation
   (no tie correction, no continuity correction) beyond.  */
static int
critical_count (size_t n, size_t m, double alpha2, size_t *k)
{
  *k = 0;
  if (n <= RANKSUM_EXACT_MAX && m <= RANKSUM_EXACT_MAX)
    {
      double *p = malloc ((n * m + 1) * sizeof *p);
      if (!p || exact_pmf (n, m, p) < 0)
        {
          free (p);
          return -1;
        }
      double s = 0;
      for (size_t u = 0; u <= n * m; u++)
        {
          s += p[u];
          if (s > alpha2 * (1 + 1e-12))
            break;
          *k = u + 1;
        }
      free (p);
      return 0;
    }
  double nm = (double) n * (double) m;
  double sd = sqrt (nm * (double) (n + m + 1) / 12);
  double q = nm / 2 - gsl_cdf_ugaussian_Qinv (alpha2) * sd;
  *k = q > 0 ? (size_t) floor (q) : 0;
  return 0;
}

int
ranksum_shift_ci (const double *x, size_t n, const double *y, size_t m,
                  double level, double *lo, double *hi, double *est)
{
  *lo = *hi = *est = NAN;
  if (n == 0 || m == 0)
    return -2;
  size_t nm = n * m, k;
  double *d = malloc (nm * sizeof *d);
  if (!d || critical_count (n, m, (1 - level) / 2, &k) < 0)
    {
      free (d);
      return -1;
    }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++)
      d[i * m + j] = y[j] - x[i];
  qsort (d, nm, sizeof *d, cmp_double);
  *est = nm % 2 ? d[nm / 2] : (d[nm / 2 - 1] + d[nm / 2]) / 2;
  int ok = k >= 1;
  if (!ok)
    k = 1;
  *lo = d[k - 1];
  *hi = d[nm - k];
  free (d);
  return ok;
}
