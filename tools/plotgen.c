/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plotgen: pictures of msgperf streams, drawn by gnuplot.
 *
 * main() parses the options, reads the streams into numeric blocks,
 * describes the plot (struct plot_desc), has common/plot/plotscript.c write
 * the gnuplot script, then prints the script (--script) or runs gnuplot on
 * it.  Nothing from the input reaches the script except through
 * common/plot/gpquote.c (strings) and num_format (numbers).  */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "hyperfit.h"
#include "params.h"
#include "num.h"
#include "plotscript.h"
#include "tsv.h"
#include "xalloc.h"

extern char **environ;

#define PROGRAM "plotgen"
#define MAX_GROUPS 100
#define MAX_SEGMENTS 6    /* --segments auto tries 1..6, as hyper-reduce */

/* ---------------------------------------------------------------- options */

static char *opt_x, *opt_y, *opt_by, *opt_style, *opt_errorbars;
static char *opt_title, *opt_xlabel, *opt_ylabel, *opt_size, *opt_output;
static char *opt_data, *opt_fit, *opt_overlay, *opt_overlay_x, *opt_overlay_y;
static char *opt_segments, *opt_params, *opt_where;
static struct param_set p_set;     /* --set */
static int opt_logx, opt_logy, opt_script, opt_gantt, opt_matrix;
static long opt_max_points = 100000;

static struct poptOption options[] = {
  { NULL, 'x', POPT_ARG_STRING, &opt_x, 0,
    "column on the x axis (default: bytes)", "COL" },
  { NULL, 'y', POPT_ARG_STRING, &opt_y, 0,
    "column(s) on the y axis, one series each (default: the stream's time "
    "column: t, time, makespan, t_mean, rtt, g or measured)",
    "COL[,COL...]" },
  { "by", '\0', POPT_ARG_STRING, &opt_by, 0,
    "one series per value of this column (default: per value of a 'label' "
    "column, else one per input file)", "COL" },
  { "logx", '\0', POPT_ARG_NONE, &opt_logx, 0, "logarithmic x axis", NULL },
  { "logy", '\0', POPT_ARG_NONE, &opt_logy, 0, "logarithmic y axis", NULL },
  { "style", '\0', POPT_ARG_STRING, &opt_style, 0,
    "lines, points, linespoints or steps (default: linespoints, "
    "points with --fit)", "STYLE" },
  { "errorbars", '\0', POPT_ARG_STRING, &opt_errorbars, 0,
    "columns of the error bar ends, e.g. t_ci_lo,t_ci_hi", "LO,HI" },
  { "title", '\0', POPT_ARG_STRING, &opt_title, 0, "title of the plot",
    "TEXT" },
  { "xlabel", '\0', POPT_ARG_STRING, &opt_xlabel, 0,
    "x axis label (default: column name and #@time_unit)", "TEXT" },
  { "ylabel", '\0', POPT_ARG_STRING, &opt_ylabel, 0,
    "y axis label (default: column names and #@time_unit)", "TEXT" },
  { "size", '\0', POPT_ARG_STRING, &opt_size, 0,
    "picture size: pixels (default 800x600), characters for text "
    "(default: the terminal window, or 79x24)", "WxH" },
  { "output", 'o', POPT_ARG_STRING, &opt_output, 0,
    "write the picture to FILE (.png, .svg or .pdf), atomically", "FILE" },
  { "script", '\0', POPT_ARG_NONE, &opt_script, 0,
    "print the gnuplot script instead of running it", NULL },
  { "data", '\0', POPT_ARG_STRING, &opt_data, 0,
    "with --script: write the data to FILE and reference it", "FILE" },
  { "fit", '\0', POPT_ARG_STRING, &opt_fit, 0,
    "draw a fitted model over each series: hyperbolic or linear", "MODEL" },
  { "params", 'p', POPT_ARG_STRING, &opt_params, 0,
    "with --fit: the model's parameters (a and b, or alpha and beta) from "
    "a row of FILE, drawn instead of fitted", "FILE" },
  { "where", '\0', POPT_ARG_STRING, &opt_where, 0,
    "the --params row to use, by key columns", "KEY=VALUE[,...]" },
  { "set", 's', POPT_ARG_STRING, NULL, 1,
    "with --fit: the model's parameters by name, above --params "
    "(repeatable)", "NAME=VALUE[,...]" },
  { "segments", '\0', POPT_ARG_STRING, &opt_segments, 0,
    "with --fit: one fit per protocol segment, K segments or auto (as "
    "hyper-reduce fit; default 1)", "K|auto" },
  { "max-points", '\0', POPT_ARG_LONG, &opt_max_points, 0,
    "draw every k-th point of a series above N points (the fit uses all; "
    "default 100000, 0: draw all)", "N" },
  { "overlay", '\0', POPT_ARG_STRING, &opt_overlay, 0,
    "draw a second stream over the first (dashed lines)", "FILE" },
  { "overlay-x", '\0', POPT_ARG_STRING, &opt_overlay_x, 0,
    "x column of the overlay (default: as -x)", "COL" },
  { "overlay-y", '\0', POPT_ARG_STRING, &opt_overlay_y, 0,
    "y column(s) of the overlay (default: as -y)", "COL[,COL...]" },
  { "gantt", '\0', POPT_ARG_NONE, &opt_gantt, 0,
    "Gantt chart of dag-predict --gantt (proc, start, end, kind)", NULL },
  { "matrix", '\0', POPT_ARG_NONE, &opt_matrix, 0,
    "heat map of src, dst and a value column (-y)", NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* ---------------------------------------------------------------- memory */

/* Split "a,b,c" into a NULL-terminated array; empty items are a usage
   error naming OPTION.  */
static char **
split_list (const char *option, const char *text, size_t *n)
{
  char **v = NULL;
  size_t k = 0;
  const char *p = text;
  for (;;)
    {
      const char *e = strchr (p, ',');
      size_t len = e ? (size_t) (e - p) : strlen (p);
      if (len == 0)
        die_usage ("%s: empty column name in '%s'", option, text);
      v = xrealloc (v, (k + 2) * sizeof *v);
      v[k] = xrealloc (NULL, len + 1);
      memcpy (v[k], p, len);
      v[k][len] = '\0';
      k++;
      if (!e)
        break;
      p = e + 1;
    }
  v[k] = NULL;
  *n = k;
  return v;
}

static void
free_list (char **v)
{
  if (!v)
    return;
  for (size_t i = 0; v[i]; i++)
    free (v[i]);
  free (v);
}

/* ---------------------------------------------------------------- data */

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
};

static struct group *
group_get (struct dataset *ds, const char *key)
{
  for (size_t i = ds->ng; i-- > 0;)
    if (strcmp (ds->g[i].key, key) == 0)
      return &ds->g[i];
  if (ds->ng == MAX_GROUPS)
    return NULL;
  ds->g = xrealloc (ds->g, (ds->ng + 1) * sizeof *ds->g);
  struct group *g = &ds->g[ds->ng++];
  g->key = xstrdup (key);
  g->v = NULL;
  g->n = g->cap = 0;
  g->text = NULL;
  g->tlen = g->tcap = 0;
  g->pline[0] = g->pline[1] = 0;
  return g;
}

static double *
group_push (struct dataset *ds, struct group *g)
{
  if (g->n == g->cap)
    {
      g->cap = g->cap ? 2 * g->cap : 64;
      g->v = xrealloc (g->v, g->cap * ds->stride * sizeof *g->v);
    }
  ds->rows++;
  return g->v + g->n++ * ds->stride;
}

/* Append to G's data text the fields COL[0..N-1] of R's current row, which
   tsv_num has accepted: a number as the stream wrote it (a strict decimal
   or scientific literal, which gnuplot reads as the same value) or NA.  */
static void
group_text (struct group *g, const tsv_reader *r, const size_t *col,
            size_t n)
{
  size_t need = 0;
  for (size_t i = 0; i < n; i++)
    need += tsv_field_len (r, col[i]) + 1;
  if (g->tlen + need + 1 > g->tcap)
    {
      size_t cap = g->tcap ? g->tcap : 4096;
      while (cap < g->tlen + need + 1)
        cap *= 2;
      g->text = xrealloc (g->text, cap);
      g->tcap = cap;
    }
  for (size_t i = 0; i < n; i++)
    {
      size_t len = tsv_field_len (r, col[i]);
      memcpy (g->text + g->tlen, tsv_field (r, col[i]), len);
      g->tlen += len;
      g->text[g->tlen++] = i + 1 < n ? ' ' : '\n';
    }
}

static void
dataset_free (struct dataset *ds)
{
  for (size_t i = 0; i < ds->ng; i++)
    {
      free (ds->g[i].key);
      free (ds->g[i].v);
      free (ds->g[i].text);
    }
  free (ds->g);
}

/* gnuplot takes any value of magnitude DBL_MAX/2 or more for undefined
   (VERYLARGE in its syscfg.h) and leaves the point out: say so, once.  */
static double
drawable (const tsv_reader *r, size_t col, double v)
{
  if (fabs (v) >= DBL_MAX / 2 && !isnan (v))
    warn_once ("verylarge", "%s:%ld:%zu: column '%s': '%s' is beyond "
               "gnuplot's range (magnitude below about 8.9e307): such "
               "points are left out of the plot (rescale the column)",
               tsv_name (r), tsv_lineno (r), col + 1, tsv_colname (r, col),
               tsv_field (r, col));
  return v;
}

/* The open inputs, kept for the time unit check (metadata may follow
   rows).  */
static tsv_reader **readers;
static size_t nreaders;

static tsv_reader *
open_input (const char *path)
{
  tsv_reader *r = tsv_open (path);
  readers = xrealloc (readers, (nreaders + 1) * sizeof *readers);
  readers[nreaders++] = r;
  return r;
}

static const char *
base_name (const char *path)
{
  const char *s = strrchr (path, '/');
  return s ? s + 1 : path;
}

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
};

/* Without -y: the time column of the stream, by the names the msgperf
   programs write (the first input decides), else t.  */
static void
default_y (const tsv_reader *r, struct xyspec *sp)
{
  static const char *const names[] = {
    "t", "time", "makespan", "t_mean", "rtt", "g", "measured", NULL
  };
  for (size_t i = 0; names[i]; i++)
    if (tsv_col (r, names[i]) >= 0)
      {
        sp->y = split_list ("-y", names[i], &sp->ny);
        return;
      }
  /* none: the usual error for a missing 't', with the columns there are */
  sp->y = split_list ("-y", "t", &sp->ny);
}

/* --fit's parameters: a and b (hyperbolic) or alpha and beta (linear).  */
static int fit_ids[2] = { PARAM_A, PARAM_B };

/* Parameter I of --fit in column C of R's row, for series G: NA leaves
   it to --set and --params; a series has one curve, so its rows must
   agree.  */
static void
fit_column (const tsv_reader *r, size_t c, int i, struct group *g)
{
  if (tsv_is_na (r, c))
    return;
  double v = tsv_num (r, c, 0);
  int k = fit_ids[i];
  if (!param_in_range (k, v))
    tsv_die_field (r, c, "'%s' is out of range (%s expected for %s)",
                   tsv_field (r, c), param_range_text (k),
                   param_defs[k].help);
  if (g->pline[i] && v != g->pv[i])
    tsv_die_field (r, c, "'%s' differs from the series' %s at line %ld: "
                   "one series, one curve (separate them with --by)",
                   tsv_field (r, c), param_defs[k].name, g->pline[i]);
  if (!g->pline[i])
    {
      g->pv[i] = v;
      g->pline[i] = tsv_lineno (r);
      g->pcol[i] = (long) c + 1;
      g->pfile = tsv_name (r);
    }
}

/* Read the XY columns of PATH into DS (stride 1 + ny [+ 2]).  */
static void
read_xy (const char *path, struct xyspec *sp, struct dataset *ds)
{
  tsv_reader *r = open_input (path);
  if (!sp->y)
    default_y (r, sp);
  size_t nc = 1 + sp->ny + (sp->lo ? 2 : 0);
  /* Static: still reachable when a bad row ends the program.  */
  static size_t *col;
  col = xrealloc (NULL, nc * sizeof *col);
  size_t k = 0;
  col[k++] = tsv_col_required (r, sp->x);
  for (size_t j = 0; j < sp->ny; j++)
    col[k++] = tsv_col_required (r, sp->y[j]);
  if (sp->lo)
    {
      col[k++] = tsv_col_required (r, sp->lo);
      col[k++] = tsv_col_required (r, sp->hi);
    }
  long bycol = -1;
  if (sp->by)
    bycol = sp->by_optional ? tsv_col (r, sp->by)
      : (long) tsv_col_required (r, sp->by);
  sp->by_used |= bycol >= 0;
  long labcol = -1;
  const char *source = "";
  if (!sp->by && sp->by_source)
    {
      labcol = tsv_col (r, "label");
      if (labcol < 0 && sp->by_source > 1)
        source = base_name (path);
      sp->source_used |= labcol >= 0 || source[0];
    }
  if (labcol >= 0)
    bycol = labcol;
  /* --fit's parameters in the stream's own columns (the main inputs) */
  long pc[2] = { -1, -1 };
  if (opt_fit && !sp->by_optional)
    for (int i = 0; i < 2; i++)
      pc[i] = tsv_col (r, param_defs[fit_ids[i]].name);
  ds->stride = nc;
  struct group *last = NULL;
  while (tsv_next (r))
    {
      const char *key = bycol >= 0 ? tsv_field (r, (size_t) bycol) : source;
      struct group *g = last && strcmp (last->key, key) == 0
        ? last : group_get (ds, key);
      if (!g && bycol < 0)
        die ("%s: more than %d inputs: one series each is too many (give "
             "--by COLUMN)", tsv_name (r), MAX_GROUPS);
      if (!g)
        tsv_die_field (r, (size_t) bycol,
                       "more than %d distinct values: --by is for a few "
                       "series", MAX_GROUPS);
      last = g;
      double *row = group_push (ds, g);
      for (size_t i = 0; i < nc; i++)
        row[i] = drawable (r, col[i], tsv_num (r, col[i], 1));
      group_text (g, r, col, nc);
      for (int i = 0; i < 2; i++)
        if (pc[i] >= 0)
          fit_column (r, (size_t) pc[i], i, g);
    }
  free (col);
  col = NULL;
}

/* dag-predict --gantt: proc, start, end, kind.  One group per kind, in
   this order; rows are start, end, proc.  */
static const char *const gantt_kinds[] = { "compute", "send", "recv", "wait" };
static const char *const gantt_colors[] = {
  "#4c72b0", "#dd8452", "#55a868", "#c0c0c0"
};
enum { NKINDS = 4 };

static void
read_gantt (const char *path, struct dataset *ds)
{
  tsv_reader *r = open_input (path);
  size_t cproc = tsv_col_required (r, "proc");
  size_t cstart = tsv_col_required (r, "start");
  size_t cend = tsv_col_required (r, "end");
  size_t ckind = tsv_col_required (r, "kind");
  ds->stride = 3;
  if (ds->ng == 0)
    for (size_t i = 0; i < NKINDS; i++)
      group_get (ds, gantt_kinds[i]);
  while (tsv_next (r))
    {
      const char *kind = tsv_field (r, ckind);
      size_t i = 0;
      while (i < NKINDS && strcmp (kind, gantt_kinds[i]) != 0)
        i++;
      if (i == NKINDS)
        tsv_die_field (r, ckind, "unknown kind '%s' (expected compute, "
                       "send, recv or wait)", kind);
      double *row = group_push (ds, &ds->g[i]);
      row[0] = drawable (r, cstart, tsv_num (r, cstart, 0));
      row[1] = drawable (r, cend, tsv_num (r, cend, 0));
      row[2] = tsv_num (r, cproc, 0);
      size_t col[3] = { cstart, cend, cproc };
      group_text (&ds->g[i], r, col, 3);
      if (row[1] < row[0])
        tsv_die_field (r, cend, "end %s is before start %s",
                       tsv_field (r, cend), tsv_field (r, cstart));
    }
}

/* logp-measure --all-pairs: src, dst, VALUE.  */
static void
read_matrix (const char *path, const char *value, struct dataset *ds)
{
  tsv_reader *r = open_input (path);
  size_t csrc = tsv_col_required (r, "src");
  size_t cdst = tsv_col_required (r, "dst");
  size_t cval = tsv_col_required (r, value);
  ds->stride = 3;
  struct group *g = group_get (ds, "");
  while (tsv_next (r))
    {
      double *row = group_push (ds, g);
      row[0] = tsv_num (r, csrc, 0);
      row[1] = tsv_num (r, cdst, 0);
      row[2] = drawable (r, cval, tsv_num (r, cval, 1));
      size_t col[3] = { csrc, cdst, cval };
      group_text (g, r, col, 3);
    }
}

static int
cmp_pair (const void *a, const void *b)
{
  const double *x = a, *y = b;
  if (x[0] != y[0])
    return x[0] < y[0] ? -1 : 1;
  return (x[1] > y[1]) - (x[1] < y[1]);
}

/* A heat map has one value per (src, dst) pair: a stream with several
   (one row per message size, as logp-measure --all-pairs writes) is an
   error that says how to choose.  */
static void
check_pairs_unique (const struct dataset *ds, const char *value)
{
  const struct group *g = &ds->g[0];
  double *p = xrealloc (NULL, 2 * g->n * sizeof *p);
  for (size_t i = 0; i < g->n; i++)
    {
      p[2 * i] = g->v[i * ds->stride];
      p[2 * i + 1] = g->v[i * ds->stride + 1];
    }
  qsort (p, g->n, 2 * sizeof *p, cmp_pair);
  for (size_t i = 1; i < g->n; i++)
    if (p[2 * i] == p[2 * i - 2] && p[2 * i + 1] == p[2 * i - 1])
      {
        char s[NUM_BUFSIZE], d[NUM_BUFSIZE];
        num_format (p[2 * i], -1, s);
        num_format (p[2 * i + 1], -1, d);
        free (p);
        die ("--matrix: the pair src=%s dst=%s has several '%s' values "
             "(one row per pair is needed: select one message size first, "
             "e.g. with awk)", s, d, value);
      }
  free (p);
}

/* Rows of G with finite values in columns A and B.  */
static size_t
count_finite (const struct dataset *ds, const struct group *g, size_t a,
              size_t b)
{
  size_t n = 0;
  for (size_t i = 0; i < g->n; i++)
    {
      const double *row = g->v + i * ds->stride;
      n += isfinite (row[a]) && isfinite (row[b]);
    }
  return n;
}

/* Are all values of column C integers within a span of at most 40?  */
static int
small_integer_column (const struct dataset *ds, size_t c)
{
  double lo = INFINITY, hi = -INFINITY;
  for (size_t k = 0; k < ds->ng; k++)
    for (size_t i = 0; i < ds->g[k].n; i++)
      {
        double v = ds->g[k].v[i * ds->stride + c];
        if (!isfinite (v))
          continue;
        if (v != floor (v))
          return 0;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
  return lo <= hi && hi - lo <= 40;
}

/* ---------------------------------------------------------------- text */

static struct plot_text datatext;

static void
text_add (struct plot_text *t, const char *s, size_t n)
{
  if (t->len + n + 1 > t->cap)
    {
      size_t cap = t->cap ? t->cap : 4096;
      while (cap < t->len + n + 1)
        cap *= 2;
      t->s = xrealloc (t->s, cap);
      t->cap = cap;
    }
  memcpy (t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
}

/* G's rows above --max-points: every k-th line of its text, and the
   last, so that gnuplot draws about that many points (it slows down
   well before a million; the fit still sees every point).  */
static void
emit_thinned (const struct group *g)
{
  size_t k = (g->n + (size_t) opt_max_points - 1) / (size_t) opt_max_points;
  warn ("%s%s%zu points in one series: 1 in %zu drawn (--max-points 0 "
        "draws them all)", g->key, g->key[0] ? ": " : "", g->n, k);
  const char *p = g->text, *end = g->text + g->tlen;
  for (size_t i = 0; p < end; i++)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      size_t len = (size_t) (nl - p) + 1;
      if (i % k == 0 || i + 1 == g->n)
        text_add (&datatext, p, len);
      p += len;
    }
}

/* Append the groups of DS as blocks (separated by two blank lines, which
   gnuplot numbers with "index").  Returns the number of blocks written;
   empty groups are skipped and their index set to SIZE_MAX.  */
static size_t
emit_blocks (const struct dataset *ds, size_t first_block, size_t *index)
{
  size_t b = first_block;
  for (size_t k = 0; k < ds->ng; k++)
    {
      const struct group *g = &ds->g[k];
      if (g->n == 0)
        {
          index[k] = SIZE_MAX;
          continue;
        }
      if (b > 0)
        text_add (&datatext, "\n\n", 2);
      index[k] = b++;
      if (opt_max_points > 0 && g->n > (size_t) opt_max_points)
        emit_thinned (g);
      else
        text_add (&datatext, g->text, g->tlen);
    }
  return b - first_block;
}

/* Strings made here (titles, labels), freed at the end.  */
static char **owned;
static size_t nowned;

static char *
own (char *s)
{
  owned = xrealloc (owned, (nowned + 1) * sizeof *owned);
  owned[nowned++] = s;
  return s;
}

static char *
xasprintf (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
static char *
xasprintf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (NULL, 0, fmt, ap);
  va_end (ap);
  if (n < 0)
    die ("out of memory");
  char *s = xrealloc (NULL, (size_t) n + 1);
  va_start (ap, fmt);
  vsnprintf (s, (size_t) n + 1, fmt, ap);
  va_end (ap);
  return own (s);
}

static char *
axis_label (char **names, size_t n, const char *unit)
{
  size_t len = 1;
  for (size_t i = 0; i < n; i++)
    len += strlen (names[i]) + 2;
  char *s = xrealloc (NULL, len);
  s[0] = '\0';
  int time = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (i)
        strcat (s, ", ");
      strcat (s, names[i]);
      time |= !tsv_is_count_name (names[i]);
    }
  if (unit && time)
    {
      char *t = xasprintf ("%s (%s)", s, unit);
      free (s);
      return t;
    }
  return own (s);
}


/* ---------------------------------------------------------------- fits */

/* Fit the model KIND to the finite points (column 0, column YC) of G with
   hyper-reduce's fit (common/models/hyper/hyperfit.c: eq. (2) of the hyperbolic-model
   paper, or Hockney's alpha + beta x) and describe the curve in *C.  A
   series that cannot be fitted gets a warning and no curve.  */
static size_t fit_segments = 1;    /* --segments: K, or 0 for auto */

/* --fit's parameters below the series' columns: --params FILE (one
   row, --where), then --set (msgperf(7), PARAMETERS).  */
static struct param_set fit_base;
static struct param_file *fit_file;

/* --set NAME=VALUE (cli_parse's handler).  */
static void
set_handler (int val, poptContext con)
{
  char *arg = poptGetOptArg (con);
  if (val == 1)
    {
      static const unsigned char fit_params[PARAM_NPARAM] = {
        [PARAM_A] = 1, [PARAM_B] = 1, [PARAM_ALPHA] = 1, [PARAM_BETA] = 1
      };
      param_set_parse (&p_set, arg, "--set", fit_params);
    }
  free (arg);
}

/* The options that go with --fit's parameters.  */
static void
fit_options (void)
{
  static const int all[4] = { PARAM_A, PARAM_B, PARAM_ALPHA, PARAM_BETA };
  int given = 0;
  for (int i = 0; i < 4; i++)
    if (param_given (&p_set, all[i]))
      {
        given = 1;
        if (!opt_fit)
          die_usage ("--set %s: the parameters are --fit's: give --fit",
                     param_defs[all[i]].name);
        if (all[i] != fit_ids[0] && all[i] != fit_ids[1])
          die_usage ("--set %s: --fit %s takes %s and %s", param_defs[all[i]]
                     .name, opt_fit, param_defs[fit_ids[0]].name,
                     param_defs[fit_ids[1]].name);
      }
  if ((opt_params || opt_where) && !opt_fit)
    die_usage ("--params gives --fit's parameters: give --fit");
  if (opt_where && !opt_params)
    die_usage ("--where selects rows of --params FILE: give --params");
  if (opt_segments && (opt_params || given))
    die_usage ("--segments fits one curve per segment: not with the "
               "parameters of one curve (--params, --set)");
}

/* --params FILE in the inputs' time UNIT (s, ms, us, ns convert; a file
   without #@time_unit beside inputs with one is an error), then --set.  */
static void
fit_params_read (const char *unit)
{
  param_set_clear (&fit_base);
  if (opt_params)
    {
      fit_file = param_file_read (opt_params);
      size_t *rows;
      param_file_select (fit_file, opt_where, 0, NULL, &rows);
      const char *pu = fit_file->time_unit;
      double scale = 1;
      if (!pu && unit)
        die ("%s: no #@time_unit line, and the plotted times are in %s: "
             "declare the file's unit with a '#@time_unit=UNIT' line (s, "
             "ms, us, ns)", fit_file->name, unit);
      if (pu && unit && param_time_scale (pu, unit, &scale) != 0)
        die ("%s: its times are in %s and the plotted times in %s: only s, "
             "ms, us and ns convert", fit_file->name, pu, unit);
      unsigned char use[PARAM_NPARAM] = { 0 };
      use[fit_ids[0]] = use[fit_ids[1]] = 1;
      param_file_apply (fit_file, rows[0], &fit_base, scale, use);
      free (rows);
    }
  param_set_over (&fit_base, &p_set);
}

/* The parameters of series G's curve: the series' columns above --set
   above --params.  Returns 0 when none is given (fit them), 1 with both
   in P; one NA or missing while the other is given is the NA policy's
   error.  */
static int
fit_given (const struct group *g, double p[2])
{
  struct param_set ps = fit_base;
  for (int i = 0; i < 2; i++)
    if (g->pline[i])
      {
        int k = fit_ids[i];
        param_set_value (&ps, k, g->pv[i], PORIGIN_ROW);
        ps.file[k] = g->pfile;
        ps.line[k] = g->pline[i];
        ps.col[k] = g->pcol[i];
      }
  int any = 0;
  for (int i = 0; i < 2; i++)
    any |= param_given (&ps, fit_ids[i]) || ps.na[fit_ids[i]];
  if (!any)
    return 0;
  for (int i = 0; i < 2; i++)
    {
      char hint[64];
      snprintf (hint, sizeof hint, "--set %s=VALUE",
                param_defs[fit_ids[i]].name);
      p[i] = param_need (&ps, fit_ids[i], hint);
    }
  return 1;
}

/* A number for a legend: 4 significant digits.  */
static const char *
legend_num (double v)
{
  char b[NUM_BUFSIZE];
  num_format (v, 4, b);
  return xasprintf ("%s", b);
}

static void
add_fit (const struct dataset *ds, const struct group *g, size_t yc,
         enum plot_curve_kind kind, const char *title, unsigned linetype,
         struct plot_curve *c, size_t *nc)
{
  double given[2];
  if (fit_given (g, given))
    {
      if (fit_segments != 1)
        die_usage ("--segments fits one curve per segment: not with the "
                   "series' own %s and %s columns",
                   param_defs[fit_ids[0]].name, param_defs[fit_ids[1]].name);
      const char *p1 = legend_num (given[0]), *p2 = legend_num (given[1]);
      c[0] = (struct plot_curve) {
        .kind = kind, .p1 = given[0], .p2 = given[1],
        .linetype = linetype,
        .title = kind == PLOT_CURVE_LINEAR
          ? xasprintf ("%s: alpha=%s beta=%s (given)", title, p1, p2)
          : xasprintf ("%s: a=%s b=%s (given)", title, p1, p2) };
      *nc += 1;
      return;
    }
  double *x = xrealloc (NULL, g->n * sizeof *x);
  double *t = xrealloc (NULL, g->n * sizeof *t);
  size_t n = 0;
  for (size_t i = 0; i < g->n; i++)
    {
      const double *row = g->v + i * ds->stride;
      if (isfinite (row[0]) && isfinite (row[yc]))
        {
          x[n] = row[0];
          t[n] = row[yc];
          n++;
        }
    }
  struct hfit_options opt = {
    .model = kind == PLOT_CURVE_LINEAR ? HFIT_LINEAR : HFIT_HYPERBOLIC,
    .weight = HFIT_WEIGHT_RELATIVE
  };
  struct hfit_result res[MAX_SEGMENTS];
  double breaks[MAX_SEGMENTS];
  size_t k = 1;
  enum hfit_status st;
  if (fit_segments == 1)
    st = hfit_fit (x, t, n, &opt, &res[0]);
  else
    st = hfit_segments_search (x, t, n, fit_segments,
                               fit_segments ? fit_segments : MAX_SEGMENTS,
                               &opt, &k, breaks, res);
  free (x);
  free (t);
  const char *model = kind == PLOT_CURVE_LINEAR ? "linear" : "hyperbolic";
  if (st == HFIT_NO_MEMORY)
    die ("series '%s': %s", title, hfit_strerror (st));
  if (st != HFIT_OK)
    {
      warn ("series '%s': no %s fit: %s", title, model, hfit_strerror (st));
      return;
    }
  for (size_t i = 0; i < k; i++)
    {
      /* segment i holds breaks[i-1] <= x < breaks[i] (hyperfit.h) */
      const char *range = k == 1 ? ""
        : i == 0 ? xasprintf (", x < %s", legend_num (breaks[0]))
        : i + 1 == k ? xasprintf (", x >= %s", legend_num (breaks[i - 1]))
        : xasprintf (", %s <= x < %s", legend_num (breaks[i - 1]),
                     legend_num (breaks[i]));
      const char *p1 = legend_num (res[i].p[0]), *p2 = legend_num (res[i].p[1]);
      c[i] = (struct plot_curve) {
        .kind = kind, .p1 = res[i].p[0], .p2 = res[i].p[1],
        .linetype = linetype,
        .has_lo = k > 1 && i > 0, .lo = i > 0 ? breaks[i - 1] : 0,
        .has_hi = k > 1 && i + 1 < k, .hi = i + 1 < k ? breaks[i] : 0,
        .title = kind == PLOT_CURVE_LINEAR
          ? xasprintf ("%s%s: alpha=%s beta=%s", title, range, p1, p2)
          : xasprintf ("%s%s: a=%s b=%s", title, range, p1, p2) };
    }
  *nc += k;
}

/* ---------------------------------------------------------------- files */

/* Temporary files also go when an interrupt (^C, a kill) ends the
   program while gnuplot draws: err.h's cleanup runs only on die().  */
#define MAX_TEMPS 4
static const char *volatile temps[MAX_TEMPS];

static void
on_signal (int sig)
{
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (temps[i])
      unlink (temps[i]);
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
temp_add (const char *path)
{
  static int installed;
  if (!installed)
    {
      static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
      for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        {
          struct sigaction sa;
          memset (&sa, 0, sizeof sa);
          sa.sa_handler = on_signal;
          sigemptyset (&sa.sa_mask);
          sigaction (sigs[i], &sa, NULL);
        }
      installed = 1;
    }
  err_cleanup_add (path);
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (!temps[i])
      {
        temps[i] = path;
        return;
      }
}

static void
temp_remove (const char *path)
{
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (temps[i] == path)
      temps[i] = NULL;
  err_cleanup_remove (path);
}

/* A temporary file beside PATH ("DIR/.NAME.XXXXXX"), registered for
   removal if the program dies.  Dies naming PATH when the directory does
   not exist or is not writable.  */
static char *
temp_beside (const char *path)
{
  const char *base = base_name (path);
  size_t dirlen = (size_t) (base - path);
  char *tmp = xasprintf ("%.*s.%s.XXXXXX", (int) dirlen, path, base);
  int fd = mkstemp (tmp);
  if (fd < 0)
    die ("cannot create '%s': %s", path, strerror (errno));
  close (fd);
  temp_add (tmp);
  return tmp;
}

/* Give TMP the usual permissions of a new file and rename it to PATH.  */
static void
commit_temp (char *tmp, const char *path)
{
  mode_t mask = umask (0);
  umask (mask);
  if (chmod (tmp, 0666 & ~mask) != 0 || rename (tmp, path) != 0)
    die ("cannot write '%s': %s", path, strerror (errno));
  temp_remove (tmp);
}

static void
write_all (int fd, const char *s, size_t n, const char *what)
{
  while (n > 0)
    {
      ssize_t w = write (fd, s, n);
      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          die ("cannot write %s: %s", what, strerror (errno));
        }
      s += w;
      n -= (size_t) w;
    }
}

static void
write_file (const char *path, const char *s, size_t n)
{
  char *tmp = temp_beside (path);
  int fd = open (tmp, O_WRONLY | O_TRUNC);
  if (fd < 0)
    die ("cannot write '%s': %s", path, strerror (errno));
  write_all (fd, s, n, path);
  if (close (fd) != 0)
    die ("cannot write '%s': %s", path, strerror (errno));
  commit_temp (tmp, path);
}

/* ---------------------------------------------------------------- gnuplot */

/* The gnuplot program: $GNUPLOT, else the one configure found.  */
static const char *
gnuplot_program (void)
{
  const char *gp = getenv ("GNUPLOT");
  return gp && *gp ? gp : GNUPLOT_PATH;
}

/* Run gnuplot on SCRIPT, written to a temporary file first: gnuplot reads
   a file much faster than a pipe, whose lines it takes a few bytes at a
   time.  gnuplot's standard output is ours (the dumb terminal).  Dies
   when gnuplot cannot be started or fails.  */

/* Why PROGRAM cannot be executed, as posix_spawnp would say (an errno
   value), or 0 when it looks executable.  Some posix_spawnp
   implementations (a fork-based fallback, or under valgrind) report a
   failed exec only as the child's exit status 127, without the reason.  */
static int
exec_failure (const char *program)
{
  if (strchr (program, '/'))
    return access (program, X_OK) == 0 ? 0 : errno;
  const char *path = getenv ("PATH");
  if (!path || !*path)
    path = "/bin:/usr/bin";
  int why = ENOENT;
  while (*path)
    {
      size_t n = strcspn (path, ":");
      /* An empty element is the current directory.  */
      char *full = n ? xasprintf ("%.*s/%s", (int) n, path, program)
                     : xasprintf ("./%s", program);
      int ok = access (full, X_OK) == 0;
      if (!ok && errno == EACCES)
        why = EACCES;
      free (full);
      if (ok)
        return 0;
      path += n + (path[n] == ':');
    }
  return why;
}

static void
run_gnuplot (const char *script, size_t len)
{
  const char *gp = gnuplot_program ();
  const char *dir = getenv ("TMPDIR");
  char *path = xasprintf ("%s/plotgen.XXXXXX.gp", dir && *dir ? dir : "/tmp");
  int fd = mkstemps (path, 3);
  if (fd < 0)
    die ("cannot create a temporary file in '%s': %s",
         dir && *dir ? dir : "/tmp", strerror (errno));
  temp_add (path);
  write_all (fd, script, len, "the gnuplot script");
  if (close (fd) != 0)
    die ("cannot write the gnuplot script: %s", strerror (errno));

  posix_spawnattr_t attr;
  sigset_t def;
  posix_spawnattr_init (&attr);
  sigemptyset (&def);
  sigaddset (&def, SIGPIPE);
  posix_spawnattr_setsigdefault (&attr, &def);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGDEF);
  /* -d: ignore the user's ~/.gnuplot, so that it cannot change a result */
  char *argv[] = { (char *) gp, (char *) "-d", path, NULL };
  fflush (stdout);
  pid_t pid;
  int rc = posix_spawnp (&pid, gp, NULL, &attr, argv, environ);
  posix_spawnattr_destroy (&attr);
  if (rc != 0)
    {
      if (rc == ENOENT || rc == EACCES || rc == ENOTDIR)
        die ("cannot run gnuplot '%s': %s; install it (Debian/Ubuntu: "
             "apt-get install gnuplot-nox) or set GNUPLOT to its path",
             gp, strerror (rc));
      die ("cannot run gnuplot '%s': %s", gp, strerror (rc));
    }
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      die ("cannot wait for gnuplot: %s", strerror (errno));
  unlink (path);
  temp_remove (path);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 127)
    {
      int why = exec_failure (gp);
      if (why)
        die ("cannot run gnuplot '%s': %s; install it (Debian/Ubuntu: "
             "apt-get install gnuplot-nox) or set GNUPLOT to its path",
             gp, strerror (why));
      die ("cannot run gnuplot '%s'; install it (Debian/Ubuntu: "
           "apt-get install gnuplot-nox) or set GNUPLOT to its path", gp);
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    die ("gnuplot failed (%s %d); nothing was written (plotgen --script "
         "shows the script)",
         WIFEXITED (status) ? "exit status" : "signal",
         WIFEXITED (status) ? WEXITSTATUS (status) : WTERMSIG (status));
}

/* ---------------------------------------------------------------- main */

static void
parse_size (const char *text, unsigned *w, unsigned *h, int dumb)
{
  const char *x = strchr (text, 'x');
  if (!x || x == text || !x[1])
    die_usage ("--size: '%s' is not WIDTHxHEIGHT (e.g. 800x600)", text);
  char *wt = xasprintf ("%.*s", (int) (x - text), text);
  int64_t lo = dumb ? 10 : 16;
  int64_t hi = dumb ? 1000 : 20000;
  /* cli_int adds the dashes ("----size" before).  */
  *w = (unsigned) cli_int ("size", wt, lo, hi);
  *h = (unsigned) cli_int ("size", x + 1, lo, hi);
}

/* Everything one run of plotgen reads and draws.  */
struct plotjob
{
  enum plot_mode mode;
  enum plot_draw draw;               /* style of the main series */
  enum plot_curve_kind fitkind;      /* --fit */
  struct plot_desc d;                /* what plot_script gets */
  struct dataset main_ds, over_ds;   /* the inputs, the --overlay */
  struct xyspec sp, osp;             /* their columns */
  char **errorbar_cols;
  const char *unit;                  /* the inputs' time unit */
  size_t *index;                     /* data block of each group */
  struct plot_series *series;
  struct plot_curve *curves;
  unsigned *main_lt;                 /* linetype of main series */
};

/* ---- what to draw: the mode and the options that go with it */
static void
choose_mode (struct plotjob *j)
{
  if (opt_gantt && opt_matrix)
    die_usage ("--gantt and --matrix cannot be used together");
  j->mode = opt_gantt ? PLOT_MODE_GANTT
    : opt_matrix ? PLOT_MODE_MATRIX : PLOT_MODE_XY;
  if (j->mode != PLOT_MODE_XY)
    {
      const char *m = opt_gantt ? "--gantt" : "--matrix";
      if (opt_x || opt_by || opt_errorbars || opt_fit || opt_overlay
          || opt_style || opt_logx || opt_logy)
        die_usage ("%s draws its own axes: -x, --by, --style, --errorbars, "
                   "--logx, --logy, --fit and --overlay do not apply", m);
      if (opt_gantt && opt_y)
        die_usage ("--gantt reads proc, start, end and kind: -y does not "
                   "apply");
    }
  if ((opt_overlay_x || opt_overlay_y) && !opt_overlay)
    die_usage ("--overlay-x and --overlay-y need --overlay FILE");
  j->draw = opt_fit ? PLOT_DRAW_POINTS : PLOT_DRAW_LINESPOINTS;
  if (opt_style && plot_draw_from_name (opt_style, &j->draw) != 0)
    die_usage ("--style: unknown style '%s' (lines, points, linespoints or "
               "steps)", opt_style);
  j->fitkind = PLOT_CURVE_HYPERBOLIC;
  if (opt_fit)
    {
      if (strcmp (opt_fit, "hyperbolic") == 0)
        j->fitkind = PLOT_CURVE_HYPERBOLIC;
      else if (strcmp (opt_fit, "linear") == 0)
        {
          j->fitkind = PLOT_CURVE_LINEAR;
          fit_ids[0] = PARAM_ALPHA;
          fit_ids[1] = PARAM_BETA;
        }
      else
        die_usage ("--fit: unknown model '%s' (hyperbolic or linear)",
                   opt_fit);
    }
  if (opt_segments && !opt_fit)
    die_usage ("--segments goes with --fit");
  fit_options ();
  if (opt_segments)
    fit_segments = strcmp (opt_segments, "auto") == 0 ? 0
      : (size_t) cli_int ("segments", opt_segments, 1, MAX_SEGMENTS);
  if (opt_max_points < 0)
    die_usage ("--max-points: %ld is negative (0 draws every point)",
               opt_max_points);
}

/* ---- where to draw it: the terminal and its size */
static void
choose_output (struct plot_desc *d)
{
  d->term = PLOT_TERM_DUMB;
  if (opt_output)
    {
      if (!*opt_output)
        die_usage ("-o: empty file name");
      if (plot_term_from_path (opt_output, &d->term) != 0)
        die_usage ("-o: cannot tell the format of '%s' (use a .png, .svg or "
                   ".pdf file name; without -o the plot is drawn as text)",
                   opt_output);
    }
  if (opt_data && !opt_script)
    die_usage ("--data FILE goes with --script");
  if (opt_data && !*opt_data)
    die_usage ("--data: empty file name");
  if (opt_size)
    parse_size (opt_size, &d->width, &d->height, d->term == PLOT_TERM_DUMB);
  else if (d->term == PLOT_TERM_DUMB)
    {
      struct winsize ws;
      d->width = 79;
      d->height = 24;
      if (!opt_script && isatty (STDOUT_FILENO)
          && ioctl (STDOUT_FILENO, TIOCGWINSZ, &ws) == 0
          && ws.ws_col >= 10 && ws.ws_row >= 10)
        {
          d->width = ws.ws_col;
          d->height = ws.ws_row - 1u;
        }
    }
  else
    {
      d->width = 800;
      d->height = 600;
    }
}

/* -x, -y, --by and --errorbars of an x-y plot.  */
static void
xy_columns (struct plotjob *j)
{
  struct xyspec *sp = &j->sp;
  sp->x = opt_x ? opt_x : "bytes";
  sp->ny = 1;                  /* without -y: one, chosen by default_y */
  if (opt_y)
    sp->y = split_list ("-y", opt_y, &sp->ny);
  sp->by = opt_by;
  if (!opt_errorbars)
    return;
  size_t n;
  char **lh = j->errorbar_cols = split_list ("--errorbars", opt_errorbars, &n);
  /* Freed before dying: no pointer to them may be left for the
     leak checker to miss (the fuzz/tool.c harness).  */
  if (n != 2)
    {
      free_list (lh);
      die_usage ("--errorbars: '%s' is not two columns LO,HI",
                 opt_errorbars);
    }
  if (sp->ny != 1)
    {
      free_list (lh);
      die_usage ("--errorbars goes with a single -y column");
    }
  sp->lo = lh[0];
  sp->hi = lh[1];
}

/* ---- read every input (and the overlay) */
static void
read_inputs (struct plotjob *j, const char **files)
{
  size_t nfiles = 0;
  while (files[nfiles])
    nfiles++;
  if (j->mode == PLOT_MODE_XY)
    {
      xy_columns (j);
      j->sp.by_source = nfiles > 1 ? 2 : 1;
      for (size_t i = 0; files[i]; i++)
        read_xy (files[i], &j->sp, &j->main_ds);
      if (opt_overlay)
        {
          struct xyspec *osp = &j->osp;
          osp->x = opt_overlay_x ? opt_overlay_x : j->sp.x;
          if (opt_overlay_y)
            osp->y = split_list ("--overlay-y", opt_overlay_y, &osp->ny);
          else
            {
              osp->y = j->sp.y;
              osp->ny = j->sp.ny;
            }
          osp->by = j->sp.by;
          osp->by_optional = 1;
          read_xy (opt_overlay, osp, &j->over_ds);
        }
    }
  else if (j->mode == PLOT_MODE_GANTT)
    for (size_t i = 0; files[i]; i++)
      read_gantt (files[i], &j->main_ds);
  else
    {
      if (!opt_y || strchr (opt_y, ','))
        die_usage ("--matrix needs one value column: -y COL");
      for (size_t i = 0; files[i]; i++)
        read_matrix (files[i], opt_y, &j->main_ds);
      if (j->main_ds.rows)
        check_pairs_unique (&j->main_ds, opt_y);
    }
  if (j->main_ds.rows == 0)
    {
      if (nfiles == 1)
        die ("%s: no rows to plot", tsv_name (readers[0]));
      die ("no rows to plot in the %zu inputs", nfiles);
    }
  if (opt_overlay && j->over_ds.rows == 0)
    warn ("%s: no rows: nothing to overlay", opt_overlay);
  j->unit = tsv_time_unit (readers, nreaders);
  if (opt_fit)
    fit_params_read (j->unit);
}

/* The series of the main inputs: one per group and -y column (with its
   error bars and fitted curve).  Returns the next free linetype.  */
static unsigned
xy_main_series (struct plotjob *j, size_t *ns, size_t *nc)
{
  const struct xyspec *sp = &j->sp;
  unsigned lt = 1;
  for (size_t k = 0; k < j->main_ds.ng; k++)
    for (size_t c = 0; c < sp->ny; c++)
      {
        const struct group *g = &j->main_ds.g[k];
        const char *title = sp->by
          ? (sp->ny > 1 ? xasprintf ("%s %s=%s", sp->y[c], sp->by, g->key)
             : xasprintf ("%s=%s", sp->by, g->key))
          : sp->source_used
          ? (sp->ny > 1 ? xasprintf ("%s %s", sp->y[c], g->key) : g->key)
          : sp->y[c];
        size_t good = count_finite (&j->main_ds, g, 0, 1 + c);
        if (good == 0)
          {
            warn ("series '%s' has no numeric point: not drawn", title);
            continue;
          }
        if (sp->lo)
          j->series[(*ns)++] = (struct plot_series) {
            .title = NULL, .block = j->index[k], .ycol = 2,
            .locol = 3, .hicol = 4, .draw = PLOT_DRAW_ERRORBARS,
            .linetype = lt };
        j->series[(*ns)++] = (struct plot_series) {
          .title = title, .block = j->index[k], .ycol = (unsigned) (2 + c),
          .draw = j->draw, .linetype = lt };
        j->main_lt[k * sp->ny + c] = lt;
        if (opt_fit)
          add_fit (&j->main_ds, g, 1 + c, j->fitkind, title, lt,
                   &j->curves[*nc], nc);
        lt++;
      }
  return lt;
}

/* The overlay's series, dashed, each in the colour of the main series it
   is compared with (same --by value, same position in -y).  */
static void
xy_overlay_series (struct plotjob *j, unsigned lt, size_t *ns)
{
  const struct xyspec *osp = &j->osp;
  size_t nmain = j->main_ds.ng;
  for (size_t k = 0; k < j->over_ds.ng; k++)
    for (size_t c = 0; c < osp->ny; c++)
      {
        const struct group *g = &j->over_ds.g[k];
        const char *name = base_name (opt_overlay);
        const char *title = osp->by_used
          ? xasprintf ("%s: %s %s=%s", name, osp->y[c], osp->by, g->key)
          : xasprintf ("%s: %s", name, osp->y[c]);
        if (count_finite (&j->over_ds, g, 0, 1 + c) == 0)
          {
            warn ("series '%s' has no numeric point: not drawn", title);
            continue;
          }
        unsigned olt = 0;
        for (size_t m = 0; m < nmain && !olt; m++)
          if (strcmp (j->main_ds.g[m].key, g->key) == 0)
            olt = j->main_lt[m * j->sp.ny + (c < j->sp.ny ? c : 0)];
        j->series[(*ns)++] = (struct plot_series) {
          .title = title, .block = j->index[nmain + k],
          .ycol = (unsigned) (2 + c), .draw = PLOT_DRAW_LINES,
          .linetype = olt ? olt : lt++, .dashed = 1 };
      }
}

/* ---- describe: data blocks, series, curves, axes */
static void
describe (struct plotjob *j)
{
  struct plot_desc *d = &j->d;
  const struct xyspec *sp = &j->sp;
  size_t nmain = j->main_ds.ng, nover = j->over_ds.ng;
  j->index = xrealloc (NULL, (nmain + nover + 1) * sizeof *j->index);
  size_t nblocks = emit_blocks (&j->main_ds, 0, j->index);
  if (nover)
    emit_blocks (&j->over_ds, nblocks, j->index + nmain);
  size_t maxseries = (nmain * sp->ny * 2) + (nover * j->osp.ny) + NKINDS + 1;
  j->series = xrealloc (NULL, maxseries * sizeof *j->series);
  j->curves = xrealloc (NULL, (nmain * sp->ny * MAX_SEGMENTS + 1)
                        * sizeof *j->curves);
  size_t ns = 0, nc = 0;
  j->main_lt = xrealloc (NULL, (nmain * sp->ny + 1) * sizeof *j->main_lt);
  memset (j->main_lt, 0, (nmain * sp->ny + 1) * sizeof *j->main_lt);
  const char *unit = j->unit;
  if (j->mode == PLOT_MODE_XY)
    {
      unsigned lt = xy_main_series (j, &ns, &nc);
      xy_overlay_series (j, lt, &ns);
      if (ns == 0)
        die ("nothing to plot: every value is NA");
      d->xlabel = opt_xlabel ? opt_xlabel
        : axis_label ((char **) &sp->x, 1, unit);
      d->ylabel = opt_ylabel ? opt_ylabel : axis_label (sp->y, sp->ny, unit);
      d->logx = opt_logx;
      d->logy = opt_logy;
    }
  else if (j->mode == PLOT_MODE_GANTT)
    {
      for (size_t k = 0; k < NKINDS; k++)
        if (j->index[k] != SIZE_MAX)
          j->series[ns++] = (struct plot_series) {
            .title = gantt_kinds[k], .block = j->index[k], .ycol = 3,
            .draw = PLOT_DRAW_BOXES, .color = gantt_colors[k] };
      d->xlabel = opt_xlabel ? opt_xlabel
        : unit ? xasprintf ("time (%s)", unit) : "time";
      d->ylabel = opt_ylabel ? opt_ylabel : "proc";
      d->integer_ytics = small_integer_column (&j->main_ds, 2);
    }
  else
    {
      j->series[ns++] = (struct plot_series) {
        .title = NULL, .block = 0, .ycol = 3, .draw = PLOT_DRAW_CELLS };
      d->xlabel = opt_xlabel ? opt_xlabel : "src";
      d->ylabel = opt_ylabel ? opt_ylabel : "dst";
      d->cblabel = axis_label (&opt_y, 1, unit);
      d->integer_xtics = small_integer_column (&j->main_ds, 0);
      d->integer_ytics = small_integer_column (&j->main_ds, 1);
    }
  d->title = opt_title;
  d->version = PROGRAM " (" PACKAGE_NAME ") " PACKAGE_VERSION;
  d->argv = cli.argv_line;
  d->series = j->series;
  d->nseries = ns;
  d->curves = j->curves;
  d->ncurves = nc;
  if (opt_data)
    d->data_file = opt_data;
  else
    {
      d->data = datatext.s;
      d->data_len = datatext.len;
    }
}

/* ---- draw: the script on stdout (--script), or gnuplot run on it into
   a temporary file renamed over -o FILE when gnuplot succeeded.  */
static void
draw (struct plot_desc *d)
{
  char *tmp = NULL;
  if (opt_output)
    {
      if (opt_script)
        d->output = opt_output;
      else
        d->output = tmp = temp_beside (opt_output);
    }
  struct plot_text script = { 0 };
  if (plot_script (d, &script) != 0)
    die ("cannot build the gnuplot script: out of memory");
  if (opt_script)
    {
      if (opt_data)
        write_file (opt_data, datatext.s, datatext.len);
      if (fwrite (script.s, 1, script.len, stdout) != script.len)
        die ("cannot write the script: %s", strerror (errno));
    }
  else
    {
      run_gnuplot (script.s, script.len);
      if (tmp)
        {
          struct stat st;
          if (stat (tmp, &st) != 0 || st.st_size == 0)
            die ("gnuplot wrote nothing to '%s'", opt_output);
          commit_temp (tmp, opt_output);
        }
    }
  plot_text_free (&script);
}

static void
plotjob_free (struct plotjob *j)
{
  dataset_free (&j->main_ds);
  dataset_free (&j->over_ds);
  free (j->series);
  free (j->curves);
  free (j->index);
  free (j->main_lt);
  if (j->osp.y != j->sp.y)
    free_list (j->osp.y);
  free_list (j->sp.y);
  free_list (j->errorbar_cols);
}

int
main (int argc, char **argv)
{
  cli_init (PROGRAM, argc, argv);
  param_set_clear (&p_set);
  poptContext con = cli_parse (argc, (const char **) argv, options,
                               "[FILE...]", set_handler);
  const char **files = poptGetArgs (con);
  static const char *const stdin_only[] = { "-", NULL };
  if (!files || !files[0])
    files = (const char **) stdin_only;

  struct plotjob j = { 0 };
  choose_mode (&j);
  j.d.mode = j.mode;
  choose_output (&j.d);
  read_inputs (&j, files);
  describe (&j);
  draw (&j.d);

  plot_text_free (&datatext);
  for (size_t i = 0; i < nreaders; i++)
    tsv_close (readers[i]);
  free (readers);
  plotjob_free (&j);
  param_file_free (fit_file);
  for (size_t i = 0; i < nowned; i++)
    free (owned[i]);
  free (owned);
  poptFreeContext (con);
  return 0;
}
