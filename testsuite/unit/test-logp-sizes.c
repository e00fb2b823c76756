/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-logp-sizes: the size selection of the fast LogP procedure
   (common/models/logp/logp_sizes.c) on synthetic curves.  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "logp_sizes.h"
#include "unit.h"

/* A synthetic platform: o_s, o_r, g as functions of m, a fixed
   uncertainty, and a record of the sizes asked for.  */
struct curve
{
  double (*os) (int64_t m);
  double (*orv) (int64_t m);
  double (*g) (int64_t m);
  double u;
  int64_t fail_at;       /* the callback fails at this size (0: never) */
  int64_t asked[4096];
  size_t nasked;
  /* A fake clock (seconds) that every measurement advances by
     PER_SIZE + PER_BYTE * bytes: a slow link.  */
  double per_size, per_byte, now;
};

/* The budgets the selection gave (struct logp_point), by call; with
   honor_budget, a size stops at its budget, as logp-measure's do.  */
static double budget[64];
static int honor_budget;

static double
fake_clock (void *ctx)
{
  return ((struct curve *) ctx)->now;
}

static int
measure (int64_t bytes, struct logp_point *pt, void *ctx)
{
  struct curve *c = ctx;
  if (c->fail_at && bytes == c->fail_at)
    return 7;
  double cost = c->per_size + c->per_byte * (double) bytes;
  if (c->nasked < sizeof budget / sizeof budget[0])
    budget[c->nasked] = pt->budget;
  if (honor_budget)
    cost = fmin (cost, pt->budget);
  c->asked[c->nasked++] = bytes;
  c->now += cost;
  pt->v[LOGP_OS] = c->os (bytes);
  pt->v[LOGP_OR] = c->orv (bytes);
  pt->v[LOGP_G] = c->g (bytes);
  for (int q = 0; q < LOGP_NQ; q++)
    pt->u[q] = c->u;
  return 0;
}

static double lin_os (int64_t m) { return 0.3 + 1e-4 * (double) m; }
static double lin_or (int64_t m) { return 0.4 + 1e-4 * (double) m; }
static double lin_g (int64_t m) { return 0.2 + 2e-4 * (double) m; }

/* Eager/rendezvous switch at 5000 bytes: o_s jumps by 2.  */
static double step_os (int64_t m) { return lin_os (m) + (m >= 5000 ? 2.0 : 0); }
/* A small jump (0.5) that a large uncertainty (1.0) hides.  */
static double small_step_os (int64_t m) { return lin_os (m) + (m >= 5000 ? 0.5 : 0); }

/* g(m)/m not yet stable at 2^19: the slope doubles after 2^18.  */
static double
kink_g (int64_t m)
{
  const double k = 262144;
  double x = (double) m;
  return x <= k ? 0.2 + 1e-4 * x : 0.2 + 1e-4 * k + 2e-4 * (x - k);
}

/* Never linear: g(m) = m^1.5.  */
static double pow_g (int64_t m) { return pow ((double) m, 1.5) * 1e-6; }

static struct logp_select_cfg
cfg_default (void)
{
  struct logp_select_cfg c;
  memset (&c, 0, sizeof c);
  c.min_bytes = 1;
  c.start_max = 262144;
  c.max_bytes = 4194304;
  c.eps = 0.01;
  c.abs_tol = 0;
  c.min_step = 32;
  return c;
}

static int
sorted_unique (const struct logp_curve *c)
{
  for (size_t i = 1; i < c->n; i++)
    if (c->p[i].bytes <= c->p[i - 1].bytes)
      return 0;
  return 1;
}

static void
test_helpers (void)
{
  CHECK_NEAR (logp_extrapolate (1, 1.0, 2, 2.0, 4), 4.0, 1e-12);
  CHECK_NEAR (logp_extrapolate (1024, 3.0, 2048, 5.0, 4096), 9.0, 1e-12);
  CHECK_NEAR (logp_extrapolate (2048, 5.0, 3072, 6.0, 4096), 7.0, 1e-12);
  struct logp_point a = { .bytes = 1024 }, b = { .bytes = 2048 },
    c = { .bytes = 4096 };
  a.v[LOGP_G] = 3, b.v[LOGP_G] = 5, c.v[LOGP_G] = 9.05;
  CHECK (!logp_misses (&a, &b, &c, LOGP_G, 0.01, 0));   /* 0.05 < 0.0905 */
  c.v[LOGP_G] = 9.2;
  CHECK (logp_misses (&a, &b, &c, LOGP_G, 0.01, 0));    /* 0.2 > 0.092 */
  CHECK (!logp_misses (&a, &b, &c, LOGP_G, 0.01, 0.2)); /* absolute floor */
  b.u[LOGP_G] = 0.05;                                   /* pred +- 0.1 */
  CHECK (!logp_misses (&a, &b, &c, LOGP_G, 0.01, 0));
  struct logp_select_cfg cfg = cfg_default ();
  struct logp_point lo = { .bytes = 4096 }, hi = { .bytes = 4128 };
  CHECK (logp_interval_done (&lo, &hi, &cfg));          /* 32 bytes */
  hi.bytes = 4160;
  CHECK (!logp_interval_done (&lo, &hi, &cfg));         /* 64 > 41.6 */
  lo.bytes = 1 << 20, hi.bytes = (1 << 20) + 10000;
  CHECK (logp_interval_done (&lo, &hi, &cfg));          /* <= 0.01 m */
}

static void
test_check (void)
{
  struct logp_select_cfg c = cfg_default ();
  CHECK (logp_select_check (&c) == NULL);
  c.min_bytes = 0;
  CHECK (logp_select_check (&c) != NULL);
  c = cfg_default ();
  c.max_bytes = 0;
  CHECK (logp_select_check (&c) != NULL);
  c = cfg_default ();
  c.eps = 0;
  CHECK (logp_select_check (&c) != NULL);
  c = cfg_default ();
  c.start_max = 0;
  CHECK (logp_select_check (&c) != NULL);
  c = cfg_default ();
  c.time_limit = -1;
  CHECK (logp_select_check (&c) != NULL);
  c.time_limit = 0;
  CHECK (logp_select_check (&c) == NULL);
  CHECK_STR (logp_stage_name (LOGP_STAGE_NONE), "none");
  CHECK_STR (logp_stage_name (LOGP_STAGE_BASE), "base");
  CHECK_STR (logp_stage_name (LOGP_STAGE_GROWTH), "growth");
  CHECK_STR (logp_stage_name (LOGP_STAGE_REFINE), "refine");
  CHECK_STR (logp_origin_name (LOGP_REFINED), "refined");
  CHECK_STR (logp_origin_name (LOGP_GROWN), "grown");
  CHECK_STR (logp_origin_name (LOGP_BASE), "base");
}

/* A linear platform: the initial set only (g(m)/m stable, nothing to
   refine).  */
static void
test_linear (void)
{
  static struct curve k = { lin_os, lin_or, lin_g, 0, 0, {0}, 0, 0, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n == 19);                    /* 2^0 .. 2^18 */
  CHECK (out.n_grown == 0);
  CHECK (out.n_refined == 0);
  CHECK (out.p[0].bytes == 1 && out.p[18].bytes == 262144);
  CHECK (sorted_unique (&out));
  CHECK (k.nasked == 19);
  logp_curve_free (&out);
}

/* A protocol switch at 5000 bytes: refined points bracket it, all inside
   (4096, 8192), down to max(32, eps m).  */
static void
test_step (void)
{
  static struct curve k = { step_os, lin_or, lin_g, 0, 0, {0}, 0, 0, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (sorted_unique (&out));
  CHECK (out.n_grown == 0);
  CHECK (out.n_refined > 0);
  size_t below = 0, above = 0;
  for (size_t i = 0; i < out.n; i++)
    {
      if (out.p[i].origin == LOGP_REFINED)
        CHECK (out.p[i].bytes > 4096 && out.p[i].bytes < 8192);
      if (out.p[i].bytes < 5000)
        below = i;
      else if (above == 0)
        above = i;
    }
  CHECK (above == below + 1);
  int64_t gap = out.p[above].bytes - out.p[below].bytes;
  double limit = fmax (32, 0.01 * (double) out.p[above].bytes);
  CHECK ((double) gap <= limit);
  CHECK (out.p[below].bytes < 5000 && out.p[above].bytes >= 5000);
  printf ("step at 5000: bracket [%lld, %lld], %zu refined sizes\n",
          (long long) out.p[below].bytes, (long long) out.p[above].bytes,
          out.n_refined);
  logp_curve_free (&out);
}

/* The same switch, too small for the measurements' uncertainty: no
   refinement (noise does not make points).  */
static void
test_noise (void)
{
  static struct curve k = { small_step_os, lin_or, lin_g, 1.0, 0, {0}, 0, 0, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n_refined == 0);
  logp_curve_free (&out);
  /* Without the uncertainty the small step is found.  */
  static struct curve k2 = { small_step_os, lin_or, lin_g, 0, 0, {0}, 0, 0, 0, 0 };
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k2, &out) == 0);
  CHECK (out.n_refined > 0);
  logp_curve_free (&out);
}

/* g(m)/m not stable at 2^19: k_m grows once (to 2^20, where the two
   previous sizes predict g exactly), and the kink at 2^18 is refined.  */
static void
test_growth (void)
{
  static struct curve k = { lin_os, lin_or, kink_g, 0, 0, {0}, 0, 0, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  cfg.start_max = 524288;
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (sorted_unique (&out));
  CHECK (out.n_grown == 1);
  CHECK (out.p[out.n - 1].bytes == 1048576);
  CHECK (out.n_refined > 0);
  for (size_t i = 0; i < out.n; i++)
    if (out.p[i].origin == LOGP_REFINED)
      CHECK (out.p[i].bytes > 262144 && out.p[i].bytes < 524288);
  logp_curve_free (&out);

  /* The growth stops at --max-bytes.  */
  cfg.max_bytes = 524288;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n_grown == 0);
  CHECK (out.p[out.n - 1].bytes == 524288);
  logp_curve_free (&out);

  /* Never linear: k_m grows up to max_bytes.  */
  static struct curve kp = { lin_os, lin_or, pow_g, 0, 0, {0}, 0, 0, 0, 0 };
  cfg = cfg_default ();
  cfg.start_max = 1024;
  cfg.max_bytes = 65536;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &kp, &out) == 0);
  CHECK (out.n_grown == 6);               /* 2^11 .. 2^16 */
  CHECK (out.p[out.n - 1].bytes == 65536);
  CHECK (out.n <= 4096);
  logp_curve_free (&out);
}

/* g(m) = 50 + 1e-4 m: one line (the extrapolation matches), but
   g(m)/m = 1e-4 + 50/m still falls.  From b to c = 2b it falls by
   50/(2b), more than eps g(b)/b = 0.01 (1e-4 + 50/b) while
   b < 49 * 50 / 1e-4 = 24.5e6: k_m grows until b = 2^25, so the last
   size is 2^26, 8 sizes grown (2^19 .. 2^26).  */
static double icept_g (int64_t m) { return 50 + 1e-4 * (double) m; }

static void
test_growth_per_byte (void)
{
  struct logp_point b = { .bytes = 1 << 24 }, c = { .bytes = 1 << 25 };
  b.v[LOGP_G] = icept_g (b.bytes), c.v[LOGP_G] = icept_g (c.bytes);
  CHECK (logp_gap_per_byte_falls (&b, &c, 0.01, 0));
  b.bytes = 1 << 25, c.bytes = 1 << 26;
  b.v[LOGP_G] = icept_g (b.bytes), c.v[LOGP_G] = icept_g (c.bytes);
  CHECK (!logp_gap_per_byte_falls (&b, &c, 0.01, 0));
  /* An uncertainty of 10 per size hides the drop of 50/2^26 = 7.5e-7
     per byte at 2^24 (10/2^24 + 10/2^25 = 8.9e-7 more).  */
  b.bytes = 1 << 24, c.bytes = 1 << 25;
  b.v[LOGP_G] = icept_g (b.bytes), c.v[LOGP_G] = icept_g (c.bytes);
  b.u[LOGP_G] = c.u[LOGP_G] = 10;
  CHECK (!logp_gap_per_byte_falls (&b, &c, 0.01, 0));
  CHECK (!logp_gap_per_byte_falls (&c, &b, 0.01, 0));   /* not larger */

  static struct curve k = { lin_os, lin_or, icept_g, 0, 0, {0}, 0, 0, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  cfg.max_bytes = (int64_t) 1 << 30;
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n_grown == 8);
  CHECK (out.p[out.n - 1].bytes == (int64_t) 1 << 26);
  CHECK (out.n_refined == 0);
  logp_curve_free (&out);
  /* Within --max-bytes.  */
  cfg.max_bytes = 4194304;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n_grown == 4);
  CHECK (out.p[out.n - 1].bytes == 4194304);
  logp_curve_free (&out);
}

/* The total time cap, on a link where a size costs 1 us per byte (the
   clock is read before every size, from 0):
   - growth (g = 50 + 1e-4 m, which grows to 2^26 without a cap): the
     sizes up to 2^k took 2^(k+1) - 1 us; with a limit of 10 s, 2^23
     starts at 8.388607 s and ends at 16.777215 s, so 2^24 is not
     started: 5 sizes grown (2^19 .. 2^23);
   - the initial set: with 0.1 s, size m starts at m - 1 us, so 2^17
     (at 0.131071 s) is the first one left out, 2^0 .. 2^16 measured;
   - refinement (the switch at 5000, 1 s a size): the 19 sizes of the
     initial set end at 19 s, the refined sizes start at 19 and 20 s
     with a limit of 21 s: 2 refined, the third left out.  */
static void
test_time_limit (void)
{
  static struct curve k = { lin_os, lin_or, icept_g, 0, 0, {0}, 0, 0, 1e-6,
                            0 };
  struct logp_select_cfg cfg = cfg_default ();
  cfg.max_bytes = (int64_t) 1 << 30;
  cfg.time_limit = 10;
  cfg.clock = fake_clock;
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n_grown == 5);
  CHECK (out.p[out.n - 1].bytes == (int64_t) 1 << 23);
  CHECK (out.limited == LOGP_STAGE_GROWTH);
  CHECK (out.skipped == (int64_t) 1 << 24);
  CHECK_NEAR (out.elapsed, 16.777215, 1e-9);
  logp_curve_free (&out);

  /* No limit (0): the clock is only read, the growth goes to 2^26.  */
  k.now = 0;
  cfg.time_limit = 0;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n_grown == 8);
  CHECK (out.limited == LOGP_STAGE_NONE);
  CHECK_NEAR (out.elapsed, 134.217727, 1e-9);
  logp_curve_free (&out);

  k.now = 0;
  cfg.time_limit = 0.1;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n == 17);
  CHECK (out.p[16].bytes == 65536);
  CHECK (out.limited == LOGP_STAGE_BASE);
  CHECK (out.skipped == 131072);
  CHECK (out.n_grown == 0 && out.n_refined == 0);
  logp_curve_free (&out);

  static struct curve ks = { step_os, lin_or, lin_g, 0, 0, {0}, 0, 1, 0,
                             0 };
  cfg = cfg_default ();
  cfg.time_limit = 21;
  cfg.clock = fake_clock;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &ks, &out) == 0);
  CHECK (out.n == 21);
  CHECK (out.n_refined == 2);
  CHECK (out.limited == LOGP_STAGE_REFINE);
  CHECK (out.skipped > 4096 && out.skipped < 8192);
  CHECK (sorted_unique (&out));
  logp_curve_free (&out);

  /* Without a clock there is no cap and no elapsed time, and no size
     has a budget.  */
  cfg.clock = NULL;
  ks.nasked = 0;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &ks, &out) == 0);
  CHECK (out.n_refined == 7);
  CHECK (out.limited == LOGP_STAGE_NONE);
  CHECK (isnan (out.elapsed));
  CHECK (isinf (budget[0]) && isinf (budget[18]));
  logp_curve_free (&out);
}

/* The budget of each size.  19 sizes in the initial set (1 .. 2^18), a
   limit of 19 s:
   - every size costs 2 s: the first gets 19/19 = 1 s and stops there,
     the next (19 - 1)/18 = 1 s, ...: all 19 are measured in exactly
     19 s.  A callback that ignores its budget gets 10 sizes (they start
     at 0, 2, .., 18 s) and leaves out 2^10;
   - every size costs 0.1 s: budgets 19/19 = 1, then 18.9/18 = 1.05,
     18.8/17 = 1.105882..; all 19 in 1.9 s, then the growth has the
     whole 17.1 s left.  */
static void
test_size_budget (void)
{
  static struct curve k = { lin_os, lin_or, lin_g, 0, 0, {0}, 0, 2, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  honor_budget = 1;
  cfg.time_limit = 19;
  cfg.clock = fake_clock;
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (k.nasked == 19);
  CHECK (out.p[18].bytes == 262144);
  CHECK_NEAR (budget[0], 1.0, 1e-12);
  CHECK_NEAR (budget[1], 1.0, 1e-12);
  CHECK_NEAR (budget[18], 1.0, 1e-9);
  CHECK_NEAR (k.now, 19.0, 1e-9);
  logp_curve_free (&out);

  honor_budget = 0;
  k.now = 0;
  k.nasked = 0;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n == 10);
  CHECK (out.limited == LOGP_STAGE_BASE && out.skipped == 1024);

  static struct curve q = { lin_os, lin_or, lin_g, 0, 0, {0}, 0, 0.1, 0, 0 };
  honor_budget = 1;
  logp_curve_free (&out);
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &q, &out) == 0);
  CHECK (out.limited == LOGP_STAGE_NONE);
  CHECK_NEAR (budget[0], 1.0, 1e-12);
  CHECK_NEAR (budget[1], 18.9 / 18, 1e-12);
  CHECK_NEAR (budget[2], 18.8 / 17, 1e-12);
  CHECK_NEAR (budget[18], 17.2, 1e-9);
  honor_budget = 0;
  logp_curve_free (&out);
}

/* A failing measurement ends the selection with its status.  */
static void
test_fail (void)
{
  static struct curve k = { lin_os, lin_or, lin_g, 0, 64, {0}, 0, 0, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 7);
  CHECK (out.n == 6);                     /* 1 .. 32 */
  logp_curve_free (&out);
}

/* min_bytes > 1 and a max below the start.  */
static void
test_range (void)
{
  static struct curve k = { lin_os, lin_or, lin_g, 0, 0, {0}, 0, 0, 0, 0 };
  struct logp_select_cfg cfg = cfg_default ();
  cfg.min_bytes = 3;
  cfg.max_bytes = 100;
  struct logp_curve out;
  memset (&out, 0, sizeof out);
  CHECK (logp_select (&cfg, measure, &k, &out) == 0);
  CHECK (out.n == 6);                     /* 3 6 12 24 48 96 */
  CHECK (out.p[5].bytes == 96);
  logp_curve_free (&out);
}

int
main (void)
{
  test_helpers ();
  test_check ();
  test_linear ();
  test_step ();
  test_noise ();
  test_growth ();
  test_growth_per_byte ();
  test_time_limit ();
  test_size_budget ();
  test_fail ();
  test_range ();
  return unit_done ();
}
