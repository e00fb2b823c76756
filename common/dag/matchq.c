/* SPDX-License-Identifier: GPL-3.0-or-later */
/* matchq.c: the simulator's matching queues and channel pairing
 * (matchq.h).  */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "err.h"
#include "matchq.h"
#include "xalloc.h"

/* Double the table (from 4096 slots).  */
void
mq_grow (struct mq *m)
{
  size_t cap = m->cap ? 2 * m->cap : 4096;
  struct mq_slot *old = m->slot;
  m->slot = xcalloc (cap, sizeof *m->slot);
  for (size_t i = 0; i < m->cap; i++)
    if (old[i].key)
      {
        struct mq_slot *s = &old[i];
        size_t j = mq_hash (s->key - 1, s->dst, s->src, s->tag) & (cap - 1);
        while (m->slot[j].key)
          j = (j + 1) & (cap - 1);
        m->slot[j] = *s;
      }
  free (old);
  m->cap = cap;
}

/* ------------------------------------------------- channels of one pair */

/* Without wildcards a message matches only the receives of its channel
   (receiver, sender, tag), and a channel with exactly one send and one
   receive pairs those two whatever the timing: its queues would only
   ever hold that message or that receive.  Such pairs skip the matching
   queues (a hash lookup each, scattered over a table as big as the
   channels, the cost of a broadcast's or an all-to-all's matching) and
   are matched like a native message's: by the other end's state.

   The operations go to their receiver's bucket (a counting sort), and
   each receiver's channels are counted in a small table that stays in
   the cache.  */
struct chan_op
{
  int32_t src, tag;    /* the channel's sender and tag */
  int32_t v;           /* the operation; bit 31 set for a receive */
};

struct chan_slot
{
  uint64_t key;
  int32_t snd, rcv;
  uint32_t nsnd, nrcv; /* 0 both: an empty slot */
};

static inline uint64_t
chan_key (const struct chan_op *o)
{
  return (uint64_t) (uint32_t) o->src << 32 | (uint32_t) o->tag;
}

/* The mates of N operations, none known yet.  */
static int32_t *
mate_new (size_t n)
{
  int32_t *mate = dag_populate (big_alloc (n * sizeof *mate),
                                n * sizeof *mate);
  memset (mate, 0xff, n * sizeof *mate);
  return mate;
}

/* Count the channels of one receiver's K operations A in the table T of
   CAP slots (a power of two at least 2 K, zeroed; left zeroed) and pair
   the ends of those with one of each in *MATE (made, for N operations,
   at the first pair).  */
static void
pair_receiver (const struct chan_op *a, size_t k, struct chan_slot *t,
               size_t cap, int32_t **mate, size_t n)
{
  if (k <= 2)
    {
      /* a tree's receiver: one receive, and its one message */
      if (k == 2 && (a[0].v ^ a[1].v) < 0
          && chan_key (&a[0]) == chan_key (&a[1]))
        {
          if (!*mate)
            *mate = mate_new (n);
          int32_t x = a[0].v & 0x7fffffff, y = a[1].v & 0x7fffffff;
          (*mate)[x] = y;
          (*mate)[y] = x;
        }
      return;
    }
  size_t mask = cap - 1;
  for (size_t i = 0; i < k; i++)
    {
      uint64_t key = chan_key (&a[i]);
      size_t j = dag_mix64 (key) & mask;
      while ((t[j].nsnd | t[j].nrcv) && t[j].key != key)
        j = (j + 1) & mask;
      t[j].key = key;
      if (a[i].v < 0)
        {
          t[j].rcv = a[i].v & 0x7fffffff;
          t[j].nrcv++;
        }
      else
        {
          t[j].snd = a[i].v;
          t[j].nsnd++;
        }
    }
  for (size_t i = 0; i < k; i++)
    {
      uint64_t key = chan_key (&a[i]);
      size_t j = dag_mix64 (key) & mask;
      while (t[j].key != key)
        j = (j + 1) & mask;
      if (t[j].nsnd == 1 && t[j].nrcv == 1)
        {
          if (!*mate)
            *mate = mate_new (n);
          (*mate)[t[j].snd] = t[j].rcv;
          (*mate)[t[j].rcv] = t[j].snd;
        }
    }
  /* cleared after all lookups, which an emptied slot would stop short */
  for (size_t i = 0; i < k; i++)
    {
      size_t j = dag_mix64 (chan_key (&a[i])) & mask;
      while (t[j].nsnd | t[j].nrcv)
        {
          t[j] = (struct chan_slot) { 0, 0, 0, 0, 0 };
          j = (j + 1) & mask;
        }
    }
}

/* The mates of D's operations (struct sim's mate), or NULL when no
   channel has one send and one receive (at once when D's may_pair says
   none can: a ring's stream of messages to its neighbour).  D has no
   wildcard.

   A first pass counts each receiver's operations (the sends to it and
   its receives) and notes its first send and first receive.  A
   receiver of two, one of each on one channel (a tree's: one receive
   and its one message), is paired from those at once; only the
   receivers of more go through the buckets (pair_receiver), so that a
   broadcast tree makes no second pass.  */
enum { PAIR_AHEAD = 64 };   /* prefetch distance, in operations */

int32_t *
chan_pairs (const struct dag *d, size_t np, int *same_bytes)
{
  *same_bytes = 0;
  if (!d->may_pair)
    return NULL;
  /* every pair's send and receive of one size: known of the pairs made
     here, not of the buckets' (pair_receiver) */
  int same = 1;
  size_t n = d->n;
  uint32_t *off = dag_populate (xcalloc (np + 2, sizeof *off),
                                (np + 2) * sizeof *off);
  /* first[2 p]: 1 + receiver p's first send, first[2 p + 1]: 1 + its
     first receive, 0 none */
  uint32_t *first = dag_populate (xcalloc (2 * np, sizeof *first),
                                  2 * np * sizeof *first);
  for (size_t v = 0; v < n; v++)
    {
      const struct dag_node *nd = &d->node[v];
      /* a send's receiver is anywhere, its counts a cache miss: they
         are asked for ahead */
      if (v + PAIR_AHEAD < n && d->node[v + PAIR_AHEAD].op == DAG_SEND)
        {
          size_t q = (size_t) d->node[v + PAIR_AHEAD].peer;
          __builtin_prefetch (&off[q + 2], 1);
          __builtin_prefetch (&first[2 * q], 1);
        }
      if (nd->derived || nd->op == DAG_CALC)
        continue;
      int rcv = nd->op == DAG_RECV;
      int32_t p = rcv ? nd->proc : nd->peer;
      off[p + 2]++;
      if (!first[2 * (size_t) p + rcv])
        first[2 * (size_t) p + rcv] = (uint32_t) v + 1;
    }
  int32_t *mate = NULL;
  size_t kmax = 0, nbig = 0;
  for (size_t p = 0; p < np; p++)
    {
      size_t k = off[p + 2];
      /* the first send to a later receiver: anywhere in the DAG */
      if (p + PAIR_AHEAD < np && first[2 * (p + PAIR_AHEAD)])
        __builtin_prefetch (&d->node[first[2 * (p + PAIR_AHEAD)] - 1], 0);
      if (k > 2)
        {
          nbig += k;
          if (k > kmax)
            kmax = k;
          continue;
        }
      off[p + 2] = 0;   /* no bucket */
      uint32_t x = first[2 * p], y = first[2 * p + 1];
      if (k == 2 && x && y)
        {
          const struct dag_node *sn = &d->node[x - 1], *rn = &d->node[y - 1];
          if (sn->proc == rn->peer && sn->tag == rn->tag)
            {
              if (!mate)
                mate = mate_new (n);
              mate[x - 1] = (int32_t) (y - 1);
              mate[y - 1] = (int32_t) (x - 1);
              same &= sn->u.bytes == rn->u.bytes;
            }
        }
    }
  free (first);
  if (!nbig)
    {
      free (off);
      *same_bytes = same;
      return mate;
    }
  for (size_t p = 0; p < np; p++)
    off[p + 2] += off[p + 1];
  /* off[p + 1]: where receiver p's operations go, then their end; a
     receiver without a bucket has off[p + 1] == off[p + 2] throughout,
     and a receiver's bucket is full only once its last operation is
     in */
  struct chan_op *a = dag_hugepages (big_alloc (nbig * sizeof *a),
                                     nbig * sizeof *a);
  for (size_t v = 0; v < n; v++)
    {
      const struct dag_node *nd = &d->node[v];
      if (nd->derived || nd->op == DAG_CALC)
        continue;
      int snd = nd->op == DAG_SEND;
      int32_t p = snd ? nd->peer : nd->proc;
      if (off[p + 1] == off[p + 2])
        continue;
      struct chan_op *o = &a[off[p + 1]++];
      o->src = snd ? nd->proc : nd->peer;
      o->tag = nd->tag;
      o->v = snd ? (int32_t) v : (int32_t) ((uint32_t) v | 0x80000000u);
    }
  size_t cap = 4;
  while (cap < 2 * kmax)
    cap *= 2;
  struct chan_slot *t = xcalloc (cap, sizeof *t);
  for (size_t p = 0; p < np; p++)
    {
      size_t k = off[p + 1] - off[p];
      size_t c = 4;
      while (c < 2 * k)
        c *= 2;
      pair_receiver (a + off[p], k, t, c, &mate, n);
    }
  free (t);
  big_free (a);
  free (off);
  return mate;
}
