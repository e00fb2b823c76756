/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-treespec.c: topology specs parse to the right shapes.  */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "treespec.h"
#include "unit.h"

/* Parse SPEC over NRANKS and check the counts.  */
static void
shape (const char *spec, int nranks, int n, int leaves, int depth,
       int max_fanout)
{
  struct tree t;
  struct treespec_error e;
  int rc = treespec_parse (spec, nranks, &t, &e);
  CHECK (rc == 0);
  if (rc)
    {
      fprintf (stderr, "%s: %s\n", spec, e.msg);
      return;
    }
  CHECK (t.n == n);
  CHECK (t.leaves == leaves);
  CHECK (t.depth == depth);
  CHECK (t.max_fanout == max_fanout);
  CHECK (t.leaves + t.internal == t.n);
  CHECK (t.subtree[0] == t.n);
  /* Consistency: every child's parent is its parent, levels add up.  */
  int edges = 0;
  for (int r = 0; r < t.n; r++)
    for (int i = 0; i < tree_nchildren (&t, r); i++)
      {
        int c = tree_children (&t, r)[i];
        edges++;
        if (t.parent[c] != r || t.level[c] != t.level[r] + 1)
          {
            CHECK (0);
            break;
          }
      }
  CHECK (edges == t.n - 1);
  tree_free (&t);
}

/* SPEC over NRANKS fails at column COL with a message containing WHAT.  */
static void
bad (const char *spec, int nranks, int col, const char *what)
{
  struct tree t;
  struct treespec_error e;
  CHECK (treespec_parse (spec, nranks, &t, &e) == -1);
  CHECK (e.col == col);
  if (!strstr (e.msg, what))
    {
      CHECK (0);
      fprintf (stderr, "  '%s': message '%s' lacks '%s'\n", spec, e.msg, what);
    }
  CHECK (t.n == 0 && t.parent == NULL);
}

static void
bad_text (const char *text, int nranks, int line, int col, const char *what)
{
  struct tree t;
  struct treespec_error e;
  CHECK (treespec_parse_text (text, nranks, &t, &e) == -1);
  CHECK (e.line == line);
  CHECK (e.col == col);
  if (!strstr (e.msg, what))
    {
      CHECK (0);
      fprintf (stderr, "  message '%s' lacks '%s'\n", e.msg, what);
    }
}

int
main (void)
{
  /* The shapes the issue names.  */
  shape ("b:2x4x8", 0, 75, 64, 3, 8);
  shape ("b:2x4x8", 75, 75, 64, 3, 8);
  shape ("b:4^2", 0, 21, 16, 2, 4);     /* Figure 4a: 16 back-ends */
  shape ("b:2^3", 15, 15, 8, 3, 2);
  shape ("b:3^1", 4, 4, 3, 1, 3);
  shape ("k:2@128", 0, 128, 64, 7, 7); /* binomial: odd ranks are leaves */
  shape ("k:2", 128, 128, 64, 7, 7);
  shape ("k:3@9", 0, 9, 6, 2, 4);
  shape ("k:2@1", 0, 1, 1, 0, 0);
  shape ("g:2:8,4", 0, 15, 12, 2, 8);
  shape ("g:2:3", 0, 9, 6, 2, 3);       /* one count for the whole level */
  shape ("g:3:1,0,2", 0, 7, 4, 2, 3);   /* unbalanced, a leaf at level 1 */
  shape ("flat", 4, 4, 3, 1, 3);
  shape ("flat", 1, 1, 1, 0, 0);
  shape ("flat", 2, 2, 1, 1, 1);

  /* Exact structure of a few.  */
  {
    struct tree t;
    CHECK (treespec_parse ("g:2:8,4", 0, &t, NULL) == 0);
    CHECK (tree_nchildren (&t, 0) == 2);
    CHECK (tree_nchildren (&t, 1) == 8 && tree_nchildren (&t, 2) == 4);
    CHECK (t.parent[3] == 1 && t.parent[10] == 1 && t.parent[11] == 2);
    CHECK (t.subtree[1] == 9 && t.subtree[2] == 5);
    tree_free (&t);

    CHECK (treespec_parse ("k:2@8", 0, &t, NULL) == 0);
    /* Binomial: 0 serves 4, 2, 1 (largest subtree first); 6 -> 7.  */
    CHECK (tree_nchildren (&t, 0) == 3);
    CHECK (tree_children (&t, 0)[0] == 4);
    CHECK (tree_children (&t, 0)[1] == 2);
    CHECK (tree_children (&t, 0)[2] == 1);
    CHECK (t.parent[7] == 6 && t.parent[6] == 4 && t.parent[5] == 4);
    CHECK (t.parent[3] == 2);
    tree_free (&t);

    CHECK (treespec_parse ("k:3@9", 0, &t, NULL) == 0);
    CHECK (t.parent[5] == 3 && t.parent[8] == 6 && t.parent[4] == 3);
    CHECK (t.parent[3] == 0 && t.parent[6] == 0 && t.parent[2] == 0);
    CHECK (tree_children (&t, 0)[0] == 3 && tree_children (&t, 0)[3] == 2);
    tree_free (&t);

    CHECK (treespec_parse ("b:2^2", 0, &t, NULL) == 0);
    CHECK (t.parent[1] == 0 && t.parent[2] == 0);
    CHECK (t.parent[3] == 1 && t.parent[4] == 1);
    CHECK (t.parent[5] == 2 && t.parent[6] == 2);
    tree_free (&t);
  }

  /* Topology files.  */
  {
    struct tree t;
    struct treespec_error e;
    const char *text = "# two levels\n"
                       "node0:0 => node1:1 node2:2 ;\n"
                       "1 => 3 ;   # a comment\n"
                       "2 =>\n  4\n  5 ;\n";
    CHECK (treespec_parse_text (text, 0, &t, &e) == 0);
    CHECK (t.n == 6 && t.leaves == 3 && t.depth == 2);
    CHECK (t.parent[5] == 2 && t.parent[3] == 1);
    CHECK (tree_children (&t, 2)[0] == 4);
    tree_free (&t);
    /* File order is the send order.  */
    CHECK (treespec_parse_text ("0 => 2 1 ;", 3, &t, &e) == 0);
    CHECK (tree_children (&t, 0)[0] == 2 && tree_children (&t, 0)[1] == 1);
    tree_free (&t);
  }
  bad_text ("1 => 0 ;", 0, 1, 1, "root");
  bad_text ("0 => 1 1 ;", 0, 1, 8, "already has parent 0");
  bad_text ("0 => 1 ;\n1 => 2 x ;", 0, 2, 8, "'x' is not a rank");
  bad_text ("0 => 1 ;\n1 => 2", 0, 2, 7, "end of text");
  bad_text ("0 1 ;", 0, 1, 3, "expected '=>'");
  bad_text ("0 => 1 ;", 4, 0, 0, "rank 2 is not in the topology");
  bad_text ("0 => 1 5 ;", 4, 1, 8, "outside 0..3");
  bad_text ("0 => 1 ; 2 => 3 ; 3 => 2 ;", 0, 0, 0, "cycle");
  bad_text ("0 => ;", 0, 1, 1, "no children");
  bad_text ("", 0, 0, 0, "no 'parent => children ;' line");
  bad_text ("0 => 0 ;", 0, 1, 6, "root");

  /* Errors in one-line specs: the column and what would fit.  */
  bad ("b:2^x", 0, 5, "the depth");
  bad ("b:2^", 0, 5, "ends where");
  bad ("b:2x4y8", 0, 6, "unexpected 'y8'");
  bad ("b:0^2", 0, 3, "at least 1");
  bad ("b:99999999^9", 0, 3, "too large");
  bad ("b:10^9", 0, 0, "more than");
  bad ("k:1@4", 0, 3, "at least 2");
  bad ("k:2#4", 0, 4, "unexpected '#4'");
  bad ("k:2", 0, 0, "needs a number of ranks");
  bad ("g:2:8;4", 0, 6, "unexpected ';4'");
  bad ("g:2:8,4,1", 0, 5, "level 2 has 2 nodes but 3 fan-outs");
  bad ("x:3", 4, 1, "unknown topology kind 'x'");
  bad ("", 4, 0, "empty topology");
  bad ("flat", 0, 0, "needs a number of ranks");
  bad ("file:topo", 4, 0, "topology file");
  bad ("b:2^3", 4, 0, "makes a tree of 15 ranks, not 4");
  bad ("b:2^3", 4, 0, "specs that fit 4 ranks: flat, k:2@4");
  bad ("k:2@8", 4, 0, "makes a tree of 8 ranks, not 4");
  bad ("g:2:8,4", 21, 0, "flat, b:4^2, b:2x9, b:5x3, k:2@21");
  CHECK_STR (treespec_file_path ("file:/tmp/t"), "/tmp/t");
  CHECK (treespec_file_path ("flat") == NULL);

  {
    char buf[200];
    CHECK_STR (treespec_fitting (15, buf, sizeof buf),
               "flat, b:2^3, b:2x6, k:2@15");
    CHECK_STR (treespec_fitting (1, buf, sizeof buf), "flat");
    CHECK_STR (treespec_fitting (4, buf, sizeof buf), "flat, k:2@4");
    CHECK_STR (treespec_fitting (7, buf, 10), "flat, b:2");
  }

  /* tree_from_parents.  */
  {
    struct tree t;
    struct treespec_error e;
    int p[] = { -1, 0, 1, 1, 0 };
    CHECK (tree_from_parents (p, 5, &t, &e) == 0);
    CHECK (t.depth == 2 && t.leaves == 3 && t.subtree[1] == 3);
    tree_free (&t);
    int q[] = { -1, 2, 1 };
    CHECK (tree_from_parents (q, 3, &t, &e) == -1);
    CHECK (strstr (e.msg, "cycle") != NULL);
    int s[] = { 0, 0 };
    CHECK (tree_from_parents (s, 2, &t, &e) == -1);
  }
  return unit_done ();
}
