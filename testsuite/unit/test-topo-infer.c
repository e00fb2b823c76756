/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-topo-infer: topo_infer on measurements made up from clusters
   described here: a tree of switches (parent pointers), hosts on them,
   a rate on every link.  A pair alone gets the slowest rate on its
   route; two pairs at once each get the least, over their links, of
   the link's rate divided among the pairs crossing it (so two pairs on
   one 48 Mbit/s uplink get 24 each, the hand computation the tests
   compare with).  */
#include <config.h>

#include <stdlib.h>

#include "topo_infer.h"
#include "unit.h"

#define MAXH 16
#define MAXS 8

struct cluster
{
  int n, ns;
  int sw[MAXH];           /* host -> switch */
  int parent[MAXS];       /* switch -> parent switch, -1 for the root */
  double up[MAXH], down[MAXH];   /* host -> switch, switch -> host */
  double to_parent[MAXS], from_parent[MAXS];
};

/* The links of the route a -> b: ids 0..2n-1 hosts' (2a up, 2a+1 down),
   2n + 2s switch s to its parent, 2n + 2s + 1 back.  */
static int
route (const struct cluster *c, int a, int b, int *link)
{
  int k = 0, u = c->sw[a], v = c->sw[b], du = 0, dv = 0;
  link[k++] = 2 * a;
  for (int x = u; c->parent[x] >= 0; x = c->parent[x])
    du++;
  for (int x = v; c->parent[x] >= 0; x = c->parent[x])
    dv++;
  int down[MAXS], nd = 0;
  while (du > dv)
    link[k++] = 2 * c->n + 2 * u, u = c->parent[u], du--;
  while (dv > du)
    down[nd++] = 2 * c->n + 2 * v + 1, v = c->parent[v], dv--;
  while (u != v)
    {
      link[k++] = 2 * c->n + 2 * u;
      u = c->parent[u];
      down[nd++] = 2 * c->n + 2 * v + 1;
      v = c->parent[v];
    }
  while (nd > 0)
    link[k++] = down[--nd];
  link[k++] = 2 * b + 1;
  return k;
}

static double
cap (const struct cluster *c, int l)
{
  if (l < 2 * c->n)
    return l % 2 ? c->down[l / 2] : c->up[l / 2];
  l -= 2 * c->n;
  return l % 2 ? c->from_parent[l / 2] : c->to_parent[l / 2];
}

/* The made-up rates of the pair a -> b, with c2 -> d2 at the same time
   when c2 >= 0; NOISE: a factor in [1 - noise, 1 + noise] from SEED.  */
static double
rate (const struct cluster *c, int a, int b, int c2, int d2,
      double noise, unsigned *seed)
{
  int l1[2 * MAXS + 2], l2[2 * MAXS + 2];
  int n1 = route (c, a, b, l1), n2 = c2 >= 0 ? route (c, c2, d2, l2) : 0;
  double r = 1e300;
  for (int i = 0; i < n1; i++)
    {
      int flows = 1;
      for (int j = 0; j < n2; j++)
        flows += l2[j] == l1[i];
      double x = cap (c, l1[i]) / flows;
      if (x < r)
        r = x;
    }
  *seed = *seed * 1103515245u + 12345u;
  return r * (1 + noise * (2.0 * ((*seed >> 8) % 1000) / 999 - 1));
}

struct made
{
  double solo[MAXH * MAXH];
  struct topo_conc *conc;
  size_t nc;
};

static void
measure (const struct cluster *c, double noise, int all_slowed,
         struct made *m)
{
  unsigned seed = 7;
  int n = c->n;
  m->conc = malloc ((size_t) n * n * n * n * sizeof *m->conc);
  m->nc = 0;
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++)
      m->solo[a * n + b] = a == b ? 0 : rate (c, a, b, -1, -1, noise, &seed);
  for (int a = 0; a < n; a++)
    for (int b = 0; b < n; b++)
      for (int x = 0; x < n; x++)
        for (int y = 0; y < n; y++)
          {
            if (a == b || x == y || x == a || x == b || y == a || y == b
                || a * n + b > x * n + y)
              continue;
            struct topo_conc *t = &m->conc[m->nc++];
            *t = (struct topo_conc) { a, b, x, y,
                                      rate (c, a, b, x, y, noise, &seed),
                                      rate (c, x, y, a, b, noise, &seed) };
            if (all_slowed)
              t->r_ab /= 3, t->r_cd /= 3;
          }
}

static const struct topo_link *
find_link (const struct topo_inferred *t, int from, int to)
{
  for (size_t i = 0; i < t->nlinks; i++)
    if (t->link[i].from == from && t->link[i].to == to)
      return &t->link[i];
  return NULL;
}

static int
near (double x, double want, double tol)
{
  return fabs (x - want) <= tol * want;
}

static const struct topo_infer_opts opts = { 0.75, 0.1 };

/* Infer C from its made-up measurements and compare: the grouping
   (switch of every host), every host link and every switch link.  */
static void
check_cluster (const struct cluster *c, double noise, const int *want_sw,
               int want_ns, int want_hidden)
{
  struct made m;
  measure (c, noise, 0, &m);
  struct topo_inferred t;
  const char *why = NULL;
  CHECK (topo_infer (c->n, m.solo, m.conc, m.nc, &opts, &t, &why) == 0);
  CHECK (t.nswitch == want_ns);
  CHECK (t.hidden == want_hidden);
  for (int a = 0; a < c->n && t.sw; a++)
    {
      CHECK (t.sw[a] == want_sw[a]);
      const struct topo_link *u = find_link (&t, a, c->n + want_sw[a]);
      CHECK (u && near (u->rate, c->up[a], 2 * noise + 1e-9));
    }
  /* each switch link of C, both ways, at its rate */
  for (int s = 0; s < c->ns; s++)
    if (c->parent[s] >= 0)
      {
        const struct topo_link *l = find_link (&t, c->n + s,
                                               c->n + c->parent[s]);
        const struct topo_link *b = find_link (&t, c->n + c->parent[s],
                                               c->n + s);
        CHECK (l && near (l->rate, c->to_parent[s], 2 * noise + 1e-9)
               && !l->bound);
        CHECK (b && near (b->rate, c->from_parent[s], 2 * noise + 1e-9)
               && !b->bound);
      }
  CHECK (t.nlinks == 2 * (size_t) c->n + 2 * (size_t) (want_ns - 1));
  topo_inferred_free (&t);
  free (m.conc);
}

int
main (void)
{
  /* one switch, 8 hosts: no test is slowed, one group */
  struct cluster one = { .n = 8, .ns = 1, .parent = { -1 } };
  for (int a = 0; a < 8; a++)
    one.up[a] = one.down[a] = 47.8;
  int sw1[8] = { 0 };
  check_cluster (&one, 0, sw1, 1, 0);
  check_cluster (&one, 0.03, sw1, 1, 0);

  /* two switches of 4, one uplink at a host's rate (4:1) */
  struct cluster two = { .n = 8, .ns = 2, .parent = { -1, 0 },
                         .to_parent = { 0, 47.8 },
                         .from_parent = { 0, 47.8 } };
  int sw2[8] = { 0, 0, 0, 0, 1, 1, 1, 1 };
  for (int a = 0; a < 8; a++)
    {
      two.sw[a] = sw2[a];
      two.up[a] = two.down[a] = 47.8;
    }
  check_cluster (&two, 0, sw2, 2, 0);
  check_cluster (&two, 0.03, sw2, 2, 0);

  /* a tree: root (switch 2, hosts 6 7), leaves 0 (hosts 0-2) and 1
     (hosts 3-5) with uplinks of different rates each way */
  struct cluster tree = { .n = 8, .ns = 3, .parent = { 2, 2, -1 },
                          .to_parent = { 47.8, 30, 0 },
                          .from_parent = { 40, 47.8, 0 } };
  int sw3[8] = { 0, 0, 0, 1, 1, 1, 2, 2 };
  for (int a = 0; a < 8; a++)
    {
      tree.sw[a] = sw3[a];
      tree.up[a] = tree.down[a] = 47.8;
    }
  check_cluster (&tree, 0, sw3, 3, 0);
  check_cluster (&tree, 0.03, sw3, 3, 0);

  /* three leaves of 3 hosts under a core with none */
  struct cluster star = { .n = 9, .ns = 4, .parent = { 3, 3, 3, -1 },
                          .to_parent = { 47.8, 47.8, 47.8 },
                          .from_parent = { 47.8, 47.8, 47.8 } };
  int sw4[9] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
  for (int a = 0; a < 9; a++)
    {
      star.sw[a] = sw4[a];
      star.up[a] = star.down[a] = 47.8;
    }
  check_cluster (&star, 0.02, sw4, 4, 1);

  /* every test slowed: each host alone, every switch between every two
     others: no tree, an error that says so */
  struct made m;
  measure (&one, 0, 1, &m);
  struct topo_inferred t;
  const char *why = NULL;
  CHECK (topo_infer (8, m.solo, m.conc, m.nc, &opts, &t, &why) == -1);
  CHECK (why && strstr (why, "no tree") != NULL);
  CHECK (t.nlinks == 0 && t.link == NULL);
  free (m.conc);

  /* no two-pair test at all: nothing tells the switches apart, one */
  measure (&two, 0, 0, &m);
  CHECK (topo_infer (8, m.solo, m.conc, 0, &opts, &t, &why) == 0);
  CHECK (t.nswitch == 1 && t.nlinks == 16);
  topo_inferred_free (&t);
  free (m.conc);
  return unit_done ();
}
