/* SPDX-License-Identifier: GPL-3.0-or-later */
/* evqueue.c: the simulator's queue of events (evqueue.h).  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "dag.h"
#include "err.h"
#include "evqueue.h"
#include "xalloc.h"

/* A bucket that comes back to the free list keeps its array for the next
   time, unless it is big and a few big ones are kept already.  */
enum { BUCKET_BIG = 1 << 16, BUCKET_KEEP_BIG = 4 };
/* The array of event keys P, N of them in use, given room for CAP (P
   may be NULL).  A round can hold millions of events: a big array goes
   on huge pages (dag_hugepages), which the system hands out faster
   than as many 4 KiB pages, each a fault (a round of a million events
   grown by doubling took some 2,000 of them).  Such an
   array is not resized in place but copied into a new one: realloc
   cannot move a block part of whose pages were given huge pages (its
   mapping is split, mremap fails) and copies it into 4 KiB pages.  */
enum { KEYS_HUGE = 1 << 22 };   /* bytes: dag_hugepages' least */

uint64_t *
evq_keys_grow (uint64_t *p, size_t n, size_t cap)
{
  size_t len = cap * sizeof *p;
  if (len < KEYS_HUGE)
    return xrealloc (p, len);
  uint64_t *q = dag_hugepages (xmalloc (len), len);
  if (n)
    memcpy (q, p, n * sizeof *p);
  free (p);
  return q;
}

static inline uint64_t
time_hash (double t)
{
  uint64_t u;
  memcpy (&u, &t, sizeof u);
  return dag_mix64 (u);
}

static void
map_grow (struct evq *h)
{
  size_t cap = h->mcap ? 2 * h->mcap : 1024;
  int32_t *m = xmalloc (cap * sizeof *m);
  for (size_t i = 0; i < cap; i++)
    m[i] = -1;
  for (size_t i = 0; i < h->mcap; i++)
    if (h->map[i] >= 0)
      {
        size_t j = time_hash (h->b[h->map[i]].t) & (cap - 1);
        while (m[j] >= 0)
          j = (j + 1) & (cap - 1);
        m[j] = h->map[i];
      }
  free (h->map);
  h->map = m;
  h->mcap = cap;
}

/* Remove bucket B from the map (backward-shift deletion).  */
static void
map_remove (struct evq *h, int32_t bk)
{
  size_t mask = h->mcap - 1;
  size_t i = time_hash (h->b[bk].t) & mask;
  while (h->map[i] != bk)
    i = (i + 1) & mask;
  for (;;)
    {
      h->map[i] = -1;
      size_t j = i;
      for (;;)
        {
          j = (j + 1) & mask;
          if (h->map[j] < 0)
            {
              h->mused--;
              return;
            }
          size_t k = time_hash (h->b[h->map[j]].t) & mask;
          /* can the entry at j move to i?  */
          if ((i <= j) ? (i < k && k <= j) : (i < k || k <= j))
            continue;
          h->map[i] = h->map[j];
          i = j;
          break;
        }
    }
}

static void
hp_up (struct evq *h, size_t i)
{
  int32_t x = h->hp[i];
  double t = h->b[x].t;
  while (i > 0)
    {
      size_t p = (i - 1) / 2;
      if (!(t < h->b[h->hp[p]].t))
        break;
      h->hp[i] = h->hp[p];
      i = p;
    }
  h->hp[i] = x;
}

static void
hp_down (struct evq *h)
{
  size_t i = 0, n = h->n;
  int32_t x = h->hp[0];
  double t = h->b[x].t;
  for (;;)
    {
      size_t c = 2 * i + 1;
      if (c >= n)
        break;
      if (c + 1 < n && h->b[h->hp[c + 1]].t < h->b[h->hp[c]].t)
        c++;
      if (!(h->b[h->hp[c]].t < t))
        break;
      h->hp[i] = h->hp[c];
      i = c;
    }
  h->hp[i] = x;
}


/* The bucket of time T, made if there is none, and among the recent
   ones.  */
static int32_t
bucket_at (struct evq *h, double t)
{
  if (t == 0)
    t = 0;   /* one bucket for -0 and +0 */
  if (2 * (h->mused + 1) > h->mcap)
    map_grow (h);
  size_t mask = h->mcap - 1;
  size_t i = time_hash (t) & mask;
  while (h->map[i] >= 0 && h->b[h->map[i]].t != t)
    i = (i + 1) & mask;
  int32_t bk = h->map[i];
  if (bk < 0)
    {
      if (h->free_b >= 0)
        {
          bk = h->free_b;
          h->free_b = h->b[bk].next_free;
          if (h->b[bk].cap > BUCKET_BIG)
            h->nbig_free--;
        }
      else
        {
          if (h->nb == h->bcap)
            {
              h->bcap = h->bcap ? 2 * h->bcap : 1024;
              if (h->bcap > INT32_MAX)
                die ("out of memory (over 2^31 distinct event times)");
              h->b = xrealloc (h->b, h->bcap * sizeof *h->b);
            }
          bk = (int32_t) h->nb++;
          h->b[bk].key = NULL;
          h->b[bk].cap = 0;
        }
      h->b[bk].t = t;
      h->b[bk].n = 0;
      h->map[i] = bk;
      h->mused++;
      if (h->n == h->hcap)
        {
          h->hcap = h->hcap ? 2 * h->hcap : 1024;
          h->hp = xrealloc (h->hp, h->hcap * sizeof *h->hp);
        }
      h->hp[h->n++] = bk;
      hp_up (h, h->n - 1);
    }
  int r = 0;
  while (r < HEAP_RECENT && h->last_b[r] != bk)
    r++;
  if (r == HEAP_RECENT)
    {
      /* replace the oldest */
      h->last_i = (h->last_i + 1) % HEAP_RECENT;
      h->last_b[h->last_i] = bk;
    }
  return bk;
}

void
evq_push_slow (struct evq *h, double t, uint64_t key)
{
  int32_t bk = bucket_at (h, t);   /* (may move h->b) */
  struct bucket *b = &h->b[bk];
  if (b->n == b->cap)
    {
      size_t cap = b->cap ? 2 * b->cap : 16;
      b->key = evq_keys_grow (b->key, b->n, cap);
      b->cap = cap;
    }
  b->key[b->n++] = key;
}

/* Room for N more events at time T, made at once rather than by
   doubling and mapped in (a round whose size is known: the operations
   free at the start).  */
void
evq_room (struct evq *h, double t, size_t n)
{
  int32_t bk = bucket_at (h, t);   /* (may move h->b) */
  struct bucket *b = &h->b[bk];
  if (b->cap - b->n < n)
    {
      b->key = evq_keys_grow (b->key, b->n, b->n + n);
      b->cap = b->n + n;
    }
  dag_populate (b->key + b->n, n * sizeof *b->key);
}

int
evq_cmp_u64 (const void *x, const void *y)
{
  uint64_t a = *(const uint64_t *) x, b = *(const uint64_t *) y;
  return (a > b) - (a < b);
}

/* The sort order of key K as a number of VB + 4 bits: class, the
   ordering number (VB bits wide), type.  */
static inline uint64_t
compact_key (uint64_t k, int vb)
{
  return (k >> 62) << (vb + 2) | ((k >> 32) & ((UINT64_C (1) << vb) - 1)) << 2
         | ((k >> 30) & 3);
}

/* Runs in order a batch may have to be merged rather than sorted.  */
enum { MERGE_RUNS = 16 };

/* The number of runs in order of the N keys of A (at most MERGE_RUNS +
   1: more is not counted), and their starts in START (room for
   MERGE_RUNS + 1, and the end N after the last).  */
static size_t
count_runs (const uint64_t *a, size_t n, size_t *start)
{
  size_t runs = 1;
  start[0] = 0;
  for (size_t i = 1; i < n; i++)
    if (a[i - 1] > a[i])
      {
        if (runs == MERGE_RUNS)
          return runs + 1;
        start[runs++] = i;
      }
  start[runs] = n;
  return runs;
}

/* Sort the N keys of A made of RUNS runs in order beginning at START
   (count_runs) by merging neighbouring runs, in passes between A and
   TMP (room for N).  */
static void
merge_runs (uint64_t *a, uint64_t *tmp, size_t n, size_t runs,
            size_t *start)
{
  uint64_t *src = a, *dst = tmp;
  while (runs > 1)
    {
      size_t k = 0;
      for (size_t r = 0; r < runs; r += 2)
        {
          size_t lo = start[r], mid = start[r + 1];
          size_t hi = r + 2 <= runs ? start[r + 2] : mid;
          size_t i = lo, j = mid, o = lo;
          while (i < mid && j < hi)
            dst[o++] = src[j] < src[i] ? src[j++] : src[i++];
          memcpy (dst + o, src + i, (mid - i) * sizeof *src);
          o += mid - i;
          memcpy (dst + o, src + j, (hi - j) * sizeof *src);
          start[k++] = lo;
        }
      start[k] = n;
      runs = k;
      uint64_t *x = src;
      src = dst;
      dst = x;
    }
  if (src != a)
    memcpy (a, src, n * sizeof *a);
}

/* Sort N event keys (EV_KEY) whose ordering numbers have at most VB
   bits: nothing when they are in order already (events pushed while a
   sorted round runs often are), else insertion sort, qsort, a merge
   when they come in a few runs in order (creation order: a round's
   events are stamped as they are pushed, but a waiting operation's
   wake-up brings its older stamp), or for big batches an LSD radix
   sort of the compact keys (compact_key; bits 0-29 of a key follow
   from the others) in passes of 13 bits, whose counters stay in the
   cache: two passes up to 2^22 operations.  */
static void
radix_sort (uint64_t *a, uint64_t *tmp, size_t n, int vb)
{
  size_t i = 1;
  while (i < n && a[i - 1] <= a[i])
    i++;
  if (i >= n)
    return;
  if (n >= 64)
    {
      size_t start[MERGE_RUNS + 1];
      size_t runs = count_runs (a, n, start);
      if (runs <= MERGE_RUNS)
        {
          merge_runs (a, tmp, n, runs, start);
          return;
        }
    }
  if (n < 64)
    {
      for (size_t k = 1; k < n; k++)
        {
          uint64_t x = a[k];
          size_t j = k;
          while (j > 0 && a[j - 1] > x)
            {
              a[j] = a[j - 1];
              j--;
            }
          a[j] = x;
        }
      return;
    }
  if (n < 1024)
    {
      qsort (a, n, sizeof *a, evq_cmp_u64);
      return;
    }
  enum { RBITS = 13, RSIZE = 1 << RBITS };
  static size_t cnt[RSIZE];
  uint64_t *src = a, *dst = tmp;
  for (int shift = 0; shift < vb + 4; shift += RBITS)
    {
      memset (cnt, 0, sizeof cnt);
      for (size_t j = 0; j < n; j++)
        cnt[(compact_key (src[j], vb) >> shift) & (RSIZE - 1)]++;
      if (cnt[(compact_key (src[0], vb) >> shift) & (RSIZE - 1)] == n)
        continue;   /* one digit for all: nothing to move */
      size_t sum = 0;
      for (size_t k = 0; k < RSIZE; k++)
        {
          size_t c = cnt[k];
          cnt[k] = sum;
          sum += c;
        }
      for (size_t j = 0; j < n; j++)
        dst[cnt[(compact_key (src[j], vb) >> shift) & (RSIZE - 1)]++]
          = src[j];
      uint64_t *x = src;
      src = dst;
      dst = x;
    }
  if (src != a)
    memcpy (a, src, n * sizeof *a);
}

/* Pop the next event: its time, type and node.  Events at one time run
   in rounds: those pending when the time is reached, then the ones that
   round created at the same time, and so on.  A round runs its sends
   first, then receives, computations and arriving messages (LogGOPSim
   also starts the operations freed together by type, sends first), each
   class in operation order, which also makes the sweep through memory
   sequential.  */
void
evq_next_round (struct evq *h)
{
  int32_t bk = h->hp[0];
  struct bucket *b = &h->b[bk];
  size_t n = b->n;
  if (n > h->tmp_cap)
    {
      h->tmp_cap = n + n / 2;
      free (h->tmp);
      h->tmp = evq_keys_grow (NULL, 0, h->tmp_cap);
    }
  /* The bucket's array becomes the batch, the spent batch array goes
     to the bucket, which returns to the free list.  */
  uint64_t *spent = h->batch;
  size_t spent_cap = h->batch_cap;
  h->batch = b->key;
  h->batch_cap = b->cap;
  radix_sort (h->batch, h->tmp, n, h->vbits);
  h->blen = n;
  h->bpos = 0;
  h->btime = b->t;
  map_remove (h, bk);
  for (int k = 0; k < HEAP_RECENT; k++)
    if (h->last_b[k] == bk)
      h->last_b[k] = -1;
  if (spent_cap > BUCKET_BIG && h->nbig_free >= BUCKET_KEEP_BIG)
    {
      free (spent);
      spent = NULL;
      spent_cap = 0;
    }
  if (spent_cap > BUCKET_BIG)
    h->nbig_free++;
  b->key = spent;
  b->cap = spent_cap;
  b->n = 0;
  b->next_free = h->free_b;
  h->free_b = bk;
  h->hp[0] = h->hp[--h->n];
  if (h->n)
    hp_down (h);
}

/* Put KEY into the round being run, in its sorted place among the
   events not yet run (an event of the current time whose place is
   before some of them: a waiting line's head, with its old stamp, that
   can go at once).  */
void
evq_insert (struct evq *h, uint64_t key)
{
  if (h->blen == h->batch_cap)
    {
      size_t cap = h->batch_cap ? 2 * h->batch_cap : 16;
      h->batch = evq_keys_grow (h->batch, h->blen, cap);
      h->batch_cap = cap;
    }
  size_t lo = h->bpos, hi = h->blen;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (h->batch[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  memmove (&h->batch[lo + 1], &h->batch[lo],
           (h->blen - lo) * sizeof *h->batch);
  h->batch[lo] = key;
  h->blen++;
}

void
evq_init (struct evq *h)
{
  memset (h, 0, sizeof *h);
  h->free_b = -1;
  for (int k = 0; k < HEAP_RECENT; k++)
    h->last_b[k] = -1;
}

void
evq_free (struct evq *h)
{
  for (size_t i = 0; i < h->nb; i++)
    free (h->b[i].key);
  free (h->b);
  free (h->hp);
  free (h->map);
  free (h->batch);
  free (h->tmp);
}
