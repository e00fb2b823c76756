/* SPDX-License-Identifier: GPL-3.0-or-later */
/* timerstep.c: the step of a clock from its intervals (see timerstep.h). */
#include <config.h>
#include "timerstep.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"

/* Share of the N sorted positive intervals X within TOL of a multiple
   of S; stops counting as soon as more than 5% miss.  */
static int
fits (const double *x, size_t n, double s, double tol)
{
  size_t miss = 0, allowed = n / 20;
  for (size_t i = 0; i < n; i++)
    if (fabs (x[i] - s * round (x[i] / s)) > tol && ++miss > allowed)
      return 0;
  return 1;
}

double
timer_step (const double *d, size_t n, double tick, double *min_diff)
{
  double *x = malloc ((n + 1) * sizeof *x);
  size_t m = 0;
  if (x != NULL)
    for (size_t i = 0; i < n; i++)
      if (d[i] > 0 && isfinite (d[i]))
        x[m++] = d[i];
  if (min_diff)
    *min_diff = NAN;
  if (m == 0)
    {
      free (x);
      return tick > 0 ? tick : NAN;
    }
  stats_sort (x, m);
  if (min_diff)
    *min_diff = x[0];
  double result = tick;
  if (!(tick > 0) || !isfinite (tick))
    {
      /* No unit to go by: the smallest interval is the best bound.  */
      result = x[0];
      free (x);
      return result;
    }
  /* The lower edge of the intervals, robust to a stray short one.  */
  double lo = stats_quantile_sorted (x, m, 0.01);
  /* One tick for the rounding of the readings, and room for the
     rounding of the doubles themselves.  */
  double tol = 1.01 * tick + 1e-9 * x[m - 1];
  size_t kmax = (size_t) (lo / (4 * tick));
  if (kmax > 1000)
    kmax = 1000;
  for (size_t k = 1; k <= kmax; k++)
    {
      int found = 0;
      for (int j = 0; j <= 2 && !found; j++)
        {
          double s = (lo + (j == 1 ? -tick : j == 2 ? tick : 0)) / (double) k;
          if (s >= 4 * tick && fits (x, m, s, tol))
            {
              result = s;
              found = 1;
            }
        }
      if (found)
        break;
    }
  free (x);
  return result;
}
