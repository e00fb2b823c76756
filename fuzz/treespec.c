/* SPDX-License-Identifier: GPL-3.0-or-later */
/* treespec.c (fuzz): comet-run's tree topology specs (common/models/trees/treespec.h):
 * the one-line spec (first byte bit 0 clear) or a topology file's text,
 * for a number of ranks taken from the second byte (1 to 256).  No die: errors come back in struct treespec_error.
 * Properties: an error has a message (out of memory: "out of memory
 * while ...", line and column 0); a tree has rank 0 as root, every
 * other rank's parent a rank of a smaller level, children lists that are
 * the inverse of the parent array, subtree sizes that add up, and the
 * counts (depth, leaves, internal, max_fanout) that match.  */
#include <config.h>

#include "fuzz.h"
#include "treespec.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("treespec-fuzz");
  if (size < 2)
    return 0;
  int file = data[0] & 1;
  /* 1 to 256 ranks: "as many as the spec makes" (0) lets one input ask
     for 2^24 ranks, seconds and hundreds of MB per input; that mode is
     the testsuite's.  */
  int nranks = data[1] + 1;
  data += 2, size -= 2;
  const uint8_t *nul = memchr (data, '\0', size);
  if (nul)
    size = (size_t) (nul - data);
  char *text = malloc (size + 1);
  if (!text)
    abort ();
  memcpy (text, data, size);
  text[size] = '\0';
  struct tree t;
  struct treespec_error err;
  memset (&t, 0, sizeof t);
  memset (&err, 0, sizeof err);
  int rc = file ? treespec_parse_text (text, nranks, &t, &err)
                : treespec_parse (text, nranks, &t, &err);
  if (rc != 0)
    FUZZ_ASSERT (rc == -1 && err.msg[0] != '\0'
                 && memchr (err.msg, '\0', sizeof err.msg)
                 && (!err.nomem
                     || (err.line == 0 && err.col == 0
                         && strncmp (err.msg, "out of memory while ", 20)
                            == 0)));
  else
    {
      FUZZ_ASSERT (t.n == nranks);
      FUZZ_ASSERT (t.parent[0] == -1 && t.level[0] == 0);
      int leaves = 0, internal = 0, fan = 0, depth = 0;
      long sum_children = 0;
      for (int r = 0; r < t.n; r++)
        {
          int nc = tree_nchildren (&t, r);
          FUZZ_ASSERT (nc >= 0);
          sum_children += nc;
          int sub = 1;
          for (int i = 0; i < nc; i++)
            {
              int c = tree_children (&t, r)[i];
              FUZZ_ASSERT (c > 0 && c < t.n && t.parent[c] == r);
              FUZZ_ASSERT (t.level[c] == t.level[r] + 1);
              sub += t.subtree[c];
            }
          FUZZ_ASSERT (t.subtree[r] == sub);
          leaves += nc == 0;
          internal += nc > 0;
          fan = nc > fan ? nc : fan;
          depth = t.level[r] > depth ? t.level[r] : depth;
        }
      FUZZ_ASSERT (sum_children == t.n - 1 && t.subtree[0] == t.n);
      FUZZ_ASSERT (leaves == t.leaves && internal == t.internal
                   && fan == t.max_fanout && depth == t.depth);
      tree_free (&t);
    }
  free (text);
  return 0;
}
