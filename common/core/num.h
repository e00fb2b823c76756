/* SPDX-License-Identifier: GPL-3.0-or-later */
/* num.h: strict C-locale number parsing and round-trip printing.
 *
 * msgperf(7), NUMBERS: a field is a number only when the whole text is
 * a decimal or scientific literal; nan, inf, hex floats, "1,5", trailing
 * junk and overflow are refused whatever the user's locale is.  Printing
 * gives the shortest text that reads back to the same double.  */
#ifndef MSGPERF_NUM_H
#define MSGPERF_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Result codes of the parsers; num_strerror() explains each one.  */
enum num_status {
  NUM_OK = 0,
  NUM_EMPTY,      /* empty text */
  NUM_SYNTAX,     /* not a decimal/scientific literal (junk, hex, nan, inf, 1,5) */
  NUM_RANGE,      /* overflow to infinity (or, for integers, out of int64) */
  NUM_NOT_INTEGER /* integer parser: a fraction or exponent */
};

/* Parse TEXT of LEN bytes (not necessarily NUL-terminated) as a double.
   Underflow to a subnormal or zero is accepted (the value is exact enough
   for every time and size msgperf deals with).  */
enum num_status num_parse (const char *text, size_t len, double *out);

/* NUL-terminated convenience form.  */
enum num_status num_parse_str (const char *text, double *out);

/* Parse a 64-bit signed integer (counts: bytes, ranks, repetitions).
   Accepts an optional sign and decimal digits only.  */
enum num_status num_parse_int64 (const char *text, size_t len, int64_t *out);

/* A short English phrase for STATUS, e.g. "not a number".  */
const char *num_strerror (enum num_status status);

/* Is this field the missing-value marker "NA"?  */
int num_is_na (const char *text, size_t len);

/* Longest text num_format() writes, NUL included.  */
#define NUM_BUFSIZE 40

/* Format V into BUF (NUM_BUFSIZE bytes).  PRECISION < 0 gives the
   shortest round-trip form; PRECISION >= 1 rounds to that many significant
   digits (--precision).  A non-finite V is written "NA".  Returns the
   length written.  */
int num_format (double v, int precision, char *buf);

/* Significant digits of a mean, a difference of measured times or a
   fitted value (msgperf(7), NUMBERS).  */
#define NUM_DERIVED_DIGITS 6

/* Format a measured V into BUF (NUM_BUFSIZE bytes) with no more digits
   than the measurement has (msgperf(7), NUMBERS): V is rounded to the
   decade of QUANTUM (the power of ten at or below it: 0.01 for a timer
   resolution of 0.01 or 0.02) when QUANTUM > 0, and to SIGNIFICANT
   significant digits when SIGNIFICANT > 0, whichever is coarser, and
   written in plain decimal notation without trailing zeros ("0.03",
   "78.4123", "1200"); magnitudes that plain notation cannot hold in
   NUM_BUFSIZE bytes go to num_format with SIGNIFICANT (or 15) digits.
   With neither bound this is num_format (V, -1, BUF).  A non-finite V is
   "NA".  Returns the length written.
     timer reading:      num_format_measured (t, resolution, -1, buf)
     mean or fit:        num_format_measured (v, 0, NUM_DERIVED_DIGITS, buf)  */
int num_format_measured (double v, double quantum, int significant,
                         char *buf);

#endif
