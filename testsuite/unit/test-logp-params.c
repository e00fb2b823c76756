/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-logp-params: parameterized LogP equations, the LogGP summary
   (Table 1) and the pair schedule (common/models/logp/logp_params.c, logp_pairs.c).  */
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

/* Rows of a platform with o_s(m) = 1 + 1e-4 m, o_r(m) = 1.5 + 1e-4 m
   (o_r(1) = OR1), intervals +- 0.01, and two protocols:
   g(m) = 2 + 0.01 m below 4096 bytes, 30 + 0.001 m from 4096 on
   (+- 0.02), RTT(m) = g(m) + 3; sizes 1, 2, 4 ... TOP.  */
static size_t
make_rows (struct logp_row *r, int64_t top, double or1)
{
  size_t n = 0;
  for (int64_t m = 1; m <= top; m *= 2, n++)
    {
      double x = (double) m;
      memset (&r[n], 0, sizeof r[n]);
      r[n].bytes = m;
      r[n].os = est (1 + 1e-4 * x, 0.01);
      r[n].o_r = est (m == 1 ? or1 : 1.5 + 1e-4 * x, 0.01);
      r[n].g = est (m < 4096 ? 2 + 0.01 * x : 30 + 0.001 * x, 0.02);
      r[n].rtt = est (r[n].g.med + 3, 0.02);
      r[n].or_exp = est (NAN, 0);
    }
  return n;
}

static struct loggp_cfg
cfg_of (double L_p, double hw, double tick)
{
  struct loggp_cfg c;
  memset (&c, 0, sizeof c);
  c.short_size = 1;
  c.L_p = est (L_p, hw);
  c.tick = tick;
  c.max_segments = 6;
  return c;
}

/* Rows at bytes 1, 2, 3 ... with the given g (+- HW); os, or 0.5.  */
static size_t
small_rows (struct logp_row *r, const double *g, size_t n, double hw)
{
  for (size_t i = 0; i < n; i++)
    {
      memset (&r[i], 0, sizeof r[i]);
      r[i].bytes = (int64_t) i + 1;
      r[i].os = r[i].o_r = est (0.5, 0);
      r[i].g = est (g[i], hw);
      r[i].rtt = est (g[i] + 2, 0);
    }
  return n;
}

static void
test_summary (void)
{
  struct logp_row rows[64];
  struct loggp s;
  char buf[128];
  struct loggp_cfg cfg = cfg_of (3.0, 0, 0.001);

  /* Consistent: Table 1 as is.  g(1) = 2.01, o_s(1) = 1.0001,
     o_r(1) = 1.5001.  */
  size_t n = make_rows (rows, 1 << 20, 1.5001);
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == 0);
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf), "ok");
  CHECK_NEAR (s.o, (1.0001 + 1.5001) / 2, 1e-12);        /* 1.2501 */
  CHECK_NEAR (s.g, 2.01, 1e-12);
  CHECK_NEAR (s.g_raw, 2.01, 1e-12);
  CHECK_NEAR (s.g_excess, 1.5001 - 2.01, 1e-12);
  CHECK_NEAR (s.g_tol, 0.03, 1e-12);                     /* 0.02 + 0.01 */
  CHECK_NEAR (s.L_table, 3.0 + 2.01 - 1.0001 - 1.5001, 1e-12); /* 2.5098 */
  CHECK_NEAR (s.L, 2.5098, 1e-12);
  CHECK_NEAR (s.L_tol, 0.04, 1e-12);                     /* 0.02+0.01+0.01 */
  CHECK_NEAR (s.L_rtt, 5.01 / 2 - 1.2501, 1e-12);        /* 1.2549 */
  CHECK_NEAR (s.os, 1.0001, 1e-12);
  CHECK_NEAR (s.o_r, 1.5001, 1e-12);
  /* G over the last protocol (4096 .. 2^20, 9 sizes), found by the
     segment search: the slope and intercept of that line.  */
  CHECK (s.segments == 2);
  CHECK (s.fit_from == 4096 && s.fit_to == 1048576 && s.fit_n == 9);
  CHECK_NEAR (s.G, 0.001, 1e-12);
  CHECK_NEAR (s.G_intercept, 30, 1e-6);
  CHECK_NEAR (s.G_lo, 0.001, 1e-12);
  CHECK_NEAR (s.G_hi, 0.001, 1e-12);
  CHECK_NEAR (s.g_over_m, 0.001 + 30.0 / 1048576, 1e-15);

  /* The same numbers from ranks that waited for a CPU 0.3 of the time:
     flagged cpu_shared (limit 0.1), values unchanged; at 0.1, and
     unknown (NaN), no flag.  */
  cfg.cpu_wait = 0.3;
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == LOGGP_CPU_SHARED);
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf), "cpu_shared");
  CHECK_NEAR (s.G, 0.001, 1e-12);
  CHECK_NEAR (s.cpu_wait, 0.3, 1e-15);
  cfg.cpu_wait = 0.1;
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == 0);
  cfg.cpu_wait = NAN;
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == 0);
  cfg.cpu_wait = 0;

  /* o_r(1) = 2.1 > g(1) = 2.01 by 0.09 > 0.03: g raised, flagged; o and
     Table 1's L take the measured values (L with the raw g).  */
  n = make_rows (rows, 1 << 20, 2.1);
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == LOGGP_G_RAISED);
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf), "g_raised");
  CHECK_NEAR (s.g, 2.1, 1e-12);
  CHECK_NEAR (s.g_raw, 2.01, 1e-12);
  CHECK_NEAR (s.g_excess, 0.09, 1e-12);
  CHECK_NEAR (s.o, (1.0001 + 2.1) / 2, 1e-12);
  CHECK_NEAR (s.L, 3.0 + 2.01 - 1.0001 - 2.1, 1e-12);   /* 2.9099 */

  /* 2.03: 0.02 above g(1), within the tolerance 0.03: raised, no flag.  */
  n = make_rows (rows, 1 << 20, 2.03);
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == 0);
  CHECK_NEAR (s.g, 2.03, 1e-12);
  /* Without intervals the timer decides: 3 steps of 0.01 cover the 0.02,
     3 steps of 0.001 do not.  */
  rows[0].g = est (2.01, 0);
  rows[0].o_r = est (2.03, 0);
  struct loggp_cfg coarse = cfg_of (3.0, 0, 0.01);
  loggp_derive (rows, n, &coarse, &s);
  CHECK (!(s.flags & LOGGP_G_RAISED));
  CHECK_NEAR (s.g_tol, 0.03, 1e-12);
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags & LOGGP_G_RAISED);
  CHECK_NEAR (s.g_tol, 0.003, 1e-12);
  /* o_s(1) above g(1) raises g as well.  */
  n = make_rows (rows, 1 << 20, 1.5001);
  rows[0].os = est (5, 0.01);
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags & LOGGP_G_RAISED);
  CHECK_NEAR (s.g, 5, 1e-12);

  /* Table 1's L = -1 + 2.01 - 1.0001 - 1.5001 = -1.4902 < -0.04:
     clamped to 0, flagged; the round-trip estimate stays.  */
  n = make_rows (rows, 1 << 20, 1.5001);
  struct loggp_cfg neg = cfg_of (-1.0, 0, 0.001);
  loggp_derive (rows, n, &neg, &s);
  CHECK (s.flags == LOGGP_L_CLAMPED);
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf), "L_clamped");
  CHECK (s.L == 0);
  CHECK_NEAR (s.L_table, -1.4902, 1e-12);
  CHECK_NEAR (s.L_rtt, 1.2549, 1e-12);
  /* L_p = 0.4602: L_table = -0.03, within 0.04: 0 without a flag; an
     interval of L_p (+- 0.1) widens the tolerance to 0.14.  */
  neg = cfg_of (0.4602, 0, 0.001);
  loggp_derive (rows, n, &neg, &s);
  CHECK (s.flags == 0 && s.L == 0);
  CHECK_NEAR (s.L_table, -0.03, 1e-12);
  neg = cfg_of (-1.0, 0.1, 0.001);
  loggp_derive (rows, n, &neg, &s);
  CHECK_NEAR (s.L_tol, 0.14, 1e-12);

  /* G: g = 2, 3, 5 at 1, 2, 3 bytes (one segment).  Least squares:
     mean m = 2, mean g = 10/3, Sxy = 3, Sxx = 2: G = 1.5, intercept
     1/3.  Halves (1, 2) and (2, 3): slopes 1 and 2, each +- 0.02 per
     point propagated as 2 * 0.5 / 0.5 * 0.02 = 0.04: |1 - 2| > 0.08.  */
  struct loggp_cfg one = cfg_of (3.0, 0, 0.001);
  one.max_segments = 1;
  n = small_rows (rows, (const double[]) { 2, 3, 5 }, 3, 0.02);
  loggp_derive (rows, n, &one, &s);
  CHECK (s.flags == LOGGP_G_NONLINEAR);
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf), "G_nonlinear");
  CHECK_NEAR (s.G, 1.5, 1e-12);
  CHECK_NEAR (s.G_intercept, 1.0 / 3, 1e-12);
  CHECK_NEAR (s.G_lo, 1, 1e-12);
  CHECK_NEAR (s.G_hi, 2, 1e-12);
  CHECK_NEAR (s.G_tol, 0.08, 1e-12);
  CHECK (s.fit_from == 1 && s.fit_to == 3 && s.fit_n == 3);
  /* 2, 3, 4.05 +- 0.05: slopes 1 and 1.05, tolerance 0.2: linear;
     G = Sxy / Sxx = 2.05 / 2.  */
  n = small_rows (rows, (const double[]) { 2, 3, 4.05 }, 3, 0.05);
  loggp_derive (rows, n, &one, &s);
  CHECK (s.flags == 0);
  CHECK_NEAR (s.G, 1.025, 1e-12);
  CHECK_NEAR (s.G_tol, 0.2, 1e-12);

  /* g = 5, 4, 3: slope -1 <= 0: G = g(3)/3 = 1, a line through 0.  */
  n = small_rows (rows, (const double[]) { 5, 4, 3 }, 3, 0.02);
  loggp_derive (rows, n, &one, &s);
  CHECK (s.flags == (LOGGP_G_NONPOS | LOGGP_G_FALLBACK));
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf),
             "G_nonpos,G_fallback");
  CHECK_NEAR (s.G, 1, 1e-12);
  CHECK (s.G_intercept == 0);

  /* g = 10, 10.01, 10.02: slope 0.01, intercept 9.99 > g(3)/2 = 5.01:
     the slope leaves out most of the gap, so G = g(3)/3 = 3.34.  */
  n = small_rows (rows, (const double[]) { 10, 10.01, 10.02 }, 3, 0.02);
  loggp_derive (rows, n, &one, &s);
  CHECK (s.flags == (LOGGP_G_OFFSET | LOGGP_G_FALLBACK));
  CHECK_STR (loggp_check_text (s.flags, buf, sizeof buf),
             "G_fallback,G_offset");
  CHECK_NEAR (s.G, 10.02 / 3, 1e-12);
  CHECK (s.G_intercept == 0);

  /* ... and when g(3) <= 0 too (a disturbed g(0)): (RTT(3) - RTT(0))/3
     with RTT(0) = 1.5 and RTT(3) = -1 + 2 + 5.5: 6.5 - 1.5 = 5, G = 5/3.  */
  n = small_rows (rows + 1, (const double[]) { 5, 4, -1 }, 3, 0.02);
  memset (&rows[0], 0, sizeof rows[0]);
  rows[0].g = rows[0].os = rows[0].o_r = est (0.5, 0);
  rows[0].rtt = est (1.5, 0);
  rows[3].rtt = est (6.5, 0);
  loggp_derive (rows, n + 1, &one, &s);
  CHECK (s.flags & LOGGP_G_FALLBACK);
  CHECK_NEAR (s.G, 5.0 / 3, 1e-12);

  /* Two sizes (g = 2, 3): a slope of 1 through two points, flagged.  */
  n = small_rows (rows, (const double[]) { 2, 3 }, 2, 0.02);
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == LOGGP_G_FEW);
  CHECK_NEAR (s.G, 1, 1e-12);
  CHECK_NEAR (s.G_intercept, 1, 1e-12);
  CHECK (isnan (s.G_lo) && isnan (s.G_hi));
  /* One size: G = g(1)/1 = 2.  */
  loggp_derive (rows, 1, &cfg, &s);
  CHECK (s.flags == (LOGGP_G_FEW | LOGGP_G_FALLBACK));
  CHECK_NEAR (s.G, 2, 1e-12);
  CHECK_NEAR (s.g, 2, 1e-12);
  /* No size at all.  */
  loggp_derive (rows, 0, &cfg, &s);
  CHECK (s.flags == (LOGGP_NO_SMALL | LOGGP_G_FEW | LOGGP_G_FALLBACK));
  CHECK (isnan (s.G) && isnan (s.L) && isnan (s.o) && isnan (s.g));

  /* A disturbed g(0) (g(m) all 100 lower, g(1) < 0): the segment comes
     from RTT(m), the slope and the raised g stay usable.  */
  n = make_rows (rows, 1 << 20, 1.5001);
  for (size_t i = 0; i < n; i++)
    rows[i].g.med -= 100, rows[i].g.lo -= 100, rows[i].g.hi -= 100;
  loggp_derive (rows, n, &cfg, &s);
  CHECK (s.flags == (LOGGP_G_RAISED | LOGGP_L_CLAMPED));
  CHECK (s.fit_from == 4096 && s.segments == 2);
  CHECK_NEAR (s.G, 0.001, 1e-12);
  CHECK_NEAR (s.G_intercept, -70, 1e-6);
  CHECK_NEAR (s.g, 1.5001, 1e-12);

  /* No row for the short size: L, o, g are not measured, G is.  */
  n = make_rows (rows, 1 << 20, 1.5001);
  loggp_derive (rows + 1, n - 1, &cfg, &s);
  CHECK (s.flags == LOGGP_NO_SMALL);
  CHECK (isnan (s.L) && isnan (s.o) && isnan (s.g));
  CHECK_NEAR (s.G, 0.001, 1e-12);
  CHECK_STR (loggp_check_text (LOGGP_NO_SMALL | LOGGP_L_CLAMPED, buf,
                               sizeof buf), "no_short_size,L_clamped");

  /* The line fit itself, with the slope's uncertainty: sizes 4096, 8192,
     16384, each point's tolerance max(0.02, 0.5) = 0.5, propagated as
     sum |m_i - mean| / Sxx * 0.5.  */
  n = make_rows (rows, 1 << 20, 1.5001);
  double slope, icept, u;
  CHECK (logp_fit_line (rows, n, 4096, 16384, 0.5, &slope, &icept, &u)
         == 3);
  CHECK_NEAR (slope, 0.001, 1e-12);
  CHECK_NEAR (icept, 30, 1e-9);
  {
    double mx = (4096 + 8192 + 16384) / 3.0;
    double d[3] = { 4096 - mx, 8192 - mx, 16384 - mx };
    double sxx = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    double want = (fabs (d[0]) + fabs (d[1]) + fabs (d[2])) / sxx * 0.5;
    CHECK_NEAR (u, want, 1e-15);
  }
  CHECK (logp_fit_line (rows, n, 1000, 1100, 0, &slope, &icept, NULL) == 1);
  CHECK (isnan (slope) && isnan (icept));
  size_t nseg;
  CHECK (logp_last_segment (rows, n, 6, &nseg) == 4096 && nseg == 2);
  CHECK (logp_last_segment (rows, 2, 6, &nseg) == 1 && nseg == 0);
}

static void
test_spread (void)
{
  double med, lo, hi;
  double v[] = { 3, NAN, 1, 2 };
  loggp_spread (v, 4, &med, &lo, &hi);
  CHECK (med == 2 && lo == 1 && hi == 3);
  double w[] = { 4, 1, 3, 2 };
  loggp_spread (w, 4, &med, &lo, &hi);
  CHECK (med == 2.5 && lo == 1 && hi == 4);
  double x[] = { NAN };
  loggp_spread (x, 1, &med, &lo, &hi);
  CHECK (isnan (med) && isnan (lo) && isnan (hi));
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
  test_spread ();
  test_pairs ();
  return unit_done ();
}
