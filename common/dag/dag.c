/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag.c: the operation graph of dag-predict (see dag.h).  */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bigmem.h"
#include "dag.h"
#include "err.h"
#include "xalloc.h"

#if defined MADV_HUGEPAGE || defined MADV_POPULATE_WRITE
/* The whole pages inside the block P of LEN bytes: [*A, *E), if there
   is one.  */
static int
pages_in (void *p, size_t len, uintptr_t *a, uintptr_t *e)
{
  long pg = sysconf (_SC_PAGESIZE);
  if (!p || pg <= 0)
    return 0;
  *a = ((uintptr_t) p + (uintptr_t) pg - 1) & ~((uintptr_t) pg - 1);
  *e = ((uintptr_t) p + len) & ~((uintptr_t) pg - 1);
  return *e > *a;
}

/* The same, if the block is of MIN bytes at least and not a file's
   pages (bigmem.h: they would all be made dirty at once, which is what
   a file-backed array is there to avoid).  */
static int
big_pages_of (void *p, size_t len, size_t min, uintptr_t *a, uintptr_t *e)
{
  if (len < min || big_in_file (p))
    return 0;
  return pages_in (p, len, a, e);
}

/* The least blocks worth huge pages (one of 2 MiB can lie inside) and
   worth a system call that maps their pages in (rather than a fault
   every 4 KiB: sixteen faults cost more than the call).  */
enum { HUGE_MIN = 1 << 22, POPULATE_MIN = 1 << 16 };
#endif

void *
dag_hugepages (void *p, size_t len)
{
#ifdef MADV_HUGEPAGE
  uintptr_t a, e;
  if (big_pages_of (p, len, HUGE_MIN, &a, &e))
    (void) madvise ((void *) a, e - a, MADV_HUGEPAGE);
#else
  (void) len;
#endif
  return p;
}

void *
dag_populate (void *p, size_t len)
{
  dag_hugepages (p, len);
#ifdef MADV_POPULATE_WRITE
  uintptr_t a, e;
  if (big_pages_of (p, len, POPULATE_MIN, &a, &e))
    (void) madvise ((void *) a, e - a, MADV_POPULATE_WRITE);
#else
  (void) len;
#endif
  return p;
}

/* Map in the pages of [P, P + LEN) that lie wholly inside it, about to
   be written, in one call (MADV_POPULATE_WRITE) rather than a page
   fault each.  */
static void
populate_range (void *p, size_t len)
{
#ifdef MADV_POPULATE_WRITE
  uintptr_t a, e;
  if (pages_in (p, len, &a, &e))
    (void) madvise ((void *) a, e - a, MADV_POPULATE_WRITE);
#else
  (void) p;
  (void) len;
#endif
}

void *
dag_grow (void *p, size_t used, size_t len)
{
#ifdef MADV_HUGEPAGE
  /* (big_try_realloc: in memory only, never a file's pages) */
  void *q = len >= HUGE_MIN && used < len && !big_in_file (p)
            ? big_try_realloc (NULL, len) : NULL;
  if (q)
    {
      dag_hugepages (q, len);
      if (used)
        {
          populate_range (q, used);
          memcpy (q, p, used);
        }
      big_free (p);
      return q;
    }
#else
  (void) used;
#endif
  return big_realloc (p, len);
}

/* Give the node array and the side arrays there are CAP entries.  */
static void
node_arrays (struct dag *d, size_t cap)
{
  size_t n = d->n;
  d->node = dag_grow (d->node, n * sizeof *d->node, cap * sizeof *d->node);
  if (d->name_of)
    d->name_of = dag_grow (d->name_of, n * sizeof *d->name_of,
                           cap * sizeof *d->name_of);
  if (d->line_of)
    d->line_of = dag_grow (d->line_of, n * sizeof *d->line_of,
                           cap * sizeof *d->line_of);
  d->cap = cap;
}

void
dag_reserve (struct dag *d, size_t nodes, size_t edges)
{
  if (nodes > INT32_MAX / 2)
    die ("%s: too many operations (over 2^30)", d->source);
  if (nodes > d->cap)
    {
      node_arrays (d, nodes);
      dag_populate (d->node, nodes * sizeof *d->node);
    }
  if (edges > d->ecap)
    {
      d->efrom = dag_populate (big_realloc (d->efrom,
                                            edges * sizeof *d->efrom),
                               edges * sizeof *d->efrom);
      d->eto = dag_populate (big_realloc (d->eto, edges * sizeof *d->eto),
                             edges * sizeof *d->eto);
      d->ekind = dag_populate (big_realloc (d->ekind, edges), edges);
      d->ecap = edges;
    }
}

/* Array P resized to N entries of SIZE bytes, backed by huge pages as
   it is written (dag_hugepages), if the memory is given (*OK); else,
   or when an earlier resize was refused (*OK already 0), P as it was,
   and *OK 0.  */
static void *
try_resize (void *p, size_t n, size_t size, int *ok)
{
  void *q = *ok && n <= SIZE_MAX / size ? big_try_realloc (p, n * size)
                                        : NULL;
  if (!q)
    {
      *ok = 0;
      return p;
    }
  return dag_hugepages (q, n * size);
}

void
dag_expect (struct dag *d, size_t nodes, size_t edges)
{
  int ok = 1;
  if (nodes > INT32_MAX / 2)
    nodes = INT32_MAX / 2;
  if (nodes > d->cap)
    {
      /* Each array that was given its room keeps it: more than cap
         entries is no harm, and the next growth starts from there.  */
      d->node = try_resize (d->node, nodes, sizeof *d->node, &ok);
      if (d->name_of)
        d->name_of = try_resize (d->name_of, nodes, sizeof *d->name_of,
                                 &ok);
      if (d->line_of)
        d->line_of = try_resize (d->line_of, nodes, sizeof *d->line_of,
                                 &ok);
      if (ok)
        {
          d->cap = nodes;
          d->expected = 1;
        }
    }
  ok = 1;
  if (edges > d->ecap)
    {
      d->efrom = try_resize (d->efrom, edges, sizeof *d->efrom, &ok);
      d->eto = try_resize (d->eto, edges, sizeof *d->eto, &ok);
      d->ekind = try_resize (d->ekind, edges, sizeof *d->ekind, &ok);
      if (ok)
        d->ecap = edges;
    }
}

void
dag_init (struct dag *d, const char *source)
{
  memset (d, 0, sizeof *d);
  d->source = source ? source : "<input>";
}

void
dag_free (struct dag *d)
{
  if (d->mapped)
    {
      memset (d, 0, sizeof *d);
      return;
    }
  big_free (d->node);
  big_free (d->name_of);
  big_free (d->line_of);
  big_free (d->efrom);
  big_free (d->eto);
  big_free (d->ekind);
  big_free (d->succ_off);
  big_free (d->succ);
  big_free (d->npred);
  big_free (d->pool);
  memset (d, 0, sizeof *d);
}

int
dag_same (const struct dag *a, const struct dag *b)
{
  if (a->n != b->n || a->ne != b->ne || a->nprocs != b->nprocs
      || a->maxcpu != b->maxcpu || a->maxnic != b->maxnic)
    return 0;
  for (size_t v = 0; v < a->n; v++)
    {
      const struct dag_node *x = &a->node[v], *y = &b->node[v];
      int32_t nx = dag_node_name (a, v), ny = dag_node_name (b, v);
      if (x->op != y->op || x->proc != y->proc || x->peer != y->peer
          || x->tag != y->tag || x->cpu != y->cpu || x->nic != y->nic
          || x->derived != y->derived
          || memcmp (&x->u, &y->u, sizeof x->u) != 0
          || dag_node_line (a, v) != dag_node_line (b, v)
          || (nx < 0) != (ny < 0)
          || (nx >= 0 && strcmp (dag_name (a, nx), dag_name (b, ny)) != 0))
        return 0;
    }
  for (size_t k = 0; k < a->ne; k++)
    if (a->efrom[k] != b->efrom[k] || a->eto[k] != b->eto[k]
        || a->ekind[k] != b->ekind[k])
      return 0;
  return 1;
}

int32_t
dag_intern (struct dag *d, const char *s, size_t len)
{
  if (d->pool_len + len + 1 > d->pool_cap)
    {
      size_t need = d->pool_len + len + 1;
      size_t cap = d->pool_cap ? d->pool_cap : 4096;
      while (cap < need)
        cap *= 2;
      /* offsets are int32_t: the pool goes up to 2 GiB, its last
         doubling short of it */
      if (need > INT32_MAX)
        die ("%s: too many names (name pool over 2 GiB)", d->source);
      if (cap > INT32_MAX)
        cap = INT32_MAX;
      d->pool = big_realloc (d->pool, cap);
      d->pool_cap = cap;
    }
  int32_t off = (int32_t) d->pool_len;
  memcpy (d->pool + off, s, len);
  d->pool[off + len] = '\0';
  d->pool_len += len + 1;
  return off;
}

const char *
dag_name (const struct dag *d, int32_t off)
{
  return off >= 0 ? d->pool + off : NULL;
}

/* A side array of D's cap entries, the first D->n set to FILL.  When
   cap is an expectation (dag_expect), it is reserved likewise, huge
   pages and all; if the system refuses that much, the arrays are first
   brought down to what they hold.  */
static int32_t *
side_array (struct dag *d, int32_t fill)
{
  int32_t *a = NULL;
  if (d->expected)
    {
      int ok = 1;
      a = try_resize (NULL, d->cap, sizeof *a, &ok);
      if (!a)
        {
          d->expected = 0;
          if (d->n + DAG_GROW_AHEAD < d->cap)
            node_arrays (d, d->n + DAG_GROW_AHEAD);
        }
    }
  if (!a)
    a = big_alloc (d->cap * sizeof *a);
  for (size_t i = 0; i < d->n; i++)
    a[i] = fill;
  return a;
}

void
dag_node_room (struct dag *d, int32_t name, int32_t line)
{
  if (d->n == d->cap)
    {
      size_t cap = d->cap ? 2 * d->cap : 1024;
      if (cap > INT32_MAX / 2)
        die ("%s: too many operations (over 2^30)", d->source);
      node_arrays (d, cap);
    }
  if (name >= 0 && !d->name_of)
    d->name_of = side_array (d, -1);
  if (line != 0 && !d->line_of)
    d->line_of = side_array (d, 0);
  /* not a file's pages (bigmem.h): written as they are reached */
  if (d->n % DAG_GROW_AHEAD == 0 && !big_in_file (d->node))
    {
      size_t k = d->cap - d->n < DAG_GROW_AHEAD ? d->cap - d->n
                                                : DAG_GROW_AHEAD;
      populate_range (d->node + d->n, k * sizeof *d->node);
      if (d->name_of)
        populate_range (d->name_of + d->n, k * sizeof *d->name_of);
      if (d->line_of)
        populate_range (d->line_of + d->n, k * sizeof *d->line_of);
    }
}

void
dag_set_cpu_nic (struct dag *d, int32_t v, int cpu, int nic)
{
  d->node[v].cpu = (uint8_t) cpu;
  d->node[v].nic = (uint8_t) nic;
  if (cpu > d->maxcpu)
    d->maxcpu = cpu;
  if (nic > d->maxnic)
    d->maxnic = nic;
}

void
dag_add_edge_slow (struct dag *d, int32_t from, int32_t to, enum dag_dep k)
{
  if (d->ne == d->ecap)
    {
      size_t cap = d->ecap ? 2 * d->ecap : 1024, ne = d->ne;
      d->efrom = dag_grow (d->efrom, ne * sizeof *d->efrom,
                           cap * sizeof *d->efrom);
      d->eto = dag_grow (d->eto, ne * sizeof *d->eto, cap * sizeof *d->eto);
      d->ekind = dag_grow (d->ekind, ne, cap);
      d->ecap = cap;
    }
  if (d->ne % DAG_GROW_AHEAD == 0 && !big_in_file (d->efrom))
    {
      size_t m = d->ecap - d->ne < DAG_GROW_AHEAD ? d->ecap - d->ne
                                                  : DAG_GROW_AHEAD;
      populate_range (d->efrom + d->ne, m * sizeof *d->efrom);
      populate_range (d->eto + d->ne, m * sizeof *d->eto);
      populate_range (d->ekind + d->ne, m);
    }
  dag_edge_store (d, from, to, k);
}

void
dag_add_message (struct dag *d, int32_t a, int32_t b, int64_t bytes,
                 int64_t *next_tag, int32_t line)
{
  int32_t pa = d->node[a].proc, pb = d->node[b].proc;
  if (pa == pb)
    {
      dag_add_edge (d, a, b, DAG_REQUIRES);
      return;
    }
  if (*next_tag >= INT32_MAX)
    die ("%s: too many messages (over 2^31)", d->source);
  int64_t tag = (*next_tag)++;
  int32_t s = dag_add_send (d, pa, pb, bytes, tag, dag_node_name (d, a),
                            line);
  int32_t r = dag_add_recv (d, pb, pa, bytes, tag, dag_node_name (d, b),
                            line);
  d->node[s].derived = d->node[r].derived = 1;
  dag_add_edge (d, a, s, DAG_REQUIRES);
  dag_add_edge (d, r, b, DAG_REQUIRES);
}

void
dag_describe (const struct dag *d, int32_t v, char *buf, size_t len)
{
  const struct dag_node *nd = &d->node[v];
  const char *name = dag_name (d, dag_node_name (d, (size_t) v));
  int32_t line = dag_node_line (d, (size_t) v);
  char where[48] = "";
  if (line > 0)
    snprintf (where, sizeof where, ", line %" PRId32, line);
  if (nd->op == DAG_CALC)
    {
      if (name)
        snprintf (buf, len, "task '%s' (proc %" PRId32 "%s)", name,
                  nd->proc, where);
      else
        snprintf (buf, len, "calc on proc %" PRId32 "%s", nd->proc, where);
      return;
    }
  char peer[24], tag[32];
  if (nd->peer == DAG_ANY)
    strcpy (peer, "any");
  else
    snprintf (peer, sizeof peer, "%" PRId32, nd->peer);
  if (nd->tag == DAG_ANY)
    strcpy (tag, "any");
  else
    snprintf (tag, sizeof tag, "%" PRId32, nd->tag);
  if (nd->derived)
    snprintf (buf, len, "%s of message %s task '%s' (proc %" PRId32
              " %s proc %s%s)",
              nd->op == DAG_SEND ? "send" : "receive",
              nd->op == DAG_SEND ? "from" : "to", name ? name : "?",
              nd->proc, nd->op == DAG_SEND ? "to" : "from", peer, where);
  else
    snprintf (buf, len, "%s%s%s%s %" PRId64 "b %s %s tag %s on rank %"
              PRId32 "%s",
              name ? "'" : "", name ? name : "", name ? "' " : "",
              nd->op == DAG_SEND ? "send" : "recv", nd->u.bytes,
              nd->op == DAG_SEND ? "to" : "from", peer, tag, nd->proc,
              where);
}

/* Name one cycle among the nodes left over by Kahn's algorithm.  */
static void
die_cycle (struct dag *d, const uint32_t *left)
{
  int32_t *pred = big_alloc (d->n * sizeof *pred);
  for (size_t v = 0; v < d->n; v++)
    pred[v] = -1;
  for (size_t e = 0; e < d->ne; e++)
    if (left[d->efrom[e]] && left[d->eto[e]])
      pred[d->eto[e]] = d->efrom[e];
  for (size_t v = 0; v < d->n; v++)
    if (left[v] && d->node[v].op == DAG_RECV && d->node[v].derived
        && left[v - 1])
      pred[v] = (int32_t) v - 1;
  int32_t start = -1;
  for (size_t v = 0; v < d->n && start < 0; v++)
    if (left[v])
      start = (int32_t) v;
  /* Walk predecessors until one repeats: that one is on a cycle.  */
  uint8_t *seen = big_calloc (d->n, 1);
  int32_t v = start;
  while (!seen[v])
    {
      seen[v] = 1;
      v = pred[v];
    }
  /* Collect the cycle backwards from v, print it forwards, closing it
     with its first operation.  */
  int32_t *cyc = NULL;
  size_t ncyc = 0;
  int32_t u = v;
  do
    {
      cyc = xrealloc (cyc, (ncyc + 1) * sizeof *cyc);
      cyc[ncyc++] = u;
      u = pred[u];
    }
  while (u != v);
  size_t cap = 4096, len = 0;
  char *msg = xmalloc (cap);
  msg[0] = '\0';
  for (size_t k = 0; k <= ncyc; k++)
    {
      char desc[256];
      if (k == 8 && ncyc > 8)
        {
          snprintf (msg + len, cap - len, " -> ...");
          len = strlen (msg);
          k = ncyc;
        }
      dag_describe (d, cyc[k < ncyc ? ncyc - 1 - k : ncyc - 1], desc,
                    sizeof desc);
      snprintf (msg + len, cap - len, "%s%s", k ? " -> " : "", desc);
      len = strlen (msg);
    }
  big_free (seen);
  big_free (pred);
  int32_t line = dag_node_line (d, (size_t) cyc[ncyc - 1]);
  free (cyc);
  static char text[4096];
  snprintf (text, sizeof text, "%s", msg);
  free (msg);
  big_free ((void *) left);
  die_at (d->source, line, 0, "dependency cycle: %s", text);
}

int
dag_pair_runs_may_pair (const struct dag_pair_runs *r)
{
  return r->nop[0] > r->inrun[0] && r->nop[1] > r->inrun[1];
}

int
dag_may_pair (const struct dag *d)
{
  struct dag_pair_runs runs;
  memset (&runs, 0, sizeof runs);
  for (size_t v = 0; v < d->n; v++)
    dag_pair_runs_add (&runs, &d->node[v]);
  return dag_pair_runs_may_pair (&runs);
}

/* Die naming a cycle of D's dependencies (its successor lists made) if
   there is one.  Kahn's algorithm: every node must be reachable in
   topological order, otherwise there is a cycle.  The nodes ready go
   through a first-in first-out queue (each node enters it once), which
   visits the graph level by level, close to the order of the node array
   for the generators' DAGs: fewer cache misses than a stack.  */
static void
find_cycle (struct dag *d)
{
  size_t n = d->n;
  uint32_t *left = big_alloc ((n ? n : 1) * sizeof *left);
  int32_t *queue = big_alloc ((n ? n : 1) * sizeof *queue);
  dag_populate (left, n * sizeof *left);
  dag_populate (queue, n * sizeof *queue);
  size_t qhead = 0, qtail = 0;
  /* The message of a native SEND (node v) reaches its RECV (v + 1): an
     edge for this check, though not a dependency of the simulation.  */
  for (size_t v = 0; v < n; v++)
    left[v] = d->npred[v]
              + (d->node[v].op == DAG_RECV && d->node[v].derived);
  for (size_t v = 0; v < n; v++)
    if (!left[v])
      queue[qtail++] = (int32_t) v;
  while (qhead < qtail)
    {
      int32_t v = queue[qhead++];
      if (d->node[v].op == DAG_SEND && d->node[v].derived
          && --left[v + 1] == 0)
        queue[qtail++] = v + 1;
      for (size_t i = d->succ_off[v]; i < d->succ_off[v + 1]; i++)
        {
          uint32_t w = d->succ[i] >> 1;
          if (--left[w] == 0)
            queue[qtail++] = (int32_t) w;
        }
    }
  big_free (queue);
  if (qtail < n)
    die_cycle (d, left);   /* frees LEFT */
  big_free (left);
}

void
dag_finalize (struct dag *d)
{
  size_t n = d->n;
  if (d->ne >= UINT32_MAX)
    die ("%s: too many dependencies (over 2^32)", d->source);
  big_free (d->succ_off);
  big_free (d->succ);
  big_free (d->npred);
  d->succ_off = big_calloc (n + 1, sizeof *d->succ_off);
  d->succ = big_alloc ((d->ne ? d->ne : 1) * sizeof *d->succ);
  d->npred = big_calloc (n ? n : 1, sizeof *d->npred);
  dag_populate (d->succ_off, (n + 1) * sizeof *d->succ_off);
  dag_populate (d->succ, d->ne * sizeof *d->succ);
  dag_populate (d->npred, n * sizeof *d->npred);
  /* every dependency from an earlier operation to a later one: then
     the operations' order is a topological order, and there is no
     cycle to look for (a GOAL file's labels are mostly defined before
     they are required) */
  int forward = 1;
  for (size_t e = 0; e < d->ne; e++)
    {
      forward &= d->efrom[e] < d->eto[e];
      if (d->efrom[e] == d->eto[e])
        {
          char desc[256];
          dag_describe (d, d->efrom[e], desc, sizeof desc);
          die_at (d->source, dag_node_line (d, (size_t) d->efrom[e]), 0,
                  "dependency cycle: %s depends on itself", desc);
        }
      d->succ_off[d->efrom[e]]++;
      d->npred[d->eto[e]]++;
    }
  /* succ_off[v] = the end of v's list; then the edges, last first,
     each just before the previous one of its node: succ_off[v] ends at
     the start of v's list, and each list keeps the order the edges were
     added in, without a second array of positions.  */
  for (size_t v = 1; v < n; v++)
    d->succ_off[v] += d->succ_off[v - 1];
  d->succ_off[n] = (uint32_t) d->ne;
  for (size_t e = d->ne; e-- > 0;)
    d->succ[--d->succ_off[d->efrom[e]]] =
      ((uint32_t) d->eto[e] << 1) | d->ekind[e];

  d->may_pair = dag_may_pair (d);
  if (!forward)
    find_cycle (d);

  /* The builder's edge list is no longer needed.  */
  big_free (d->efrom);
  big_free (d->eto);
  big_free (d->ekind);
  d->efrom = d->eto = NULL;
  d->ekind = NULL;
  d->ecap = 0;
}

/* ------------------------------------------------------------ strmap */

struct strmap_slot
{
  uint64_t hash;
  int64_t scope;
  size_t key;      /* offset in keys, +1; 0 = empty */
  size_t len;
  int32_t value;
};

static uint64_t
str_hash (int64_t scope, const char *s, size_t len)
{
  uint64_t h = UINT64_C (1469598103934665603) ^ (uint64_t) scope;
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char) s[i]) * UINT64_C (1099511628211);
  return dag_mix64 (h);
}

void
strmap_init (struct strmap *m)
{
  memset (m, 0, sizeof *m);
}

void
strmap_free (struct strmap *m)
{
  free (m->slot);
  free (m->keys);
  memset (m, 0, sizeof *m);
}

static struct strmap_slot *
strmap_find (const struct strmap *m, uint64_t h, int64_t scope,
             const char *key, size_t len)
{
  size_t mask = m->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask)
    {
      struct strmap_slot *s = &m->slot[i];
      if (!s->key)
        return s;
      if (s->hash == h && s->scope == scope && s->len == len
          && memcmp (m->keys + s->key - 1, key, len) == 0)
        return s;
    }
}

int32_t
strmap_get (const struct strmap *m, int64_t scope, const char *key,
            size_t len)
{
  if (!m->cap)
    return -1;
  struct strmap_slot *s = strmap_find (m, str_hash (scope, key, len),
                                       scope, key, len);
  return s->key ? s->value : -1;
}

int32_t
strmap_put (struct strmap *m, int64_t scope, const char *key, size_t len,
            int32_t value)
{
  if (2 * (m->n + 1) > m->cap)
    {
      size_t cap = m->cap ? 2 * m->cap : 1024;
      struct strmap_slot *old = m->slot;
      size_t oldcap = m->cap;
      m->slot = xcalloc (cap, sizeof *m->slot);
      m->cap = cap;
      for (size_t i = 0; i < oldcap; i++)
        if (old[i].key)
          {
            size_t j = old[i].hash & (cap - 1);
            while (m->slot[j].key)
              j = (j + 1) & (cap - 1);
            m->slot[j] = old[i];
          }
      free (old);
    }
  uint64_t h = str_hash (scope, key, len);
  struct strmap_slot *s = strmap_find (m, h, scope, key, len);
  if (s->key)
    {
      int32_t prev = s->value;
      s->value = value;
      return prev;
    }
  if (m->keys_len + len + 1 > m->keys_cap)
    {
      size_t cap = m->keys_cap ? m->keys_cap : 4096;
      while (cap < m->keys_len + len + 1)
        cap *= 2;
      m->keys = xrealloc (m->keys, cap);
      m->keys_cap = cap;
    }
  memcpy (m->keys + m->keys_len, key, len);
  s->hash = h;
  s->scope = scope;
  s->key = m->keys_len + 1;
  s->len = len;
  s->value = value;
  m->keys_len += len + 1;
  m->n++;
  return -1;
}
