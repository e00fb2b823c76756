/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-numfast: num_format's fast path (common/core/numfast.c) against the
 * definition of the shortest round-trip form: the fewest of 15, 16 or 17
 * significant digits, printed by printf's %g, that strtod reads back to
 * the same double.  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "numfast.h"
#include "unit.h"

static void
reference (double v, char *buf)
{
  for (int d = 15; d < 17; d++)
    {
      snprintf (buf, NUM_BUFSIZE, "%.*g", d, v);
      if (strtod (buf, NULL) == v)
        return;
    }
  snprintf (buf, NUM_BUFSIZE, "%.17g", v);
}

static long handled, mismatches;

static void
one (double v)
{
  char want[NUM_BUFSIZE], got[NUM_BUFSIZE], via[NUM_BUFSIZE];
  int n = num_format_fast (v, got);
  if (n == 0)
    return;
  handled++;
  reference (v, want);
  num_format (v, -1, via);
  if (strcmp (want, got) != 0 || (size_t) n != strlen (got)
      || strcmp (via, got) != 0)
    {
      if (mismatches++ < 10)
        fprintf (stderr, "%.17g: fast '%s', expected '%s'\n", v, got, want);
    }
}

static uint64_t state = UINT64_C (88172645463325252);
static uint64_t
rnd (void)
{
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int
main (int argc, char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 200000;
  char buf[NUM_BUFSIZE];

  /* Declined: zero, non-finite, subnormal, far magnitudes.  */
  CHECK (num_format_fast (0.0, buf) == 0);
  CHECK (num_format_fast (NAN, buf) == 0);
  CHECK (num_format_fast (INFINITY, buf) == 0);
  CHECK (num_format_fast (5e-324, buf) == 0);
  CHECK (num_format_fast (1e300, buf) == 0);
  /* Some texts, in each %g style.  */
  CHECK (num_format_fast (3.875, buf) == 5);
  CHECK_STR (buf, "3.875");
  num_format_fast (0.1, buf);
  CHECK_STR (buf, "0.1");
  num_format_fast (-2.1703320568216204, buf);
  CHECK_STR (buf, "-2.1703320568216204");
  num_format_fast (5.4615918616614435e-05, buf);
  CHECK_STR (buf, "5.4615918616614435e-05");
  num_format_fast (1e16, buf);
  CHECK_STR (buf, "1e+16");
  num_format_fast (123456789012345.0, buf);
  CHECK_STR (buf, "123456789012345");
  num_format_fast (0.0001, buf);
  CHECK_STR (buf, "0.0001");
  num_format_fast (1e-05, buf);
  CHECK_STR (buf, "1e-05");
  num_format_fast (1e34, buf);
  CHECK_STR (buf, "1e+34");

  /* Powers of ten and of two and their neighbours (binade edges, carries
     to the next decade).  */
  for (int p = -18; p <= 36; p++)
    {
      double v = pow (10, p);
      for (int i = 0; i < 30; i++)
        {
          one (v);
          one (-v);
          one (3 * v);
          v = nextafter (v, 0);
        }
      v = pow (10, p);
      for (int i = 0; i < 30; i++)
        one (v = nextafter (v, INFINITY));
    }
  for (int e = -58; e <= 116; e++)
    for (int d = -2; d <= 2; d++)
      {
        double v = ldexp (1, e);
        for (int i = 0; i < (d < 0 ? -d : d); i++)
          v = nextafter (v, d < 0 ? 0 : INFINITY);
        one (v);
      }
  /* Random doubles of every kind.  */
  for (long i = 0; i < n; i++)
    {
      uint64_t r = rnd ();
      double v;
      memcpy (&v, &r, sizeof v);
      one (v);
      one (ldexp ((double) (rnd () >> 11), (int) (rnd () % 170) - 110));
      one ((double) (int64_t) (rnd () % 2000001 - 1000000)
           / pow (10, (int) (rnd () % 12)));
      one ((double) (rnd () % 1000 + 1) / (double) (rnd () % 1000 + 1));
      /* Few significant bits: exact decimal ties are possible.  */
      one ((double) ((rnd () % (1u << 20)) | 1)
           * ldexp (1.0, (int) (rnd () % 80) - 40));
    }
  CHECK (handled > n);
  CHECK (mismatches == 0);
  printf ("%ld values printed by the fast path\n", handled);
  return unit_done ();
}
