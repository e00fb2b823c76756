/* SPDX-License-Identifier: GPL-3.0-or-later */
/* prop.h: seeded property tests on top of unit.h.
 *
 *   prop_begin ("name");              one stream of random numbers per
 *   for (long i = 0; i < prop_cases (); i++)      property, 1000 cases
 *     { double a = prop_loguniform (1e-3, 1e6); ...
 *       PROP_CHECK (cond, "a=%g", a); }
 *
 * The stream is splitmix64 seeded by MSGPERF_PROP_SEED (default 20261121)
 * mixed with the property's name, so that one property replays alone and
 * adding a property does not change the others' cases.  MSGPERF_PROP_CASES
 * changes the number of cases.  A failure prints the property, the case,
 * the seed and the values given to PROP_CHECK (at most 5 per property);
 * it counts as a failed check of unit.h.  */
#ifndef MSGPERF_PROP_H
#define MSGPERF_PROP_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "unit.h"

static uint64_t prop_state, prop_seed;
static const char *prop_name;
static long prop_case;
static int prop_failed;

static uint64_t
prop_next (void)
{
  uint64_t z = (prop_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

static long
prop_cases (void)
{
  const char *s = getenv ("MSGPERF_PROP_CASES");
  long n = s ? strtol (s, NULL, 10) : 1000;
  return n > 0 ? n : 1000;
}

static void
prop_begin (const char *name)
{
  const char *s = getenv ("MSGPERF_PROP_SEED");
  prop_seed = s ? strtoull (s, NULL, 10) : 20261121u;
  uint64_t h = 1469598103934665603u;          /* FNV-1a of the name */
  for (const char *p = name; *p; p++)
    h = (h ^ (unsigned char) *p) * 1099511628211u;
  prop_state = prop_seed ^ h;
  prop_name = name;
  prop_case = 0;
  prop_failed = 0;
}

/* Uniform in [0, 1).  */
static double
prop_unit (void)
{
  return (double) (prop_next () >> 11) * 0x1p-53;
}

static double
prop_uniform (double lo, double hi)
{
  return lo + (hi - lo) * prop_unit ();
}

/* Log-uniform in [LO, HI], 0 < LO < HI: every magnitude as likely.  */
static double
prop_loguniform (double lo, double hi)
{
  return exp (prop_uniform (log (lo), log (hi)));
}

/* Uniform integer in [LO, HI].  */
static int64_t
prop_int (int64_t lo, int64_t hi)
{
  return lo + (int64_t) (prop_next () % (uint64_t) (hi - lo + 1));
}

/* |X - Y| <= REL max(|X|, |Y|) (and both NaN counts as equal).  */
static int
prop_close (double x, double y, double rel)
{
  if (isnan (x) || isnan (y))
    return isnan (x) && isnan (y);
  return fabs (x - y) <= rel * fmax (fabs (x), fabs (y));
}

#define PROP_CHECK(cond, ...) \
  do { unit_checks++; \
       if (!(cond)) { unit_failures++; \
         if (prop_failed++ < 5) { \
           fprintf (stderr, "%s:%d: property '%s' failed at case %ld " \
                    "(MSGPERF_PROP_SEED=%llu): %s: ", __FILE__, __LINE__, \
                    prop_name, prop_case, (unsigned long long) prop_seed, \
                    #cond); \
           fprintf (stderr, __VA_ARGS__); fputc ('\n', stderr); } } \
  } while (0)

/* Loop over the cases of the current property.  */
#define PROP_FOR \
  for (prop_case = 0; prop_case < prop_cases (); prop_case++)

#endif
