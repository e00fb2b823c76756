/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperinvert.h: component parameters from end-to-end measurements, as in
 * Section 3 of Stoica, Sultan and Keyes.
 *
 * Each observation is the equivalent block (a(n), b(n)) of one pattern
 * size n (obtained by fitting eq. (2) to the times measured at that n).
 * A pattern says how a(n) and b(n) depend on a node block (index 0: w for
 * the workstations, p for the SP2 and Paragon processors) and a network
 * block (index 1: c, or l for an SP2 link):
 *
 *   ethernet  all-to-all over n nodes, eq. (4):
 *             a(n) = 4(n-1) a_w + n(n-1) a_c,  b(n) = max{2(n-1) b_w, n(n-1) b_c}
 *   sp2       n disjoint pairs, eq. (8):
 *             a(n) = 2 a_p + n a_c,  b(n) = max{b_p, n b_c}
 *             with K channels: n b_c = (n / min(n, K)) b_l
 *   paragon   n pairs along one mesh row, eq. (12):
 *             a(n) = 2 a_p + 2n a_c,  b(n) = max{b_p, n b_c}
 *
 * and a round trip (RTT/2, eq. (3)) is a(1) = 2 a_w + a_c,
 * b(1) = max{b_w, b_c} (for sp2 and paragon: the n = 1 case).
 *
 * The a's enter linearly and are fitted by weighted least squares over
 * all n; the b's enter through a maximum, and the solver finds which
 * block is the bottleneck at each n.  Instead of the limits n -> infinity
 * of eqs. (5), (9), (10), (13), (14), the fit uses every n measured, and
 * it says which parameters the data cannot determine (a block that is
 * never the bottleneck is "shadowed", an a below the resolution of the
 * measurements).  Pure computation: no I/O.  */
#ifndef MSGPERF_HYPERINVERT_H
#define MSGPERF_HYPERINVERT_H

#include <stddef.h>

enum hinv_pattern
{
  HINV_ETHERNET = 0,
  HINV_SP2,
  HINV_PARAGON
};

/* "ethernet", "sp2", "paragon" -> pattern; -1 if unknown.  */
int hinv_pattern_parse (const char *name);
const char *hinv_pattern_name (enum hinv_pattern p);

/* One observation: the fitted block of the pattern at size N (or of a
   round trip, RTT = 1, halved: the one-way block).  */
struct hinv_obs
{
  double n;
  int rtt;
  double a, a_se;
  double b, b_se;
};

enum hinv_status
{
  HINV_FIT = 0,             /* estimated */
  HINV_UPPER_BOUND,         /* only an upper bound is known (shadowed) */
  HINV_BELOW_RESOLUTION,    /* too small to be seen in these data */
  HINV_NOT_IDENTIFIABLE     /* only a combination with the other block */
};

/* "fit", "upper_bound", "below_resolution", "not_identifiable" */
const char *hinv_status_name (enum hinv_status s);

struct hinv_param
{
  double value;   /* NaN when nothing can be said */
  double se;      /* NaN when not applicable */
  enum hinv_status status;
};

struct hinv_options
{
  enum hinv_pattern pattern;
  double channels;     /* sp2: channels K (0: eq. (8) with b_c) */
  double resolution;   /* relative: a share below it is not resolved
                          (the paper's 5% rule of thumb: 0.05) */
};

#define HINV_MAX_NOTES 6

struct hinv_result
{
  const char *name[2];           /* block names: "w", "c" / "p", "c"|"l" */
  struct hinv_param a[2], b[2];
  size_t nnotes;
  char note[HINV_MAX_NOTES][200]; /* why a parameter is not estimated */
};

/* Solve for the component blocks from M observations.  0 on success; -1
   with NOTE[0] saying why (e.g. no observation) otherwise.  */
int hinv_solve (const struct hinv_obs *obs, size_t m,
                const struct hinv_options *opt, struct hinv_result *res);

#endif
