/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topology.c: the links of dag-predict --network topology:FILE and the
   routes through them (topology.h).  */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "topology.h"
#include "xalloc.h"

/* One cached route: the pair of ranks (key: (src << 31 | dst) + 1, 0
   for an empty slot) and its links, path[off .. off + len - 1].  */
struct route_slot
{
  uint64_t key;
  size_t off;
  size_t len;
};

struct dag_topo_route
{
  struct route_slot *slot;
  size_t cap, n;        /* cap a power of 2, n < cap / 2 */
};

void
dag_topo_init (struct dag_topo *t)
{
  memset (t, 0, sizeof *t);
  strmap_init (&t->ids);
  strmap_init (&t->pairs);
  t->tree_src = -1;
  t->cache = xcalloc (1, sizeof *t->cache);
}

void
dag_topo_free (struct dag_topo *t)
{
  strmap_free (&t->ids);
  strmap_free (&t->pairs);
  for (size_t u = 0; u < t->nnodes; u++)
    free (t->name[u]);
  free (t->name);
  free (t->rank);
  free (t->first_link);
  free (t->link);
  free (t->rank_node);
  free (t->out_off);
  free (t->out);
  free (t->via);
  free (t->queue);
  if (t->cache)
    free (t->cache->slot);
  free (t->cache);
  free (t->path);
  memset (t, 0, sizeof *t);
}

int
dag_topo_rank_name (const char *s, int64_t *rank)
{
  size_t n = strspn (s, "0123456789");
  if (n == 0 || s[n] != '\0')
    return 0;
  /* "07" would be rank 7 under a second name: refused, not guessed */
  if (n > 1 && s[0] == '0')
    return -1;
  int64_t v = 0;
  for (size_t i = 0; i < n; i++)
    {
      v = v * 10 + (s[i] - '0');
      if (v > INT32_MAX - 1)
        return -1;
    }
  *rank = v;
  return 1;
}

/* The node named S, added (named first by link LINK) if new; -1 for a
   number that is no rank name.  */
static int32_t
node_of (struct dag_topo *t, const char *s, size_t link)
{
  size_t len = strlen (s);
  int32_t u = strmap_get (&t->ids, 0, s, len);
  if (u >= 0)
    return u;
  int64_t r = -1;
  if (dag_topo_rank_name (s, &r) < 0)
    return -1;
  if (t->nnodes == t->node_cap)
    {
      t->node_cap = t->node_cap ? 2 * t->node_cap : 16;
      t->name = xrealloc (t->name, t->node_cap * sizeof *t->name);
      t->rank = xrealloc (t->rank, t->node_cap * sizeof *t->rank);
      t->first_link = xrealloc (t->first_link,
                                t->node_cap * sizeof *t->first_link);
    }
  u = (int32_t) t->nnodes++;
  t->name[u] = xstrdup (s);
  t->rank[u] = r;
  t->first_link[u] = link;
  strmap_put (&t->ids, 0, s, len, u);
  if (r >= 0)
    {
      if (r >= t->nrank)
        {
          int64_t n = t->nrank ? t->nrank : 16;
          while (n <= r)
            n *= 2;
          t->rank_node = xrealloc (t->rank_node,
                                   (size_t) n * sizeof *t->rank_node);
          for (int64_t k = t->nrank; k < n; k++)
            t->rank_node[k] = -1;
          t->nrank = n;
        }
      t->rank_node[r] = u;
    }
  return u;
}

enum dag_topo_status
dag_topo_add (struct dag_topo *t, const char *from, const char *to,
              double G, double L, size_t *which)
{
  int64_t r;
  if (dag_topo_rank_name (from, &r) < 0 || dag_topo_rank_name (to, &r) < 0)
    {
      *which = dag_topo_rank_name (from, &r) < 0 ? 0 : 1;
      return DAG_TOPO_BADRANK;
    }
  if (strcmp (from, to) == 0)
    return DAG_TOPO_SELF;
  size_t i = t->nlinks;
  int32_t a = node_of (t, from, i);
  int32_t b = node_of (t, to, i);
  /* the links by (from, to): the to node's id is the key's bytes */
  int32_t dup = strmap_get (&t->pairs, a, (const char *) &b, sizeof b);
  if (dup >= 0)
    {
      *which = (size_t) dup;
      return DAG_TOPO_DUPLICATE;
    }
  strmap_put (&t->pairs, a, (const char *) &b, sizeof b, (int32_t) i);
  if (t->nlinks == t->link_cap)
    {
      t->link_cap = t->link_cap ? 2 * t->link_cap : 16;
      t->link = xrealloc (t->link, t->link_cap * sizeof *t->link);
    }
  t->link[t->nlinks++] = (struct dag_topo_link) { a, b, G, L, -1 };
  return DAG_TOPO_OK;
}

int32_t
dag_topo_find (const struct dag_topo *t, int32_t from, int32_t to)
{
  return strmap_get (&t->pairs, from, (const char *) &to, sizeof to);
}

int
dag_topo_half (struct dag_topo *t, size_t i)
{
  int32_t j = dag_topo_find (t, t->link[i].to, t->link[i].from);
  if (j < 0)
    return -1;
  t->link[i].twin = j;
  t->link[j].twin = (int32_t) i;
  return 0;
}

void
dag_topo_finish (struct dag_topo *t)
{
  size_t n = t->nnodes;
  free (t->out_off);
  free (t->out);
  t->out_off = xcalloc (n + 1, sizeof *t->out_off);
  t->out = xmalloc ((t->nlinks ? t->nlinks : 1) * sizeof *t->out);
  for (size_t i = 0; i < t->nlinks; i++)
    t->out_off[t->link[i].from + 1]++;
  for (size_t u = 0; u < n; u++)
    t->out_off[u + 1] += t->out_off[u];
  /* a counting sort, stable: each node's links stay in file order */
  size_t *fill = xmalloc ((n ? n : 1) * sizeof *fill);
  memcpy (fill, t->out_off, n * sizeof *fill);
  for (size_t i = 0; i < t->nlinks; i++)
    t->out[fill[t->link[i].from]++] = (int32_t) i;
  free (fill);
  free (t->via);
  free (t->queue);
  t->via = xmalloc ((n ? n : 1) * sizeof *t->via);
  t->queue = xmalloc ((n ? n : 1) * sizeof *t->queue);
  t->tree_src = -1;
}

int32_t
dag_topo_rank_over (const struct dag_topo *t, int64_t P)
{
  for (size_t u = 0; u < t->nnodes; u++)
    if (t->rank[u] >= P)
      return (int32_t) u;
  return -1;
}

const char *
dag_topo_name (const struct dag_topo *t, int32_t u)
{
  return t->name[u];
}

/* Breadth-first search from node SRC: via[u] is the link that first
   reached u, visiting each node's links in file order.  */
static void
bfs (struct dag_topo *t, int32_t src)
{
  for (size_t u = 0; u < t->nnodes; u++)
    t->via[u] = -2;
  t->via[src] = -1;
  size_t head = 0, tail = 0;
  t->queue[tail++] = src;
  while (head < tail)
    {
      int32_t u = t->queue[head++];
      for (size_t k = t->out_off[u]; k < t->out_off[u + 1]; k++)
        {
          int32_t v = t->link[t->out[k]].to;
          if (t->via[v] == -2)
            {
              t->via[v] = t->out[k];
              t->queue[tail++] = v;
            }
        }
    }
  t->tree_src = src;
  t->searches++;
}

static struct route_slot *
route_find (struct dag_topo_route *c, uint64_t key)
{
  size_t mask = c->cap - 1;
  for (size_t i = (size_t) dag_mix64 (key) & mask;; i = (i + 1) & mask)
    if (c->slot[i].key == key || c->slot[i].key == 0)
      return &c->slot[i];
}

/* Room for one more route in the cache (kept at most half full).  */
static void
route_grow (struct dag_topo_route *c)
{
  if (c->cap && 2 * (c->n + 1) < c->cap)
    return;
  struct route_slot *old = c->slot;
  size_t oldcap = c->cap;
  c->cap = c->cap ? 2 * c->cap : 64;
  c->slot = xcalloc (c->cap, sizeof *c->slot);
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].key)
      *route_find (c, old[i].key) = old[i];
  free (old);
}

/* Store link FIRST (none if negative), then the path of the search
   tree to node V, as route KEY.  */
static struct route_slot *
route_store (struct dag_topo *t, uint64_t key, int32_t v, int32_t first)
{
  size_t len = first >= 0;
  for (int32_t u = v; t->via[u] >= 0; u = t->link[t->via[u]].from)
    len++;
  if (t->path_cap - t->npath < len)
    {
      while (t->path_cap - t->npath < len)
        t->path_cap = t->path_cap ? 2 * t->path_cap : 64;
      t->path = xrealloc (t->path, t->path_cap * sizeof *t->path);
    }
  size_t k = len;
  for (int32_t u = v; t->via[u] >= 0; u = t->link[t->via[u]].from)
    t->path[t->npath + --k] = t->via[u];
  if (first >= 0)
    t->path[t->npath] = first;
  route_grow (t->cache);
  struct route_slot *s = route_find (t->cache, key);
  *s = (struct route_slot) { key, t->npath, len };
  t->cache->n++;
  t->npath += len;
  return s;
}

enum dag_topo_status
dag_topo_route (struct dag_topo *t, int32_t src, int32_t dst,
                const int32_t **links, size_t *k)
{
  *links = t->path;
  *k = 0;
  if (src == dst && src >= 0)
    return DAG_TOPO_OK;
  if (src < 0 || dst < 0 || src >= t->nrank || dst >= t->nrank
      || t->rank_node[src] < 0 || t->rank_node[dst] < 0)
    return DAG_TOPO_NOROUTE;
  uint64_t key = ((uint64_t) src << 31 | (uint64_t) dst) + 1;
  struct route_slot *s = t->cache->cap ? route_find (t->cache, key) : NULL;
  if (!s || !s->key)
    {
      int32_t a = t->rank_node[src], b = t->rank_node[dst];
      /* A rank with one link, a host under its switch, reaches every
         node through that link, by the routes the search from the
         switch finds (a shortest route never comes back to the rank):
         the ranks of one switch share its search.  */
      int32_t first = -1, from = a;
      if (t->out_off[a + 1] - t->out_off[a] == 1)
        {
          first = t->out[t->out_off[a]];
          from = t->link[first].to;
        }
      /* one search serves every destination of a source; messages from
         one rank (or switch) tend to come together */
      if (t->tree_src != from)
        bfs (t, from);
      if (t->via[b] == -2)
        return DAG_TOPO_NOROUTE;
      s = route_store (t, key, b, first);
    }
  *links = t->path + s->off;
  *k = s->len;
  return DAG_TOPO_OK;
}

size_t
dag_topo_nroutes (const struct dag_topo *t)
{
  return t->cache->n;
}

/* A pair of ranks to route, and the node its search starts from.  */
struct pending
{
  int32_t from, src, dst;
};

static int
cmp_pending (const void *a, const void *b)
{
  const struct pending *x = a, *y = b;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Sort the N pairs of P by the node their search starts from, and drop
   the repeated ones; returns how many are left.  */
static size_t
pending_unique (struct pending *p, size_t n)
{
  if (n < 2)
    return n;
  qsort (p, n, sizeof *p, cmp_pending);
  size_t k = 1;
  for (size_t i = 1; i < n; i++)
    if (cmp_pending (&p[i], &p[k - 1]) != 0)
      p[k++] = p[i];
  return k;
}

/* The node the search for the routes from rank SRC starts from (its
   switch for a rank with one link: dag_topo_route), or -1 for a rank
   without a node.  */
static int32_t
search_start (const struct dag_topo *t, int32_t src)
{
  if (src < 0 || src >= t->nrank || t->rank_node[src] < 0)
    return -1;
  int32_t a = t->rank_node[src];
  return t->out_off[a + 1] - t->out_off[a] == 1
         ? t->link[t->out[t->out_off[a]]].to : a;
}

/* Is the route from SRC to DST (different ranks) cached?  */
static int
route_cached (const struct dag_topo *t, int32_t src, int32_t dst)
{
  uint64_t key = ((uint64_t) src << 31 | (uint64_t) dst) + 1;
  return t->cache->cap && route_find (t->cache, key)->key == key;
}

enum dag_topo_status
dag_topo_route_dag (struct dag_topo *t, const struct dag *d, int32_t *src,
                    int32_t *dst)
{
  /* The pairs not cached yet, routed in the order of the nodes their
     searches start from, so that each search runs once whatever the
     order of the messages (a random pattern over many switches would
     otherwise search again at nearly every message).  Repeated pairs
     are dropped whenever the list fills, so it holds about as many
     entries as there are pairs, the cache's own size.  */
  size_t n = 0, cap = 1024, limit = 1024;
  struct pending *p = xmalloc (cap * sizeof *p);
  int failed = 0;
  for (size_t v = 0; v < d->n && !failed; v++)
    {
      const struct dag_node *nd = &d->node[v];
      if (nd->op != DAG_SEND || nd->proc == nd->peer
          || route_cached (t, nd->proc, nd->peer))
        continue;
      int32_t from = search_start (t, nd->proc);
      failed = from < 0;
      if (n == limit)
        {
          n = pending_unique (p, n);
          if (n > limit / 2)
            limit *= 2;
          if (limit > cap)
            {
              cap = limit;
              p = xrealloc (p, cap * sizeof *p);
            }
        }
      p[n++] = (struct pending) { from, nd->proc, nd->peer };
    }
  n = pending_unique (p, n);
  for (size_t i = 0; i < n && !failed; i++)
    {
      const int32_t *links;
      size_t k;
      failed = dag_topo_route (t, p[i].src, p[i].dst, &links, &k) != 0;
    }
  free (p);
  if (!failed)
    return DAG_TOPO_OK;
  /* the first pair without a route in operation order, for the
     message */
  for (size_t v = 0; v < d->n; v++)
    {
      const struct dag_node *nd = &d->node[v];
      const int32_t *links;
      size_t k;
      if (nd->op == DAG_SEND
          && dag_topo_route (t, nd->proc, nd->peer, &links, &k) != 0)
        {
          *src = nd->proc;
          *dst = nd->peer;
          return DAG_TOPO_NOROUTE;
        }
    }
  return DAG_TOPO_OK;
}
