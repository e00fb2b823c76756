/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_launch: the launches of a --params stream and the row of their
   predictions (dag_launch.h).  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dag_launch.h"
#include "dag_report.h"
#include "err.h"
#include "num.h"
#include "xalloc.h"

/* Field COL of the file's row R as a number (NA: NaN when NA_OK).  */
static double
field_num (const struct param_file *pf, size_t r, long col, int na_ok,
           const char *what)
{
  const char *f = pf->cell[r * pf->ncols + (size_t) col];
  double v;
  if (na_ok && strcmp (f, "NA") == 0)
    return NAN;
  if (num_parse_str (f, &v) != NUM_OK || v < 0 || v != floor (v))
    die_at (pf->name, pf->line[r], col + 1, "column '%s': '%s' is not %s",
            pf->col[col], f, what);
  return v;
}

void
dag_launch_read (const struct dag_bind *b, int one_row,
                 struct dag_launches *ls)
{
  const struct param_file *pf = b->pfile;
  long lc = param_file_col (pf, "launch");
  long sc = param_file_col (pf, "cpu_shared");
  if (lc < 0)
    die_at (pf->name, pf->header_line, 0, "--interval predicts once per "
            "launch: the parameters need a launch column (msgperf-launch "
            "-- mpirun ... logp-measure)");
  size_t n = b->nprow;
  double *id = xmalloc (n * sizeof *id);
  int *shared = xmalloc (n * sizeof *shared);
  for (size_t i = 0; i < n; i++)
    {
      size_t r = b->prow[i];
      id[i] = field_num (pf, r, lc, 0, "a launch number");
      /* NA: msgperf-launch could not see the machine; the launch stays */
      shared[i] = sc >= 0 && field_num (pf, r, sc, 1, "0, 1 or NA") == 1;
    }
  dag_launches_group (id, shared, n, ls);
  free (id);
  free (shared);
  if (ls->n == 0)
    die_at (pf->name, 0, 0, "every launch is flagged cpu_shared: no "
            "launch is left to predict with");
  for (size_t k = 0; one_row && k < ls->n; k++)
    if (ls->start[k + 1] - ls->start[k] > 1)
      die_at (pf->name, pf->line[b->prow[ls->rows[ls->start[k] + 1]]], 0,
              "launch %.0f has several parameter rows (the first at line "
              "%ld): select one per launch with --where, or use per-size "
              "rows with -m plogp", ls->id[k],
              pf->line[b->prow[ls->rows[ls->start[k]]]]);
}

void
dag_launch_write (tsv_writer *w, const struct dag_bind *b, int model,
                  const struct dag *d, const struct dag_launches *ls,
                  struct dagsim_result *rs, const int *its,
                  const struct dag_params *each)
{
  size_t n = ls->n;
  double *ms = xmalloc (n * sizeof *ms);
  struct dagsim_result r = rs[0];
  int iters = 0;
  for (size_t i = 0; i < n; i++)
    {
      ms[i] = rs[i].makespan;
      if (rs[i].stuck)
        r.stuck = rs[i].stuck;
      if (its[i] > iters)
        iters = its[i];
    }
  struct dag_interval iv;
  dag_interval_of (ms, n, &iv);
  r.makespan = iv.median;
  struct dag_params p;
  dag_interval_params (each, n, (enum dag_model) model, &p);
  static const char *const keys[] = { "launches", "shared", "makespan_min",
                                      "makespan_max" };
  dag_summary_header (w, (enum dag_model) model, NULL, 4, keys,
                      b->cores != 0);
  tsv_put_int (w, (int64_t) n);
  tsv_put_int (w, (int64_t) ls->shared);
  tsv_put_num (w, iv.min);
  tsv_put_num (w, iv.max);
  dag_summary_row (w, (enum dag_model) model, NULL, 0, d, &r, iters, &p,
                   b->cores != 0);
  for (size_t i = 0; i < n; i++)
    dagsim_result_free (&rs[i]);
  free (ms);
}
