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
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "human.h"
#include "hyperfit.h"
#include "params.h"
#include "num.h"
#include "gnuplot_run.h"
#include "plotdata.h"
#include "plotscript.h"
#include "tsv.h"
#include "xalloc.h"

#define PROGRAM "plotgen"
#define MAX_SEGMENTS 6    /* --segments auto tries 1..6, as hyper-reduce */

/* ---------------------------------------------------------------- options */

static char *opt_x, *opt_y, *opt_by, *opt_style, *opt_errorbars;
static char *opt_title, *opt_xlabel, *opt_ylabel, *opt_size, *opt_output;
static char *opt_data, *opt_fit, *opt_overlay, *opt_overlay_x, *opt_overlay_y;
static char *opt_segments, *opt_params, *opt_where, *opt_pairs, *opt_reduce;
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
  { "pairs", '\0', POPT_ARG_STRING, &opt_pairs, 0,
    "with --matrix: pair-measure's rows to draw: alone, concurrent or all "
    "(default: alone when the stream has with_src)", "WHICH" },
  { "reduce", '\0', POPT_ARG_STRING, &opt_reduce, 0,
    "with --matrix: several rows of a pair drawn as their min, median or "
    "max (default: an error)", "HOW" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* ---------------------------------------------------------------- data */

/* --fit's parameters: a and b (hyperbolic) or alpha and beta (linear).  */
static int fit_ids[2] = { PARAM_A, PARAM_B };

/* dag-predict --gantt: the colours of the kinds (plotdata.h).  */
static const char *const gantt_colors[] = {
  "#4c72b0", "#dd8452", "#55a868", "#c0c0c0"
};

/* ---------------------------------------------------------------- text */

static struct plot_text datatext;

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
own_printf (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
static char *
own_printf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = xvasprintf (fmt, ap);
  va_end (ap);
  return own (s);
}

/* The unit of column NAME of a stream whose times are in UNIT (NULL:
   none): none for a count (bytes, ranks), the named unit of a rate
   (pair-measure's mbit_s: 10^6 bits a second), UNIT per byte for a time
   per byte (human.h's table: G, b, beta), else UNIT (every other column
   of a msgperf stream is a time or a statistic of one).  */
static const char *
column_unit (const char *name, const char *unit)
{
  if (strcmp (name, "mbit_s") == 0 || strncmp (name, "mbit_s_", 7) == 0)
    return "Mbit/s";
  if (strcmp (name, "MBps") == 0)
    return "MB/s";
  if (!unit || tsv_is_count_name (name))
    return NULL;
  if (human_column_kind (name) == HUMAN_PER_BYTE)
    return own_printf ("%s/B", unit);
  return unit;
}

/* NAMES with their unit: "t, t_ci_hi (us)" when they share one,
   "t (us), mbit_s (Mbit/s)" when not.  */
static char *
axis_label (char **names, size_t n, const char *unit)
{
  const char *u0 = NULL;
  int same = 1;
  for (size_t i = 0; i < n; i++)
    {
      const char *u = column_unit (names[i], unit);
      if (u && u0 && strcmp (u, u0) != 0)
        same = 0;
      u0 = u0 ? u0 : u;
    }
  char *s = own_printf ("%s", "");
  for (size_t i = 0; i < n; i++)
    {
      const char *u = same ? NULL : column_unit (names[i], unit);
      s = own_printf ("%s%s%s%s%s%s", s, i ? ", " : "", names[i],
                      u ? " (" : "", u ? u : "", u ? ")" : "");
    }
  return same && u0 ? own_printf ("%s (%s)", s, u0) : s;
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
  return own_printf ("%s", b);
}

/* A segment's end for its legend: a whole number (a message size) in
   full, 16384 rather than 1.638e+04.  */
static const char *
legend_x (double v)
{
  if (v == floor (v) && fabs (v) < 1e15)
    return own_printf ("%.0f", v);
  return legend_num (v);
}

/* A curve's parameters for its legend, with their units U[0] (a time:
   a, alpha) and U[1] (per x: b, beta), each NULL when unknown:
   "a=5 us, b=0.001 us/B".  */
static const char *
fit_text (enum plot_curve_kind kind, const double p[2], const char *u[2])
{
  const char *n1 = kind == PLOT_CURVE_LINEAR ? "alpha" : "a";
  const char *n2 = kind == PLOT_CURVE_LINEAR ? "beta" : "b";
  return own_printf ("%s=%s%s%s, %s=%s%s%s", n1, legend_num (p[0]),
                     u[0] ? " " : "", u[0] ? u[0] : "", n2,
                     legend_num (p[1]), u[1] ? " " : "", u[1] ? u[1] : "");
}

/* The curve(s) of series G's column YC: given, fitted, or one per
   segment.  U: the units of the parameters (fit_text), then the name of
   the x column.  */
static void
add_fit (const struct dataset *ds, const struct group *g, size_t yc,
         enum plot_curve_kind kind, const char *title, unsigned linetype,
         const char *u[3], struct plot_curve *c, size_t *nc)
{
  double given[2];
  if (fit_given (g, given))
    {
      if (fit_segments != 1)
        die_usage ("--segments fits one curve per segment: not with the "
                   "series' own %s and %s columns",
                   param_defs[fit_ids[0]].name, param_defs[fit_ids[1]].name);
      c[0] = (struct plot_curve) {
        .kind = kind, .p1 = given[0], .p2 = given[1],
        .linetype = linetype,
        .title = own_printf ("%s: %s (given)", title,
                             fit_text (kind, given, u)) };
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
  const char *xn = u[2];
  for (size_t i = 0; i < k; i++)
    {
      /* segment i holds breaks[i-1] <= x < breaks[i] (hyperfit.h) */
      const char *range = k == 1 ? ""
        : i == 0 ? own_printf (", %s < %s", xn, legend_x (breaks[0]))
        : i + 1 == k ? own_printf (", %s >= %s", xn,
                                   legend_x (breaks[i - 1]))
        : own_printf (", %s <= %s < %s", legend_x (breaks[i - 1]), xn,
                      legend_x (breaks[i]));
      /* segments in colours of their own (0: given after the series),
         a single curve in its series' colour */
      c[i] = (struct plot_curve) {
        .kind = kind, .p1 = res[i].p[0], .p2 = res[i].p[1],
        .linetype = k > 1 ? 0 : linetype,
        .has_lo = k > 1 && i > 0, .lo = i > 0 ? breaks[i - 1] : 0,
        .has_hi = k > 1 && i + 1 < k, .hi = i + 1 < k ? breaks[i] : 0,
        .title = own_printf ("%s%s: %s", title, range,
                             fit_text (kind, res[i].p, u)) };
    }
  *nc += k;
}

/* ---------------------------------------------------------------- gnuplot */

/* Run gnuplot on SCRIPT, written to a temporary file first: gnuplot reads
   a file much faster than a pipe, whose lines it takes a few bytes at a
   time.  gnuplot's standard output is ours (the dumb terminal).  Dies
   when gnuplot cannot be started or fails.  */

/* ---------------------------------------------------------------- main */

static void
parse_size (const char *text, unsigned *w, unsigned *h, int dumb)
{
  const char *x = strchr (text, 'x');
  if (!x || x == text || !x[1])
    die_usage ("--size: '%s' is not WIDTHxHEIGHT (e.g. 800x600)", text);
  char *wt = own_printf ("%.*s", (int) (x - text), text);
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
  enum plot_pairs pairs;             /* --matrix --pairs */
  enum plot_reduce reduce;           /* --matrix --reduce */
};

/* --pairs and --reduce, which go with --matrix.  */
static void
matrix_options (struct plotjob *j)
{
  static const char *const pairs[] = { "alone", "concurrent", "all", NULL };
  static const char *const reduce[] = { "min", "median", "max", NULL };
  if ((opt_pairs || opt_reduce) && !opt_matrix)
    die_usage ("--pairs and --reduce choose the cells of --matrix: give "
               "--matrix");
  for (int i = 0; opt_pairs && pairs[i]; i++)
    if (strcmp (opt_pairs, pairs[i]) == 0)
      j->pairs = (enum plot_pairs) (PLOT_PAIRS_ALONE + i);
  if (opt_pairs && !j->pairs)
    die_usage ("--pairs: unknown '%s' (alone, concurrent or all)", opt_pairs);
  for (int i = 0; opt_reduce && reduce[i]; i++)
    if (strcmp (opt_reduce, reduce[i]) == 0)
      j->reduce = (enum plot_reduce) (PLOT_REDUCE_MIN + i);
  if (opt_reduce && !j->reduce)
    die_usage ("--reduce: unknown '%s' (min, median or max)", opt_reduce);
}

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
  matrix_options (j);
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
    sp->y = plot_split_list ("-y", opt_y, &sp->ny);
  sp->by = opt_by;
  if (!opt_errorbars)
    return;
  size_t n;
  char **lh = j->errorbar_cols = plot_split_list ("--errorbars", opt_errorbars, &n);
  /* Freed before dying: no pointer to them may be left for the
     leak checker to miss (the fuzz/tool.c harness).  */
  if (n != 2)
    {
      plot_free_list (lh);
      die_usage ("--errorbars: '%s' is not two columns LO,HI",
                 opt_errorbars);
    }
  if (sp->ny != 1)
    {
      plot_free_list (lh);
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
      j->sp.fit_ids = opt_fit ? fit_ids : NULL;
      for (size_t i = 0; files[i]; i++)
        plot_read_xy (files[i], &j->sp, &j->main_ds);
      if (opt_overlay)
        {
          struct xyspec *osp = &j->osp;
          osp->x = opt_overlay_x ? opt_overlay_x : j->sp.x;
          if (opt_overlay_y)
            osp->y = plot_split_list ("--overlay-y", opt_overlay_y, &osp->ny);
          else
            {
              osp->y = j->sp.y;
              osp->ny = j->sp.ny;
            }
          osp->by = j->sp.by;
          osp->by_optional = 1;
          plot_read_xy (opt_overlay, osp, &j->over_ds);
        }
    }
  else if (j->mode == PLOT_MODE_GANTT)
    for (size_t i = 0; files[i]; i++)
      plot_read_gantt (files[i], &j->main_ds);
  else
    {
      if (!opt_y || strchr (opt_y, ','))
        die_usage ("--matrix needs one value column: -y COL");
      for (size_t i = 0; files[i]; i++)
        plot_read_matrix (files[i], opt_y, j->pairs, &j->main_ds);
      if (j->main_ds.rows)
        plot_matrix_reduce (&j->main_ds, opt_y, j->reduce);
    }
  if (j->main_ds.rows == 0)
    {
      if (nfiles == 1)
        die ("%s: no rows to plot", tsv_name (plot_readers[0]));
      die ("no rows to plot in the %zu inputs", nfiles);
    }
  if (opt_overlay && j->over_ds.rows == 0)
    warn ("%s: no rows: nothing to overlay", opt_overlay);
  j->unit = tsv_time_unit (plot_readers, plot_nreaders);
  if (opt_fit)
    fit_params_read (j->unit);
}

/* The legend of column C of series G: the --by value, the label, or
   what tells its input apart from the others (never the file name).  */
static const char *
xy_title (const struct xyspec *sp, const struct group *g, size_t c)
{
  if (sp->by)
    return sp->ny > 1 ? own_printf ("%s %s=%s", sp->y[c], sp->by, g->key)
      : own_printf ("%s=%s", sp->by, g->key);
  if (g->from_file)
    return own_printf ("%s (%s)", sp->y[c],
                       own (plot_source_title (g->source)));
  if (sp->source_used)
    return sp->ny > 1 ? own_printf ("%s %s", sp->y[c], g->key) : g->key;
  return sp->y[c];
}

/* The series of the main inputs: one per group and -y column (with its
   error bars, or the quartiles of a series summarised per x, and fitted
   curve).  Returns the next free linetype.  */
static unsigned
xy_main_series (struct plotjob *j, size_t *ns, size_t *nc)
{
  const struct xyspec *sp = &j->sp;
  const char *yunit = NULL;
  unsigned lt = 1;
  for (size_t k = 0; k < j->main_ds.ng; k++)
    for (size_t c = 0; c < sp->ny; c++)
      {
        const struct group *g = &j->main_ds.g[k];
        const char *title = xy_title (sp, g, c);
        size_t good = plot_count_finite (&j->main_ds, g, 0, 1 + c);
        if (good == 0)
          {
            warn ("series '%s' has no numeric point: not drawn", title);
            continue;
          }
        size_t st = j->main_ds.stride;
        if (g->summary)
          j->series[(*ns)++] = (struct plot_series) {
            .title = own_printf ("%s: quartiles at each x", title),
            .block = j->index[k], .ycol = (unsigned) (2 + c),
            .locol = plot_quartile_col (st, 1 + c, 1),
            .hicol = plot_quartile_col (st, 1 + c, 3),
            .draw = PLOT_DRAW_ERRORBARS, .linetype = lt };
        else if (sp->lo)
          j->series[(*ns)++] = (struct plot_series) {
            .title = NULL, .block = j->index[k], .ycol = 2,
            .locol = 3, .hicol = 4, .draw = PLOT_DRAW_ERRORBARS,
            .linetype = lt };
        j->series[(*ns)++] = (struct plot_series) {
          .title = g->summary ? own_printf ("%s: median at each x", title)
            : title,
          .block = j->index[k], .ycol = (unsigned) (2 + c),
          .draw = j->draw, .linetype = lt };
        j->main_lt[k * sp->ny + c] = lt;
        yunit = column_unit (sp->y[c], j->unit);
        const char *u[3] = {
          yunit, yunit ? own_printf ("%s/%s", yunit, strcmp (sp->x, "bytes")
                                     == 0 ? "B" : sp->x) : NULL, sp->x };
        if (opt_fit)
          add_fit (&j->main_ds, g, 1 + c, j->fitkind, title, lt, u,
                   &j->curves[*nc], nc);
        lt++;
      }
  return lt;
}

/* The overlay's series, dashed, each in the colour of the main series it
   is compared with (same --by value, same position in -y).  */
static unsigned
xy_overlay_series (struct plotjob *j, unsigned lt, size_t *ns)
{
  const struct xyspec *osp = &j->osp;
  size_t nmain = j->main_ds.ng;
  for (size_t k = 0; k < j->over_ds.ng; k++)
    for (size_t c = 0; c < osp->ny; c++)
      {
        const struct group *g = &j->over_ds.g[k];
        /* named by the program that wrote it, not by its file */
        const char *tool = tsv_meta_get (plot_readers[g->source], "tool");
        const char *title = osp->by_used
          ? own_printf ("%s %s=%s (%s)", osp->y[c], osp->by, g->key,
                        tool ? tool : "overlay")
          : own_printf ("%s (%s)", osp->y[c], tool ? tool : "overlay");
        if (plot_count_finite (&j->over_ds, g, 0, 1 + c) == 0)
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
  return lt;
}

/* ---- describe: data blocks, series, curves, axes */
static void
describe (struct plotjob *j)
{
  struct plot_desc *d = &j->d;
  const struct xyspec *sp = &j->sp;
  size_t nmain = j->main_ds.ng, nover = j->over_ds.ng;
  j->index = xrealloc (NULL, (nmain + nover + 1) * sizeof *j->index);
  size_t nblocks = plot_emit_blocks (&datatext, &j->main_ds, 0, j->index,
                                    opt_max_points);
  if (nover)
    plot_emit_blocks (&datatext, &j->over_ds, nblocks, j->index + nmain,
                      opt_max_points);
  size_t maxseries = (nmain * sp->ny * 2) + (nover * j->osp.ny) + PLOT_NKINDS + 1;
  j->series = xrealloc (NULL, maxseries * sizeof *j->series);
  j->curves = xrealloc (NULL, (nmain * sp->ny * MAX_SEGMENTS + 1)
                        * sizeof *j->curves);
  size_t ns = 0, nc = 0;
  j->main_lt = xrealloc (NULL, (nmain * sp->ny + 1) * sizeof *j->main_lt);
  memset (j->main_lt, 0, (nmain * sp->ny + 1) * sizeof *j->main_lt);
  const char *unit = j->unit;
  if (j->mode == PLOT_MODE_XY)
    {
      unsigned lt = xy_overlay_series (j, xy_main_series (j, &ns, &nc), &ns);
      for (size_t i = 0; i < nc; i++)
        if (!j->curves[i].linetype)     /* a segment: a colour of its own */
          j->curves[i].linetype = lt++;
      if (ns == 0)
        die ("nothing to plot: every value is NA");
      d->xlabel = opt_xlabel ? opt_xlabel
        : axis_label ((char **) &sp->x, 1, unit);
      d->ylabel = opt_ylabel ? opt_ylabel : axis_label (sp->y, sp->ny, unit);
      d->logx = opt_logx;
      d->whole_x = plot_whole_x (&j->main_ds);
      d->logy = opt_logy;
    }
  else if (j->mode == PLOT_MODE_GANTT)
    {
      for (size_t k = 0; k < PLOT_NKINDS; k++)
        if (j->index[k] != SIZE_MAX)
          j->series[ns++] = (struct plot_series) {
            .title = plot_gantt_kinds[k], .block = j->index[k], .ycol = 3,
            .draw = PLOT_DRAW_BOXES, .color = gantt_colors[k] };
      d->xlabel = opt_xlabel ? opt_xlabel
        : unit ? own_printf ("time (%s)", unit) : "time";
      d->ylabel = opt_ylabel ? opt_ylabel : "proc";
      d->integer_ytics = plot_small_integer_column (&j->main_ds, 2);
    }
  else
    {
      j->series[ns++] = (struct plot_series) {
        .title = NULL, .block = 0, .ycol = 3, .draw = PLOT_DRAW_CELLS };
      d->xlabel = opt_xlabel ? opt_xlabel : "src";
      d->ylabel = opt_ylabel ? opt_ylabel : "dst";
      d->cblabel = axis_label (&opt_y, 1, unit);
      d->names = (const char *const *) j->main_ds.names;
      d->nnames = j->main_ds.nnames;
      d->integer_xtics = !d->names
        && plot_small_integer_column (&j->main_ds, 0);
      d->integer_ytics = !d->names
        && plot_small_integer_column (&j->main_ds, 1);
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
        d->output = tmp = own (plot_temp_beside (opt_output));
    }
  struct plot_text script = { 0 };
  if (plot_script (d, &script) != 0)
    die ("cannot build the gnuplot script: out of memory");
  if (opt_script)
    {
      if (opt_data)
        plot_write_file (opt_data, datatext.s, datatext.len);
      if (fwrite (script.s, 1, script.len, stdout) != script.len)
        die ("cannot write the script: %s", strerror (errno));
    }
  else
    {
      plot_run_gnuplot (script.s, script.len);
      if (tmp)
        {
          struct stat st;
          if (stat (tmp, &st) != 0 || st.st_size == 0)
            die ("gnuplot wrote nothing to '%s'", opt_output);
          plot_commit_temp (tmp, opt_output);
        }
    }
  plot_text_free (&script);
}

static void
plotjob_free (struct plotjob *j)
{
  plot_dataset_free (&j->main_ds);
  plot_dataset_free (&j->over_ds);
  free (j->series);
  free (j->curves);
  free (j->index);
  free (j->main_lt);
  if (j->osp.y != j->sp.y)
    plot_free_list (j->osp.y);
  plot_free_list (j->sp.y);
  plot_free_list (j->errorbar_cols);
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
  for (size_t i = 0; i < plot_nreaders; i++)
    tsv_close (plot_readers[i]);
  free (plot_readers);
  plotjob_free (&j);
  param_file_free (fit_file);
  for (size_t i = 0; i < nowned; i++)
    free (owned[i]);
  free (owned);
  poptFreeContext (con);
  return 0;
}
