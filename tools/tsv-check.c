/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsv-check: validate a msgperf stream against msgperf(7) and print it
   when it is valid; otherwise name the first problem (file:line:column).  */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "xalloc.h"
#include "num.h"
#include "tsv.h"

static char *opt_numeric;   /* COL,COL,...: numbers or NA */
static char *opt_integer;   /* COL,COL,...: whole numbers */
static int opt_no_na;       /* NA is not accepted in checked columns */
static int opt_silent;      /* check only, print nothing */
static int opt_table;       /* print aligned for people */

static struct poptOption options[] = {
  { "numeric", 'n', POPT_ARG_STRING, &opt_numeric, 0,
    "columns that must hold numbers (or NA)", "COL[,COL...]" },
  { "integer", 'i', POPT_ARG_STRING, &opt_integer, 0,
    "columns that must hold whole numbers (64-bit counts)", "COL[,COL...]" },
  { "no-na", '\0', POPT_ARG_NONE, &opt_no_na, 0,
    "refuse NA in the --numeric and --integer columns", NULL },
  { "silent", '\0', POPT_ARG_NONE, &opt_silent, 0,
    "print nothing; only the exit status tells", NULL },
  { "table", '\0', POPT_ARG_NONE, &opt_table, 0,
    "print the rows aligned for a terminal, time units in the header, "
    "without metadata (holds the rows in memory)", NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

enum check { CHECK_NONE = 0, CHECK_NUMBER, CHECK_INTEGER };

/* ---------------------------------------------------------------- --table
   The cells of every row (the header first), kept to measure the columns;
   a column of numbers (and NA) is aligned right, any other left.  */
static char **cells;
static size_t ncells, cells_cap, table_cols;

/* Columns msgperf(7) names as times, and as times per byte.  */
static const char *const time_cols[] = {
  "L", "o", "os", "or", "osl", "orl", "g", "g0", "rtt", "t", "t_min",
  "t_p05", "t_p95", "t_ci_lo", "t_ci_hi", "a", "alpha", "makespan", "T",
  "Tc", "Cn", "wb", "t_short", "t_short_c", "t_long", "t_long_c", "t_e2e",
  "t_e2e_c", "finish", "compute", "send", "recv", "idle", "start", "end",
  NULL
};
static const char *const per_byte_cols[] = {
  "G", "Gm", "O", "b", "beta", "Gc", NULL
};

static int
listed (const char *const *list, const char *name)
{
  for (; *list; list++)
    if (strcmp (*list, name) == 0)
      return 1;
  return 0;
}

static void
table_cell (const char *text)
{
  if (ncells == cells_cap)
    {
      cells_cap = cells_cap ? 2 * cells_cap : 256;
      cells = xrealloc (cells, cells_cap * sizeof *cells);
    }
  cells[ncells] = xstrdup (text);
  ncells++;
}

/* The header, each time column with its unit: "rtt [us]".  */
static void
table_header (const tsv_reader *r, const char *unit)
{
  table_cols = tsv_ncols (r);
  for (size_t i = 0; i < table_cols; i++)
    {
      const char *name = tsv_colname (r, i);
      char buf[256];
      if (unit && listed (time_cols, name))
        snprintf (buf, sizeof buf, "%s [%s]", name, unit);
      else if (unit && listed (per_byte_cols, name))
        snprintf (buf, sizeof buf, "%s [%s/B]", name, unit);
      else
        snprintf (buf, sizeof buf, "%s", name);
      table_cell (buf);
    }
}

/* A row; with --precision, real numbers rounded (counts never).  */
static void
table_row (const tsv_reader *r)
{
  for (size_t i = 0; i < table_cols; i++)
    {
      const char *f = tsv_field (r, i);
      size_t len = tsv_field_len (r, i);
      double v;
      int64_t n;
      char buf[NUM_BUFSIZE];
      if (cli.precision > 0 && num_parse (f, len, &v) == NUM_OK
          && num_parse_int64 (f, len, &n) != NUM_OK)
        {
          num_format (v, cli.precision, buf);
          f = buf;
        }
      table_cell (f);
    }
}

static void
table_print (void)
{
  size_t nrows = table_cols ? ncells / table_cols : 0;
  for (size_t c = 0; c < table_cols; c++)
    {
      size_t width = 0;
      int numeric = nrows > 1;
      for (size_t k = 0; k < nrows; k++)
        {
          const char *cell = cells[k * table_cols + c];
          size_t len = strlen (cell);
          double v;
          if (len > width)
            width = len;
          if (k && !num_is_na (cell, len)
              && num_parse (cell, len, &v) != NUM_OK)
            numeric = 0;
        }
      /* Pad in place: each cell becomes its printed text.  */
      for (size_t k = 0; k < nrows; k++)
        {
          char **cell = &cells[k * table_cols + c];
          size_t len = strlen (*cell);
          int last = c + 1 == table_cols;
          if (len == width || (last && !numeric))
            continue;
          char *padded = xmalloc (width + 1);
          size_t pad = width - len;
          if (numeric)
            {
              memset (padded, ' ', pad);
              memcpy (padded + pad, *cell, len + 1);
            }
          else
            {
              memcpy (padded, *cell, len);
              memset (padded + len, ' ', pad);
              padded[width] = '\0';
            }
          free (*cell);
          *cell = padded;
        }
    }
  for (size_t k = 0; k < nrows; k++)
    for (size_t c = 0; c < table_cols; c++)
      printf ("%s%s", cells[k * table_cols + c],
              c + 1 < table_cols ? "  " : "\n");
  for (size_t k = 0; k < ncells; k++)
    free (cells[k]);
  free (cells);
}

/* Mark the columns named in LIST (comma-separated) with KIND.  */
static void
mark_columns (const tsv_reader *r, const char *list, enum check kind,
              enum check *checks)
{
  if (!list)
    return;
  char *copy = xstrdup (list);
  for (char *save = NULL, *name = strtok_r (copy, ",", &save); name;
       name = strtok_r (NULL, ",", &save))
    checks[tsv_col_required (r, name)] = kind;
  free (copy);
}

/* Check one input and copy it to W; the header must be the same as the
   first input's (HEADER, NCOLS) when there is one.  */
static void
check_input (tsv_reader *r, tsv_writer *w, int first)
{
  size_t ncols = tsv_ncols (r);
  enum check *checks = xcalloc (ncols ? ncols : 1, sizeof *checks);
  mark_columns (r, opt_numeric, CHECK_NUMBER, checks);
  mark_columns (r, opt_integer, CHECK_INTEGER, checks);
  if (w)
    {
      tsv_copy_meta (w, r);
      if (first)
        {
          const char **names = xmalloc (ncols * sizeof *names);
          for (size_t i = 0; i < ncols; i++)
            names[i] = tsv_colname (r, i);
          tsv_write_header (w, ncols, names);
          free (names);
        }
    }
  while (tsv_next (r))
    {
      for (size_t i = 0; i < ncols; i++)
        {
          if (checks[i] == CHECK_NONE)
            continue;
          if (tsv_is_na (r, i))
            {
              if (opt_no_na)
                tsv_die_field (r, i, "missing value 'NA' (--no-na)");
              continue;
            }
          if (checks[i] == CHECK_NUMBER)
            tsv_num (r, i, 0);
          else
            tsv_int (r, i);
        }
      if (w)
        {
          tsv_copy_meta (w, r);
          tsv_put_fields (w, r);
          tsv_end_row (w);
        }
      else if (opt_table)
        table_row (r);
    }
  free (checks);
}

int
main (int argc, char **argv)
{
  cli_init ("tsv-check", argc, argv);
  poptContext con = cli_parse (argc, (const char **) argv, options,
                               "[OPTION...] [FILE...]", NULL);
  const char **files = poptGetArgs (con);
  static const char *stdin_only[] = { "-", NULL };
  if (!files || !files[0])
    files = stdin_only;
  size_t nfiles = 0;
  while (files[nfiles])
    nfiles++;

  if (opt_table && opt_silent)
    die_usage ("--table and --silent are exclusive");
  tsv_reader **readers = xcalloc (nfiles, sizeof *readers);
  tsv_writer *w = opt_silent || opt_table ? NULL : tsv_writer_open (NULL);
  for (size_t k = 0; k < nfiles; k++)
    {
      readers[k] = tsv_open (files[k]);
      if (k)
        tsv_same_header (readers[0], readers[k]);
      const char *unit = tsv_time_unit (readers, k + 1);
      if (opt_table && k == 0)
        table_header (readers[0], unit);
      check_input (readers[k], w, k == 0);
      /* Again: metadata lines may also stand between rows.  */
      tsv_time_unit (readers, k + 1);
    }
  tsv_writer_close (w);
  if (opt_table)
    table_print ();
  for (size_t k = 0; k < nfiles; k++)
    tsv_close (readers[k]);
  free (readers);
  poptFreeContext (con);
  return 0;
}
