/* SPDX-License-Identifier: GPL-3.0-or-later */
/* treecost.c: LogP cost of a broadcast down a tree (treecost.h; MRNet,
 * SC'03, Section 2.6).  */
#include <config.h>

#include "treecost.h"

#include <stdlib.h>

int
tree_bcast_cost (const struct tree *t, double L, double o, double g,
                 struct tree_cost *c, double *arrival)
{
  double *at = arrival ? arrival : malloc ((size_t) t->n * sizeof (double));
  int *queue = malloc ((size_t) t->n * sizeof (int));
  if (!at || !queue)
    {
      if (!arrival)
        free (at);
      free (queue);
      return -1;
    }
  int head = 0, tail = 0;
  at[0] = 0;
  queue[tail++] = 0;
  c->latency = 0;
  c->last = 0;
  c->interval = g * t->max_fanout;
  /* Parents before children: a breadth-first walk.  */
  while (head < tail)
    {
      int r = queue[head++];
      int k = tree_nchildren (t, r);
      for (int i = 0; i < k; i++)
        {
          int ch = tree_children (t, r)[i];
          at[ch] = at[r] + (i + 1) * g + 2 * o + L;
          if (at[ch] > c->latency)
            {
              c->latency = at[ch];
              c->last = ch;
            }
          queue[tail++] = ch;
        }
    }
  free (queue);
  if (!arrival)
    free (at);
  return 0;
}
