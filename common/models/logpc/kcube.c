/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kcube.c: k-ary n-cube topologies and average distances (kcube.h).  */
#include <config.h>

#include "kcube.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int
kcube_parse_dims (const char *text, struct kcube *t)
{
  int64_t k[KCUBE_MAXDIM];
  int n = 0, big = 0;
  const char *s = text;
  int64_t nodes = 1;

  if (!s || !*s)
    return -1;
  for (;;)
    {
      int64_t v = 0;
      if (!isdigit ((unsigned char) *s))
        return -1;
      /* A radix above the node limit is read to its end (the syntax is
         still checked) but not accumulated: it would overflow.  */
      for (; isdigit ((unsigned char) *s); s++)
        if (v <= KCUBE_MAXNODES)
          v = v * 10 + (*s - '0');
      if (v < 1 || n == KCUBE_MAXDIM)
        return -1;
      /* Compare before multiplying: the product of two radices up to
         KCUBE_MAXNODES overflows int64 (2^32 x 2^32 wrapped to 0 nodes).  */
      if (big || v > KCUBE_MAXNODES / nodes)
        big = 1;
      else
        nodes *= v;
      k[n++] = v;
      if (*s == '\0')
        break;
      if (*s != 'x' && *s != 'X' && *s != ',')
        return -1;
      s++;
    }
  if (big)
    return -2;
  t->n = n;
  memcpy (t->k, k, sizeof k[0] * (size_t) n);
  return 0;
}

const char *
kcube_invalid (const struct kcube *t)
{
  if (t->n < 1 || t->n > KCUBE_MAXDIM)
    return "the number of dimensions is out of range";
  if (!t->torus && !t->bidir)
    return "a mesh (no end-around connections) needs bidirectional "
           "channels: with unidirectional ones some nodes cannot be reached";
  return NULL;
}

int64_t
kcube_nodes (const struct kcube *t)
{
  int64_t p = 1;
  for (int d = 0; d < t->n; d++)
    p *= t->k[d];
  return p;
}

int64_t
kcube_hops1 (int64_t k, int torus, int bidir, int64_t a, int64_t b)
{
  int64_t diff = a > b ? a - b : b - a;
  if (!torus)
    return diff;
  if (!bidir)
    return ((b - a) % k + k) % k;
  return diff < k - diff ? diff : k - diff;
}

int64_t
kcube_hops (const struct kcube *t, int64_t a, int64_t b, int64_t *per_dim)
{
  int64_t h = 0;
  for (int d = 0; d < t->n; d++)
    {
      int64_t k = t->k[d];
      int64_t x = kcube_hops1 (k, t->torus, t->bidir, a % k, b % k);
      if (per_dim)
        per_dim[d] = x;
      h += x;
      a /= k;
      b /= k;
    }
  return h;
}

double
kcube_avg_dist1 (int64_t k, int torus, int bidir)
{
  double K = (double) k;
  if (!torus)
    return (K * K - 1.0) / (3.0 * K);           /* eq. (11) */
  if (!bidir)
    return (K - 1.0) / 2.0;                      /* Section 4 */
  if (k % 2 == 0)
    return K / 4.0;
  return (K * K - 1.0) / (4.0 * K);
}

double
kcube_avg_dist (const struct kcube *t, int exclude_self, double *per_dim)
{
  double sum = 0;
  int64_t N = kcube_nodes (t);
  double scale = 1.0;
  if (exclude_self && N > 1)
    scale = (double) N / (double) (N - 1);
  for (int d = 0; d < t->n; d++)
    {
      double x = kcube_avg_dist1 (t->k[d], t->torus, t->bidir) * scale;
      if (per_dim)
        per_dim[d] = x;
      sum += x;
    }
  return sum;
}

/* Coordinate of NODE along dimension D.  */
static int64_t
coord (const struct kcube *t, int64_t node, int d)
{
  for (int e = 0; e < d; e++)
    node /= t->k[e];
  return node % t->k[d];
}

static double
uniform_map (const struct kcube *t, const int64_t *map, int64_t P,
             int exclude_self, double *per_dim)
{
  double pairs = exclude_self ? (double) P * (double) (P - 1)
                              : (double) P * (double) P;
  double sum = 0;
  if (P < 1 || pairs <= 0)
    return -1;
  for (int d = 0; d < t->n; d++)
    {
      int64_t k = t->k[d];
      double *cnt = calloc ((size_t) k, sizeof *cnt);
      double tot = 0;
      if (!cnt)
        return -1;
      for (int64_t i = 0; i < P; i++)
        cnt[coord (t, map[i], d)] += 1;
      /* Self pairs have zero hops: only the number of pairs changes.  */
      for (int64_t a = 0; a < k; a++)
        if (cnt[a] != 0)
          for (int64_t b = 0; b < k; b++)
            if (cnt[b] != 0)
              tot += cnt[a] * cnt[b]
                     * (double) kcube_hops1 (k, t->torus, t->bidir, a, b);
      free (cnt);
      per_dim[d] = tot / pairs;
      sum += per_dim[d];
    }
  return sum;
}

static double
neighbor_map (const struct kcube *t, const int64_t *map, int64_t P,
              double *per_dim)
{
  int64_t h[KCUBE_MAXDIM];
  double tot[KCUBE_MAXDIM] = { 0 };
  double sum = 0;
  if (P < 2)
    return -1;
  /* eq. (12): each rank sends to i - 1 or i + 1 with equal probability;
     ranks form a ring (mod P), so every ordered neighbour pair counts.  */
  for (int64_t i = 0; i < P; i++)
    {
      int64_t next = (i + 1) % P, prev = (i + P - 1) % P;
      kcube_hops (t, map[i], map[next], h);
      for (int d = 0; d < t->n; d++)
        tot[d] += (double) h[d];
      kcube_hops (t, map[i], map[prev], h);
      for (int d = 0; d < t->n; d++)
        tot[d] += (double) h[d];
    }
  for (int d = 0; d < t->n; d++)
    {
      per_dim[d] = tot[d] / (2.0 * (double) P);
      sum += per_dim[d];
    }
  return sum;
}

static double
span_map (const struct kcube *t, const int64_t *map, int64_t P,
          int64_t span, double *per_dim)
{
  int64_t h[KCUBE_MAXDIM];
  double tot[KCUBE_MAXDIM] = { 0 };
  double sum = 0;
  if (P < 2 || span < 1)
    return -1;
  /* Each source picks uniformly among the ranks within SPAN hops: a
     source's destinations weigh 1 / (their number) each.  */
  for (int64_t i = 0; i < P; i++)
    {
      double part[KCUBE_MAXDIM] = { 0 };
      int64_t count = 0;
      for (int64_t j = 0; j < P; j++)
        {
          if (j == i)
            continue;
          int64_t hops = kcube_hops (t, map[i], map[j], h);
          if (hops > span)
            continue;
          count++;
          for (int d = 0; d < t->n; d++)
            part[d] += (double) h[d];
        }
      if (count == 0)
        return -1;
      for (int d = 0; d < t->n; d++)
        tot[d] += part[d] / (double) count;
    }
  for (int d = 0; d < t->n; d++)
    {
      per_dim[d] = tot[d] / (double) P;
      sum += per_dim[d];
    }
  return sum;
}

double
kcube_avg_dist_map (const struct kcube *t, const int64_t *map, int64_t P,
                    enum kcube_traffic traffic, int64_t span,
                    int exclude_self, double *per_dim)
{
  double scratch[KCUBE_MAXDIM];
  if (!per_dim)
    per_dim = scratch;
  switch (traffic)
    {
    case KCUBE_UNIFORM:
      return uniform_map (t, map, P, exclude_self, per_dim);
    case KCUBE_NEIGHBOR:
      return neighbor_map (t, map, P, per_dim);
    case KCUBE_SPAN:
      return span_map (t, map, P, span, per_dim);
    }
  return -1;
}

void
kcube_map_identity (int64_t *map, int64_t P)
{
  for (int64_t i = 0; i < P; i++)
    map[i] = i;
}

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Uniform integer in [0, n) without modulo bias.  */
static uint64_t
below (uint64_t *state, uint64_t n)
{
  uint64_t lim = UINT64_MAX - UINT64_MAX % n;
  uint64_t r;
  do
    r = splitmix64 (state);
  while (r >= lim);
  return r % n;
}

void
kcube_map_random (int64_t *map, int64_t P, int64_t nodes, uint64_t seed,
                  int64_t *work)
{
  uint64_t state = seed;
  for (int64_t i = 0; i < nodes; i++)
    work[i] = i;
  for (int64_t i = 0; i < P && i < nodes - 1; i++)
    {
      int64_t j = i + (int64_t) below (&state, (uint64_t) (nodes - i));
      int64_t tmp = work[i];
      work[i] = work[j];
      work[j] = tmp;
    }
  for (int64_t i = 0; i < P; i++)
    map[i] = work[i];
}

int64_t
kcube_map_check (const int64_t *map, int64_t P, int64_t nodes,
                 unsigned char *seen)
{
  for (int64_t i = 0; i < P; i++)
    {
      if (map[i] < 0 || map[i] >= nodes || seen[map[i]])
        return i;
      seen[map[i]] = 1;
    }
  return -1;
}
