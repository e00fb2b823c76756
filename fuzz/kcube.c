/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kcube.c (fuzz): the topology spec parser of loGPC-solve (--dims, common/
 * kcube.c) and the distances computed from it.
 *
 * Input: one byte of mode (bit 0 torus, bit 1 bidirectional, bit 2
 * exclude the source), 16 bytes naming two nodes, then the spec text.
 * Properties: a spec is accepted exactly when it is 1 to KCUBE_MAXDIM
 * radices >= 1 separated by x, X or ',' with at most KCUBE_MAXNODES
 * nodes, and refused as too big (-2) exactly when only the node count
 * fails; the radices are the ones written; on a valid topology with few enough nodes the hop count is
 * symmetric on bidirectional networks, zero from a node to itself, the sum
 * of its per-dimension shares and at most the diameter, and the average
 * distance is finite and within [0, diameter].  */
#include <config.h>

#include <math.h>

#include "fuzz.h"
#include "kcube.h"

/* An independent reading of the spec: 1 when valid, radices in K.  */
static int
spec (const char *t, int *n, int64_t *k)
{
  *n = 0;
  const char *p = t;
  for (;;)
    {
      if (*p < '0' || *p > '9')
        return 0;
      int64_t v = 0;
      while (*p >= '0' && *p <= '9')   /* saturating: huge is still valid */
        {
          int dg = *p++ - '0';
          v = v > (INT64_MAX - 9) / 10 ? INT64_MAX : v * 10 + dg;
        }
      if (v < 1 || *n == KCUBE_MAXDIM)
        return 0;
      k[(*n)++] = v;
      if (*p == '\0')
        return 1;
      if (*p != 'x' && *p != 'X' && *p != ',')
        return 0;
      p++;
    }
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("kcube-fuzz");
  if (size < 17)
    return 0;
  unsigned mode = data[0];
  uint64_t ra, rb;
  memcpy (&ra, data + 1, 8);
  memcpy (&rb, data + 9, 8);
  data += 17, size -= 17;
  /* An option value: the text up to the first NUL.  */
  const uint8_t *nul = memchr (data, '\0', size);
  if (nul)
    size = (size_t) (nul - data);
  char *text = malloc (size + 1);
  if (!text)
    abort ();
  memcpy (text, data, size);
  text[size] = '\0';

  struct kcube t, before;
  memset (&t, 0x5a, sizeof t);
  before = t;
  int rc = kcube_parse_dims (text, &t);
  int n;
  int64_t k[KCUBE_MAXDIM];
  int ok = spec (text, &n, k);
  if (rc != 0)
    {
      FUZZ_ASSERT ((rc == -1 || rc == -2)
                   && memcmp (&t, &before, sizeof t) == 0);
      /* -1: outside the grammar; -2: inside it, but more nodes than
         KCUBE_MAXNODES.  */
      FUZZ_ASSERT ((rc == -2) == ok);
    }
  else
    {
      FUZZ_ASSERT (ok && t.n == n);
      for (int d = 0; d < n; d++)
        FUZZ_ASSERT (t.k[d] == k[d]);
      t.torus = mode & 1;
      t.bidir = (mode >> 1) & 1;
      if (kcube_invalid (&t) == NULL)
        {
          int64_t nodes = kcube_nodes (&t);
          FUZZ_ASSERT (nodes >= 1);
          int64_t diameter = 0;
          for (int d = 0; d < t.n; d++)
            diameter += t.torus ? (t.bidir ? t.k[d] / 2 : t.k[d] - 1)
                                : t.k[d] - 1;
          if (nodes <= KCUBE_MAXNODES)
            {
              int64_t a = (int64_t) (ra % (uint64_t) nodes);
              int64_t b = (int64_t) (rb % (uint64_t) nodes);
              int64_t per[KCUBE_MAXDIM], sum = 0;
              int64_t h = kcube_hops (&t, a, b, per);
              for (int d = 0; d < t.n; d++)
                {
                  FUZZ_ASSERT (per[d] >= 0);
                  sum += per[d];
                }
              FUZZ_ASSERT (h == sum && h >= 0 && h <= diameter);
              FUZZ_ASSERT (kcube_hops (&t, a, a, NULL) == 0);
              if (t.bidir)
                FUZZ_ASSERT (kcube_hops (&t, b, a, NULL) == h);
              if (nodes >= 2 || !(mode & 4))
                {
                  double pd[KCUBE_MAXDIM];
                  double avg = kcube_avg_dist (&t, (mode & 4) != 0, pd);
                  FUZZ_ASSERT (isfinite (avg) && avg >= 0
                               && avg <= (double) diameter * (1 + 1e-12));
                }
            }
        }
    }
  (void) ok;
  free (text);
  return 0;
}
