/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clock.c: the clock of libmsgperf-trace's records (clock.h).  */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef __x86_64__
# include <cpuid.h>
#endif

#include "clock.h"

int trace_clock_tsc;
uint64_t trace_clock_tsc0;
struct timespec trace_clock_origin;

#ifdef TRACE_CLOCK_HAVE_TSC
/* Is the TSC one clock for the whole run: invariant (CPUID: same rate in
   every power state) and the kernel's clock source (which the kernel
   gives up when the CPUs' counters are not in step)?  0, or -1 with the
   reason in WHY.  */
static int
tsc_usable (char *why, size_t whylen)
{
  unsigned a, b, c, d;
  if (!__get_cpuid (0x80000007u, &a, &b, &c, &d) || !(d & (1u << 8)))
    {
      snprintf (why, whylen, "the TSC is not invariant (CPUID)");
      return -1;
    }
  const char *src = "/sys/devices/system/clocksource/clocksource0/"
                    "current_clocksource";
  char name[32] = "";
  int fd = open (src, O_RDONLY);
  ssize_t n = fd >= 0 ? read (fd, name, sizeof name - 1) : -1;
  if (fd >= 0)
    close (fd);
  if (n < 0)
    {
      snprintf (why, whylen, "cannot read %s: %s", src, strerror (errno));
      return -1;
    }
  name[n] = '\0';
  name[strcspn (name, "\n")] = '\0';
  if (strcmp (name, "tsc") != 0)
    {
      snprintf (why, whylen, "the kernel's clock source is '%s', not the "
                "TSC", name);
      return -1;
    }
  return 0;
}
#endif

int
trace_clock_start (const char *want, char *why, size_t whylen)
{
  int tsc = 0;
  if (want && *want && strcmp (want, "monotonic") != 0
      && strcmp (want, "tsc") != 0)
    {
      snprintf (why, whylen, "'%s' is not a clock (tsc, monotonic)", want);
      return -1;
    }
  if (!want || !*want || strcmp (want, "tsc") == 0)
    {
#ifdef TRACE_CLOCK_HAVE_TSC
      tsc = tsc_usable (why, whylen) == 0;
#else
      snprintf (why, whylen, "no TSC on this host");
#endif
      if (!tsc && want && *want)
        return -1;
    }
  clock_gettime (CLOCK_MONOTONIC, &trace_clock_origin);
#ifdef TRACE_CLOCK_HAVE_TSC
  /* Read after the origin, as at the writing: the order's offset is the
     same at both ends of the scale's measurement.  */
  trace_clock_tsc0 = __rdtsc ();
#endif
  trace_clock_tsc = tsc;
  return 0;
}

double
trace_clock_scale (void)
{
#ifdef TRACE_CLOCK_HAVE_TSC
  if (trace_clock_tsc)
    {
      struct timespec t;
      clock_gettime (CLOCK_MONOTONIC, &t);
      uint64_t ticks = __rdtsc () - trace_clock_tsc0;
      int64_t ns = (int64_t) (t.tv_sec - trace_clock_origin.tv_sec)
                   * 1000000000 + (t.tv_nsec - trace_clock_origin.tv_nsec);
      return ticks > 0 ? (double) ns * 1e-9 / (double) ticks : 0;
    }
#endif
  return 1e-9;
}

void
trace_clock_pair (double *units, double *seconds)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  int64_t ns = (int64_t) (t.tv_sec - trace_clock_origin.tv_sec) * 1000000000
               + (t.tv_nsec - trace_clock_origin.tv_nsec);
  *seconds = (double) ns * 1e-9;
#ifdef TRACE_CLOCK_HAVE_TSC
  if (trace_clock_tsc)
    {
      *units = (double) (__rdtsc () - trace_clock_tsc0);
      return;
    }
#endif
  *units = (double) ns;
}
