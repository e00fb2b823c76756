/* logpc-params.c (fuzz): loGPC-solve's parameter reader (--params FILE:
 * one row of named columns, a logp-measure --summary row works as is),
 * on any bytes.
 *
 * The reader is a static function of tools/loGPC-solve.c, so this file
 * includes that translation unit with its main renamed.  Input: the
 * stream.  Properties: every die is a data error (exit status 1); after a
 * successful read every numeric parameter is NaN (not given) or inside
 * the range its table entry states, the column P went to P_file (the
 * network's rank count is never taken from a measured row), and every
 * string parameter is a NUL-terminated copy.  */
#define main logpc_solve_main
#include "../tools/loGPC-solve.c"
#undef main

#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("logpc-params-fuzz");
  if (size == 0)
    return 0;
  char *text;
  FILE *fp = fuzz_stream (data, size, &text);
  if (!fp)
    return 0;

  static struct params p;
  params_clear (&p);
  tsv_reader *volatile r = NULL;
  FUZZ_TRY ({
      tsv_reader *rr = tsv_open_stream (fp, "<fuzz>");
      r = rr;
      read_params (rr, &p);
    }, {
      if (fuzz_status != -1)
        tsv_free_all ();
      else if (r)
        tsv_close (r);
    });
  FUZZ_ASSERT (fuzz_status == -1 || fuzz_status == EXIT_DATA);
  if (fuzz_status == -1)
    {
      FUZZ_ASSERT (isnan (p.v[PR_P]));
      for (int k = 0; k < NPARAM; k++)
        FUZZ_ASSERT (isnan (p.v[k]) || in_range (pdefs[k].range, p.v[k]));
      FUZZ_ASSERT (isnan (p.P_file) || in_range (pdefs[PR_P].range, p.P_file));
      for (int k = 0; k < NSPARAM; k++)
        FUZZ_ASSERT (!p.s[k] || strlen (p.s[k]) < size + 1);
    }
  for (int k = 0; k < NSPARAM; k++)
    {
      free ((char *) p.s[k]);
      p.s[k] = NULL;
    }
  fclose (fp);
  free (text);
  return 0;
}
