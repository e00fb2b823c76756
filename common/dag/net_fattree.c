/* SPDX-License-Identifier: GPL-3.0-or-later */
/* net_fattree.c: --network fattree:H:R, a two-level fat tree (leaf and
 * spine switches) with oversubscription R.
 *
 * Rank r hangs off leaf switch floor(r / H) by a link of its own each
 * way; as many leaves as the schedule's ranks need.  Each leaf has
 * U = H / R uplinks, one to each of U spine switches, so that its H
 * hosts share U links to the rest of the tree (R = 1: full bisection;
 * R = 2: half).  A message between two ranks of one leaf takes the
 * sender's link up and the receiver's down; one between leaves takes
 * in addition its leaf's uplink to spine u and that spine's downlink to
 * the receiver's leaf, u = receiver mod U (destination-based routing,
 * so a rank's incoming messages all cross one spine).  Every link runs
 * at the model's time per byte and adds no latency; a message holds
 * the links of its route at once, first come first served, as a
 * topology's (net_topology.c): it goes on the wire at
 * t_w = max(t_r, free(l_1), ..., free(l_k)), holds them until
 * t_w + (s - 1) G (hyperbolic: s b) and reaches the receiver at
 * t_w + L (hyperbolic: t_w + T(s)).  A message to its own rank uses no
 * link.  A topology file could list these links, one row each way, but
 * not compactly: P ranks take 2 P + 2 P / R rows.  */
#include <config.h>

#include <stdlib.h>

#include "dagcost.h"
#include "xalloc.h"

struct fattree
{
  int64_t hosts;   /* H, ranks per leaf */
  int64_t ratio;   /* R, the oversubscription */
};

struct dagcost_net_state
{
  int64_t hosts, up;     /* H and U = H / R */
  int64_t nleaf;
  /* when each link is free again: rank r's up (r) and down (P + r)
     links, leaf l's uplink to spine u (2 P + l U + u) and spine u's
     downlink to leaf l (2 P + nleaf U + l U + u) */
  double *free;
  int64_t P;
};

/* A whole number of 1 to 2^28 at *S: its value, or 0 (*S is left past
   the digits).  */
static int64_t
whole (const char **s)
{
  int64_t v = 0;
  if (!(**s >= '1' && **s <= '9'))
    return 0;
  for (; **s >= '0' && **s <= '9'; (*s)++)
    if ((v = v * 10 + (**s - '0')) > (1 << 28))
      return 0;
  return v;
}

/* H or H:R.  */
static int
fattree_parse (const char *args, void **arg, int *col, const char **why)
{
  const char *s = args;
  struct fattree ft = { 0, 1 };
  *col = 1;
  *why = "the ranks per leaf switch, a whole number from 1 to 2^28";
  if (!(ft.hosts = whole (&s)))
    return -1;
  if (*s == ':')
    {
      s++;
      *col = (int) (s - args) + 1;
      *why = "the oversubscription, a whole number >= 1 that divides "
             "the ranks per leaf";
      ft.ratio = whole (&s);
      if (!ft.ratio || ft.hosts % ft.ratio != 0)
        return -1;
    }
  if (*s)
    {
      *col = (int) (s - args) + 1;
      *why = "':' and the oversubscription, or the end";
      return -1;
    }
  struct fattree *p = xmalloc (sizeof *p);
  *p = ft;
  *arg = p;
  return 0;
}

static int
fattree_uses (const struct dagsim_cost *c)
{
  (void) c;
  return 0;   /* only by name (the cost's net) */
}

static struct dagcost_net_state *
fattree_start (const struct dagsim_cost *c, const struct dag *d,
               int link_stats)
{
  (void) link_stats;
  const struct fattree *ft = c->net_arg;
  struct dagcost_net_state *st = xcalloc (1, sizeof *st);
  st->P = d->nprocs > 0 ? d->nprocs : 1;
  st->hosts = ft->hosts;
  st->up = ft->hosts / ft->ratio;
  st->nleaf = (st->P + ft->hosts - 1) / ft->hosts;
  st->free = xcalloc ((size_t) (2 * st->P + 2 * st->nleaf * st->up),
                      sizeof *st->free);
  return st;
}

static double
fattree_wire (struct dagcost_net_state *st, int32_t from, int32_t to,
              const struct dagcost_send *m, double bytes)
{
  (void) bytes;
  if (from == to)
    return m->arrive;
  int64_t lf = from / st->hosts, lt = to / st->hosts, u = to % st->up;
  size_t link[4] = {
    (size_t) from, (size_t) (st->P + to),
    (size_t) (2 * st->P + lf * st->up + u),
    (size_t) (2 * st->P + (st->nleaf + lt) * st->up + u)
  };
  int k = lf == lt ? 2 : 4;
  double tw = m->ready;
  for (int i = 0; i < k; i++)
    if (st->free[link[i]] > tw)
      tw = st->free[link[i]];
  for (int i = 0; i < k; i++)
    st->free[link[i]] = tw + m->hold * m->G;
  return tw + m->flight;
}

static void
fattree_release (struct dagcost_net_state *st)
{
  free (st->free);
  free (st);
}

static void
fattree_finish (struct dagcost_net_state *st, struct dagsim_result *r)
{
  (void) r;
  fattree_release (st);
}

const struct dagcost_net dagcost_fattree = {
  "fattree", fattree_uses, fattree_start, fattree_wire, fattree_finish,
  fattree_release, fattree_parse, "H[:R]", NULL, NULL
};
