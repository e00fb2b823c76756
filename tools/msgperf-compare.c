/* SPDX-License-Identifier: GPL-3.0-or-later */
/* msgperf-compare: the verdict on launches.  Per key (kernel, bytes, P
   ...): the median of the launch medians with its distribution-free
   interval and the launch values' modes (a summary), or two alternatives
   side by side with the ratio, its interval, the Wilcoxon rank-sum
   p-value adjusted over the keys and a verdict (faster, slower, same,
   undecided), or predictions against the measured medians.  The
   statistics are common/measure/ranksum.c, modes.c, padjust.c, stats.c;
   msgperf-compare(1) documents every rule.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "modes.h"
#include "num.h"
#include "padjust.h"
#include "ranksum.h"
#include "stats.h"
#include "tsv.h"
#include "xalloc.h"

static char *opt_keys;          /* COL,COL,... */
static char *opt_value;         /* COL[,COL...] */
static char *opt_margin = "0.05";
static char *opt_level = "0.95";
static char *opt_adjust = "holm";
static char *opt_mode_gap = "1.5";
static char *opt_baseline;
static char *opt_predict;
static char *opt_predicted;
static char *opt_output;
static int opt_summary;
static int opt_include_shared;

static struct poptOption options[] = {
  { "keys", 'k', POPT_ARG_STRING, &opt_keys, 0,
    "the key columns (default: #@launch_keys, else those of kernel, "
    "nprocs, P, bytes, src, dst, origin, hops present)", "COL[,COL...]" },
  { "value", 'y', POPT_ARG_STRING, &opt_value, 0,
    "the measured column(s) (default: t, else the LogGP columns present; "
    "one when comparing)", "COL[,COL...]" },
  { "margin", '\0', POPT_ARG_STRING, &opt_margin, 0,
    "equivalence margin: a ratio within [1/(1+M), 1+M] is no difference "
    "(default: 0.05)", "M" },
  { "level", '\0', POPT_ARG_STRING, &opt_level, 0,
    "confidence level of the intervals; 1 - LEVEL is the false-alarm rate "
    "(default: 0.95)", "LEVEL" },
  { "adjust", '\0', POPT_ARG_STRING, &opt_adjust, 0,
    "p-values adjusted over the keys: holm (the chance of any false "
    "alarm), bh (the share of false alarms) or none (default: holm)",
    "METHOD" },
  { "mode-gap", '\0', POPT_ARG_STRING, &opt_mode_gap, 0,
    "launch values a factor F apart or more form separate modes "
    "(default: 1.5)", "F" },
  { "baseline", '\0', POPT_ARG_STRING, &opt_baseline, 0,
    "the variant the others are compared with (default: the first seen)",
    "NAME" },
  { "summary", '\0', POPT_ARG_NONE, &opt_summary, 0,
    "summarise each variant instead of comparing", NULL },
  { "include-shared", '\0', POPT_ARG_NONE, &opt_include_shared, 0,
    "keep the launches flagged cpu_shared (set apart by default)", NULL },
  { "predict", '\0', POPT_ARG_STRING, &opt_predict, 0,
    "judge the predictions of FILE against the measurement", "FILE" },
  { "predicted", '\0', POPT_ARG_STRING, &opt_predicted, 0,
    "the predicted column of --predict (default: the measured column's "
    "name, else makespan, T or rtt)", "COL" },
  { "output", 'o', POPT_ARG_STRING, &opt_output, 0,
    "write to FILE (atomically) instead of standard output", "FILE" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* ---------------------------------------------------------------- data */

/* The launch values of one (variant, key): NV columns per launch.  */
struct group
{
  char *variant;
  char *key;          /* the key fields joined by TABs, numbers canonical */
  double *v;          /* n rows of NV values */
  size_t n, cap, shared;
};

static struct
{
  size_t nkeys, nv;
  char **keys, **values;
  struct group *g;
  size_t ng, gcap;
  char **variants;
  size_t nvariants;
} data;

static double margin, level, mode_gap;
static enum padjust_method adjust;

static char **
split_list (const char *list, size_t *n)
{
  char *copy = xstrdup (list);
  char **out = xcalloc (strlen (list) + 1, sizeof *out);
  *n = 0;
  for (char *save = NULL, *s = strtok_r (copy, ",", &save); s;
       s = strtok_r (NULL, ",", &save))
    {
      if (!tsv_valid_name (s))
        die_usage ("invalid column name '%s' (a letter, then letters, "
                   "digits or '_')", s);
      out[(*n)++] = xstrdup (s);
    }
  free (copy);
  return out;
}

/* The key columns: --keys, #@launch_keys, or the known key names.  */
static void
choose_keys (const tsv_reader *r)
{
  static const char *const known[] = {
    "kernel", "nprocs", "P", "bytes", "src", "dst", "origin", "hops", NULL
  };
  const char *list = opt_keys ? opt_keys : tsv_meta_get (r, "launch_keys");
  if (list)
    {
      data.keys = split_list (list, &data.nkeys);
      return;
    }
  data.keys = xcalloc (sizeof known / sizeof *known, sizeof *data.keys);
  for (size_t i = 0; known[i]; i++)
    if (tsv_col (r, known[i]) >= 0)
      data.keys[data.nkeys++] = xstrdup (known[i]);
}

/* The value columns: --value, t, or the LogGP parameters present.  */
static void
choose_values (const tsv_reader *r)
{
  static const char *const loggp[] = { "L", "o", "os", "or", "g", "G",
                                       NULL };
  if (opt_value)
    {
      data.values = split_list (opt_value, &data.nv);
      return;
    }
  data.values = xcalloc (8, sizeof *data.values);
  if (tsv_col (r, "t") >= 0)
    data.values[data.nv++] = xstrdup ("t");
  else
    for (size_t i = 0; loggp[i]; i++)
      if (tsv_col (r, loggp[i]) >= 0)
        data.values[data.nv++] = xstrdup (loggp[i]);
  if (!data.nv)
    die_at (tsv_name (r), tsv_lineno (r), 0, "no column 't' nor any LogGP "
            "column (L, o, os, or, g, G): name the measured column with "
            "--value");
}

/* A key field in canonical form: a number as its shortest text, so that
   "1024" and "1.024e3" are the same key.  */
static void
append_key (char **key, size_t *len, const char *f, size_t flen)
{
  double v;
  char buf[NUM_BUFSIZE];
  if (num_parse (f, flen, &v) == NUM_OK)
    {
      flen = (size_t) num_format (v, -1, buf);
      f = buf;
    }
  *key = xrealloc (*key, *len + flen + 2);
  if (*len)
    (*key)[(*len)++] = '\t';
  memcpy (*key + *len, f, flen);
  *len += flen;
  (*key)[*len] = '\0';
}

static char *
row_key (const tsv_reader *r, const size_t *cols, size_t ncols)
{
  char *key = xstrdup ("");
  size_t len = 0;
  for (size_t i = 0; i < ncols; i++)
    append_key (&key, &len, tsv_field (r, cols[i]), tsv_field_len (r, cols[i]));
  return key;
}

static const char *
intern_variant (const char *name)
{
  for (size_t i = 0; i < data.nvariants; i++)
    if (strcmp (data.variants[i], name) == 0)
      return data.variants[i];
  data.variants = xrealloc (data.variants,
                            (data.nvariants + 1) * sizeof *data.variants);
  return data.variants[data.nvariants++] = xstrdup (name);
}

static struct group *
find_group (const char *variant, char *key)
{
  for (size_t i = data.ng; i-- > 0;)
    if (data.g[i].variant == variant && strcmp (data.g[i].key, key) == 0)
      {
        free (key);
        return &data.g[i];
      }
  if (data.ng == data.gcap)
    {
      data.gcap = data.gcap ? 2 * data.gcap : 64;
      data.g = xrealloc (data.g, data.gcap * sizeof *data.g);
    }
  struct group *g = &data.g[data.ng++];
  memset (g, 0, sizeof *g);
  g->variant = (char *) variant;
  g->key = key;
  return g;
}

/* Is the current row a launch flagged as disturbed: a cpu_shared column
   that is not 0, or a check column (logp-measure's) naming cpu_shared?  */
static int
row_shared (const tsv_reader *r, long shared_col, long check_col)
{
  if (shared_col >= 0 && !tsv_is_na (r, (size_t) shared_col))
    return tsv_num (r, (size_t) shared_col, 0) != 0;
  return check_col >= 0
         && strstr (tsv_field (r, (size_t) check_col), "cpu_shared") != NULL;
}

/* Read one stream; every row is one launch of its key.  VARIANT names
   all its rows (a file of a pair), or NULL: the variant column, if any. */
static void
read_stream (tsv_reader *r, const char *variant)
{
  size_t *kc = xcalloc (data.nkeys + 1, sizeof *kc);
  size_t *vc = xcalloc (data.nv, sizeof *vc);
  for (size_t i = 0; i < data.nkeys; i++)
    kc[i] = tsv_col_required (r, data.keys[i]);
  for (size_t i = 0; i < data.nv; i++)
    vc[i] = tsv_col_required (r, data.values[i]);
  long var_col = variant ? -1 : tsv_col (r, "variant");
  long shared_col = tsv_col (r, "cpu_shared"), check_col = tsv_col (r, "check");
  const char *single = var_col >= 0 ? NULL
                       : intern_variant (variant ? variant : "");
  while (tsv_next (r))
    {
      const char *vname = var_col >= 0
        ? intern_variant (tsv_field (r, (size_t) var_col)) : single;
      struct group *g = find_group (vname, row_key (r, kc, data.nkeys));
      double *row = xcalloc (data.nv, sizeof *row);
      for (size_t i = 0; i < data.nv; i++)
        row[i] = tsv_num (r, vc[i], 1);
      if (!opt_include_shared && row_shared (r, shared_col, check_col))
        g->shared++;
      else
        {
          if (g->n == g->cap)
            {
              g->cap = g->cap ? 2 * g->cap : 16;
              g->v = xrealloc (g->v, g->cap * data.nv * sizeof *g->v);
            }
          memcpy (g->v + g->n * data.nv, row, data.nv * sizeof *row);
          g->n++;
        }
      free (row);
    }
  free (kc);
  free (vc);
}

/* The launch values of column C of G that are not NA, sorted, into a new
   array; their number in *N.  */
static double *
column_sorted (const struct group *g, size_t c, size_t *n)
{
  double *x = xcalloc (g->n + 1, sizeof *x);
  *n = 0;
  for (size_t i = 0; i < g->n; i++)
    if (!isnan (g->v[i * data.nv + c]))
      x[(*n)++] = g->v[i * data.nv + c];
  stats_sort (x, *n);
  return x;
}

/* ---------------------------------------------------------------- output */

static void
put_key (tsv_writer *w, const char *key)
{
  const char *s = key;
  for (size_t i = 0; i < data.nkeys; i++)
    {
      const char *tab = strchr (s, '\t');
      size_t len = tab ? (size_t) (tab - s) : strlen (s);
      tsv_put_strn (w, s, len);
      s += len + (tab != NULL);
    }
}

/* A list of numbers joined by commas ("0.131,0.42"), 6 significant
   digits: a mode's median and share are summaries, not timer readings. */
static void
put_list (tsv_writer *w, const struct mode *m, size_t n, int shares)
{
  char *text = xcalloc (n * (NUM_BUFSIZE + 1) + 1, 1);
  size_t len = 0;
  for (size_t k = 0; k < n; k++)
    {
      if (k)
        text[len++] = ',';
      len += (size_t) num_format_measured (shares ? m[k].share : m[k].median,
                                           0, NUM_DERIVED_DIGITS, text + len);
    }
  tsv_put_str (w, n ? text : "NA");
  free (text);
}

static int warned_modes, warned_small;

/* A derived number (a ratio, a p-value, a relative error, the mean of
   two middle values) to 6 significant digits (msgperf(7), NUMBERS).  */
static void
put_derived (tsv_writer *w, double v)
{
  char buf[NUM_BUFSIZE];
  num_format_measured (v, 0, NUM_DERIVED_DIGITS, buf);
  tsv_put_str (w, buf);
}

/* The median of N sorted values: one of them when N is odd (printed as
   read), the mean of the middle two otherwise.  */
static void
put_median (tsv_writer *w, const double *x, size_t n)
{
  if (n % 2)
    tsv_put_num (w, x[n / 2]);
  else
    put_derived (w, n ? stats_median_sorted (x, n) : NAN);
}

/* The summary of X (N sorted values): median, interval, min, max, the
   number of modes, their medians and shares; writes 8 fields.  Returns the number of modes.  */
static size_t
put_summary (tsv_writer *w, const double *x, size_t n)
{
  if (n == 0)
    {
      for (int i = 0; i < 8; i++)
        tsv_put_na (w);
      return 0;
    }
  double lo, hi;
  if (!stats_median_ci_sorted (x, n, level, &lo, &hi) && !warned_small++)
    warn ("%zu launches are too few for a %s interval of the median: "
          "the interval given is [min, max]", n, opt_level);
  struct mode *m = xcalloc (n, sizeof *m);
  size_t nm = modes_find (x, n, mode_gap, 2, m);
  put_median (w, x, n);
  tsv_put_num (w, lo);
  tsv_put_num (w, hi);
  tsv_put_num (w, x[0]);
  tsv_put_num (w, x[n - 1]);
  tsv_put_int (w, (int64_t) nm);
  put_list (w, m, nm, 0);
  put_list (w, m, nm, 1);
  free (m);
  if (nm > 1 && !warned_modes++)
    warn ("the launch values form separate modes (column %s_modes): each "
          "mode's median and share are given", data.values[0]);
  return nm;
}

static const char *const summary_suffix[] = {
  "", "_ci_lo", "_ci_hi", "_min", "_max", "_modes", "_mode_medians",
  "_mode_shares", NULL
};

/* Header: keys, [variant], launches, shared, then per value column its
   summary columns with SUFFIX (the value's name + summary_suffix).  */
static void
summary_header (tsv_writer *w, int with_variant)
{
  size_t n = data.nkeys + 3 + data.nv * 8, k = 0;
  char **names = xcalloc (n, sizeof *names);
  for (size_t i = 0; i < data.nkeys; i++)
    names[k++] = xstrdup (data.keys[i]);
  if (with_variant)
    names[k++] = xstrdup ("variant");
  names[k++] = xstrdup ("launches");
  names[k++] = xstrdup ("shared");
  for (size_t c = 0; c < data.nv; c++)
    for (size_t s = 0; summary_suffix[s]; s++)
      {
        names[k] = xmalloc (strlen (data.values[c]) + 16);
        sprintf (names[k++], "%s%s", data.values[c], summary_suffix[s]);
      }
  tsv_write_header (w, k, (const char *const *) names);
  for (size_t i = 0; i < k; i++)
    free (names[i]);
  free (names);
}

static void
write_summary (tsv_writer *w)
{
  int with_variant = data.nvariants > 1 || data.variants[0][0];
  summary_header (w, with_variant);
  for (size_t i = 0; i < data.ng; i++)
    {
      const struct group *g = &data.g[i];
      put_key (w, g->key);
      if (with_variant)
        tsv_put_str (w, g->variant);
      tsv_put_int (w, (int64_t) g->n);
      tsv_put_int (w, (int64_t) g->shared);
      for (size_t c = 0; c < data.nv; c++)
        {
          size_t n;
          double *x = column_sorted (g, c, &n);
          put_summary (w, x, n);
          free (x);
        }
      tsv_end_row (w);
    }
}

/* ---------------------------------------------------------------- compare */

struct cmp
{
  const struct group *a, *b;
  struct ranksum rs;
  double ratio, lo, hi, padj;
  int ci_ok;
};

static struct group *
partner (const struct group *a, const char *variant)
{
  for (size_t i = 0; i < data.ng; i++)
    if (data.g[i].variant == variant && strcmp (data.g[i].key, a->key) == 0)
      return &data.g[i];
  return NULL;
}

/* Test A against B on the first value column; the ratio B/A of the
   medians and Moses' interval of log B - log A, as a ratio.  */
static void
compare_pair (struct cmp *c)
{
  size_t n, m;
  double *x = column_sorted (c->a, 0, &n), *y = column_sorted (c->b, 0, &m);
  c->rs.p = c->ratio = c->lo = c->hi = NAN;
  c->ci_ok = 0;
  if (n && m)
    {
      if (ranksum_test (x, n, y, m, &c->rs) == -1)
        die ("out of memory while testing %zu against %zu launches", n, m);
      c->ratio = stats_median_sorted (y, m) / stats_median_sorted (x, n);
      if (x[0] > 0 && y[0] > 0)
        {
          for (size_t i = 0; i < n; i++)
            x[i] = log (x[i]);
          for (size_t j = 0; j < m; j++)
            y[j] = log (y[j]);
          double lo, hi, est;
          int ok = ranksum_shift_ci (x, n, y, m, level, &lo, &hi, &est);
          if (ok == -1)
            die ("out of memory while testing %zu against %zu launches", n, m);
          c->ci_ok = ok == 1;
          c->lo = exp (lo);
          c->hi = exp (hi);
        }
      else
        warn_once ("nonpositive", "values of '%s' that are not positive: "
                   "no interval of the ratio", data.values[0]);
    }
  free (x);
  free (y);
}

/* msgperf-compare(1), VERDICT: B against A.  */
static const char *
verdict (const struct cmp *c)
{
  double alpha = 1 - level, top = 1 + margin, bottom = 1 / (1 + margin);
  if (!isnan (c->padj) && c->padj < alpha)
    {
      if (c->ratio > top)
        return "slower";
      if (c->ratio < bottom)
        return "faster";
    }
  if (c->ci_ok && c->lo >= bottom && c->hi <= top)
    return "same";
  return "undecided";
}

static void
compare_header (tsv_writer *w, int with_variant)
{
  static const char *const tail[] = {
    "launches_a", "launches_b", "shared_a", "shared_b", "@_a", "@_a_ci_lo",
    "@_a_ci_hi", "@_b", "@_b_ci_lo", "@_b_ci_hi", "ratio", "ratio_lo",
    "ratio_hi", "p", "p_adj", "verdict", "modes_a", "modes_b",
    "mode_medians_a", "mode_shares_a", "mode_medians_b", "mode_shares_b",
    NULL
  };
  char **names = xcalloc (data.nkeys + 32, sizeof *names);
  size_t k = 0;
  for (size_t i = 0; i < data.nkeys; i++)
    names[k++] = xstrdup (data.keys[i]);
  if (with_variant)
    names[k++] = xstrdup ("variant");
  for (size_t i = 0; tail[i]; i++)
    {
      names[k] = xmalloc (strlen (tail[i]) + strlen (data.values[0]) + 1);
      if (tail[i][0] == '@')
        sprintf (names[k++], "%s%s", data.values[0], tail[i] + 1);
      else
        strcpy (names[k++], tail[i]);
    }
  tsv_write_header (w, k, (const char *const *) names);
  for (size_t i = 0; i < k; i++)
    free (names[i]);
  free (names);
}

/* Median and interval of one side (3 fields), its modes into M.  */
static size_t
side (tsv_writer *w, const struct group *g, struct mode *m)
{
  size_t n;
  double *x = column_sorted (g, 0, &n), lo = NAN, hi = NAN;
  size_t nm = 0;
  if (n)
    {
      if (!stats_median_ci_sorted (x, n, level, &lo, &hi) && !warned_small++)
        warn ("%zu launches are too few for a %s interval of the median: "
              "the interval given is [min, max]", n, opt_level);
      nm = modes_find (x, n, mode_gap, 2, m);
    }
  put_median (w, x, n);
  tsv_put_num (w, lo);
  tsv_put_num (w, hi);
  free (x);
  return nm;
}

static void
compare_row (tsv_writer *w, const struct cmp *c, int with_variant)
{
  put_key (w, c->a->key);
  if (with_variant)
    tsv_put_str (w, c->b->variant);
  tsv_put_int (w, (int64_t) c->a->n);
  tsv_put_int (w, (int64_t) c->b->n);
  tsv_put_int (w, (int64_t) c->a->shared);
  tsv_put_int (w, (int64_t) c->b->shared);
  struct mode *ma = xcalloc (c->a->n + 1, sizeof *ma);
  struct mode *mb = xcalloc (c->b->n + 1, sizeof *mb);
  size_t na = side (w, c->a, ma), nb = side (w, c->b, mb);
  put_derived (w, c->ratio);
  put_derived (w, c->lo);
  put_derived (w, c->hi);
  put_derived (w, c->rs.p);
  put_derived (w, c->padj);
  tsv_put_str (w, verdict (c));
  tsv_put_int (w, (int64_t) na);
  tsv_put_int (w, (int64_t) nb);
  put_list (w, ma, na, 0);
  put_list (w, ma, na, 1);
  put_list (w, mb, nb, 0);
  put_list (w, mb, nb, 1);
  tsv_end_row (w);
  if ((na > 1 || nb > 1) && !warned_modes++)
    warn ("the launch values form separate modes (columns modes_a, "
          "modes_b): each mode's median and share are given");
  free (ma);
  free (mb);
}

static void
write_compare (tsv_writer *w, const char *base)
{
  struct cmp *c = xcalloc (data.ng + 1, sizeof *c);
  size_t nc = 0, missing = 0;
  for (size_t v = 0; v < data.nvariants; v++)
    {
      if (data.variants[v] == base)
        continue;
      for (size_t i = 0; i < data.ng; i++)
        if (data.g[i].variant == base)
          {
            struct group *b = partner (&data.g[i], data.variants[v]);
            if (!b)
              {
                missing++;
                continue;
              }
            c[nc].a = &data.g[i];
            c[nc].b = b;
            compare_pair (&c[nc++]);
          }
    }
  if (missing)
    warn ("%zu keys of '%s' have no launches in another variant: left out",
          missing, base);
  double *p = xcalloc (nc + 1, sizeof *p);
  for (size_t i = 0; i < nc; i++)
    p[i] = c[i].rs.p;
  if (padjust (p, nc, adjust, p) < 0)
    die ("out of memory while adjusting %zu p-values", nc);
  int with_variant = data.nvariants > 2;
  tsv_meta (w, "baseline", "%s", base);
  compare_header (w, with_variant);
  for (size_t i = 0; i < nc; i++)
    {
      c[i].padj = p[i];
      compare_row (w, &c[i], with_variant);
    }
  free (p);
  free (c);
}

static void
write_own_meta (tsv_writer *w)
{
  tsv_write_tool_meta (w, NULL);
  size_t len = 1;
  for (size_t i = 0; i < data.nkeys; i++)
    len += strlen (data.keys[i]) + 1;
  char *keys = xcalloc (len, 1);
  for (size_t i = 0; i < data.nkeys; i++)
    {
      if (i)
        strcat (keys, ",");
      strcat (keys, data.keys[i]);
    }
  /* The keys used, however they were found (an empty list: one key).  */
  tsv_meta (w, "compare_keys", "%s", keys);
  free (keys);
  tsv_meta (w, "level", "%s", opt_level);
  tsv_meta (w, "mode_gap", "%s", opt_mode_gap);
}

/* ---------------------------------------------------------------- predict */

static const char *
predicted_column (const tsv_reader *r)
{
  static const char *const fallback[] = { "makespan", "T", "rtt", NULL };
  if (opt_predicted)
    return opt_predicted;
  if (tsv_col (r, data.values[0]) >= 0)
    return data.values[0];
  for (size_t i = 0; fallback[i]; i++)
    if (tsv_col (r, fallback[i]) >= 0)
      return fallback[i];
  die_at (tsv_name (r), tsv_lineno (r), 0, "no column '%s' nor makespan, T "
          "or rtt: name the predicted column with --predicted",
          data.values[0]);
}

static const char *const predict_cols[] = {
  "measured", "measured_ci_lo", "measured_ci_hi", "launches", "error",
  "inside", NULL
};

static void
predict_header (tsv_writer *w, const tsv_reader *r)
{
  size_t n = tsv_ncols (r), k = 0;
  const char **names = xcalloc (n + 8, sizeof *names);
  for (size_t i = 0; i < n; i++)
    names[k++] = tsv_colname (r, i);
  for (size_t i = 0; predict_cols[i]; i++)
    names[k++] = predict_cols[i];
  tsv_write_header (w, k, names);
  free (names);
}

/* One prediction row: the measured median of its key, the relative error
   (predicted - measured) / measured and whether the prediction lies in
   the interval of the median.  */
static void
predict_row (tsv_writer *w, const tsv_reader *r, const struct group *g,
             size_t pc)
{
  double pred = tsv_num (r, pc, 1), lo = NAN, hi = NAN, med = NAN;
  size_t n = 0;
  double *x = g ? column_sorted (g, 0, &n) : NULL;
  if (n)
    {
      med = stats_median_sorted (x, n);
      if (!stats_median_ci_sorted (x, n, level, &lo, &hi) && !warned_small++)
        warn ("%zu launches are too few for a %s interval of the median: "
              "the interval given is [min, max]", n, opt_level);
    }
  tsv_put_fields (w, r);
  put_median (w, x, n);
  free (x);
  tsv_put_num (w, lo);
  tsv_put_num (w, hi);
  tsv_put_int (w, (int64_t) n);
  put_derived (w, (pred - med) / med);
  if (n && !isnan (pred))
    tsv_put_int (w, lo <= pred && pred <= hi);
  else
    tsv_put_na (w);
  tsv_end_row (w);
}

static void
write_predict (tsv_writer *w, tsv_reader **readers, size_t nreaders)
{
  if (data.nvariants > 1 && !opt_baseline)
    die_usage ("the measurement has %zu variants: pick one with --baseline",
               data.nvariants);
  const char *want = opt_baseline ? opt_baseline : data.variants[0];
  tsv_reader *r = tsv_open (opt_predict);
  tsv_reader **all = xcalloc (nreaders + 1, sizeof *all);
  memcpy (all, readers, nreaders * sizeof *all);
  all[nreaders] = r;
  tsv_time_unit (all, nreaders + 1);
  size_t *kc = xcalloc (data.nkeys + 1, sizeof *kc);
  for (size_t i = 0; i < data.nkeys; i++)
    kc[i] = tsv_col_required (r, data.keys[i]);
  size_t pc = tsv_col_required (r, predicted_column (r));
  for (size_t i = 0; predict_cols[i]; i++)
    if (tsv_col (r, predict_cols[i]) >= 0)
      die_at (tsv_name (r), tsv_lineno (r), 0, "the predictions already "
              "have a column '%s', which msgperf-compare writes",
              predict_cols[i]);
  for (size_t k = 0; k < nreaders; k++)
    tsv_copy_meta (w, readers[k]);
  tsv_copy_meta (w, r);
  write_own_meta (w);
  predict_header (w, r);
  size_t unmeasured = 0;
  while (tsv_next (r))
    {
      char *key = row_key (r, kc, data.nkeys);
      const struct group *g = NULL;
      for (size_t i = 0; i < data.ng && !g; i++)
        if (strcmp (data.g[i].variant, want) == 0
            && strcmp (data.g[i].key, key) == 0)
          g = &data.g[i];
      free (key);
      unmeasured += !g || !g->n;
      tsv_copy_meta (w, r);
      predict_row (w, r, g, pc);
    }
  tsv_time_unit (all, nreaders + 1);
  if (unmeasured)
    warn ("%zu predictions have no measured launches: NA", unmeasured);
  free (kc);
  free (all);
  tsv_close (r);
}

/* ---------------------------------------------------------------- main */

static void
parse_numbers (void)
{
  margin = cli_double ("margin", opt_margin, 0, 10);
  level = cli_double ("level", opt_level, 0.5, 0.9999);
  mode_gap = cli_double ("mode-gap", opt_mode_gap, 1.01, 1e6);
  int a = padjust_parse (opt_adjust);
  if (a < 0)
    die_usage ("invalid --adjust '%s' (holm, bh or none)", opt_adjust);
  adjust = (enum padjust_method) a;
}

static const char *
baseline (void)
{
  if (!opt_baseline)
    return data.variants[0];
  for (size_t i = 0; i < data.nvariants; i++)
    if (strcmp (data.variants[i], opt_baseline) == 0)
      return data.variants[i];
  die ("no variant '%s' in the measurement", opt_baseline);
}

int
main (int argc, char **argv)
{
  cli_init ("msgperf-compare", argc, argv);
  poptContext con = cli_parse (argc, (const char **) argv, options,
                               "[OPTION...] [A.tsv [B.tsv]]", NULL);
  parse_numbers ();
  const char **files = poptGetArgs (con);
  static const char *stdin_only[] = { "-", NULL };
  if (!files || !files[0])
    files = stdin_only;
  size_t nfiles = 0;
  while (files[nfiles])
    nfiles++;
  if (nfiles > 2)
    die_usage ("at most two streams (A and B), not %zu", nfiles);
  tsv_reader *readers[2] = { NULL, NULL };
  readers[0] = tsv_open (files[0]);
  choose_keys (readers[0]);
  choose_values (readers[0]);
  tsv_writer *w = tsv_writer_open (opt_output);
  for (size_t k = 0; k < nfiles; k++)
    {
      if (k)
        readers[k] = tsv_open (files[k]);
      tsv_time_unit (readers, k + 1);
      read_stream (readers[k], nfiles == 2 ? files[k] : NULL);
      tsv_time_unit (readers, k + 1);
    }
  if (opt_predict)
    write_predict (w, readers, nfiles);
  else
    {
      int summary = opt_summary || data.nvariants < 2;
      if (!summary && data.nv != 1)
        die_usage ("compare one measured column at a time (--value gave %zu)",
                   data.nv);
      const char *base = summary ? NULL : baseline ();
      for (size_t k = 0; k < nfiles; k++)
        tsv_copy_meta (w, readers[k]);
      write_own_meta (w);
      if (summary)
        write_summary (w);
      else
        {
          tsv_meta (w, "margin", "%s", opt_margin);
          tsv_meta (w, "adjust", "%s", opt_adjust);
          write_compare (w, base);
        }
    }
  tsv_writer_close (w);
  for (size_t k = 0; k < nfiles; k++)
    tsv_close (readers[k]);
  poptFreeContext (con);
  return 0;
}
