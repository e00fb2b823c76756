/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plotscript.h: the gnuplot script of a plot, built from a description.
 *
 * plotgen decides what to draw (columns, series, fits) and describes it
 * with struct plot_desc; plot_script() turns the description into the
 * text of a gnuplot script.  Every piece of text that came from the input
 * goes through gpquote.h, every number through num_format (round trip, a
 * negative number in parentheses), so the script is inert whatever the
 * input holds.  The data are either inline ("$data << EOD" block of
 * numbers and NA, written by the caller) or referenced by file name.
 *
 * Pure functions, no I/O.  */
#ifndef MSGPERF_PLOTSCRIPT_H
#define MSGPERF_PLOTSCRIPT_H

#include <stddef.h>

/* Output terminal.  */
enum plot_term
{
  PLOT_TERM_DUMB = 0, /* text on stdout */
  PLOT_TERM_PNG,      /* pngcairo */
  PLOT_TERM_SVG,      /* svg */
  PLOT_TERM_PDF       /* pdfcairo */
};

/* The terminal for output file PATH from its extension (.png, .svg, .pdf,
   any case): 0 and *TERM set, or -1 when the extension is none of them.  */
int plot_term_from_path (const char *path, enum plot_term *term);

/* The gnuplot name of TERM ("dumb", "pngcairo", "svg", "pdfcairo").  */
const char *plot_term_name (enum plot_term term);

enum plot_mode
{
  PLOT_MODE_XY = 0,   /* curves y(x) */
  PLOT_MODE_GANTT,    /* one row per processor, boxes colored by kind */
  PLOT_MODE_MATRIX    /* heat map of src/dst/value */
};

/* How one series is drawn.  */
enum plot_draw
{
  PLOT_DRAW_LINES = 0,
  PLOT_DRAW_POINTS,
  PLOT_DRAW_LINESPOINTS,
  PLOT_DRAW_STEPS,
  PLOT_DRAW_ERRORBARS, /* x:y:lo:hi, vertical bars */
  PLOT_DRAW_BOXES,     /* Gantt: columns start, end, proc */
  PLOT_DRAW_CELLS      /* matrix: columns src, dst, value */
};

/* The --style names: "lines", "points", "linespoints", "steps".
   0 and *DRAW set, or -1 for another name.  */
int plot_draw_from_name (const char *name, enum plot_draw *draw);

/* One plotted data series.  In XY mode column 1 of a block is x.  */
struct plot_series
{
  const char *title;   /* legend text (raw), or NULL for no legend entry */
  size_t block;        /* data block (gnuplot "index"), 0-based */
  unsigned ycol;       /* 1-based column of y (XY and errorbars) */
  unsigned locol;      /* errorbars: 1-based columns of the bar ends */
  unsigned hicol;
  enum plot_draw draw;
  unsigned linetype;   /* gnuplot linetype (1-based), 0: gnuplot's choice */
  int dashed;          /* draw with a dashed line (overlays) */
  const char *color;   /* "#rrggbb" (boxes), or NULL */
};

/* A fitted model drawn as a function of x.  */
enum plot_curve_kind
{
  PLOT_CURVE_HYPERBOLIC = 0, /* T(x) = a^2/(a + b x) + b x */
  PLOT_CURVE_LINEAR          /* T(x) = alpha + beta x */
};

struct plot_curve
{
  enum plot_curve_kind kind;
  double p1, p2;       /* (a, b) or (alpha, beta) */
  const char *title;   /* legend text (raw) */
  unsigned linetype;
  int has_lo, has_hi;  /* drawn only where lo <= x (has_lo), x < hi */
  double lo, hi;
};

struct plot_desc
{
  enum plot_mode mode;
  enum plot_term term;
  const char *version;   /* first comment line, e.g. "plotgen (msgperf) 0.1" */
  const char *argv;      /* second comment line, or NULL */
  const char *output;    /* output file, or NULL for stdout */
  unsigned width, height;/* pixels (png, svg), characters (dumb);
                            pdf: pixels at 100 per inch */
  const char *title;     /* NULL: none */
  const char *xlabel, *ylabel, *cblabel;
  int logx, logy;
  int whole_x;          /* every x a whole number >= 1: a log x axis's
                           ticks as whole numbers (1000000, not gnuplot's
                           1e+06 next to 100000) */
  int integer_xtics, integer_ytics; /* one tic per unit (ranks) */
  /* matrix: the names of ranks 0..nnames-1 (#@hosts), written as the
     tic labels of both axes, which then span every rank, so that a pair
     without a value is a blank cell; NULL: numbered tics */
  const char *const *names;
  size_t nnames;
  const char *data_file; /* data referenced by name, or NULL: inline */
  const char *data;      /* inline data (numbers, NA, blank lines) */
  size_t data_len;
  const struct plot_series *series;
  size_t nseries;
  const struct plot_curve *curves;
  size_t ncurves;
};

/* A growable text.  */
struct plot_text
{
  char *s;
  size_t len, cap;
  int failed;          /* an allocation failed: S is incomplete */
};

void plot_text_free (struct plot_text *t);

/* Append the script for D to OUT.  Returns 0, or -1 when an allocation
   failed or D is inconsistent (no series and no curve, a column 0, a
   non-finite curve parameter, inline data not ending with a newline).  */
int plot_script (const struct plot_desc *d, struct plot_text *out);

#endif
