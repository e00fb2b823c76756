/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plotdata.h: plotgen's inputs as numeric series: an XY stream's
   columns grouped by --by (or by label, or by input file), dag-predict
   --gantt's intervals by kind, a matrix's (x, y, value) cells; each
   series kept as numbers and as the fields' own text, which becomes
   gnuplot's inline data.  Bad input ends the program (err.h) naming
   file, line, column and text.  */
#ifndef MSGPERF_PLOTDATA_H
#define MSGPERF_PLOTDATA_H

#include <stddef.h>

#include "plotscript.h"
#include "tsv.h"

/* At most this many series in one dataset.  */
#define PLOT_MAX_GROUPS 100

/* dag-predict --gantt: proc, start, end, kind.  One group per kind, in
   this order; rows are start, end, proc.  */
enum { PLOT_NKINDS = 4 };
extern const char *const plot_gantt_kinds[PLOT_NKINDS];

/* Rows of STRIDE numbers sharing one value of --by (or one kind).  */
struct group
{
  char *key;
  double *v;
  size_t n, cap;       /* rows */
  char *text;          /* the same rows as gnuplot data: the fields' own
                          text (checked numbers, or NA), one line a row */
  size_t tlen, tcap;
  /* --fit's parameters from the series' own columns (a, b or alpha,
     beta): the value, where it was read (0: no column, or NA) */
  double pv[2];
  long pline[2], pcol[2];
  const char *pfile;
};

struct dataset
{
  size_t stride;
  struct group *g;
  size_t ng;
  size_t rows;
  int xy;              /* rows are (x, y...) points: a series above
                          --max-points may be drawn as per-x medians */
};

/* What to read from an XY stream.  */
struct xyspec
{
  const char *x;
  char **y;
  size_t ny;
  const char *lo, *hi;   /* error bar columns, or NULL */
  const char *by;        /* --by column, or NULL */
  int by_optional;       /* the overlay: --by only if it has the column */
  int by_used;           /* set by read_xy */
  int by_source;         /* no --by: one series per 'label' value, or per
                            input file when there are several */
  int source_used;       /* set by read_xy: series are sources */
  const int *fit_ids;    /* --fit: its two parameters, also read from
                            the stream's columns of their names; or NULL */
};

/* Split "a,b,c" into a NULL-terminated array; empty items are a usage
   error naming OPTION.  */
char **plot_split_list (const char *option, const char *text, size_t *n);
void plot_free_list (char **v);

/* The inputs opened, kept for the time unit check (metadata may follow
   rows): plot_readers[0..plot_nreaders-1].  */
extern tsv_reader **plot_readers;
extern size_t plot_nreaders;
tsv_reader *plot_open_input (const char *path);
const char *plot_base_name (const char *path);

/* Read PATH's columns SP into DS (SP's by_used, source_used set; the
   y columns chosen when SP gives none).  */
void plot_read_xy (const char *path, struct xyspec *sp, struct dataset *ds);
/* dag-predict --gantt's rows of PATH, one group per kind.  */
void plot_read_gantt (const char *path, struct dataset *ds);
/* PATH's src, dst and VALUE columns: one group of (x, y, value).  */
void plot_read_matrix (const char *path, const char *value,
                       struct dataset *ds);
/* A matrix's cells name each (x, y) once.  */
void plot_check_pairs_unique (const struct dataset *ds, const char *value);
/* G's rows whose columns A and B are both finite.  */
size_t plot_count_finite (const struct dataset *ds, const struct group *g,
                          size_t a, size_t b);
/* Does column C hold only small integers (integer tics)?  */
/* Is every finite x of DS a whole number from 1 to 1e15 (at least one)?  */
int plot_whole_x (const struct dataset *ds);
int plot_small_integer_column (const struct dataset *ds, size_t c);
void plot_dataset_free (struct dataset *ds);

/* Append DS's groups to OUT as gnuplot data blocks (two blank lines
   apart, numbered from FIRST_BLOCK for "index"), a group above
   MAX_POINTS rows (> 0) thinned, or, for points (xy) at no more than
   MAX_POINTS distinct x, drawn as the median of each column at each x
   (sorted by x); INDEX[k] gets group k's block, or
   SIZE_MAX when it is empty.  Returns the number of blocks.  */
size_t plot_emit_blocks (struct plot_text *out, const struct dataset *ds,
                         size_t first_block, size_t *index, long max_points);

#endif
