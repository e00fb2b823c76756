/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clockskew.c: clock offsets from round trips, accumulated up a tree
 * (clockskew.h; MRNet, SC'03, section 3.1).  */
#include <config.h>

#include "clockskew.h"

#include <math.h>
#include <stdlib.h>

int
cs_estimate (const struct cs_probe *p, size_t n, struct cs_estimate *e)
{
  size_t best = n;
  double best_rtt = INFINITY;
  for (size_t i = 0; i < n; i++)
    {
      double rtt = p[i].t_recv - p[i].t_send;
      if (!(rtt >= 0) || !isfinite (p[i].t_remote))
        continue;
      if (rtt < best_rtt)
        {
          best_rtt = rtt;
          best = i;
        }
    }
  e->n = n;
  if (best == n)
    return -1;
  e->best = best;
  e->rtt = best_rtt;
  e->bound = best_rtt / 2;
  /* offset = t_remote - (t_send + t_recv) / 2, written so that the
     midpoint does not lose the low bits of large timestamps.  */
  e->offset = (p[best].t_remote - p[best].t_send) - best_rtt / 2;
  return 0;
}

/* Set the offsets of the children of R from R's own.  The ranks are
   visited in an order where every parent comes before its children
   (a breadth-first walk).  */
static void
visit (const struct tree *t, int r, const double *local,
       const double *local_bound, double *global, double *bound)
{
  for (int i = 0; i < tree_nchildren (t, r); i++)
    {
      int c = tree_children (t, r)[i];
      global[c] = global[r] + local[c];
      if (bound)
        bound[c] = bound[r] + (local_bound ? local_bound[c] : 0);
    }
}

void
cs_lift (double *v, size_t n, double local)
{
  for (size_t i = 0; i < n; i++)
    v[i] += local;
}

int
cs_accumulate (const struct tree *t, const double *local,
               const double *local_bound, double *global, double *bound)
{
  /* Parents before children: a breadth-first walk from the root.  */
  int *queue = malloc ((size_t) t->n * sizeof (int));
  if (!queue)
    return -1;
  int head = 0, tail = 0;
  global[0] = 0;
  if (bound)
    bound[0] = 0;
  queue[tail++] = 0;
  while (head < tail)
    {
      int r = queue[head++];
      visit (t, r, local, local_bound, global, bound);
      for (int i = 0; i < tree_nchildren (t, r); i++)
        queue[tail++] = tree_children (t, r)[i];
    }
  free (queue);
  return 0;
}
