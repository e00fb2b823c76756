/* SPDX-License-Identifier: GPL-3.0-or-later */
/* net_topology.c: --network topology:FILE and topology-fifo:FILE, the
 * links of a topology (topology.h; dagsim.h has the rules).
 *
 * topology-fifo: a message from one rank to another reserves every
 * link of its route at once, first come first served, when the last of
 * them is free, and holds them all for its bytes at the slowest link's
 * time per byte (the bus rule on a path).
 *
 * topology: the messages on a link share its bandwidth, max-min fair,
 * their rates found again whenever one starts or ends (linkshare.h):
 * a message's bytes are a flow over the links of its route from the
 * time its first byte is ready, at no more than the model's own rate
 * (1/G); it reaches the receiver when its last byte is through, later
 * than the model says by that flow's time beyond s1 * G.  Alone on its
 * route, the two rules give the same arrival.
 *
 * A half-duplex link (topology.h: twin) is one medium for both
 * directions: a message on it takes the reverse link too, which under
 * topology-fifo it holds as well, and under topology shares max-min
 * fair with the messages going the other way (two messages that cross
 * get half its capacity each, a full-duplex link gives both all of
 * it).
 *
 * A message to its own rank uses no link under either.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "dagcost.h"
#include "err.h"
#include "linkshare.h"
#include "topology.h"
#include "xalloc.h"

/* A message as a flow (the flow of the same index in linkshare).  */
struct tflow
{
  int32_t v;        /* its send */
  double off;       /* arrival - the flow's end, before late */
  double late;      /* the model's late */
  double due;       /* the time of its event in the engine's queue
                       (NaN: delivered) */
  double alone;     /* its bytes' time alone on its route */
};

struct dagcost_net_state
{
  struct dag_topo *topo;
  const char *source;          /* the schedule's, for the error */
  double *link_free;           /* fifo: when each link is free again */
  struct dagsim_link *lstat;   /* --link-stats (NULL: not asked) */
  /* sharing: the flows, each message's (by send; -1: none yet), the
     links whose capacity is set, and the messages moved earlier by the
     last wire () */
  struct lshare ls;
  struct tflow *tf;
  size_t tfcap;
  int32_t *flow_of;
  unsigned char *cap_set;
  size_t *mv;
  size_t nmv, mvcap;
  int dirty;                   /* flows added since the last projection */
  int32_t *xr;                 /* a route with its links' twins */
  size_t xrcap;
};

/* ROUTE (K links) and the twins of its half-duplex links, in ST's
   scratch; *KX their number.  */
static const int32_t *
with_twins (struct dagcost_net_state *st, const int32_t *route, size_t k,
            size_t *kx)
{
  if (2 * k > st->xrcap)
    {
      st->xrcap = 2 * k;
      st->xr = xrealloc (st->xr, st->xrcap * sizeof *st->xr);
    }
  size_t n = 0;
  for (size_t i = 0; i < k; i++)
    st->xr[n++] = route[i];
  for (size_t i = 0; i < k; i++)
    if (st->topo->link[route[i]].twin >= 0)
      st->xr[n++] = st->topo->link[route[i]].twin;
  *kx = n;
  return st->xr;
}

static int
topo_uses (const struct dagsim_cost *c)
{
  return c->topo != NULL && !c->topo->fifo;
}

static int
fifo_uses (const struct dagsim_cost *c)
{
  return c->topo != NULL && c->topo->fifo;
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

static struct dagcost_net_state *
share_start (const struct dagsim_cost *c, const struct dag *d,
             int link_stats)
{
  struct dagcost_net_state *st = topo_start (c, d, link_stats);
  size_t n = c->topo->nlinks ? c->topo->nlinks : 1;
  lshare_init (&st->ls, c->topo->nlinks, link_stats);
  st->cap_set = xcalloc (n, 1);
  st->flow_of = xmalloc ((d->n ? d->n : 1) * sizeof *st->flow_of);
  for (size_t i = 0; i < d->n; i++)
    st->flow_of[i] = -1;
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
  size_t kx;
  const int32_t *xr = with_twins (st, route, k, &kx);
  for (size_t i = 0; i < kx; i++)
    {
      const struct dag_topo_link *l = &st->topo->link[xr[i]];
      double Gl = isnan (l->G) ? def : l->G;
      if (st->link_free[xr[i]] > tw)
        {
          tw = st->link_free[xr[i]];
          last = xr[i];
        }
      G = Gl > G ? Gl : G;
      *lat += i < k ? l->L : 0;
    }
  for (size_t i = 0; i < kx; i++)
    st->link_free[xr[i]] = tw + hold * G;
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
  lshare_free (&st->ls);
  free (st->tf);
  free (st->flow_of);
  free (st->cap_set);
  free (st->xr);
  free (st->mv);
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

const struct dagcost_net dagcost_topology_fifo = {
  "topology-fifo", fifo_uses, topo_start, topo_wire, topo_finish,
  topo_release, NULL, NULL, NULL, NULL
};

/* ------------------------------------------------ shared links */

/* The capacity of each link of ROUTE (K links) in bytes per time unit:
   1/G of its own, or the model's DEF for a link without (set by the
   first message that crosses it).  Returns the route's slowest time
   per byte and *LAT its extra latency.  */
static double
share_caps (struct dagcost_net_state *st, const int32_t *route, size_t k,
            double def, double *lat)
{
  double gmax = 0;
  *lat = 0;
  for (size_t i = 0; i < k; i++)
    {
      const struct dag_topo_link *l = &st->topo->link[route[i]];
      if (!st->cap_set[route[i]])
        {
          double G = isnan (l->G) ? def : l->G;
          st->ls.lcap[route[i]] = G > 0 ? 1 / G : INFINITY;
          st->cap_set[route[i]] = 1;
        }
      double Gl = st->ls.lcap[route[i]] < INFINITY
                  ? 1 / st->ls.lcap[route[i]] : 0;
      gmax = Gl > gmax ? Gl : gmax;
      *lat += l->L;
    }
  return gmax;
}

/* A new flow: its arrival were it alone on its route, which no other
   flow can make sooner; the others' arrivals are found again at the
   next event (share_settle), once for all the flows added since.  */
static double
share_wire (struct dagcost_net_state *st, int32_t from, int32_t to,
            const struct dagcost_send *m, double bytes)
{
  const int32_t *route;
  size_t k;
  if (dag_topo_route (st->topo, from, to, &route, &k) != DAG_TOPO_OK)
    die ("%s: no route from rank %ld to rank %ld in the topology",
         st->source, (long) from, (long) to);
  if (k == 0)
    return m->ready + m->flight;
  double lat, gr = share_caps (st, route, k, m->G, &lat);
  double cap = m->G > 0 ? 1 / m->G : INFINITY;
  size_t kx;
  const int32_t *xr = with_twins (st, route, k, &kx);
  if (kx > k)
    {
      double tl, tg = share_caps (st, xr + k, kx - k, m->G, &tl);
      gr = tg > gr ? tg : gr;
    }
  size_t i = lshare_add (&st->ls, m->ready, m->hold, xr, (int32_t) kx,
                         cap);
  if (i >= st->tfcap)
    {
      st->tfcap = st->tfcap ? 2 * st->tfcap : 64;
      st->tf = xrealloc (st->tf, st->tfcap * sizeof *st->tf);
    }
  struct tflow *f = &st->tf[i];
  f->v = m->op;
  f->off = m->flight + lat - m->hold * m->G;
  f->late = m->late;
  f->alone = m->hold * (gr > m->G ? gr : m->G);
  st->flow_of[m->op] = (int32_t) i;
  st->dirty = 1;
  if (st->lstat)
    for (size_t j = 0; j < k; j++)
      {
        st->lstat[route[j]].messages++;
        st->lstat[route[j]].bytes += bytes;
      }
  /* (as linkshare computes an end: start + bytes / rate) */
  double rate = cap;
  for (size_t j = 0; j < k; j++)
    rate = st->ls.lcap[route[j]] < rate ? st->ls.lcap[route[j]] : rate;
  double end = m->hold <= 0 ? m->ready
               : rate > 0 ? m->ready + m->hold / rate : INFINITY;
  double ret = end + f->off;
  f->due = ret + f->late;   /* as the engine adds it */
  return ret;
}

/* The flows added since the last event: every open flow's arrival is
   found again from the state at T; those that came sooner than their
   events (a new flow slowed one that held them back) are handed to
   moved (), no sooner than T.  Later ones are found when their events
   come up.  */
static void
share_project (struct dagcost_net_state *st, double t)
{
  lshare_project (&st->ls);
  st->dirty = 0;
  for (size_t j = 0; j < st->ls.nopen; j++)
    {
      size_t x = st->ls.open[j];
      struct tflow *g = &st->tf[x];
      double a = st->ls.f[x].proj + g->off + g->late;
      if (a < g->due)
        {
          g->due = a > t ? a : t;
          if (st->nmv == st->mvcap)
            {
              st->mvcap = st->mvcap ? 2 * st->mvcap : 64;
              st->mv = xrealloc (st->mv, st->mvcap * sizeof *st->mv);
            }
          st->mv[st->nmv++] = x;
        }
    }
}

static int
share_moved (struct dagcost_net_state *st, int32_t *v, double *t)
{
  if (st->nmv == 0)
    return 0;
  const struct tflow *g = &st->tf[st->mv[--st->nmv]];
  *v = g->v;
  *t = g->due;
  return 1;
}

/* The event of send V's message at T: the flows move on to T (no
   message starts before the engine's time), their arrivals are found
   again if flows were added, and a flow that later ones slowed down is
   due later.  */
static double
share_settle (struct dagcost_net_state *st, int32_t v, double t)
{
  int32_t i = st->flow_of[v];
  if (i < 0)
    return t;   /* a message to its own rank */
  lshare_advance (&st->ls, t);
  if (st->dirty)
    share_project (st, t);
  struct tflow *g = &st->tf[i];
  if (!(t == g->due))
    return -1;
  const struct lshare_flow *f = &st->ls.f[i];
  double a = (isnan (f->end) ? f->proj : f->end) + g->off + g->late;
  if (a > t)
    {
      g->due = a;
      return a;
    }
  g->due = NAN;
  return t;
}

/* --link-stats: a link's busy time is when it carried a flow; a
   message slower than alone on its route waited, counted on the link
   whose share set its rate last.  */
static void
share_finish (struct dagcost_net_state *st, struct dagsim_result *r)
{
  if (st->lstat)
    {
      /* (a message reaches its receiver, and the simulation may end,
         before its last byte has crossed) */
      lshare_advance (&st->ls, INFINITY);
      for (size_t l = 0; l < st->topo->nlinks; l++)
        st->lstat[l].busy = st->ls.busy[l];
      for (size_t i = 0; i < st->ls.nf; i++)
        {
          const struct lshare_flow *f = &st->ls.f[i];
          double w = f->end - f->start - st->tf[i].alone;
          if (f->bott >= 0 && w > 1e-9 * st->tf[i].alone)
            {
              st->lstat[f->bott].waited++;
              st->lstat[f->bott].wait += w;
            }
        }
    }
  topo_finish (st, r);
}

const struct dagcost_net dagcost_topology = {
  "topology", topo_uses, share_start, share_wire, share_finish,
  topo_release, NULL, NULL, share_settle, share_moved
};
