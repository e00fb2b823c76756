/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_coll.c: Open MPI 4.1 coll/tuned collectives as task graphs (see
 * dag_coll.h and dag-predict(1), COLLECTIVES).
 *
 * The exchange of each algorithm is the one of Open MPI 4.1's
 * ompi/mca/coll/base (coll_base_bcast.c, _reduce.c, _allreduce.c,
 * _barrier.c, _allgather.c, _alltoall.c, _gather.c, _scatter.c and the
 * trees of coll_base_topo.c), written here from its description:
 *
 *   rank r's state is its latest task (last[r]); a step of r that waits
 *   for data is a new task chained after it; a message leaves from the
 *   sender's latest task when it is created (the data it holds then) and
 *   enters the receiver's new task.
 *
 * Round-based algorithms (recursive doubling, ring, Bruck, pairwise,
 * the barriers) make every message of a round leave from the task the
 * sender had before the round, so that a sendrecv's send does not wait
 * for its own receive.  Tree algorithms (bcast, reduce, gather,
 * scatter) walk the tree from the root (or towards it) once per
 * segment.  */
#include <config.h>

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_decide.h"
#include "dag_coll.h"

/* At most this many tasks (like the other generators' 2^26 limits).  */
#define COLL_MAX_TASKS (INT64_C (1) << 26)

/* ------------------------------------------------------------ context */

struct cx
{
  const struct dag_sink *s;
  int64_t P;
  int32_t *last;   /* per rank: its latest task, or -1 */
  int32_t *next;   /* per rank: its task of the current round, or -1 */
  int64_t *nt;     /* per rank: tasks made so far (for the names) */
  /* Reduction arithmetic: GAMMA time units per byte combined (0: not
     modelled, no task is added).  While REDUCING is set, the bytes a
     rank receives in a round are summed in ACC, and round_end gives it
     a task of GAMMA ACC work after the round's receive: the combine
     before it can send the partial result on.  */
  double gamma;
  int reducing;
  int64_t *acc;
  /* All the memory of a run, allocated once (dag_coll_run sizes it), so
     that running out of memory is a returned status: take() hands out
     zeroed pieces, and a function gives back its temporaries by
     restoring USED.  */
  unsigned char *pool;
  size_t used, size;
};

static void *
take (struct cx *c, size_t n)
{
  size_t at = (c->used + 7) & ~(size_t) 7;
  assert (at + n <= c->size);
  c->used = at + n;
  memset (c->pool + at, 0, n);
  return c->pool + at;
}

/* Returns 0, or -1 when the memory is not there.  */
static int
cx_init (struct cx *c, const struct dag_sink *s, int64_t P, size_t bytes)
{
  c->s = s;
  c->P = P;
  c->used = 0;
  c->size = bytes;
  c->pool = malloc (bytes);
  if (!c->pool)
    return -1;
  c->last = take (c, (size_t) P * sizeof *c->last);
  c->next = take (c, (size_t) P * sizeof *c->next);
  c->nt = take (c, (size_t) P * sizeof *c->nt);
  c->acc = take (c, (size_t) P * sizeof *c->acc);
  c->gamma = 0;
  c->reducing = 0;
  for (int64_t r = 0; r < P; r++)
    c->last[r] = c->next[r] = -1;
  return 0;
}

static void
cx_free (struct cx *c)
{
  free (c->pool);
}

/* A new task of rank R, named rR_K (its K-th step), after nothing.  */
static char *
put_dec (char *p, uint64_t u)
{
  char tmp[24];
  int k = 0;
  do
    tmp[k++] = (char) ('0' + u % 10);
  while ((u /= 10) != 0);
  while (k)
    *p++ = tmp[--k];
  return p;
}

static int32_t
new_task_work (struct cx *c, int64_t r, double work)
{
  /* no printf: a broadcast to millions of ranks names each one */
  char id[48], *p = id;
  *p++ = 'r';
  p = put_dec (p, (uint64_t) r);
  *p++ = '_';
  p = put_dec (p, (uint64_t) c->nt[r]++);
  *p = '\0';
  return c->s->task (c->s->ctx, id, (int32_t) r, work);
}

static int32_t
new_task (struct cx *c, int64_t r)
{
  return new_task_work (c, r, 0);
}

/* The next step of rank R: a task after its latest one.  */
static int32_t
step (struct cx *c, int64_t r)
{
  int32_t t = new_task (c, r);
  if (c->last[r] >= 0)
    c->s->dep (c->s->ctx, c->last[r], t);
  c->last[r] = t;
  return t;
}

/* Rank R combines BYTES it received into its partial result: a task of
   gamma BYTES work after its latest (nothing when gamma is 0).  */
static void
combine (struct cx *c, int64_t r, int64_t bytes)
{
  if (!(c->gamma > 0) || bytes <= 0)
    return;
  int32_t t = new_task_work (c, r, c->gamma * (double) bytes);
  if (c->last[r] >= 0)
    c->s->dep (c->s->ctx, c->last[r], t);
  c->last[r] = t;
}

/* Every rank's first task: what it holds when the call starts.  */
static void
start_all (struct cx *c)
{
  for (int64_t r = 0; r < c->P; r++)
    step (c, r);
}

static void
round_begin (struct cx *c)
{
  for (int64_t r = 0; r < c->P; r++)
    {
      c->next[r] = -1;
      c->acc[r] = 0;
    }
}

/* In a round: BYTES from SRC's task before the round to DST's task of
   the round (made by its first message).  */
static void
round_msg (struct cx *c, int64_t src, int64_t dst, int64_t bytes)
{
  if (c->next[dst] < 0)
    {
      c->next[dst] = new_task (c, dst);
      if (c->last[dst] >= 0)
        c->s->dep (c->s->ctx, c->last[dst], c->next[dst]);
    }
  c->s->msg (c->s->ctx, c->last[src], c->next[dst], bytes);
  if (c->reducing)
    c->acc[dst] += bytes;
}

static void
round_end (struct cx *c)
{
  for (int64_t r = 0; r < c->P; r++)
    if (c->next[r] >= 0)
      {
        c->last[r] = c->next[r];
        if (c->reducing)
          combine (c, r, c->acc[r]);
      }
}

/* A round in which every rank r sends BYTES to (r + d) mod P (a ring
   shift by D, each rank's sendrecv).  */
static void
round_shift (struct cx *c, int64_t d, int64_t bytes)
{
  round_begin (c);
  for (int64_t r = 0; r < c->P; r++)
    round_msg (c, r, (r + d) % c->P, bytes);
  round_end (c);
}

/* -------------------------------------------------------------- trees */

/* A tree over the ranks: each rank's parent (-1 at the root) and its
   children in the order the algorithm serves them.  */
struct tree_c
{
  int64_t root;
  int64_t *parent;
  int64_t *off;    /* children of r: child[off[r] .. off[r+1]-1] */
  int64_t *child;
  int64_t *order;  /* every rank, each after its parent */
  size_t mark;     /* the pool before the tree */
};

/* A tree's arrays: 4 P + 1 words of the pool.  */
static void
tc_alloc (struct cx *c, struct tree_c *t, int64_t P)
{
  t->mark = c->used;
  t->parent = take (c, (size_t) P * sizeof *t->parent);
  t->off = take (c, ((size_t) P + 1) * sizeof *t->off);
  t->child = take (c, (size_t) P * sizeof *t->child);
  t->order = take (c, (size_t) P * sizeof *t->order);
}

/* Give back T and whatever was taken after it.  */
static void
tc_free (struct cx *c, struct tree_c *t)
{
  c->used = t->mark;
}

/* Fill off, child and order from parent and a child order: the children
   of a rank by increasing virtual rank (v = (r - root) mod P), reversed
   when REVERSE.  Both Open MPI binomial trees list children by
   increasing virtual rank.  */
static void
tc_index (struct cx *c, struct tree_c *t, int64_t P, int reverse)
{
  for (int64_t r = 0; r < P; r++)
    if (t->parent[r] >= 0)
      t->off[t->parent[r] + 1]++;
  for (int64_t r = 0; r < P; r++)
    t->off[r + 1] += t->off[r];
  size_t mark = c->used;
  int64_t *fill = take (c, (size_t) P * sizeof *fill);
  memcpy (fill, t->off, (size_t) P * sizeof *fill);
  for (int64_t v = 0; v < P; v++)
    {
      int64_t r = (v + t->root) % P;
      if (t->parent[r] >= 0)
        t->child[fill[t->parent[r]]++] = r;
    }
  c->used = mark;
  if (reverse)
    for (int64_t r = 0; r < P; r++)
      for (int64_t i = t->off[r], j = t->off[r + 1] - 1; i < j; i++, j--)
        {
          int64_t x = t->child[i];
          t->child[i] = t->child[j];
          t->child[j] = x;
        }
  /* breadth-first from the root */
  int64_t head = 0, tail = 0;
  t->order[tail++] = t->root;
  while (head < tail)
    {
      int64_t r = t->order[head++];
      for (int64_t i = t->off[r]; i < t->off[r + 1]; i++)
        t->order[tail++] = t->child[i];
    }
}

/* Smallest power of two above V (1 for 0): Open MPI's
   opal_next_poweroftwo.  */
static int64_t
next_pow2 (int64_t v)
{
  int64_t p = 1;
  while (p <= v)
    p <<= 1;
  return p;
}

/* Largest power of two at most V (V >= 1).  */
static int64_t
floor_pow2 (int64_t v)
{
  return next_pow2 (v) >> 1;
}

/* The binomial tree of bcast (coll_base_topo.c, build_bmtree): virtual
   rank v's parent is v without its highest bit; its children are v + m
   for the powers of two m above v, smallest first.  */
static void
tc_bmtree (struct cx *c, struct tree_c *t, int64_t P, int64_t root)
{
  tc_alloc (c, t, P);
  t->root = root;
  for (int64_t v = 0; v < P; v++)
    {
      int64_t r = (v + root) % P;
      t->parent[r] = v == 0 ? -1 : ((v ^ (next_pow2 (v) >> 1)) + root) % P;
    }
  tc_index (c, t, P, 0);
}

/* The in-order binomial tree of reduce, gather and scatter
   (build_in_order_bmtree): virtual rank v's parent is v without its
   lowest bit; its children are v + m for the powers of two m below v's
   lowest bit, smallest first.  */
static void
tc_in_order_bmtree (struct cx *c, struct tree_c *t, int64_t P, int64_t root)
{
  tc_alloc (c, t, P);
  t->root = root;
  for (int64_t v = 0; v < P; v++)
    {
      int64_t r = (v + root) % P;
      t->parent[r] = v == 0 ? -1 : ((v & (v - 1)) + root) % P;
    }
  tc_index (c, t, P, 0);
}

/* The star of the linear algorithms: the root's children are the other
   ranks in rank order.  */
static void
tc_star (struct cx *c, struct tree_c *t, int64_t P, int64_t root)
{
  tc_alloc (c, t, P);
  t->root = root;
  for (int64_t r = 0; r < P; r++)
    t->parent[r] = r == root ? -1 : root;
  /* tc_index orders by virtual rank; the star wants rank order */
  tc_index (c, t, P, 0);
  for (int64_t i = 0; i < P - 1; i++)
    t->child[i] = i < root ? i : i + 1;
  for (int64_t i = 0; i < P - 1; i++)
    t->order[i + 1] = t->child[i];
}

/* A tree given by the children of each virtual rank in the order they
   are served: KIDS (V, P, ARG, OUT) writes them to OUT (room for P) and
   returns how many.  */
typedef int64_t (*kids_fn) (int64_t v, int64_t P, int64_t arg, int64_t *out);

static void
tc_build (struct cx *c, struct tree_c *t, int64_t P, int64_t root,
          kids_fn kids, int64_t arg)
{
  tc_alloc (c, t, P);
  t->root = root;
  size_t mark = c->used;
  int64_t *buf = take (c, (size_t) P * sizeof *buf);
  for (int64_t r = 0; r < P; r++)
    t->parent[r] = -1;
  int64_t n = 0;
  for (int64_t v = 0; v < P; v++)
    {
      int64_t r = (v + root) % P;
      int64_t k = kids (v, P, arg, buf);
      t->off[r] = n;   /* provisional: rank order is fixed below */
      for (int64_t i = 0; i < k; i++)
        t->parent[(buf[i] + root) % P] = r;
      n += k;
    }
  /* children of rank r at off[r] .. off[r+1]-1, in rank order of r */
  t->off[0] = 0;
  for (int64_t r = 0; r < P; r++)
    t->off[r + 1] = t->off[r] + kids ((r - root + P) % P, P, arg, buf);
  for (int64_t r = 0; r < P; r++)
    {
      int64_t k = kids ((r - root + P) % P, P, arg, buf);
      for (int64_t i = 0; i < k; i++)
        t->child[t->off[r] + i] = (buf[i] + root) % P;
    }
  c->used = mark;
  int64_t head = 0, tail = 0;
  t->order[tail++] = root;
  while (head < tail)
    {
      int64_t r = t->order[head++];
      for (int64_t i = t->off[r]; i < t->off[r + 1]; i++)
        t->order[tail++] = t->child[i];
    }
}

/* The K-ary tree of binary_tree (K = 2; coll_base_topo.c, build_tree):
   virtual rank v on level l (levels of 1, K, K^2, ... ranks) has the
   children v + K^l (i + 1), i = 0 .. K-1.  */
static int64_t
kids_kary (int64_t v, int64_t P, int64_t K, int64_t *out)
{
  int64_t level_first = 0, width = 1;
  while (level_first + width <= v)
    {
      level_first += width;
      width *= K;
    }
  int64_t n = 0;
  for (int64_t i = 0; i < K && v + width * (i + 1) < P; i++)
    out[n++] = v + width * (i + 1);
  return n;
}

/* The chains of chain and pipeline (build_chain): the P - 1 other ranks
   in F columns of consecutive virtual ranks (the first (P-1) mod F
   columns one longer); the root sends to each column's head, a rank to
   the next in its column.  */
static int64_t
kids_chain (int64_t v, int64_t P, int64_t F, int64_t *out)
{
  if (F > P - 1)
    F = P - 1;
  int64_t len = (P - 1) / F, mark = (P - 1) % F;
  if (mark)
    len++;
  else
    mark = F + 1;
  if (v == 0)
    {
      int64_t head = 1;
      for (int64_t i = 0; i < F; i++)
        {
          out[i] = head;
          head += i < mark ? len : len - 1;
        }
      return F;
    }
  int64_t head, clen;
  if (v - 1 < mark * len)
    {
      head = 1 + (v - 1) / len * len;
      clen = len;
    }
  else
    {
      int64_t col = mark + (v - 1 - mark * len) / (len - 1);
      head = mark * len + 1 + (col - mark) * (len - 1);
      clen = len - 1;
    }
  if (v == head + clen - 1 || v + 1 >= P)
    return 0;
  out[0] = v + 1;
  return 1;
}

/* The k-nomial tree of knomial (build_kmtree, radix K): virtual rank v's
   children are v + m r, r = 1 .. K-1, for the powers m of K below v's
   lowest nonzero base-K digit (all of them at the root), largest m
   first.  */
static int64_t
kids_knomial (int64_t v, int64_t P, int64_t K, int64_t *out)
{
  int64_t m = 1;
  while (m < P && v % (K * m) == 0)
    m *= K;
  /* m: the first power with v % (K m) != 0, or >= P at the root */
  int64_t n = 0;
  for (m /= K; m > 0; m /= K)
    for (int64_t r = 1; r < K; r++)
      if (v + m * r < P)
        out[n++] = v + m * r;
  return n;
}

/* The in-order binary tree of reduce in-order_binary
   (build_in_order_bintree), rooted at rank P-1 whatever the root: the
   ranks [d, d+n) have their top d+n-1 as parent, the left subtree
   [d+h, d+n-1) (h = n/2) with its top d+n-2 as first child, the right
   subtree [d, d+h) with its top d+h-1 as second (none when n = 2).
   Virtual rank v is rank (v - 1) mod P (tc_build's root is P-1).  */
static int64_t
kids_in_order_binary (int64_t v, int64_t P, int64_t unused, int64_t *out)
{
  (void) unused;
  int64_t r = (v + P - 1) % P, d = 0, n = P;
  for (;;)
    {
      int64_t top = d + n - 1, h = n >> 1, k = 0;
      if (r == top)
        {
          if (n >= 2)
            out[k++] = (d + n - 2 + 1) % P;
          if (n > 2)
            out[k++] = (d + h - 1 + 1) % P;
          return k;
        }
      if (n == 2 || r >= d + h)
        {
          /* the left subtree (for n = 2 the one other rank, d) */
          if (n == 2)
            return 0;
          d += h;
          n = n - h - 1;
        }
      else
        n = h;
    }
}

/* Ranks in the subtree of virtual rank VC under VP in an in-order
   binomial tree of P ranks (coll_base_gather.c, _scatter.c).  */
static int64_t
in_order_subtree (int64_t vp, int64_t vc, int64_t P)
{
  int64_t n = vc - vp;
  return n < P - vc ? n : P - vc;
}

/* Segments of BYTES in pieces of SEG (0: one): count and last size.  */
static int64_t
segments (int64_t bytes, int64_t seg, int64_t *last_size)
{
  if (seg <= 0 || bytes <= seg)
    {
      *last_size = bytes;
      return 1;
    }
  int64_t n = (bytes + seg - 1) / seg;
  *last_size = bytes - (n - 1) * seg;
  return n;
}

/* Broadcast down T in segments (coll_base_bcast.c, the generic tree
   broadcast): for each segment, a rank that has it sends it to its
   children in order.  */
static void
bcast_tree (struct cx *c, const struct tree_c *t, int64_t bytes, int64_t seg)
{
  int64_t last_size, ns = segments (bytes, seg, &last_size);
  size_t mark = c->used;
  int32_t *cur = take (c, (size_t) c->P * sizeof *cur);
  for (int64_t k = 0; k < ns; k++)
    {
      int64_t size = k == ns - 1 ? last_size : seg;
      cur[t->root] = c->last[t->root] >= 0 && k == 0 ? c->last[t->root]
                                                       : step (c, t->root);
      for (int64_t i = 0; i < c->P; i++)
        {
          int64_t r = t->order[i];
          for (int64_t j = t->off[r]; j < t->off[r + 1]; j++)
            {
              int64_t ch = t->child[j];
              cur[ch] = step (c, ch);
              c->s->msg (c->s->ctx, cur[r], cur[ch], size);
            }
        }
    }
  c->used = mark;
}

/* Reduction up T in segments (coll_base_reduce.c, the generic tree
   reduction): for each segment a rank receives it from its children in
   order, then sends the combined segment to its parent.  */
static void
reduce_tree (struct cx *c, const struct tree_c *t, int64_t bytes,
             int64_t seg)
{
  int64_t last_size, ns = segments (bytes, seg, &last_size);
  size_t mark = c->used;
  int32_t *cur = take (c, (size_t) c->P * sizeof *cur);
  for (int64_t k = 0; k < ns; k++)
    {
      int64_t size = k == ns - 1 ? last_size : seg;
      for (int64_t i = c->P - 1; i >= 0; i--)
        {
          int64_t r = t->order[i];
          int64_t nc = t->off[r + 1] - t->off[r];
          if (nc == 0 && c->last[r] >= 0 && k == 0)
            cur[r] = c->last[r];    /* a leaf sends what it has */
          else
            cur[r] = step (c, r);
          for (int64_t j = t->off[r]; j < t->off[r + 1]; j++)
            c->s->msg (c->s->ctx, cur[t->child[j]], cur[r], size);
          /* the children's segments combined before it goes up */
          if (nc > 0 && c->gamma > 0)
            {
              combine (c, r, nc * size);
              cur[r] = c->last[r];
            }
        }
    }
  c->used = mark;
}

/* ---------------------------------------------------------- the table */

struct coll_params
{
  int64_t P, bytes, root, seg;
};

typedef void (*coll_fn) (struct cx *, const struct coll_params *);

/* bcast */

static void
bcast_linear (struct cx *c, const struct coll_params *p)
{
  struct tree_c t;
  tc_star (c, &t, p->P, p->root);
  bcast_tree (c, &t, p->bytes, 0);
  tc_free (c, &t);
}

static void
bcast_binomial (struct cx *c, const struct coll_params *p)
{
  struct tree_c t;
  tc_bmtree (c, &t, p->P, p->root);
  bcast_tree (c, &t, p->bytes, p->seg);
  tc_free (c, &t);
}

/* The generic tree broadcasts and reductions on the trees of
   coll_base_topo.c, with Open MPI's default fan-outs (tuned's
   bcast_algorithm_chain_fanout and reduce_algorithm_chain_fanout 4,
   bcast_algorithm_knomial_radix 4).  */
static void
bcast_on (struct cx *c, const struct coll_params *p, kids_fn kids, int64_t k)
{
  struct tree_c t;
  tc_build (c, &t, p->P, p->root, kids, k);
  bcast_tree (c, &t, p->bytes, p->seg);
  tc_free (c, &t);
}

static void
reduce_on (struct cx *c, const struct coll_params *p, kids_fn kids, int64_t k)
{
  struct tree_c t;
  tc_build (c, &t, p->P, p->root, kids, k);
  reduce_tree (c, &t, p->bytes, p->seg);
  tc_free (c, &t);
}

static void
bcast_chain (struct cx *c, const struct coll_params *p)
{
  bcast_on (c, p, kids_chain, 4);
}

static void
bcast_pipeline (struct cx *c, const struct coll_params *p)
{
  bcast_on (c, p, kids_chain, 1);
}

static void
bcast_binary (struct cx *c, const struct coll_params *p)
{
  bcast_on (c, p, kids_kary, 2);
}

static void
bcast_knomial (struct cx *c, const struct coll_params *p)
{
  bcast_on (c, p, kids_knomial, 4);
}

/* split_binary_tree (coll_base_bcast.c, split_bintree): the buffer in
   two halves, ceil(BYTES/2) and floor(BYTES/2); the root sends the
   first half down the left subtree of the binary tree of binary_tree
   (the odd virtual ranks) and the second down the right one (the even
   ones), segment by segment, the two halves' segments in turn.  Then
   virtual ranks 2i-1 and 2i swap halves; with P even the last virtual
   rank, which has no partner, gets the second half from the root.  A
   half of no bytes, or a segment larger than a half: pipeline, as Open
   MPI does (its chain with fan-out 1).  */
static void
bcast_split_binary (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P, root = p->root;
  int64_t half[2] = { p->bytes - p->bytes / 2, p->bytes / 2 };
  if (half[1] == 0 || p->seg > half[1])
    {
      bcast_pipeline (c, p);
      return;
    }
  int64_t last[2], ns[2];
  for (int h = 0; h < 2; h++)
    ns[h] = segments (half[h], p->seg, &last[h]);
  struct tree_c t;
  tc_build (c, &t, P, root, kids_kary, 2);
  size_t mark = c->used;
  int32_t *cur = take (c, (size_t) P * sizeof *cur);
#define SIDE(r) (((r) - root + P) % P % 2 == 1 ? 0 : 1)
  for (int64_t k = 0; k < ns[0]; k++)
    {
      cur[root] = c->last[root] >= 0 && k == 0 ? c->last[root]
                                                 : step (c, root);
      for (int h = 0; h < 2; h++)
        {
          if (k >= ns[h])
            continue;
          int64_t size = k == ns[h] - 1 ? last[h] : p->seg;
          for (int64_t i = 1; i < P; i++)
            {
              int64_t r = t.order[i];
              if (SIDE (r) != h)
                continue;
              cur[r] = step (c, r);
              c->s->msg (c->s->ctx, cur[t.parent[r]], cur[r], size);
            }
        }
    }
  c->used = mark;
  tc_free (c, &t);
  /* the swap: virtual rank v (odd: left, holds half 0) with v + 1 */
  round_begin (c);
  for (int64_t v = 1; v < P; v++)
    {
      int64_t r = (v + root) % P;
      if (v % 2 == 1 && v + 1 < P)
        round_msg (c, r, (r + 1) % P, half[0]);
      else if (v % 2 == 0)
        round_msg (c, r, (r + P - 1) % P, half[1]);
      else
        round_msg (c, root, r, half[1]);   /* P even: the last, odd */
    }
  round_end (c);
#undef SIDE
}

static void
reduce_chain (struct cx *c, const struct coll_params *p)
{
  reduce_on (c, p, kids_chain, 4);
}

static void
reduce_pipeline (struct cx *c, const struct coll_params *p)
{
  reduce_on (c, p, kids_chain, 1);
}

static void
reduce_binary (struct cx *c, const struct coll_params *p)
{
  reduce_on (c, p, kids_kary, 2);
}

/* Scatter by a binomial tree, then allgather by recursive doubling
   (coll_base_bcast.c, scatter_allgather).  The buffer is cut in blocks
   of ceil(BYTES/P); virtual rank v owns block v.  A parent sends child
   v + m its blocks from v + m on (what it holds beyond m blocks); with P
   not a power of two, a rank whose partner of step m does not exist gets
   the data of the missing half from a rank of its own half (recursive
   halving).  Fewer bytes than ranks: basic_linear, as Open MPI does.  */
static void bcast_linear (struct cx *c, const struct coll_params *p);

/* The binomial scatter of scatter_allgather(_ring): CUR[v] is what
   virtual rank v holds after it (blocks of SC from v on).  */
static void
sa_scatter (struct cx *c, int64_t n, int64_t root, int64_t sc, int64_t *cur)
{
  int64_t P = c->P;
  cur[0] = n;
  /* parents (smaller v) first; a rank sends to v + m for its masks m
     from the largest down */
  for (int64_t v = 0; v < P; v++)
    {
      int64_t m = 1;
      while (m < P && !(v & m))
        m <<= 1;
      for (m >>= 1; m > 0; m >>= 1)
        if (v + m < P)
          {
            int64_t send = cur[v] - sc * m;
            if (send > 0)
              {
                int32_t t = step (c, (v + m + root) % P);
                c->s->msg (c->s->ctx, c->last[(v + root) % P], t, send);
                cur[v + m] = send;
                cur[v] -= send;
              }
          }
    }
}

/* The bytes of block B of ceil(N/P) (the last ones short or empty).  */
static int64_t
sa_block (int64_t n, int64_t sc, int64_t b)
{
  int64_t rem = n - b * sc;
  return rem < sc ? (rem > 0 ? rem : 0) : sc;
}

static void
bcast_scatter_allgather (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P, n = p->bytes, root = p->root;
  if (n < P)
    {
      bcast_linear (c, p);
      return;
    }
  int64_t sc = (n + P - 1) / P;
  size_t mark = c->used;
  int64_t *cur = take (c, (size_t) P * sizeof *cur);
  int64_t *got = take (c, (size_t) P * sizeof *got);
  int64_t *nxt = take (c, (size_t) P * sizeof *nxt);
#define R(v) (((v) + root) % P)
  start_all (c);
  sa_scatter (c, n, root, sc, cur);
  /* allgather */
  for (int64_t v = 0; v < P; v++)
    cur[v] = sa_block (n, sc, v);
  for (int64_t m = 1; m < P; m <<= 1)
    {
      round_begin (c);
      for (int64_t v = 0; v < P; v++)
        {
          nxt[v] = cur[v];
          if ((v ^ m) < P)
            {
              round_msg (c, R (v), R (v ^ m), cur[v]);
              got[v ^ m] = cur[v];
            }
        }
      for (int64_t v = 0; v < P; v++)
        if ((v ^ m) < P)
          nxt[v] += got[v];
      round_end (c);
      memcpy (cur, nxt, (size_t) P * sizeof *cur);
      /* ranks whose partner's half is cut short: recursive halving
         within the half, one round per smaller mask */
      for (int64_t h = m >> 1; h > 0; h >>= 1)
        {
          round_begin (c);
          for (int64_t v = 0; v < P; v++)
            {
              int64_t vroot = v / m * m, rroot = (v ^ m) / m * m;
              if (rroot + m <= P)
                continue;
              int64_t all = P - vroot - m, troot = v / (2 * h) * (2 * h);
              int64_t w = v ^ h;
              if (w > v && v < troot + all && w >= troot + all && w < P)
                {
                  round_msg (c, R (v), R (w), got[v]);
                  nxt[w] = got[v];
                }
            }
          for (int64_t v = 0; v < P; v++)
            if (c->next[R (v)] >= 0)
              {
                got[v] = nxt[v];
                cur[v] += nxt[v];
              }
          round_end (c);
        }
    }
#undef R
  c->used = mark;
}

/* Binomial scatter, then a ring allgather (scatter_allgather_ring):
   P - 1 steps, in step i virtual rank v sends block v - i + 1 to the
   next rank.  Fewer bytes than ranks: basic_linear.  */
static void
bcast_scatter_allgather_ring (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P, n = p->bytes, root = p->root;
  if (n < P)
    {
      bcast_linear (c, p);
      return;
    }
  int64_t sc = (n + P - 1) / P;
  size_t mark = c->used;
  int64_t *cur = take (c, (size_t) P * sizeof *cur);
  start_all (c);
  sa_scatter (c, n, root, sc, cur);
  for (int64_t i = 1; i < P; i++)
    {
      round_begin (c);
      for (int64_t v = 0; v < P; v++)
        round_msg (c, (v + root) % P, (v + 1 + root) % P,
                   sa_block (n, sc, (v - i + 1 + P) % P));
      round_end (c);
    }
  c->used = mark;
}

/* reduce */

static void
reduce_linear (struct cx *c, const struct coll_params *p)
{
  /* the root receives from P-1, P-2, ..., 0 in turn, each a blocking
     receive (coll_base_reduce.c, basic_linear) */
  start_all (c);
  c->reducing = 1;
  for (int64_t i = p->P - 1; i >= 0; i--)
    if (i != p->root)
      {
        round_begin (c);
        round_msg (c, i, p->root, p->bytes);
        round_end (c);
      }
  c->reducing = 0;
}

static void
reduce_binomial (struct cx *c, const struct coll_params *p)
{
  struct tree_c t;
  tc_in_order_bmtree (c, &t, p->P, p->root);
  reduce_tree (c, &t, p->bytes, p->seg);
  tc_free (c, &t);
}

/* allreduce */

/* Recursive doubling (coll_base_allreduce.c): with P not a power of two,
   the first 2 (P - p2) ranks pair up, even to odd, before the exchanges
   and odd to even after them; the others take part as they are.  */
static void
allreduce_rd_bytes (struct cx *c, int64_t P, int64_t bytes)
{
  int64_t p2 = floor_pow2 (P), extra = P - p2;
  start_all (c);
  /* every round but the last combines what it received */
  c->reducing = 1;
  if (extra)
    {
      round_begin (c);
      for (int64_t r = 0; r < 2 * extra; r += 2)
        round_msg (c, r, r + 1, bytes);
      round_end (c);
    }
  for (int64_t d = 1; d < p2; d <<= 1)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        {
          int64_t nr;
          if (r < 2 * extra)
            {
              if (r % 2 == 0)
                continue;
              nr = r >> 1;
            }
          else
            nr = r - extra;
          int64_t nrem = nr ^ d;
          int64_t rem = nrem < extra ? nrem * 2 + 1 : nrem + extra;
          round_msg (c, r, rem, bytes);
        }
      round_end (c);
    }
  c->reducing = 0;
  if (extra)
    {
      round_begin (c);
      for (int64_t r = 1; r < 2 * extra; r += 2)
        round_msg (c, r, r - 1, bytes);
      round_end (c);
    }
}

static void
allreduce_rd (struct cx *c, const struct coll_params *p)
{
  allreduce_rd_bytes (c, p->P, p->bytes);
}

static void
allreduce_nonoverlapping (struct cx *c, const struct coll_params *p)
{
  /* reduce to 0, then bcast from 0: as binomial and binomial (what the
     forced reduce and bcast algorithms then are, see the man page) */
  struct tree_c t;
  tc_in_order_bmtree (c, &t, p->P, 0);
  reduce_tree (c, &t, p->bytes, 0);
  tc_free (c, &t);
  tc_bmtree (c, &t, p->P, 0);
  bcast_tree (c, &t, p->bytes, 0);
  tc_free (c, &t);
}

/* Ring (coll_base_allreduce.c): the vector in P blocks, the first
   BYTES mod P of them one byte longer; P - 1 steps of reduce-scatter
   round the ring, then P - 1 of allgather; every step each rank sends
   one block to r + 1.  Fewer bytes than ranks: recursive doubling, as
   Open MPI does.  */
static void
allreduce_ring (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P, n = p->bytes;
  if (n < P)
    {
      allreduce_rd_bytes (c, P, n);
      return;
    }
  int64_t late = n / P, split = n % P, early = late + (split ? 1 : 0);
#define BLOCK(b) ((b) < split ? early : late)
  start_all (c);
  c->reducing = 1;            /* the reduce-scatter */
  for (int64_t k = 1; k < P; k++)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        /* step 1 sends block r, step k >= 2 block r - k + 1 */
        round_msg (c, r, (r + 1) % P, BLOCK ((r - k + 1 + P) % P));
      round_end (c);
    }
  c->reducing = 0;
  for (int64_t k = 0; k < P - 1; k++)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        round_msg (c, r, (r + 1) % P, BLOCK ((r + 1 - k + P) % P));
      round_end (c);
    }
#undef BLOCK
}

/* In-order binary reduce: up the in-order binary tree to rank P-1, which
   then sends the result to the root if that is another rank.  */
static void
reduce_in_order_binary (struct cx *c, const struct coll_params *p)
{
  struct tree_c t;
  tc_build (c, &t, p->P, p->P - 1, kids_in_order_binary, 0);
  reduce_tree (c, &t, p->bytes, p->seg);
  tc_free (c, &t);
  if (p->root != p->P - 1)
    {
      round_begin (c);
      round_msg (c, p->P - 1, p->root, p->bytes);
      round_end (c);
    }
}

/* basic_linear: reduce:linear to 0, then bcast:basic_linear from 0.  */
static void reduce_linear (struct cx *c, const struct coll_params *p);

static void
allreduce_linear (struct cx *c, const struct coll_params *p)
{
  struct coll_params q = *p;
  q.root = 0;
  reduce_linear (c, &q);
  struct tree_c t;
  tc_star (c, &t, p->P, 0);
  bcast_tree (c, &t, p->bytes, 0);
  tc_free (c, &t);
}

/* The rank of virtual rank V of Rabenseifner's algorithms, REM ranks
   folded out: ranks 2i (i < REM), then REM up.  */
static inline int64_t
rab_rank (int64_t v, int64_t rem)
{
  return v < rem ? v * 2 : v + rem;
}

/* The shape of Rabenseifner's algorithms on P ranks and N bytes: P2,
   the largest power of two <= P, REM = P - P2 ranks folded out, STEPS =
   log2 P2, and per virtual rank v and step k (at v * STEPS + k) the
   bytes it SENT and kept (RECV) in the reduce-scatter, in C's scratch
   from MARK on.  */
struct rab
{
  int64_t n, p2, rem;
  int steps;
  int64_t *sent, *recv;
  size_t mark;
};

/* Set up R for P; 0 (nothing taken) when there are fewer bytes than P2
   and Open MPI falls back to a linear algorithm.  */
static int
rab_begin (struct cx *c, const struct coll_params *p, struct rab *r)
{
  r->n = p->bytes;
  r->p2 = floor_pow2 (p->P);
  r->rem = p->P - r->p2;
  if (r->n < r->p2)
    return 0;
  r->steps = 0;
  while ((INT64_C (1) << r->steps) < r->p2)
    r->steps++;
  r->mark = c->used;
  size_t words = (size_t) (r->p2 * (r->steps + 1));
  r->sent = take (c, words * sizeof *r->sent);
  r->recv = take (c, words * sizeof *r->recv);
  return 1;
}

/* What allreduce:rabenseifner and reduce:rabenseifner begin with
   (coll_base_allreduce.c, redscat_allgather; coll_base_reduce.c,
   redscat_gather): on the largest power of two P2 <= P ranks, ranks 2i
   and 2i+1 (i < REM = P - P2) first swap halves (the odd one then sends
   its half and drops out, the even one takes part); then the recursive
   halving reduce-scatter over STEPS = log2 P2 steps.  SENT and RECV get,
   per virtual rank v and step k (at v * STEPS + k), the bytes it sends
   and keeps.  */
static void
rab_reduce_scatter (struct cx *c, const struct rab *rb)
{
  int64_t n = rb->n, p2 = rb->p2, rem = rb->rem;
  int steps = rb->steps;
  int64_t *sent = rb->sent, *recv = rb->recv;
  if (rem)
    {
      int64_t lo = n / 2, hi = n - lo;
      round_begin (c);
      c->reducing = 1;          /* each combines the half it got */
      for (int64_t r = 0; r < 2 * rem; r += 2)
        {
          round_msg (c, r, r + 1, hi);   /* even sends its upper half */
          round_msg (c, r + 1, r, lo);   /* odd its lower half */
        }
      round_end (c);
      c->reducing = 0;
      round_begin (c);
      for (int64_t r = 1; r < 2 * rem; r += 2)
        round_msg (c, r, r - 1, hi);
      round_end (c);
    }
  for (int64_t v = 0; v < p2; v++)
    {
      int64_t w = n;
      int k = 0;
      for (int64_t m = 1; m < p2; m <<= 1, k++)
        {
          int64_t h = w / 2;
          int low = rab_rank (v, rem) < rab_rank (v ^ m, rem);
          recv[v * steps + k] = low ? h : w - h;
          sent[v * steps + k] = low ? w - h : h;
          w = recv[v * steps + k];
        }
    }
  int k = 0;
  c->reducing = 1;            /* the reduce-scatter by halving */
  for (int64_t m = 1; m < p2; m <<= 1, k++)
    {
      round_begin (c);
      for (int64_t v = 0; v < p2; v++)
        round_msg (c, rab_rank (v, rem), rab_rank (v ^ m, rem),
                   sent[v * steps + k]);
      round_end (c);
    }
  c->reducing = 0;
}

/* Rabenseifner (coll_base_allreduce.c, redscat_allgather): the
   reduce-scatter above, then recursive doubling allgather, and the odd
   folded-out ranks get the result at the end.  Fewer bytes than P2:
   basic_linear, as Open MPI does.  */
static void
allreduce_rabenseifner (struct cx *c, const struct coll_params *p)
{
  struct rab rb;
  if (!rab_begin (c, p, &rb))
    {
      allreduce_linear (c, p);
      return;
    }
  int64_t n = rb.n, p2 = rb.p2, rem = rb.rem, *recv = rb.recv;
  int steps = rb.steps;
  start_all (c);
  rab_reduce_scatter (c, &rb);
  int k = steps;
  for (int64_t m = p2 >> 1; m > 0; m >>= 1)
    {
      k--;
      round_begin (c);
      for (int64_t v = 0; v < p2; v++)
        round_msg (c, rab_rank (v, rem), rab_rank (v ^ m, rem),
                   recv[v * steps + k]);
      round_end (c);
    }
  if (rem)
    {
      round_begin (c);
      for (int64_t r = 0; r < 2 * rem; r += 2)
        round_msg (c, r, r + 1, n);
      round_end (c);
    }
  c->used = rb.mark;
}

/* Rabenseifner's reduce (coll_base_reduce.c, redscat_gather): the
   reduce-scatter above, then a binomial gather of the pieces to the
   root by recursive doubling of the vector, distance halving: at the
   step of distance m the rank whose partner is on the root's side of the
   highest bits sends it all it holds and stops.  An odd root among the
   first 2 (P - P2) ranks, which was folded out, takes virtual rank 0's
   place: rank 0 sends it its piece first.  Fewer bytes than P2: linear,
   as Open MPI does.  */
static void
reduce_rabenseifner (struct cx *c, const struct coll_params *p)
{
  struct rab rb;
  if (!rab_begin (c, p, &rb))
    {
      reduce_linear (c, p);
      return;
    }
  int64_t p2 = rb.p2, rem = rb.rem, *recv = rb.recv;
  int steps = rb.steps;
  unsigned char *done = take (c, (size_t) p2);
  start_all (c);
  rab_reduce_scatter (c, &rb);
  int k = steps;
  /* the root's virtual rank; an odd folded-out root stands in for 0 */
  int64_t vroot, zero = 0;
  if (p->root < 2 * rem && p->root % 2)
    {
      vroot = 0;
      zero = p->root;
      round_begin (c);
      round_msg (c, 0, p->root, recv[steps - 1]);
      round_end (c);
    }
  else
    vroot = p->root < 2 * rem ? p->root / 2 : p->root - rem;
#define GRANK(v) ((v) == 0 ? zero : rab_rank ((v), rem))
  for (int64_t m = p2 >> 1; m > 0; m >>= 1)
    {
      k--;
      round_begin (c);
      for (int64_t v = 0; v < p2; v++)
        if (!done[v] && ((v ^ m) >> k) == (vroot >> k))
          {
            round_msg (c, GRANK (v), GRANK (v ^ m), recv[v * steps + k]);
            done[v] = 1;
          }
      round_end (c);
    }
#undef GRANK
  c->used = rb.mark;
}

/* Segmented ring (coll_base_allreduce.c, ring_segmented): the
   reduce-scatter of the ring in phases, each block cut in as many parts
   (about BYTES / (P S) of them, S the segment); the allgather as in the
   ring.  Without a segment, or one too large for P parts: the ring.  */
static void
allreduce_segmented_ring (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P, n = p->bytes;
  int64_t seg = p->seg > 0 && p->seg < n ? p->seg : n;
  if (n < P * seg)
    {
      allreduce_ring (c, p);
      return;
    }
  int64_t phases = n / (P * seg), rest = n % (P * seg);
  if (rest >= P && rest > P * seg / 2)
    phases++;
  int64_t late = n / P, split = n % P, early = late + (split ? 1 : 0);
#define BLOCK(b) ((b) < split ? early : late)
  start_all (c);
  c->reducing = 1;            /* the reduce-scatter, in phases */
  for (int64_t ph = 0; ph < phases; ph++)
    for (int64_t k = 1; k < P; k++)
      {
        round_begin (c);
        for (int64_t r = 0; r < P; r++)
          {
            int64_t bc = BLOCK ((r - k + 1 + P) % P);
            int64_t pl = bc / phases, ps = bc % phases;
            round_msg (c, r, (r + 1) % P, ph < ps ? pl + 1 : pl);
          }
        round_end (c);
      }
  c->reducing = 0;
  for (int64_t k = 0; k < P - 1; k++)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        round_msg (c, r, (r + 1) % P, BLOCK ((r + 1 - k + P) % P));
      round_end (c);
    }
#undef BLOCK
}

/* barrier */

static void
barrier_linear (struct cx *c, const struct coll_params *p)
{
  /* everyone to 0, then 0 to everyone (basic_linear) */
  start_all (c);
  round_begin (c);
  for (int64_t r = 1; r < p->P; r++)
    round_msg (c, r, 0, 0);
  round_end (c);
  round_begin (c);
  for (int64_t r = 1; r < p->P; r++)
    round_msg (c, 0, r, 0);
  round_end (c);
}

static void
barrier_rd (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P, p2 = floor_pow2 (P);
  start_all (c);
  if (p2 != P)
    {
      /* the ranks above p2 report to r - p2 */
      round_begin (c);
      for (int64_t r = p2; r < P; r++)
        round_msg (c, r, r - p2, 0);
      round_end (c);
    }
  for (int64_t m = 1; m < p2; m <<= 1)
    {
      round_begin (c);
      for (int64_t r = 0; r < p2; r++)
        round_msg (c, r, r ^ m, 0);
      round_end (c);
    }
  if (p2 != P)
    {
      round_begin (c);
      for (int64_t r = 0; r < P - p2; r++)
        round_msg (c, r, r + p2, 0);
      round_end (c);
    }
}

static void
barrier_bruck (struct cx *c, const struct coll_params *p)
{
  /* dissemination: step d, every rank to r + d */
  start_all (c);
  for (int64_t d = 1; d < p->P; d <<= 1)
    round_shift (c, d, 0);
}

/* Double ring: a token round the ring 0, 1, ..., P-1, 0 twice (the
   second lap's sends are synchronous in Open MPI; here, with 0 bytes,
   like the others).  */
static void
barrier_double_ring (struct cx *c, const struct coll_params *p)
{
  start_all (c);
  for (int lap = 0; lap < 2; lap++)
    for (int64_t r = 0; r < p->P; r++)
      {
        round_begin (c);
        round_msg (c, r, (r + 1) % p->P, 0);
        round_end (c);
      }
}

/* Tree (coll_base_barrier.c): up a binomial tree by jumps 1, 2, 4, ...
   (rank r with r's lowest set bit J sends to r - J at jump J, after
   hearing from r + j for the smaller jumps j), then down it in reverse. */
static void
barrier_tree (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P, depth = next_pow2 (P - 1);
  start_all (c);
  for (int64_t j = 1; j < depth; j <<= 1)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        {
          int64_t q = r ^ j;
          if (!(q & (j - 1)) && q < P && q < r)
            round_msg (c, r, q, 0);
        }
      round_end (c);
    }
  for (int64_t j = depth >> 1; j > 0; j >>= 1)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        {
          int64_t q = r ^ j;
          if (!(q & (j - 1)) && q < P && q > r)
            round_msg (c, r, q, 0);
        }
      round_end (c);
    }
}

/* allgather: BYTES per rank */

static void
allgather_ring (struct cx *c, const struct coll_params *p)
{
  start_all (c);
  for (int64_t i = 0; i < p->P - 1; i++)
    round_shift (c, 1, p->bytes);
}

static void
allgather_bruck (struct cx *c, const struct coll_params *p)
{
  /* step d: to r - d, d blocks (the rest, P - d, in the last step) */
  int64_t P = p->P;
  start_all (c);
  for (int64_t d = 1; d < P; d <<= 1)
    round_shift (c, P - d, (d <= P / 2 ? d : P - d) * p->bytes);
}

static void
allgather_rd (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P;
  if (floor_pow2 (P) != P)
    {
      allgather_bruck (c, p);   /* as Open MPI does */
      return;
    }
  start_all (c);
  for (int64_t d = 1; d < P; d <<= 1)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        round_msg (c, r, r ^ d, d * p->bytes);
      round_end (c);
    }
}

/* linear (coll_base_allgather.c, basic_linear): a gather to rank 0,
   then a broadcast of the P blocks from 0, as gather:basic_linear and
   bcast:basic_linear (what the forced gather and bcast algorithms then
   are, see the man page).  */
static void gather_linear (struct cx *c, const struct coll_params *p);

static void
allgather_linear (struct cx *c, const struct coll_params *p)
{
  struct coll_params q = *p;
  q.root = 0;
  gather_linear (c, &q);
  q.bytes = p->bytes * p->P;
  bcast_linear (c, &q);
}

/* Neighbor exchange (coll_base_allgather.c, P even; ring when odd, as
   Open MPI does): one block with the first neighbour (even r: r + 1, odd
   r: r - 1), then P/2 - 1 steps of two blocks with the other and the
   first neighbour in turn.  */
static void
allgather_neighbor (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P;
  if (P % 2)
    {
      allgather_ring (c, p);
      return;
    }
  start_all (c);
  for (int64_t i = 0; i < P / 2; i++)
    {
      round_begin (c);
      for (int64_t r = 0; r < P; r++)
        {
          int first = i == 0 || i % 2 == 0;
          int64_t nb = (r % 2 == 0) == first ? (r + 1) % P : (r - 1 + P) % P;
          round_msg (c, r, nb, i == 0 ? p->bytes : 2 * p->bytes);
        }
      round_end (c);
    }
}

/* two_proc (allgather, alltoall, barrier): one sendrecv between the two
   ranks (of no bytes in a barrier).  */
static void
exchange_two (struct cx *c, const struct coll_params *p)
{
  start_all (c);
  round_shift (c, 1, p->bytes);
}

static void
barrier_two (struct cx *c, const struct coll_params *p)
{
  (void) p;
  start_all (c);
  round_shift (c, 1, 0);
}

/* alltoall: BYTES per pair of ranks */

static void
alltoall_linear (struct cx *c, const struct coll_params *p)
{
  /* all receives posted, then sends to r - 1, r - 2, ... (descending) */
  int64_t P = p->P;
  start_all (c);
  round_begin (c);
  for (int64_t r = 0; r < P; r++)
    for (int64_t i = 1; i < P; i++)
      round_msg (c, r, (r - i + P) % P, p->bytes);
  round_end (c);
}

static void
alltoall_pairwise (struct cx *c, const struct coll_params *p)
{
  start_all (c);
  for (int64_t k = 1; k < p->P; k++)
    round_shift (c, k, p->bytes);
}

static void
alltoall_bruck (struct cx *c, const struct coll_params *p)
{
  /* step d: to r + d, the blocks whose index has bit d */
  int64_t P = p->P;
  start_all (c);
  for (int64_t d = 1; d < P; d <<= 1)
    {
      int64_t nb = 0;
      for (int64_t i = 1; i < P; i++)
        nb += (i & d) != 0;
      round_shift (c, d, nb * p->bytes);
    }
}

/* gather, scatter: BYTES per rank */

static void
gather_linear (struct cx *c, const struct coll_params *p)
{
  /* the root receives from 0, 1, ..., P - 1 in turn */
  start_all (c);
  for (int64_t i = 0; i < p->P; i++)
    if (i != p->root)
      {
        round_begin (c);
        round_msg (c, i, p->root, p->bytes);
        round_end (c);
      }
}

/* linear_sync: the root, rank by rank, sends a 0-byte go-ahead and
   waits for the first segment (S bytes, or all); the rest of every
   rank's block (0 bytes without --segment: still a message) comes at the
   end.  */
static void
gather_linear_sync (struct cx *c, const struct coll_params *p)
{
  int64_t first = p->seg > 0 && p->seg < p->bytes ? p->seg : p->bytes;
  start_all (c);
  for (int64_t i = 0; i < p->P; i++)
    if (i != p->root)
      {
        round_begin (c);
        round_msg (c, p->root, i, 0);
        round_end (c);
        round_begin (c);
        round_msg (c, i, p->root, first);
        round_end (c);
      }
  round_begin (c);
  for (int64_t i = 0; i < p->P; i++)
    if (i != p->root)
      round_msg (c, i, p->root, p->bytes - first);
  round_end (c);
}

static void
scatter_linear (struct cx *c, const struct coll_params *p)
{
  struct tree_c t;
  tc_star (c, &t, p->P, p->root);
  bcast_tree (c, &t, p->bytes, 0);
  tc_free (c, &t);
}

/* Binomial gather: a rank receives its children's subtrees in order
   (smallest first), then sends its own subtree to its parent.  */
static void
gather_binomial (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P;
  struct tree_c t;
  tc_in_order_bmtree (c, &t, P, p->root);
  size_t mark = c->used;
  int32_t *cur = take (c, (size_t) P * sizeof *cur);
  start_all (c);
  for (int64_t i = P - 1; i >= 0; i--)
    {
      int64_t r = t.order[i];
      int64_t v = (r - p->root + P) % P;
      cur[r] = t.off[r + 1] > t.off[r] ? step (c, r) : c->last[r];
      for (int64_t j = t.off[r]; j < t.off[r + 1]; j++)
        {
          int64_t ch = t.child[j], vc = (ch - p->root + P) % P;
          c->s->msg (c->s->ctx, cur[ch], cur[r],
                     in_order_subtree (v, vc, P) * p->bytes);
        }
    }
  c->used = mark;
  tc_free (c, &t);
}

/* Binomial scatter: a rank sends each child its subtree's blocks,
   largest subtree first.  */
static void
scatter_binomial (struct cx *c, const struct coll_params *p)
{
  int64_t P = p->P;
  struct tree_c t;
  tc_in_order_bmtree (c, &t, P, p->root);
  size_t mark = c->used;
  int32_t *cur = take (c, (size_t) P * sizeof *cur);
  cur[p->root] = step (c, p->root);
  for (int64_t i = 0; i < P; i++)
    {
      int64_t r = t.order[i];
      int64_t v = (r - p->root + P) % P;
      for (int64_t j = t.off[r + 1] - 1; j >= t.off[r]; j--)
        {
          int64_t ch = t.child[j], vc = (ch - p->root + P) % P;
          cur[ch] = step (c, ch);
          c->s->msg (c->s->ctx, cur[r], cur[ch],
                     in_order_subtree (v, vc, P) * p->bytes);
        }
    }
  c->used = mark;
  tc_free (c, &t);
}

/* Flags of an algorithm.  */
enum { ROOTED = 1, SEGMENTED = 2, TWO_ONLY = 4 };

struct coll_algo
{
  const char *op, *algo;
  coll_fn fn;
  int flags;
  /* tasks per rank, a bound for the size check: 0 means log2 P + 4,
     -1 means 2 P + 2 */
  int steps;
};

static const struct coll_algo algos[] = {
  { "bcast", "basic_linear", bcast_linear, ROOTED, 2 },
  { "bcast", "linear", bcast_linear, ROOTED, 2 },
  { "bcast", "chain", bcast_chain, ROOTED | SEGMENTED, -1 },
  { "bcast", "pipeline", bcast_pipeline, ROOTED | SEGMENTED, -1 },
  { "bcast", "binary_tree", bcast_binary, ROOTED | SEGMENTED, 0 },
  { "bcast", "binomial", bcast_binomial, ROOTED | SEGMENTED, 0 },
  { "bcast", "knomial", bcast_knomial, ROOTED | SEGMENTED, 0 },
  { "bcast", "split_binary_tree", bcast_split_binary, ROOTED | SEGMENTED, 0 },
  { "bcast", "scatter_allgather", bcast_scatter_allgather, ROOTED, -1 },
  { "bcast", "scatter_allgather_ring", bcast_scatter_allgather_ring, ROOTED,
    -1 },
  { "reduce", "linear", reduce_linear, ROOTED, -1 },
  { "reduce", "chain", reduce_chain, ROOTED | SEGMENTED, -1 },
  { "reduce", "pipeline", reduce_pipeline, ROOTED | SEGMENTED, -1 },
  { "reduce", "binary", reduce_binary, ROOTED | SEGMENTED, 0 },
  { "reduce", "binomial", reduce_binomial, ROOTED | SEGMENTED, 0 },
  { "reduce", "in-order_binary", reduce_in_order_binary,
    ROOTED | SEGMENTED, 0 },
  { "reduce", "rabenseifner", reduce_rabenseifner, ROOTED, -1 },
  { "allreduce", "basic_linear", allreduce_linear, 0, -1 },
  { "allreduce", "nonoverlapping", allreduce_nonoverlapping, 0, 0 },
  { "allreduce", "recursive_doubling", allreduce_rd, 0, 0 },
  { "allreduce", "ring", allreduce_ring, 0, -1 },
  { "allreduce", "segmented_ring", allreduce_segmented_ring, SEGMENTED, -1 },
  { "allreduce", "rabenseifner", allreduce_rabenseifner, 0, -1 },
  { "allgather", "linear", allgather_linear, 0, -1 },
  { "allgather", "ring", allgather_ring, 0, -1 },
  { "allgather", "recursive_doubling", allgather_rd, 0, 0 },
  { "allgather", "bruck", allgather_bruck, 0, 0 },
  { "allgather", "neighbor", allgather_neighbor, 0, -1 },
  { "allgather", "two_proc", exchange_two, TWO_ONLY, 2 },
  { "alltoall", "linear", alltoall_linear, 0, 2 },
  { "alltoall", "linear_sync", alltoall_linear, 0, 2 },
  { "alltoall", "pairwise", alltoall_pairwise, 0, -1 },
  { "alltoall", "modified_bruck", alltoall_bruck, 0, 0 },
  { "alltoall", "two_proc", exchange_two, TWO_ONLY, 2 },
  { "barrier", "linear", barrier_linear, 0, 3 },
  { "barrier", "double_ring", barrier_double_ring, 0, 3 },
  { "barrier", "recursive_doubling", barrier_rd, 0, 0 },
  { "barrier", "bruck", barrier_bruck, 0, 0 },
  { "barrier", "tree", barrier_tree, 0, 0 },
  { "barrier", "two_proc", barrier_two, TWO_ONLY, 2 },
  { "gather", "basic_linear", gather_linear, ROOTED, -1 },
  { "gather", "linear", gather_linear, ROOTED, -1 },
  { "gather", "binomial", gather_binomial, ROOTED, 0 },
  { "gather", "linear_sync", gather_linear_sync, ROOTED | SEGMENTED, -1 },
  { "scatter", "basic_linear", scatter_linear, ROOTED, 2 },
  { "scatter", "linear", scatter_linear, ROOTED, 2 },
  { "scatter", "linear_nb", scatter_linear, ROOTED, 2 },
  { "scatter", "binomial", scatter_binomial, ROOTED, 0 },
};

#define NALGOS (sizeof algos / sizeof algos[0])

/* "OP:ALGO" and descriptions, built once.  */
const char *const dag_coll_algorithms[][2] = {
  { "bcast:basic_linear", "the root sends to every rank in rank order" },
  { "bcast:linear", "the same as bcast:basic_linear" },
  { "bcast:chain", "four chains from the root, per segment" },
  { "bcast:pipeline", "one chain 0, 1, ..., P-1, per segment" },
  { "bcast:binary_tree", "binary tree, per segment" },
  { "bcast:binomial", "binomial tree, nearest child first, per segment" },
  { "bcast:knomial", "4-nomial tree, farthest children first, per segment" },
  { "bcast:split_binary_tree",
    "each half down one side of a binary tree, per segment; then a swap" },
  { "bcast:scatter_allgather",
    "binomial scatter, recursive doubling allgather" },
  { "bcast:scatter_allgather_ring", "binomial scatter, ring allgather" },
  { "reduce:linear", "the root receives from P-1, ..., 0 in turn" },
  { "reduce:chain", "up four chains to the root, per segment" },
  { "reduce:pipeline", "up one chain P-1, ..., 1 to 0, per segment" },
  { "reduce:binary", "up a binary tree, per segment" },
  { "reduce:binomial", "in-order binomial tree, per segment" },
  { "reduce:in-order_binary",
    "in-order binary tree to P-1, then to the root, per segment" },
  { "reduce:rabenseifner",
    "recursive halving reduce-scatter, binomial gather to the root" },
  { "allreduce:basic_linear", "reduce:linear, then bcast:basic_linear" },
  { "allreduce:nonoverlapping",
    "reduce (binomial) to 0, then bcast (binomial) from 0" },
  { "allreduce:recursive_doubling",
    "exchanges at distance 1, 2, 4, ...; extra ranks fold in" },
  { "allreduce:ring", "reduce-scatter and allgather round the ring" },
  { "allreduce:segmented_ring",
    "the ring, its reduce-scatter in phases of segments" },
  { "allreduce:rabenseifner",
    "recursive halving reduce-scatter, recursive doubling allgather" },
  { "allgather:linear", "gather:basic_linear to 0, then bcast:basic_linear" },
  { "allgather:ring", "P-1 steps, one block to r+1 each" },
  { "allgather:recursive_doubling",
    "exchanges with r xor 2^k (bruck unless P is a power of two)" },
  { "allgather:bruck", "ceil(log2 P) steps to r-2^k, doubling blocks" },
  { "allgather:neighbor",
    "P/2 steps with the two neighbours in turn (ring when P is odd)" },
  { "allgather:two_proc", "one exchange (2 processes only)" },
  { "alltoall:linear", "every rank sends to every other at once" },
  { "alltoall:linear_sync",
    "the exchange of alltoall:linear (no request limit)" },
  { "alltoall:pairwise", "P-1 steps, step k to r+k" },
  { "alltoall:modified_bruck",
    "ceil(log2 P) steps to r+2^k with the blocks of bit k" },
  { "alltoall:two_proc", "one exchange (2 processes only)" },
  { "barrier:linear", "everyone to 0, then 0 to everyone" },
  { "barrier:double_ring", "a token twice round the ring" },
  { "barrier:recursive_doubling",
    "exchanges with r xor 2^k; extra ranks fold in" },
  { "barrier:bruck", "dissemination: ceil(log2 P) steps to r+2^k" },
  { "barrier:tree", "up a binomial tree and down again" },
  { "barrier:two_proc", "one exchange (2 processes only)" },
  { "gather:basic_linear", "the root receives from 0, ..., P-1 in turn" },
  { "gather:linear", "the same as gather:basic_linear" },
  { "gather:binomial", "in-order binomial tree, subtrees sent up" },
  { "gather:linear_sync",
    "rank by rank: a go-ahead, the first segment; the rest at the end" },
  { "scatter:basic_linear", "the root sends to 0, ..., P-1 in turn" },
  { "scatter:linear", "the same as scatter:basic_linear" },
  { "scatter:linear_nb", "the same exchange as scatter:basic_linear" },
  { "scatter:binomial", "in-order binomial tree, largest subtree first" },
  { NULL, NULL }
};

int
dag_coll_is (const char *name)
{
  return name && strncmp (name, DAG_COLL_PREFIX,
                          sizeof DAG_COLL_PREFIX - 1) == 0;
}

/* The known algorithms of OP (LEN bytes), comma-separated, in BUF.  */
static void
algo_list (const char *op, size_t len, char *buf, size_t size)
{
  buf[0] = '\0';
  for (size_t i = 0; i < NALGOS; i++)
    if (strlen (algos[i].op) == len && strncmp (algos[i].op, op, len) == 0)
      {
        size_t n = strlen (buf);
        snprintf (buf + n, size - n, "%s%s", n ? ", " : "", algos[i].algo);
      }
  size_t n = strlen (buf);
  if (n)
    snprintf (buf + n, size - n, ", default");
}

/* coll:OP:default: the algorithm Open MPI 4.1's fixed rules pick for
   C's P and bytes (coll_decide.h), run under its own name.  */
static const char *
run_default (const struct dag_coll *c, const struct dag_sink *s,
             const char *op, size_t oplen)
{
  static char msg[160];
  char opname[32];
  snprintf (opname, sizeof opname, "%.*s", (int) oplen, op);
  if (c->procs < 2)
    {
      snprintf (msg, sizeof msg, "needs at least 2 processes (-P), not %"
                PRId64 ": with one there is no message", c->procs);
      return msg;
    }
  if (c->bytes < 0)
    return "negative message size: --bytes must be >= 0";
  const char *algo = coll_decide_default (opname, c->procs, c->bytes);
  if (!algo)
    {
      snprintf (msg, sizeof msg, "no default for %s: Open MPI's rules pick "
                "an algorithm not generated here", opname);
      return msg;
    }
  char name[96];
  snprintf (name, sizeof name, DAG_COLL_PREFIX "%s:%s", opname, algo);
  struct dag_coll d = *c;
  d.name = name;
  return dag_coll_run (&d, s);
}

const char *
dag_coll_run (const struct dag_coll *c, const struct dag_sink *s)
{
  static char msg[512];
  const char *name = c->name ? c->name : "";
  if (!dag_coll_is (name))
    return "not a collective (coll:OP:ALGO)";
  const char *op = name + sizeof DAG_COLL_PREFIX - 1;
  const char *colon = strchr (op, ':');
  size_t oplen = colon ? (size_t) (colon - op) : strlen (op);
  char known[256];
  algo_list (op, oplen, known, sizeof known);
  if (!known[0])
    {
      snprintf (msg, sizeof msg, "column %d: unknown operation '%.*s' "
                "(bcast, reduce, allreduce, allgather, alltoall, barrier, "
                "gather, scatter; gen coll:list lists the algorithms)",
                (int) (op - name) + 1, (int) oplen, op);
      return msg;
    }
  if (!colon)
    {
      snprintf (msg, sizeof msg, "column %zu: missing ':ALGO' (%.*s: %s)",
                strlen (name) + 1, (int) oplen, op, known);
      return msg;
    }
  if (strcmp (colon + 1, "default") == 0)
    return run_default (c, s, op, oplen);
  if (strcmp (colon + 1, "all") == 0)
    return "coll:OP:all is one DAG per algorithm: predict them with "
           "'dag-predict -g coll:OP:all -m MODEL ...'";
  const struct coll_algo *a = NULL;
  for (size_t i = 0; i < NALGOS && !a; i++)
    if (strlen (algos[i].op) == oplen && strncmp (algos[i].op, op, oplen) == 0
        && strcmp (algos[i].algo, colon + 1) == 0)
      a = &algos[i];
  if (!a)
    {
      snprintf (msg, sizeof msg, "column %d: unknown %.*s algorithm '%s' "
                "(%s)", (int) (colon + 1 - name) + 1, (int) oplen, op,
                colon + 1, known);
      return msg;
    }
  if (c->procs < 2)
    {
      snprintf (msg, sizeof msg, "needs at least 2 processes (-P), not %" PRId64
                ": with one there is no message", c->procs);
      return msg;
    }
  if (c->bytes < 0)
    return "negative message size: --bytes must be >= 0";
  if ((a->flags & TWO_ONLY) && c->procs != 2)
    {
      snprintf (msg, sizeof msg, "two_proc runs on 2 processes only (Open "
                "MPI refuses it on %" PRId64 ")", c->procs);
      return msg;
    }
  if (c->root >= 0 && !(a->flags & ROOTED))
    {
      snprintf (msg, sizeof msg, "no root in %.*s: drop --root", (int) oplen,
                op);
      return msg;
    }
  if (c->root >= c->procs)
    {
      snprintf (msg, sizeof msg, "--root %" PRId64 " is not a rank of %"
                PRId64 " processes (0 to %" PRId64 ")", c->root, c->procs,
                c->procs - 1);
      return msg;
    }
  if (c->segment != 0 && !(a->flags & SEGMENTED))
    {
      snprintf (msg, sizeof msg, "this algorithm does not segment: drop "
                "--segment (the tree bcasts and reduces, "
                "allreduce:segmented_ring and gather:linear_sync do)");
      return msg;
    }
  if (c->segment < 0)
    return "--segment must be at least 1 byte";
  /* size check: tasks per rank times ranks */
  int64_t P = c->procs, lg = 0;
  while ((INT64_C (1) << lg) < P)
    lg++;
  int64_t per = a->steps == 0 ? lg + 4 : a->steps < 0 ? 2 * P + 2
                : a->steps;
  if (c->reduce_cost > 0)
    per *= 2;                 /* a combine after each receive at most */
  int64_t nseg = 1;
  if (c->segment > 0 && c->bytes > c->segment)
    nseg = (c->bytes + c->segment - 1) / c->segment;
  if (P > COLL_MAX_TASKS || nseg > COLL_MAX_TASKS
      || (double) per * (double) P * (double) nseg > (double) COLL_MAX_TASKS)
    {
      snprintf (msg, sizeof msg, "%" PRId64 " processes%s make more than "
                "2^26 tasks", P, nseg > 1 ? " and their segments" : "");
      return msg;
    }
  struct coll_params p = { P, c->bytes, c->root >= 0 ? c->root : 0,
                           c->segment };
  /* the pool, per rank: the state (4 + 4 + 8 + 8 bytes), a tree (4 words),
     its builder's scratch (1) and the walk's (1), or the largest other
     temporaries (3 words; Rabenseifner's halves 2 (log2 P + 1)) */
  size_t words = a->fn == allreduce_rabenseifner
                 || a->fn == reduce_rabenseifner ? 2 * (size_t) (lg + 1) + 1
                                                 : 6;
  size_t bytes = (size_t) P * (24 + 8 * words) + 256;
  struct cx x;
  if (cx_init (&x, s, P, bytes) != 0)
    {
      snprintf (msg, sizeof msg, "out of memory for %" PRId64 " processes "
                "(%zu bytes)", P, bytes);
      return msg;
    }
  x.gamma = c->reduce_cost;
  a->fn (&x, &p);
  cx_free (&x);
  return NULL;
}

/* Is algos[I] another name of an earlier algorithm of its operation
   (the same generator, so the same exchange)?  */
static int
same_exchange_before (size_t i)
{
  for (size_t k = 0; k < i; k++)
    if (strcmp (algos[k].op, algos[i].op) == 0 && algos[k].fn == algos[i].fn)
      return 1;
  return 0;
}

size_t
dag_coll_all (const char *name, int64_t P, char ***names)
{
  *names = NULL;
  if (!dag_coll_is (name))
    return 0;
  const char *op = name + sizeof DAG_COLL_PREFIX - 1;
  const char *colon = strchr (op, ':');
  if (!colon || strcmp (colon + 1, "all") != 0)
    return 0;
  size_t oplen = (size_t) (colon - op), n = 0;
  char **v = malloc (NALGOS * sizeof *v);
  if (!v)
    return 0;
  for (size_t i = 0; i < NALGOS; i++)
    if (strlen (algos[i].op) == oplen && strncmp (algos[i].op, op, oplen) == 0
        && !((algos[i].flags & TWO_ONLY) && P != 2)
        && !same_exchange_before (i))
      {
        size_t len = sizeof DAG_COLL_PREFIX + oplen
                     + strlen (algos[i].algo) + 1;
        if (!(v[n] = malloc (len)))
          break;
        snprintf (v[n++], len, DAG_COLL_PREFIX "%.*s:%s", (int) oplen, op,
                  algos[i].algo);
      }
  if (!n)
    {
      free (v);
      v = NULL;
    }
  *names = v;
  return n;
}

void
dag_coll_order (const double *ms, size_t n, size_t *order)
{
  /* insertion sort: a few dozen algorithms; ties keep the table's order,
     a NaN (a schedule that could not complete) goes last */
  for (size_t i = 0; i < n; i++)
    {
      size_t k = i;
      while (k > 0 && (isnan (ms[order[k - 1]])
                       ? !isnan (ms[i]) : ms[i] < ms[order[k - 1]]))
        {
          order[k] = order[k - 1];
          k--;
        }
      order[k] = i;
    }
}
