/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_gen.c: task-graph generators of dag-predict (see dag_gen.h).
 *
 * diamond     the Diamond DAG of the LoGPC paper, Section 5.2: an n x n
 *             grid in P stripes of b blocks; a block is one task of
 *             n^2/(P b) DAG tasks plus alpha per value sent, and sends its
 *             n/b top values to the stripe above.
 * remap       all-to-all remap, Section 5.1: each processor sends ROUNDS
 *             messages to (i + p) mod P or to random processors,
 *             asynchronously or as request-reply pairs.
 * em3d        Section 5.3: bipartite E/H graph of N nodes with DEGREE
 *             edges each, a NONLOCAL fraction of them to processors within
 *             SPAN; each phase sends, per processor pair, one message with
 *             the values crossing it.
 * tree-bcast, tree-reduce
 *             R broadcasts down / reductions up a tree given by a
 *             topology spec of treespec.h (b:F^D, b:2x4x8, k:K@N,
 *             g:..., flat, file:PATH), pipelined.
 * stencil     2-D halo exchange on a PX x PY processor grid.
 * pipeline    P stages, ROUNDS items.
 * multigrid-time
 *             the time-parallel transfers of the hyperbolic paper
 *             (Section 4): P time planes exchange a plane with both
 *             neighbours every iteration.
 * nway-dissemination, random-bisect, halo
 *             Schedgen's application patterns, in dag_apps.c.  */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dag_apps.h"
#include "dag_gen.h"
#include "err.h"
#include "xalloc.h"
#include "treespec.h"

const char *const dag_gen_patterns[][2] = {
  { "diamond", "Diamond DAG, stripe partitioning (LoGPC Section 5.2)" },
  { "remap", "all-to-all remap, async or request-reply (Section 5.1)" },
  { "em3d", "EM3D bipartite E/H exchange (Section 5.3)" },
  { "tree-bcast", "broadcast down a tree topology" },
  { "tree-reduce", "reduction up a tree topology" },
  { "stencil", "2-D halo exchange" },
  { "pipeline", "P-stage pipeline" },
  { "multigrid-time", "time-parallel plane transfers (hyperbolic paper)" },
  { "nway-dissemination", "dissemination to n peers per round (Schedgen)" },
  { "random-bisect", "random halves, one sends to the other (Schedgen)" },
  { "halo", "halo exchange on a periodic 2-D or 3-D grid (--dims)" },
  { NULL, NULL }
};

void
dag_gen_init (struct dag_gen *g)
{
  memset (g, 0, sizeof *g);
  g->procs = 4;
  g->n = 64;
  g->blocks = 4;
  g->rounds = 4;
  g->work = 0;
  g->alpha = 0;
  g->bytes = 8;
  g->mapping = "identity";
  g->mode = "async";
  g->dest = "shift";
  g->topology = "k:2";
  g->degree = 4;
  g->nonlocal = 1;
  g->span = 1;
  g->px = 0;
  g->py = 0;
  g->seed = 1;
  g->nway = 1;
  g->dims = NULL;
}

/* splitmix64: a small seeded generator (msgperf(7), MPI PROGRAMS).  */
static uint64_t
rnd (uint64_t *s)
{
  *s += UINT64_C (0x9e3779b97f4a7c15);
  return dag_mix64 (*s);
}

static uint64_t
rnd_below (uint64_t *s, uint64_t n)
{
  return n ? rnd (s) % n : 0;
}

static int32_t
task (const struct dag_sink *s, int32_t proc, double work,
      const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

static int32_t
task (const struct dag_sink *s, int32_t proc, double work,
      const char *fmt, ...)
{
  char id[64];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (id, sizeof id, fmt, ap);
  va_end (ap);
  return s->task (s->ctx, id, proc, work);
}

/* A task named PREFIX followed by the decimal N (no printf: a tree of
   millions of ranks names each one).  */
static int32_t
task_n (const struct dag_sink *s, int32_t proc, double work, char prefix,
        int64_t n)
{
  char id[32], tmp[24];
  size_t k = 0, len = 0;
  uint64_t u = (uint64_t) n;
  do
    tmp[k++] = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  id[len++] = prefix;
  while (k)
    id[len++] = tmp[--k];
  id[len] = '\0';
  return s->task (s->ctx, id, proc, work);
}

/* ------------------------------------------------------------ diamond */

static const char *
gen_diamond (const struct dag_gen *g, const struct dag_sink *s)
{
  int64_t P = g->procs, b = g->blocks, n = g->n;
  if (P < 1 || b < 1 || n < 1)
    return "diamond needs --procs, --blocks and --n of at least 1";
  if (P > (1 << 20) || b > (1 << 20) || P * b > (INT64_C (1) << 26))
    return "diamond: --procs times --blocks too large (over 2^26 blocks)";
  int32_t *map = xmalloc ((size_t) P * sizeof *map);
  if (strcmp (g->mapping, "identity") == 0)
    for (int64_t i = 0; i < P; i++)
      map[i] = (int32_t) i;
  else if (strcmp (g->mapping, "random") == 0)
    {
      uint64_t st = g->seed;
      for (int64_t i = 0; i < P; i++)
        map[i] = (int32_t) i;
      for (int64_t i = P - 1; i > 0; i--)
        {
          int64_t j = (int64_t) rnd_below (&st, (uint64_t) i + 1);
          int32_t t = map[i];
          map[i] = map[j];
          map[j] = t;
        }
    }
  else
    {
      /* custom: a comma-separated list giving each stripe's processor */
      const char *p = g->mapping;
      for (int64_t i = 0; i < P; i++)
        {
          char *end;
          long v = strtol (p, &end, 10);
          if (end == p || v < 0 || v > INT32_MAX - 1
              || (*end != ',' && *end != '\0')
              || (*end == '\0' && i != P - 1))
            {
              free (map);
              return "diamond --mapping must be identity, random, or a "
                     "comma-separated list of one processor per stripe";
            }
          map[i] = (int32_t) v;
          p = end + 1;
        }
    }
  double values = (double) n / (double) b;                 /* n/b */
  double W = (double) n * (double) n / (double) (P * b) * g->work
             + g->alpha * values;                          /* W */
  int64_t bytes = (int64_t) llround (values * (double) g->bytes);
  int32_t *prev = xmalloc ((size_t) b * sizeof *prev);
  for (int64_t st = 0; st < P; st++)
    {
      int32_t last = -1;
      for (int64_t k = 0; k < b; k++)
        {
          int32_t t = task (s, map[st], W, "s%" PRId64 "b%" PRId64, st, k);
          if (last >= 0)
            s->dep (s->ctx, last, t);
          if (st > 0)
            s->msg (s->ctx, prev[k], t, bytes);
          prev[k] = t;
          last = t;
        }
    }
  free (prev);
  free (map);
  return NULL;
}

/* -------------------------------------------------------------- remap */

static const char *
gen_remap (const struct dag_gen *g, const struct dag_sink *s)
{
  int64_t P = g->procs, R = g->rounds;
  if (P < 2 || R < 1)
    return "remap needs --procs of at least 2 and --rounds of at least 1";
  if (P * R > (INT64_C (1) << 26))
    return "remap: --procs times --rounds too large (over 2^26)";
  int sync = strcmp (g->mode, "sync") == 0;
  if (!sync && strcmp (g->mode, "async") != 0)
    return "remap --mode must be async or sync";
  int shift = strcmp (g->dest, "shift") == 0;
  if (!shift && strcmp (g->dest, "random") != 0)
    return "remap --dest must be shift or random";
  uint64_t st = g->seed;
  int32_t *sink = NULL;
  if (s->reserve)
    s->reserve (s->ctx, (size_t) (P * R * (sync ? 3 : 1) + P),
                (size_t) (P * R * (sync ? 2 : 1)), (size_t) (P * R + P));
  if (!sync)
    {
      sink = xmalloc ((size_t) P * sizeof *sink);
      for (int64_t p = 0; p < P; p++)
        sink[p] = task (s, (int32_t) p, 0, "sink%" PRId64, p);
    }
  int32_t *cur = xmalloc ((size_t) P * sizeof *cur);
  for (int64_t p = 0; p < P; p++)
    cur[p] = -1;
  for (int64_t i = 0; i < R; i++)
    for (int64_t p = 0; p < P; p++)
      {
        int64_t q = shift ? (p + 1 + i % (P - 1)) % P
                          : (p + 1 + (int64_t) rnd_below (&st,
                                                          (uint64_t) P - 1))
                            % P;
        int32_t t = task (s, (int32_t) p, g->work,
                          "p%" PRId64 "r%" PRId64, p, i);
        if (cur[p] >= 0)
          s->dep (s->ctx, cur[p], t);
        if (sync)
          {
            /* request, handler on q, reply into the next round's task */
            int32_t h = task (s, (int32_t) q, 0, "h%" PRId64 "r%" PRId64
                              "on%" PRId64, p, i, q);
            int32_t back = task (s, (int32_t) p, 0, "p%" PRId64 "r%"
                                 PRId64 "ack", p, i);
            s->msg (s->ctx, t, h, g->bytes);
            s->msg (s->ctx, h, back, g->bytes);
            cur[p] = back;
          }
        else
          {
            s->msg (s->ctx, t, sink[q], g->bytes);
            cur[p] = t;
          }
      }
  if (!sync)
    for (int64_t p = 0; p < P; p++)
      s->dep (s->ctx, cur[p], sink[p]);
  free (cur);
  free (sink);
  return NULL;
}

/* --------------------------------------------------------------- em3d */

static const char *
gen_em3d (const struct dag_gen *g, const struct dag_sink *s)
{
  int64_t P = g->procs, N = g->n, D = g->degree, R = g->rounds;
  if (P < 1 || N < 2 || D < 0 || R < 1 || g->span < 1)
    return "em3d needs --procs >= 1, --n >= 2, --degree >= 0, "
           "--rounds >= 1, --span >= 1";
  if (!(g->nonlocal >= 0 && g->nonlocal <= 1))
    return "em3d --nonlocal must be in [0, 1]";
  if (P > 4096)
    return "em3d: at most 4096 processors";
  /* values[q * P + p]: values of nodes on q needed on p, per phase
     (E nodes need H values and vice versa; the graph is symmetric in
     expectation, the same counts are used for both phases).  */
  int64_t *vals = xcalloc ((size_t) (P * P), sizeof *vals);
  uint64_t st = g->seed;
  int64_t per = N / 2 / P > 0 ? N / 2 / P : 1;   /* E nodes per proc */
  for (int64_t p = 0; p < P; p++)
    for (int64_t e = 0; e < per; e++)
      for (int64_t k = 0; k < D; k++)
        {
          double u = (double) (rnd (&st) >> 11) / 9007199254740992.0;
          if (P == 1 || u >= g->nonlocal)
            continue;
          int64_t span = g->span < P - 1 ? g->span : P - 1;
          int64_t off = 1 + (int64_t) rnd_below (&st, (uint64_t) span);
          if (rnd (&st) & 1)
            off = -off;
          int64_t q = ((p + off) % P + P) % P;
          vals[q * P + p]++;
        }
  double w = (double) per * (double) D * g->work;
  int32_t *prev = xmalloc ((size_t) P * sizeof *prev);
  int32_t *cur = xmalloc ((size_t) P * sizeof *cur);
  for (int64_t p = 0; p < P; p++)
    prev[p] = task (s, (int32_t) p, 0, "start%" PRId64, p);
  for (int64_t it = 0; it < R; it++)
    for (int ph = 0; ph < 2; ph++)
      {
        for (int64_t p = 0; p < P; p++)
          {
            cur[p] = task (s, (int32_t) p, w, "%c%" PRId64 "i%" PRId64,
                           ph ? 'H' : 'E', p, it);
            s->dep (s->ctx, prev[p], cur[p]);
          }
        for (int64_t q = 0; q < P; q++)
          for (int64_t p = 0; p < P; p++)
            if (vals[q * P + p])
              s->msg (s->ctx, prev[q], cur[p], vals[q * P + p] * g->bytes);
        memcpy (prev, cur, (size_t) P * sizeof *prev);
      }
  free (prev);
  free (cur);
  free (vals);
  return NULL;
}

/* -------------------------------------------------------------- trees */

/* The tree of G's topology, built by the one topology parser of msgperf
   (treespec.h, msgperf-trees(7)).  The tree has the ranks the spec makes;
   "flat" and "k:K" (no "@N") take --procs, and an explicit --procs must
   agree with the spec.  Returns NULL, or a message in a static buffer.  */
static const char *
tree_build (const struct dag_gen *g, struct tree *t)
{
  static char msg[700];
  struct treespec_error e;
  const char *path = treespec_file_path (g->topology);
  int nranks = g->procs_given ? (int) g->procs : 0;
  int rc;
  if (g->procs > TREE_MAX_RANKS)
    {
      snprintf (msg, sizeof msg, "a tree has at most %d ranks, not %" PRId64,
                TREE_MAX_RANKS, g->procs);
      return msg;
    }
  if (path && !g->topology_text)
    {
      snprintf (msg, sizeof msg, "topology '%s': the file was not read",
                g->topology);
      return msg;
    }
  rc = path ? treespec_parse_text (g->topology_text, nranks, t, &e)
            : treespec_parse (g->topology, nranks, t, &e);
  /* Out of memory is a runtime failure (exit 1), not a bad option.  */
  if (rc != 0 && e.nomem)
    die ("%s", e.msg);
  if (rc != 0 && !g->procs_given)
    {
      /* "flat" and "k:K" need a count: with --procs given it is the
         user's, never the default's (a silent 4 ranks).  */
      struct treespec_error e2;
      rc = path ? treespec_parse_text (g->topology_text, (int) g->procs, t,
                                       &e2)
                : treespec_parse (g->topology, (int) g->procs, t, &e2);
      if (rc != 0 && e2.nomem)
        die ("%s", e2.msg);
      if (rc == 0)
        {
          tree_free (t);
          snprintf (msg, sizeof msg, "topology '%s' does not say how many "
                    "ranks: give --procs (-P), or a size in the spec such "
                    "as k:2@8", g->topology);
          return msg;
        }
    }
  if (rc == 0)
    return NULL;
  if (path && e.line > 0)
    snprintf (msg, sizeof msg, "topology %s:%d:%d: %s", path, e.line, e.col,
              e.msg);
  else if (e.col > 0)
    snprintf (msg, sizeof msg, "topology '%s': column %d: %s", g->topology,
              e.col, e.msg);
  else
    snprintf (msg, sizeof msg, "topology '%s': %s", g->topology, e.msg);
  return msg;
}

/* Put the ranks of ORDER, breadth-first from the root, in the order a
   broadcast reaches them: a rank sends to its children one after
   another, so the j-th child (from 0) of a rank reached at step u is
   reached at step u + j + 1.  Ranks of one step keep their
   breadth-first order.  The ranks that act at one instant are then
   neighbours, and so are their operations in the DAG (in breadth-first
   order they lie at every depth of the tree): a 2^22-rank binomial
   broadcast simulates in some 60% of the time.  STEP is scratch space
   for the tree's ranks.  */
static void
arrival_order (const struct tree *t, int32_t *order, int32_t *step)
{
  size_t n = (size_t) t->n;
  /* A step counts distinct ranks (the ancestors and the siblings served
     before them): below n.  */
  size_t *first = xcalloc (n + 1, sizeof *first);
  int32_t *sorted = xmalloc (n * sizeof *sorted);
  step[order[0]] = 0;
  for (size_t i = 0; i < n; i++)
    {
      int r = order[i];
      const int *ch = tree_children (t, r);
      for (int j = 0; j < tree_nchildren (t, r); j++)
        step[ch[j]] = step[r] + j + 1;
    }
  /* counting sort by step, stable */
  for (size_t i = 0; i < n; i++)
    first[step[order[i]] + 1]++;
  for (size_t k = 1; k <= n; k++)
    first[k] += first[k - 1];
  for (size_t i = 0; i < n; i++)
    sorted[first[step[order[i]]]++] = order[i];
  memcpy (order, sorted, n * sizeof *order);
  free (sorted);
  free (first);
}

/* R broadcasts down (or reductions up) the tree, one after the other:
   every rank's task of round k+1 follows its task of round k, so the
   rounds pipeline (MRNet Section 2.6: a new broadcast every few gaps).
   A parent serves its children in the tree's send order (treespec.h:
   largest subtree first for k:); in a reduction it receives them in the
   reverse order.  */
static const char *
gen_tree (const struct dag_gen *g, const struct dag_sink *s, int reduce)
{
  struct tree t;
  const char *err = tree_build (g, &t);
  if (err)
    return err;
  int64_t R = g->rounds_given ? g->rounds : 1;
  if (R < 1 || (int64_t) t.n * R > (INT64_C (1) << 26) * 4)
    {
      tree_free (&t);
      return "trees need --rounds >= 1 and ranks times rounds at most 2^28";
    }
  int32_t *id = xmalloc ((size_t) t.n * sizeof *id);
  int32_t *prev = R > 1 ? xmalloc ((size_t) t.n * sizeof *prev) : NULL;
  /* Tasks and messages in the order the operations run, so that those
     the simulator runs together lie together in memory: breadth-first
     from the root for a reduction; for a broadcast the order it reaches
     the ranks (arrival_order), each message with the rank it reaches.
     A sender's messages keep its send order: the simulator starts the
     sends freed together in the order of the operations.  */
  int32_t *bfs = xmalloc ((size_t) t.n * sizeof *bfs);
  size_t head = 0, tail = 0;
  bfs[tail++] = 0;
  while (head < tail)
    {
      int r = bfs[head++];
      for (int i = 0; i < tree_nchildren (&t, r); i++)
        bfs[tail++] = tree_children (&t, r)[i];
    }
  /* A broadcast keeps ids by position in that order, and each rank's
     parent as a position: the loops below then read in sequence (all
     but the parent's id), and the random reads are made here, in loops
     that do nothing else, where they overlap.  */
  int32_t *ppos = NULL;
  if (!reduce)
    {
      arrival_order (&t, bfs, id);
      ppos = xmalloc ((size_t) t.n * sizeof *ppos);
      for (size_t i = 0; i < tail; i++)
        id[bfs[i]] = (int32_t) i;
      ppos[0] = -1;
      for (size_t i = 1; i < tail; i++)
        ppos[i] = id[t.parent[bfs[i]]];
    }
  if (s->reserve)
    s->reserve (s->ctx, (size_t) (t.n * R), (size_t) ((t.n - 1) * R),
                (size_t) (t.n * (R - 1)));
  for (int64_t k = 0; k < R; k++)
    {
      for (size_t i = 0; i < tail; i++)
        {
          int r = bfs[i];
          size_t x = reduce ? (size_t) r : i;   /* rank or position */
          id[x] = R == 1 ? task_n (s, r, g->work, 'r', r)
                  : task (s, r, g->work, "r%d_%" PRId64, r, k + 1);
          if (k > 0)
            s->dep (s->ctx, prev[x], id[x]);
        }
      if (!reduce)
        /* a message with the rank it reaches: those sent at one instant
           together (and those of one sender in its send order) */
        for (size_t i = 1; i < tail; i++)
          s->msg (s->ctx, id[ppos[i]], id[i], g->bytes);
      else
        for (size_t i = 0; i < tail; i++)
          {
            int r = bfs[i], nc = tree_nchildren (&t, r);
            const int *ch = tree_children (&t, r);
            for (int j = 0; j < nc; j++)
              s->msg (s->ctx, id[ch[nc - 1 - j]], id[r], g->bytes);
          }
      if (prev)
        memcpy (prev, id, (size_t) t.n * sizeof *id);
    }
  free (bfs);
  free (ppos);
  free (prev);
  free (id);
  tree_free (&t);
  return NULL;
}

/* ------------------------------------------------- stencil, pipeline */

static const char *
gen_stencil (const struct dag_gen *g, const struct dag_sink *s)
{
  int64_t px = g->px, py = g->py, R = g->rounds;
  if (px <= 0 || py <= 0)
    {
      /* the most square grid of --procs */
      px = (int64_t) floor (sqrt ((double) g->procs));
      while (px > 1 && g->procs % px)
        px--;
      if (px < 1)
        px = 1;
      py = g->procs / px;
    }
  if (px < 1 || py < 1 || R < 1 || px * py > (1 << 24))
    return "stencil needs a grid (--px, --py or --procs) and --rounds >= 1";
  int64_t P = px * py;
  int32_t *prev = xmalloc ((size_t) P * sizeof *prev);
  int32_t *cur = xmalloc ((size_t) P * sizeof *cur);
  for (int64_t it = 0; it < R; it++)
    {
      for (int64_t p = 0; p < P; p++)
        {
          cur[p] = task (s, (int32_t) p, g->work, "p%" PRId64 "i%" PRId64,
                         p, it);
          if (it)
            s->dep (s->ctx, prev[p], cur[p]);
        }
      if (it)
        for (int64_t p = 0; p < P; p++)
          {
            int64_t x = p % px, y = p / px;
            static const int dx[4] = { -1, 1, 0, 0 }, dy[4] = { 0, 0, -1, 1 };
            for (int k = 0; k < 4; k++)
              {
                int64_t nx = x + dx[k], ny = y + dy[k];
                if (nx < 0 || ny < 0 || nx >= px || ny >= py)
                  continue;
                s->msg (s->ctx, prev[ny * px + nx], cur[p], g->bytes);
              }
          }
      memcpy (prev, cur, (size_t) P * sizeof *prev);
    }
  free (prev);
  free (cur);
  return NULL;
}

static const char *
gen_pipeline (const struct dag_gen *g, const struct dag_sink *s, int both)
{
  int64_t P = g->procs, R = g->rounds;
  if (P < 1 || R < 1 || P * R > (INT64_C (1) << 26))
    return "needs --procs >= 1 and --rounds >= 1 (product at most 2^26)";
  int32_t *prev = xmalloc ((size_t) P * sizeof *prev);
  int32_t *cur = xmalloc ((size_t) P * sizeof *cur);
  for (int64_t k = 0; k < R; k++)
    {
      for (int64_t p = 0; p < P; p++)
        {
          cur[p] = task (s, (int32_t) p, g->work, "p%" PRId64 "i%" PRId64,
                         p, k);
          if (k)
            s->dep (s->ctx, prev[p], cur[p]);
          if (!both && p)
            s->msg (s->ctx, cur[p - 1], cur[p], g->bytes);
        }
      if (both && k)
        /* multigrid-time: plane p exchanges with p - 1 and p + 1 */
        for (int64_t p = 0; p < P; p++)
          {
            if (p > 0)
              s->msg (s->ctx, prev[p - 1], cur[p], g->bytes);
            if (p + 1 < P)
              s->msg (s->ctx, prev[p + 1], cur[p], g->bytes);
          }
      memcpy (prev, cur, (size_t) P * sizeof *prev);
    }
  free (prev);
  free (cur);
  return NULL;
}

const char *
dag_gen_run (const struct dag_gen *g, const struct dag_sink *s)
{
  const char *p = g->pattern ? g->pattern : "";
  if (g->work < 0 || g->alpha < 0)
    return "negative time: --work and --alpha must be >= 0";
  if (g->bytes < 0)
    return "negative message size: --bytes must be >= 0";
  if (strcmp (p, "diamond") == 0)
    return gen_diamond (g, s);
  if (strcmp (p, "remap") == 0)
    return gen_remap (g, s);
  if (strcmp (p, "em3d") == 0)
    return gen_em3d (g, s);
  if (strcmp (p, "tree-bcast") == 0)
    return gen_tree (g, s, 0);
  if (strcmp (p, "tree-reduce") == 0)
    return gen_tree (g, s, 1);
  if (strcmp (p, "stencil") == 0)
    return gen_stencil (g, s);
  if (strcmp (p, "pipeline") == 0)
    return gen_pipeline (g, s, 0);
  if (strcmp (p, "multigrid-time") == 0)
    return gen_pipeline (g, s, 1);
  if (dag_apps_is (p))
    return dag_apps_run (g, s);
  return "unknown pattern (diamond, remap, em3d, tree-bcast, tree-reduce, "
         "stencil, pipeline, multigrid-time, nway-dissemination, "
         "random-bisect, halo)";
}

/* ------------------------------------------------------ the DAG sink */

static int32_t
sd_task (void *ctx, const char *id, int32_t proc, double work)
{
  struct dag_sink_dag *c = ctx;
  int32_t name = dag_intern (c->d, id, strlen (id));
  return dag_add_calc (c->d, proc, work, name, 0);
}

static void
sd_msg (void *ctx, int32_t from, int32_t to, int64_t bytes)
{
  struct dag_sink_dag *c = ctx;
  dag_add_message (c->d, from, to, bytes, &c->tag, 0);
}

static void
sd_reserve (void *ctx, size_t tasks, size_t msgs, size_t deps)
{
  struct dag_sink_dag *c = ctx;
  /* a message between processors is a SEND and a RECV and two edges */
  dag_reserve (c->d, c->d->n + tasks + 2 * msgs,
               c->d->ne + 2 * msgs + deps);
}

static void
sd_dep (void *ctx, int32_t from, int32_t to)
{
  struct dag_sink_dag *c = ctx;
  dag_add_edge (c->d, from, to, DAG_REQUIRES);
}

void
dag_sink_dag_init (struct dag_sink *s, struct dag_sink_dag *ctx,
                   struct dag *d)
{
  ctx->d = d;
  ctx->tag = 0;
  s->ctx = ctx;
  s->task = sd_task;
  s->msg = sd_msg;
  s->dep = sd_dep;
  s->reserve = sd_reserve;
}

int64_t *
dag_gen_field (struct dag_gen *g, const char *name, int with_n)
{
  if (strcmp (name, "procs") == 0 || strcmp (name, "P") == 0)
    return &g->procs;
  if (strcmp (name, "blocks") == 0)
    return &g->blocks;
  if (strcmp (name, "n") == 0 && with_n)
    return &g->n;
  if (strcmp (name, "rounds") == 0)
    return &g->rounds;
  if (strcmp (name, "bytes") == 0)
    return &g->bytes;
  return NULL;
}

int
dag_gen_set_field (struct dag_gen *g, int64_t *f, double v)
{
  if (v != floor (v) || v < 0)
    return -1;
  *f = (int64_t) v;
  if (f == &g->procs)
    g->procs_given = 1;
  if (f == &g->rounds)
    g->rounds_given = 1;
  return 0;
}
