/* SPDX-License-Identifier: GPL-3.0-or-later */
/* modes.h: separate modes among a few launch values.
 *
 * Launches of the same measurement can land in distinct states (two ranks
 * on one core or on two, a page-cache or frequency state) and their
 * medians then form clusters a factor apart (3.3x at 1 B on this kind of
 * machine).  A median of all launches then lands in one cluster or between
 * them by chance; such a point is reported as its modes, each with its
 * median and share.
 *
 * The rule (documented in msgperf-compare(1)): sort the values; a gap
 * between neighbours x_(i) < x_(i+1) separates two modes when
 * x_(i+1) >= FACTOR * x_(i) (a ratio, since times spread in proportion to
 * their size); a group of fewer than MIN_COUNT values is merged into the
 * neighbour across the smaller gap (a lone value far out is an outlier,
 * which the median already ignores, not a mode).  Values <= 0 or NaN
 * make no modes (one group).  Pure: no I/O, no exit.  */
#ifndef MSGPERF_MODES_H
#define MSGPERF_MODES_H

#include <stddef.h>

struct mode
{
  size_t first;    /* index of its first value in the sorted input */
  size_t count;    /* number of values */
  double median;
  double share;    /* count / n */
};

/* Find the modes of the N SORTED values X (N >= 1).  MODES must hold N
   entries; returns how many were found (1 when the values form one
   group).  */
size_t modes_find (const double *x, size_t n, double factor,
                   size_t min_count, struct mode *modes);

#endif
