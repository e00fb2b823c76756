/* test-regress: inputs the fuzz harnesses (fuzz/) and the bad-input matrix
   (testsuite/badinput.at) found to break common/,
   each with the property it broke.  One function per finding.  */
#include <config.h>

#include <float.h>
#include <math.h>

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
  static const double values[] = { DBL_MAX, -DBL_MAX, 1.75e308, 9.95e307,
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

int
main (void)
{
  format_rounds_past_max ();
  dims_product_overflow ();
  dims_too_big ();
  hyper_time_no_overflow ();
  fit_stats_no_overflow ();
  return unit_done ();
}
