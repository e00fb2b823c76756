/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsv.c (fuzz): the TSV reader and writer of common/stream/tsv.c on any bytes.
 *
 * The first byte chooses what the harness does with the stream, the rest
 * is the stream, read through tsv_open_stream on fmemopen:
 *   bit 0  read every field with tsv_num (bit 1: NA accepted)
 *   bit 2  read every field with tsv_int
 *   bit 3  copy the stream through a tsv_writer (stdout is /dev/null)
 *   bit 4  check the time units (tsv_time_unit) after the header and at end
 *   bit 5  require a column "bytes" (tsv_col_required)
 * and on every input it checks what the reader promises: unique valid
 * column names found by tsv_col, fields without tabs, NULs or newlines,
 * NUL-terminated at their length, non-empty, the header's count of them,
 * line numbers that grow, metadata that tsv_meta_get finds.  */
#include <config.h>

#include "fuzz.h"
#include "tsv.h"

static int
name_char (char c, int first)
{
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
         || (!first && ((c >= '0' && c <= '9') || c == '_'));
}

static void
check_header (tsv_reader *r)
{
  size_t n = tsv_ncols (r);
  FUZZ_ASSERT (n >= 1);
  for (size_t i = 0; i < n; i++)
    {
      const char *name = tsv_colname (r, i);
      FUZZ_ASSERT (name && name_char (name[0], 1));
      for (const char *p = name + 1; *p; p++)
        FUZZ_ASSERT (name_char (*p, 0));
      FUZZ_ASSERT (tsv_col (r, name) == (long) i);
      FUZZ_ASSERT (tsv_col_required (r, name) == i);
    }
  FUZZ_ASSERT (tsv_colname (r, n) == NULL);
}

static void
check_meta (tsv_reader *r)
{
  size_t n = tsv_nmeta (r);
  for (size_t i = 0; i < n; i++)
    {
      const char *m = tsv_meta_line (r, i);
      const char *eq = strchr (m, '=');
      FUZZ_ASSERT (eq && eq > m && name_char (m[0], 1));
      FUZZ_ASSERT (strchr (m, '\n') == NULL);
      /* The last line with this key is the one tsv_meta_get finds.  */
      char key[64];
      size_t klen = (size_t) (eq - m);
      if (klen < sizeof key)
        {
          memcpy (key, m, klen);
          key[klen] = '\0';
          const char *v = tsv_meta_get (r, key);
          FUZZ_ASSERT (v != NULL);
          if (i == n - 1)
            FUZZ_ASSERT (v == eq + 1);
        }
    }
  FUZZ_ASSERT (tsv_meta_line (r, n) == NULL);
}

static void
check_row (tsv_reader *r, unsigned mode, long *lastline)
{
  size_t n = tsv_ncols (r);
  long line = tsv_lineno (r);
  FUZZ_ASSERT (line > *lastline);
  *lastline = line;
  for (size_t i = 0; i < n; i++)
    {
      const char *f = tsv_field (r, i);
      size_t len = tsv_field_len (r, i);
      FUZZ_ASSERT (len > 0 && f[len] == '\0' && strlen (f) == len);
      FUZZ_ASSERT (memchr (f, '\t', len) == NULL);
      FUZZ_ASSERT (memchr (f, '\n', len) == NULL);
      FUZZ_ASSERT (tsv_is_na (r, i) == (len == 2 && memcmp (f, "NA", 2) == 0));
      if (mode & 1)
        {
          double v = tsv_num (r, i, (mode & 2) != 0);
          double w;
          if (tsv_is_na (r, i))
            FUZZ_ASSERT (v != v);
          else
            FUZZ_ASSERT (num_parse (f, len, &w) == NUM_OK && w == v
                         && v - v == 0);
        }
      if (mode & 4)
        {
          int64_t v = tsv_int (r, i), w;
          FUZZ_ASSERT (num_parse_int64 (f, len, &w) == NUM_OK && w == v);
        }
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("tsv-fuzz");
  if (size == 0)
    return 0;
  unsigned mode = data[0];
  data++, size--;

  char *text;
  FILE *fp = fuzz_stream (data, size, &text);
  if (!fp)
    return 0;

  tsv_reader *volatile r = NULL;
  tsv_writer *volatile w = NULL;
  volatile long rows = 0;
  FUZZ_TRY ({
      tsv_reader *rr = tsv_open_stream (fp, "<fuzz>");
      r = rr;
      check_header (rr);
      check_meta (rr);
      if (mode & 16)
        tsv_time_unit (&rr, 1);
      if (mode & 32)
        FUZZ_ASSERT (strcmp (tsv_colname (rr, tsv_col_required (rr, "bytes")),
                             "bytes") == 0);
      if ((mode & 8) && tsv_ncols (rr) < 4096)
        {
          /* The row as read, then the first field as a number.  */
          tsv_writer *ww = tsv_writer_open (NULL);
          w = ww;
          tsv_copy_meta (ww, rr);
          tsv_write_tool_meta (ww, "fuzz");
          tsv_meta_time_unit (ww, tsv_meta_get (rr, "time_unit"));
          const char *names[4096];
          size_t n = tsv_ncols (rr);
          for (size_t i = 0; i < n; i++)
            names[i] = tsv_colname (rr, i);
          names[n] = "first_as_number";
          tsv_write_header (ww, n + 1, names);
        }
      long lastline = tsv_lineno (rr);
      while (tsv_next (rr))
        {
          rows++;
          check_row (rr, mode, &lastline);
          if (w)
            {
              tsv_copy_meta (w, rr);
              tsv_put_fields (w, rr);
              double v;
              if (num_parse (tsv_field (rr, 0), tsv_field_len (rr, 0), &v)
                  == NUM_OK)
                tsv_put_num (w, v);
              else
                tsv_put_na (w);
              tsv_end_row (w);
            }
        }
      check_meta (rr);
      if (mode & 16)
        tsv_time_unit (&rr, 1);
    }, {
      /* After a die, what the dying code was building is freed the way
         tsv.h offers harnesses; anything it leaves unreachable is a leak
         LeakSanitizer reports.  Otherwise close as a program does.  */
      if (fuzz_status != -1)
        tsv_free_all ();
      else
        {
          if (w)
            tsv_writer_close (w);
          if (r)
            tsv_close (r);
        }
    });
  /* Every die of the reader is a data error.  */
  FUZZ_ASSERT (fuzz_status == -1 || fuzz_status == EXIT_DATA);
  (void) rows;
  fclose (fp);
  free (text);
  return 0;
}
