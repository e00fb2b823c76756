/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-regress: inputs the fuzz harnesses (fuzz/) and the bad-input matrix
   (testsuite/badinput.at) found to break common/,
   each with the property it broke.  One function per finding.  */
#include <config.h>

#include <float.h>
#include <math.h>
#include <string.h>

#include "hyperbolic.h"
#include "hyperfit.h"
#include "kcube.h"
#include "num.h"
#include "unit.h"

/* fuzz/num.c, seed 1.7976931348623157e308: with --precision 1 the
   largest double printed as "2e+308", which no reader accepts (out of
   range); every text num_format writes must read back, finite.  */
static void
format_rounds_past_max (void)
{
  /* Not static: nextafter () is a call, not a constant expression (gcc
     folds it, clang refuses it in a static initializer).  */
  const double values[] = { DBL_MAX, -DBL_MAX, 1.75e308, 9.95e307,
                            nextafter (DBL_MAX, 0), 1.0, 0.5e-323 };
  for (size_t k = 0; k < sizeof values / sizeof values[0]; k++)
    for (int p = 1; p <= 17; p++)
      {
        char buf[NUM_BUFSIZE];
        double back;
        int n = num_format (values[k], p, buf);
        CHECK (n > 0 && n < NUM_BUFSIZE);
        CHECK (num_parse (buf, (size_t) n, &back) == NUM_OK);
        CHECK (isfinite (back));
        /* Still rounded to P digits when that reads back.  */
        if (p == 1 && values[k] == 1.0)
          CHECK_STR (buf, "1");
      }
  char buf[NUM_BUFSIZE];
  num_format (DBL_MAX, 1, buf);
  /* 2e+308, 1.8e+308 ... 1.7977e+308 are all above DBL_MAX: the first
     text that reads back has six digits.  */
  CHECK_STR (buf, "1.79769e+308");
  num_format (-DBL_MAX, 3, buf);
  CHECK_STR (buf, "-1.79769e+308");
  num_format (9.95e307, 1, buf);
  CHECK_STR (buf, "1e+308");
}

/* fuzz/kcube.c: kcube_parse_dims multiplied the node count before
   checking it, a signed overflow (UBSan) for radices whose product passes
   2^63; "4294967296x4294967296" wrapped to 0 nodes and was accepted, and
   loGPC-solve printed nodes 0, P 0 with status 0.  */
static void
dims_product_overflow (void)
{
  struct kcube t;
  memset (&t, 0, sizeof t);
  CHECK (kcube_parse_dims ("4294967296x4294967296", &t) == -2);
  CHECK (t.n == 0);
  CHECK (kcube_parse_dims ("1099511627776x1099511627776", &t) == -2);
  CHECK (kcube_parse_dims ("2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x1099511627776", &t)
         == -2);
  CHECK (kcube_parse_dims ("1048576x1048577", &t) == -2);
  /* The limit itself, 2^40 nodes, is still a topology.  */
  CHECK (kcube_parse_dims ("1048576x1048576", &t) == 0);
  CHECK (t.n == 2 && kcube_nodes (&t) == KCUBE_MAXNODES);
  CHECK (kcube_parse_dims ("1099511627776", &t) == 0);
  CHECK (t.n == 1 && kcube_nodes (&t) == KCUBE_MAXNODES);
}

/* The bad-input matrix (testsuite/badinput.at): the --dims message did
   not say that a topology is refused for its 2^40 nodes; the parser
   must tell that case (-2) from a syntax error (-1).  */
static void
dims_too_big (void)
{
  struct kcube t;
  memset (&t, 0, sizeof t);
  CHECK (kcube_parse_dims ("4294967296x4294967296", &t) == -2);
  CHECK (kcube_parse_dims ("1048576x1048577", &t) == -2);
  CHECK (kcube_parse_dims ("99999999999999999999999", &t) == -2);
  CHECK (kcube_parse_dims ("99999999999999999999999x8", &t) == -2);
  CHECK (t.n == 0);
  CHECK (kcube_parse_dims ("1048576x1048576", &t) == 0);
  CHECK (kcube_parse_dims ("8x", &t) == -1);
  CHECK (kcube_parse_dims ("8x0x99999999999999", &t) == -1);
  CHECK (kcube_parse_dims ("99999999999999x8x", &t) == -1);
  CHECK (kcube_parse_dims ("", &t) == -1);
  /* 17 dimensions is a syntax error whatever the product.  */
  CHECK (kcube_parse_dims ("1024x1024x1024x1024x2x2x2x2x2x2x2x2x2x2x2x2x2",
                           &t) == -1);
}

/* The bad-input matrix, huge.tsv: eq. (2) computed a^2 first, so that
   T(1; 1e308, 1e308) was 1e308 (and inf past a = 1e154), not 1.5e308;
   the ordinary range keeps its rounding.  */
static void
hyper_time_no_overflow (void)
{
  CHECK (hyper_time (1, 1e308, 1e308) == 1.5e308);
  CHECK (fabs (hyper_time (0, 1e200, 1) - 1e200) <= 1e200 * DBL_EPSILON);
  CHECK (hyper_time (10, 3, 0.5) == 3.0 * 3.0 / (3 + 5.0) + 5.0);
  CHECK (hyper_time (1e-170, 1e-170, 1) > 0);
}

/* The bad-input matrix, huge.tsv: a fit with one time of 1e308 gave rms
   and r2 NA (the sums of squares overflow); they are finite.  */
static void
fit_stats_no_overflow (void)
{
  const double x[] = { 1, 1024, 65536, 1048576 };
  const double t[] = { 1e308, 11.19, 262.5, 4194.3 };
  struct hfit_options o = { HFIT_HYPERBOLIC, HFIT_WEIGHT_RELATIVE };
  struct hfit_result r;
  CHECK (hfit_fit (x, t, 4, &o, &r) == HFIT_OK);
  CHECK (isfinite (r.rms) && r.rms > 1e307);
  CHECK (isfinite (r.r2) && r.r2 < 1);
}

/* Under clang, hyper-reduce fit refused some data with "the best fit has
   b = NA < 0": the Hockney start of the hyperbolic fit overflowed to a
   slope of -inf, which was taken for times that decrease, and a linear
   fit whose sums overflow was printed as a row of NA.  A non-finite fit
   is its own error (HFIT_NOT_FINITE), a refused fit shows finite numbers,
   and an accepted one has finite parameters.  */
static void
fit_not_finite (void)
{
  struct hfit_result r;
  const double x1[] = { 1, 2, 3 }, t1[] = { 1, 1e308, 1.5e308 };
  for (int w = 0; w < 2; w++)
    {
      struct hfit_options o = { HFIT_LINEAR, (enum hfit_weight) w };
      CHECK (hfit_fit (x1, t1, 3, &o, &r) == HFIT_NOT_FINITE);
    }
  CHECK (strstr (hfit_strerror (HFIT_NOT_FINITE), "not finite") != NULL);

  /* The slope of -inf: the hyperbola is fitted from the data.  */
  const double x2[] = { 0, 1, 3 }, t2[] = { 1.7e308, 1e-300, 1 };
  struct hfit_options h = { HFIT_HYPERBOLIC, HFIT_WEIGHT_NONE };
  CHECK (hfit_fit (x2, t2, 3, &h, &r) == HFIT_OK);
  CHECK (isfinite (r.p[0]) && r.p[0] > 0 && isfinite (r.p[1]) && r.p[1] >= 0);

  /* Every status over sizes and times at the ends of the range.  */
  static const double xs[][3] = { { 0, 1, 3 }, { 1, 1e3, 1e154 },
                                  { 1, 1e308, 1.7e308 }, { 0, 1e154, 1e308 } };
  static const double ts[] = { 1e-300, 1e-154, 1, 1e154, 1e308, 1.7e308 };
  for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
    for (size_t a = 0; a < 6; a++)
      for (size_t b = 0; b < 6; b++)
        for (size_t c = 0; c < 6; c++)
          for (int m = 0; m < 2; m++)
            for (int w = 0; w < 2; w++)
              {
                const double t[3] = { ts[a], ts[b], ts[c] };
                struct hfit_options o = { (enum hfit_model) m,
                                          (enum hfit_weight) w };
                enum hfit_status st = hfit_fit (xs[i], t, 3, &o, &r);
                if (st == HFIT_OK)
                  CHECK (isfinite (r.p[0]) && isfinite (r.p[1]));
                else if (st == HFIT_NEGATIVE_A || st == HFIT_NEGATIVE_B)
                  CHECK (isfinite (r.p[0]) && isfinite (r.p[1]));
                else
                  CHECK (st == HFIT_NOT_FINITE || st == HFIT_NO_CONVERGENCE);
              }
}

int
main (void)
{
  format_rounds_past_max ();
  dims_product_overflow ();
  dims_too_big ();
  hyper_time_no_overflow ();
  fit_stats_no_overflow ();
  fit_not_finite ();
  return unit_done ();
}
