/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topo_duplex.c: which hosts' links take turns between their two
   directions, from the exchanges (topo_infer.h).  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "topo_infer.h"

static int
cmp_double (const void *x, const void *y)
{
  double a = *(const double *) x, b = *(const double *) y;
  return (a > b) - (a < b);
}

/* The share of its rate alone that direction A -> B got in an exchange
   at R (NaN when A -> B was not measured alone).  */
static double
share (int n, const double *solo, int a, int b, double r)
{
  double s = solo[a * n + b];
  return s > 0 ? r / s : NAN;
}

int
topo_duplex (int n, const double *solo, const struct topo_conc *ex,
             size_t ne, double slow, int *half)
{
  double *v = malloc ((2 * ne + 1) * sizeof *v);
  int any = 0;
  if (!v)
    return -1;
  for (int h = 0; h < n; h++)
    {
      size_t k = 0;
      for (size_t i = 0; i < ne; i++)
        if (ex[i].a == h || ex[i].b == h)
          {
            double x = share (n, solo, ex[i].a, ex[i].b, ex[i].r_ab);
            double y = share (n, solo, ex[i].b, ex[i].a, ex[i].r_cd);
            if (!isnan (x))
              v[k++] = x;
            if (!isnan (y))
              v[k++] = y;
          }
      half[h] = 0;
      if (k == 0)
        continue;
      qsort (v, k, sizeof *v, cmp_double);
      double med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
      half[h] = med < slow;
      any |= half[h];
    }
  free (v);
  return any;
}
