/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ranksum.h: the Wilcoxon rank-sum (Mann-Whitney) test of two samples and
 * the distribution-free interval of the shift between them.
 *
 * Two alternatives are compared on their launch medians (one number per
 * launch, msgperf(7), MPI PROGRAMS): few values, of unknown and often
 * skewed or multimodal distribution, so the test assumes nothing but
 * exchangeability under the null hypothesis.  Pure functions: no I/O, no
 * exit; out of memory is a returned -1.  */
#ifndef MSGPERF_RANKSUM_H
#define MSGPERF_RANKSUM_H

#include <stddef.h>

/* Beyond this size of either sample, or with ties, the p-value comes from
   the normal approximation (the exact table would need (n+1)(nm+1)
   numbers per step and gains nothing there).  */
#define RANKSUM_EXACT_MAX 50

struct ranksum
{
  double u;       /* U of the first sample: #(x_i > y_j) + #(x_i = y_j)/2 */
  double p;       /* two-sided p-value of "same distribution" */
  double z;       /* the normal deviate (NaN when exact) */
  int exact;      /* 1: p from the exact distribution of U */
};

/* P(U <= U0) under the null hypothesis for samples of N and M values
   without ties, from the recurrence of Mann and Whitney (1947).  Returns
   0, or -1 when out of memory (then *CDF is NaN).  */
int ranksum_exact_cdf (size_t n, size_t m, double u0, double *cdf);

/* The test of X (N values) against Y (M values), N, M >= 1.  Exact when
   N, M <= RANKSUM_EXACT_MAX and no value of X equals one of Y or of its
   own sample; otherwise the normal approximation with the tie correction
   of the variance and a continuity correction.  Returns 0, -1 when out of
   memory, -2 when a sample is empty or holds a NaN.  */
int ranksum_test (const double *x, size_t n, const double *y, size_t m,
                  struct ranksum *r);

/* The distribution-free interval at LEVEL (e.g. 0.95) of the shift D in
   "Y is distributed as X + D" (Moses' interval, the one that inverts this
   test): [d_(k), d_(nm+1-k)] of the N*M sorted differences y_j - x_i,
   with k the largest count such that P(U <= k-1) <= (1-LEVEL)/2.  Sets
   *EST to the median of the differences (Hodges-Lehmann).  Returns 1 when
   the interval reaches LEVEL, 0 when the samples are too small for it
   (then [min, max] of the differences), -1 when out of memory, -2 on
   empty samples.  */
int ranksum_shift_ci (const double *x, size_t n, const double *y, size_t m,
                      double level, double *lo, double *hi, double *est);

#endif
