/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-num: strict parsing and round-trip printing (common/core/num.c).  */
#include <config.h>
#include <float.h>
#include <locale.h>
#include <stdlib.h>

#include "num.h"
#include "unit.h"

static int
parses (const char *s, double want)
{
  double v = -12345;
  return num_parse_str (s, &v) == NUM_OK && v == want;
}

static enum num_status
status (const char *s)
{
  double v;
  return num_parse_str (s, &v);
}

static void
check_round_trip (double v)
{
  char buf[NUM_BUFSIZE];
  int n = num_format (v, -1, buf);
  double back;
  CHECK (num_parse (buf, (size_t) n, &back) == NUM_OK);
  CHECK (back == v);
}

int
main (int argc, char **argv)
{
  /* With an argument, run under that locale (a decimal comma must change
     nothing).  */
  if (argc > 1 && !setlocale (LC_ALL, argv[1]))
    {
      printf ("locale %s not available\n", argv[1]);
      return 77;
    }

  CHECK (parses ("12", 12));
  CHECK (parses ("-3.5", -3.5));
  CHECK (parses ("+3.5", 3.5));
  CHECK (parses ("1e-06", 1e-06));
  CHECK (parses ("1E+3", 1000));
  CHECK (parses (".5", 0.5));
  CHECK (parses ("5.", 5));
  CHECK (parses ("0", 0));
  CHECK (parses ("1e308", 1e308));
  CHECK (parses ("1e-320", 1e-320));     /* subnormal: accepted */
  CHECK (status ("") == NUM_EMPTY);
  CHECK (status ("nan") == NUM_SYNTAX);
  CHECK (status ("NaN") == NUM_SYNTAX);
  CHECK (status ("inf") == NUM_SYNTAX);
  CHECK (status ("-infinity") == NUM_SYNTAX);
  CHECK (status ("0x10") == NUM_SYNTAX);
  CHECK (status ("1,5") == NUM_SYNTAX);
  CHECK (status ("12abc") == NUM_SYNTAX);
  CHECK (status (" 12") == NUM_SYNTAX);
  CHECK (status ("12 ") == NUM_SYNTAX);
  CHECK (status ("1e") == NUM_SYNTAX);
  CHECK (status ("e5") == NUM_SYNTAX);
  CHECK (status (".") == NUM_SYNTAX);
  CHECK (status ("-") == NUM_SYNTAX);
  CHECK (status ("1e309") == NUM_RANGE);
  CHECK (status ("-1e400") == NUM_RANGE);
  CHECK (status ("NA") == NUM_SYNTAX);
  CHECK (num_is_na ("NA", 2));
  CHECK (!num_is_na ("NaN", 3));

  /* Length-delimited: the text after LEN is not looked at.  */
  double v;
  CHECK (num_parse ("123456", 3, &v) == NUM_OK && v == 123);

  int64_t i;
  CHECK (num_parse_int64 ("4096", 4, &i) == NUM_OK && i == 4096);
  CHECK (num_parse_int64 ("-7", 2, &i) == NUM_OK && i == -7);
  CHECK (num_parse_int64 ("9223372036854775807", 19, &i) == NUM_OK
         && i == INT64_MAX);
  CHECK (num_parse_int64 ("-9223372036854775808", 20, &i) == NUM_OK
         && i == INT64_MIN);
  CHECK (num_parse_int64 ("9223372036854775808", 19, &i) == NUM_RANGE);
  CHECK (num_parse_int64 ("1.5", 3, &i) == NUM_NOT_INTEGER);
  CHECK (num_parse_int64 ("1e3", 3, &i) == NUM_NOT_INTEGER);
  CHECK (num_parse_int64 ("x", 1, &i) == NUM_SYNTAX);
  CHECK (num_parse_int64 ("", 0, &i) == NUM_EMPTY);

  char buf[NUM_BUFSIZE];
  num_format (0.1, -1, buf);
  CHECK_STR (buf, "0.1");
  num_format (1e-06, -1, buf);
  CHECK_STR (buf, "1e-06");
  num_format (12, -1, buf);
  CHECK_STR (buf, "12");
  num_format (-0.0, -1, buf);
  CHECK_STR (buf, "0");
  num_format (NAN, -1, buf);
  CHECK_STR (buf, "NA");
  num_format (INFINITY, -1, buf);
  CHECK_STR (buf, "NA");
  num_format (3.14159265, 3, buf);
  CHECK_STR (buf, "3.14");
  num_format (2.5e-7, -1, buf);
  CHECK_STR (buf, "2.5e-07");
  num_format (1.0 / 3, -1, buf);
  CHECK_STR (buf, "0.3333333333333333");   /* 16 digits suffice */

  check_round_trip (0.1);
  check_round_trip (1.0 / 3);
  check_round_trip (DBL_MAX);
  check_round_trip (DBL_MIN);
  check_round_trip (4.9406564584124654e-324);
  check_round_trip (123456789.123456789);
  srand (42);
  for (int k = 0; k < 100000; k++)
    {
      double x = ((double) rand () / RAND_MAX - 0.5)
                 * pow (10, (rand () % 600) - 300);
      check_round_trip (x);
    }
  /* The fast path (exact small decimals) must agree with strtod on every
     literal: random mantissas, decimal points and exponents.  */
  for (int k = 0; k < 200000; k++)
    {
      char lit[64];
      int nd = 1 + rand () % 17, point = rand () % (nd + 1), p = 0;
      if (rand () % 2)
        lit[p++] = '-';
      for (int d = 0; d < nd; d++)
        {
          if (d == point)
            lit[p++] = '.';
          lit[p++] = (char) ('0' + rand () % 10);
        }
      if (rand () % 2)
        p += sprintf (lit + p, "e%d", rand () % 60 - 30);
      lit[p] = '\0';
      double mine, ref = strtod (lit, NULL);
      CHECK (num_parse_str (lit, &mine) == NUM_OK);
      if (argc == 1 && mine != ref)
        {
          CHECK (mine == ref);
          fprintf (stderr, "mismatch on %s\n", lit);
        }
    }
  return unit_done ();
}
