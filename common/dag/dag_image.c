/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_image.c: an indexed operation graph as one block of bytes (see
   dag_image.h).  */
#include <config.h>

#include <math.h>
#include <string.h>

#include "bigmem.h"
#include "dag_image.h"

#define BYTE_ORDER_MARK UINT32_C (0x01020304)
#define ALIGN 8

static uint64_t
rotl (uint64_t x, int k)
{
  return (x << k) | (x >> (64 - k));
}

static uint64_t
load64 (const unsigned char *p)
{
  uint64_t w;
  memcpy (&w, p, sizeof w);
  return w;
}

/* Multiply-rotate lanes (the round of xxHash64's family, written anew):
   each lane depends only on its own words, so the four run in parallel;
   every byte and the length reach the result.  */
#define K1 UINT64_C (0x9E3779B185EBCA87)
#define K2 UINT64_C (0xC2B2AE3D27D4EB4F)
#define K3 UINT64_C (0x165667B19E3779F9)

static uint64_t
lane (uint64_t acc, uint64_t w)
{
  return rotl (acc + w * K2, 31) * K1;
}

uint64_t
dag_image_sum (const void *p, size_t len, uint64_t h)
{
  const unsigned char *s = p;
  uint64_t a = h + K1 + K2, b = h + K2, c = h, d = h - K1;
  size_t i = 0;
  for (; i + 32 <= len; i += 32)
    {
      a = lane (a, load64 (s + i));
      b = lane (b, load64 (s + i + 8));
      c = lane (c, load64 (s + i + 16));
      d = lane (d, load64 (s + i + 24));
    }
  uint64_t r = rotl (a, 1) + rotl (b, 7) + rotl (c, 12) + rotl (d, 18);
  for (; i + 8 <= len; i += 8)
    r = rotl (r ^ lane (0, load64 (s + i)), 27) * K1 + K3;
  for (; i < len; i++)
    r = rotl (r ^ (s[i] * K3), 11) * K1;
  r ^= (uint64_t) len;
  r ^= r >> 33;
  r *= K2;
  r ^= r >> 29;
  r *= K3;
  r ^= r >> 32;
  return r;
}

static uint64_t
align_up (uint64_t x)
{
  return (x + ALIGN - 1) / ALIGN * ALIGN;
}

size_t
dag_image_layout (const struct dag *d, const char *origin, int goal,
                  struct dag_image_header *hdr, struct dag_image_part *parts)
{
  memset (hdr, 0, sizeof *hdr);
  memcpy (hdr->magic, DAG_IMAGE_MAGIC, sizeof hdr->magic);
  hdr->version = DAG_IMAGE_VERSION;
  hdr->byte_order = BYTE_ORDER_MARK;
  hdr->node_size = sizeof (struct dag_node);
  hdr->flags = (goal ? DAG_IMAGE_GOAL : 0)
               | (d->has_wildcard ? DAG_IMAGE_WILDCARD : 0)
               | (d->may_pair ? DAG_IMAGE_MAY_PAIR : 0)
               | (d->has_irequires ? DAG_IMAGE_IREQUIRES : 0);
  hdr->n = d->n;
  hdr->ne = d->n ? d->succ_off[d->n] : 0;
  hdr->pool_len = d->pool ? d->pool_len : 0;
  hdr->nprocs = d->nprocs;
  hdr->maxcpu = d->maxcpu;
  hdr->maxnic = d->maxnic;

  const void *p[DAG_IMAGE_NARRAYS] = {
    d->node, d->succ_off, d->succ, d->npred, d->name_of, d->line_of,
    d->pool, origin
  };
  size_t len[DAG_IMAGE_NARRAYS] = {
    d->n * sizeof *d->node, (d->n + 1) * sizeof *d->succ_off,
    hdr->ne * sizeof *d->succ, d->n * sizeof *d->npred,
    d->name_of ? d->n * sizeof *d->name_of : 0,
    d->line_of ? d->n * sizeof *d->line_of : 0,
    (size_t) hdr->pool_len, strlen (origin) + 1
  };
  size_t np = 0;
  parts[np].off = 0;
  parts[np].p = hdr;
  parts[np++].len = sizeof *hdr;
  uint64_t at = align_up (sizeof *hdr), sum = 0;
  for (int k = 0; k < DAG_IMAGE_NARRAYS; k++)
    {
      if (!p[k] || !len[k])
        continue;
      hdr->off[k] = at;
      hdr->len[k] = len[k];
      parts[np].off = at;
      parts[np].p = p[k];
      parts[np++].len = len[k];
      sum = dag_image_sum (p[k], len[k], sum);
      at = align_up (at + len[k]);
    }
  hdr->total = at;
  hdr->checksum = sum;
  return np;
}

int
dag_image_is (const void *buf, size_t len)
{
  return len >= 8 && memcmp (buf, DAG_IMAGE_MAGIC, 8) == 0;
}

/* Are the operations' indices in range, and their values what a
   reader lets through (the simulator relies on both)?  *WILDCARD: is
   there a receive from any source or with any tag?  *MAY_PAIR: struct
   dag's may_pair of the operations (dag_may_pair, in the same pass).  */
static const char *
check_nodes (const struct dag_image_header *h, const struct dag_node *node,
             int *wildcard, int *may_pair)
{
  struct dag_pair_runs runs;
  memset (&runs, 0, sizeof runs);
  *wildcard = 0;
  for (uint64_t v = 0; v < h->n; v++)
    {
      const struct dag_node *x = &node[v];
      dag_pair_runs_add (&runs, x);
      if (x->op > DAG_RECV || x->derived > 1)
        return "an operation of an unknown kind";
      if (x->op == DAG_CALC && !(x->u.work >= 0 && isfinite (x->u.work)))
        return "a computation's time negative or not finite";
      if (x->op != DAG_CALC
          && (x->u.bytes < 0 || x->tag == INT32_MAX
              || (x->tag < 0 && (x->op == DAG_SEND || x->tag != DAG_ANY))))
        return "a message's size or tag out of range";
      if (x->op == DAG_RECV && (x->peer == DAG_ANY || x->tag == DAG_ANY))
        *wildcard = 1;
      if (x->proc < 0 || x->proc >= h->nprocs)
        return "an operation's processor out of range";
      if (x->cpu > h->maxcpu || x->nic > h->maxnic)
        return "an operation's cpu or nic out of range";
      if (x->op == DAG_SEND && (x->peer < 0 || x->peer >= h->nprocs))
        return "a send's destination out of range";
      if (x->op == DAG_RECV && x->peer != DAG_ANY
          && (x->peer < 0 || x->peer >= h->nprocs))
        return "a receive's source out of range";
      /* A message row's send is followed by its receive.  */
      if (x->derived && x->op == DAG_SEND
          && (v + 1 >= h->n || node[v + 1].op != DAG_RECV
              || !node[v + 1].derived || node[v + 1].proc != x->peer
              || node[v + 1].peer != x->proc || node[v + 1].tag != x->tag
              || node[v + 1].u.bytes != x->u.bytes))
        return "a message's send without its receive";
      if (x->derived && x->op == DAG_RECV
          && (v == 0 || node[v - 1].op != DAG_SEND || !node[v - 1].derived))
        return "a message's receive without its send";
    }
  *may_pair = dag_pair_runs_may_pair (&runs);
  return NULL;
}

/* The successor lists in range, each operation's predecessor count
   theirs.  *IREQUIRES: is there a dependency of kind DAG_IREQUIRES?  */
static const char *
check_succ (const struct dag_image_header *h, const uint32_t *off,
            const uint32_t *succ, const uint32_t *npred, int *irequires)
{
  *irequires = 0;
  if (off[0] != 0 || off[h->n] != h->ne)
    return "successor lists that do not cover the dependencies";
  for (uint64_t v = 0; v < h->n; v++)
    if (off[v + 1] < off[v])
      return "successor lists out of order";
  for (uint64_t e = 0; e < h->ne; e++)
    {
      if ((succ[e] >> 1) >= h->n)
        return "a dependency on an operation out of range";
      if (succ[e] & 1)
        *irequires = 1;
    }
  if (!h->n)
    return NULL;
  uint32_t *count = big_calloc (h->n, sizeof *count);
  for (uint64_t e = 0; e < h->ne; e++)
    count[succ[e] >> 1]++;
  const char *why = memcmp (count, npred, h->n * sizeof *count) != 0
                    ? "predecessor counts that do not match the dependencies"
                    : NULL;
  big_free (count);
  return why;
}

static const char *
check_names (const struct dag_image_header *h, const int32_t *name_of,
             const int32_t *line_of, const char *pool)
{
  if (h->pool_len && pool[h->pool_len - 1] != '\0')
    return "a name pool that does not end its last name";
  for (uint64_t v = 0; name_of && v < h->n; v++)
    if (name_of[v] < -1 || (name_of[v] >= 0
                            && (uint64_t) name_of[v] >= h->pool_len))
      return "an operation's name out of range";
  for (uint64_t v = 0; line_of && v < h->n; v++)
    if (line_of[v] < 0)
      return "an operation's input line out of range";
  return NULL;
}

/* Array K of the image at B, or NULL when absent.  */
static const void *
array (const unsigned char *b, const struct dag_image_header *h, int k)
{
  return h->len[k] ? b + h->off[k] : NULL;
}

const char *
dag_image_open (struct dag *d, const void *buf, size_t len, int *goal)
{
  const unsigned char *b = buf;
  struct dag_image_header h;
  if (!dag_image_is (buf, len))
    return "not a binary schedule (no magic number)";
  if (len < sizeof h)
    return "truncated header";
  memcpy (&h, buf, sizeof h);
  if (h.version != DAG_IMAGE_VERSION)
    return "a version of the format this program does not read";
  if (h.byte_order != BYTE_ORDER_MARK
      || h.node_size != sizeof (struct dag_node))
    return "written on a machine of another byte order or layout";
  if (h.total != len)
    return h.total > len ? "truncated (shorter than its header says)"
                         : "longer than its header says";
  if ((uintptr_t) buf % ALIGN)
    return "not aligned in memory";
  if (h.n > INT32_MAX / 2 || h.ne >= UINT32_MAX || h.pool_len > INT32_MAX
      || h.nprocs < 0 || h.maxcpu < 0 || h.maxcpu > DAG_MAX_CPU
      || h.maxnic < 0 || h.maxnic > DAG_MAX_NIC || (h.n && h.nprocs < 1)
      || (h.flags & ~(uint32_t) (DAG_IMAGE_GOAL | DAG_IMAGE_WILDCARD
                                 | DAG_IMAGE_MAY_PAIR | DAG_IMAGE_IREQUIRES)))
    return "a header out of range";
  /* Each array's length follows from the counts; absent ones are only
     the optional names and lines.  */
  const uint64_t want[DAG_IMAGE_NARRAYS] = {
    h.n * sizeof (struct dag_node), (h.n + 1) * sizeof (uint32_t),
    h.ne * sizeof (uint32_t), h.n * sizeof (uint32_t),
    h.n * sizeof (int32_t), h.n * sizeof (int32_t), h.pool_len, 0
  };
  uint64_t at = align_up (sizeof h), sum = 0;
  for (int k = 0; k < DAG_IMAGE_NARRAYS; k++)
    {
      /* Absent: the names and lines a schedule may lack, and arrays
         of no elements.  */
      if (h.len[k] == 0 && h.off[k] == 0
          && (k == DAG_IMAGE_NAME_OF || k == DAG_IMAGE_LINE_OF
              || (k != DAG_IMAGE_ORIGIN && want[k] == 0)))
        continue;
      if (h.off[k] != at || h.len[k] == 0 || h.len[k] > len - at
          || (k != DAG_IMAGE_ORIGIN && h.len[k] != want[k]))
        return "an array whose place or length does not match the header";
      sum = dag_image_sum (b + at, h.len[k], sum);
      at = align_up (at + h.len[k]);
    }
  if (at != h.total)
    return "an array whose place or length does not match the header";
  if (sum != h.checksum)
    return "damaged (its checksum does not match)";
  const char *origin = (const char *) b + h.off[DAG_IMAGE_ORIGIN];
  if (origin[h.len[DAG_IMAGE_ORIGIN] - 1] != '\0')
    return "a source name that does not end";

  const struct dag_node *node = array (b, &h, DAG_IMAGE_NODE);
  const uint32_t *off = array (b, &h, DAG_IMAGE_SUCC_OFF);
  const uint32_t *succ = array (b, &h, DAG_IMAGE_SUCC);
  const uint32_t *npred = array (b, &h, DAG_IMAGE_NPRED);
  const int32_t *name_of = array (b, &h, DAG_IMAGE_NAME_OF);
  const int32_t *line_of = array (b, &h, DAG_IMAGE_LINE_OF);
  const char *pool = array (b, &h, DAG_IMAGE_POOL);
  int wildcard, irequires, may_pair;
  const char *why = check_nodes (&h, node, &wildcard, &may_pair);
  if (!why)
    why = check_succ (&h, off, succ, npred, &irequires);
  if (!why)
    why = check_names (&h, name_of, line_of, pool);
  if (why)
    return why;
  /* The flags the simulator chooses its data structures by.  */
  if (wildcard != !!(h.flags & DAG_IMAGE_WILDCARD)
      || irequires != !!(h.flags & DAG_IMAGE_IREQUIRES)
      || may_pair != !!(h.flags & DAG_IMAGE_MAY_PAIR))
    return "flags that do not match its operations";

  /* The simulator only reads the arrays (const struct dag *); the casts
     drop const for struct dag's fields, which a builder writes.  */
  memset (d, 0, sizeof *d);
  d->node = (struct dag_node *) node;
  d->n = d->cap = h.n;
  d->name_of = (int32_t *) name_of;
  d->line_of = (int32_t *) line_of;
  d->nprocs = h.nprocs;
  d->maxcpu = h.maxcpu;
  d->maxnic = h.maxnic;
  d->succ_off = (uint32_t *) off;
  d->succ = (uint32_t *) succ;
  d->npred = (uint32_t *) npred;
  d->has_wildcard = !!(h.flags & DAG_IMAGE_WILDCARD);
  d->may_pair = !!(h.flags & DAG_IMAGE_MAY_PAIR);
  d->has_irequires = !!(h.flags & DAG_IMAGE_IREQUIRES);
  d->pool = (char *) pool;
  d->pool_len = d->pool_cap = h.pool_len;
  d->source = origin;
  d->mapped = 1;
  *goal = !!(h.flags & DAG_IMAGE_GOAL);
  return NULL;
}
