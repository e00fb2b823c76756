/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli.c (fuzz): the strict option value parsers cli_double and cli_int.
 *
 * Input: one byte of mode (bit 0: cli_int instead of cli_double; bit 1:
 * silent usage errors, as on MPI ranks other than 0), 16 bytes giving the
 * range [lo, hi], then the option's text up to the first NUL (a command
 * line argument cannot hold one).  Properties: a value is returned
 * exactly when the text is a number (num_parse/num_parse_int64 agree)
 * inside the range, and equals what those parsers give; anything else
 * ends in die_usage, exit status 2.  */
#include <config.h>

#include <math.h>

#include "cli.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("cli-fuzz");
  if (size < 17)
    return 0;
  unsigned mode = data[0];
  int64_t ilo, ihi;
  memcpy (&ilo, data + 1, 8);
  memcpy (&ihi, data + 9, 8);
  data += 17, size -= 17;
  const uint8_t *nul = memchr (data, '\0', size);
  size_t len = nul ? (size_t) (nul - data) : size;
  char *text = malloc (len + 1);
  if (!text)
    abort ();
  memcpy (text, data, len);
  text[len] = '\0';
  err_usage_silent = (mode & 2) != 0;

  if (mode & 1)
    {
      int64_t lo = ilo < ihi ? ilo : ihi, hi = ilo < ihi ? ihi : ilo;
      int64_t ref = 0;
      int ok = num_parse_int64 (text, len, &ref) == NUM_OK
               && ref >= lo && ref <= hi;
      volatile int64_t got = 0;
      FUZZ_TRY (got = cli_int ("fuzz-int", text, lo, hi), (void) 0);
      if (ok)
        FUZZ_ASSERT (fuzz_status == -1 && got == ref);
      else
        FUZZ_ASSERT (fuzz_status == EXIT_USAGE);
    }
  else
    {
      /* The range of a real option is finite; bit patterns that are not
         become a wide default.  */
      double a, b;
      memcpy (&a, &ilo, 8);
      memcpy (&b, &ihi, 8);
      if (!isfinite (a))
        a = -1e300;
      if (!isfinite (b))
        b = 1e300;
      double lo = a < b ? a : b, hi = a < b ? b : a;
      double ref = 0;
      int ok = num_parse (text, len, &ref) == NUM_OK && ref >= lo && ref <= hi;
      volatile double got = 0;
      FUZZ_TRY (got = cli_double ("fuzz-double", text, lo, hi), (void) 0);
      if (ok)
        FUZZ_ASSERT (fuzz_status == -1 && got == ref);
      else
        FUZZ_ASSERT (fuzz_status == EXIT_USAGE);
    }
  free (text);
  return 0;
}
