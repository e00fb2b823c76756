/* SPDX-License-Identifier: GPL-3.0-or-later */
/* window.h: repetitions started at global window boundaries, and which
 * of them count (pure; comet-run's windowed measurement feeds it the
 * global times of clockmodel.h).
 *
 * Hunold and Carpen-Amarie ("MPI Benchmarking Revisited", 2015) start
 * repetition k of a measurement on every rank at the same global time
 *
 *   s_k = s_0 + k * w,                                           (4)
 *
 * w the window's length: a rank polls its global clock until s_k has
 * come.  A repetition is invalid on a rank that found s_k already past
 * at its first reading (it started late: the ranks did not start
 * together) or that ended after s_k + w (its window expired: the next
 * repetition may start late, and the time is an outlier the window was
 * meant to cut).  A repetition invalid on any rank is dropped, and the
 * time of a valid one is the collective's as they define it, from the
 * earliest start to the latest end on the global clock:
 *
 *   T_k = max_r e_{r,k} - min_r b_{r,k}.                         (5)  */
#ifndef MSGPERF_WINDOW_H
#define MSGPERF_WINDOW_H

#include <stddef.h>

enum
{
  WINDOW_LATE = 1,       /* the window had begun at the first reading */
  WINDOW_EXPIRED = 2     /* the repetition ended after its window */
};

/* Start of window K (eq. (4)).  */
double window_start (double s0, double w, size_t k);

/* The flags of one rank's repetition: its window starts at START (global
   seconds) and lasts W; FIRST is the rank's first global reading while
   waiting for it, END its global time when the call returned.  */
int window_flags (double start, double w, double first, double end);

/* Per-repetition result of NREP repetitions on NRANKS ranks.  Arrays are
   rank-major, as MPI_Gather leaves them: element [r * NREP + k] is rank
   r's repetition k.  FLAGS, BEGIN and END: each rank's flags and global
   start and end times; A rank's own times (SELF, its local durations,
   NULL for none) are kept for the valid repetitions too.  */
struct window_tally
{
  size_t valid;       /* repetitions valid on every rank */
  size_t late;        /* invalid because a rank started late */
  size_t expired;     /* invalid because a window expired (and no rank
                         started late) */
};

/* Tally NREP repetitions; for each valid one, in order, SPAN[j] gets its
   time (eq. (5)) and, when SELF_IN is not NULL, SELF_OUT[j] gets
   SELF_IN[k].  SPAN and SELF_OUT hold NREP values.  */
void window_collect (const int *flags, const double *begin,
                     const double *end, size_t nranks, size_t nrep,
                     const double *self_in, double *span, double *self_out,
                     struct window_tally *tally);

#endif
