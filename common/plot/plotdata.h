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
  size_t source;       /* plot_readers index of the input it came from */
  int summary;         /* set by plot_emit_blocks: drawn as per-x medians */
  int from_file;       /* one series per input file: KEY is its path */
};

struct dataset
{
  size_t stride;
  struct group *g;
  size_t ng;
  size_t rows;
  int xy;              /* rows are (x, y...) points: a series above
                          --max-points may be drawn as per-x medians */
  char **names;        /* --matrix: the host of each rank (#@hosts), or
                          NULL */
  size_t nnames;
};

/* --matrix --pairs: a pair-measure stream's rows by with_src.  */
enum plot_pairs
{
  PLOT_PAIRS_DEFAULT = 0,   /* alone when there is a with_src column */
  PLOT_PAIRS_ALONE,         /* with_src NA */
  PLOT_PAIRS_CONCURRENT,    /* beside another pair */
  PLOT_PAIRS_ALL
};

/* --matrix --reduce: several rows of one pair drawn as one value.  */
enum plot_reduce
{
  PLOT_REDUCE_NONE = 0,     /* an error */
  PLOT_REDUCE_MIN,
  PLOT_REDUCE_MEDIAN,
  PLOT_REDUCE_MAX
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
/* PATH's src, dst and VALUE columns, the rows PAIRS selects: one group
   of (src, dst, value); DS's names from the first input's #@hosts when
   each host ran one rank.  src and dst are ranks (whole numbers from 0,
   below the number of names).  */
void plot_read_matrix (const char *path, const char *value,
                       enum plot_pairs pairs, struct dataset *ds);
/* One value per (src, dst) pair, sorted by pair: several rows of a pair
   reduced by HOW, or an error (PLOT_REDUCE_NONE).  */
void plot_matrix_reduce (struct dataset *ds, const char *value,
                         enum plot_reduce how);
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
   MAX_POINTS distinct x, summarised (its summary flag set): one row per
   x (sorted by x), the median of each of the STRIDE - 1 columns, then
   the first and third quartile of each (column j's at gnuplot columns
   STRIDE + 2j - 1 and STRIDE + 2j: plot_quartile_col); INDEX[k] gets
   group k's block, or SIZE_MAX when it is empty.  Returns the number
   of blocks.  */
size_t plot_emit_blocks (struct plot_text *out, struct dataset *ds,
                         size_t first_block, size_t *index, long max_points);

/* A legend's words for input I (plot_readers[I]) among the inputs,
   from its metadata and command line, never its file name: the caller
   frees it.  */
char *plot_source_title (size_t i);

/* The gnuplot column of the first (Q = 1) or third (Q = 3) quartile of
   data column J (1..stride-1) in a summarised block.  */
static inline unsigned
plot_quartile_col (size_t stride, size_t j, int q)
{
  return (unsigned) (stride + 2 * j - (q == 1));
}

#endif
