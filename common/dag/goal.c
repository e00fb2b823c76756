/* SPDX-License-Identifier: GPL-3.0-or-later */
/* goal.c: reader of GOAL, the text schedule format of LogGOPSim (see
 * dag_parse.h for the grammar).  A hand-written tokenizer over the text:
 * no allocation per token or per operation (the DAG's arrays and the
 * label table grow by doubling), one pass, errors with line and column.
 *
 * Speed: a Schedgen schedule of millions of operations is mostly
 * "lN: send Sb to R tag T" and "lN requires lM" lines, which a fast path
 * reads in one pass over their bytes (see fast_line; anything else goes
 * to the general tokenizer).  Labels are local to their rank block, and
 * a rank block is given once, so the label tables hold one block's
 * labels at a time (small, in cache) instead of every rank's.  A label
 * lN is found by its number N in an array, any other by its name in a
 * hash table, unless it names its block's operation number N (from 0)
 * and ends in N, as msgperf-trace's c0, s1, r2, ... do: such a label is
 * kept nowhere but in its operation's name (see struct labels).  The
 * names go to the DAG's name pool, each lN once for the whole
 * schedule.  Plain decimal numbers, the common case, are read by
 * a short loop; anything else goes through num.h, which also words the
 * errors.
 *
 * The DAG's arrays are reserved from the text's size at the start
 * (dag_expect), so that they never move, on huge pages; a file's text
 * is read in pieces into one buffer (goal_parse_fd).  */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dag_parse.h"
#include "err.h"
#include "xalloc.h"
#include "num.h"
#include "readfile.h"

struct tok
{
  const char *s;
  size_t len;
  long col;            /* 1-based column */
};

/* A label's operation, and the rank block it was defined in (block
   number + 1; entries of earlier blocks count as undefined, so that no
   table is ever cleared).  */
struct label_val
{
  int32_t node;
  uint32_t block;      /* 0 = never used */
};

/* A label of the hash table: its name (an offset in the DAG's name
   pool, NUL-terminated there) and hash.  */
struct label_slot
{
  uint32_t hash;
  int32_t name;
  struct label_val v;
};

/* Labels "l<N>", Schedgen's (N decimal without leading zeros, below
   LABEL_DENSE_MAX), are kept in an array indexed by N: no hash, no
   comparison of names.  Every other label goes to the hash table.
   Which table holds a label depends on its name alone (the hash
   table's may be in place instead, struct labels), so a label is
   looked for in one table only.  The bound keeps a stray l99999999
   from costing more than 12 MiB.  */
#define LABEL_DENSE_MAX ((uint32_t) 1 << 20)

/* A label other than l<N> that ends in a number N (up to
   LABEL_PLACE_DIGITS digits) and names its block's operation number N
   (0-based) is "in place": it is not put in the hash table, but found
   at that operation, whose name is compared with it.  A trace's
   schedule (msgperf-trace goal: c0, s1, r2, ... over tens of millions
   of operations a rank) then needs no table at all, where its hash
   table had taken 32 to 64 bytes a label of the largest block (2 GiB
   for 45 million, 3 GiB while it doubled).  A label is in place or in
   the table, never both (a second definition is an error either way),
   and a label not in place is looked for in the table.  */
#define LABEL_PLACE_DIGITS 9

struct labels
{
  struct label_slot *slot;
  size_t cap, n;       /* n: hashed labels of the current block */
  size_t first;        /* the current block's first operation */
  /* What label_place gives for a label in place: block 0 when it is
     new, the current block when it is defined already.  */
  struct label_val spare;
  struct label_val *dense;
  /* Per l<N>: 1 + the offset of its name in the DAG's name pool, 0
     until it is first used.  Every rank block of a Schedgen schedule
     has l1, l2, ...: the pool holds each name once, not once per rank,
     for the operations' names (which are only read as strings).  */
  int32_t *dense_name;
  uint32_t dcap;       /* entries of dense and dense_name */
  uint32_t block;
};

/* A label as looked for: dense (KEY is N of "l<N>") or hashed (KEY is
   the hash).  */
struct lkey
{
  const char *s;
  size_t len;
  uint32_t key;
  int dense;
  int64_t place;       /* not dense: its number N (struct labels), or -1 */
};

/* The numbers part of the last send and the last receive line the fast
   path read (from the byte count to the newline, 8 to MEMO_MAX bytes,
   where it is in the text, or in KEEP once the text's buffer moves on)
   and their values: a line that repeats
   it (a ring's or a pipeline's sends and receives, one after another)
   is compared in two or four words and takes the numbers as they are,
   instead of reading them again.  After MEMO_TRIES misses in a row
   (a broadcast's peers all differ) the memo rests for MEMO_REST lines,
   so that such a text pays for a few comparisons only.  */
enum { MEMO_MIN = 8, MEMO_MAX = 32, MEMO_TRIES = 16, MEMO_REST = 256 };
struct op_memo
{
  const char *s;             /* NULL: none yet */
  size_t len;
  int64_t size, peer, tag;
  char keep[MEMO_MAX];
  unsigned misses;
  long until;                /* resting before this line */
};

struct goal
{
  const char *end, *p;       /* the text (or the chunk) read, from P */
  const char *last_nl;       /* its last newline, or NULL */
  const char *name;
  long line;
  const char *line_start;
  int in_comment;
  struct dag *d;
  struct labels labels;      /* the current rank block's labels */
  int64_t num_ranks;         /* -1 until num_ranks */
  int64_t rank;              /* -1 outside a rank block */
  uint8_t *rank_seen;        /* a bit per rank: its block was read (a
                                bit, not a byte: num_ranks may be 2^31) */
  int64_t nblocks;           /* rank blocks read */
  long ranks_line, ranks_col; /* where num_ranks was given */
  long open_line;            /* line of the open rank block */
  struct op_memo memo[2];    /* of recv and send lines */
};

static int
tok_is (const struct tok *t, const char *w)
{
  return t->len == strlen (w) && memcmp (t->s, w, t->len) == 0;
}

/* ------------------------------------------------------------ labels */

/* The hash of a label: H, the running value h * 33 + c over its bytes
   from 0 (which the fast path of a line computes as it scans), mixed
   with its length.  */
static inline uint32_t
label_hash_end (uint64_t h, size_t len)
{
  return (uint32_t) dag_mix64 (h + len);
}

/* Is S (LEN bytes) "l<N>" with N below LABEL_DENSE_MAX, without
   leading zeros?  Sets *N.  */
static int
label_number (const char *s, size_t len, uint32_t *n)
{
  if (len < 2 || len > 8 || s[0] != 'l' || (s[1] == '0' && len > 2))
    return 0;
  uint32_t v = 0;
  for (size_t i = 1; i < len; i++)
    {
      if ((unsigned) (s[i] - '0') >= 10)
        return 0;
      v = v * 10 + (uint32_t) (s[i] - '0');
    }
  if (v >= LABEL_DENSE_MAX)
    return 0;
  *n = v;
  return 1;
}

/* The number a label S (LEN bytes, not dense) ends in, of 1 to
   LABEL_PLACE_DIGITS digits, or -1.  */
static int64_t
label_place_number (const char *s, size_t len)
{
  size_t i = len;
  while (i > 1 && (unsigned) (s[i - 1] - '0') < 10)
    i--;
  if (i == len || len - i > LABEL_PLACE_DIGITS)
    return -1;
  int64_t v = 0;
  for (; i < len; i++)
    v = v * 10 + (s[i] - '0');
  return v;
}

/* The operation of label K (not dense) in place in the current block
   (struct labels), or -1.  */
static inline int32_t
label_in_place (const struct labels *lt, const struct dag *d,
                const struct lkey *k)
{
  if (k->place < 0 || !d->name_of
      || (uint64_t) k->place >= d->n - lt->first)
    return -1;
  size_t v = lt->first + (size_t) k->place;
  int32_t nm = d->name_of[v];
  if (nm < 0)
    return -1;
  /* K has no NUL (labels are identifiers): compare up to the name's */
  const char *name = d->pool + nm;
  size_t j = 0;
  while (j < k->len && name[j] == k->s[j])
    j++;
  return j == k->len && name[k->len] == '\0' ? (int32_t) v : -1;
}

/* The key of label S (LEN bytes).  */
static void
lkey_of (struct lkey *k, const char *s, size_t len)
{
  k->s = s;
  k->len = len;
  k->dense = label_number (s, len, &k->key);
  k->place = -1;
  if (!k->dense)
    {
      uint64_t h = 0;
      for (size_t i = 0; i < len; i++)
        h = (h << 5) + h + (unsigned char) s[i];
      k->key = label_hash_end (h, len);
      k->place = label_place_number (s, len);
    }
}

/* The slot of hashed label K in the current block, or the empty slot
   where it goes.  */
static struct label_slot *
label_slot_of (const struct labels *lt, const struct dag *d,
               const struct lkey *k)
{
  size_t mask = lt->cap - 1;
  for (size_t i = k->key & mask;; i = (i + 1) & mask)
    {
      struct label_slot *sl = &lt->slot[i];
      if (sl->v.block != lt->block)
        return sl;
      if (sl->hash != k->key)
        continue;
      /* K has no NUL (labels are identifiers): compare up to the
         name's.  */
      const char *name = d->pool + sl->name;
      size_t j = 0;
      while (j < k->len && name[j] == k->s[j])
        j++;
      if (j == k->len && name[k->len] == '\0')
        return sl;
    }
}

/* The operation of label K in the current block, or -1.  */
static inline int32_t
label_get (const struct labels *lt, const struct dag *d,
           const struct lkey *k)
{
  const struct label_val *v;
  if (k->dense)
    {
      if (k->key >= lt->dcap)
        return -1;
      v = &lt->dense[k->key];
    }
  else
    {
      int32_t at = label_in_place (lt, d, k);
      if (at >= 0)
        return at;
      v = &label_slot_of (lt, d, k)->v;
    }
  return v->block == lt->block ? v->node : -1;
}

/* Room for one more hashed label of the current block (at most half
   full).  Returns whether the table moved.  */
static int
labels_grow (struct labels *lt)
{
  if (2 * (lt->n + 1) <= lt->cap)
    return 0;
  size_t cap = lt->cap ? 2 * lt->cap : 256;
  struct label_slot *old = lt->slot;
  size_t oldcap = lt->cap;
  lt->slot = xcalloc (cap, sizeof *lt->slot);
  lt->cap = cap;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].v.block == lt->block)
      {
        size_t j = old[i].hash & (cap - 1);
        while (lt->slot[j].v.block == lt->block)
          j = (j + 1) & (cap - 1);
        lt->slot[j] = old[i];
      }
  free (old);
  return 1;
}

/* Room in the dense table for label number N (< LABEL_DENSE_MAX).  */
static void
labels_grow_dense (struct labels *lt, uint32_t n)
{
  if (n < lt->dcap)
    return;
  uint32_t cap = lt->dcap ? lt->dcap : 1024;
  while (cap <= n)
    cap *= 2;
  lt->dense = xrealloc (lt->dense, cap * sizeof *lt->dense);
  memset (lt->dense + lt->dcap, 0, (cap - lt->dcap) * sizeof *lt->dense);
  lt->dense_name = xrealloc (lt->dense_name, cap * sizeof *lt->dense_name);
  memset (lt->dense_name + lt->dcap, 0,
          (cap - lt->dcap) * sizeof *lt->dense_name);
  lt->dcap = cap;
}

/* Where label K of the operation about to be added (d->n) goes: its
   entry, defined already when its block is the current one.  *SLOT is
   its hash slot (NULL when dense or in place), to be given to
   label_set.  */
static inline struct label_val *
label_place (struct labels *lt, const struct dag *d, const struct lkey *k,
             struct label_slot **slot)
{
  *slot = NULL;
  if (k->dense)
    {
      if (k->key >= lt->dcap)
        labels_grow_dense (lt, k->key);
      return &lt->dense[k->key];
    }
  if (label_in_place (lt, d, k) >= 0)
    {
      lt->spare.block = lt->block;
      return &lt->spare;
    }
  struct label_slot *sl = label_slot_of (lt, d, k);
  if (sl->v.block != lt->block && k->place >= 0
      && (uint64_t) k->place == d->n - lt->first)
    {
      lt->spare.block = 0;
      return &lt->spare;
    }
  if (sl->v.block != lt->block && labels_grow (lt))
    sl = label_slot_of (lt, d, k);
  *slot = sl;
  return &sl->v;
}

/* The name of label K in the DAG's name pool, once label_place has
   given it its place.  */
static inline int32_t
label_name (struct labels *lt, struct dag *d, const struct lkey *k)
{
  if (!k->dense)
    return dag_intern (d, k->s, k->len);
  int32_t *nm = &lt->dense_name[k->key];
  if (!*nm)
    *nm = dag_intern (d, k->s, k->len) + 1;
  return *nm - 1;
}

/* Define label K, named NAME in the pool, as operation NODE at V, the
   place label_place gave (nothing added since).  */
static inline void
label_set (struct labels *lt, struct label_val *v, struct label_slot *slot,
           const struct lkey *k, int32_t name, int32_t node)
{
  v->node = node;
  v->block = lt->block;
  if (slot)
    {
      slot->hash = k->key;
      slot->name = name;
      lt->n++;
    }
}

/* Start the labels of a new rank block, whose first operation is
   FIRST.  */
static void
labels_new_block (struct labels *lt, size_t first)
{
  lt->n = 0;
  lt->first = first;
  if (++lt->block == 0)
    {
      /* 2^32 blocks: wrap around without mistaking old entries.  */
      memset (lt->slot, 0, lt->cap * sizeof *lt->slot);
      memset (lt->dense, 0, lt->dcap * sizeof *lt->dense);
      lt->block = 1;
    }
}

/* ------------------------------------------------------------ tokens */

#define MAXTOK 16

/* Characters that end a word: blanks, ':', '{', '}', and '/' when a
   comment starts there (checked apart); and the line's end, a sentinel
   that spares the word loop a bounds check on every line but a last
   one without a newline.  */
static const uint8_t word_end[256] = {
  [' '] = 1, ['\t'] = 1, ['\r'] = 1, [':'] = 1, ['{'] = 1, ['}'] = 1,
  ['/'] = 2, ['\n'] = 1
};

/* Split the current line into tokens (a ':' ending a word, or standing
   alone, is its own token); strip comments, keeping block comments open
   across lines.  Returns the number of tokens, or -1 at the end.  */
static int
next_line (struct goal *g, struct tok *tk)
{
  if (g->p >= g->end)
    return -1;
  g->line++;
  g->line_start = g->p;
  const char *eol = memchr (g->p, '\n', (size_t) (g->end - g->p));
  if (!eol)
    eol = g->end;
  int n = 0;
  const char *q = g->p;
  while (q < eol)
    {
      if (g->in_comment)
        {
          if (q + 1 < eol && q[0] == '*' && q[1] == '/')
            {
              g->in_comment = 0;
              q += 2;
            }
          else
            q++;
          continue;
        }
      if (*q == ' ' || *q == '\t' || *q == '\r')
        {
          q++;
          continue;
        }
      if (q + 1 < eol && q[0] == '/' && q[1] == '/')
        break;
      if (q + 1 < eol && q[0] == '/' && q[1] == '*')
        {
          g->in_comment = 1;
          q += 2;
          continue;
        }
      if (*q == '\0')
        die_at (g->name, g->line, (long) (q - g->line_start) + 1,
                "NUL byte in the schedule");
      const char *s = q;
      if (*q == ':' || *q == '{' || *q == '}')
        q++;
      else
        for (;;)
          {
            if (eol < g->end)    /* *eol is the newline */
              while (!word_end[(unsigned char) *q])
                q++;
            else
              while (q < eol && !word_end[(unsigned char) *q])
                q++;
            /* a '/' not starting a comment is part of the word */
            if (q < eol && *q == '/' && !(q + 1 < eol && (q[1] == '/'
                                                         || q[1] == '*')))
              q++;
            else
              break;
          }
      if (n == MAXTOK)
        die_at (g->name, g->line, (long) (s - g->line_start) + 1,
                "too many words on one line");
      tk[n].s = s;
      tk[n].len = (size_t) (q - s);
      tk[n].col = (long) (s - g->line_start) + 1;
      n++;
    }
  g->p = eol < g->end ? eol + 1 : eol;
  return n;
}

ERR_NORETURN static void
bad (struct goal *g, const struct tok *t, const char *what)
{
  char text[64];
  size_t len = t->len < sizeof text - 1 ? t->len : sizeof text - 1;
  memcpy (text, t->s, len);
  text[len] = '\0';
  die_at (g->name, g->line, t->col, "expected %s, found '%s'", what, text);
}

ERR_NORETURN static void
missing (struct goal *g, const struct tok *last, const char *what)
{
  die_at (g->name, g->line, last ? last->col + (long) last->len : 1,
          "expected %s at the end of the line", what);
}

/* A non-negative integer in [0, MAX].  */
static int64_t
integer (struct goal *g, const struct tok *t, int64_t max, const char *what)
{
  /* The common case: up to 18 decimal digits (no overflow), in range.  */
  if (t->len && t->len <= 18)
    {
      uint64_t u = 0;
      size_t i = 0;
      for (; i < t->len && (unsigned) (t->s[i] - '0') < 10; i++)
        u = u * 10 + (uint64_t) (t->s[i] - '0');
      if (i == t->len && u <= (uint64_t) max)
        return (int64_t) u;
    }
  int64_t v;
  enum num_status st = num_parse_int64 (t->s, t->len, &v);
  if (st != NUM_OK || t->s[0] == '+' || t->s[0] == '-')
    {
      if (st == NUM_OK && v < 0)
        {
          char text[64];
          snprintf (text, sizeof text, "%.*s", (int) (t->len < 60 ? t->len
                                                          : 60), t->s);
          die_at (g->name, g->line, t->col, "%s must be >= 0, not '%s'",
                  what, text);
        }
      if (st != NUM_RANGE || t->s[0] == '+' || t->s[0] == '-')
        bad (g, t, what);
    }
  if (st == NUM_RANGE || v > max)
    {
      char text[64];
      snprintf (text, sizeof text, "%.*s", (int) (t->len < 60 ? t->len
                                                          : 60), t->s);
      die_at (g->name, g->line, t->col, "%s '%s' out of range (0 to %"
              PRId64 ")", what, text, max);
    }
  return v;
}

static int32_t
rank_of (struct goal *g, const struct tok *t, int any_ok)
{
  if (any_ok && tok_is (t, "-1"))
    return DAG_ANY;
  int64_t r = integer (g, t, INT32_MAX - 1, "a rank");
  if (r >= g->num_ranks)
    die_at (g->name, g->line, t->col, "rank %" PRId64 " out of range "
            "(num_ranks is %" PRId64 ")", r, g->num_ranks);
  return (int32_t) r;
}

/* "Sb" or "S b": the message size.  Returns the index of the next
   token.  */
static int
size_of (struct goal *g, const struct tok *tk, int n, int i, int64_t *bytes)
{
  if (i >= n)
    missing (g, &tk[i - 1], "a size such as '8b'");
  struct tok t = tk[i];
  int bsep = 0;
  if (t.len >= 2 && t.s[t.len - 1] == 'b')
    t.len--;
  else if (i + 1 < n && tok_is (&tk[i + 1], "b"))
    bsep = 1;
  else
    bad (g, &tk[i], "a size in bytes such as '8b'");
  *bytes = integer (g, &t, INT64_MAX / 2, "a size in bytes");
  return i + 1 + bsep;
}

/* Trailing "cpu C" / "nic N": which of its rank's CPUs and NICs the
   operation uses (*CPU, *NIC; 0 when not given).  */
static int
cpu_nic (struct goal *g, const struct tok *tk, int n, int i, int nic_ok,
         int *cpu, int *nic)
{
  int seen_cpu = 0, seen_nic = 0;
  *cpu = *nic = 0;
  while (i < n)
    {
      int is_cpu = tok_is (&tk[i], "cpu"), is_nic = tok_is (&tk[i], "nic");
      if (!(is_cpu && !seen_cpu && !seen_nic) && !(is_nic && nic_ok
                                                   && !seen_nic))
        bad (g, &tk[i], nic_ok ? "'cpu', 'nic' or the end of the "
             "line" : "'cpu' or the end of the line");
      if (i + 1 >= n)
        missing (g, &tk[i], "an integer");
      int64_t v = integer (g, &tk[i + 1], is_cpu ? DAG_MAX_CPU
                           : DAG_MAX_NIC, is_cpu ? "a cpu" : "a nic");
      if (is_cpu)
        *cpu = (int) v;
      else
        *nic = (int) v;
      seen_cpu |= is_cpu;
      seen_nic |= is_nic;
      i += 2;
    }
  return i;
}

/* The label LABEL (or NULL) of the operation about to be added, once
   the rest of its line has been read: checked (a label defined twice is
   an error) and given its place (*LV and *SLOT, for label_set) and
   name in the pool (returned; -1 without a label).  */
static int32_t
new_label (struct goal *g, const struct tok *label, struct lkey *k,
           struct label_val **lv, struct label_slot **slot)
{
  *lv = NULL;
  *slot = NULL;
  if (!label)
    return -1;
  lkey_of (k, label->s, label->len);
  *lv = label_place (&g->labels, g->d, k, slot);
  if ((*lv)->block == g->labels.block)
    die_at (g->name, g->line, label->col, "label '%.*s' defined twice "
            "in rank %" PRId64, (int) label->len, label->s, g->rank);
  return label_name (&g->labels, g->d, k);
}

static void
operation (struct goal *g, struct tok *tk, int n, int i,
           const struct tok *label)
{
  struct dag *d = g->d;
  int32_t me = (int32_t) g->rank, v, lab;
  int cpu = 0, nic = 0;
  struct lkey k;
  struct label_val *lv;
  struct label_slot *slot;
  const struct tok *op = &tk[i];
  if (tok_is (op, "calc"))
    {
      if (i + 1 >= n)
        missing (g, op, "a time");
      const struct tok *t = &tk[i + 1];
      double w;
      enum num_status st = NUM_SYNTAX;
      /* up to 15 digits: exact in a double, as num_parse reads them */
      if (t->len && t->len <= 15)
        {
          uint64_t u = 0;
          size_t c = 0;
          for (; c < t->len && (unsigned) (t->s[c] - '0') < 10; c++)
            u = u * 10 + (uint64_t) (t->s[c] - '0');
          if (c == t->len)
            {
              w = (double) u;
              st = NUM_OK;
            }
        }
      if (st != NUM_OK)
        st = num_parse (t->s, t->len, &w);
      if (st == NUM_RANGE)
        bad (g, t, "a time below about 1.8e308");
      if (st != NUM_OK)
        bad (g, t, "a time");
      if (w < 0)
        {
          char text[64];
          snprintf (text, sizeof text, "%.*s", (int) (t->len < 60 ? t->len
                                                          : 60), t->s);
          die_at (g->name, g->line, t->col, "negative time '%s'", text);
        }
      cpu_nic (g, tk, n, i + 2, 0, &cpu, &nic);
      lab = new_label (g, label, &k, &lv, &slot);
      v = dag_add_calc (d, me, w, lab, (int32_t) g->line);
    }
  else if (tok_is (op, "send") || tok_is (op, "recv"))
    {
      int send = op->s[0] == 's';
      int64_t bytes, tag = 0;
      int j = size_of (g, tk, n, i + 1, &bytes);
      const char *dir = send ? "to" : "from";
      if (j >= n)
        missing (g, &tk[j - 1], send ? "'to'" : "'from'");
      if (!tok_is (&tk[j], dir))
        bad (g, &tk[j], send ? "'to'" : "'from'");
      if (j + 1 >= n)
        missing (g, &tk[j], "a rank");
      int32_t peer = rank_of (g, &tk[j + 1], !send);
      j += 2;
      if (j < n && tok_is (&tk[j], "tag"))
        {
          if (j + 1 >= n)
            missing (g, &tk[j], "a tag");
          if (!send && tok_is (&tk[j + 1], "-1"))
            tag = DAG_ANY;
          else
            tag = integer (g, &tk[j + 1], INT32_MAX - 1, "a tag");
          j += 2;
        }
      cpu_nic (g, tk, n, j, 1, &cpu, &nic);
      lab = new_label (g, label, &k, &lv, &slot);
      v = send ? dag_add_send (d, me, peer, bytes, tag, lab,
                               (int32_t) g->line)
               : dag_add_recv (d, me, peer, bytes, tag, lab,
                               (int32_t) g->line);
    }
  else
    bad (g, op, "'send', 'recv' or 'calc'");
  if (cpu | nic)
    dag_set_cpu_nic (d, v, cpu, nic);
  if (lv)
    label_set (&g->labels, lv, slot, &k, lab, v);
}

static int32_t
label_ref (struct goal *g, const struct tok *t)
{
  struct lkey k;
  lkey_of (&k, t->s, t->len);
  int32_t v = label_get (&g->labels, g->d, &k);
  if (v < 0)
    die_at (g->name, g->line, t->col, "undefined label '%.*s' in rank %"
            PRId64 " (labels must be defined before they are used)",
            (int) t->len, t->s, g->rank);
  return v;
}

static int
is_ident (const struct tok *t)
{
  if (!t->len || !((t->s[0] >= 'a' && t->s[0] <= 'z')
                   || (t->s[0] >= 'A' && t->s[0] <= 'Z')))
    return 0;
  for (size_t i = 1; i < t->len; i++)
    {
      char c = t->s[i];
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9') || c == '_'))
        return 0;
    }
  return 1;
}

/* Start the block of rank G->rank, on the current line.  */
static void
open_block (struct goal *g)
{
  g->rank_seen[g->rank >> 3] |= (uint8_t) (1u << (g->rank & 7));
  g->nblocks++;
  labels_new_block (&g->labels, g->d->n);
  g->open_line = g->line;
}

/* Was rank R's block read (R in [0, num_ranks))?  */
static inline int
rank_was_seen (const struct goal *g, int64_t r)
{
  return (g->rank_seen[r >> 3] >> (r & 7)) & 1;
}

static void
statement (struct goal *g, struct tok *tk, int n)
{
  struct tok *t = tk;
  if (g->rank < 0)
    {
      if (tok_is (t, "num_ranks"))
        {
          if (g->num_ranks >= 0)
            die_at (g->name, g->line, t->col, "num_ranks given twice");
          if (n < 2)
            missing (g, t, "an integer");
          g->num_ranks = integer (g, &tk[1], INT32_MAX - 1, "num_ranks");
          if (g->num_ranks < 1)
            die_at (g->name, g->line, tk[1].col, "num_ranks must be at "
                    "least 1");
          if (n > 2)
            bad (g, &tk[2], "the end of the line");
          g->ranks_line = g->line;
          g->ranks_col = tk[1].col;
          g->rank_seen = xcalloc (((size_t) g->num_ranks + 7) / 8, 1);
          if (g->d->nprocs < (int32_t) g->num_ranks)
            g->d->nprocs = (int32_t) g->num_ranks;
          return;
        }
      if (tok_is (t, "rank"))
        {
          if (g->num_ranks < 0)
            die_at (g->name, g->line, t->col, "'rank' before 'num_ranks'");
          if (n < 2)
            missing (g, t, "a rank");
          g->rank = rank_of (g, &tk[1], 0);
          if (n < 3)
            missing (g, &tk[1], "'{'");
          if (!tok_is (&tk[2], "{"))
            bad (g, &tk[2], "'{'");
          if (rank_was_seen (g, g->rank))
            die_at (g->name, g->line, tk[1].col, "rank %" PRId64
                    " defined twice", g->rank);
          open_block (g);
          if (n > 3)
            bad (g, &tk[3], "the end of the line");
          return;
        }
      bad (g, t, "'num_ranks' or 'rank'");
    }
  /* Inside a rank block.  */
  if (tok_is (t, "}"))
    {
      if (n > 1)
        bad (g, &tk[1], "the end of the line");
      g->rank = -1;
      return;
    }
  if (tok_is (t, "send") || tok_is (t, "recv") || tok_is (t, "calc"))
    {
      operation (g, tk, n, 0, NULL);
      return;
    }
  if (!is_ident (t))
    bad (g, t, "a label, 'send', 'recv', 'calc' or '}'");
  if (n < 2)
    missing (g, t, "':', 'requires' or 'irequires'");
  if (tok_is (&tk[1], ":"))
    {
      if (n < 3)
        missing (g, &tk[1], "'send', 'recv' or 'calc'");
      operation (g, tk, n, 2, t);
      return;
    }
  int ireq = tok_is (&tk[1], "irequires");
  if (!ireq && !tok_is (&tk[1], "requires"))
    bad (g, &tk[1], "':', 'requires' or 'irequires'");
  if (n < 3)
    missing (g, &tk[1], "a label");
  if (!is_ident (&tk[2]))
    bad (g, &tk[2], "a label");
  if (n > 3)
    bad (g, &tk[3], "the end of the line");
  int32_t a = label_ref (g, t), b = label_ref (g, &tk[2]);
  /* "a requires b": a starts after b completes (irequires: after b
     starts).  */
  dag_add_edge (g->d, b, a, ireq ? DAG_IREQUIRES : DAG_REQUIRES);
}

/* ------------------------------------------------- fast path of a line */

/* The lines of a generated schedule, one space between words and a
   newline at the end:
     (empty)
     rank DIGITS {
   and, inside a rank block,
     [LABEL: ]send|recv DIGITSb to|from DIGITS[ tag DIGITS]
     [LABEL: ]calc DIGITS
     LABEL requires|irequires LABEL
     }
   are read here in one pass over their bytes, without splitting them
   into tokens first.  Anything else, or anything wrong (a number out of
   range, an unknown or repeated label), is left to the general path
   (nothing changed), which reads the line again and words the error; so
   this path only has to accept a subset of what the general one
   accepts, and do what it does then.

   A newline is known to come at or after the line's start (the text's
   last one is found once), and every scan here stops at the first byte
   that does not fit, which a newline never does: so no scan needs a
   bound.  */

/* On a little-endian machine a word of up to 8 bytes is compared at
   once, as one 8-byte load (which may go past the line's newline, never
   past the text's end: near the end, bytes are compared one by one).
   A number of several digits is read likewise (fast_uint_w).  */
#if defined __BYTE_ORDER__ && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define FAST_WIDE 1
#else
# define FAST_WIDE 0
#endif

#if FAST_WIDE
static inline uint64_t
load8 (const char *p)
{
  uint64_t x;
  memcpy (&x, p, sizeof x);
  return x;
}
#endif

static inline int
is_ident_byte (unsigned char c)
{
  return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || (c >= '0' && c <= '9')
         || c == '_';
}

/* The number N of a label "l<N>" at Q (Q[0] is 'l', Q[1] a digit 1 to
   9) that is dense (label_number); returns the label's length, 0 when
   it is not such a label.  */
static inline size_t
fast_lnum (const char *q, uint32_t *n)
{
  uint32_t v = 0;
  size_t i = 1;
  while ((unsigned) (q[i] - '0') < 10 && i < 8)
    v = v * 10 + (uint32_t) (q[i++] - '0');
  if (is_ident_byte ((unsigned char) q[i]) || v >= LABEL_DENSE_MAX)
    return 0;
  *n = v;
  return i;
}

/* A label at *P: [A-Za-z][A-Za-z0-9_]*; advances *P past it and sets K
   (as lkey_of would).  Returns its length, 0 if there is none.  */
static inline size_t
fast_label (const char **p, struct lkey *k)
{
  const char *s = *p, *q = s;
  unsigned char c = (unsigned char) *q;
  if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
    return 0;
  /* Schedgen's l<N>: its number without a hash.  */
  if (c == 'l' && (unsigned) (q[1] - '1') < 9)
    {
      size_t len = fast_lnum (q, &k->key);
      if (len)
        {
          k->s = s;
          k->len = len;
          k->dense = 1;
          k->place = -1;
          *p = s + len;
          return len;
        }
    }
  uint64_t h = 0;
  while (is_ident_byte ((unsigned char) *q))
    {
      h = (h << 5) + h + (unsigned char) *q;
      q++;
    }
  k->s = s;
  k->len = (size_t) (q - s);
  /* "l0" is l<N> too (fast_lnum takes no leading zero).  */
  k->dense = label_number (s, k->len, &k->key);
  k->place = -1;
  if (!k->dense)
    {
      k->key = label_hash_end (h, k->len);
      k->place = label_place_number (s, k->len);
    }
  *p = q;
  return k->len;
}

/* Up to 18 decimal digits at *P, at most MAX; advances *P.  Returns 0
   when there are none, too many, or the value is over MAX.  */
static inline int
fast_uint (const char **p, int64_t max, int64_t *v)
{
  const char *q = *p;
  uint64_t u = 0;
  /* (past 18 digits U may wrap around, and is not used) */
  while ((unsigned) (*q - '0') < 10)
    u = u * 10 + (uint64_t) (*q++ - '0');
  if (q == *p || q - *p > 18 || u > (uint64_t) max)
    return 0;
  *v = (int64_t) u;
  *p = q;
  return 1;
}

/* fast_uint, END the text's end: a number of one digit, or else of up
   to 7 digits, is read without a loop, the latter as a word (FAST_WIDE):
   its digits found and combined arithmetically, which a rank or a peer
   of several digits reads in some 20 instructions instead of 9 a digit,
   and without the branch that ends a loop, mispredicted when the
   numbers' lengths vary.  On the 2^20-rank broadcast's text (ranks and
   peers of up to 7 digits), eight runs each alternating with the loop:
   read in a median 0.119 CPU s instead of 0.125; at 2^16 ranks, 7% fewer
   of the reader's instructions (valgrind).  As a word for every number,
   one digit too, the reader had run more instructions, not fewer.  */
static inline int
fast_uint_w (const char **p, const char *end, int64_t max, int64_t *v)
{
#if FAST_WIDE
  const char *q = *p;
  unsigned d0 = (unsigned) (q[0] - '0');
  if (d0 < 10 && (unsigned) (q[1] - '0') >= 10)
    {
      if (d0 > (uint64_t) max)
        return 0;
      *v = d0;
      *p = q + 1;
      return 1;
    }
  if (d0 < 10 && end - q >= 8)
    {
      uint64_t x = load8 (q);
      const uint64_t hi = UINT64_C (0xF0F0F0F0F0F0F0F0),
                     zero = UINT64_C (0x3030303030303030);
      /* a byte's high bits: nonzero past '0' .. '9' (the carry of an
         addition goes to the bytes after the first non-digit only) */
      uint64_t nd = ((x & hi) ^ zero)
                    | (((x + UINT64_C (0x0606060606060606)) & hi) ^ zero);
      if (nd)
        {
          unsigned len = (unsigned) __builtin_ctzll (nd) >> 3;
          /* the digits in the word's last LEN bytes, then pairs,
             fours and eights of them combined */
          uint64_t u = (x - zero) << (8 * (8 - len));
          u = (u * 10 + (u >> 8)) & UINT64_C (0x00FF00FF00FF00FF);
          u = (u * 100 + (u >> 16)) & UINT64_C (0x0000FFFF0000FFFF);
          u = (u * 10000 + (u >> 32)) & UINT64_C (0xFFFFFFFF);
          if (u > (uint64_t) max)
            return 0;
          *v = (int64_t) u;
          *p = q + len;
          return 1;
        }
    }
#else
  (void) end;
#endif
  return fast_uint (p, max, v);
}

/* Does the word W (a constant of LEN bytes) follow at P?  Advances P
   past it.  Read one by one (near the end of the text), the bytes are
   compared up to the first that differs (not by memcmp, which may read
   them all): the line's newline stops it.  */
static inline int
fast_word (const char **p, const char *end, const char *w, size_t len)
{
  const char *q = *p;
#if FAST_WIDE
  if (len <= 8 && end - q >= 8)
    {
      /* a constant once inlined: written out, since a loop or a
         memcpy into C may be left to run (an 8-byte load of a 4-byte
         store even stalls) */
#define WBYTE(i) (len > (i) ? (uint64_t) (unsigned char) w[i] << (8 * (i)) : 0)
      uint64_t c = WBYTE (0) | WBYTE (1) | WBYTE (2) | WBYTE (3) | WBYTE (4)
                   | WBYTE (5) | WBYTE (6) | WBYTE (7);
#undef WBYTE
      uint64_t mask = len == 8 ? ~UINT64_C (0)
                               : (UINT64_C (1) << (8 * len)) - 1;
      if ((load8 (q) & mask) != c)
        return 0;
      *p = q + len;
      return 1;
    }
#else
  (void) end;
#endif
  for (; *w; w++, q++)
    if (*q != *w)
      return 0;
  *p = q;
  return 1;
}
#define FAST_WORD(p, w) fast_word (&(p), end, w, sizeof w - 1)

/* Do the 4 bytes at S spell send, recv or calc?  */
static inline int
fast_op_word (const char *s, const char *end)
{
  const char *q = s;
  return FAST_WORD (q, "send") || FAST_WORD (q, "recv")
         || FAST_WORD (q, "calc");
}

static int
is_op_word (const char *s, size_t len, const char *end)
{
  return len == 4 && fast_op_word (s, end);
}

/* Does the line at Q (at its byte count) repeat memo M up to its
   newline?  Its bytes compared as two words, or four
   (overlapping, as a memcmp of 8 to 32 bytes does); the memo's newline
   is the last of them, so the line ends where the memo's does.  */
static inline int
memo_match (const struct op_memo *m, const char *q, const char *end)
{
#if FAST_WIDE
  if (!m->s || (size_t) (end - q) < m->len)
    return 0;
  const char *s = m->s;
  size_t n = m->len;
  uint64_t diff = (load8 (q) ^ load8 (s))
                  | (load8 (q + n - 8) ^ load8 (s + n - 8));
  if (n > 16)
    diff |= (load8 (q + 8) ^ load8 (s + 8))
            | (load8 (q + n - 16) ^ load8 (s + n - 16));
  return !diff;
#else
  (void) m;
  (void) q;
  (void) end;
  return 0;
#endif
}

/* A line at OP (its byte count) to its newline NL, with its numbers,
   that memo M did not match: the memo from now on, if its length suits
   one; after MEMO_TRIES such lines in a row, a rest from LINE on.  */
static inline void
memo_miss (struct op_memo *m, const char *op, const char *nl, int64_t size,
           int64_t peer, int64_t tag, long line)
{
  size_t len = (size_t) (nl - op) + 1;
  if (len >= MEMO_MIN && len <= MEMO_MAX)
    {
      m->s = op;
      m->len = len;
      m->size = size;
      m->peer = peer;
      m->tag = tag;
    }
  if (++m->misses == MEMO_TRIES)
    {
      m->until = line + MEMO_REST;
      m->misses = MEMO_TRIES / 2;
    }
}

/* Add the operation just made, V named NAME, under label K (if any) at
   LV and SLOT (label_place).  */
static inline void
fast_define (struct goal *g, const struct lkey *k, struct label_val *lv,
             struct label_slot *slot, int32_t name, int32_t v)
{
  if (lv)
    label_set (&g->labels, lv, slot, k, name, v);
}

/* The line at Q outside a rank block, line G->line: the opening of
   one, once num_ranks is known.  Nothing is changed when it is not.  */
static const char *
fast_open (struct goal *g, const char *q)
{
  const char *end = g->end;
  int64_t r;
  if (g->num_ranks < 0 || !FAST_WORD (q, "rank ")
      || !fast_uint_w (&q, end, g->num_ranks - 1, &r) || q[0] != ' '
      || q[1] != '{' || q[2] != '\n' || rank_was_seen (g, r))
    return NULL;
  g->rank = r;
  open_block (g);
  return q + 2;
}

/* The line at G->p, outside a comment; returns its newline when it was
   read here, NULL when it is left to the general path.  */
static const char *
fast_line (struct goal *g)
{
  const char *q = g->p, *end = g->end;
  struct dag *d = g->d;
  if (q[0] == '\n')
    return q;
  if (g->rank < 0)
    return fast_open (g, q);
  if (q[0] == '}' && q[1] == '\n')
    {
      g->rank = -1;
      /* The next block's opening, after one empty line or none, read in
         the same call (Schedgen's 2^20-rank broadcast has a million
         blocks of one or two operations: their lines' turns of parse's
         loop had been a quarter of the reader's instructions).  */
      const char *n = q + 2;
      if (n <= g->last_nl)
        {
          long skip = 1 + (n[0] == '\n' && n + 1 <= g->last_nl);
          g->line += skip;
          const char *eol = fast_open (g, n + skip - 1);
          if (eol)
            return eol;
          g->line -= skip;
        }
      return q + 1;
    }
  struct lkey k;
  struct label_val *lv = NULL;
  struct label_slot *slot = NULL;
  int lab = 0;
  /* (Schedgen's labels l<N> are told from send, recv and calc by their
     first two bytes) */
  if ((q[0] == 'l' && (unsigned) (q[1] - '0') < 10) || !fast_op_word (q, end)
      || q[4] == ':')
    {
      lab = 1;
      if (!fast_label (&q, &k) || is_op_word (k.s, k.len, end))
        return NULL;
      if (*q == ':' && q[1] == ' ')
        q += 2;
      else if (*q == ' ')
        {
          /* LABEL requires|irequires LABEL */
          q++;
          int ireq = *q == 'i';
          q += ireq;
          if (!FAST_WORD (q, "requires") || *q++ != ' ')
            return NULL;
          struct lkey kb;
          if (!fast_label (&q, &kb) || *q != '\n')
            return NULL;
          int32_t a = label_get (&g->labels, d, &k);
          int32_t b = label_get (&g->labels, d, &kb);
          if (a < 0 || b < 0)
            return NULL;
          dag_add_edge (d, b, a, ireq ? DAG_IREQUIRES : DAG_REQUIRES);
          return q;
        }
      else
        return NULL;
    }
  int32_t v, line = (int32_t) g->line, me = (int32_t) g->rank;
  if (q[0] == 'c')
    {
      int64_t w;
      if (!FAST_WORD (q, "calc ") || !fast_uint (&q, INT64_C (999999999999999),
                                                 &w) || *q != '\n')
        return NULL;
      if (lab)
        {
          lv = label_place (&g->labels, d, &k, &slot);
          if (lv->block == g->labels.block)
            return NULL;
        }
      int32_t name = lab ? label_name (&g->labels, d, &k) : -1;
      v = dag_add_calc (d, me, (double) w, name, line);
      fast_define (g, &k, lv, slot, name, v);
      return q;
    }
  int send;
  if (FAST_WORD (q, "send "))
    send = 1;
  else if (FAST_WORD (q, "recv "))
    send = 0;
  else
    return NULL;
  int64_t bytes, peer, tag = 0;
  /* (not &g->memo[send], which multiplies by the memo's size) */
  struct op_memo *mo = send ? &g->memo[1] : &g->memo[0];
  int tried = g->line >= mo->until;
  if (tried && memo_match (mo, q, end))
    {
      bytes = mo->size;
      peer = mo->peer;
      tag = mo->tag;
      q += mo->len - 1;
      mo->misses = 0;
    }
  else
    {
      const char *nums = q;
      if (!fast_uint_w (&q, end, INT64_MAX / 2, &bytes) || *q++ != 'b'
          || *q++ != ' ')
        return NULL;
      if (send ? !FAST_WORD (q, "to ") : !FAST_WORD (q, "from "))
        return NULL;
      if (!fast_uint_w (&q, end, g->num_ranks - 1, &peer))
        return NULL;
      if (*q != '\n')
        {
          if (!FAST_WORD (q, " tag ")
              || !fast_uint_w (&q, end, INT32_MAX - 1, &tag) || *q != '\n')
            return NULL;
        }
      if (tried)
        memo_miss (mo, nums, q, bytes, peer, tag, g->line);
    }
  if (lab)
    {
      lv = label_place (&g->labels, d, &k, &slot);
      if (lv->block == g->labels.block)
        return NULL;
    }
  int32_t name = lab ? label_name (&g->labels, d, &k) : -1;
  v = send ? dag_add_send (d, me, (int32_t) peer, bytes, tag, name, line)
           : dag_add_recv (d, me, (int32_t) peer, bytes, tag, name, line);
  fast_define (g, &k, lv, slot, name, v);
  return q;
}

/* The text is asked for this many bytes ahead of the line being read
   (some 45 to 80 of Schedgen's lines): the processor's own prefetching
   of a sequential read stops at each 4 KiB page, and the first line of
   a page waited for its bytes.  On the 2^20-rank broadcast's text (2
   cores, virtual machine), five runs each alternating with the reader
   before: read in 0.120-0.125 CPU s instead of 0.140-0.151 (256 bytes
   ahead: 0.120-0.131; 1024, 2048 and 4096 alike); the 1024-rank ring
   allreduce's in 0.177-0.178 instead of 0.213-0.215 (four runs each).
   That was a mapped file; a text given whole (goal_parse) is still
   read from memory.  A file read in pieces (goal_parse_fd) comes from
   the cache, where it makes no difference that shows: in 11 runs each,
   alternating, the broadcast's text read in a median 0.069 CPU s with
   it and 0.068 without, the ring's in 0.111 and 0.096, the 1024-rank
   all-to-all's in 0.045 and 0.046.  */
enum { TEXT_AHEAD = 2048 };

/* Start G's reading of a text of about LEN bytes (0: not known) named
   NAME into D.  G is static in its callers so that a parse that died
   through err.h is freed by the next one instead of leaking
   (fuzzing).  */
static void
parse_begin (struct goal *g, size_t len, const char *name, struct dag *d)
{
  free (g->labels.slot);
  free (g->labels.dense);
  free (g->labels.dense_name);
  free (g->rank_seen);
  memset (g, 0, sizeof *g);
  g->name = name;
  g->d = d;
  g->num_ranks = -1;
  g->rank = -1;
  /* Every operation takes a line of 7 bytes at least ("calc 0" and its
     newline), every dependency 13 ("a requires b").  */
  dag_expect (d, (len + 1) / 7, (len + 1) / 13);
  labels_grow (&g->labels);
}

/* Read the lines of [G->p, G->end): all of them when FINAL (the end of
   the text), else those up to G->last_nl, leaving G->p after it.  */
static void
parse_lines (struct goal *g, int final)
{
  struct tok tk[MAXTOK];
  int n;
  for (;;)
    {
      if (!final && (!g->last_nl || g->p > g->last_nl))
        break;
      /* A whole line (ending in a newline) outside a comment: first
         the fast path.  */
      if (!g->in_comment && g->last_nl && g->p <= g->last_nl)
        {
          g->line++;
          g->line_start = g->p;
          __builtin_prefetch (g->p + TEXT_AHEAD);
          const char *eol = fast_line (g);
          if (eol)
            {
              g->p = eol + 1;
              continue;
            }
          g->line--;
        }
      if ((n = next_line (g, tk)) < 0)
        break;
      if (n == 0)
        continue;
      statement (g, tk, n);
    }
}

/* After the last line: the checks of the whole schedule.  */
static void
parse_end (struct goal *g)
{
  const char *name = g->name;
  if (g->rank >= 0)
    die_at (name, g->open_line, 0, "rank %" PRId64 " block not closed "
            "(missing '}')", g->rank);
  if (g->in_comment)
    die_at (name, g->line, 0, "comment not closed (missing '*/')");
  if (g->num_ranks < 0)
    die_at (name, g->line > 0 ? g->line : 1, 0, "no 'num_ranks' line: not "
            "a GOAL schedule");
  if (g->nblocks != g->num_ranks)
    {
      /* Blocks are distinct and in range, so fewer than num_ranks: a
         rank whose operations were lost (a truncated file) or a
         num_ranks that counts ranks the file does not describe.  */
      int64_t miss = 0;
      while (rank_was_seen (g, miss))
        miss++;
      die_at (name, g->ranks_line, g->ranks_col, "num_ranks is %" PRId64
              " but the file has %" PRId64 " rank block%s (none for rank %"
              PRId64 "): give every rank a block, an empty one if it has "
              "no operations", g->num_ranks, g->nblocks,
              g->nblocks == 1 ? "" : "s", miss);
    }
  free (g->labels.slot);
  free (g->labels.dense);
  free (g->labels.dense_name);
  free (g->rank_seen);
  memset (g, 0, sizeof *g);
}

/* The last newline of [S, E), or NULL.  */
static const char *
last_newline (const char *s, const char *e)
{
  while (e > s)
    if (*--e == '\n')
      return e;
  return NULL;
}

void
goal_parse (const char *text, size_t len, const char *name, struct dag *d)
{
  static struct goal g;
  parse_begin (&g, len, name, d);
  g.p = text;
  g.end = text + len;
  g.last_nl = last_newline (text, text + len);
  parse_lines (&g, 1);
  parse_end (&g);
}

/* A file's text is read CHUNK bytes at a time (unless told otherwise)
   into one buffer, the line cut at its end carried over to the next.
   The reader then finds each piece in the cache, just written there by
   read(2), and the buffer's few pages stay mapped.  A mapping of the
   file instead had each 4 KiB page mapped in and out and its lines read
   from memory: on the 2^20-rank broadcast's text (94 MB, 2 cores,
   virtual machine), merely touching every 64 bytes of it took
   0.035-0.045 CPU s mapped, 0.012-0.016 read in pieces of 256 KiB or
   1 MiB.  The whole reading, 7 runs each alternating with the mapped
   reader, medians: the broadcast's text in 0.066 CPU s instead of
   0.095, the 1024-rank ring allreduce's in 0.095 instead of 0.101, the
   1024-rank all-to-all's in 0.045 instead of 0.048.  Pieces of 64 KiB
   to 1 MiB on the broadcast: medians 0.072 (256 KiB) to 0.078 (1 MiB),
   7 runs each.  PAD bytes after the text are readable: the fast path
   may look a few bytes past a short last line (as it did past a file's
   end inside its last page).  */
enum { CHUNK = 1 << 18, PAD = 64 };

/* Keep memo M's line in M itself: the buffer it lies in is about to be
   overwritten.  */
static void
memo_keep (struct op_memo *m)
{
  if (m->s && m->s != m->keep)
    {
      memcpy (m->keep, m->s, m->len);
      m->s = m->keep;
    }
}

void
goal_parse_fd (int fd, const char *head, size_t nhead, size_t size,
               size_t piece, const char *name, struct dag *d)
{
  static struct goal g;
  static char *buf;       /* static for the same reason as G */
  free (buf);
  size_t cap = piece ? piece : CHUNK, have = nhead;
  if (cap < nhead)
    cap = nhead;
  buf = xmalloc (cap + PAD);
  if (nhead)
    memcpy (buf, head, nhead);
  parse_begin (&g, size, name, d);
  int eof = 0, first = 1;
  for (;;)
    {
      if (!eof && have < cap)
        {
          ptrdiff_t r = read_full (fd, buf + have, cap - have);
          if (r < 0)
            die ("%s: read error: %s", name, strerror (errno));
          eof = (size_t) r < cap - have;
          have += (size_t) r;
        }
      memset (buf + have, 0, PAD);
      /* A byte order mark is no part of the first statement.  */
      size_t from = first && have >= 3
                    && memcmp (buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
      g.p = buf + from;
      g.end = buf + have;
      g.last_nl = last_newline (g.p, g.end);
      if (!eof && !g.last_nl)
        {
          /* a line longer than the buffer: a bigger one */
          cap *= 2;
          buf = xrealloc (buf, cap + PAD);
          continue;
        }
      parse_lines (&g, eof);
      first = 0;
      if (eof)
        break;
      memo_keep (&g.memo[0]);
      memo_keep (&g.memo[1]);
      have = (size_t) (g.end - g.p);
      memmove (buf, g.p, have);
    }
  parse_end (&g);
  free (buf);
  buf = NULL;
}

/* ------------------------------------------------------------ unit */
/* LogGOPSim's GOAL has no time unit; msgperf writes its schedules' in a
   comment line that LogGOPSim skips, "// #@time_unit=UNIT" (msgperf's
   metadata line, commented), before the first statement.  */
int
goal_time_unit (const char *text, size_t len, char *unit, size_t n)
{
  static const char key[] = "// #@time_unit=";
  size_t i = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  while (i < len)
    {
      const char *nl = memchr (text + i, '\n', len - i);
      size_t end = nl ? (size_t) (nl - text) : len, k = i;
      while (k < end && (text[k] == ' ' || text[k] == '\t'))
        k++;
      if (k < end && text[k] != '/' && text[k] != '\r')
        return 0;   /* a statement: no unit before it */
      size_t kl = sizeof key - 1;
      if (end - k > kl && memcmp (text + k, key, kl) == 0)
        {
          size_t m = 0;
          for (k += kl; k < end && m + 1 < n && !strchr (" \t\r", text[k]);
               k++)
            unit[m++] = text[k];
          unit[m] = '\0';
          return m > 0;
        }
      i = end + 1;
    }
  return 0;
}
