/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_interval: the median and range of per-launch predictions, and the
   grouping of a parameter stream's rows by launch (dag_interval.h).

   Why one prediction per launch rather than one at each end of the
   parameters' intervals: the makespan is monotone in a parameter only on
   schedules whose order of service cannot change (msgperf-models(7),
   Monotonicity); elsewhere a larger L or o can reorder a rank's work and
   shorten the run.  And a launch's parameters move together (the ranks'
   placement, the machine's state), so the least L and the least g of
   different launches are a set no launch had.  Predicting with each
   launch's own set needs neither assumption.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dag_interval.h"
#include "xalloc.h"

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* The median of sorted X[0..N): the middle value, or the mean of the
   two middle ones.  */
static double
median_sorted (const double *x, size_t n)
{
  return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

void
dag_interval_of (const double *ms, size_t n, struct dag_interval *iv)
{
  iv->n = n;
  iv->median = iv->min = iv->max = NAN;
  double *x = xmalloc (n * sizeof *x);
  for (size_t i = 0; i < n; i++)
    {
      if (isnan (ms[i]))
        {
          free (x);
          return;
        }
      x[i] = ms[i];
    }
  qsort (x, n, sizeof *x, cmp_double);
  iv->median = median_sorted (x, n);
  iv->min = x[0];
  iv->max = x[n - 1];
  free (x);
}

void
dag_interval_params (const struct dag_params *each, size_t n,
                     enum dag_model m, struct dag_params *out)
{
  *out = each[0];
  double *x = xmalloc (n * sizeof *x);
  for (const char *const *p = dag_model_param_names (m); *p; p++)
    {
      for (size_t i = 0; i < n; i++)
        x[i] = dag_params_get (&each[i], *p);
      qsort (x, n, sizeof *x, cmp_double);
      dag_params_set (out, *p, median_sorted (x, n));
    }
  free (x);
}

size_t
dag_launches_group (const double *id, const int *shared, size_t n,
                    struct dag_launches *ls)
{
  /* launch of each row, as an index into the distinct numbers */
  double *ids = xmalloc ((n ? n : 1) * sizeof *ids);
  int *out = xcalloc (n ? n : 1, sizeof *out);
  size_t *of = xmalloc ((n ? n : 1) * sizeof *of), nid = 0;
  for (size_t i = 0; i < n; i++)
    {
      size_t k = 0;
      while (k < nid && ids[k] != id[i])
        k++;
      if (k == nid)
        ids[nid++] = id[i];
      of[i] = k;
      if (shared[i])
        out[k] = 1;
    }
  ls->rows = xmalloc ((n ? n : 1) * sizeof *ls->rows);
  ls->start = xmalloc ((nid + 1) * sizeof *ls->start);
  ls->id = xmalloc ((nid ? nid : 1) * sizeof *ls->id);
  ls->n = ls->shared = 0;
  size_t nr = 0;
  for (size_t k = 0; k < nid; k++)
    {
      if (out[k])
        {
          ls->shared++;
          continue;
        }
      ls->start[ls->n] = nr;
      ls->id[ls->n++] = ids[k];
      for (size_t i = 0; i < n; i++)
        if (of[i] == k)
          ls->rows[nr++] = i;
    }
  ls->start[ls->n] = nr;
  free (ids);
  free (out);
  free (of);
  return ls->n;
}

void
dag_launches_single (size_t n, struct dag_launches *ls)
{
  ls->n = n;
  ls->shared = 0;
  ls->rows = xmalloc ((n ? n : 1) * sizeof *ls->rows);
  ls->start = xmalloc ((n + 1) * sizeof *ls->start);
  ls->id = xmalloc ((n ? n : 1) * sizeof *ls->id);
  for (size_t i = 0; i <= n; i++)
    ls->start[i] = i;
  for (size_t i = 0; i < n; i++)
    {
      ls->rows[i] = i;
      ls->id[i] = (double) (i + 1);
    }
}

void
dag_launches_free (struct dag_launches *ls)
{
  free (ls->rows);
  free (ls->start);
  free (ls->id);
  memset (ls, 0, sizeof *ls);
}
