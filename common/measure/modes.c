/* SPDX-License-Identifier: GPL-3.0-or-later */
/* modes.c: modes among sorted launch values by the gap rule of modes.h.  */
#include <config.h>
#include "modes.h"

#include <math.h>

#include "stats.h"

/* The log-ratio of the gap before group K (between its first value and
   the last value of group K-1).  */
static double
gap_before (const double *x, const struct mode *g, size_t k)
{
  return log (x[g[k].first] / x[g[k].first - 1]);
}

static void
merge_into_previous (struct mode *g, size_t *ng, size_t k)
{
  g[k - 1].count += g[k].count;
  for (size_t i = k; i + 1 < *ng; i++)
    g[i] = g[i + 1];
  (*ng)--;
}

size_t
modes_find (const double *x, size_t n, double factor, size_t min_count,
            struct mode *g)
{
  size_t ng = 0;
  int positive = n > 0 && x[0] > 0;
  for (size_t i = 0; i < n; i++)
    if (isnan (x[i]))
      positive = 0;
  g[ng++] = (struct mode) { 0, n < 1 ? 0 : 1, 0, 0 };
  for (size_t i = 1; i < n; i++)
    {
      if (positive && x[i] >= factor * x[i - 1])
        g[ng++] = (struct mode) { i, 1, 0, 0 };
      else
        g[ng - 1].count++;
    }
  /* Merge the smallest small group first, into the neighbour across the
     smaller gap, until every group has MIN_COUNT values or one is
     left.  */
  for (;;)
    {
      size_t worst = ng;
      for (size_t k = 0; k < ng; k++)
        if (g[k].count < min_count
            && (worst == ng || g[k].count < g[worst].count))
          worst = k;
      if (worst == ng || ng == 1)
        break;
      if (worst == 0)
        merge_into_previous (g, &ng, 1);
      else if (worst + 1 == ng
               || gap_before (x, g, worst) <= gap_before (x, g, worst + 1))
        merge_into_previous (g, &ng, worst);
      else
        merge_into_previous (g, &ng, worst + 1);
    }
  for (size_t k = 0; k < ng; k++)
    {
      g[k].median = stats_median_sorted (x + g[k].first, g[k].count);
      g[k].share = (double) g[k].count / (double) n;
    }
  return ng;
}
