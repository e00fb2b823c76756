/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plotscript.c: the gnuplot script of a plot (see plotscript.h).  */
#include <config.h>
#include "plotscript.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gpquote.h"
#include "num.h"

/* ---------------------------------------------------------------- text */

void
plot_text_free (struct plot_text *t)
{
  free (t->s);
  t->s = NULL;
  t->len = t->cap = 0;
}

static int
reserve (struct plot_text *t, size_t more)
{
  if (t->failed)
    return -1;
  if (t->len + more + 1 <= t->cap)
    return 0;
  size_t cap = t->cap ? t->cap : 256;
  while (cap < t->len + more + 1)
    {
      if (cap > ((size_t) -1) / 2)
        {
          t->failed = 1;
          return -1;
        }
      cap *= 2;
    }
  char *s = realloc (t->s, cap);
  if (!s)
    {
      t->failed = 1;
      return -1;
    }
  t->s = s;
  t->cap = cap;
  return 0;
}

static void
put_mem (struct plot_text *t, const char *s, size_t n)
{
  if (reserve (t, n))
    return;
  memcpy (t->s + t->len, s, n);
  t->len += n;
  t->s[t->len] = '\0';
}

static void
put (struct plot_text *t, const char *s)
{
  put_mem (t, s, strlen (s));
}

/* Only for text made here from numbers and fixed words.  */
static void
putf (struct plot_text *t, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));
static void
putf (struct plot_text *t, const char *fmt, ...)
{
  char buf[256];
  va_list ap;
  va_start (ap, fmt);
  int n = vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  if (n < 0 || (size_t) n >= sizeof buf)
    {
      t->failed = 1;
      return;
    }
  put_mem (t, buf, (size_t) n);
}

/* S (from the input) as a single-quoted gnuplot string.  */
static void
put_quoted (struct plot_text *t, const char *s)
{
  if (reserve (t, gp_quote_size (s)))
    return;
  t->len += gp_quote (t->s + t->len, s);
}

static void
put_path (struct plot_text *t, const char *path)
{
  if (reserve (t, gp_quote_path_size (path)))
    return;
  t->len += gp_quote_path (t->s + t->len, path);
}

static void
put_comment (struct plot_text *t, const char *s)
{
  put (t, "# ");
  if (reserve (t, gp_comment_size (s)))
    return;
  t->len += gp_comment (t->s + t->len, s);
  put (t, "\n");
}

/* A finite number, in parentheses when negative so that "-3**2" cannot
   happen.  */
static void
put_num (struct plot_text *t, double v)
{
  char buf[NUM_BUFSIZE];
  num_format (v, -1, buf);
  if (v < 0)
    putf (t, "(%s)", buf);
  else
    put (t, buf);
}

/* ---------------------------------------------------------------- names */

static const char *const term_names[] = {
  [PLOT_TERM_DUMB] = "dumb",
  [PLOT_TERM_PNG] = "pngcairo",
  [PLOT_TERM_SVG] = "svg",
  [PLOT_TERM_PDF] = "pdfcairo",
};

const char *
plot_term_name (enum plot_term term)
{
  return term_names[term];
}

int
plot_term_from_path (const char *path, enum plot_term *term)
{
  static const struct { const char *ext; enum plot_term term; } table[] = {
    { ".png", PLOT_TERM_PNG },
    { ".svg", PLOT_TERM_SVG },
    { ".pdf", PLOT_TERM_PDF },
  };
  size_t n = strlen (path);
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    {
      size_t e = strlen (table[i].ext);
      /* A name that is only the extension (".png") is a hidden file
         without a name, not a picture.  */
      if (n > e && path[n - e - 1] != '/'
          && strcasecmp (path + n - e, table[i].ext) == 0)
        {
          *term = table[i].term;
          return 0;
        }
    }
  return -1;
}

static const char *const draw_names[] = {
  [PLOT_DRAW_LINES] = "lines",
  [PLOT_DRAW_POINTS] = "points",
  [PLOT_DRAW_LINESPOINTS] = "linespoints",
  [PLOT_DRAW_STEPS] = "steps",
};

int
plot_draw_from_name (const char *name, enum plot_draw *draw)
{
  for (size_t i = 0; i < sizeof draw_names / sizeof draw_names[0]; i++)
    if (strcmp (name, draw_names[i]) == 0)
      {
        *draw = (enum plot_draw) i;
        return 0;
      }
  return -1;
}

/* ---------------------------------------------------------------- script */

static void
put_terminal (struct plot_text *t, const struct plot_desc *d)
{
  putf (t, "set terminal %s noenhanced size ", plot_term_name (d->term));
  if (d->term == PLOT_TERM_PDF)
    {
      put_num (t, d->width / 100.0);
      put (t, ",");
      put_num (t, d->height / 100.0);
    }
  else
    putf (t, "%u,%u", d->width, d->height);
  put (t, "\n");
  if (d->output)
    {
      put (t, "set output ");
      put_path (t, d->output);
      put (t, "\n");
    }
}

static void
put_label (struct plot_text *t, const char *what, const char *text)
{
  if (!text)
    return;
  putf (t, "set %s ", what);
  put_quoted (t, text);
  put (t, " noenhanced\n");
}

static void
put_source (struct plot_text *t, const struct plot_desc *d, size_t block)
{
  if (d->data_file)
    put_path (t, d->data_file);
  else
    put (t, "$data");
  putf (t, " index %zu", block);
}

static void
put_title (struct plot_text *t, const char *title)
{
  if (title)
    {
      put (t, " title ");
      put_quoted (t, title);
      put (t, " noenhanced");
    }
  else
    put (t, " notitle");
}

static void
put_style (struct plot_text *t, const struct plot_series *s)
{
  if (s->linetype)
    putf (t, " lt %u", s->linetype);
  /* gnuplot's linetypes repeat colour and point type every 8: from the
     9th series on, its own point type keeps it apart.  */
  if (s->linetype > 8 && (s->draw == PLOT_DRAW_POINTS
                          || s->draw == PLOT_DRAW_LINESPOINTS))
    putf (t, " pt %u", s->linetype);
  if (s->color)
    {
      put (t, " lc rgb ");
      put_quoted (t, s->color);
    }
  if (s->dashed)
    put (t, " dt 2");
}

static int
put_series (struct plot_text *t, const struct plot_desc *d,
            const struct plot_series *s)
{
  if (s->ycol == 0)
    return -1;
  put_source (t, d, s->block);
  switch (s->draw)
    {
    case PLOT_DRAW_LINES:
    case PLOT_DRAW_POINTS:
    case PLOT_DRAW_LINESPOINTS:
    case PLOT_DRAW_STEPS:
      putf (t, " using 1:%u with %s", s->ycol, draw_names[s->draw]);
      break;
    case PLOT_DRAW_ERRORBARS:
      if (s->locol == 0 || s->hicol == 0)
        return -1;
      putf (t, " using 1:%u:%u:%u with yerrorbars", s->ycol, s->locol,
            s->hicol);
      break;
    case PLOT_DRAW_BOXES:
      /* columns: start, end, proc; a box from start to end, 0.8 high */
      put (t, " using (($1+$2)/2):3:1:2:($3-0.4):($3+0.4) with boxxyerror");
      break;
    case PLOT_DRAW_CELLS:
      /* columns: src, dst, value; one unit square per pair */
      putf (t, " using 1:2:($1-0.5):($1+0.5):($2-0.5):($2+0.5):%u"
            " with boxxyerror fs solid lc palette", s->ycol);
      break;
    default:
      return -1;
    }
  put_style (t, s);
  put_title (t, s->title);
  return 0;
}

/* A matrix's axes over ranks 0..N-1, each tic labelled with its name
   (rotated on x, where names would overlap).  */
static void
put_names (struct plot_text *t, const char *const *names, size_t n)
{
  const char *const axis[2] = { "x", "y" };
  for (int a = 0; a < 2; a++)
    {
      putf (t, "set %stics (", axis[a]);
      for (size_t i = 0; i < n; i++)
        {
          if (i)
            put (t, ", ");
          put_quoted (t, names[i]);
          putf (t, " %zu", i);
        }
      put (t, a == 0 ? ") rotate by 45 right\n" : ")\n");
    }
  putf (t, "set xrange [-0.5:%zu.5]\n", n - 1);
  putf (t, "set yrange [%zu.5:-0.5]\n", n - 1);  /* rank 0 on top */
}

static int
put_curve_def (struct plot_text *t, size_t i, const struct plot_curve *c)
{
  if (!isfinite (c->p1) || !isfinite (c->p2))
    return -1;
  putf (t, "fit%zu(x) = ", i + 1);
  if (c->has_lo || c->has_hi)
    {
      /* one segment of a piecewise fit: undefined (1/0) elsewhere */
      if ((c->has_lo && !isfinite (c->lo)) || (c->has_hi && !isfinite (c->hi)))
        return -1;
      put (t, "(");
      if (c->has_lo)
        {
          put (t, "x>=");
          put_num (t, c->lo);
        }
      if (c->has_lo && c->has_hi)
        put (t, " && ");
      if (c->has_hi)
        {
          put (t, "x<");
          put_num (t, c->hi);
        }
      put (t, ") ? ");
    }
  switch (c->kind)
    {
    case PLOT_CURVE_HYPERBOLIC:
      /* T(x; a, b) = a^2/(a + b x) + b x: eq. (2) of the hyperbolic-model
         paper (Stoica, Sultan, Keyes).  */
      put_num (t, c->p1);
      put (t, "**2/(");
      put_num (t, c->p1);
      put (t, "+");
      put_num (t, c->p2);
      put (t, "*x)+");
      put_num (t, c->p2);
      put (t, "*x");
      break;
    case PLOT_CURVE_LINEAR:
      /* T(x) = alpha + beta x (Hockney) */
      put_num (t, c->p1);
      put (t, "+");
      put_num (t, c->p2);
      put (t, "*x");
      break;
    default:
      return -1;
    }
  put (t, c->has_lo || c->has_hi ? " : 1/0\n" : "\n");
  return 0;
}

int
plot_script (const struct plot_desc *d, struct plot_text *out)
{
  struct plot_text *t = out;
  if (d->nseries == 0 && d->ncurves == 0)
    return -1;
  if (!d->data_file
      && (d->data_len == 0 || d->data[d->data_len - 1] != '\n'))
    return -1;

  put_comment (t, d->version ? d->version : "");
  if (d->argv)
    put_comment (t, d->argv);
  put_terminal (t, d);
  put (t, "set datafile missing 'NA'\n");
  put_label (t, "title", d->title);
  if (d->term == PLOT_TERM_DUMB && d->title && d->ylabel)
    put (t, "set title offset 0,1\n"); /* above the y label (see below) */
  put_label (t, "xlabel", d->xlabel);
  if (d->term == PLOT_TERM_DUMB && d->ylabel)
    {
      /* the dumb terminal cannot write rotated text: the y label goes
         above the top left corner of the graph */
      put (t, "set label 1 ");
      put_quoted (t, d->ylabel);
      put (t, " at graph 0, graph 1 left offset -4,1 noenhanced\n");
      putf (t, "set tmargin %d\n", d->title ? 4 : 2);
    }
  else
    put_label (t, "ylabel", d->ylabel);
  put_label (t, "cblabel", d->cblabel);
  if (d->logx)
    put (t, "set logscale x\n");
  if (d->logx && d->whole_x)
    put (t, "set format x '%.0f'\n");
  if (d->logy)
    put (t, "set logscale y\n");
  if (d->integer_xtics)
    put (t, "set xtics 1\n");
  if (d->integer_ytics)
    put (t, "set ytics 1\n");
  switch (d->mode)
    {
    case PLOT_MODE_XY:
      /* a margin of 5% around the data, so that no point sits on the
         frame: the ranges fit the data exactly (not widened to the next
         tic, which may be the data's own extreme), then grow by the
         offsets (graph units: also on a log axis) */
      put (t, "set autoscale fix\n");
      put (t, "set offsets graph 0.05, graph 0.05, graph 0.05, "
           "graph 0.05\n");
      /* room for half the last x tic's label, which may now fall near
         the right edge rather than on it */
      put (t, "set rmargin 5\n");
      put (t, "set grid\n");
      /* the fits' legends are long (ranges, parameters, units): below
         the graph, where they hide no point */
      put (t, d->ncurves ? "set key below left Left reverse\n"
           : "set key top left\n");
      break;
    case PLOT_MODE_GANTT:
      put (t, "set yrange [*:*] reverse\n");
      put (t, "set autoscale xfix\n");
      put (t, "set autoscale yfix\n");
      put (t, "set offsets 0, 0, 0.2, 0.2\n");
      put (t, "set style fill solid 0.85 border -1\n");
      put (t, "set key below horizontal\n");
      break;
    case PLOT_MODE_MATRIX:
      if (d->nnames)
        put_names (t, d->names, d->nnames);
      else
        {
          put (t, "set yrange [*:*] reverse\n");
          put (t, "set autoscale xfix\n");
          put (t, "set autoscale yfix\n");
        }
      put (t, "set size ratio -1\n");
      break;
    }
  if (d->ncurves)
    put (t, "set samples 400\n");
  for (size_t i = 0; i < d->ncurves; i++)
    if (put_curve_def (t, i, &d->curves[i]))
      return -1;
  if (!d->data_file)
    {
      put (t, "$data << EOD\n");
      put_mem (t, d->data, d->data_len);
      put (t, "EOD\n");
    }
  put (t, "plot ");
  size_t n = 0;
  for (size_t i = 0; i < d->nseries; i++, n++)
    {
      if (n)
        put (t, ", \\\n     ");
      if (put_series (t, d, &d->series[i]))
        return -1;
    }
  for (size_t i = 0; i < d->ncurves; i++, n++)
    {
      const struct plot_curve *c = &d->curves[i];
      if (n)
        put (t, ", \\\n     ");
      putf (t, "fit%zu(x) with lines", i + 1);
      if (c->linetype)
        putf (t, " lt %u", c->linetype);
      put (t, " lw 2");
      put_title (t, c->title);
    }
  put (t, "\n");
  if (d->output)
    put (t, "unset output\n");
  return t->failed ? -1 : 0;
}
