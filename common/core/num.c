/* SPDX-License-Identifier: GPL-3.0-or-later */
/* num.c: strict C-locale numbers (msgperf(7), NUMBERS).
 *
 * The syntax is checked by hand before strtod_l is called with a C locale
 * object, so neither the user's locale (a decimal comma) nor strtod's
 * extensions (hex floats, nan, inf, leading blanks) can leak in.  */
#include <config.h>
#include "num.h"
#include "numfast.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

static locale_t c_locale;

static locale_t
get_c_locale (void)
{
  if (!c_locale)
    c_locale = newlocale (LC_ALL_MASK, "C", (locale_t) 0);
  return c_locale;
}

/* Does TEXT[0..LEN) match  [+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?  ?  */
static int
decimal_syntax (const char *t, size_t len, int *has_frac_or_exp)
{
  size_t i = 0, digits = 0;
  *has_frac_or_exp = 0;
  if (i < len && (t[i] == '+' || t[i] == '-'))
    i++;
  while (i < len && t[i] >= '0' && t[i] <= '9')
    i++, digits++;
  if (i < len && t[i] == '.')
    {
      *has_frac_or_exp = 1;
      i++;
      while (i < len && t[i] >= '0' && t[i] <= '9')
        i++, digits++;
    }
  if (digits == 0)
    return 0;
  if (i < len && (t[i] == 'e' || t[i] == 'E'))
    {
      size_t expdigits = 0;
      *has_frac_or_exp = 1;
      i++;
      if (i < len && (t[i] == '+' || t[i] == '-'))
        i++;
      while (i < len && t[i] >= '0' && t[i] <= '9')
        i++, expdigits++;
      if (expdigits == 0)
        return 0;
    }
  return i == len;
}

/* Exact powers of ten representable in a double.  */
static const double pow10_exact[] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* One pass over the text checks the syntax
     [+-]? (D+ (. D*)? | . D+) ([eE] [+-]? D+)?
   and, on the way, gathers the significant digits as an integer M with a
   decimal exponent E.  Clinger's fast path then applies: when M < 2^53
   (at most 15 significant digits) and |E| <= 22, both M and 10^|E| are
   exact doubles and one IEEE multiplication or division rounds correctly,
   so the result is the one strtod gives.  Other literals go to strtod_l
   in the C locale.  */
enum num_status
num_parse (const char *t, size_t len, double *out)
{
  if (len == 0)
    return NUM_EMPTY;
  size_t i = 0;
  int neg = 0;
  if (t[0] == '+' || t[0] == '-')
    neg = t[i++] == '-';
  uint64_t m = 0;
  int digits = 0, sig = 0, scale = 0;
  for (; i < len && (unsigned) (t[i] - '0') < 10; i++, digits++)
    if (sig || t[i] != '0')
      {
        if (++sig <= 15)
          m = m * 10 + (uint64_t) (t[i] - '0');
        else
          scale++;
      }
  if (i < len && t[i] == '.')
    for (i++; i < len && (unsigned) (t[i] - '0') < 10; i++, digits++)
      {
        if (!sig && t[i] == '0')
          scale--;                 /* a leading zero of the fraction */
        else if (++sig <= 15)
          {
            m = m * 10 + (uint64_t) (t[i] - '0');
            scale--;
          }
      }
  if (digits == 0)
    return NUM_SYNTAX;
  int e = 0;
  if (i < len && (t[i] == 'e' || t[i] == 'E'))
    {
      int eneg = 0, edigits = 0;
      i++;
      if (i < len && (t[i] == '+' || t[i] == '-'))
        eneg = t[i++] == '-';
      for (; i < len && (unsigned) (t[i] - '0') < 10; i++, edigits++)
        if (e < 100000)
          e = e * 10 + (t[i] - '0');
      if (edigits == 0)
        return NUM_SYNTAX;
      if (eneg)
        e = -e;
    }
  if (i != len)
    return NUM_SYNTAX;
  scale += e;
  if (sig <= 15 && scale >= -22 && scale <= 22)
    {
      double v = (double) m;
      v = scale < 0 ? v / pow10_exact[-scale] : v * pow10_exact[scale];
      *out = neg ? -v : v;
      return NUM_OK;
    }
  /* strtod_l needs a terminated string; fields are short, but lines of any
     length exist, so fall back to the heap for long texts.  */
  char small[64];
  char *buf = small;
  if (len >= sizeof small)
    {
      buf = malloc (len + 1);
      if (!buf)
        return NUM_RANGE;
    }
  memcpy (buf, t, len);
  buf[len] = '\0';
  errno = 0;
  double v = strtod_l (buf, NULL, get_c_locale ());
  int err = errno;
  if (buf != small)
    free (buf);
  if (isinf (v) || (err == ERANGE && fabs (v) > 1.0))
    return NUM_RANGE;
  *out = v;
  return NUM_OK;
}

enum num_status
num_parse_str (const char *text, double *out)
{
  return num_parse (text, strlen (text), out);
}

enum num_status
num_parse_int64 (const char *t, size_t len, int64_t *out)
{
  int frac;
  if (len == 0)
    return NUM_EMPTY;
  if (!decimal_syntax (t, len, &frac))
    return NUM_SYNTAX;
  if (frac)
    return NUM_NOT_INTEGER;
  size_t i = 0;
  int neg = 0;
  if (t[i] == '+' || t[i] == '-')
    neg = t[i++] == '-';
  /* Accumulate as a negative number so INT64_MIN fits.  */
  int64_t v = 0;
  for (; i < len; i++)
    {
      int d = t[i] - '0';
      if (v < (INT64_MIN + d) / 10)
        return NUM_RANGE;
      v = v * 10 - d;
    }
  if (!neg)
    {
      if (v == INT64_MIN)
        return NUM_RANGE;
      v = -v;
    }
  *out = v;
  return NUM_OK;
}

const char *
num_strerror (enum num_status s)
{
  switch (s)
    {
    case NUM_OK:
      return "no error";
    case NUM_EMPTY:
      return "empty value";
    case NUM_SYNTAX:
      return "not a decimal number";
    case NUM_RANGE:
      return "number out of range";
    case NUM_NOT_INTEGER:
      return "not a whole number";
    }
  return "invalid number";
}

int
num_is_na (const char *text, size_t len)
{
  return len == 2 && text[0] == 'N' && text[1] == 'A';
}

/* Print with %.*g in the C locale.  snprintf uses LC_NUMERIC, so programs
   keep LC_NUMERIC at "C" (cli_init); the check below guards the rare
   library user that does not.  */
static int
format_g (double v, int digits, char *buf)
{
  int n = snprintf (buf, NUM_BUFSIZE, "%.*g", digits, v);
  for (int i = 0; i < n; i++)
    if (buf[i] == ',')
      buf[i] = '.';
  return n;
}

int
num_format (double v, int precision, char *buf)
{
  if (!isfinite (v))
    {
      memcpy (buf, "NA", 3);
      return 2;
    }
  if (v == 0)
    {
      /* "-0" reads back as -0.0 but surprises everybody; a time or size of
         minus zero is zero.  */
      memcpy (buf, "0", 2);
      return 1;
    }
  if (precision > 0)
    {
      /* Rounding can carry the largest doubles past DBL_MAX (1.8e308 to
         one digit is "2e+308"), a text no reader accepts: take one more
         digit until the text reads back (17 digits always do).  */
      for (int digits = precision > 17 ? 17 : precision;; digits++)
        {
          int n = format_g (v, digits, buf);
          double back;
          if (digits >= 17 || num_parse (buf, (size_t) n, &back) == NUM_OK)
            return n;
        }
    }
  /* One exact pass over the three candidates for the common magnitudes
     (numfast.h); the same text as below.  */
  int fast = num_format_fast (v, buf);
  if (fast > 0)
    return fast;
  /* Other magnitudes: try 15, 16, then 17 significant digits (17 always
     round-trips an IEEE double).  */
  for (int digits = 15; digits < 17; digits++)
    {
      int n = format_g (v, digits, buf);
      double back;
      if (num_parse (buf, (size_t) n, &back) == NUM_OK && back == v)
        return n;
    }
  return format_g (v, 17, buf);
}

/* The number of decimals of the decade of Q (2 for 0.01..0.099, 0 for
   1..9.9, -2 for 100..999).  The small allowance keeps 0.01, whose double
   is a hair below 1e-2, in its own decade.  */
static int
decade_decimals (double q)
{
  return (int) -floor (log10 (q) + 1e-9);
}

int
num_format_measured (double v, double quantum, int significant, char *buf)
{
  int has_q = quantum > 0 && isfinite (quantum);
  if (!isfinite (v) || (!has_q && significant <= 0))
    return num_format (v, -1, buf);
  int dec = INT32_MAX;
  if (has_q)
    dec = decade_decimals (quantum);
  if (significant > 0 && v != 0)
    {
      int ds = significant - 1 - (int) floor (log10 (fabs (v)));
      if (ds < dec)
        dec = ds;
    }
  /* Zero with only a digit count (a derived 0, e.g. the rate of an
     empty message): nothing to round, and no decimals to write.  */
  if (dec == INT32_MAX)
    dec = 0;
  /* Plain notation: sign, integer digits, point, DEC decimals and the
     NUL must fit NUM_BUFSIZE; beyond that, significant digits.  */
  int idigits = fabs (v) < 1 ? 1 : 1 + (int) floor (log10 (fabs (v)));
  if (fabs (v) >= 1e15 || (dec > 0 && idigits + dec + 3 > NUM_BUFSIZE))
    return num_format (v, significant > 0 ? significant : 15, buf);
  double r = v;
  if (dec < 0)
    {
      double p = pow10_exact[-dec < 22 ? -dec : 22];
      r = round (v / p) * p;
      dec = 0;
    }
  int n = snprintf (buf, NUM_BUFSIZE, "%.*f", dec, r);
  for (int i = 0; i < n; i++)
    if (buf[i] == ',')
      buf[i] = '.';
  if (n > 0 && strchr (buf, '.'))
    {
      while (n > 0 && buf[n - 1] == '0')
        n--;
      if (n > 0 && buf[n - 1] == '.')
        n--;
      buf[n] = '\0';
    }
  /* A value rounded to nothing is zero, never "-0".  */
  if (strcmp (buf, "-0") == 0)
    {
      memcpy (buf, "0", 2);
      n = 1;
    }
  return n;
}
