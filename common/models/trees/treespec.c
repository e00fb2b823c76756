/* SPDX-License-Identifier: GPL-3.0-or-later */
/* treespec.c: parse MRNet-style topology specs into trees (treespec.h).
 *
 * The shapes are those of MRNet's configuration generator (Roth, Arnold,
 * Miller, SC'03, sections 2.1 and 2.6): flat (one level, the "flat"
 * curves of Figure 7), balanced k-ary trees (Figure 4a), k-nomial trees
 * and generic per-node fan-outs (Figure 4b is g:3:1,1,1:4,4,4,4 plus a
 * binomial core), and explicit topology files.  */
#include <config.h>

#include "treespec.h"

#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- errors */

static int
fail (struct treespec_error *err, int line, int col, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

static int
fail (struct treespec_error *err, int line, int col, const char *fmt, ...)
{
  if (err)
    {
      va_list ap;
      err->line = line;
      err->col = col;
      va_start (ap, fmt);
      vsnprintf (err->msg, sizeof err->msg, fmt, ap);
      va_end (ap);
      err->nomem = 0;
    }
  return -1;
}

/* Out of memory: a failure of the machine, not of the spec (the caller
   exits 1 with the message, where a bad spec is a usage error).  FMT
   completes "out of memory while ...".  */
static int
nomem (struct treespec_error *err, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static int
nomem (struct treespec_error *err, const char *fmt, ...)
{
  if (err)
    {
      va_list ap;
      int w = snprintf (err->msg, sizeof err->msg, "out of memory while ");
      va_start (ap, fmt);
      vsnprintf (err->msg + w, sizeof err->msg - (size_t) w, fmt, ap);
      va_end (ap);
      err->line = 0;
      err->col = 0;
      err->nomem = 1;
    }
  return -1;
}

static int
nomem_tree (struct treespec_error *err, long n)
{
  return nomem (err, "building a tree of %ld rank%s", n, n == 1 ? "" : "s");
}

void
tree_free (struct tree *t)
{
  if (!t)
    return;
  free (t->parent);
  free (t->child_start);
  free (t->child);
  free (t->level);
  free (t->subtree);
  memset (t, 0, sizeof *t);
}

/* ---------------------------------------------------------------- building */

/* Build T from PARENT (taken over: it becomes t->parent) with the children
   of each rank in the order the ranks appear in SEQ (a permutation of
   0..n-1; NULL: rank order).  */
static int
build (int *parent, int n, const int *seq, struct tree *t,
       struct treespec_error *err)
{
  memset (t, 0, sizeof *t);
  if (n < 1)
    {
      free (parent);
      return fail (err, 0, 0, "a tree needs at least one rank");
    }
  if (parent[0] != -1)
    {
      free (parent);
      return fail (err, 0, 0, "the root must be rank 0");
    }
  for (int r = 1; r < n; r++)
    if (parent[r] < 0 || parent[r] >= n || parent[r] == r)
      {
        int p = parent[r];
        free (parent);
        if (p < 0)
          return fail (err, 0, 0, "rank %d is not in the tree", r);
        return fail (err, 0, 0, "rank %d has an invalid parent %d", r, p);
      }

  t->n = n;
  t->parent = parent;
  t->child_start = calloc ((size_t) n + 1, sizeof (int));
  t->child = calloc ((size_t) n, sizeof (int));
  t->level = calloc ((size_t) n, sizeof (int));
  t->subtree = calloc ((size_t) n, sizeof (int));
  int *fill = calloc ((size_t) n, sizeof (int));
  int *queue = calloc ((size_t) n, sizeof (int));
  if (!t->child_start || !t->child || !t->level || !t->subtree || !fill
      || !queue)
    {
      free (fill);
      free (queue);
      tree_free (t);
      return nomem_tree (err, n);
    }

  for (int r = 1; r < n; r++)
    t->child_start[parent[r] + 1]++;
  for (int r = 0; r < n; r++)
    t->child_start[r + 1] += t->child_start[r];
  for (int i = 0; i < n; i++)
    {
      int r = seq ? seq[i] : i;
      if (r == 0)
        continue;
      int p = parent[r];
      t->child[t->child_start[p] + fill[p]++] = r;
    }
  free (fill);

  /* Levels by a breadth-first walk from the root; a rank not reached is
     on a cycle.  */
  int head = 0, tail = 0;
  for (int r = 0; r < n; r++)
    t->level[r] = -1;
  t->level[0] = 0;
  queue[tail++] = 0;
  while (head < tail)
    {
      int r = queue[head++];
      for (int i = t->child_start[r]; i < t->child_start[r + 1]; i++)
        {
          int c = t->child[i];
          t->level[c] = t->level[r] + 1;
          queue[tail++] = c;
        }
    }
  if (tail != n)
    {
      int bad = 0;
      for (int r = 0; r < n; r++)
        if (t->level[r] < 0)
          {
            bad = r;
            break;
          }
      free (queue);
      tree_free (t);
      return fail (err, 0, 0,
                   "rank %d is on a cycle and not reachable from rank 0", bad);
    }
  /* Subtree sizes: reverse breadth-first order visits children first.  */
  for (int i = n - 1; i >= 0; i--)
    {
      int r = queue[i];
      t->subtree[r] += 1;
      if (r != 0)
        t->subtree[parent[r]] += t->subtree[r];
    }
  free (queue);

  for (int r = 0; r < n; r++)
    {
      int k = tree_nchildren (t, r);
      if (k == 0)
        t->leaves++;
      else
        t->internal++;
      if (k > t->max_fanout)
        t->max_fanout = k;
      if (t->level[r] > t->depth)
        t->depth = t->level[r];
    }
  return 0;
}

int
tree_from_parents (const int *parent, int n, struct tree *t,
                   struct treespec_error *err)
{
  if (n < 1 || n > TREE_MAX_RANKS)
    {
      memset (t, 0, sizeof *t);
      return fail (err, 0, 0, "a tree has 1 to %d ranks, not %d",
                   TREE_MAX_RANKS, n);
    }
  int *copy = malloc ((size_t) n * sizeof (int));
  if (!copy)
    {
      memset (t, 0, sizeof *t);
      return nomem_tree (err, n);
    }
  memcpy (copy, parent, (size_t) n * sizeof (int));
  return build (copy, n, NULL, t, err);
}

/* ---------------------------------------------------------------- fitting */

char *
treespec_fitting (int nranks, char *buf, size_t len)
{
  size_t used = 0;
  int count = 0;
#define ADD(...) \
  do { if (used < len) { \
         int w_ = snprintf (buf + used, len - used, "%s", count ? ", " : ""); \
         if (w_ > 0) used += (size_t) w_; } \
       if (used < len) { \
         int w_ = snprintf (buf + used, len - used, __VA_ARGS__); \
         if (w_ > 0) used += (size_t) w_; } \
       count++; } while (0)

  if (len == 0)
    return buf;
  buf[0] = '\0';
  if (nranks < 1)
    return buf;
  ADD ("flat");
  /* b:F^D, D >= 2: 1 + F + ... + F^D == nranks.  */
  for (long f = 2; 1 + f + f * f <= nranks; f++)
    {
      long total = 1, pw = 1;
      for (int d = 1; total < nranks; d++)
        {
          pw *= f;
          total += pw;
          if (total == nranks && d >= 2)
            ADD ("b:%ld^%d", f, d);
        }
    }
  /* b:AxB with A != B (the squares are listed above).  */
  int shown = 0;
  for (long a = 2; 1 + a + 2 * a <= nranks && shown < 4; a++)
    if ((nranks - 1 - a) % a == 0)
      {
        long b = (nranks - 1 - a) / a;
        if (b >= 2 && b != a)
          {
            ADD ("b:%ldx%ld", a, b);
            shown++;
          }
      }
  if (nranks >= 3)
    ADD ("k:2@%d", nranks);
#undef ADD
  return buf;
}

static int
misfit (struct treespec_error *err, const char *spec, long made, int nranks)
{
  char fits[256];
  treespec_fitting (nranks, fits, sizeof fits);
  return fail (err, 0, 0,
               "'%s' makes a tree of %ld rank%s, not %d; specs that fit %d "
               "rank%s: %s", spec, made, made == 1 ? "" : "s", nranks, nranks,
               nranks == 1 ? "" : "s", fits);
}

/* ---------------------------------------------------------------- lexing */

/* Read a decimal count at S + *POS (>= MIN, <= TREE_MAX_RANKS).  */
static int
read_count (const char *s, size_t *pos, long min, long *out, const char *what,
            struct treespec_error *err)
{
  size_t start = *pos;
  long v = 0;
  if (!isdigit ((unsigned char) s[start]))
    {
      if (s[start] == '\0')
        return fail (err, 0, (int) start + 1,
                     "'%s' ends where %s (a number) was expected", s, what);
      return fail (err, 0, (int) start + 1,
                   "'%c' where %s (a number) was expected", s[start], what);
    }
  while (isdigit ((unsigned char) s[*pos]))
    {
      v = v * 10 + (s[*pos] - '0');
      if (v > TREE_MAX_RANKS)
        return fail (err, 0, (int) start + 1, "%s '%.*s' is too large", what,
                     (int) strspn (s + start, "0123456789"), s + start);
      (*pos)++;
    }
  if (v < min)
    return fail (err, 0, (int) start + 1, "%s must be at least %ld, not %ld",
                 what, min, v);
  *out = v;
  return 0;
}

static int
trailing (const char *s, size_t pos, const char *expected,
          struct treespec_error *err)
{
  return fail (err, 0, (int) pos + 1, "unexpected '%s' (expected %s)",
               s + pos, expected);
}

/* ---------------------------------------------------------------- levels */

/* Build a tree level by level: level I has NCOUNT[I] entries in
   COUNTS[I]; one entry applies to every node of the level, otherwise
   there is one per node.  The ranks are numbered breadth first.  */
static int
build_levels (const char *spec, long **counts, const int *ncount,
              const int *colof, int nlevels, int nranks, struct tree *t,
              struct treespec_error *err)
{
  long total = 1, width = 1;
  for (int i = 0; i < nlevels; i++)
    {
      long next = 0;
      if (ncount[i] != 1 && ncount[i] != width)
        return fail (err, 0, colof[i],
                     "level %d has %ld node%s but %d fan-outs are given "
                     "(give one for every node, or one for all)",
                     i + 1, width, width == 1 ? "" : "s", ncount[i]);
      for (long j = 0; j < width; j++)
        {
          next += counts[i][ncount[i] == 1 ? 0 : j];
          if (next > TREE_MAX_RANKS)
            break;
        }
      total += next;
      if (total > TREE_MAX_RANKS)
        return fail (err, 0, 0, "'%s' makes more than %d ranks", spec,
                     TREE_MAX_RANKS);
      width = next;
    }
  if (nranks > 0 && total != nranks)
    return misfit (err, spec, total, nranks);

  int n = (int) total;
  int *parent = calloc ((size_t) n, sizeof (int));
  if (!parent)
    return nomem_tree (err, n);
  parent[0] = -1;
  int first = 0, nodes = 1, next_id = 1;
  for (int i = 0; i < nlevels; i++)
    {
      int level_first = next_id;
      for (int j = 0; j < nodes; j++)
        {
          long k = counts[i][ncount[i] == 1 ? 0 : j];
          for (long c = 0; c < k; c++)
            parent[next_id++] = first + j;
        }
      first = level_first;
      nodes = next_id - level_first;
    }
  return build (parent, n, NULL, t, err);
}

/* b:F^D or b:F1xF2x...  */
static int
parse_balanced (const char *spec, int nranks, struct tree *t,
                struct treespec_error *err)
{
  size_t pos = 2;
  long f, d;
  int rc = -1;
  if (read_count (spec, &pos, 1, &f, "the fan-out", err))
    return -1;
  if (spec[pos] == '^')
    {
      pos++;
      if (read_count (spec, &pos, 1, &d, "the depth", err))
        return -1;
      if (spec[pos])
        return trailing (spec, pos, "nothing after the depth", err);
      if (f > 1 && d > 30)
        return fail (err, 0, 0, "'%s' makes more than %d ranks", spec,
                     TREE_MAX_RANKS);
      long **counts = calloc ((size_t) d, sizeof (long *));
      int *ncount = calloc ((size_t) d, sizeof (int));
      int *colof = calloc ((size_t) d, sizeof (int));
      long one = f;
      if (!counts || !ncount || !colof)
        rc = nomem (err, "reading '%s'", spec);
      else
        {
          for (long i = 0; i < d; i++)
            {
              counts[i] = &one;
              ncount[i] = 1;
              colof[i] = 3;
            }
          rc = build_levels (spec, counts, ncount, colof, (int) d, nranks,
                             t, err);
        }
      free (counts);
      free (ncount);
      free (colof);
      return rc;
    }
  /* Per-level fan-outs.  */
  size_t cap = strlen (spec);
  long *fan = calloc (cap, sizeof (long));
  long **counts = calloc (cap, sizeof (long *));
  int *ncount = calloc (cap, sizeof (int));
  int *colof = calloc (cap, sizeof (int));
  int nl = 0;
  if (!fan || !counts || !ncount || !colof)
    {
      nomem (err, "reading '%s'", spec);
      goto out;
    }
  fan[nl] = f;
  for (;;)
    {
      counts[nl] = &fan[nl];
      ncount[nl] = 1;
      colof[nl] = 0;
      nl++;
      if (spec[pos] == '\0')
        break;
      if (spec[pos] != 'x')
        {
          trailing (spec, pos, "'x' and the next fan-out, or '^' and a depth",
                    err);
          goto out;
        }
      pos++;
      if (read_count (spec, &pos, 1, &fan[nl], "a fan-out", err))
        goto out;
    }
  rc = build_levels (spec, counts, ncount, colof, nl, nranks, t, err);
out:
  free (fan);
  free (counts);
  free (ncount);
  free (colof);
  return rc;
}

/* g:L1:L2:...  each level a comma-separated list of child counts.  */
static int
parse_generic (const char *spec, int nranks, struct tree *t,
               struct treespec_error *err)
{
  size_t len = strlen (spec);
  long *all = calloc (len, sizeof (long));
  long **counts = calloc (len, sizeof (long *));
  int *ncount = calloc (len, sizeof (int));
  int *colof = calloc (len, sizeof (int));
  int nl = 0, nall = 0, rc = -1;
  size_t pos = 2;
  if (!all || !counts || !ncount || !colof)
    {
      nomem (err, "reading '%s'", spec);
      goto out;
    }
  for (;;)
    {
      counts[nl] = all + nall;
      colof[nl] = (int) pos + 1;
      for (;;)
        {
          if (read_count (spec, &pos, 0, &all[nall], "a number of children",
                          err))
            goto out;
          nall++;
          ncount[nl]++;
          if (spec[pos] != ',')
            break;
          pos++;
        }
      nl++;
      if (spec[pos] == '\0')
        break;
      if (spec[pos] != ':')
        {
          trailing (spec, pos, "',', ':' or the end of the spec", err);
          goto out;
        }
      pos++;
    }
  rc = build_levels (spec, counts, ncount, colof, nl, nranks, t, err);
out:
  free (all);
  free (counts);
  free (ncount);
  free (colof);
  return rc;
}

/* Order the children of every rank by decreasing subtree size, ties by
   rank (the latency-minimising send order of a K-nomial tree: the
   farthest subtree is served first).  */
static void
order_by_subtree (struct tree *t)
{
  for (int r = 0; r < t->n; r++)
    {
      int *c = t->child + t->child_start[r];
      int k = tree_nchildren (t, r);
      for (int i = 1; i < k; i++)
        {
          int v = c[i], j = i;
          while (j > 0 && (t->subtree[c[j - 1]] < t->subtree[v]
                           || (t->subtree[c[j - 1]] == t->subtree[v]
                               && c[j - 1] > v)))
            {
              c[j] = c[j - 1];
              j--;
            }
          c[j] = v;
        }
    }
}

/* k:K@N: the parent of r > 0 is r with its lowest non-zero base-K
   digit cleared, so that every subtree is a range of consecutive ranks
   (ranks placed consecutively on a node keep a subtree on the node).  */
static int
parse_knomial (const char *spec, int nranks, struct tree *t,
               struct treespec_error *err)
{
  size_t pos = 2;
  long k, n;
  if (read_count (spec, &pos, 2, &k, "the k of a k-nomial tree", err))
    return -1;
  if (spec[pos] == '@')
    {
      pos++;
      if (read_count (spec, &pos, 1, &n, "the number of ranks", err))
        return -1;
      if (spec[pos])
        return trailing (spec, pos, "nothing after the number of ranks", err);
      if (nranks > 0 && n != nranks)
        return misfit (err, spec, n, nranks);
    }
  else if (spec[pos])
    return trailing (spec, pos, "'@' and a number of ranks, or nothing", err);
  else if (nranks <= 0)
    return fail (err, 0, 0,
                 "'%s' needs a number of ranks: write it as '%s@N'", spec,
                 spec);
  else
    n = nranks;

  int *parent = calloc ((size_t) n, sizeof (int));
  if (!parent)
    return nomem_tree (err, n);
  parent[0] = -1;
  for (long r = 1; r < n; r++)
    {
      long p = 1;
      while ((r / p) % k == 0)
        p *= k;
      parent[r] = (int) (r - ((r / p) % k) * p);
    }
  if (build (parent, (int) n, NULL, t, err))
    return -1;
  order_by_subtree (t);
  return 0;
}

/* ---------------------------------------------------------------- specs */

const char *
treespec_file_path (const char *spec)
{
  if (spec && strncmp (spec, "file:", 5) == 0)
    return spec + 5;
  return NULL;
}

int
treespec_parse (const char *spec, int nranks, struct tree *t,
                struct treespec_error *err)
{
  memset (t, 0, sizeof *t);
  if (err)
    memset (err, 0, sizeof *err);
  if (!spec || !*spec)
    return fail (err, 0, 0,
                 "empty topology (expected flat, b:F^D, b:F1xF2.., k:K@N, "
                 "g:L1:L2.. or file:PATH)");
  if (nranks > TREE_MAX_RANKS)
    return fail (err, 0, 0, "%d ranks is more than the %d a tree may have",
                 nranks, TREE_MAX_RANKS);
  if (strcmp (spec, "flat") == 0)
    {
      if (nranks <= 0)
        return fail (err, 0, 0, "'flat' needs a number of ranks");
      int *parent = calloc ((size_t) nranks, sizeof (int));
      if (!parent)
        return nomem_tree (err, nranks);
      parent[0] = -1;
      return build (parent, nranks, NULL, t, err);
    }
  if (strncmp (spec, "b:", 2) == 0)
    return parse_balanced (spec, nranks, t, err);
  if (strncmp (spec, "k:", 2) == 0)
    return parse_knomial (spec, nranks, t, err);
  if (strncmp (spec, "g:", 2) == 0)
    return parse_generic (spec, nranks, t, err);
  if (treespec_file_path (spec))
    return fail (err, 0, 0, "'%s' is a topology file: read it and call "
                 "treespec_parse_text", spec);
  size_t bad = strcspn (spec, ":");
  return fail (err, 0, 1,
               "unknown topology kind '%.*s' (expected flat, b:F^D, "
               "b:F1xF2.., k:K@N, g:L1:L2.. or file:PATH)", (int) bad, spec);
}

/* ---------------------------------------------------------------- files */

struct lexer
{
  const char *s;
  size_t pos;
  int line, col;       /* of s[pos] */
  int tline, tcol;     /* of the last token */
};

enum tok { T_END, T_RANK, T_ARROW, T_SEMI, T_BAD };

static void
lex_advance (struct lexer *lx)
{
  if (lx->s[lx->pos] == '\n')
    {
      lx->line++;
      lx->col = 1;
    }
  else
    lx->col++;
  lx->pos++;
}

/* Next token; a rank is "N" or "host:N" (the host is ignored).  */
static enum tok
lex (struct lexer *lx, long *rank, struct treespec_error *err)
{
  for (;;)
    {
      char c = lx->s[lx->pos];
      if (c == '#')
        while (lx->s[lx->pos] && lx->s[lx->pos] != '\n')
          lex_advance (lx);
      else if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        lex_advance (lx);
      else
        break;
    }
  lx->tline = lx->line;
  lx->tcol = lx->col;
  const char *p = lx->s + lx->pos;
  if (*p == '\0')
    return T_END;
  if (p[0] == '=' && p[1] == '>')
    {
      lex_advance (lx);
      lex_advance (lx);
      return T_ARROW;
    }
  if (*p == ';')
    {
      lex_advance (lx);
      return T_SEMI;
    }
  size_t n = strcspn (p, " \t\r\n;#");
  const char *num = p;
  const char *colon = memchr (p, ':', n);
  if (colon)
    num = colon + 1;
  size_t nd = (size_t) (p + n - num);
  int ok = nd > 0 && nd == strspn (num, "0123456789") && nd < 10;
  if (ok)
    {
      *rank = strtol (num, NULL, 10);
      for (size_t i = 0; i < n; i++)
        lex_advance (lx);
      return T_RANK;
    }
  fail (err, lx->tline, lx->tcol,
        "'%.*s' is not a rank (expected N or host:N, '=>' or ';')",
        (int) (n ? n : 1), p);
  return T_BAD;
}

/* What treespec_parse_text has read so far: each child rank's parent
   (-2: not seen as a child) and the line that gave it, the children in
   the order read, the largest rank named.  */
struct tree_text
{
  int *parent, *seq, *pline;
  size_t cap;
  int nseq, maxrank;
};

/* Room in X for rank R; -1 when memory runs out.  Each array is kept
   (and freed by the caller) if its own realloc fails.  */
static int
tree_text_grow (struct tree_text *x, long r, struct treespec_error *err)
{
  size_t ncap = x->cap;
  while ((size_t) r >= ncap)
    ncap *= 2;
  int *np = realloc (x->parent, ncap * sizeof (int));
  if (np)
    x->parent = np;
  int *ns = realloc (x->seq, ncap * sizeof (int));
  if (ns)
    x->seq = ns;
  int *nl = realloc (x->pline, ncap * sizeof (int));
  if (nl)
    x->pline = nl;
  if (!np || !ns || !nl)
    return nomem (err, "reading a topology file with rank %ld", r);
  for (size_t i = x->cap; i < ncap; i++)
    x->parent[i] = -2;
  x->cap = ncap;
  return 0;
}

/* Child R of parent P, just read by LX, into X; -1 on an error.  */
static int
tree_text_child (struct tree_text *x, const struct lexer *lx, long r, int p,
                 int nranks, struct treespec_error *err)
{
  if (nranks > 0 && r >= nranks)
    return fail (err, lx->tline, lx->tcol, "rank %ld is outside 0..%d "
                 "(the job has %d ranks)", r, nranks - 1, nranks);
  if (r >= TREE_MAX_RANKS)
    return fail (err, lx->tline, lx->tcol, "rank %ld is too large", r);
  if (r == 0)
    return fail (err, lx->tline, lx->tcol, "rank 0 is the root and cannot "
                 "be a child");
  if ((size_t) r >= x->cap && tree_text_grow (x, r, err) != 0)
    return -1;
  if (x->parent[r] != -2)
    return fail (err, lx->tline, lx->tcol, "rank %ld already has parent %d "
                 "(line %d)", r, x->parent[r], x->pline[r]);
  x->parent[r] = p;
  x->pline[r] = lx->tline;
  x->seq[x->nseq++] = (int) r;
  if (r > x->maxrank)
    x->maxrank = (int) r;
  return 0;
}

/* One line 'parent => children ;' from LX, whose parent P (at P_LINE,
   P_COL) was just read, into X; -1 on an error.  */
static int
tree_text_line (struct tree_text *x, struct lexer *lx, int p, int p_line,
                int p_col, int nranks, struct treespec_error *err)
{
  long r;
  enum tok tk = lex (lx, &r, err);
  if (tk == T_BAD)
    return -1;
  if (tk != T_ARROW)
    return fail (err, lx->tline, lx->tcol, "expected '=>' after parent %d",
                 p);
  int nchild = 0;
  for (;;)
    {
      tk = lex (lx, &r, err);
      if (tk == T_BAD)
        return -1;
      if (tk == T_SEMI)
        break;
      if (tk != T_RANK)
        return fail (err, lx->tline, lx->tcol, "%s where a child rank or "
                     "';' was expected", tk == T_END ? "end of text" : "'=>'");
      if (tree_text_child (x, lx, r, p, nranks, err) != 0)
        return -1;
      nchild++;
    }
  if (nchild == 0)
    return fail (err, p_line, p_col, "parent %d has no children", p);
  if (p > x->maxrank)
    x->maxrank = p;
  return 0;
}

/* Every line of LX into X; the root's rank, or -1 on an error.  */
static int
tree_text_read (struct tree_text *x, struct lexer *lx, int nranks,
                struct treespec_error *err)
{
  int root = -1;
  long r;
  for (;;)
    {
      enum tok tk = lex (lx, &r, err);
      if (tk == T_END)
        break;
      if (tk == T_BAD)
        return -1;
      if (tk != T_RANK)
        return fail (err, lx->tline, lx->tcol, "'%s' where a parent rank "
                     "was expected", tk == T_ARROW ? "=>" : ";");
      int p = (int) r;
      int p_line = lx->tline, p_col = lx->tcol;
      if (root < 0)
        {
          if (p != 0)
            return fail (err, p_line, p_col, "the root (the first parent) "
                         "must be rank 0, not %d", p);
          root = p;
        }
      if (tree_text_line (x, lx, p, p_line, p_col, nranks, err) != 0)
        return -1;
    }
  if (root < 0)
    return fail (err, 0, 0, "the topology has no 'parent => children ;' "
                 "line");
  return root;
}

/* The tree T of X, read whole: every rank 0..N-1 named.  */
static int
tree_text_build (const struct tree_text *x, int nranks, struct tree *t,
                 struct treespec_error *err)
{
  int n = nranks > 0 ? nranks : x->maxrank + 1;
  if (x->maxrank >= n)
    return fail (err, 0, 0, "rank %d is outside 0..%d", x->maxrank, n - 1);
  for (int i = 1; i < n; i++)
    if ((size_t) i >= x->cap || x->parent[i] == -2)
      return fail (err, 0, 0, "rank %d is not in the topology (every rank "
                   "0..%d must be)", i, n - 1);
  int *par = malloc ((size_t) n * sizeof (int));
  int *order = malloc ((size_t) n * sizeof (int));
  if (!par || !order)
    {
      free (par);
      free (order);
      return nomem_tree (err, n);
    }
  memcpy (par, x->parent, (size_t) n * sizeof (int));
  par[0] = -1;
  order[0] = 0;
  memcpy (order + 1, x->seq, (size_t) x->nseq * sizeof (int));
  int rc = build (par, n, order, t, err);
  free (order);
  return rc;
}

int
treespec_parse_text (const char *text, int nranks, struct tree *t,
                     struct treespec_error *err)
{
  memset (t, 0, sizeof *t);
  if (err)
    memset (err, 0, sizeof *err);
  if (nranks > TREE_MAX_RANKS)
    return fail (err, 0, 0, "%d ranks is more than the %d a tree may have",
                 nranks, TREE_MAX_RANKS);
  struct lexer lx = { text, 0, 1, 1, 1, 1 };
  struct tree_text x = { NULL, NULL, NULL, 64, 0, 0 };
  x.parent = calloc (x.cap, sizeof (int));
  x.seq = calloc (x.cap, sizeof (int));
  x.pline = calloc (x.cap, sizeof (int));   /* line where r got a parent */
  int rc = -1;
  if (!x.parent || !x.seq || !x.pline)
    nomem (err, "reading a topology file");
  else
    {
      for (size_t i = 0; i < x.cap; i++)
        x.parent[i] = -2;
      if (tree_text_read (&x, &lx, nranks, err) >= 0)
        rc = tree_text_build (&x, nranks, t, err);
    }
  free (x.parent);
  free (x.seq);
  free (x.pline);
  return rc;
}
