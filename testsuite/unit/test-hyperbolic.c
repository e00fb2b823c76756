/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hyperbolic.c: unit tests of the hyperbolic model in common/
 * (hyperbolic.c, hyperexpr.c, hyperfit.c, hyperinvert.c).  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hyperbolic.h"
#include "hyperexpr.h"
#include "hyperfit.h"
#include "hyperinvert.h"
#include "num.h"
#include "unit.h"

static void
test_formulas (void)
{
  /* eq. (2): T(0) = a, horizontal tangent, asymptote slope b.  */
  CHECK_NEAR (hyper_time (0, 750, 1.05), 750, 0);
  CHECK_NEAR (hyper_time (1000, 750, 1.05),
              750.0 * 750 / (750 + 1050) + 1050, 1e-9);
  CHECK_NEAR ((hyper_time (1e-3, 2, 3) - 2) / 1e-3, 0, 1e-2);
  CHECK_NEAR (hyper_time (1e9 + 1, 2, 3) - hyper_time (1e9, 2, 3), 3, 1e-5);
  CHECK_NEAR (hyper_time (5, 0, 2), 10, 0);
  /* eq. (1), Figure 1: a = 1, m = 0.5, p = 2.  */
  CHECK_NEAR (hyper_sawtooth (0, 1, 0.5, 2), 0, 0);
  CHECK_NEAR (hyper_sawtooth (1, 1, 0.5, 2), 1.5, 0);
  CHECK_NEAR (hyper_sawtooth (2, 1, 0.5, 2), 2, 0);
  CHECK_NEAR (hyper_sawtooth (3, 1, 0.5, 2), 3.5, 0);
  CHECK_NEAR (hyper_b_of_packet (1, 0.5, 2), 1, 0);
  CHECK_NEAR (hyper_linear_time (10, 1, 2), 21, 0);
  CHECK (hyper_cb_valid ((struct hyper_cb) { 0, 0 }));
  CHECK (!hyper_cb_valid ((struct hyper_cb) { -1, 0 }));
  CHECK (!hyper_cb_valid ((struct hyper_cb) { 1, NAN }));
}

static void
test_rules (void)
{
  struct hyper_cb v[3] = { { 1, 2 }, { 3, 0.5 }, { 2, 4 } };
  struct hyper_cb r;
  /* Rule 1 */
  r = hyper_serial (v, 3, HYPER_INDEPENDENT);
  CHECK_NEAR (r.a, 6, 0);
  CHECK_NEAR (r.b, 4, 0);
  r = hyper_serial (v, 3, HYPER_DEPENDENT);
  CHECK_NEAR (r.a, 6, 0);
  CHECK_NEAR (r.b, 6.5, 0);
  /* Rule 2 */
  r = hyper_parallel (v, 3, HYPER_INDEPENDENT);
  CHECK_NEAR (r.a, 1, 0);
  CHECK_NEAR (r.b, 1 / (0.5 + 2 + 0.25), 1e-15);
  r = hyper_parallel (v, 3, HYPER_DEPENDENT);
  CHECK_NEAR (r.a, 1, 0);
  CHECK_NEAR (r.b, 0.5, 0);
  r = hyper_parallel2 ((struct hyper_cb) { 1, 0 }, v[0], HYPER_INDEPENDENT);
  CHECK_NEAR (r.b, 0, 0);
  r = hyper_serial2 (v[0], v[1], HYPER_INDEPENDENT);
  CHECK_NEAR (r.a, 4, 0);
  CHECK_NEAR (r.b, 2, 0);
  /* Rule 3 */
  r = hyper_concurrent (v[0], 7);
  CHECK_NEAR (r.a, 7, 0);
  CHECK_NEAR (r.b, 14, 0);
  double sizes[3] = { 100, 300, 600 };
  r = hyper_concurrent_sized (v[0], sizes, 3, 0);
  CHECK_NEAR (r.a, 3, 0);
  CHECK_NEAR (r.b, 2 * 1000.0 / 100, 1e-12);
  r = hyper_concurrent_sized (v[0], sizes, 3, 2);
  CHECK_NEAR (r.b, 2 * 1000.0 / 600, 1e-12);
  /* NaN in, NaN out, whatever the position.  */
  struct hyper_cb u[2] = { { 1, NAN }, { NAN, 3 } };
  for (int dep = 0; dep < 2; dep++)
    {
      r = hyper_serial (u, 2, (enum hyper_link) dep);
      CHECK (isnan (r.a) && isnan (r.b));
      r = hyper_parallel (u, 2, (enum hyper_link) dep);
      CHECK (isnan (r.a) && isnan (r.b));
      struct hyper_cb w2[2] = { u[1], u[0] };
      r = hyper_serial (w2, 2, (enum hyper_link) dep);
      CHECK (isnan (r.a) && isnan (r.b));
      r = hyper_parallel (w2, 2, (enum hyper_link) dep);
      CHECK (isnan (r.a) && isnan (r.b));
    }
  /* Rule 4 */
  r = hyper_general (v[0], v[1]);
  CHECK_NEAR (r.a, 1, 0);
  CHECK_NEAR (r.b, 0.5, 0);
}

/* Names for the expression tests: the Ethernet blocks of eq. (6).  */
static double nval = 8;

static enum hexpr_binding
lookup (void *ctx, const char *name, double *num, struct hyper_cb *cb)
{
  (void) ctx;
  if (strcmp (name, "n") == 0)
    {
      *num = nval;
      return HEXPR_NUMBER;
    }
  if (strcmp (name, "w") == 0)
    {
      cb->a = 750, cb->b = 1.05;
      return HEXPR_BLOCK;
    }
  if (strcmp (name, "c") == 0)
    {
      cb->a = 250, cb->b = 0.95;
      return HEXPR_BLOCK;
    }
  return HEXPR_UNBOUND;
}

/* Evaluate TEXT; on error return -1 and leave the message in ERR.  */
static int
run (const char *text, struct hyper_cb *out, struct hexpr_error *err)
{
  struct hexpr *e = hexpr_parse (text, err);
  if (!e)
    return -1;
  struct hexpr_env env = { lookup, NULL };
  int rc = hexpr_eval (e, &env, out, err);
  hexpr_free (e);
  return rc;
}

static void
check_error (const char *text, int line, int col, const char *msg)
{
  struct hexpr_error err;
  struct hyper_cb r;
  CHECK (run (text, &r, &err) < 0);
  CHECK (err.line == line);
  CHECK (err.col == col);
  CHECK_STR (err.msg, msg);
}

static void
test_expr (void)
{
  struct hyper_cb r;
  struct hexpr_error err;
  /* eq. (4) at n = 8 */
  CHECK (run ("serial(concurrent(2*(n-1), w), concurrent(n*(n-1), c), "
              "concurrent(2*(n-1), w))", &r, &err) == 0);
  CHECK_NEAR (r.a, 4 * 7 * 750 + 8 * 7 * 250, 1e-9);
  CHECK_NEAR (r.b, fmax (2 * 7 * 1.05, 8 * 7 * 0.95), 1e-12);
  CHECK (run ("parallel_dep(cb(a=1, b=2), cb(3, 0.5))", &r, &err) == 0);
  CHECK_NEAR (r.a, 1, 0);
  CHECK_NEAR (r.b, 0.5, 0);
  CHECK (run ("general(small=serial(w, c), large=parallel(w, c))", &r,
              &err) == 0);
  CHECK_NEAR (r.a, 1000, 0);
  CHECK_NEAR (r.b, 1 / (1 / 1.05 + 1 / 0.95), 1e-15);
  CHECK (run ("concurrent(w, sizes=[100, 300], msg=1)", &r, &err) == 0);
  CHECK_NEAR (r.a, 1500, 0);
  CHECK_NEAR (r.b, 4.2, 1e-12);
  CHECK (run ("packet(a=1, m=0.5, p=2)  # Figure 1", &r, &err) == 0);
  CHECK_NEAR (r.b, 1, 0);
  CHECK (run ("serial_dep(w, w, -(-1)*c)", &r, &err) < 0);

  struct hexpr *e = hexpr_parse ("serial(w, c, concurrent(n, w), c)", &err);
  CHECK (e != NULL);
  if (e)
    {
      CHECK (hexpr_nnames (e) == 3);
      CHECK_STR (hexpr_name (e, 0), "w");
      CHECK_STR (hexpr_name (e, 1), "c");
      CHECK_STR (hexpr_name (e, 2), "n");
      hexpr_free (e);
    }

  check_error ("serial(w, x)", 1, 11, "unknown block or variable 'x'");
  check_error ("serial(w, c", 1, 12,
               "expected ',' or ')' but the expression ended");
  check_error ("serial(w,, c)", 1, 10,
               "expected a block, a number or '(' but found ','");
  check_error ("serial(w, c) w", 1, 14,
               "expected an operator or the end of the expression but "
               "found 'w'");
  check_error ("foo(w)", 1, 1, "unknown function 'foo' (known: serial, "
               "serial_dep, parallel, parallel_dep, concurrent, general, "
               "cb, packet)");
  check_error ("w + 1", 1, 3, "'+' applies to numbers, not to a block "
               "(combine blocks with serial, parallel or concurrent)");
  check_error ("concurrent(2n, w)", 1, 12, "invalid number '2n'");
  check_error ("concurrent(n/3, w)", 1, 12, "concurrent: the message count "
               "must be a positive integer, not 2.66667");
  check_error ("cb(a=1, q=2)", 1, 9, "cb: unknown argument 'q'");
  check_error ("cb(a=-1, b=2)", 1, 6, "cb: a must be >= 0, not -1");
  check_error ("serial(w, 3)", 1, 11, "serial: argument 2 must be a block, "
               "not a number");
  check_error ("serial(w,\n  c $)", 2, 5, "unexpected character '$'");
  check_error ("  # nothing", 1, 12, "empty expression");
  check_error ("n", 1, 1, "the expression is a number, not a block");
  check_error ("concurrent(w, sizes=[1, 2], msg=3)", 1, 33,
               "concurrent: msg must be an integer from 1 to 2, not 3");
  check_error ("general(small=w)", 1, 1, "general: missing argument 'large'");
  check_error ("cb(1/(n-8), 1)", 1, 5, "division by zero");
}

/* Deterministic normal deviates (Box-Muller on a fixed LCG).  */
static unsigned long long lcg = 12345;

static double
uniform (void)
{
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return ((double) (lcg >> 11) + 0.5) / 9007199254740992.0;
}

static double
normal (void)
{
  return sqrt (-2 * log (uniform ())) * cos (6.283185307179586 * uniform ());
}

static void
test_fit (void)
{
  enum { N = 21 * 5 };
  double x[N], t[N];
  size_t n = 0;
  for (int rep = 0; rep < 5; rep++)
    for (double b = 1; b <= 1048576; b *= 2)
      {
        x[n] = b;
        t[n] = hyper_time (b, 750, 1.05) * (1 + 0.02 * normal ());
        n++;
      }
  struct hfit_options o = { HFIT_HYPERBOLIC, HFIT_WEIGHT_RELATIVE };
  struct hfit_result r;
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_OK);
  CHECK_NEAR (r.p[0], 750, 7.5);
  CHECK_NEAR (r.p[1], 1.05, 0.0105);
  CHECK (r.se[0] > 0 && r.se[1] > 0);
  CHECK (r.rel_rms > 0.01 && r.rel_rms < 0.03);
  CHECK (r.n == n);
  CHECK_NEAR (hfit_eval (&r, 0), r.p[0], 0);

  /* Exact data: exact parameters.  */
  for (size_t i = 0; i < n; i++)
    t[i] = hyper_time (x[i], 40, 0.025);
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_OK);
  CHECK_NEAR (r.p[0], 40, 1e-6);
  CHECK_NEAR (r.p[1], 0.025, 1e-9);
  o.model = HFIT_LINEAR;
  for (size_t i = 0; i < n; i++)
    t[i] = 5 + 0.5 * x[i];
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_OK);
  CHECK_NEAR (r.p[0], 5, 1e-6);
  CHECK_NEAR (r.p[1], 0.5, 1e-12);
  CHECK_NEAR (r.r2, 1, 1e-12);

  /* Refusals.  */
  o.model = HFIT_HYPERBOLIC;
  for (size_t i = 0; i < n; i++)
    t[i] = 3e6 - x[i];
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_NEGATIVE_B);
  CHECK (r.p[1] < 0);
  CHECK (hfit_fit (x, t, 2, &o, &r) == HFIT_TOO_FEW);
  t[0] = 0;
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_BAD_TIME);
  t[0] = 1;
  x[0] = -1;
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_BAD_SIZE);
  o.model = HFIT_LINEAR;
  o.weight = HFIT_WEIGHT_NONE;
  n = 0;
  for (double b = 1; b <= 20; b++, n++)
    x[n] = b, t[n] = b * b;       /* convex: the line starts below 0 */
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_NEGATIVE_A);
  CHECK (r.p[0] < 0);
  CHECK_STR (hfit_strerror (HFIT_TOO_FEW),
             "too few distinct message sizes (need 3)");
}

/* HFIT_WEIGHT_ROBUST.  Hand-checked cases: on exact data the bisquare
   scale is 0 and the fit is the relative one; two stalls (a size taking
   twice and three times its time, as a TCP acknowledgement delay does)
   pull the relative fit's b up, and the robust fit sets exactly those two
   aside and recovers a and b; the linear model likewise.  */
static void
test_fit_robust (void)
{
  enum { N = 21 };
  double x[N], t[N];
  size_t n = 0;
  for (double b = 1; b <= 1048576; b *= 2, n++)
    x[n] = b, t[n] = hyper_time (b, 30, 0.08);
  struct hfit_options o = { HFIT_HYPERBOLIC, HFIT_WEIGHT_ROBUST };
  struct hfit_result r;
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_OK);
  CHECK_NEAR (r.p[0], 30, 1e-6);
  CHECK_NEAR (r.p[1], 0.08, 1e-9);
  CHECK (r.n_rejected == 0);
  t[15] *= 2;                   /* 32 KiB */
  t[16] *= 3;                   /* 64 KiB */
  struct hfit_result rel;
  o.weight = HFIT_WEIGHT_RELATIVE;
  CHECK (hfit_fit (x, t, n, &o, &rel) == HFIT_OK);
  CHECK (rel.p[1] > 0.08 * 1.05);      /* the stalls pull b up */
  CHECK (rel.n_rejected == 0);
  o.weight = HFIT_WEIGHT_ROBUST;
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_OK);
  CHECK_NEAR (r.p[0], 30, 1e-4);
  CHECK_NEAR (r.p[1], 0.08, 1e-8);
  CHECK (r.n_rejected == 2);
  CHECK (r.n == n);
  /* rel_rms still covers every point: the stalls' relative residuals
     (T - t)/t are -1/2 and -2/3.  */
  CHECK_NEAR (r.rel_rms, sqrt ((1.0 / 4 + 4.0 / 9) / N), 1e-6);
  /* Noise on every point and one stall: b within 1%.  */
  for (size_t i = 0; i < n; i++)
    t[i] = hyper_time (x[i], 30, 0.08) * (1 + 0.02 * normal ());
  t[18] *= 2.5;
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_OK);
  CHECK_NEAR (r.p[1], 0.08, 0.0008);
  CHECK (r.n_rejected >= 1);
  /* The linear model: a line with one stall.  */
  o.model = HFIT_LINEAR;
  for (size_t i = 0; i < n; i++)
    t[i] = 5 + 0.5 * x[i];
  t[10] *= 4;
  CHECK (hfit_fit (x, t, n, &o, &r) == HFIT_OK);
  CHECK_NEAR (r.p[0], 5, 1e-6);
  CHECK_NEAR (r.p[1], 0.5, 1e-9);
  CHECK (r.n_rejected == 1);
  /* Three sizes: setting one aside would leave too few, so none is.  */
  o.model = HFIT_HYPERBOLIC;
  double x3[3] = { 1, 1024, 1048576 }, t3[3];
  for (int i = 0; i < 3; i++)
    t3[i] = hyper_time (x3[i], 30, 0.08) * (i == 1 ? 5 : 1);
  CHECK (hfit_fit (x3, t3, 3, &o, &r) == HFIT_OK);
  CHECK (r.n_rejected == 0);
}

static void
test_segments (void)
{
  /* Three protocols: breakpoints at 2048 and 16384.  */
  double x[64], t[64];
  size_t n = 0;
  for (double b = 1; b <= 1 << 20; b *= 2, n++)
    {
      x[n] = b;
      t[n] = b < 2048 ? hyper_time (b, 10, 0.01)
        : b < 16384 ? hyper_time (b, 40, 0.005) : hyper_time (b, 100, 0.002);
    }
  struct hfit_options o = { HFIT_HYPERBOLIC, HFIT_WEIGHT_RELATIVE };
  struct hfit_result res[6];
  double br[6];
  size_t k = 0;
  CHECK (hfit_segments_search (x, t, n, 0, 6, &o, &k, br, res) == HFIT_OK);
  CHECK (k == 3);
  CHECK_NEAR (br[0], 2048, 0);
  CHECK_NEAR (br[1], 16384, 0);
  CHECK_NEAR (res[1].p[0], 40, 1e-6);
  CHECK_NEAR (res[2].p[1], 0.002, 1e-12);
  CHECK (hfit_segments_search (x, t, n, 2, 6, &o, &k, br, res) == HFIT_OK);
  CHECK (k == 2);
  double at[2] = { 2048, 16384 };
  size_t bad = 99;
  CHECK (hfit_segments_at (x, t, n, at, 2, &o, res, &bad) == HFIT_OK);
  CHECK_NEAR (res[0].p[0], 10, 1e-6);
  CHECK (res[0].x_hi == 1024 && res[1].x_lo == 2048 && res[2].x_lo == 16384);
  double at2[1] = { 4 };
  CHECK (hfit_segments_at (x, t, n, at2, 1, &o, res, &bad) == HFIT_TOO_FEW);
  CHECK (bad == 0);
  CHECK (hfit_segments_search (x, t, 5, 0, 6, &o, &k, br, res) == HFIT_OK);
  CHECK (k == 1);
  CHECK (hfit_segments_search (x, t, 5, 2, 6, &o, &k, br, res)
         == HFIT_TOO_FEW);
}

static void
test_invert (void)
{
  struct hinv_options opt = { HINV_ETHERNET, 0, 0.05 };
  struct hinv_obs obs[8];
  size_t m = 0;
  /* eqs. (4) and (6) */
  for (double n = 2; n <= 8; n++, m++)
    {
      obs[m].n = n;
      obs[m].rtt = 0;
      obs[m].a = 4 * (n - 1) * 750 + n * (n - 1) * 250;
      obs[m].b = fmax (2 * (n - 1) * 1.05, n * (n - 1) * 0.95);
      obs[m].a_se = obs[m].b_se = 0;
    }
  struct hinv_result r;
  CHECK (hinv_solve (obs, m, &opt, &r) == 0);
  CHECK_STR (r.name[0], "w");
  CHECK_STR (r.name[1], "c");
  CHECK_NEAR (r.a[0].value, 750, 1e-6);
  CHECK_NEAR (r.a[1].value, 250, 1e-6);
  CHECK_NEAR (r.b[0].value, 1.05, 1e-12);
  CHECK_NEAR (r.b[1].value, 0.95, 1e-12);
  CHECK (r.b[0].status == HINV_FIT && r.b[1].status == HINV_FIT);
  CHECK (r.nnotes == 0);

  /* b_w < b_c: b_w is shadowed.  */
  for (size_t j = 0; j < m; j++)
    obs[j].b = obs[j].n * (obs[j].n - 1) * 0.95;
  CHECK (hinv_solve (obs, m, &opt, &r) == 0);
  CHECK (r.b[0].status == HINV_UPPER_BOUND);
  CHECK (r.b[1].status == HINV_FIT);
  CHECK_NEAR (r.b[0].value, 0.95, 1e-12);
  CHECK (r.nnotes == 1);

  /* SP2, Section 3.3: b(7) = 0.029, b(14) = 0.049, 8 channels.  */
  struct hinv_options sp2 = { HINV_SP2, 8, 0.05 };
  struct hinv_obs s[2] = { { 7, 0, 124, 0, 0.029, 0 },
                           { 14, 0, 124, 0, 0.049, 0 } };
  CHECK (hinv_solve (s, 2, &sp2, &r) == 0);
  CHECK_STR (r.name[1], "l");
  CHECK_NEAR (r.b[1].value, 0.028, 0.028 * 0.03);
  CHECK (r.b[0].status == HINV_UPPER_BOUND);
  CHECK (r.b[0].value <= r.b[1].value);
  CHECK (r.a[1].status == HINV_BELOW_RESOLUTION);
  CHECK_NEAR (r.a[0].value, 62, 1e-9);

  /* One size only: nothing separable.  */
  CHECK (hinv_solve (s, 1, &sp2, &r) == 0);
  CHECK (r.a[0].status == HINV_NOT_IDENTIFIABLE);
  CHECK (r.b[0].status == HINV_UPPER_BOUND
         && r.b[1].status == HINV_UPPER_BOUND);

  /* Paragon, eq. (12): a_p = 50, a_c = 5, b_p = 0.031, b_c = 0.012.  */
  struct hinv_options par = { HINV_PARAGON, 0, 0.05 };
  struct hinv_obs p[6];
  for (int i = 0; i < 6; i++)
    {
      double n = i + 1;
      p[i] = (struct hinv_obs) { n, 0, 100 + 10 * n, 0,
                                 fmax (0.031, n * 0.012), 0 };
    }
  CHECK (hinv_solve (p, 6, &par, &r) == 0);
  CHECK_NEAR (r.a[0].value, 50, 1e-9);
  CHECK_NEAR (r.a[1].value, 5, 1e-9);
  CHECK_NEAR (r.b[0].value, 0.031, 1e-12);
  CHECK_NEAR (r.b[1].value, 0.012, 1e-12);

  CHECK (hinv_solve (p, 0, &par, &r) < 0);
  CHECK (hinv_pattern_parse ("sp2") == HINV_SP2);
  CHECK (hinv_pattern_parse ("token-ring") == -1);
  CHECK_STR (hinv_status_name (HINV_BELOW_RESOLUTION), "below_resolution");
}

/* num_format's integer fast path (added for eval's throughput) must print
   exactly what the printf path prints.  */
static int
ref_format (double v, int precision, char *buf)
{
  if (v == 0)
    return snprintf (buf, NUM_BUFSIZE, "0");
  if (precision > 0)
    for (int d = precision;; d++)
      {
        /* Rounded past DBL_MAX ("2e+308" is out of range for every
           reader): num_format takes more digits (test-regress.c).  */
        int n = snprintf (buf, NUM_BUFSIZE, "%.*g", d, v);
        if (d >= 17 || isfinite (strtod (buf, NULL)))
          return n;
      }
  for (int d = 15; d < 17; d++)
    {
      int n = snprintf (buf, NUM_BUFSIZE, "%.*g", d, v);
      if (strtod (buf, NULL) == v)
        return n;
    }
  return snprintf (buf, NUM_BUFSIZE, "%.17g", v);
}

static void
test_num_format (void)
{
  char a[NUM_BUFSIZE], b[NUM_BUFSIZE];
  int bad = 0;
  for (long i = 0; i < 300000; i++)
    {
      double v;
      uint64_t r = (uint64_t) (uniform () * 18446744073709551616.0);
      switch (i % 5)
        {
        case 0:
          memcpy (&v, &r, sizeof v);
          if (!isfinite (v))
            v = 1;
          break;
        case 1:
          v = ldexp ((double) (r >> 11), (int) (r % 140) - 120);
          break;
        case 2:
          v = (double) (r % 100000000) / (double) (1 + r % 99991);
          break;
        case 3:
          v = hyper_time ((double) (r % 1048577), 1 + (double) (r % 1000),
                          (double) (r % 9973) / 1e4);
          break;
        default:
          v = (double) (r % 1000000) * pow (10, (int) (r % 40) - 20);
          break;
        }
      if (i & 1)
        v = -v;
      int prec = i % 7 == 0 ? (int) (r % 17) + 1 : -1;
      num_format (v, prec, a);
      ref_format (v, prec, b);
      if (strcmp (a, b) != 0 && bad++ < 5)
        fprintf (stderr, "num_format (%.17g, %d) = %s, printf: %s\n", v,
                 prec, a, b);
    }
  CHECK (bad == 0);
  const double cases[] = { 0.1, 1362.5, 1e-5, 1e-4, 123456789012345680.0,
                           9.9999999999999995e-8, 0.30000000000000004,
                           5e-324, 1.7976931348623157e308, 2.5, 1e15, 1e16,
                           1e17, 4.35, 0.000123, 999999999999999.9 };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    for (int p = -1; p <= 17; p += p == -1 ? 2 : 1)
      {
        num_format (cases[i], p, a);
        ref_format (cases[i], p, b);
        CHECK_STR (a, b);
      }
}

int
main (void)
{
  test_formulas ();
  test_rules ();
  test_expr ();
  test_fit ();
  test_fit_robust ();
  test_segments ();
  test_invert ();
  test_num_format ();
  return unit_done ();
}
