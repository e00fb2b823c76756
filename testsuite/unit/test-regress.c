/* test-regress: inputs the fuzz harnesses (fuzz/) found to break common/,
   each with the property it broke.  One function per finding.  */
#include <config.h>

#include <float.h>
#include <math.h>

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
  CHECK (kcube_parse_dims ("4294967296x4294967296", &t) == -1);
  CHECK (t.n == 0);
  CHECK (kcube_parse_dims ("1099511627776x1099511627776", &t) == -1);
  CHECK (kcube_parse_dims ("2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x1099511627776", &t)
         == -1);
  CHECK (kcube_parse_dims ("1048576x1048577", &t) == -1);
  /* The limit itself, 2^40 nodes, is still a topology.  */
  CHECK (kcube_parse_dims ("1048576x1048576", &t) == 0);
  CHECK (t.n == 2 && kcube_nodes (&t) == KCUBE_MAXNODES);
  CHECK (kcube_parse_dims ("1099511627776", &t) == 0);
  CHECK (t.n == 1 && kcube_nodes (&t) == KCUBE_MAXNODES);
}

int
main (void)
{
  format_rounds_past_max ();
  dims_product_overflow ();
  return unit_done ();
}
