/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyper_io.c: hyper-reduce's streams bound to the hyperbolic model
   (hyper_io.h): the blocks and --let variables an expression of
   hyperexpr.h reads, and the rows written.  */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "hyper_io.h"
#include "num.h"
#include "readfile.h"
#include "xalloc.h"

void
dvec_push (struct dvec *d, double x)
{
  if (d->n == d->cap)
    {
      d->cap = d->cap ? 2 * d->cap : 64;
      d->v = xrealloc (d->v, d->cap * sizeof *d->v);
    }
  d->v[d->n++] = x;
}

/* A size or a count: an integer when it is one (whatever --precision).  */
void
hr_put_count (tsv_writer *w, double v)
{
  if (v == floor (v) && fabs (v) < 9e15)
    tsv_put_int (w, (int64_t) v);
  else
    tsv_put_num (w, v);
}

/* Write the time unit shared by the readers, if any.  */
void
hr_write_common_meta (tsv_writer *w, tsv_reader *const *rs, size_t n,
                      const char *sub)
{
  for (size_t i = 0; i < n; i++)
    tsv_copy_meta (w, rs[i]);
  tsv_write_tool_meta (w, sub);
  tsv_meta_time_unit (w, n ? tsv_time_unit (rs, n) : NULL);
}

enum hexpr_binding
hr_lookup (void *ctx, const char *name, double *num, struct hyper_cb *cb)
{
  const struct hr_scope *sc = ctx;
  for (size_t i = 0; i < sc->nlets; i++)
    if (strcmp (sc->lets[i].name, name) == 0)
      {
        *num = sc->lets[i].cur;
        return HEXPR_NUMBER;
      }
  for (size_t i = 0; i < sc->nblocks; i++)
    if (strcmp (sc->blocks[i].name, name) == 0)
      {
        *cb = sc->blocks[i].cb;
        return HEXPR_BLOCK;
      }
  return HEXPR_UNBOUND;
}

/* The expression file PATH, as text.  */
char *
hr_read_expr_file (const char *path)
{
  char *text;
  size_t len;
  enum readfile_status st = read_file (path, 1, &text, &len);
  if (st == READFILE_NUL)
    die ("%s: the expression file contains a NUL byte", path);
  if (st == READFILE_NOMEM)
    die ("%s: out of memory while reading the expression file", path);
  if (st != READFILE_OK)
    die ("%s: %s: %s", path, readfile_strerror (st), strerror (errno));
  return text;
}

/* Does the expression use a name that no --let binds (a block)?  */
int
hr_needs_blocks (const struct hexpr *e, const struct hr_letvar *lets,
                 size_t nlets)
{
  for (size_t i = 0; i < hexpr_nnames (e); i++)
    {
      int bound = 0;
      for (size_t j = 0; j < nlets; j++)
        bound |= strcmp (lets[j].name, hexpr_name (e, i)) == 0;
      if (!bound)
        return 1;
    }
  return 0;
}

/* The block table of R (name, a, b) into BS.  */
void
hr_read_blocks (tsv_reader *r, struct hr_scope *sc, const char *name_col)
{
  size_t cn = tsv_col_required (r, name_col);
  size_t ca = tsv_col_required (r, "a");
  size_t cb = tsv_col_required (r, "b");
  while (tsv_next (r))
    {
      const char *name = tsv_field (r, cn);
      if (!tsv_valid_name (name))
        tsv_die_field (r, cn, "invalid block name '%s' (expected "
                       "[A-Za-z][A-Za-z0-9_]*)", name);
      for (size_t i = 0; i < sc->nblocks; i++)
        if (strcmp (sc->blocks[i].name, name) == 0)
          tsv_die_field (r, cn, "block '%s' is defined twice", name);
      for (size_t i = 0; i < sc->nlets; i++)
        if (strcmp (sc->lets[i].name, name) == 0)
          tsv_die_field (r, cn, "block '%s' has the name of a --let "
                         "variable", name);
      /* NA (a parameter invert could not identify) is kept: the
         results that depend on it are NA.  */
      struct hyper_cb c = { tsv_num (r, ca, 1), tsv_num (r, cb, 1) };
      if (c.a < 0)
        tsv_die_field (r, ca, "block '%s': a must be >= 0, not '%s'",
                       name, tsv_field (r, ca));
      if (c.b < 0)
        tsv_die_field (r, cb, "block '%s': b must be >= 0, not '%s'",
                       name, tsv_field (r, cb));
      sc->blocks = xrealloc (sc->blocks,
                             (sc->nblocks + 1) * sizeof *sc->blocks);
      sc->blocks[sc->nblocks].name = xstrdup (name);
      sc->blocks[sc->nblocks].cb = c;
      sc->nblocks++;
    }
}

/* The --let values of combination ROW (the first varying slowest) into
   POS, and into each variable's current value.  */
void
hr_combination (const struct hr_scope *sc, size_t row, size_t *pos)
{
  for (size_t i = sc->nlets; i > 0; i--)
    {
      pos[i - 1] = row % sc->lets[i - 1].vals.n;
      row /= sc->lets[i - 1].vals.n;
    }
  for (size_t i = 0; i < sc->nlets; i++)
    sc->lets[i].cur = sc->lets[i].vals.v[pos[i]];
}

/* An evaluation error, with the --let values it happened at.  */
void
hr_eval_error (const struct hr_scope *sc, const char *where,
               const struct hexpr_error *err)
{
  if (err->nomem)
    die ("%s", err->msg);
  char with[200] = "";
  size_t len = 0;
  for (size_t i = 0; i < sc->nlets && len + 60 < sizeof with; i++)
    {
      char num[NUM_BUFSIZE];
      num_format (sc->lets[i].cur, -1, num);
      len += (size_t) snprintf (with + len, sizeof with - len, "%s%s=%s",
                                i ? ", " : " (with ", sc->lets[i].name, num);
    }
  if (sc->nlets)
    snprintf (with + len, sizeof with - len, ")");
  die_at (where, err->line, err->col, "%s%s", err->msg, with);
}

/* Warnings about NA and overflowing results (written NA).  */
void
hr_reduce_warn (const struct hyper_cb *outs, size_t ncomb)
{
  for (size_t row = 0; row < ncomb; row++)
    if (isnan (outs[row].a) || isnan (outs[row].b))
      {
        warn ("a block the expression uses has an NA parameter: the "
              "results that depend on it are NA");
        break;
      }
  for (size_t row = 0; row < ncomb; row++)
    if (isinf (outs[row].a) || isinf (outs[row].b))
      {
        warn ("a reduced a or b is above the largest double (about "
              "1.8e308) and is written NA (rescale the blocks, e.g. to a "
              "larger time unit)");
        break;
      }
}

/* One row per --let combination: the variables, then a and b.  */
void
hr_reduce_write (const struct hr_scope *sc, tsv_reader **rs, size_t nfiles,
                 const char *text, const struct hyper_cb *outs, size_t ncomb,
                 size_t *pos)
{
  const struct hr_letvar *lets = sc->lets;
  size_t nlets = sc->nlets;
  tsv_writer *w = tsv_writer_open (NULL);
  hr_write_common_meta (w, rs, nfiles, "reduce");
  tsv_meta (w, "expression", "%s", text);
  const char **names = xmalloc ((nlets + 2) * sizeof *names);
  for (size_t i = 0; i < nlets; i++)
    names[i] = lets[i].name;
  names[nlets] = "a";
  names[nlets + 1] = "b";
  tsv_write_header (w, nlets + 2, names);
  for (size_t row = 0; row < ncomb; row++)
    {
      hr_combination (sc, row, pos);
      for (size_t i = 0; i < nlets; i++)
        hr_put_count (w, lets[i].vals.v[pos[i]]);
      tsv_put_num (w, outs[row].a);
      tsv_put_num (w, outs[row].b);
      tsv_end_row (w);
    }
  tsv_writer_close (w);
  free (names);
}

struct hr_group *
hr_group_get (struct hr_groups *gs, const char *key)
{
  for (size_t i = gs->n; i > 0; i--)     /* the last one is the likeliest */
    if (strcmp (gs->v[i - 1].key, key) == 0)
      return &gs->v[i - 1];
  gs->v = xrealloc (gs->v, (gs->n + 1) * sizeof *gs->v);
  struct hr_group *g = &gs->v[gs->n++];
  memset (g, 0, sizeof *g);
  g->key = xstrdup (key);
  return g;
}

void
hr_groups_free (struct hr_groups *gs)
{
  for (size_t i = 0; i < gs->n; i++)
    {
      free (gs->v[i].key);
      free (gs->v[i].x.v);
      free (gs->v[i].t.v);
      free (gs->v[i].fits);
    }
  free (gs->v);
}

/* A relative residual RMS above this says the model does not fit.  */
#define FIT_BAD_REL_RMS 0.10

/* The explanation of a refused or failed fit.  */
void
hr_die_fit (const char *what, enum hfit_status st,
            const struct hfit_result *r, const char *bytes_col,
            const char *time_col)
{
  const char *pa = r->model == HFIT_LINEAR ? "alpha" : "a";
  const char *pb = r->model == HFIT_LINEAR ? "beta" : "b";
  char va[NUM_BUFSIZE], vb[NUM_BUFSIZE];
  num_format (r->p[0], 6, va);
  num_format (r->p[1], 6, vb);
  if (st == HFIT_NEGATIVE_A)
    die ("%sthe best fit has %s = %s < 0 (%s = %s): a negative start-up "
         "time is not physical, so the fit is refused; the times do not "
         "level off for small messages as the model needs (look for a "
         "protocol switch and try --segments)", what, pa, va, pb, vb);
  if (st == HFIT_NEGATIVE_B)
    die ("%sthe best fit has %s = %s < 0 (%s = %s): the time decreases "
         "with the message size, which no communication block does, so "
         "the fit is refused (check the '%s' and '%s' columns, or try "
         "--segments)", what, pb, vb, pa, va, bytes_col, time_col);
  die ("%s%s", what, hfit_strerror (st));
}

static void
put_fit (tsv_writer *w, const char *key, const char *by, int segmented,
         size_t seg, const struct hfit_result *r)
{
  if (by)
    tsv_put_str (w, key);
  if (segmented)
    {
      tsv_put_int (w, (int64_t) seg + 1);
      hr_put_count (w, r->x_lo);
      hr_put_count (w, r->x_hi);
    }
  tsv_put_num (w, r->p[0]);
  tsv_put_num (w, r->p[1]);
  tsv_put_num (w, r->se[0]);
  tsv_put_num (w, r->se[1]);
  tsv_put_num (w, r->rms);
  tsv_put_num (w, r->rel_rms);
  tsv_put_num (w, r->r2);
  tsv_put_int (w, (int64_t) r->n);
  tsv_end_row (w);
  char where[300] = "";
  if (by && segmented)
    snprintf (where, sizeof where, "group %s='%s', segment %zu: ", by,
              key, seg + 1);
  else if (by)
    snprintf (where, sizeof where, "group %s='%s': ", by, key);
  else if (segmented)
    snprintf (where, sizeof where, "segment %zu: ", seg + 1);
  if (r->rel_rms > FIT_BAD_REL_RMS && isfinite (r->rel_rms))
    {
      char v[NUM_BUFSIZE];
      num_format (100 * r->rel_rms, 3, v);
      warn ("%sthe residuals are large (relative RMS %s%%): the data do "
            "not look %s", where, v,
            r->model == HFIT_LINEAR ? "linear" : "hyperbolic");
    }
  if (r->n_rejected > 0)
    warn ("%sthe robust fit gave weight 0 to %zu of %zu points (relative "
          "residuals beyond 4.685 times their robust scale: stalls or "
          "protocol switches); --weight relative keeps them",
          where, r->n_rejected, r->n);
  /* A value written NA: say which and why (msgperf(7), NUMBERS).  */
  int lin = r->model == HFIT_LINEAR;
  const char *cols[7] = { lin ? "alpha" : "a", lin ? "beta" : "b",
                          lin ? "alpha_se" : "a_se", lin ? "beta_se" : "b_se",
                          "rms", "rel_rms", "r2" };
  double vals[7] = { r->p[0], r->p[1], r->se[0], r->se[1], r->rms,
                     r->rel_rms, r->r2 };
  char list[100] = "";
  size_t len = 0, nna = 0;
  for (int i = 0; i < 7; i++)
    if (!isfinite (vals[i]))
      {
        len += (size_t) snprintf (list + len, sizeof list - len, "%s%s",
                                  nna ? ", " : "", cols[i]);
        nna++;
      }
  if (nna == 1 && !isfinite (r->r2))
    warn_once ("fit-r2", "%sr2 is NA: every time is the same, so r2 = 1 - "
               "SS_res/SS_tot is undefined", where);
  else if (nna)
    warn_once ("fit-overflow", "%s%s %s NA: %s overflow%s a double (values "
               "near 1e308; rescale the times or sizes, e.g. to a larger "
               "unit)", where, list, nna > 1 ? "are" : "is",
               nna > 1 ? "they" : "it", nna > 1 ? "" : "s");
}

/* Every fit succeeded: write them.  */
void
hr_fit_write (const struct hr_groups *gs, tsv_reader **rs, size_t nr,
              const char *model, const char *weight, const char *by,
              int segmented, int linear)
{
  tsv_writer *w = tsv_writer_open (NULL);
  hr_write_common_meta (w, rs, nr, "fit");
  tsv_meta (w, "model", "%s", model);
  tsv_meta (w, "weight", "%s", weight);
  const char *names[16];
  size_t nn = 0;
  if (by)
    names[nn++] = by;
  if (segmented)
    {
      names[nn++] = "segment";
      names[nn++] = "bytes_lo";
      names[nn++] = "bytes_hi";
    }
  int lin = linear;
  names[nn++] = lin ? "alpha" : "a";
  names[nn++] = lin ? "beta" : "b";
  names[nn++] = lin ? "alpha_se" : "a_se";
  names[nn++] = lin ? "beta_se" : "b_se";
  names[nn++] = "rms";
  names[nn++] = "rel_rms";
  names[nn++] = "r2";
  names[nn++] = "points";   /* n means the network's dimensions */
  tsv_write_header (w, nn, names);
  for (size_t gi = 0; gi < gs->n; gi++)
    for (size_t s = 0; s < gs->v[gi].nfits; s++)
      put_fit (w, gs->v[gi].key, by, segmented, s, &gs->v[gi].fits[s]);
  tsv_writer_close (w);
}

/* Fit eq. (2) to one group and make an observation.  */
struct hinv_obs
hr_observe (const char *what, double n, int rtt, const struct dvec *x,
            const struct dvec *t, const char *bytes_col, const char *time_col)
{
  struct hfit_options fo = { HFIT_HYPERBOLIC, HFIT_WEIGHT_RELATIVE };
  struct hfit_result r;
  enum hfit_status st = hfit_fit (x->v, t->v, x->n, &fo, &r);
  if (st != HFIT_OK)
    hr_die_fit (what, st, &r, bytes_col, time_col);
  struct hinv_obs o = { n, rtt, r.p[0], r.se[0], r.p[1], r.se[1] };
  return o;
}

/* The two rows of the solution, with its notes as metadata and
   warnings.  */
void
hr_invert_write (const struct hinv_result *res, const char *pattern,
                 tsv_reader **inputs, size_t ninputs)
{
  tsv_writer *w = tsv_writer_open (NULL);
  hr_write_common_meta (w, inputs, ninputs, "invert");
  tsv_meta (w, "pattern", "%s", pattern);
  for (size_t i = 0; i < res->nnotes; i++)
    {
      tsv_meta (w, "note", "%s", res->note[i]);
      warn ("%s", res->note[i]);
    }
  static const char *const names[] = { "name", "a", "b", "a_se", "b_se",
                                       "a_status", "b_status" };
  tsv_write_header (w, 7, names);
  for (int i = 0; i < 2; i++)
    {
      tsv_put_str (w, res->name[i]);
      tsv_put_num (w, res->a[i].value);
      tsv_put_num (w, res->b[i].value);
      tsv_put_num (w, res->a[i].se);
      tsv_put_num (w, res->b[i].se);
      tsv_put_str (w, hinv_status_name (res->a[i].status));
      tsv_put_str (w, hinv_status_name (res->b[i].status));
      tsv_end_row (w);
    }
  tsv_writer_close (w);
}

void
hr_eval_row (tsv_writer *w, double x, double a, double b, double m, double p,
             int exact)
{
  double t = hyper_time (x, a, b);                      /* eq. (2) */
  double ts = exact ? hyper_sawtooth (x, a, m, p) : 0;  /* eq. (1) */
  if (exact)
    tsv_put_num (w, ts);
  tsv_put_num (w, t);
  tsv_end_row (w);
  if ((isinf (t) || isinf (ts)) && !isnan (x) && !isnan (a) && !isnan (b))
    warn_once ("inf", "a time above the largest double (about 1.8e308) is "
               "written NA (rescale a, b or the sizes, e.g. to a larger "
               "unit)");
}

/* A parameter from --params or --set that is NA: the layer's error.  */
void
hr_eval_need (struct hr_eval_job *j, int k)
{
  param_need (&j->ps, k ? PARAM_B : PARAM_A, k ? "-b or --set b=VALUE"
              : "-a or --set a=VALUE");
}

/* The input FILEs (standard input without one), which must share one
   header: the output has one.  */
void
hr_eval_open_inputs (struct hr_eval_job *j, const char **files)
{
  const char *stdin_only[] = { "-", NULL };
  if (!files)
    files = stdin_only;
  while (files[j->nfiles])
    j->nfiles++;
  j->rs = xmalloc (j->nfiles * sizeof *j->rs);
  if (files == stdin_only && isatty (STDIN_FILENO))
    fprintf (stderr, "hyper-reduce: reading rows (a TSV stream with a "
             "header) from standard input; end them with Ctrl-D, or give "
             "-a, -b and --bytes\n");
  for (size_t f = 0; f < j->nfiles; f++)
    j->rs[f] = tsv_open (files[f]);
  for (size_t f = 1; f < j->nfiles; f++)
    tsv_same_header (j->rs[0], j->rs[f]);
}

/* Where a, b and the size of each row come from (a column, or a value
   given), and the output header: the input's columns, the given ones,
   the time.  */
void
hr_eval_columns (struct hr_eval_job *j)
{
  tsv_reader *r0 = j->rs[0];
  struct hr_eval_src *src = j->src;
  size_t nin = tsv_ncols (r0);
  /* Static: still reachable when a later error ends the program.  */
  static const char **in_names;
  j->names = in_names = xmalloc ((nin + 5) * sizeof *j->names);
  for (size_t i = 0; i < nin; i++)
    j->names[j->nn++] = tsv_colname (r0, i);
  for (int k = 0; k < 3; k++)
    {
      long c = tsv_col (r0, src[k].name);
      if (k < 2 && j->layered[k] && c >= 0)
        {
          /* the input's column is above --params and --set */
          src[k].vals.n = 0;
          src[k].col = c;
          if (k == 1)
            j->plogp_b = 0;
          continue;
        }
      if (k < 2 && j->layered[k] && !(k == 1 && j->plogp_b))
        hr_eval_need (j, k);
      if (src[k].vals.n)
        {
          if (c >= 0)
            die ("%s: the input has column '%s' and %s was also given",
                 tsv_name (r0), src[k].name,
                 k == 0 ? (j->packet ? "--fixed" : "-a")
                 : k == 1 ? (j->packet ? "--fixed" : "-b") : "--bytes");
          j->names[j->nn++] = src[k].name;
        }
      else
        src[k].col = (long) tsv_col_required (r0, src[k].name);
    }
  if (tsv_col (r0, j->time_col) >= 0
      || (j->exact && tsv_col (r0, j->time2) >= 0))
    die ("%s: the input already has a '%s' column (choose another name "
         "with --time-col)", tsv_name (r0),
         tsv_col (r0, j->time_col) >= 0 ? j->time_col : j->time2);
  j->names[j->nn++] = j->time_col;
  if (j->exact)
    j->names[j->nn++] = j->time2;
}

/* a or b (K) of R's current row: its column, or the value given.  */
static double
eval_ab (const struct hr_eval_src *src, int k, tsv_reader *r)
{
  double v = src[k].col >= 0 ? tsv_num (r, (size_t) src[k].col, 1)
                             : src[k].vals.v[0];
  if (v < 0)
    tsv_die_field (r, (size_t) src[k].col, "%s must be >= 0, not '%s'",
                   src[k].name, tsv_field (r, (size_t) src[k].col));
  return v;
}

/* Every row of every input, crossed with the --bytes sizes if given.  */
void
hr_eval_rows (struct hr_eval_job *j, tsv_writer *w)
{
  struct hr_eval_src *src = j->src;
  size_t nin = tsv_ncols (j->rs[0]);
  const struct dvec *xs = src[2].vals.n ? &src[2].vals : NULL;
  for (size_t f = 0; f < j->nfiles; f++)
    {
      tsv_reader *r = j->rs[f];
      size_t nmeta = tsv_nmeta (r);
      while (tsv_next (r))
        {
          if (tsv_nmeta (r) != nmeta)
            {
              /* A #@time_unit between rows must agree with the others
                 (the readers stay open until the end for this).  */
              tsv_time_unit (j->rs, j->nfiles);
              tsv_copy_meta (w, r);
              nmeta = tsv_nmeta (r);
            }
          double v[3];
          v[0] = eval_ab (src, 0, r);
          v[1] = eval_ab (src, 1, r);
          size_t nx = xs ? xs->n : 1;
          for (size_t x = 0; x < nx; x++)
            {
              if (xs)
                v[2] = xs->v[x];
              else
                {
                  v[2] = tsv_num (r, (size_t) src[2].col, 1);
                  if (v[2] < 0)
                    tsv_die_field (r, (size_t) src[2].col,
                                   "a message size must be >= 0, not "
                                   "'%s'",
                                   tsv_field (r, (size_t) src[2].col));
                }
              if (j->plogp_b)
                v[1] = j->b_of_size (v[2]);
              for (size_t i = 0; i < nin; i++)
                tsv_put_strn (w, tsv_field (r, i), tsv_field_len (r, i));
              for (int k = 0; k < 3; k++)
                if (src[k].col < 0)
                  {
                    if (k == 2)
                      hr_put_count (w, v[k]);
                    else
                      tsv_put_num (w, v[k]);
                  }
              if (isnan (v[0]) || isnan (v[1]) || isnan (v[2]))
                warn_once ("na", "rows with NA in a, b or %s get %s NA",
                           src[2].name, j->time_col);
              hr_eval_row (w, v[2], v[0], v[1], j->m, j->p, j->exact);
            }
        }
      /* Metadata after the last row.  */
      tsv_time_unit (j->rs, j->nfiles);
    }
}

/* Segments at the given breakpoints: a failed segment is named by its
   range.  Returns the number of fits in RES.  */
static size_t
fit_at (const struct hr_fit_plan *pl, struct hr_group *g, const char *what,
        struct hfit_result *res)
{
  const struct dvec *at = &pl->at;
  size_t bad = 0;
  enum hfit_status st = hfit_segments_at (g->x.v, g->t.v, g->x.n, at->v,
                                          at->n, &pl->fo, res, &bad);
  if (st == HFIT_NO_MEMORY)
    die ("%s%s", what, hfit_strerror (st));
  if (st != HFIT_OK)
    {
      char seg[300];
      char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE];
      if (bad > 0)
        num_format (at->v[bad - 1], -1, lo);
      if (bad < at->n)
        num_format (at->v[bad], -1, hi);
      snprintf (seg, sizeof seg, "%ssegment %zu (%s%s%s%s): ", what,
                bad + 1, bad > 0 ? lo : "", bad > 0 ? " <= bytes" : "bytes",
                bad < at->n ? " < " : "", bad < at->n ? hi : "");
      hr_die_fit (seg, st, &res[bad], pl->bytes_col, pl->time_col);
    }
  return at->n + 1;
}

/* Fit group G by PL into G->fits (RES and BREAKS: room for the fits).  */
void
hr_fit_group (const struct hr_fit_plan *pl, struct hr_group *g,
              struct hfit_result *res, double *breaks)
{
  char what[300] = "";
  if (pl->by)
    snprintf (what, sizeof what, "group %s='%s': ", pl->by, g->key);
  size_t k = 1;
  if (!pl->segmented)
    {
      enum hfit_status st = hfit_fit (g->x.v, g->t.v, g->x.n, &pl->fo, res);
      if (st != HFIT_OK)
        hr_die_fit (what, st, res, pl->bytes_col, pl->time_col);
    }
  else if (pl->search)
    {
      enum hfit_status st = hfit_segments_search (g->x.v, g->t.v, g->x.n,
                                                  pl->kfixed, pl->kmax,
                                                  &pl->fo, &k, breaks, res);
      if (st == HFIT_TOO_FEW)
        die ("%sno %s%zu-segment fit exists: every segment needs %d "
             "distinct message sizes and a fit with both parameters "
             ">= 0", what, pl->kfixed ? "" : "1- to ",
             pl->kfixed ? pl->kfixed : pl->kmax, HFIT_MIN_DISTINCT);
      if (st != HFIT_OK)
        die ("%s%s", what, hfit_strerror (st));
    }
  else
    k = fit_at (pl, g, what, res);
  g->fits = xmalloc (k * sizeof *g->fits);
  memcpy (g->fits, res, k * sizeof *g->fits);
  g->nfits = k;
}
