/* SPDX-License-Identifier: GPL-3.0-or-later */
/* timerstep.h: the real resolution of a clock, from differences of its
 * readings (pure; common/mpi/mpiutil.c feeds it MPI_Wtime).
 *
 * A clock's nominal unit (MPI_Wtick, clock_getres) says how its readings
 * are counted, not how often they change.  On the AMD EPYC test machine
 * the TSC behind CLOCK_MONOTONIC advances about 26 counts (10 ns) at a
 * time: readings are in nanoseconds but every measured interval is a
 * multiple of 10 ns, give or take 1 ns of conversion rounding, and the
 * cheapest interval (two consecutive calls) is 20 or 30 ns.  */
#ifndef MSGPERF_TIMERSTEP_H
#define MSGPERF_TIMERSTEP_H

#include <stddef.h>

/* The step of a clock, from N measured intervals D (seconds, any order;
   zero and negative ones are ignored) and its nominal unit TICK
   (seconds).  The step is the largest S of at least 4 ticks such that 95%
   of the non-zero intervals lie within one tick of a multiple of S (one
   tick: the rounding of each reading to whole ticks); the candidates are
   the lower edge of the intervals (their 1st percentile, plus or minus a
   tick) divided by 1, 2, 3, ...  When no such S exists the step cannot be
   told from the unit, and the result is TICK.  The intervals must span
   several steps (consecutive readings and readings a few steps apart),
   or a multiple of the step passes for it.  *MIN_DIFF (if not NULL)
   receives the smallest non-zero interval (NaN when there is none).
   Returns NaN when no interval is positive and TICK is not.  */
double timer_step (const double *d, size_t n, double tick, double *min_diff);

#endif
