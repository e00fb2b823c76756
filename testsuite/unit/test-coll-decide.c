/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-coll-decide: Open MPI 4.1.4's fixed collective decision
 * (common/dag/coll_decide.h) on both sides of its thresholds, read off
 * coll_tuned_decision_fixed.c's rules by hand, and every choice mapped
 * to a generator of dag_coll.h.  */
#include <config.h>

#include <stdint.h>

#include "coll_decide.h"
#include "unit.h"

struct c
{
  const char *op;
  int64_t P, bytes;
  const char *algo;
};

static const struct c cases[] = {
  /* barrier: by P only */
  { "barrier", 2, 0, "recursive_doubling" },
  { "barrier", 3, 0, "recursive_doubling" },
  { "barrier", 4, 0, "linear" },
  { "barrier", 7, 0, "linear" },
  { "barrier", 8, 0, "recursive_doubling" },
  { "barrier", 63, 0, "recursive_doubling" },
  { "barrier", 64, 0, "bruck" },
  { "barrier", 256, 0, "tree" },
  { "barrier", 512, 0, "bruck" },
  { "barrier", 1024, 0, "tree" },
  { "barrier", 4095, 0, "tree" },
  { "barrier", 4096, 0, "bruck" },
  /* allreduce, commutative, P < 4 */
  { "allreduce", 2, 0, "ring" },
  { "allreduce", 2, 7, "ring" },
  { "allreduce", 2, 8, "recursive_doubling" },
  { "allreduce", 3, 4095, "recursive_doubling" },
  { "allreduce", 2, 4096, "ring" },
  { "allreduce", 2, 8191, "ring" },
  { "allreduce", 2, 8192, "recursive_doubling" },
  { "allreduce", 2, 16384, "ring" },
  { "allreduce", 2, 65535, "ring" },
  { "allreduce", 2, 65536, "segmented_ring" },
  { "allreduce", 2, 262143, "segmented_ring" },
  { "allreduce", 2, 262144, "rabenseifner" },
  /* P 4 to 7 */
  { "allreduce", 4, 15, "ring" },
  { "allreduce", 4, 16, "recursive_doubling" },
  { "allreduce", 7, 8191, "recursive_doubling" },
  { "allreduce", 4, 8192, "rabenseifner" },
  /* larger */
  { "allreduce", 8, 8191, "recursive_doubling" },
  { "allreduce", 16, 63, "segmented_ring" },
  { "allreduce", 16, 64, "recursive_doubling" },
  { "allreduce", 32, 127, "segmented_ring" },
  { "allreduce", 32, 128, "rabenseifner" },
  { "allreduce", 128, 131071, "nonoverlapping" },
  { "allreduce", 4096, 16383, "segmented_ring" },
  { "allreduce", 4096, 32768, "rabenseifner" },
  /* bcast */
  { "bcast", 2, 31, "pipeline" },
  { "bcast", 2, 32, "binary_tree" },
  { "bcast", 2, 256, "pipeline" },
  { "bcast", 2, 512, "knomial" },
  { "bcast", 2, 1024, "basic_linear" },
  { "bcast", 2, 32768, "binary_tree" },
  { "bcast", 2, 131072, "chain" },
  { "bcast", 2, 262144, "basic_linear" },
  { "bcast", 2, 524288, "binomial" },
  { "bcast", 2, 1048576, "binary_tree" },
  { "bcast", 4, 63, "binary_tree" },
  { "bcast", 4, 64, "binomial" },
  { "bcast", 4, 128, "binary_tree" },
  { "bcast", 4, 2048, "binomial" },
  { "bcast", 4, 8192, "basic_linear" },
  { "bcast", 4, 1048576, "chain" },
  { "bcast", 8, 7, "knomial" },
  { "bcast", 512, 16384, "split_binary_tree" },
  { "bcast", 4096, 8192, "binary_tree" },
  /* reduce, commutative */
  { "reduce", 2, 7, "rabenseifner" },
  { "reduce", 2, 8, "binary" },
  { "reduce", 2, 16, "pipeline" },
  { "reduce", 2, 32, "linear" },
  { "reduce", 2, 262144, "pipeline" },
  { "reduce", 2, 524288, "chain" },
  { "reduce", 2, 1048576, "pipeline" },
  { "reduce", 4, 4095, "binary" },
  { "reduce", 4, 4096, "chain" },
  { "reduce", 4, 65536, "binomial" },
  { "reduce", 4, 262144, "linear" },
  { "reduce", 4, 524288, "binomial" },
  { "reduce", 4, 1048576, "linear" },
  { "reduce", 256, 8192, "in-order_binary" },
  /* allgather */
  { "allgather", 2, 1000000, "two_proc" },
  { "allgather", 3, 0, "recursive_doubling" },
  { "allgather", 31, 1 << 20, "recursive_doubling" },
  { "allgather", 32, 1023, "recursive_doubling" },
  { "allgather", 32, 1024, "neighbor" },
  { "allgather", 32, 65536, "ring" },
  { "allgather", 256, 32, "bruck" },
  /* alltoall */
  { "alltoall", 2, 1, "pairwise" },
  { "alltoall", 2, 2, "two_proc" },
  { "alltoall", 2, 4, "pairwise" },
  { "alltoall", 2, 16, "two_proc" },
  { "alltoall", 2, 64, "pairwise" },
  { "alltoall", 2, 256, "two_proc" },
  { "alltoall", 2, 4096, "pairwise" },
  { "alltoall", 2, 32768, "linear_sync" },
  { "alltoall", 2, 262144, "two_proc" },
  { "alltoall", 2, 1048576, "pairwise" },
  { "alltoall", 3, 8191, "linear_sync" },
  { "alltoall", 4, 8192, "linear" },
  { "alltoall", 4, 16384, "linear_sync" },
  { "alltoall", 4, 65536, "linear" },
  { "alltoall", 4, 524288, "pairwise" },
  { "alltoall", 4, 1048576, "linear" },
  { "alltoall", 16, 3, "linear_sync" },
  { "alltoall", 16, 4, "modified_bruck" },
  /* gather */
  { "gather", 2, 1, "linear_sync" },
  { "gather", 2, 2, "basic_linear" },
  { "gather", 2, 4, "binomial" },
  { "gather", 2, 32768, "basic_linear" },
  { "gather", 2, 65536, "binomial" },
  { "gather", 2, 131072, "linear_sync" },
  { "gather", 4, 1023, "binomial" },
  { "gather", 4, 1024, "basic_linear" },
  { "gather", 4, 8192, "binomial" },
  { "gather", 4, 32768, "basic_linear" },
  { "gather", 4, 262144, "linear_sync" },
  { "gather", 300, 2048, "basic_linear" },
  /* scatter */
  { "scatter", 2, 1, "linear_nb" },
  { "scatter", 2, 2, "basic_linear" },
  { "scatter", 2, 131072, "linear_nb" },
  { "scatter", 2, 262144, "basic_linear" },
  { "scatter", 4, 2047, "binomial" },
  { "scatter", 4, 2048, "basic_linear" },
  { "scatter", 4, 4096, "binomial" },
  { "scatter", 4, 8192, "basic_linear" },
  { "scatter", 4, 32768, "linear_nb" },
  { "scatter", 4, 1048576, "basic_linear" },
  { "scatter", 64, 511, "binomial" },
  { "scatter", 64, 512, "linear_nb" },
  /* alltoallv: by P only */
  { "alltoallv", 2, 0, "pairwise" },
  { "alltoallv", 3, 1048576, "pairwise" },
  { "alltoallv", 4, 0, "basic_linear" },
  { "alltoallv", 63, 0, "basic_linear" },
  { "alltoallv", 64, 0, "pairwise" },
  { "alltoallv", 127, 0, "pairwise" },
  { "alltoallv", 128, 0, "basic_linear" },
  { "alltoallv", 255, 0, "basic_linear" },
  { "alltoallv", 256, 0, "pairwise" },
  { "alltoallv", 1023, 0, "pairwise" },
  { "alltoallv", 1024, 0, "basic_linear" },
  { "alltoallv", 8192, 1, "basic_linear" },
  /* allgatherv: by P and the mean block (Open MPI 4.1.4's
     ompi_coll_tuned_allgatherv_intra_dec_fixed; the table was compared
     with that code at 5,250 points) */
  { "allgatherv", 2, 2047, "ring" },
  { "allgatherv", 2, 2048, "two_proc" },
  { "allgatherv", 2, 4096, "ring" },
  { "allgatherv", 2, 8192, "two_proc" },
  { "allgatherv", 3, 255, "default" },
  { "allgatherv", 7, 256, "neighbor" },
  { "allgatherv", 8, 1023, "default" },
  { "allgatherv", 8, 1024, "bruck" },
  { "allgatherv", 4096, 4095, "bruck" },
  { "allgatherv", 4096, 4096, "neighbor" },
  /* reduce_scatter: by P and the whole vector */
  { "reduce_scatter", 2, 65535, "ring" },
  { "reduce_scatter", 3, 65536, "butterfly" },
  { "reduce_scatter", 3, 131072, "ring" },
  { "reduce_scatter", 4, 7, "non-overlapping" },
  { "reduce_scatter", 4, 8, "recursive_halving" },
  { "reduce_scatter", 8192, 1023, "non-overlapping" },
  { "reduce_scatter", 8192, 8192, "butterfly" },
  /* reduce_scatter_block: by P and a rank's block */
  { "reduce_scatter_block", 2, 3, "recursive_doubling" },
  { "reduce_scatter_block", 3, 4, "butterfly" },
  { "reduce_scatter_block", 3, 131072, "basic_linear" },
  { "reduce_scatter_block", 8192, 3, "recursive_halving" },
  { "reduce_scatter_block", 8192, 4, "basic_linear" },
  { "reduce_scatter_block", 8192, 16, "butterfly" },
};

static const char *const ops[] = {
  "barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
  "gather", "scatter"
};

int
main (void)
{
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      const char *a = coll_decide (cases[i].op, cases[i].P, cases[i].bytes);
      CHECK (a && strcmp (a, cases[i].algo) == 0);
      if (!a || strcmp (a, cases[i].algo) != 0)
        fprintf (stderr, "%s P=%lld %lld bytes: %s, expected %s\n",
                 cases[i].op, (long long) cases[i].P,
                 (long long) cases[i].bytes, a ? a : "NULL", cases[i].algo);
    }
  /* out of the domain */
  CHECK (coll_decide ("scan", 4, 8) == NULL);
  CHECK (coll_decide ("bcast", 1, 8) == NULL);
  CHECK (coll_decide ("bcast", 4, -1) == NULL);
  CHECK (coll_decide (NULL, 4, 8) == NULL);
  /* every choice at every P and size has a generator */
  for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++)
    for (int64_t P = 2; P <= 8192; P += P < 16 ? 1 : P / 8)
      for (int64_t b = 0; b <= (INT64_C (1) << 24); b = b ? 2 * b : 1)
        for (int64_t d = -1; d <= 0; d++)
          {
            const char *a = coll_decide (ops[o], P, b + d < 0 ? 0 : b + d);
            const char *g = coll_decide_generator (ops[o], a);
            CHECK (a && g);
          }
  /* modelled by itself once dag_coll generates it, else the nearest */
  const char *g = coll_decide_generator ("bcast", "split_binary_tree");
  CHECK (g && (strcmp (g, "split_binary_tree") == 0
               || strcmp (g, "binary_tree") == 0));
  g = coll_decide_generator ("reduce", "rabenseifner");
  CHECK (g && (strcmp (g, "rabenseifner") == 0 || strcmp (g, "linear") == 0));
  CHECK (strcmp (coll_decide_generator ("reduce", "in-order_binary"),
                 "in-order_binary") == 0);
  CHECK (strcmp (coll_decide_generator ("bcast", "knomial"), "knomial")
         == 0);
  CHECK (coll_decide_generator ("bcast", "no_such") == NULL);
  /* the fixed rules' chains have one column */
  CHECK (strcmp (coll_decide_fixed_run ("reduce", "chain"), "pipeline") == 0);
  CHECK (strcmp (coll_decide_fixed_run ("bcast", "chain"), "pipeline") == 0);
  CHECK (strcmp (coll_decide_fixed_run ("bcast", "binomial"), "binomial")
         == 0);
  /* Open MPI's switches on small counts (coll_base_allreduce.c) */
  CHECK (strcmp (coll_decide_fallback ("allreduce", "ring", 4, 3),
                 "recursive_doubling") == 0);
  CHECK (strcmp (coll_decide_fallback ("allreduce", "ring", 4, 4), "ring")
         == 0);
  CHECK (strcmp (coll_decide_fallback ("allreduce", "segmented_ring", 2, 1),
                 "recursive_doubling") == 0);
  CHECK (strcmp (coll_decide_fallback ("allreduce", "ring", 2, -1), "ring")
         == 0);
  CHECK (strcmp (coll_decide_fallback ("allreduce", "rabenseifner", 7, 3),
                 "basic_linear") == 0);
  CHECK (strcmp (coll_decide_fallback ("allreduce", "rabenseifner", 7, 4),
                 "rabenseifner") == 0);
  CHECK (strcmp (coll_decide_fallback ("allreduce", "rabenseifner", 8, 7),
                 "basic_linear") == 0);
  CHECK (strcmp (coll_decide_fallback ("allreduce", "rabenseifner", 8, 8),
                 "rabenseifner") == 0);
  CHECK (strcmp (coll_decide_fallback ("reduce", "ring", 4, 1), "ring")
         == 0);
  return unit_done ();
}
