/* SPDX-License-Identifier: GPL-3.0-or-later */
/* net_topology.c: --network topology:FILE, the links of a topology
 * (topology.h; dagsim.h has the rule).  A message from one rank to
 * another reserves every link of its route at once, first come first
 * served, when the last of them is free, and holds them all for its
 * bytes at the slowest link's time per byte (the bus rule on a path);
 * a message to its own rank uses no link.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "dagcost.h"
#include "err.h"
#include "topology.h"
#include "xalloc.h"

struct dagcost_net_state
{
  struct dag_topo *topo;
  const char *source;          /* the schedule's, for the error */
  double *link_free;           /* when each link is free again */
  struct dagsim_link *lstat;   /* --link-stats (NULL: not asked) */
};

static int
topo_uses (const struct dagsim_cost *c)
{
  return c->topo != NULL;
}

static struct dagcost_net_state *
topo_start (const struct dagsim_cost *c, const struct dag *d, int link_stats)
{
  struct dagcost_net_state *st = xcalloc (1, sizeof *st);
  size_t n = c->topo->nlinks ? c->topo->nlinks : 1;
  st->topo = c->topo;
  st->source = d->source;
  st->link_free = xcalloc (n, sizeof *st->link_free);
  if (link_stats)
    st->lstat = xcalloc (n, sizeof *st->lstat);
  return st;
}

/* The message of BYTES from rank FROM to rank TO whose first byte is
   ready at TR takes every link of its route when the last of them is
   free and holds them for HOLD bytes at the slowest link's time per
   byte (DEF for a link without its own).  Returns the time it goes on
   the wire, *LAT the route's extra latency, *GMAX that slowest time per
   byte.  */
static double
links_reserve (struct dagcost_net_state *st, int32_t from, int32_t to,
               double tr, double hold, double def, double bytes,
               double *lat, double *gmax)
{
  const int32_t *route;
  size_t k;
  if (dag_topo_route (st->topo, from, to, &route, &k) != DAG_TOPO_OK)
    die ("%s: no route from rank %ld to rank %ld in the topology",
         st->source, (long) from, (long) to);
  double tw = tr, G = 0;
  int32_t last = -1;    /* the link that came free last, if after TR */
  *lat = 0;
  for (size_t i = 0; i < k; i++)
    {
      const struct dag_topo_link *l = &st->topo->link[route[i]];
      double Gl = isnan (l->G) ? def : l->G;
      if (st->link_free[route[i]] > tw)
        {
          tw = st->link_free[route[i]];
          last = route[i];
        }
      G = Gl > G ? Gl : G;
      *lat += l->L;
    }
  for (size_t i = 0; i < k; i++)
    st->link_free[route[i]] = tw + hold * G;
  *gmax = G;
  if (st->lstat)
    {
      for (size_t i = 0; i < k; i++)
        {
          struct dagsim_link *ls = &st->lstat[route[i]];
          ls->messages++;
          ls->bytes += bytes;
          ls->busy += hold * G;
        }
      if (last >= 0)
        {
          st->lstat[last].waited++;
          st->lstat[last].wait += tw - tr;
        }
    }
  return tw;
}

/* A route slower than the model's time per byte delivers the message
   later by its bytes' extra time: the receiver's handling ends no
   sooner than the route's last byte arrives.  */
static double
topo_wire (struct dagcost_net_state *st, int32_t from, int32_t to,
           const struct dagcost_send *m, double bytes)
{
  double lat, gr;
  double tw = links_reserve (st, from, to, m->ready, m->hold, m->G, bytes,
                             &lat, &gr);
  return tw + m->flight + lat + (gr > m->G ? m->hold * (gr - m->G) : 0);
}

static void
topo_release (struct dagcost_net_state *st)
{
  free (st->link_free);
  free (st->lstat);
  free (st);
}

/* --link-stats: handed over to the result */
static void
topo_finish (struct dagcost_net_state *st, struct dagsim_result *r)
{
  if (st->lstat)
    {
      r->link = st->lstat;
      r->nlinks = st->topo->nlinks;
      st->lstat = NULL;
    }
  topo_release (st);
}

const struct dagcost_net dagcost_topology = {
  "topology", topo_uses, topo_start, topo_wire, topo_finish, topo_release,
  NULL, NULL
};
