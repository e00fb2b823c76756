/* SPDX-License-Identifier: GPL-3.0-or-later */
/* evqueue.h: the simulator's queue of events (dagsim.c), ordered by
 * time and, within one time, by key.  */
#ifndef MSGPERF_EVQUEUE_H
#define MSGPERF_EVQUEUE_H

#include <stddef.h>
#include <stdint.h>

/* Events are ordered by (time, insertion order).  Schedules put many
   events at the same instant (every rank of a tree level acts at once),
   so the queue keeps one bucket per distinct time, an array of event
   keys: a hash map from the time to its bucket and a binary heap of the
   bucket times.  A push is a hash lookup and an append (plus a heap push
   for a new time); the earliest bucket's array becomes the round to run
   (no copy): O(1) per event and O(log T) per distinct time T, never worse
   than a heap of events.  */

enum { EV_OP = 0, EV_MSG = 1, EV_WAKE = 2, EV_RMSG = 3 };

/* An event's key: bits 62-63 its class (order within a round, see
   evq_pop), 32-61 the number that orders it within its class (the
   operation, or for a wake-up the processor's number in the DAG times
   W_NCLASS plus the line), 30-31 its type, 0-29 what the event acts on
   (the operation, or the wake-up's processor in the simulator's own
   numbering times W_NCLASS plus the line).  Rounds are sorted by bits
   30-63 only.  */
#define EV_KEY(cls, sort, type, v) \
  ((uint64_t) (cls) << 62 | (uint64_t) (sort) << 32 \
   | (uint64_t) (type) << 30 | (uint64_t) (v))
/* The type and the acted-on number of key K.  */
#define EV_TYPE(k) ((int) (((k) >> 30) & 3))
#define EV_NODE(k) ((int32_t) ((k) & 0x3fffffff))

struct bucket
{
  double t;
  uint64_t *key;       /* the events at time t, in the order pushed */
  size_t n, cap;
  int32_t next_free;   /* free list */
};

enum { HEAP_RECENT = 4 };

struct evq
{
  struct bucket *b;    /* bucket pool, with a free list */
  size_t nb, bcap;
  int32_t free_b;
  int nbig_free;       /* free buckets holding a big array */
  /* The buckets of the last pushes to distinct times (-1: none), the
     most recent at last_b[last_i]: a schedule's pushes alternate
     between a few times (a send's message and what its end frees).  */
  int32_t last_b[HEAP_RECENT];
  int last_i;
  int vbits;           /* width of the ordering numbers (EV_KEY) */
  int32_t *hp;         /* heap of bucket indices by time */
  size_t n, hcap;
  int32_t *map;        /* open addressing: time -> bucket, -1 empty */
  size_t mcap, mused;
  /* The batch being run: the array of the earliest bucket, sorted by
     key (EV_KEY).  */
  uint64_t *batch, *tmp;
  size_t blen, bpos, batch_cap, tmp_cap;
  double btime;
};

void evq_init (struct evq *h);
void evq_free (struct evq *h);
/* Room for N more events at time T (pushed next).  */
void evq_room (struct evq *h, double t, size_t n);
void evq_push_slow (struct evq *h, double t, uint64_t key)
  __attribute__ ((noinline));
void evq_next_round (struct evq *h);
void evq_insert (struct evq *h, uint64_t key);
/* The array of event keys P, N of them in use, given room for CAP.  */
uint64_t *evq_keys_grow (uint64_t *p, size_t n, size_t cap);
/* qsort's comparison of two uint64_t.  */
int evq_cmp_u64 (const void *x, const void *y);

/* Pushes come in runs for a few times: the recent buckets (last_b),
   if one has time T and room, else evq_push_slow.  */
static inline void
evq_push (struct evq *h, double t, uint64_t key)
{
  for (int k = 0; k < HEAP_RECENT; k++)
    {
      int32_t bk = h->last_b[k];
      if (bk >= 0 && h->b[bk].t == t)
        {
          struct bucket *b = &h->b[bk];
          if (b->n < b->cap)
            {
              b->key[b->n++] = key;
              return;
            }
          break;
        }
    }
  evq_push_slow (h, t, key);
}

/* Is there an event left?  */
static inline int
evq_pending (const struct evq *h)
{
  return h->bpos < h->blen || h->n > 0;
}

static inline void
evq_pop (struct evq *h, double *t, int *type, int32_t *v, uint32_t *sort)
{
  if (h->bpos == h->blen)
    evq_next_round (h);
  uint64_t k = h->batch[h->bpos++];
  *t = h->btime;
  *type = EV_TYPE (k);
  *v = EV_NODE (k);
  *sort = (uint32_t) ((k >> 32) & 0x3fffffff);
}

#endif
