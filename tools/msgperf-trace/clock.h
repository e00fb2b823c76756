/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clock.h: the clock of libmsgperf-trace's records.
 *
 * A call's record holds its times in clock units since the origin, read
 * at MPI_Init together with MPI_Wtime (T0); the trace stores seconds on
 * MPI_Wtime's base, T0 + units x trace_clock_scale (), converted when
 * the records are written (tracebuf.c).  Two clocks:
 *
 *   monotonic  CLOCK_MONOTONIC, the clock of Open MPI's MPI_Wtime, in
 *              nanoseconds (scale 1e-9);
 *   tsc        the x86-64 time-stamp counter, where it is invariant and
 *              the kernel's own clock source (so that it runs at one
 *              rate on every CPU), in ticks; its scale is measured
 *              against CLOCK_MONOTONIC from the origin to the writing.
 *              It is read in a third of the time.
 *
 * MSGPERF_TRACE_CLOCK chooses (tsc where usable, else monotonic, by
 * default).  */
#ifndef MSGPERF_TRACE_CLOCK_H
#define MSGPERF_TRACE_CLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "traceformat.h"

#if defined __x86_64__ && defined TRACE_RECORD_NATIVE
# define TRACE_CLOCK_HAVE_TSC 1
# include <x86intrin.h>
#endif

/* Start the clock chosen by WANT ("tsc", "monotonic", or NULL or "" for
   the default): its origin is now (the caller reads MPI_Wtime just
   before, T0).  Returns 0, or -1 with a reason in WHY (WHYLEN bytes)
   when WANT is not a clock or not usable here.  */
int trace_clock_start (const char *want, char *why, size_t whylen);

/* Is the clock the TSC? (Then the record times are ticks until the
   trace is written, and only the in-place record buffer holds them.)  */
extern int trace_clock_tsc;
extern uint64_t trace_clock_tsc0;
extern struct timespec trace_clock_origin;

/* Clock units since the origin.  */
static inline double
trace_clock_now (void)
{
#ifdef TRACE_CLOCK_HAVE_TSC
  if (trace_clock_tsc)
    return (double) (__rdtsc () - trace_clock_tsc0);
#endif
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  /* Integer nanoseconds first: no rounding of the seconds since boot.  */
  return (double) ((int64_t) (t.tv_sec - trace_clock_origin.tv_sec)
                   * 1000000000
                   + (t.tv_nsec - trace_clock_origin.tv_nsec));
}

/* Seconds per unit: 1e-9 for monotonic; for the TSC, CLOCK_MONOTONIC's
   time since the origin over the ticks since.  Async-signal-safe.  */
double trace_clock_scale (void);

/* The clock's units and CLOCK_MONOTONIC's seconds since the origin,
   read together: the ends of a piece of the run over which records'
   units are converted to seconds (tracebuf.c).  Async-signal-safe.  */
void trace_clock_pair (double *units, double *seconds);

#endif
