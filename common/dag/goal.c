/* SPDX-License-Identifier: GPL-3.0-or-later */
/* goal.c: reader of GOAL, the text schedule format of LogGOPSim (see
 * dag_parse.h for the grammar).  A hand-written tokenizer over the text:
 * no allocation per token or per operation (the DAG's arrays and the
 * label table grow by doubling), one pass, errors with line and column.
 *
 * Speed: a Schedgen schedule of millions of operations is mostly
 * "lN: send Sb to R tag T" lines.  Labels are local to their rank block,
 * and a rank block is given once, so the label table holds one block's
 * labels at a time (small, in cache) instead of every rank's; its keys
 * are the names already copied into the DAG's name pool, so a label is
 * stored once.  Plain decimal numbers, the common case, are read by a
 * short loop; anything else goes through num.h, which also words the
 * errors.  */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dag_parse.h"
#include "err.h"
#include "xalloc.h"
#include "num.h"

struct tok
{
  const char *s;
  size_t len;
  long col;            /* 1-based column */
};

/* One label of the current rank block: its name (an offset in the
   DAG's name pool, NUL-terminated there), its node, and the block it
   belongs to (slots of earlier blocks count as empty, so the table is
   never cleared).  */
struct label_slot
{
  uint32_t hash;
  int32_t name;
  int32_t node;
  uint32_t block;      /* rank block number + 1; 0 = never used */
};

struct labels
{
  struct label_slot *slot;
  size_t cap, n;       /* n: labels of the current block */
  uint32_t block;
};

struct goal
{
  const char *text, *end, *p;
  const char *name;
  long line;
  const char *line_start;
  int in_comment;
  struct dag *d;
  struct labels labels;      /* the current rank block's labels */
  /* Pages of a mapped file already read are given back (release_pages)
     so that the text does not add to the peak memory: from
     text_release, page-aligned, up to the line being read.  */
  int release;
  const char *released;
  int64_t num_ranks;         /* -1 until num_ranks */
  int64_t rank;              /* -1 outside a rank block */
  uint8_t *rank_seen;
  int64_t nblocks;           /* rank blocks read */
  long ranks_line, ranks_col; /* where num_ranks was given */
  long open_line;            /* line of the open rank block */
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

static uint32_t
label_hash (const char *s, size_t len)
{
  uint64_t h = 0;
  for (size_t i = 0; i < len; i++)
    h = (h << 5) + h + (unsigned char) s[i];
  return label_hash_end (h, len);
}

/* The slot of label S (LEN bytes) in the current block, or the empty
   slot where it goes.  */
static struct label_slot *
label_find (const struct labels *lt, const struct dag *d, uint32_t h,
            const char *s, size_t len)
{
  size_t mask = lt->cap - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask)
    {
      struct label_slot *sl = &lt->slot[i];
      if (sl->block != lt->block)
        return sl;
      if (sl->hash != h)
        continue;
      /* S has no NUL (labels are identifiers): compare up to K's.  */
      const char *k = d->pool + sl->name;
      size_t j = 0;
      while (j < len && k[j] == s[j])
        j++;
      if (j == len && k[len] == '\0')
        return sl;
    }
}

/* Start the labels of a new rank block.  */
static void
labels_new_block (struct labels *lt)
{
  lt->n = 0;
  if (++lt->block == 0)
    {
      /* 2^32 blocks: wrap around without mistaking old slots.  */
      memset (lt->slot, 0, lt->cap * sizeof *lt->slot);
      lt->block = 1;
    }
}

/* Room for one more label of the current block (at most half full).  */
static void
labels_grow (struct labels *lt)
{
  if (2 * (lt->n + 1) <= lt->cap)
    return;
  size_t cap = lt->cap ? 2 * lt->cap : 256;
  struct label_slot *old = lt->slot;
  size_t oldcap = lt->cap;
  lt->slot = xcalloc (cap, sizeof *lt->slot);
  lt->cap = cap;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].block == lt->block)
      {
        size_t j = old[i].hash & (cap - 1);
        while (lt->slot[j].block == lt->block)
          j = (j + 1) & (cap - 1);
        lt->slot[j] = old[i];
      }
  free (old);
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

/* Trailing "cpu C" / "nic N": one CPU and one NIC per rank are
   modelled; other numbers are accepted and ignored with a warning.  */
static int
cpu_nic (struct goal *g, const struct tok *tk, int n, int i, int nic_ok)
{
  int seen_cpu = 0, seen_nic = 0;
  while (i < n)
    {
      int is_cpu = tok_is (&tk[i], "cpu"), is_nic = tok_is (&tk[i], "nic");
      if (!(is_cpu && !seen_cpu && !seen_nic) && !(is_nic && nic_ok
                                                   && !seen_nic))
        bad (g, &tk[i], nic_ok ? "'cpu', 'nic' or the end of the "
             "line" : "'cpu' or the end of the line");
      if (i + 1 >= n)
        missing (g, &tk[i], "an integer");
      int64_t v = integer (g, &tk[i + 1], INT32_MAX, is_cpu ? "a cpu"
                           : "a nic");
      if (v != 0)
        warn_once ("goal-cpu-nic", "%s:%ld: cpu and nic numbers are "
                   "ignored: every rank has one CPU and one NIC",
                   g->name, g->line);
      seen_cpu |= is_cpu;
      seen_nic |= is_nic;
      i += 2;
    }
  return i;
}

static void
operation (struct goal *g, struct tok *tk, int n, int i,
           const struct tok *label)
{
  struct dag *d = g->d;
  int32_t lab = label ? dag_intern (d, label->s, label->len) : -1;
  int32_t me = (int32_t) g->rank, v;
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
          size_t k = 0;
          for (; k < t->len && (unsigned) (t->s[k] - '0') < 10; k++)
            u = u * 10 + (uint64_t) (t->s[k] - '0');
          if (k == t->len)
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
      cpu_nic (g, tk, n, i + 2, 0);
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
      cpu_nic (g, tk, n, j, 1);
      v = send ? dag_add_send (d, me, peer, bytes, tag, lab,
                               (int32_t) g->line)
               : dag_add_recv (d, me, peer, bytes, tag, lab,
                               (int32_t) g->line);
    }
  else
    bad (g, op, "'send', 'recv' or 'calc'");
  if (label)
    {
      labels_grow (&g->labels);
      uint32_t h = label_hash (label->s, label->len);
      struct label_slot *sl = label_find (&g->labels, d, h, label->s,
                                          label->len);
      if (sl->block == g->labels.block)
        die_at (g->name, g->line, label->col, "label '%.*s' defined twice "
                "in rank %" PRId64, (int) label->len, label->s, g->rank);
      sl->hash = h;
      sl->name = lab;
      sl->node = v;
      sl->block = g->labels.block;
      g->labels.n++;
    }
}

static int32_t
label_ref (struct goal *g, const struct tok *t)
{
  struct label_slot *sl = label_find (&g->labels, g->d,
                                      label_hash (t->s, t->len), t->s,
                                      t->len);
  int32_t v = sl->block == g->labels.block ? sl->node : -1;
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
          g->rank_seen = xcalloc ((size_t) g->num_ranks, 1);
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
          if (g->rank_seen[g->rank])
            die_at (g->name, g->line, tk[1].col, "rank %" PRId64
                    " defined twice", g->rank);
          g->rank_seen[g->rank] = 1;
          g->nblocks++;
          labels_new_block (&g->labels);
          g->open_line = g->line;
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

/* The lines of a generated schedule, inside a rank block, one space
   between words and a newline at the end:
     [LABEL: ]send|recv DIGITSb to|from DIGITS[ tag DIGITS]
     [LABEL: ]calc DIGITS
     LABEL requires|irequires LABEL
     }
   are read here in one pass over their bytes, without splitting them
   into tokens first.  Anything else, or anything wrong (a number out of
   range, an unknown or repeated label), is left to the general path
   (return 0, nothing changed), which reads the line again and words
   the error; so this path only has to accept a subset of what the
   general one accepts, and do what it does then.  */

/* A label at *P: [A-Za-z][A-Za-z0-9_]*; advances *P past it, sets its
   hash.  Returns its length, 0 if there is none.  */
static inline size_t
fast_ident (const char **p, uint32_t *hash)
{
  const char *q = *p;
  unsigned char c = (unsigned char) *q;
  if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z'))
    return 0;
  uint64_t h = 0;
  for (;;)
    {
      c = (unsigned char) *q;
      if (!(((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
            || (c >= '0' && c <= '9') || c == '_'))
        break;
      h = (h << 5) + h + c;
      q++;
    }
  size_t len = (size_t) (q - *p);
  *hash = label_hash_end (h, len);
  *p = q;
  return len;
}

/* Up to 18 decimal digits at *P, at most MAX; advances *P.  Returns 0
   when there are none, too many, or the value is over MAX.  */
static inline int
fast_uint (const char **p, int64_t max, int64_t *v)
{
  const char *q = *p;
  uint64_t u = 0;
  while ((unsigned) (*q - '0') < 10)
    {
      u = u * 10 + (uint64_t) (*q - '0');
      q++;
      if (q - *p > 18)
        return 0;
    }
  if (q == *p || u > (uint64_t) max)
    return 0;
  *v = (int64_t) u;
  *p = q;
  return 1;
}

/* Does the word W (a constant) follow at P?  Advances P past it.  The
   bytes are compared one by one up to the first that differs (not by
   memcmp, which may read them all): the line's newline stops it.  */
static inline int
fast_word (const char **p, const char *w)
{
  const char *q = *p;
  for (; *w; w++, q++)
    if (*q != *w)
      return 0;
  *p = q;
  return 1;
}
#define FAST_WORD(p, w) fast_word (&(p), w)

static int
is_op_word (const char *s, size_t len)
{
  return len == 4 && (memcmp (s, "send", 4) == 0 || memcmp (s, "recv", 4)
                      == 0 || memcmp (s, "calc", 4) == 0);
}

/* The line at G->p (which ends at EOL, a newline) in a rank block;
   returns 1 when it was read here.  No byte past the newline is read:
   every scan stops at the first byte that does not fit.  */
static int
fast_line (struct goal *g, const char *eol)
{
  const char *q = g->p;
  struct dag *d = g->d;
  if (q[0] == '}' && q + 1 == eol)
    {
      g->rank = -1;
      return 1;
    }
  const char *lab = NULL;
  size_t lablen = 0;
  uint32_t labhash = 0;
  if (!is_op_word (q, (size_t) (eol - q) >= 4 ? 4 : 0)
      || (q + 4 < eol && q[4] == ':'))
    {
      lab = q;
      lablen = fast_ident (&q, &labhash);
      if (!lablen || is_op_word (lab, lablen))
        return 0;
      if (*q == ':' && q[1] == ' ')
        q += 2;
      else if (*q == ' ')
        {
          /* LABEL requires|irequires LABEL */
          q++;
          int ireq = *q == 'i';
          q += ireq;
          if (!FAST_WORD (q, "requires "))
            return 0;
          const char *b = q;
          uint32_t bhash;
          size_t blen = fast_ident (&q, &bhash);
          if (!blen || q != eol)
            return 0;
          struct label_slot *sa = label_find (&g->labels, d, labhash, lab,
                                              lablen);
          struct label_slot *sb = label_find (&g->labels, d, bhash, b,
                                              blen);
          if (sa->block != g->labels.block || sb->block != g->labels.block)
            return 0;
          dag_add_edge (d, sb->node, sa->node, ireq ? DAG_IREQUIRES
                                                    : DAG_REQUIRES);
          return 1;
        }
      else
        return 0;
    }
  int32_t v, line = (int32_t) g->line, me = (int32_t) g->rank;
  if (q[0] == 'c')
    {
      int64_t w;
      if (!FAST_WORD (q, "calc ") || !fast_uint (&q, INT64_C (999999999999999),
                                                 &w) || q != eol)
        return 0;
      struct label_slot *sl = NULL;
      if (lab)
        {
          labels_grow (&g->labels);
          sl = label_find (&g->labels, d, labhash, lab, lablen);
          if (sl->block == g->labels.block)
            return 0;
        }
      v = dag_add_calc (d, me, (double) w, lab ? dag_intern (d, lab, lablen)
                                               : -1, line);
      if (sl)
        {
          sl->hash = labhash;
          sl->name = dag_node_name (d, (size_t) v);
          sl->node = v;
          sl->block = g->labels.block;
          g->labels.n++;
        }
      return 1;
    }
  int send;
  if (FAST_WORD (q, "send "))
    send = 1;
  else if (FAST_WORD (q, "recv "))
    send = 0;
  else
    return 0;
  int64_t bytes, peer, tag = 0;
  if (!fast_uint (&q, INT64_MAX / 2, &bytes) || *q++ != 'b' || *q++ != ' ')
    return 0;
  if (send ? !FAST_WORD (q, "to ") : !FAST_WORD (q, "from "))
    return 0;
  if (!fast_uint (&q, g->num_ranks - 1, &peer))
    return 0;
  if (q != eol)
    {
      if (!FAST_WORD (q, " tag ")
          || !fast_uint (&q, INT32_MAX - 1, &tag) || q != eol)
        return 0;
    }
  struct label_slot *sl = NULL;
  if (lab)
    {
      labels_grow (&g->labels);
      sl = label_find (&g->labels, d, labhash, lab, lablen);
      if (sl->block == g->labels.block)
        return 0;
    }
  int32_t name = lab ? dag_intern (d, lab, lablen) : -1;
  v = send ? dag_add_send (d, me, (int32_t) peer, bytes, tag, name, line)
           : dag_add_recv (d, me, (int32_t) peer, bytes, tag, name, line);
  if (sl)
    {
      sl->hash = labhash;
      sl->name = name;
      sl->node = v;
      sl->block = g->labels.block;
      g->labels.n++;
    }
  return 1;
}

/* Give back the pages of a mapped text read so far (before the current
   line), every 16 MiB.  */
static void
release_pages (struct goal *g)
{
#ifdef MADV_DONTNEED
  if (g->line_start - g->released < ((ptrdiff_t) 1 << 24))
    return;
  long pg = sysconf (_SC_PAGESIZE);
  if (pg <= 0)
    return;
  uintptr_t a = ((uintptr_t) g->released + (uintptr_t) pg - 1)
                & ~((uintptr_t) pg - 1);
  uintptr_t e = (uintptr_t) g->line_start & ~((uintptr_t) pg - 1);
  if (e > a)
    (void) madvise ((void *) a, e - a, MADV_DONTNEED);
  g->released = g->line_start;
#else
  (void) g;
#endif
}

static void
parse (const char *text, size_t len, const char *name, struct dag *d,
       int release)
{
  /* Static so that a parse that died through err.h is freed by the next
     one instead of leaking (fuzzing).  */
  static struct goal g;
  free (g.labels.slot);
  free (g.rank_seen);
  memset (&g, 0, sizeof g);
  g.text = g.p = text;
  g.end = text + len;
  g.name = name;
  g.d = d;
  g.num_ranks = -1;
  g.rank = -1;
  g.release = release;
  g.released = text;
  labels_grow (&g.labels);
  struct tok tk[MAXTOK];
  int n;
  for (;;)
    {
      /* A whole line (ending in a newline) in a rank block, outside a
         comment: first the fast path.  */
      if (g.rank >= 0 && !g.in_comment && g.p < g.end)
        {
          const char *eol = memchr (g.p, '\n', (size_t) (g.end - g.p));
          if (eol)
            {
              g.line++;
              g.line_start = g.p;
              if (fast_line (&g, eol))
                {
                  g.p = eol + 1;
                  if (g.release)
                    release_pages (&g);
                  continue;
                }
              g.line--;
            }
        }
      if ((n = next_line (&g, tk)) < 0)
        break;
      if (n == 0)
        continue;
      statement (&g, tk, n);
      if (g.release)
        release_pages (&g);
    }
  if (g.rank >= 0)
    die_at (name, g.open_line, 0, "rank %" PRId64 " block not closed "
            "(missing '}')", g.rank);
  if (g.in_comment)
    die_at (name, g.line, 0, "comment not closed (missing '*/')");
  if (g.num_ranks < 0)
    die_at (name, g.line > 0 ? g.line : 1, 0, "no 'num_ranks' line: not "
            "a GOAL schedule");
  if (g.nblocks != g.num_ranks)
    {
      /* Blocks are distinct and in range, so fewer than num_ranks: a
         rank whose operations were lost (a truncated file) or a
         num_ranks that counts ranks the file does not describe.  */
      int64_t miss = 0;
      while (g.rank_seen[miss])
        miss++;
      die_at (name, g.ranks_line, g.ranks_col, "num_ranks is %" PRId64
              " but the file has %" PRId64 " rank block%s (none for rank %"
              PRId64 "): give every rank a block, an empty one if it has "
              "no operations", g.num_ranks, g.nblocks,
              g.nblocks == 1 ? "" : "s", miss);
    }
  free (g.labels.slot);
  free (g.rank_seen);
  memset (&g, 0, sizeof g);
}

void
goal_parse (const char *text, size_t len, const char *name, struct dag *d)
{
  parse (text, len, name, d, 0);
}

void
goal_parse_mapped (const char *text, size_t len, const char *name,
                   struct dag *d)
{
  parse (text, len, name, d, 1);
}
