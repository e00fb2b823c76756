/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plotdata.c: plotgen's inputs read into numeric series (plotdata.h),
   and the series written as gnuplot's inline data.  */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "params.h"
#include "plotdata.h"
#include "xalloc.h"

static void text_add (struct plot_text *t, const char *s, size_t n);
static void text_num (struct plot_text *out, double v, const char *sep);
static void desc_add (struct plot_text *t, const char *s, size_t n);
static int cmp_double (const void *a, const void *b);

const char *const plot_gantt_kinds[PLOT_NKINDS] = { "compute", "send", "recv",
                                                    "wait" };

/* The open inputs, kept for the time unit check (metadata may follow
   rows).  */
tsv_reader **plot_readers;
size_t plot_nreaders;

/* Split "a,b,c" into a NULL-terminated array; empty items are a usage
   error naming OPTION.  */
char **
plot_split_list (const char *option, const char *text, size_t *n)
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

void
plot_free_list (char **v)
{
  if (!v)
    return;
  for (size_t i = 0; v[i]; i++)
    free (v[i]);
  free (v);
}

tsv_reader *
plot_open_input (const char *path)
{
  tsv_reader *r = tsv_open (path);
  plot_readers = xrealloc (plot_readers,
                           (plot_nreaders + 1) * sizeof *plot_readers);
  plot_readers[plot_nreaders++] = r;
  return r;
}

const char *
plot_base_name (const char *path)
{
  const char *s = strrchr (path, '/');
  return s ? s + 1 : path;
}

static struct group *
group_get (struct dataset *ds, const char *key)
{
  for (size_t i = ds->ng; i-- > 0;)
    if (strcmp (ds->g[i].key, key) == 0)
      return &ds->g[i];
  if (ds->ng == PLOT_MAX_GROUPS)
    return NULL;
  ds->g = xrealloc (ds->g, (ds->ng + 1) * sizeof *ds->g);
  struct group *g = &ds->g[ds->ng++];
  g->key = xstrdup (key);
  g->v = NULL;
  g->n = g->cap = 0;
  g->text = NULL;
  g->tlen = g->tcap = 0;
  g->pline[0] = g->pline[1] = 0;
  g->summary = 0;
  g->from_file = 0;
  g->source = plot_nreaders ? plot_nreaders - 1 : 0;
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

void
plot_dataset_free (struct dataset *ds)
{
  plot_free_list (ds->names);
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
        sp->y = plot_split_list ("-y", names[i], &sp->ny);
        return;
      }
  /* none: the usual error for a missing 't', with the columns there are */
  sp->y = plot_split_list ("-y", "t", &sp->ny);
}

/* Parameter I of --fit in column C of R's row, for series G: NA leaves
   it to --set and --params; a series has one curve, so its rows must
   agree.  */
static void
fit_column (const tsv_reader *r, size_t c, int i, struct group *g,
            const int *fit_ids)
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
void
plot_read_xy (const char *path, struct xyspec *sp, struct dataset *ds)
{
  tsv_reader *r = plot_open_input (path);
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
      /* the path keeps two files of one base name apart; the legend
         names neither (plot_source_title) */
      if (labcol < 0 && sp->by_source > 1)
        source = path;
      sp->source_used |= labcol >= 0 || source[0];
    }
  if (labcol >= 0)
    bycol = labcol;
  /* --fit's parameters in the stream's own columns (the main inputs) */
  long pc[2] = { -1, -1 };
  if (sp->fit_ids && !sp->by_optional)
    for (int i = 0; i < 2; i++)
      pc[i] = tsv_col (r, param_defs[sp->fit_ids[i]].name);
  ds->stride = nc;
  ds->xy = 1;
  struct group *last = NULL;
  while (tsv_next (r))
    {
      const char *key = bycol >= 0 ? tsv_field (r, (size_t) bycol) : source;
      struct group *g = last && strcmp (last->key, key) == 0
        ? last : group_get (ds, key);
      if (!g && bycol < 0)
        die ("%s: more than %d inputs: one series each is too many (give "
             "--by COLUMN)", tsv_name (r), PLOT_MAX_GROUPS);
      if (!g)
        tsv_die_field (r, (size_t) bycol,
                       "more than %d distinct values: --by is for a few "
                       "series", PLOT_MAX_GROUPS);
      last = g;
      if (g->n == 0)
        g->from_file = bycol < 0 && source[0];
      double *row = group_push (ds, g);
      for (size_t i = 0; i < nc; i++)
        row[i] = drawable (r, col[i], tsv_num (r, col[i], 1));
      group_text (g, r, col, nc);
      for (int i = 0; i < 2; i++)
        if (pc[i] >= 0)
          fit_column (r, (size_t) pc[i], i, g, sp->fit_ids);
    }
  free (col);
  col = NULL;
}

void
plot_read_gantt (const char *path, struct dataset *ds)
{
  tsv_reader *r = plot_open_input (path);
  size_t cproc = tsv_col_required (r, "proc");
  size_t cstart = tsv_col_required (r, "start");
  size_t cend = tsv_col_required (r, "end");
  size_t ckind = tsv_col_required (r, "kind");
  ds->stride = 3;
  if (ds->ng == 0)
    for (size_t i = 0; i < PLOT_NKINDS; i++)
      group_get (ds, plot_gantt_kinds[i]);
  while (tsv_next (r))
    {
      const char *kind = tsv_field (r, ckind);
      size_t i = 0;
      while (i < PLOT_NKINDS && strcmp (kind, plot_gantt_kinds[i]) != 0)
        i++;
      if (i == PLOT_NKINDS)
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

/* Column NAME of a --matrix input: a missing one is an error naming
   the file, the header's line and the columns there are.  */
static size_t
matrix_col (const tsv_reader *r, const char *name, const char *why)
{
  long c = tsv_col (r, name);
  if (c >= 0)
    return (size_t) c;
  struct plot_text t = { 0 };
  for (size_t i = 0; i < tsv_ncols (r); i++)
    desc_add (&t, tsv_colname (r, i), strlen (tsv_colname (r, i)));
  /* static: still reachable when die ends the program */
  static char *cols;
  cols = t.s;
  die ("%s:%ld: no column '%s': --matrix %s (columns: %s)", tsv_name (r),
       tsv_lineno (r), name, why, cols ? cols : "");
}

/* The host of each rank from #@hosts ("NAME:RANKS,..." in the order of
   the ranks, msgperf(7)), when each host has one rank: only then is the
   rank of each name known.  */
static void
matrix_names (const tsv_reader *r, struct dataset *ds)
{
  const char *h = tsv_meta_get (r, "hosts");
  if (!h || ds->names)
    return;
  char **v = NULL;
  size_t n = 0;
  for (const char *p = h; *p;)
    {
      size_t len = strcspn (p, ",");
      const char *colon = memchr (p, ':', len);
      if (!colon || colon == p || p + len != colon + 2 || colon[1] != '1')
        {
          plot_free_list (v);
          return;
        }
      v = xrealloc (v, (n + 2) * sizeof *v);
      v[n] = xrealloc (NULL, (size_t) (colon - p) + 1);
      memcpy (v[n], p, (size_t) (colon - p));
      v[n][colon - p] = '\0';
      v[++n] = NULL;
      p += len + (p[len] == ',');
    }
  ds->names = v;
  ds->nnames = n;
}

/* Field C of R's row as a rank: a whole number from 0, below the number
   of named hosts when there are names.  */
static double
matrix_rank (const tsv_reader *r, size_t c, const struct dataset *ds)
{
  double v = tsv_num (r, c, 0);
  if (v < 0 || v != floor (v) || v > 1e9)
    tsv_die_field (r, c, "'%s' is not a rank (a whole number from 0)",
                   tsv_field (r, c));
  if (ds->names && v >= (double) ds->nnames)
    tsv_die_field (r, c, "rank %s is not among the %zu hosts of #@hosts",
                   tsv_field (r, c), ds->nnames);
  return v;
}

/* pair-measure (logp-measure --all-pairs): src, dst, VALUE, and the
   partner pair with_src (NA when the pair was measured alone), which
   PAIRS selects on.  */
void
plot_read_matrix (const char *path, const char *value, enum plot_pairs pairs,
                  struct dataset *ds)
{
  tsv_reader *r = plot_open_input (path);
  const char *why = "draws the pairs src, dst and the -y column "
    "(pair-measure's stream)";
  size_t csrc = matrix_col (r, "src", why);
  size_t cdst = matrix_col (r, "dst", why);
  size_t cval = matrix_col (r, value, why);
  long cwith = -1;
  if (pairs == PLOT_PAIRS_ALONE || pairs == PLOT_PAIRS_CONCURRENT)
    cwith = (long) matrix_col (r, "with_src", "--pairs alone and "
                               "concurrent select rows by the partner "
                               "pair, with_src (NA: alone), which "
                               "pair-measure writes");
  else if (pairs == PLOT_PAIRS_DEFAULT)
    {
      cwith = tsv_col (r, "with_src");
      pairs = PLOT_PAIRS_ALONE;
    }
  matrix_names (r, ds);
  ds->stride = 3;
  struct group *g = group_get (ds, "");
  while (tsv_next (r))
    {
      if (cwith >= 0 && tsv_is_na (r, (size_t) cwith)
          != (pairs == PLOT_PAIRS_ALONE))
        continue;
      double *row = group_push (ds, g);
      row[0] = matrix_rank (r, csrc, ds);
      row[1] = matrix_rank (r, cdst, ds);
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

/* The value of a pair's rows V[0..N-1] (stride 3) under HOW, over the
   finite ones (NaN when none is).  */
static double
reduce_pair (double *v, size_t n, enum plot_reduce how, double *tmp)
{
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (isfinite (v[3 * i + 2]))
      tmp[m++] = v[3 * i + 2];
  if (m == 0)
    return NAN;
  qsort (tmp, m, sizeof *tmp, cmp_double);
  return how == PLOT_REDUCE_MIN ? tmp[0] : how == PLOT_REDUCE_MAX
    ? tmp[m - 1] : m % 2 ? tmp[m / 2] : (tmp[m / 2 - 1] + tmp[m / 2]) / 2;
}

/* A heat map has one value per (src, dst) pair.  A stream with several
   (one row per message size, or a pair measured beside each other pair)
   is reduced by HOW to one, its data text rewritten; without HOW, an
   error that says how to choose.  */
void
plot_matrix_reduce (struct dataset *ds, const char *value,
                    enum plot_reduce how)
{
  struct group *g = &ds->g[0];
  qsort (g->v, g->n, 3 * sizeof *g->v, cmp_pair);
  double *tmp = xrealloc (NULL, (g->n + 1) * sizeof *tmp);
  struct plot_text t = { 0 };
  size_t out = 0;
  for (size_t a = 0, b; a < g->n; a = b)
    {
      double *p = g->v + 3 * a;
      for (b = a + 1; b < g->n && cmp_pair (p, g->v + 3 * b) == 0; b++)
        ;
      if (b - a > 1 && how == PLOT_REDUCE_NONE)
        {
          char s[NUM_BUFSIZE], d[NUM_BUFSIZE];
          num_format (p[0], -1, s);
          num_format (p[1], -1, d);
          free (tmp);
          free (t.s);
          die ("--matrix: the pair src=%s dst=%s has %zu '%s' values, and "
               "a cell shows one: give --reduce min, median or max, or "
               "select the rows first (e.g. one message size, with awk)",
               s, d, b - a, value);
        }
      double v = reduce_pair (p, b - a, how, tmp);
      double *o = g->v + 3 * out++;
      o[0] = p[0];
      o[1] = p[1];
      o[2] = v;
      text_num (&t, o[0], "");
      text_num (&t, o[1], " ");
      text_num (&t, o[2], " ");
      text_add (&t, "\n", 1);
    }
  free (tmp);
  ds->rows = g->n = out;
  free (g->text);
  g->text = t.s;
  g->tlen = t.len;
  g->tcap = t.cap;
}

/* Rows of G with finite values in columns A and B.  */
size_t
plot_count_finite (const struct dataset *ds, const struct group *g, size_t a,
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
int
plot_small_integer_column (const struct dataset *ds, size_t c)
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
emit_thinned (struct plot_text *out, const struct group *g, long max_points)
{
  size_t k = (g->n + (size_t) max_points - 1) / (size_t) max_points;
  warn ("%s%s%zu points in one series: 1 in %zu drawn (--max-points 0 "
        "draws them all)", g->key, g->key[0] ? ": " : "", g->n, k);
  const char *p = g->text, *end = g->text + g->tlen;
  for (size_t i = 0; p < end; i++)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      size_t len = (size_t) (nl - p) + 1;
      if (i % k == 0 || i + 1 == g->n)
        text_add (out, p, len);
      p += len;
    }
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

struct xrow
{
  double x;
  size_t i;
};

static int
cmp_xrow (const void *a, const void *b)
{
  const struct xrow *p = a, *q = b;
  if (p->x != q->x)
    return (p->x > q->x) - (p->x < q->x);
  return (p->i > q->i) - (p->i < q->i);
}

/* The quartiles Q[0..2] (25%, 50%, 75%) of the finite values of column C
   of G's rows R[0..N-1] (TMP: room for N), NaN when there is none.
   Linear interpolation between order statistics (Hyndman and Fan's
   type 7, R's default): the 50% point is the usual median, the mean of
   the two middle values of an even count.  */
static void
quartiles_at (const struct group *g, size_t stride, const struct xrow *r,
              size_t n, size_t c, double *tmp, double q[3])
{
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (isfinite (g->v[r[i].i * stride + c]))
      tmp[m++] = g->v[r[i].i * stride + c];
  if (m == 0)
    {
      q[0] = q[1] = q[2] = NAN;
      return;
    }
  qsort (tmp, m, sizeof *tmp, cmp_double);
  for (int k = 0; k < 3; k++)
    {
      double h = (double) (m - 1) * (k + 1) / 4;
      size_t lo = (size_t) h;
      double f = h - (double) lo;
      q[k] = lo + 1 < m && f > 0 ? tmp[lo] + f * (tmp[lo + 1] - tmp[lo])
        : tmp[lo];
    }
}

static void
text_num (struct plot_text *out, double v, const char *sep)
{
  char buf[NUM_BUFSIZE];
  if (isfinite (v))
    num_format (v, -1, buf);
  else
    strcpy (buf, "NA");
  text_add (out, sep, strlen (sep));
  text_add (out, buf, strlen (buf));
}

/* G's rows above --max-points, when they fall on at most MAX_POINTS
   distinct x (a raw measurement's repetitions, sizes cycling): one row
   per x, in increasing x, each column's median over the rows at that x,
   then each column's first and third quartile (plotdata.h), for the
   spread.  Thinning such a stream would draw a zigzag across the sizes.
   Returns 0 (nothing written) when there are more distinct x.  */
static int
emit_summary (struct plot_text *out, const struct group *g, size_t stride,
              long max_points)
{
  struct xrow *r = xrealloc (NULL, g->n * sizeof *r);
  size_t n = 0, nx = 0;
  for (size_t i = 0; i < g->n; i++)
    if (isfinite (g->v[i * stride]))
      r[n++] = (struct xrow) { g->v[i * stride], i };
  qsort (r, n, sizeof *r, cmp_xrow);
  for (size_t i = 0; i < n; i++)
    nx += i == 0 || r[i].x != r[i - 1].x;
  if (nx == 0 || nx > (size_t) max_points)
    {
      free (r);
      return 0;
    }
  warn ("%s%s%zu points in one series: drawn as the median at each of its "
        "%zu x values, with bars from the first to the third quartile "
        "(--max-points 0 draws them all)", g->key, g->key[0] ? ": " : "",
        g->n, nx);
  double *tmp = xrealloc (NULL, n * sizeof *tmp);
  double *q = xrealloc (NULL, 3 * stride * sizeof *q);
  for (size_t a = 0, b; a < n; a = b)
    {
      for (b = a + 1; b < n && r[b].x == r[a].x; b++)
        ;
      text_num (out, r[a].x, "");
      for (size_t c = 1; c < stride; c++)
        {
          quartiles_at (g, stride, r + a, b - a, c, tmp, q + 3 * c);
          text_num (out, q[3 * c + 1], " ");
        }
      for (size_t c = 1; c < stride; c++)
        {
          text_num (out, q[3 * c], " ");
          text_num (out, q[3 * c + 2], " ");
        }
      text_add (out, "\n", 1);
    }
  free (q);
  free (tmp);
  free (r);
  return 1;
}

/* Append the groups of DS as blocks (separated by two blank lines, which
   gnuplot numbers with "index").  Returns the number of blocks written;
   empty groups are skipped and their index set to SIZE_MAX.  */
size_t
plot_emit_blocks (struct plot_text *out, struct dataset *ds,
                  size_t first_block, size_t *index, long max_points)
{
  size_t b = first_block;
  for (size_t k = 0; k < ds->ng; k++)
    {
      struct group *g = &ds->g[k];
      if (g->n == 0)
        {
          index[k] = SIZE_MAX;
          continue;
        }
      if (b > 0)
        text_add (out, "\n\n", 2);
      index[k] = b++;
      if (max_points <= 0 || g->n <= (size_t) max_points)
        text_add (out, g->text, g->tlen);
      else if (ds->xy && emit_summary (out, g, ds->stride, max_points))
        g->summary = 1;
      else
        emit_thinned (out, g, max_points);
    }
  return b - first_block;
}

int
plot_whole_x (const struct dataset *ds)
{
  size_t n = 0;
  for (size_t k = 0; k < ds->ng; k++)
    for (size_t i = 0; i < ds->g[k].n; i++)
      {
        double x = ds->g[k].v[i * ds->stride];
        /* zero or less is not drawn on a log axis (bytes 0) */
        if (!isfinite (x) || x <= 0)
          continue;
        if (x < 1 || x > 1e15 || x != floor (x))
          return 0;
        n++;
      }
  return n > 0;
}

/* ---------------------------------------------------------------- sources */

/* The value of metadata line LINE ("key=value") when its key is KEY
   (length KLEN), else NULL.  */
static const char *
meta_value (const char *line, const char *key, size_t klen)
{
  return strncmp (line, key, klen) == 0 && line[klen] == '=' ? line + klen + 1
    : NULL;
}

/* Is the last value of metadata KEY the same in every input?  */
static int
meta_agrees (const char *key)
{
  const char *v0 = tsv_meta_get (plot_readers[0], key);
  for (size_t j = 1; j < plot_nreaders; j++)
    {
      const char *v = tsv_meta_get (plot_readers[j], key);
      if (!v0 != !v || (v && strcmp (v, v0) != 0))
        return 0;
    }
  return 1;
}

static void
desc_add (struct plot_text *t, const char *s, size_t n)
{
  if (t->len)
    text_add (t, ", ", 2);
  text_add (t, s, n);
}

/* Is the word W (length N) in every input's #@argv?  */
static int
argv_common (const char *w, size_t n)
{
  for (size_t j = 0; j < plot_nreaders; j++)
    {
      const char *a = tsv_meta_get (plot_readers[j], "argv");
      int found = 0;
      for (const char *p = a; p && *p && !found;)
        {
          size_t len = strcspn (p, " ");
          found = len == n && strncmp (p, w, n) == 0;
          p += len + (p[len] == ' ');
        }
      if (!found)
        return 0;
    }
  return 1;
}

/* Metadata that differ between any two runs and say nothing of what
   was run: the command line (its differing words are the fallback), the
   version, the timer's measured steps, the time the run took.  */
static int
noise_key (const char *key)
{
  static const char *const keys[] = { "argv", "version", "time_unit",
                                       "measure_time", "seed", NULL };
  for (size_t i = 0; keys[i]; i++)
    if (strcmp (key, keys[i]) == 0)
      return 1;
  return strncmp (key, "timer_", 6) == 0 || strncmp (key, "tests_", 6) == 0;
}

/* What tells input I apart from the other inputs, for a legend: the
   metadata whose values differ between them (the tool, the number of
   processes, the MPI library: at most three, short values only), else
   the words of its #@argv that some other input's #@argv lacks (the
   options of the run), else its position ("input 2").  */
char *
plot_source_title (size_t i)
{
  struct plot_text t = { 0 };
  const tsv_reader *r = plot_readers[i];
  size_t shown = 0;
  for (size_t m = tsv_nmeta (r); m-- > 0 && shown < 3;)
    {
      const char *line = tsv_meta_line (r, m);
      size_t klen = strcspn (line, "=");
      char key[64];
      if (!line[klen] || klen >= sizeof key)
        continue;
      memcpy (key, line, klen);
      key[klen] = '\0';
      if (noise_key (key) || meta_value (line, key, klen) != tsv_meta_get (r, key)
          || strlen (line + klen + 1) > 40 || meta_agrees (key))
        continue;
      if (strcmp (key, "tool") == 0)
        desc_add (&t, line + klen + 1, strlen (line + klen + 1));
      else
        desc_add (&t, line, strlen (line));
      shown++;
    }
  const char *a = tsv_meta_get (r, "argv");
  int from_meta = t.len > 0;
  for (const char *p = a; !from_meta && p && *p;)
    {
      size_t len = strcspn (p, " ");
      if (len && !argv_common (p, len))
        {
          text_add (&t, t.len ? " " : "", t.len ? 1 : 0);
          text_add (&t, p, len);
        }
      p += len + (p[len] == ' ');
      if (t.len > 40)
        break;
    }
  if (!t.len)
    {
      char b[32];
      snprintf (b, sizeof b, "input %zu", i + 1);
      text_add (&t, b, strlen (b));
    }
  return t.s;
}
