/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsv-check: validate a msgperf stream against msgperf(7) and print it
   when it is valid; otherwise name the first problem (file:line:column).  */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "human.h"
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
    "print the rows for a person, as --human does: aligned, time units "
    "in the header, bandwidth in GB/s, 4 significant digits, without "
    "metadata (holds the rows in memory)", NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

enum check { CHECK_NONE = 0, CHECK_NUMBER, CHECK_INTEGER };

/* --table: the human view of every program's --human (human.h).  */
static human_view *table;

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
        human_add_row (table, r);
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
        table = human_new (readers[0], unit);
      check_input (readers[k], w, k == 0);
      /* Again: metadata lines may also stand between rows.  */
      tsv_time_unit (readers, k + 1);
    }
  tsv_writer_close (w);
  if (opt_table)
    human_print (table, stdout);
  for (size_t k = 0; k < nfiles; k++)
    tsv_close (readers[k]);
  free (readers);
  poptFreeContext (con);
  return 0;
}
