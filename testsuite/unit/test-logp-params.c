/* test-logp-params: parameterized LogP equations, the LogGP summary
   (Table 1) and the pair schedule (common/logp_params.c, logp_pairs.c).  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logp_pairs.h"
#include "logp_params.h"
#include "unit.h"

static struct logp_est
est (double med, double hw)
{
  struct logp_est e = { med, med - hw, med + hw };
  return e;
}

static void
test_equations (void)
{
  /* A platform with L = 1, g(0) = 0.5, g(m) = 4: RTT(0) = 2 (L + g(0)) = 3,
     RTT(m) = L + g(m) + L + g(0) = 6.5.  */
  CHECK_NEAR (logp_gap (6.5, 3.0, 0.5), 4.0, 1e-12);
  CHECK_NEAR (logp_latency (3.0, 0.5), 1.0, 1e-12);
  /* Saturation: RTT_n = 2L + n g + g(0) with L = 1, g = 0.25, g(0) = 0.5.  */
  double rtt1 = 2 + 0.25 + 0.5, rtt80 = 2 + 80 * 0.25 + 0.5;
  CHECK_NEAR (logp_sat_gap (rtt80, rtt1, 80), 0.25, 1e-12);
  /* Done: gap stable within eps and RTT_1 < eps RTT_n.  */
  CHECK (logp_sat_done (0.2501, 0.25, 1.0, 200.0, 0.01));
  CHECK (!logp_sat_done (0.26, 0.25, 1.0, 200.0, 0.01));   /* 4% change */
  CHECK (!logp_sat_done (0.2501, 0.25, 3.0, 200.0, 0.01)); /* latency */
  CHECK (!logp_sat_done (-1, 0.25, 1.0, 200.0, 0.01));
}

/* Rows of a platform with o_s(1) = 1, o_r(1) = 1.5, g(m) = 2 + 0.001 m.  */
static size_t
make_rows (struct logp_row *r, int64_t top, double or1, double or_exp1)
{
  size_t n = 0;
  for (int64_t m = 1; m <= top; m *= 2, n++)
    {
      memset (&r[n], 0, sizeof r[n]);
      r[n].bytes = m;
      r[n].os = est (1 + 1e-4 * (double) m, 0.01);
      r[n].o_r = est ((m == 1 ? or1 : 1.5) + 1e-4 * (double) m, 0.01);
      r[n].g = est (2 + 0.001 * (double) m, 0.02);
      r[n].rtt = est (5 + 0.001 * (double) m, 0.02);
      r[n].or_exp = est (m == 1 ? or_exp1 : NAN, 0.01);
    }
  return n;
}

static void
test_summary (void)
{
  struct logp_row rows[64];
  struct loggp s;
  char buf[128];

  size_t n = make_rows (rows, 1 << 20, 1.5, NAN);
  loggp_derive (rows, n, 1, 3.0, 0.1, &s);
  CHECK (s.flags == 0);
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf), "ok");
  /* Table 1: L = L + g(1) - o_s(1) - o_r(1), o = (o_s + o_r)/2, g = g(1).  */
  CHECK_NEAR (s.L, 3.0 + 2.001 - 1.0001 - 1.5001, 1e-9);
  CHECK_NEAR (s.o, (1.0001 + 1.5001) / 2, 1e-9);
  CHECK_NEAR (s.g, 2.001, 1e-9);
  CHECK_NEAR (s.G, 0.001, 1e-12);
  CHECK (s.fit_from == 262144 && s.fit_to == 1048576 && s.fit_n == 3);
  CHECK_NEAR (s.os, 1.0001, 1e-12);
  CHECK_NEAR (s.o_r, 1.5001, 1e-12);

  /* o_r(1) > g(1) beyond the intervals (unexpected messages): reported,
     o, g and L not printed as parameters.  */
  n = make_rows (rows, 1 << 20, 3.0, NAN);
  loggp_derive (rows, n, 1, 3.0, 0.1, &s);
  CHECK (s.flags == LOGGP_G_LT_OR);
  CHECK (isnan (s.o) && isnan (s.g) && isnan (s.L));
  CHECK_NEAR (s.G, 0.001, 1e-12);
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf), "g_lt_or");

  /* ... unless the expected-message o_r is known and consistent
     (Section 3.1).  */
  n = make_rows (rows, 1 << 20, 3.0, 1.2);
  loggp_derive (rows, n, 1, 3.0, 0.1, &s);
  CHECK (s.flags == 0);
  CHECK (s.used_expected);
  CHECK_NEAR (s.o, (1.0001 + 1.2) / 2, 1e-9);

  /* Overlapping intervals are consistent: g = 2.001 +- 0.02 against
     o_r = 2.02 +- 0.01.  */
  n = make_rows (rows, 1 << 20, 2.0199, NAN);
  loggp_derive (rows, n, 1, 3.0, 0.1, &s);
  CHECK (!(s.flags & LOGGP_G_LT_OR));

  /* A sweep that ends before the bandwidth regime: g(m)/m at 4096 is far
     from the fitted slope.  */
  n = make_rows (rows, 4096, 1.5, NAN);
  loggp_derive (rows, n, 1, 3.0, 0.1, &s);
  CHECK (s.flags == LOGGP_BIG_G_MISMATCH);
  CHECK (isnan (s.G));
  CHECK_NEAR (s.g, 2.001, 1e-9);

  /* G <= 0.  */
  n = make_rows (rows, 1 << 20, 1.5, NAN);
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes >= 262144)
      rows[i].g = est (2000 - 0.001 * (double) rows[i].bytes, 0.02);
  loggp_derive (rows, n, 1, 3.0, 0.1, &s);
  CHECK (s.flags & LOGGP_BIG_G_NONPOS);
  CHECK (isnan (s.G));

  /* g(1) < o_s(1), a negative LogGP L, no 1-byte row, too few sizes.  */
  n = make_rows (rows, 1 << 20, 1.5, NAN);
  rows[0].os = est (5, 0.01);
  loggp_derive (rows, n, 1, 3.0, 0.1, &s);
  CHECK (s.flags & LOGGP_G_LT_OS);
  n = make_rows (rows, 1 << 20, 1.5, NAN);
  loggp_derive (rows, n, 1, -3.0, 0.1, &s);
  CHECK (s.flags == LOGGP_L_NEG);
  CHECK (isnan (s.L) && !isnan (s.o));
  loggp_derive (rows + 1, n - 1, 1, 3.0, 0.1, &s);
  CHECK (s.flags & LOGGP_NO_SMALL);
  loggp_derive (rows, 1, 1, 3.0, 0.1, &s);
  CHECK (s.flags & LOGGP_BIG_G_UNFIT);
  CHECK_STR (loggp_check_text (LOGGP_G_LT_OS | LOGGP_BIG_G_NONPOS, buf,
                               sizeof buf), "g_lt_os,G_nonpos");

  /* The slope fit itself.  */
  double slope;
  CHECK (logp_fit_slope (rows, n, 1024, 4096, &slope) == 3);
  CHECK_NEAR (slope, 0.001, 1e-12);
  CHECK (logp_fit_slope (rows, n, 1000, 1100, &slope) == 1);
  CHECK (isnan (slope));
}

static void
test_pairs (void)
{
  struct logp_pair p[12], q[12];
  CHECK (logp_npairs (1) == 0);
  CHECK (logp_npairs (3) == 6);
  size_t n = logp_pairs (3, 0, 1, p);
  CHECK (n == 6);
  CHECK (p[0].src == 0 && p[0].dst == 1 && p[5].src == 2 && p[5].dst == 1);
  for (size_t i = 0; i < n; i++)
    CHECK (p[i].src != p[i].dst);
  /* A sample of 5 of the 12 pairs of 4 ranks: distinct, sorted, repeatable
     with the same seed.  */
  n = logp_pairs (4, 5, 42, p);
  CHECK (n == 5);
  CHECK (logp_pairs (4, 5, 42, q) == 5);
  CHECK (memcmp (p, q, 5 * sizeof p[0]) == 0);
  for (size_t i = 1; i < n; i++)
    CHECK (p[i - 1].src < p[i].src
           || (p[i - 1].src == p[i].src && p[i - 1].dst < p[i].dst));
  /* Every pair of 4 ranks turns up in some sample: no pair is never
     drawn.  */
  int seen[4][4];
  memset (seen, 0, sizeof seen);
  for (uint64_t seed = 0; seed < 200; seed++)
    {
      n = logp_pairs (4, 3, seed, p);
      for (size_t i = 0; i < n; i++)
        seen[p[i].src][p[i].dst] = 1;
    }
  int all = 1;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      if (i != j && !seen[i][j])
        all = 0;
  CHECK (all);
  uint64_t st = 7;
  for (int i = 0; i < 1000; i++)
    CHECK (logp_rand_below (&st, 3) < 3);
}

int
main (void)
{
  test_equations ();
  test_summary ();
  test_pairs ();
  return unit_done ();
}
