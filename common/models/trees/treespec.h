/* SPDX-License-Identifier: GPL-3.0-or-later */
/* treespec.h: MRNet-style topology specifications and the trees they make.
 *
 * A topology spec names a tree over the ranks 0..N-1 of a job, rooted at
 * rank 0 (Roth, Arnold, Miller, "MRNet", SC'03, section 2.6 and the
 * configuration files of section 2.1).  Grammar (msgperf-trees(7)):
 *
 *   spec     := "flat"                    every rank a child of rank 0
 *             | "b:" F "^" D              balanced, fan-out F, depth D
 *             | "b:" F1 "x" F2 "x" ...    balanced, fan-out Fi at level i
 *             | "k:" K [ "@" N ]          K-nomial tree of N ranks
 *                                         (N omitted: all the ranks)
 *             | "g:" L1 ":" L2 ":" ...    generic: level i lists the
 *                                         children of each of its nodes,
 *                                         comma-separated, or one count
 *                                         for every node of the level
 *             | "file:" PATH              a topology file (below)
 *
 *   topology file := { line }   line := parent "=>" child { child } ";"
 *                   ranks as integers, optionally "host:" before them;
 *                   "#" starts a comment.  The first parent is the root.
 *
 * Ranks are numbered level by level (breadth first) for b: and g:, so
 * the internal nodes are the lowest ranks; k: uses the usual K-nomial
 * numbering (the parent of r is r with its lowest non-zero base-K digit
 * cleared: subtrees are ranges of consecutive ranks).
 * Children are kept in the order a parent serves them (send order).
 *
 * Everything here is pure: no I/O.  A "file:" spec is read by the caller,
 * which passes the text to treespec_parse_text.  Errors come back in a
 * struct treespec_error with the 1-based column (and line, for a file) of
 * the offending text; a spec that makes a different number of ranks than
 * the job has says which specs would fit.  */
#ifndef MSGPERF_TREESPEC_H
#define MSGPERF_TREESPEC_H

#include <stddef.h>

/* Largest tree built (guards b:1000^9 against allocating the world).  */
#define TREE_MAX_RANKS 16777216

struct tree
{
  int n;              /* ranks 0..n-1; the root is rank 0 */
  int *parent;        /* parent[r]; -1 for the root */
  int *child_start;   /* n+1 offsets: the children of r are */
  int *child;         /*   child[child_start[r] .. child_start[r+1]) */
  int *level;         /* level[r]: depth of r, 0 for the root */
  int *subtree;       /* subtree[r]: ranks in the subtree of r, r included */
  int depth;          /* largest level */
  int leaves;         /* ranks without children */
  int internal;       /* ranks with children */
  int max_fanout;     /* largest number of children of one rank */
};

/* Children of R and how many.  */
static inline int
tree_nchildren (const struct tree *t, int r)
{
  return t->child_start[r + 1] - t->child_start[r];
}
static inline const int *
tree_children (const struct tree *t, int r)
{
  return t->child + t->child_start[r];
}

/* What went wrong: the message (no program name, no trailing period),
   the 1-based line (0 for a one-line spec) and column of the offending
   text (0 when the whole spec is at fault).  NOMEM is 1 when the cause is
   out of memory, not the spec: MSG is then "out of memory while building
   a tree of N ranks" (or "... while reading ..."), line and column are 0,
   and a program reports it as a runtime failure (exit 1), not as a bad
   option.  */
struct treespec_error
{
  int line;
  int col;
  char msg[512];
  int nomem;
};

/* Build the tree that SPEC makes over NRANKS ranks.  NRANKS <= 0 means
   "as many as the spec makes" (then "flat" and "k:K" without "@N" are
   errors: they need a number of ranks).  A spec that makes another
   number of ranks than NRANKS is an error that lists specs that fit.
   "file:PATH" is refused here (see treespec_file_path).  Returns 0, or -1
   with *ERR filled and T left empty.  */
int treespec_parse (const char *spec, int nranks, struct tree *t,
                    struct treespec_error *err);

/* The PATH of a "file:PATH" spec, or NULL for the other kinds.  */
const char *treespec_file_path (const char *spec);

/* Build the tree described by TEXT, the contents of a topology file.
   NRANKS as for treespec_parse.  Every rank 0..NRANKS-1 must appear once
   as a child, except the root, which must be rank 0.  */
int treespec_parse_text (const char *text, int nranks, struct tree *t,
                         struct treespec_error *err);

/* Build a tree from a parent array (parent[0] == -1, every other rank's
   parent a rank, no cycle).  Children are ordered by rank.  Used by the
   parsers and by programs that get a tree from elsewhere.  Returns 0, or
   -1 with *ERR filled (the column is 0).  */
int tree_from_parents (const int *parent, int n, struct tree *t,
                       struct treespec_error *err);

/* Write into BUF (LEN bytes, NUL-terminated, truncated) a comma-separated
   list of specs that make exactly NRANKS ranks: flat, the balanced trees,
   k:2@N.  Returns BUF.  */
char *treespec_fitting (int nranks, char *buf, size_t len);

/* Release the arrays of T (T itself is the caller's).  */
void tree_free (struct tree *t);

#endif
