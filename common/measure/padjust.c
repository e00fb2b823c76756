/* SPDX-License-Identifier: GPL-3.0-or-later */
/* padjust.c: Holm's and Benjamini-Hochberg's adjusted p-values.  */
#include <config.h>
#include "padjust.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int
padjust_parse (const char *name)
{
  if (strcmp (name, "none") == 0)
    return PADJUST_NONE;
  if (strcmp (name, "holm") == 0)
    return PADJUST_HOLM;
  if (strcmp (name, "bh") == 0)
    return PADJUST_BH;
  return -1;
}

static const double *sort_key;

static int
cmp_index (const void *a, const void *b)
{
  double x = sort_key[*(const size_t *) a], y = sort_key[*(const size_t *) b];
  return (x > y) - (x < y);
}

int
padjust (const double *p, size_t n, enum padjust_method method, double *out)
{
  size_t *idx = malloc ((n ? n : 1) * sizeof *idx);
  double *adj = malloc ((n ? n : 1) * sizeof *adj);
  if (!idx || !adj)
    {
      free (idx);
      free (adj);
      return -1;
    }
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan (p[i]))
      idx[m++] = i;
  sort_key = p;
  qsort (idx, m, sizeof *idx, cmp_index);
  for (size_t r = 0; r < m; r++)
    adj[r] = p[idx[r]];
  if (method == PADJUST_HOLM)
    /* Holm (1979): the r-th smallest (0-based) times m - r, made
       non-decreasing in r.  */
    for (size_t r = 0; r < m; r++)
      {
        double v = adj[r] * (double) (m - r);
        if (r && v < adj[r - 1])
          v = adj[r - 1];
        adj[r] = v > 1 ? 1 : v;
      }
  else if (method == PADJUST_BH && m)
    /* Benjamini and Hochberg (1995): the r-th smallest times m / (r+1),
       made non-increasing from the largest down.  */
    for (size_t r = m; r-- > 0;)
      {
        double v = adj[r] * (double) m / (double) (r + 1);
        if (r + 1 < m && v > adj[r + 1])
          v = adj[r + 1];
        adj[r] = v > 1 ? 1 : v;
      }
  for (size_t i = 0; i < n; i++)
    out[i] = isnan (p[i]) ? NAN : p[i];
  for (size_t r = 0; r < m; r++)
    out[idx[r]] = adj[r];
  free (idx);
  free (adj);
  return 0;
}
