/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clocktree.c: the tree and the composition of clocktree.h.  */
#include <config.h>

#include "clocktree.h"

#include <math.h>

int
clock_tree_parent (int rel)
{
  return rel > 0 ? rel & (rel - 1) : -1;
}

int
clock_tree_round (int rel)
{
  int k = 0;
  while (rel > 0 && !(rel & 1))
    rel >>= 1, k++;
  return k;
}

int
clock_tree_rounds (int size)
{
  int k = 0;
  while (size > 1 && (1L << k) < size)
    k++;
  return k;
}

int
clock_tree_child (int rel, int round, int size)
{
  long bit = 1L << round;
  /* REL's set bits must all lie above ROUND (0 has none).  */
  if (rel & ((bit << 1) - 1))
    return -1;
  return rel + bit < size ? (int) (rel + bit) : -1;
}

void
clock_model_compose (const struct clock_model *parent,
                     const struct clock_model *child,
                     struct clock_model *out)
{
  double sp = parent->drift, ip = parent->intercept;
  double sc = child->drift, ic = child->intercept;
  struct clock_model m;
  m.drift = sp + sc - sp * sc;          /* eq. (6) */
  m.intercept = ip + ic - sp * ic;      /* eq. (6) */
  m.residual = hypot (parent->residual, child->residual);
  m.drift_se = hypot (parent->drift_se, child->drift_se);
  m.n = child->n;
  *out = m;
}

void
clock_tree_to_root (const struct clock_model *to_parent, int rel,
                    struct clock_model *out)
{
  /* The chain rel, parent, ..., 0 is at most 31 links (one per set
     bit); compose from the reference's child down.  */
  int chain[64], n = 0;
  for (int r = rel; r > 0; r = clock_tree_parent (r))
    chain[n++] = r;
  clock_model_identity (out);
  while (n > 0)
    clock_model_compose (out, &to_parent[chain[--n]], out);
}
