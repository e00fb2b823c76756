/* SPDX-License-Identifier: GPL-3.0-or-later */
/* matchq.h: the simulator's matching (dagsim.c): the hash queues of
 * posted receives and unexpected messages keyed by (receiver, source,
 * tag), and the channels of one send and one receive, paired before
 * the simulation.  */
#ifndef MSGPERF_MATCHQ_H
#define MSGPERF_MATCHQ_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"

/* Table RQ holds posted receives, UQ arrived unexpected messages.  Class
   bit 0: any source, bit 1: any tag.  */
enum { TBL_RQ = 0, TBL_UQ = 1 };

struct mq_slot
{
  int64_t tag;
  int32_t dst, src;
  int32_t head, tail;
  uint8_t key;         /* 1 + (table << 2 | class); 0 = empty slot */
};

struct mq
{
  struct mq_slot *slot;
  size_t cap, n;
  size_t nuq;          /* slots of table UQ: none, nothing to look up */
};

/* One mixing of the whole key: receiver and sender in one word, spread
   by a multiplication, the tag (an int32_t or DAG_ANY) and the table and
   class in the other (only the probes' order depends on it).  */
static inline uint64_t
mq_hash (int tk, int32_t dst, int32_t src, int64_t tag)
{
  uint64_t a = (uint64_t) (uint32_t) dst << 32 | (uint32_t) src;
  uint64_t b = (uint64_t) (uint32_t) tag << 3 | (uint64_t) tk;
  return dag_mix64 (a * UINT64_C (0x9e3779b97f4a7c15) ^ b);
}

void mq_grow (struct mq *m) __attribute__ ((noinline));

/* The slot of (TK, DST, SRC, TAG), or NULL when there is none and not
   CREATE.  Inline: a matching through the queues is a lookup or two. */
static inline struct mq_slot *
mq_get (struct mq *m, int tk, int32_t dst, int32_t src, int64_t tag,
        int create)
{
  if (create && 2 * (m->n + 1) > m->cap)
    mq_grow (m);
  if (!m->cap)
    return NULL;
  size_t mask = m->cap - 1;
  for (size_t i = mq_hash (tk, dst, src, tag) & mask;; i = (i + 1) & mask)
    {
      struct mq_slot *s = &m->slot[i];
      if (!s->key)
        {
          if (!create)
            return NULL;
          s->key = (uint8_t) (tk + 1);
          s->dst = dst;
          s->src = src;
          s->tag = tag;
          s->head = s->tail = -1;
          m->n++;
          m->nuq += tk >> 2 == TBL_UQ;
          return s;
        }
      if (s->key == tk + 1 && s->dst == dst && s->src == src
          && s->tag == tag)
        return s;
    }
}

/* Without wildcards: per operation of D (NP processors), the other end
   of its channel when the channel has one send and one receive, else
   -1; NULL when no channel has.  *SAME_BYTES: every pair's sizes are
   equal and made without buckets (see matchq.c).  */
int32_t *chan_pairs (const struct dag *d, size_t np, int *same_bytes);

#endif
