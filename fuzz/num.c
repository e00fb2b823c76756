/* SPDX-License-Identifier: GPL-3.0-or-later */
/* num.c (fuzz): the strict number parsers and the printer of common/core/num.c.
 *
 * The input is one field.  Oracles written independently of num.c:
 *   - a literal is accepted exactly when it matches
 *       [+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?
 *     (checked here with a separate state machine);
 *   - an accepted literal has the value strtod_l gives in the C locale
 *     (bit for bit, sign of zero included), and is refused as out of range
 *     exactly when strtod_l overflows to infinity;
 *   - num_format's text (shortest form, and every --precision 1-17) is
 *     shorter than NUM_BUFSIZE and reads back through num_parse; the
 *     shortest form reads back to the same double;
 *   - num_parse_int64 accepts exactly [+-]? D+ within int64 (strtoll is
 *     the reference), says "not a whole number" for the other decimal
 *     literals.  */
#include <config.h>

#include <errno.h>
#include <locale.h>
#include <math.h>

#include "fuzz.h"

/* States of the literal's syntax; returns 1 on a match and sets *INTEGER
   when there is neither a point nor an exponent.  */
static int
literal (const char *t, size_t len, int *integer)
{
  enum { START, SIGN, INT, POINT0, POINT, FRAC, EXP, ESIGN, EDIG } st = START;
  *integer = 0;
  for (size_t i = 0; i < len; i++)
    {
      char c = t[i];
      int d = c >= '0' && c <= '9';
      switch (st)
        {
        case START:
          if (c == '+' || c == '-')
            st = SIGN;
          else if (d)
            st = INT;
          else if (c == '.')
            st = POINT0;
          else
            return 0;
          break;
        case SIGN:
          if (d)
            st = INT;
          else if (c == '.')
            st = POINT0;
          else
            return 0;
          break;
        case INT:
          if (c == '.')
            st = POINT;
          else if (c == 'e' || c == 'E')
            st = EXP;
          else if (!d)
            return 0;
          break;
        case POINT0:          /* "." or "-.": a digit must follow */
          if (!d)
            return 0;
          st = FRAC;
          break;
        case POINT:           /* "1.": digits or an exponent may follow */
        case FRAC:
          if (c == 'e' || c == 'E')
            st = EXP;
          else if (d)
            st = FRAC;
          else
            return 0;
          break;
        case EXP:
          if (c == '+' || c == '-')
            st = ESIGN;
          else if (d)
            st = EDIG;
          else
            return 0;
          break;
        case ESIGN:
        case EDIG:
          if (!d)
            return 0;
          st = EDIG;
          break;
        }
    }
  *integer = st == INT;
  return st == INT || st == POINT || st == FRAC || st == EDIG;
}

static locale_t c_loc;

static int
same_double (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

static void
check_format (double v)
{
  char buf[NUM_BUFSIZE + 8];
  memset (buf, 'X', sizeof buf);
  int n = num_format (v, -1, buf);
  FUZZ_ASSERT (n > 0 && n < NUM_BUFSIZE && (size_t) n == strlen (buf));
  double back;
  FUZZ_ASSERT (num_parse (buf, (size_t) n, &back) == NUM_OK);
  FUZZ_ASSERT (back == v);
  for (int p = 1; p <= 17; p++)
    {
      n = num_format (v, p, buf);
      FUZZ_ASSERT (n > 0 && n < NUM_BUFSIZE && (size_t) n == strlen (buf));
      /* What a tool prints with --precision, the next tool reads.  */
      FUZZ_ASSERT (num_parse (buf, (size_t) n, &back) == NUM_OK);
      FUZZ_ASSERT (isfinite (back));
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (fuzz_setup ("num-fuzz"))
    c_loc = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
  /* Exactly SIZE bytes, unterminated, as a field of a line is.  */
  char *t = malloc (size ? size : 1);
  char *z = malloc (size + 1);
  if (!t || !z)
    abort ();
  memcpy (t, data, size);
  memcpy (z, data, size);
  z[size] = '\0';

  int integer;
  int ok_syntax = literal (t, size, &integer);

  /* ------------------------------------------------ num_parse */
  double v = 12345.0;
  enum num_status s = num_parse (t, size, &v);
  if (size == 0)
    FUZZ_ASSERT (s == NUM_EMPTY);
  else if (!ok_syntax)
    FUZZ_ASSERT (s == NUM_SYNTAX);
  else
    {
      char *end;
      errno = 0;
      double ref = strtod_l (z, &end, c_loc);
      FUZZ_ASSERT (end == z + size);
      if (isinf (ref))
        FUZZ_ASSERT (s == NUM_RANGE);
      else
        {
          FUZZ_ASSERT (s == NUM_OK);
          FUZZ_ASSERT (same_double (v, ref));
          check_format (v);
        }
    }
  FUZZ_ASSERT (s == NUM_OK || v == 12345.0 || !ok_syntax);
  FUZZ_ASSERT (num_strerror (s) != NULL);

  /* ------------------------------------------------ num_parse_int64 */
  int64_t iv = 42;
  s = num_parse_int64 (t, size, &iv);
  if (size == 0)
    FUZZ_ASSERT (s == NUM_EMPTY);
  else if (!ok_syntax)
    FUZZ_ASSERT (s == NUM_SYNTAX);
  else if (!integer)
    FUZZ_ASSERT (s == NUM_NOT_INTEGER);
  else
    {
      char *end;
      errno = 0;
      long long ref = strtoll (z, &end, 10);
      FUZZ_ASSERT (end == z + size);
      if (errno == ERANGE)
        FUZZ_ASSERT (s == NUM_RANGE);
      else
        FUZZ_ASSERT (s == NUM_OK && iv == ref);
    }

  /* ------------------------------------------------ num_is_na */
  FUZZ_ASSERT (num_is_na (t, size) == (size == 2 && memcmp (t, "NA", 2) == 0));

  /* ------------------------------------------------ num_format on raw bits */
  if (size >= sizeof (double))
    {
      double raw;
      memcpy (&raw, data, sizeof raw);
      char buf[NUM_BUFSIZE];
      int n = num_format (raw, -1, buf);
      FUZZ_ASSERT (n > 0 && n < NUM_BUFSIZE);
      if (!isfinite (raw))
        FUZZ_ASSERT (strcmp (buf, "NA") == 0);
      else
        check_format (raw);
    }

  free (t);
  free (z);
  return 0;
}
