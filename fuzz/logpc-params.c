/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logpc-params.c (fuzz): loGPC-solve's parameter reader (--params FILE,
 * read by common/stream/params.c: rows of named columns, a logp-measure
 * --summary works as is), on any bytes.
 *
 * The row-to-parameters step is a static function of tools/loGPC-solve.c,
 * so this file includes that translation unit with its main renamed.
 * Input: the stream.  Properties: every die is a data error (exit status
 * 1); after a successful read every numeric parameter of every row is
 * NaN (not given, or NA) or inside the range its table entry states, the
 * column P went to P_file (the network's rank count is never taken from a
 * measured row), and every string parameter is a NUL-terminated copy.  */
#define main logpc_solve_main
#include "../tools/loGPC-solve.c"
#undef main

#include "fuzz.h"

/* Every row of the file read from R, checked.  */
static void
read_all (tsv_reader *r, struct param_file *volatile *keep, size_t size)
{
  static struct params p;
  struct param_file *f = param_file_from (r);
  *keep = f;
  /* static: a row that dies leaves it to the next call */
  static size_t *rows;
  free (rows);
  rows = NULL;
  size_t n = param_file_select (f, NULL, 1, NULL, &rows);
  for (size_t i = 0; i < n; i++)
    {
      params_clear (&p);
      params_of_row (f, rows[i], 1, &p);
      FUZZ_ASSERT (isnan (p.ps.v[PARAM_P]));
      for (int k = 0; k < PARAM_NPARAM; k++)
        FUZZ_ASSERT (isnan (p.ps.v[k]) || param_in_range (k, p.ps.v[k]));
      FUZZ_ASSERT (isnan (p.P_file) || param_in_range (PARAM_P, p.P_file));
      for (int k = 0; k < NSPARAM; k++)
        {
          FUZZ_ASSERT (!p.s[k] || strlen (p.s[k]) < size + 1);
          free ((char *) p.s[k]);
          p.s[k] = NULL;
        }
    }
  free (rows);
  rows = NULL;
}

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

  tsv_reader *volatile r = NULL;
  struct param_file *volatile pf = NULL;
  FUZZ_TRY ({
      tsv_reader *rr = tsv_open_stream (fp, "<fuzz>");
      r = rr;
      read_all (rr, &pf, size);
    }, {
      if (fuzz_status != -1)
        tsv_free_all ();
      else if (r)
        tsv_close (r);
    });
  FUZZ_ASSERT (fuzz_status == -1 || fuzz_status == EXIT_DATA);
  param_file_free (pf);
  param_file_abandon ();
  fclose (fp);
  free (text);
  return 0;
}
