/* SPDX-License-Identifier: GPL-3.0-or-later */
/* human.c: the stream shown to a person (see human.h).  */
#include <config.h>
#include "human.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "num.h"
#include "xalloc.h"

/* The one table of time columns (msgperf(7), NAMES AND UNITS): a column
   is a time when its name is here, or when the part before its first '_'
   is (t_mean, t_max, g_raw, L_table, rtt_ci_lo, a_se: a statistic or a
   variant of a time is a time), and a time per byte likewise (G, b_se).  */
static const char *const time_names[] = {
  "L", "o", "os", "or", "osl", "orl", "g", "g0", "rtt", "t", "a", "alpha",
  "makespan", "T", "Tc", "Cn", "wb", "finish", "compute", "send", "recv",
  "idle", "start", "end", "time", "Os", "Or", "M", "Mc", NULL
};
static const char *const per_byte_names[] = {
  "G", "Gm", "O", "b", "beta", "Gc", NULL
};
/* Suffixes that make a variant something else: a status is text, b_opt
   and b_best are block counts (Diamond); an intercept of a per-byte fit
   is a time.  */
static const char *const plain_suffixes[] = { "status", "opt", "best",
                                              NULL };
static const char *const time_suffixes[] = { "intercept", NULL };

static int
listed (const char *const *list, const char *name, size_t len)
{
  for (; *list; list++)
    if (strlen (*list) == len && strncmp (*list, name, len) == 0)
      return 1;
  return 0;
}

enum human_kind
human_column_kind (const char *name)
{
  size_t len = strlen (name);
  if (listed (time_names, name, len))
    return HUMAN_TIME;
  if (listed (per_byte_names, name, len))
    return HUMAN_PER_BYTE;
  const char *us = strchr (name, '_');
  if (!us)
    return HUMAN_PLAIN;
  const char *suffix = us + 1;
  size_t stem = (size_t) (us - name);
  if (listed (plain_suffixes, suffix, strlen (suffix)))
    return HUMAN_PLAIN;
  if (listed (time_names, name, stem))
    return HUMAN_TIME;
  if (listed (per_byte_names, name, stem))
    return listed (time_suffixes, suffix, strlen (suffix))
           ? HUMAN_TIME : HUMAN_PER_BYTE;
  return HUMAN_PLAIN;
}

void
human_column_label (const char *name, const char *unit, char *buf,
                    size_t size)
{
  enum human_kind k = unit ? human_column_kind (name) : HUMAN_PLAIN;
  if (k == HUMAN_TIME)
    snprintf (buf, size, "%s [%s]", name, unit);
  else if (k == HUMAN_PER_BYTE)
    snprintf (buf, size, "%s [%s/B]", name, unit);
  else
    snprintf (buf, size, "%s", name);
}

/* Seconds in one UNIT, or 0 when the unit is not a time in seconds
   (cycles).  */
static double
unit_seconds (const char *unit)
{
  static const struct { const char *name; double s; } units[] = {
    { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 }
  };
  for (size_t i = 0; unit && i < sizeof units / sizeof units[0]; i++)
    if (strcmp (unit, units[i].name) == 0)
      return units[i].s;
  return 0;
}

struct human_view
{
  char **cells;         /* every row's cells, the header first */
  size_t ncells, cap;
  size_t ncols;         /* columns of the input */
  size_t width;         /* columns shown: ncols, + 1 with bandwidth */
  long bytes_col, time_col;
  double seconds;       /* of the time unit */
  double one_way;       /* of the time column: 0.5 for a round trip */
  unsigned char *count; /* per input column: whole counts */
};

static void
cell (human_view *h, const char *text)
{
  if (h->ncells == h->cap)
    {
      h->cap = h->cap ? 2 * h->cap : 256;
      h->cells = xrealloc (h->cells, h->cap * sizeof *h->cells);
    }
  h->cells[h->ncells++] = xstrdup (text);
}

/* The time a bandwidth is derived from: the median if there is one; a
   round trip (rtt) last, halved (one way).  */
static long
bandwidth_time (const tsv_reader *r)
{
  static const char *const pref[] = { "t", "t_mean", "t_min", "t_e2e",
                                      "time", "rtt", NULL };
  for (size_t i = 0; pref[i]; i++)
    if (tsv_col (r, pref[i]) >= 0)
      return tsv_col (r, pref[i]);
  return -1;
}

human_view *
human_new (const tsv_reader *r, const char *unit)
{
  human_view *h = xcalloc (1, sizeof *h);
  h->ncols = tsv_ncols (r);
  h->count = xcalloc (h->ncols ? h->ncols : 1, 1);
  h->seconds = unit_seconds (unit);
  h->bytes_col = tsv_col (r, "bytes");
  h->time_col = bandwidth_time (r);
  h->one_way = h->time_col >= 0
               && strcmp (tsv_colname (r, (size_t) h->time_col), "rtt") == 0
               ? 0.5 : 1;
  int bw = h->bytes_col >= 0 && h->time_col >= 0 && h->seconds > 0;
  h->width = h->ncols + (bw ? 1 : 0);
  if (!bw)
    h->bytes_col = -1;
  for (size_t i = 0; i < h->ncols; i++)
    {
      char buf[256];
      human_column_label (tsv_colname (r, i), unit, buf, sizeof buf);
      cell (h, buf);
      h->count[i] = (unsigned char) tsv_is_count_name (tsv_colname (r, i));
    }
  if (bw)
    {
      char buf[256];
      snprintf (buf, sizeof buf, "GB/s(%s%s)",
                tsv_colname (r, (size_t) h->time_col),
                h->one_way < 1 ? "/2" : "");
      cell (h, buf);
    }
  return h;
}

/* A real number for a person: --precision or HUMAN_DIGITS significant
   digits, in plain decimal notation ("72.43", "1200"), a tiny one with
   an exponent (1.56e-07, not 0.000000156).  */
static void
human_number (double v, char *buf)
{
  int digits = cli.precision > 0 ? cli.precision : HUMAN_DIGITS;
  if (v != 0 && fabs (v) < 1e-4)
    num_format (v, digits, buf);
  else
    num_format_measured (v, 0, digits, buf);
}

void
human_add_row (human_view *h, const tsv_reader *r)
{
  for (size_t i = 0; i < h->ncols; i++)
    {
      const char *f = tsv_field (r, i);
      size_t len = tsv_field_len (r, i);
      double v;
      int64_t n;
      char buf[NUM_BUFSIZE];
      if (!h->count[i] && num_parse (f, len, &v) == NUM_OK
          && num_parse_int64 (f, len, &n) != NUM_OK)
        {
          human_number (v, buf);
          f = buf;
        }
      cell (h, f);
    }
  if (h->width > h->ncols)
    {
      double b, t;
      char buf[NUM_BUFSIZE];
      const char *bt = tsv_field (r, (size_t) h->bytes_col);
      const char *tt = tsv_field (r, (size_t) h->time_col);
      if (num_parse_str (bt, &b) == NUM_OK && num_parse_str (tt, &t) == NUM_OK
          && t > 0)
        human_number (b / (t * h->one_way * h->seconds) / 1e9, buf);
      else
        strcpy (buf, "NA");
      cell (h, buf);
    }
}

/* Pad the cells of column C in place: numbers right, text left (the last
   column's text is not padded).  */
static void
pad_column (human_view *h, size_t c, size_t nrows)
{
  size_t width = 0;
  int numeric = nrows > 1;
  for (size_t k = 0; k < nrows; k++)
    {
      const char *s = h->cells[k * h->width + c];
      size_t len = strlen (s);
      double v;
      if (len > width)
        width = len;
      if (k && !num_is_na (s, len) && num_parse (s, len, &v) != NUM_OK)
        numeric = 0;
    }
  for (size_t k = 0; k < nrows; k++)
    {
      char **s = &h->cells[k * h->width + c];
      size_t len = strlen (*s);
      if (len == width || (c + 1 == h->width && !numeric))
        continue;
      char *padded = xmalloc (width + 1);
      size_t pad = width - len;
      if (numeric)
        {
          memset (padded, ' ', pad);
          memcpy (padded + pad, *s, len + 1);
        }
      else
        {
          memcpy (padded, *s, len);
          memset (padded + len, ' ', pad);
          padded[width] = '\0';
        }
      free (*s);
      *s = padded;
    }
}

void
human_print (human_view *h, FILE *fp)
{
  size_t nrows = h->width ? h->ncells / h->width : 0;
  for (size_t c = 0; c < h->width; c++)
    pad_column (h, c, nrows);
  for (size_t k = 0; k < nrows; k++)
    for (size_t c = 0; c < h->width; c++)
      fprintf (fp, "%s%s", h->cells[k * h->width + c],
               c + 1 < h->width ? "  " : "\n");
  for (size_t k = 0; k < h->ncells; k++)
    free (h->cells[k]);
  free (h->cells);
  free (h->count);
  free (h);
}

void
human_render_text (const char *text, size_t len, FILE *fp)
{
  /* Only metadata (or nothing): no header, nothing to show.  */
  int header = 0;
  for (size_t i = 0; i < len && !header; i++)
    if (i == 0 || text[i - 1] == '\n')
      header = text[i] != '#' && text[i] != '\n';
  if (!header)
    return;
  FILE *in = fmemopen ((void *) text, len, "r");
  if (!in)
    die ("cannot read back the output for --human");
  tsv_reader *r = tsv_open_stream (in, "<output>");
  human_view *h = NULL;
  while (tsv_next (r))
    {
      if (!h)
        h = human_new (r, tsv_meta_get (r, "time_unit"));
      human_add_row (h, r);
    }
  if (!h)
    h = human_new (r, tsv_meta_get (r, "time_unit"));
  human_print (h, fp);
  tsv_close (r);
  fclose (in);
}
