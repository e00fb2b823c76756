/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topo_infer.c: a tree of switches from the rates of pairs of hosts,
   alone and two at a time (topo_infer.h).

   Steps: (1) a test of two pairs was slowed when its pairs got on
   average less than opt->slow of their rates alone; (2) hosts a and c
   share a switch unless a -> c or c -> a was slowed in opt->min_share
   of its tests, and one at least (a route inside one switch crosses no shared link), closed
   transitively; (3) for three switches g, x, h the routes g -> x and
   g -> h share their first link unless g is where the routes from g, x
   and h meet (the tree's median of the three), which tests with two
   hosts of g show; g and h are neighbours when no third switch lies
   between them; (4) a host's link runs at the median of its rates
   alone to the hosts of its own switch and to those of others that no
   slower link limits, a link between switches at the
   median of the summed rates of two pairs that filled it (tests whose
   routes share that one link and no other).  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "topo_infer.h"

/* The state of one inference.  */
struct ti
{
  int n, ng;
  const double *solo;
  const struct topo_conc *conc;
  size_t nc;
  const struct topo_infer_opts *opt;
  int *group;          /* per host */
  int *gsize;          /* per group */
  int *adj;            /* ng * ng: 1 when neighbours */
  int *dist;           /* ng * ng: hops between switches */
  int *next;           /* ng * ng: the first switch from g towards h */
};

static int
slowed (const struct ti *t, const struct topo_conc *c)
{
  double sa = t->solo[c->a * t->n + c->b], sc = t->solo[c->c * t->n + c->d];
  if (!(sa > 0) || !(sc > 0) || isnan (c->r_ab) || isnan (c->r_cd))
    return -1;
  return (c->r_ab / sa + c->r_cd / sc) / 2 < t->opt->slow;
}

static int
find (int *parent, int x)
{
  while (parent[x] != x)
    x = parent[x] = parent[parent[x]];
  return x;
}

/* Step (2): the hosts' groups, numbered by their first host.  */
static int
group_hosts (struct ti *t)
{
  int n = t->n;
  size_t *cnt = calloc ((size_t) n * n, sizeof *cnt);
  size_t *hit = calloc ((size_t) n * n, sizeof *hit);
  int *parent = malloc ((size_t) n * sizeof *parent);
  t->group = malloc ((size_t) n * sizeof *t->group);
  t->gsize = calloc ((size_t) n, sizeof *t->gsize);
  if (!cnt || !hit || !parent || !t->group || !t->gsize)
    {
      free (cnt);
      free (hit);
      free (parent);
      return -1;
    }
  for (size_t i = 0; i < t->nc; i++)
    {
      const struct topo_conc *c = &t->conc[i];
      int s = slowed (t, c);
      if (s < 0)
        continue;
      cnt[c->a * n + c->b]++;
      cnt[c->c * n + c->d]++;
      hit[c->a * n + c->b] += (size_t) s;
      hit[c->c * n + c->d] += (size_t) s;
    }
  for (int a = 0; a < n; a++)
    parent[a] = a;
  for (int a = 0; a < n; a++)
    for (int c = a + 1; c < n; c++)
      {
        int cross = 0;
        for (int k = 0; k < 2; k++)
          {
            size_t p = k ? (size_t) c * n + a : (size_t) a * n + c;
            if (hit[p] > 0 && hit[p] >= t->opt->min_share * cnt[p])
              cross = 1;
          }
        /* a pair no test measured tells nothing (unless none was) */
        size_t seen = cnt[(size_t) a * n + c] + cnt[(size_t) c * n + a];
        if (!cross && (seen > 0 || t->nc == 0))
          parent[find (parent, c)] = find (parent, a);
      }
  int *id = malloc ((size_t) n * sizeof *id);
  if (!id)
    {
      free (cnt);
      free (hit);
      free (parent);
      return -1;
    }
  for (int a = 0; a < n; a++)
    id[a] = -1;
  t->ng = 0;
  for (int a = 0; a < n; a++)
    {
      int r = find (parent, a);
      if (id[r] < 0)
        id[r] = t->ng++;
      t->group[a] = id[r];
      t->gsize[id[r]]++;
    }
  free (id);
  free (cnt);
  free (hit);
  free (parent);
  return 0;
}

/* Do the routes g1 -> h1 and g2 -> h2 between switches share a link?
   1 or 0 by the majority of the tests of such pairs, -1 if none.  */
static int
routes_share (const struct ti *t, int g1, int h1, int g2, int h2)
{
  size_t cnt = 0, hit = 0;
  const int *G = t->group;
  for (size_t i = 0; i < t->nc; i++)
    {
      const struct topo_conc *c = &t->conc[i];
      int fw = G[c->a] == g1 && G[c->b] == h1 && G[c->c] == g2
               && G[c->d] == h2;
      int bw = G[c->a] == g2 && G[c->b] == h2 && G[c->c] == g1
               && G[c->d] == h1;
      int s = fw || bw ? slowed (t, c) : -1;
      if (s < 0)
        continue;
      cnt++;
      hit += (size_t) s;
    }
  return cnt == 0 ? -1 : 2 * hit > cnt;
}

/* Step (3): where the routes of switches g, x and h meet: one of them,
   -2 elsewhere (a switch with no host), -1 when the tests cannot tell.  */
static int
median (const struct ti *t, int g, int x, int h)
{
  int v[3] = { g, x, h }, meet = -1, zeros = 0, unknown = 0;
  for (int k = 0; k < 3; k++)
    {
      int s = v[k], o1 = v[(k + 1) % 3], o2 = v[(k + 2) % 3];
      int sh = routes_share (t, s, o1, s, o2);
      if (sh < 0)
        unknown++;
      else if (sh == 0)
        {
          zeros++;
          meet = s;
        }
    }
  if (zeros == 1)
    return meet;
  if (zeros == 0 && unknown == 0)
    return -2;
  return -1;
}

/* The switches' tree: neighbours, then hops and first steps (BFS).
   Returns 0, 1 when the tree needs a core switch with no host (then
   every switch hangs from it), -1 when the layout is no tree.  */
static int
connect_switches (struct ti *t)
{
  int ng = t->ng, edges = 0, core = 0;
  for (int g = 0; g < ng; g++)
    for (int h = g + 1; h < ng; h++)
      {
        int ok = 1;
        for (int x = 0; x < ng && ok; x++)
          if (x != g && x != h)
            {
              int m = median (t, g, x, h);
              if (m == -2)
                core = 1;
              if (m == x || m == -2)
                ok = 0;
            }
        t->adj[g * ng + h] = t->adj[h * ng + g] = ok;
        edges += ok;
      }
  if (core && edges == 0)
    return 1;
  if (core || edges != ng - 1)
    return -1;
  return 0;
}

/* Hops and first steps between switches over the tree ADJ (n nodes);
   -1 when it is not connected.  */
static int
routes (int n, const int *adj, int *dist, int *next)
{
  int *queue = malloc ((size_t) n * sizeof *queue);
  if (!queue)
    return -1;
  int rc = 0;
  for (int s = 0; s < n; s++)
    {
      for (int v = 0; v < n; v++)
        dist[s * n + v] = -1;
      dist[s * n + s] = 0;
      next[s * n + s] = s;
      int head = 0, tail = 0;
      queue[tail++] = s;
      while (head < tail)
        {
          int u = queue[head++];
          for (int v = 0; v < n; v++)
            if (adj[u * n + v] && dist[s * n + v] < 0)
              {
                dist[s * n + v] = dist[s * n + u] + 1;
                next[s * n + v] = u == s ? v : next[s * n + u];
                queue[tail++] = v;
              }
        }
      if (tail != n)
        rc = -1;
    }
  free (queue);
  return rc;
}

static int
cmp_double (const void *x, const void *y)
{
  double a = *(const double *) x, b = *(const double *) y;
  return (a > b) - (a < b);
}

/* The median of the N values V (sorted in place), NaN if none.  */
static double
median_of (double *v, size_t n)
{
  if (n == 0)
    return NAN;
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Does the route from switch g to switch h cross u -> v?  */
static int
crosses (const struct ti *t, int g, int h, int u, int v)
{
  int ng = t->ng;
  while (g != h)
    {
      int nx = t->next[g * ng + h];
      if (g == u && nx == v)
        return 1;
      g = nx;
    }
  return 0;
}

/* The number of switch links the routes g1 -> h1 and g2 -> h2 share.  */
static int
shared_links (const struct ti *t, int g1, int h1, int g2, int h2)
{
  int ng = t->ng, k = 0;
  for (int g = g1; g != h1; g = t->next[g * ng + h1])
    k += crosses (t, g2, h2, g, t->next[g * ng + h1]);
  return k;
}

/* Step (4) for the switch link u -> v: the median of the summed rates
   of the slowed tests whose routes share that link only; without one,
   the most any test or pair carried over it (a lower bound).  */
static void
switch_link_rate (const struct ti *t, int u, int v, double *buf,
                  struct topo_link *l)
{
  size_t k = 0;
  double most = 0;
  const int *G = t->group;
  for (size_t i = 0; i < t->nc; i++)
    {
      const struct topo_conc *c = &t->conc[i];
      if (!crosses (t, G[c->a], G[c->b], u, v)
          || !crosses (t, G[c->c], G[c->d], u, v))
        continue;
      int s = slowed (t, c);
      if (s == 1 && shared_links (t, G[c->a], G[c->b], G[c->c], G[c->d]) == 1)
        buf[k++] = c->r_ab + c->r_cd;
      else if (s == 0 && c->r_ab + c->r_cd > most)
        most = c->r_ab + c->r_cd;
    }
  for (int a = 0; a < t->n && k == 0; a++)
    for (int b = 0; b < t->n; b++)
      if (a != b && crosses (t, G[a], G[b], u, v)
          && t->solo[a * t->n + b] > most)
        most = t->solo[a * t->n + b];
  l->nobs = k;
  l->bound = k == 0;
  l->rate = k ? median_of (buf, k) : most > 0 ? most : NAN;
}

/* Step (4) for host A's links: the median rate alone to (from) the
   other hosts of its switch and to (from) the hosts of other switches
   at least 0.9 of the slowest of those (a route no slower link
   limits), or all hosts if it has none on its switch.  */
static void
host_link_rates (const struct ti *t, int a, double *buf,
                 struct topo_link *up, struct topo_link *down)
{
  for (int dir = 0; dir < 2; dir++)
    {
      size_t k = 0;
      double low = INFINITY;
      for (int b = 0; b < t->n; b++)
        {
          double r = dir ? t->solo[b * t->n + a] : t->solo[a * t->n + b];
          if (b != a && r > 0 && t->group[b] == t->group[a] && r < low)
            low = r;
        }
      for (int b = 0; b < t->n; b++)
        {
          double r = dir ? t->solo[b * t->n + a] : t->solo[a * t->n + b];
          if (b != a && r > 0 && (t->group[b] == t->group[a]
                                  || isinf (low) || r >= 0.9 * low))
            buf[k++] = r;
        }
      struct topo_link *l = dir ? down : up;
      l->rate = median_of (buf, k);
      l->nobs = k;
      l->bound = 0;
    }
}

static void
free_work (struct ti *t)
{
  free (t->group);
  free (t->gsize);
  free (t->adj);
  free (t->dist);
  free (t->next);
}

/* The links of OUT: each host's two, then each switch link both ways.  */
static int
fill_links (struct ti *t, int core, struct topo_inferred *out)
{
  int n = t->n, ng = t->ng, ns = ng + core;
  size_t cap = 2 * (size_t) n + 2 * (size_t) ns;
  size_t nbuf = t->nc + (size_t) n * n + 1;
  double *buf = malloc (nbuf * sizeof *buf);
  out->link = calloc (cap, sizeof *out->link);
  out->sw = malloc ((size_t) n * sizeof *out->sw);
  if (!buf || !out->link || !out->sw)
    {
      free (buf);
      return -1;
    }
  out->nhosts = n;
  out->nswitch = ns;
  out->hidden = core;
  for (int a = 0; a < n; a++)
    {
      struct topo_link *l = &out->link[out->nlinks];
      out->sw[a] = t->group[a];
      host_link_rates (t, a, buf, &l[0], &l[1]);
      l[0].from = l[1].to = a;
      l[0].to = l[1].from = n + t->group[a];
      out->nlinks += 2;
    }
  for (int g = 0; g < ns; g++)
    for (int h = g + 1; h < ns; h++)
      if (t->adj[g * ns + h])
        for (int dir = 0; dir < 2; dir++)
          {
            struct topo_link *l = &out->link[out->nlinks++];
            l->from = n + (dir ? h : g);
            l->to = n + (dir ? g : h);
            switch_link_rate (t, dir ? h : g, dir ? g : h, buf, l);
          }
  free (buf);
  return 0;
}

/* With a core switch (number ng) every switch hangs from it.  */
static int
add_core (struct ti *t)
{
  int ns = t->ng + 1;
  free (t->adj);
  free (t->dist);
  free (t->next);
  t->adj = calloc ((size_t) ns * ns, sizeof *t->adj);
  t->dist = malloc ((size_t) ns * ns * sizeof *t->dist);
  t->next = malloc ((size_t) ns * ns * sizeof *t->next);
  if (!t->adj || !t->dist || !t->next)
    return -1;
  for (int g = 0; g < t->ng; g++)
    t->adj[g * ns + t->ng] = t->adj[t->ng * ns + g] = 1;
  t->ng = ns;
  return routes (ns, t->adj, t->dist, t->next);
}

int
topo_infer (int n, const double *solo, const struct topo_conc *conc,
            size_t nc, const struct topo_infer_opts *opt,
            struct topo_inferred *out, const char **why)
{
  struct ti t = { .n = n, .solo = solo, .conc = conc, .nc = nc,
                  .opt = opt };
  memset (out, 0, sizeof *out);
  *why = "out of memory";
  if (group_hosts (&t) < 0)
    goto fail;
  size_t g2 = (size_t) t.ng * t.ng;
  t.adj = calloc (g2, sizeof *t.adj);
  t.dist = malloc (g2 * sizeof *t.dist);
  t.next = malloc (g2 * sizeof *t.next);
  if (!t.adj || !t.dist || !t.next)
    goto fail;
  int core = t.ng == 2 ? (t.adj[1] = t.adj[2] = 1, 0)
             : t.ng > 2 ? connect_switches (&t) : 0;
  *why = "the switches form no tree the measurements can tell (a core "
         "switch with no host beside links between switches, or "
         "contradicting tests)";
  if (core < 0)
    goto fail;
  if (core ? add_core (&t) < 0 : routes (t.ng, t.adj, t.dist, t.next) < 0)
    goto fail;
  int ng0 = core ? t.ng - 1 : t.ng;
  t.ng = ng0 + core;
  *why = "out of memory";
  if (fill_links (&t, 0, out) < 0)
    goto fail;
  out->nswitch = t.ng;
  out->hidden = core;
  free_work (&t);
  return 0;
fail:
  free_work (&t);
  topo_inferred_free (out);
  return -1;
}

void
topo_inferred_free (struct topo_inferred *t)
{
  free (t->sw);
  free (t->link);
  memset (t, 0, sizeof *t);
}
