/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-treefilter.c: the filters on hand-made packets, reductions over
   simulated trees against the flat reduction, and the conservation of the
   time-aligned filter.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "treefilter.h"
#include "treespec.h"
#include "unit.h"

static int
same (const struct tf_buf *a, const double *v, size_t n)
{
  if (a->len != n)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (a->v[i] != v[i])
      return 0;
  return 1;
}

/* Reduce the values of every rank (VALS: n rows of p->m) up tree T, as
   the overlay does: each rank starts from its own packet, combines its
   children's results in send order, passes the result up.  */
static void
reduce_tree (const struct tree *t, enum tf_kind kind,
             const struct tf_params *p, const double *vals,
             struct tf_buf *result)
{
  struct tf_buf *pk = calloc ((size_t) t->n, sizeof *pk);
  /* Ranks in reverse breadth-first order: children before parents.  */
  int *order = calloc ((size_t) t->n, sizeof (int));
  int head = 0, tail = 0;
  order[tail++] = 0;
  while (head < tail)
    {
      int r = order[head++];
      for (int i = 0; i < tree_nchildren (t, r); i++)
        order[tail++] = tree_children (t, r)[i];
    }
  for (int i = t->n - 1; i >= 0; i--)
    {
      int r = order[i];
      tf_buf_init (&pk[r]);
      CHECK (tf_local (kind, p, r, vals + (size_t) r * p->m, &pk[r]) == NULL);
      for (int k = 0; k < tree_nchildren (t, r); k++)
        {
          int c = tree_children (t, r)[k];
          CHECK (tf_combine (kind, p, &pk[r], pk[c].v, pk[c].len) == NULL);
        }
    }
  CHECK (tf_finish (kind, p, &pk[0]) == NULL);
  *result = pk[0];
  for (int r = 1; r < t->n; r++)
    tf_buf_free (&pk[r]);
  free (pk);
  free (order);
}

static void
tree_equals_flat (const char *spec, int n)
{
  static const enum tf_kind kinds[] = { TF_SUM, TF_MIN, TF_MAX, TF_AVG,
                                        TF_CONCAT, TF_BIN, TF_ALIGN };
  struct tree flat, t;
  CHECK (treespec_parse ("flat", n, &flat, NULL) == 0);
  CHECK (treespec_parse (spec, n, &t, NULL) == 0);
  srand (12345);
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
    {
      struct tf_params p = { 3, 0.5, 0, 1, 4 };
      double *vals = malloc ((size_t) n * 3 * sizeof (double));
      for (int r = 0; r < n; r++)
        for (int j = 0; j < 3; j++)
          {
            /* Integers (exact sums) for the arithmetic filters; a
               {value, start, end} sample per rank for align.  */
            double v = (double) (rand () % 1000) - 300;
            if (kinds[k] == TF_ALIGN)
              v = j == 0 ? (double) (rand () % 64)
                : j == 1 ? (double) (rand () % 8) * 0.5
                : vals[(size_t) r * 3 + 1] + 0.25 * (1 << (rand () % 3));
            else if (kinds[k] == TF_BIN)
              v = (double) (rand () % 7) * 0.3;
            vals[(size_t) r * 3 + j] = v;
          }
      struct tf_buf a, b;
      reduce_tree (&flat, kinds[k], &p, vals, &a);
      reduce_tree (&t, kinds[k], &p, vals, &b);
      if (kinds[k] == TF_ALIGN)
        {
          /* Sums of binary fractions: exact in any order.  */
          CHECK (same (&a, b.v, b.len));
          double total = 0, want = 0;
          for (size_t i = 0; i < a.len; i++)
            total += a.v[i];
          for (int r = 0; r < n; r++)
            want += vals[(size_t) r * 3];
          CHECK_NEAR (total, want, 1e-9);
        }
      else
        CHECK (same (&a, b.v, b.len));
      if (kinds[k] == TF_CONCAT)
        {
          CHECK (a.len == (size_t) n * 4);
          for (int r = 0; r < n && a.len == (size_t) n * 4; r++)
            CHECK (b.v[r * 4] == r && b.v[r * 4 + 3] == vals[r * 3 + 2]);
        }
      tf_buf_free (&a);
      tf_buf_free (&b);
      free (vals);
    }
  tree_free (&flat);
  tree_free (&t);
}

int
main (void)
{
  struct tf_params p = { 2, 0, 0, 1, 0 };
  struct tf_buf acc;
  tf_buf_init (&acc);

  /* Lookup.  */
  CHECK (tf_lookup ("avg")->kind == TF_AVG);
  CHECK (tf_lookup ("align")->kind == TF_ALIGN);
  CHECK (tf_lookup ("median") == NULL);

  /* sum, min, max element by element.  */
  {
    double a[] = { 1, 5 }, b[] = { 3, -2 }, c[] = { 2, 2, 2 };
    CHECK (tf_local (TF_SUM, &p, 0, a, &acc) == NULL);
    CHECK (tf_combine (TF_SUM, &p, &acc, b, 2) == NULL);
    CHECK (same (&acc, (double[]) { 4, 3 }, 2));
    CHECK (tf_combine (TF_SUM, &p, &acc, c, 3) != NULL);
    tf_local (TF_MIN, &p, 0, a, &acc);
    tf_combine (TF_MIN, &p, &acc, b, 2);
    CHECK (same (&acc, (double[]) { 1, -2 }, 2));
    tf_local (TF_MAX, &p, 0, a, &acc);
    tf_combine (TF_MAX, &p, &acc, b, 2);
    CHECK (same (&acc, (double[]) { 3, 5 }, 2));
    double bad[] = { 1, NAN };
    CHECK (tf_local (TF_SUM, &p, 0, bad, &acc) != NULL);
  }

  /* avg: combining sub-averages by {sum, count} is exact, averaging
     averages would not be: (1+2+3)/3 = 2, not ((1+2)/2 + 3)/2 = 2.25.  */
  {
    struct tf_params q = { 1, 0, 0, 1, 0 };
    struct tf_buf left, right;
    tf_buf_init (&left);
    tf_buf_init (&right);
    tf_local (TF_AVG, &q, 1, (double[]) { 1 }, &left);
    tf_local (TF_AVG, &q, 2, (double[]) { 2 }, &right);
    CHECK (same (&left, (double[]) { 1, 1 }, 2));
    tf_combine (TF_AVG, &q, &left, right.v, right.len);   /* {3, 2} */
    tf_local (TF_AVG, &q, 0, (double[]) { 3 }, &acc);
    tf_combine (TF_AVG, &q, &acc, left.v, left.len);
    CHECK (same (&acc, (double[]) { 6, 3 }, 2));
    CHECK (tf_finish (TF_AVG, &q, &acc) == NULL);
    CHECK (same (&acc, (double[]) { 2 }, 1));
    tf_buf_free (&left);
    tf_buf_free (&right);
  }

  /* concat: records appended, sorted by rank at the end.  */
  {
    tf_local (TF_CONCAT, &p, 0, (double[]) { 10, 11 }, &acc);
    double child[] = { 3, 30, 31, 1, 12, 13 };
    CHECK (tf_combine (TF_CONCAT, &p, &acc, child, 6) == NULL);
    CHECK (tf_combine (TF_CONCAT, &p, &acc, child, 5) != NULL);
    CHECK (tf_finish (TF_CONCAT, &p, &acc) == NULL);
    CHECK (same (&acc, (double[]) { 0, 10, 11, 1, 12, 13, 3, 30, 31 }, 9));
  }

  /* concat_rows: several records, or none, from one rank.  */
  {
    double rows[] = { 1, 2, 3, 4 };
    CHECK (tf_concat_rows (&p, 7, rows, 2, &acc) == NULL);
    CHECK (same (&acc, (double[]) { 7, 1, 2, 7, 3, 4 }, 6));
    CHECK (tf_concat_rows (&p, 7, rows, 0, &acc) == NULL && acc.len == 0);
    rows[3] = INFINITY;
    CHECK (tf_concat_rows (&p, 7, rows, 2, &acc) != NULL);
  }

  /* bin: classes with counts and members.  */
  {
    struct tf_params q = { 1, 10, 0, 1, 0 };
    struct tf_buf other;
    tf_buf_init (&other);
    tf_local (TF_BIN, &q, 0, (double[]) { 12.5 }, &acc);
    CHECK (same (&acc, (double[]) { 10, 1, 0 }, 3));
    CHECK (tf_bin_add (&acc, 3, 10, 4) == 0);
    CHECK (tf_bin_add (&acc, 19.9, 10, 2) == 0);
    CHECK (same (&acc, (double[]) { 0, 1, 4, 10, 2, 0, 2 }, 7));
    CHECK (tf_bin_add (&other, 15, 10, 1) == 0);
    CHECK (tf_bin_add (&other, 45, 10, 3) == 0);
    CHECK (tf_combine (TF_BIN, &q, &acc, other.v, other.len) == NULL);
    CHECK (same (&acc, (double[]) { 0, 1, 4, 10, 3, 0, 1, 2, 40, 1, 3 },
                 11));
    CHECK (tf_bin_nclasses (acc.v, acc.len) == 3);
    CHECK (tf_combine (TF_BIN, &q, &acc, (double[]) { 1, 2, 3 }, 3) != NULL);
    CHECK (tf_combine (TF_BIN, &q, &acc, (double[]) { 5, 1, 0, 4, 1, 1 }, 6)
           != NULL);
    CHECK (tf_bin_key (-0.5, 1) == -1);
    CHECK (tf_bin_key (0.3, 0) == 0.3);
    tf_buf_free (&other);
  }

  /* align, batch: Figure 5b.  A sample {6, [0.5, 2)} on a grid of unit
     intervals gives 2 to [0,1) and 4 to [1,2).  */
  {
    double bins[3] = { 0, 0, 0 }, out = 0;
    struct tf_sample s[] = { { 6, 0.5, 2 }, { 3, 2.5, 4 }, { 1, -1, 0 } };
    CHECK (tf_align_bins (s, 3, 0, 1, 3, bins, &out) == NULL);
    CHECK_NEAR (bins[0], 2, 1e-15);
    CHECK_NEAR (bins[1], 4, 1e-15);
    CHECK_NEAR (bins[2], 1, 1e-15);
    CHECK_NEAR (out, 3, 1e-15);    /* 1 before the grid, 2 after it */
    struct tf_sample bad = { 1, 2, 2 };
    CHECK (tf_align_bins (&bad, 1, 0, 1, 3, bins, &out) != NULL);
    CHECK (tf_align_bins (s, 1, 0, 0, 3, bins, &out) != NULL);
  }

  /* align, streaming (Figure 6): two inputs with unaligned intervals.  */
  {
    struct tf_aligner a;
    struct tf_samples out = { NULL, 0, 0 };
    CHECK (tf_aligner_init (&a, 2, 0, 1) == 0);
    CHECK (tf_aligner_push (&a, 0, (struct tf_sample) { 3, 0, 1.5 }, &out)
           == NULL);
    CHECK (out.len == 0);           /* input 1 has nothing yet */
    CHECK (tf_aligner_push (&a, 1, (struct tf_sample) { 1, 0, 1 }, &out)
           == NULL);
    CHECK (out.len == 1);
    CHECK_NEAR (out.v[0].value, 3, 1e-15);     /* 2 from input 0, 1 */
    CHECK (out.v[0].start == 0 && out.v[0].end == 1);
    CHECK_NEAR (tf_aligner_pending (&a), 1, 1e-15);
    /* Out of order, before the previous end: refused.  */
    CHECK (tf_aligner_push (&a, 0, (struct tf_sample) { 1, 1, 2 }, &out)
           != NULL);
    CHECK (tf_aligner_push (&a, 5, (struct tf_sample) { 1, 2, 3 }, &out)
           != NULL);
    CHECK (tf_aligner_push (&a, 1, (struct tf_sample) { 4, 1, 3 }, &out)
           == NULL);
    CHECK (out.len == 1);           /* input 0 covers only up to 1.5 */
    CHECK (tf_aligner_push (&a, 0, (struct tf_sample) { 2, 1.5, 3.5 },
                            &out) == NULL);
    CHECK (out.len == 3);
    CHECK_NEAR (out.v[1].value, 1 + 0.5 + 2, 1e-15);
    CHECK_NEAR (out.v[2].value, 1 + 2, 1e-15);
    CHECK (tf_aligner_flush (&a, &out) == NULL);
    CHECK (out.len == 4);
    CHECK_NEAR (out.v[3].value, 0.5, 1e-15);
    CHECK (out.v[3].start == 3 && out.v[3].end == 4);
    tf_aligner_free (&a);
    tf_samples_free (&out);
  }

  /* align, streaming: conservation on many random samples on 4 inputs
     (no value lost to rounding or to splitting).  */
  {
    struct tf_aligner a;
    struct tf_samples out = { NULL, 0, 0 };
    double t[4] = { 0, 0, 0, 0 }, in_total = 0;
    CHECK (tf_aligner_init (&a, 4, 0, 0.7) == 0);
    srand (7);
    for (int k = 0; k < 4000; k++)
      {
        int i = rand () % 4;
        double gap = (rand () % 3 == 0) ? 0.01 * (rand () % 50) : 0;
        double len = 0.001 + 0.003 * (rand () % 1000);
        struct tf_sample s = { 0.1 * (rand () % 1000), t[i] + gap,
                               t[i] + gap + len };
        t[i] = s.end;
        in_total += s.value;
        CHECK (tf_aligner_push (&a, (size_t) i, s, &out) == NULL);
      }
    double mid = 0;
    for (size_t k = 0; k < out.len; k++)
      mid += out.v[k].value;
    CHECK_NEAR (mid + tf_aligner_pending (&a), in_total, 1e-9 * in_total);
    CHECK (tf_aligner_flush (&a, &out) == NULL);
    double total = 0;
    for (size_t k = 0; k < out.len; k++)
      {
        total += out.v[k].value;
        CHECK (k == 0 || out.v[k].start == out.v[k - 1].end);
      }
    CHECK_NEAR (total, in_total, 1e-9 * in_total);
    CHECK (tf_aligner_pending (&a) == 0);
    tf_aligner_free (&a);
    tf_samples_free (&out);
  }

  /* Every filter through every shape equals the flat reduction.  */
  tree_equals_flat ("b:2x4x8", 75);
  tree_equals_flat ("b:4^2", 21);
  tree_equals_flat ("k:2@128", 128);
  tree_equals_flat ("k:3@40", 40);
  tree_equals_flat ("g:2:8,4", 15);
  tree_equals_flat ("flat", 15);

  tf_buf_free (&acc);
  return unit_done ();
}
