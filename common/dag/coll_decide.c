/* SPDX-License-Identifier: GPL-3.0-or-later */
/* coll_decide.c: Open MPI 4.1's default collective algorithms (see
 * coll_decide.h).
 *
 * Each operation's rules are one table of rows (P below, bytes below,
 * algorithm): the first row whose bounds are both above the call's P
 * and bytes names the algorithm.  The rows of one P band go by
 * increasing bytes and end with an unbounded one; the bands go by
 * increasing P and the last is unbounded.  So a rule change is one row,
 * and testsuite/unit/test-coll-decide checks the values at both sides of
 * every threshold.  */
#include <config.h>

#include <stddef.h>
#include <string.h>

#include "coll_decide.h"
#include "dag_coll.h"

#define ANY INT64_MAX

struct rule
{
  int64_t p_below, bytes_below;
  const char *algo;
};

static const struct rule barrier_rules[] = {
  { 4, ANY, "recursive_doubling" },
  { 8, ANY, "linear" },
  { 64, ANY, "recursive_doubling" },
  { 256, ANY, "bruck" },
  { 512, ANY, "tree" },
  { 1024, ANY, "bruck" },
  { 4096, ANY, "tree" },
  { ANY, ANY, "bruck" },
};

static const struct rule bcast_rules[] = {
  { 4, 32, "pipeline" }, { 4, 256, "binary_tree" }, { 4, 512, "pipeline" },
  { 4, 1024, "knomial" }, { 4, 32768, "basic_linear" },
  { 4, 131072, "binary_tree" }, { 4, 262144, "chain" },
  { 4, 524288, "basic_linear" }, { 4, 1048576, "binomial" },
  { 4, ANY, "binary_tree" },
  { 8, 64, "binary_tree" }, { 8, 128, "binomial" },
  { 8, 2048, "binary_tree" }, { 8, 8192, "binomial" },
  { 8, 1048576, "basic_linear" }, { 8, ANY, "chain" },
  { 16, 8, "knomial" }, { 16, 64, "binary_tree" }, { 16, 4096, "knomial" },
  { 16, 16384, "binary_tree" }, { 16, 32768, "binomial" },
  { 16, ANY, "basic_linear" },
  { 32, 4096, "knomial" }, { 32, 1048576, "binomial" },
  { 32, ANY, "scatter_allgather" },
  { 64, 2048, "binomial" }, { 64, ANY, "knomial" },
  { 128, ANY, "knomial" },
  { 256, 2, "binomial" }, { 256, 16384, "binary_tree" },
  { 256, 32768, "basic_linear" }, { 256, 65536, "binary_tree" },
  { 256, ANY, "knomial" },
  { 1024, 16384, "knomial" }, { 1024, 32768, "split_binary_tree" },
  { 1024, ANY, "knomial" },
  { 2048, 524288, "knomial" }, { 2048, ANY, "scatter_allgather" },
  { 4096, 262144, "knomial" }, { 4096, ANY, "scatter_allgather" },
  { ANY, 8192, "knomial" }, { ANY, 16384, "binary_tree" },
  { ANY, 262144, "knomial" }, { ANY, ANY, "scatter_allgather" },
};

/* commutative operations */
static const struct rule reduce_rules[] = {
  { 4, 8, "rabenseifner" }, { 4, 16, "binary" }, { 4, 32, "pipeline" },
  { 4, 262144, "linear" }, { 4, 524288, "pipeline" },
  { 4, 1048576, "chain" }, { 4, ANY, "pipeline" },
  { 8, 4096, "binary" }, { 8, 65536, "chain" }, { 8, 262144, "binomial" },
  { 8, 524288, "linear" }, { 8, 1048576, "binomial" }, { 8, ANY, "linear" },
  { 16, 8192, "binary" }, { 16, ANY, "binomial" },
  { 32, 4096, "binary" }, { 32, ANY, "binomial" },
  { 256, ANY, "binomial" },
  { 512, 8192, "binomial" }, { 512, 16384, "in-order_binary" },
  { 512, ANY, "binomial" },
  { 2048, ANY, "binomial" },
  { 4096, 512, "binomial" }, { 4096, 1024, "in-order_binary" },
  { 4096, 8192, "binomial" }, { 4096, 16384, "in-order_binary" },
  { 4096, ANY, "binomial" },
  { ANY, 16, "binomial" }, { ANY, 32, "in-order_binary" },
  { ANY, 1024, "binomial" }, { ANY, 2048, "in-order_binary" },
  { ANY, 8192, "binomial" }, { ANY, 16384, "in-order_binary" },
  { ANY, ANY, "binomial" },
};

/* commutative operations */
static const struct rule allreduce_rules[] = {
  { 4, 8, "ring" }, { 4, 4096, "recursive_doubling" }, { 4, 8192, "ring" },
  { 4, 16384, "recursive_doubling" }, { 4, 65536, "ring" },
  { 4, 262144, "segmented_ring" }, { 4, ANY, "rabenseifner" },
  { 8, 16, "ring" }, { 8, 8192, "recursive_doubling" },
  { 8, ANY, "rabenseifner" },
  { 16, 8192, "recursive_doubling" }, { 16, ANY, "rabenseifner" },
  { 32, 64, "segmented_ring" }, { 32, 4096, "recursive_doubling" },
  { 32, ANY, "rabenseifner" },
  { 64, 128, "segmented_ring" }, { 64, ANY, "rabenseifner" },
  { 128, 262144, "recursive_doubling" }, { 128, ANY, "rabenseifner" },
  { 256, 131072, "nonoverlapping" }, { 256, 262144, "recursive_doubling" },
  { 256, ANY, "rabenseifner" },
  { 512, 4096, "nonoverlapping" }, { 512, ANY, "rabenseifner" },
  { 2048, 2048, "nonoverlapping" }, { 2048, 16384, "recursive_doubling" },
  { 2048, ANY, "rabenseifner" },
  { 4096, 2048, "nonoverlapping" }, { 4096, 4096, "segmented_ring" },
  { 4096, 16384, "recursive_doubling" }, { 4096, ANY, "rabenseifner" },
  { ANY, 2048, "nonoverlapping" }, { ANY, 16384, "segmented_ring" },
  { ANY, 32768, "recursive_doubling" }, { ANY, ANY, "rabenseifner" },
};

static const struct rule allgather_rules[] = {
  { 3, ANY, "two_proc" },
  { 32, ANY, "recursive_doubling" },
  { 64, 1024, "recursive_doubling" }, { 64, 65536, "neighbor" },
  { 64, ANY, "ring" },
  { 128, 512, "recursive_doubling" }, { 128, 65536, "neighbor" },
  { 128, ANY, "ring" },
  { 256, 512, "recursive_doubling" }, { 256, 131072, "neighbor" },
  { 256, 524288, "ring" }, { 256, 1048576, "neighbor" }, { 256, ANY, "ring" },
  { 512, 32, "recursive_doubling" }, { 512, 128, "bruck" },
  { 512, 1024, "recursive_doubling" }, { 512, 131072, "neighbor" },
  { 512, 524288, "ring" }, { 512, 1048576, "neighbor" }, { 512, ANY, "ring" },
  { 1024, 64, "recursive_doubling" }, { 1024, 256, "bruck" },
  { 1024, 2048, "recursive_doubling" }, { 1024, ANY, "neighbor" },
  { 2048, 4, "recursive_doubling" }, { 2048, 8, "bruck" },
  { 2048, 16, "recursive_doubling" }, { 2048, 32, "bruck" },
  { 2048, 256, "recursive_doubling" }, { 2048, 512, "bruck" },
  { 2048, 4096, "recursive_doubling" }, { 2048, ANY, "neighbor" },
  { 4096, 32, "bruck" }, { 4096, 128, "recursive_doubling" },
  { 4096, 512, "bruck" }, { 4096, 4096, "recursive_doubling" },
  { 4096, ANY, "neighbor" },
  { ANY, 2, "recursive_doubling" }, { ANY, 8, "bruck" },
  { ANY, 16, "recursive_doubling" }, { ANY, 512, "bruck" },
  { ANY, 4096, "recursive_doubling" }, { ANY, ANY, "neighbor" },
};

static const struct rule alltoall_rules[] = {
  { 3, 2, "pairwise" }, { 3, 4, "two_proc" }, { 3, 16, "pairwise" },
  { 3, 64, "two_proc" }, { 3, 256, "pairwise" }, { 3, 4096, "two_proc" },
  { 3, 32768, "pairwise" }, { 3, 262144, "linear_sync" },
  { 3, 1048576, "two_proc" }, { 3, ANY, "pairwise" },
  { 8, 8192, "linear_sync" }, { 8, 16384, "linear" },
  { 8, 65536, "linear_sync" }, { 8, 524288, "linear" },
  { 8, 1048576, "pairwise" }, { 8, ANY, "linear" },
  { 16, 262144, "linear_sync" }, { 16, ANY, "linear" },
  { 32, 4, "linear_sync" }, { 32, 512, "modified_bruck" },
  { 32, 8192, "linear_sync" }, { 32, 32768, "linear" },
  { 32, 262144, "linear_sync" }, { 32, 524288, "linear" },
  { 32, ANY, "linear_sync" },
  { 64, 512, "modified_bruck" }, { 64, 524288, "linear" },
  { 64, ANY, "linear_sync" },
  { 128, 1024, "modified_bruck" }, { 128, 2048, "linear" },
  { 128, 4096, "linear_sync" }, { 128, 262144, "linear" },
  { 128, ANY, "pairwise" },
  { 256, 1024, "modified_bruck" }, { 256, 2048, "linear_sync" },
  { 256, 262144, "linear" }, { 256, ANY, "pairwise" },
  { 512, 1024, "modified_bruck" }, { 512, 8192, "linear_sync" },
  { 512, 32768, "linear" }, { 512, ANY, "pairwise" },
  { 1024, 512, "modified_bruck" }, { 1024, 8192, "linear_sync" },
  { 1024, 16384, "linear" }, { 1024, 131072, "linear_sync" },
  { 1024, 262144, "linear" }, { 1024, ANY, "pairwise" },
  { 2048, 512, "modified_bruck" }, { 2048, 1024, "linear_sync" },
  { 2048, 2048, "linear" }, { 2048, 16384, "linear_sync" },
  { 2048, 262144, "linear" }, { 2048, ANY, "linear_sync" },
  { 4096, 1024, "modified_bruck" }, { 4096, 4096, "linear_sync" },
  { 4096, 8192, "linear" }, { 4096, 131072, "linear_sync" },
  { 4096, ANY, "linear" },
  { ANY, 2048, "modified_bruck" }, { ANY, 8192, "linear_sync" },
  { ANY, 16384, "linear" }, { ANY, 32768, "linear_sync" },
  { ANY, 65536, "linear" }, { ANY, ANY, "linear_sync" },
};

static const struct rule gather_rules[] = {
  { 4, 2, "linear_sync" }, { 4, 4, "basic_linear" }, { 4, 32768, "binomial" },
  { 4, 65536, "basic_linear" }, { 4, 131072, "binomial" },
  { 4, ANY, "linear_sync" },
  { 8, 1024, "binomial" }, { 8, 8192, "basic_linear" },
  { 8, 32768, "binomial" }, { 8, 262144, "basic_linear" },
  { 8, ANY, "linear_sync" },
  { 256, ANY, "binomial" },
  { 512, 2048, "binomial" }, { 512, 8192, "basic_linear" },
  { 512, ANY, "binomial" },
  { ANY, ANY, "binomial" },
};

static const struct rule scatter_rules[] = {
  { 4, 2, "linear_nb" }, { 4, 131072, "basic_linear" },
  { 4, 262144, "linear_nb" }, { 4, ANY, "basic_linear" },
  { 8, 2048, "binomial" }, { 8, 4096, "basic_linear" },
  { 8, 8192, "binomial" }, { 8, 32768, "basic_linear" },
  { 8, 1048576, "linear_nb" }, { 8, ANY, "basic_linear" },
  { 16, 16384, "binomial" }, { 16, 1048576, "linear_nb" },
  { 16, ANY, "basic_linear" },
  { 32, 16384, "binomial" }, { 32, 32768, "basic_linear" },
  { 32, ANY, "linear_nb" },
  { 64, 512, "binomial" }, { 64, 8192, "linear_nb" },
  { 64, 16384, "binomial" }, { 64, ANY, "linear_nb" },
  { ANY, 512, "binomial" }, { ANY, ANY, "linear_nb" },
};

/* by P only (the rules of alltoallv do not look at the sizes) */
static const struct rule alltoallv_rules[] = {
  { 4, ANY, "pairwise" }, { 64, ANY, "basic_linear" },
  { 128, ANY, "pairwise" }, { 256, ANY, "basic_linear" },
  { 1024, ANY, "pairwise" }, { ANY, ANY, "basic_linear" },
};

/* by P and a rank's mean block, the total over P rounded down (the
   rules of allgatherv) */
static const struct rule allgatherv_rules[] = {
  { 3, 2048, "ring" }, { 3, 4096, "two_proc" }, { 3, 8192, "ring" },
  { 3, ANY, "two_proc" },
  { 8, 256, "default" }, { 8, 4096, "neighbor" }, { 8, 8192, "ring" },
  { 8, 16384, "neighbor" }, { 8, 262144, "bruck" }, { 8, ANY, "neighbor" },
  { 16, 1024, "default" }, { 16, ANY, "bruck" },
  { 32, 128, "default" }, { 32, 262144, "bruck" }, { 32, ANY, "ring" },
  { 64, 256, "default" }, { 64, 8192, "bruck" }, { 64, ANY, "ring" },
  { 128, 256, "default" }, { 128, 4096, "bruck" }, { 128, ANY, "ring" },
  { 256, 1024, "bruck" }, { 256, 65536, "neighbor" }, { 256, ANY, "ring" },
  { 512, 1024, "bruck" }, { 512, ANY, "ring" },
  { 1024, 512, "bruck" }, { 1024, 1024, "default" }, { 1024, 4096, "bruck" },
  { 1024, 1048576, "neighbor" }, { 1024, ANY, "ring" },
  { ANY, 4096, "bruck" }, { ANY, ANY, "neighbor" },
};

/* commutative operations; by P and the whole vector */
static const struct rule reduce_scatter_rules[] = {
  { 4, 65536, "ring" }, { 4, 131072, "butterfly" }, { 4, ANY, "ring" },
  { 8, 8, "non-overlapping" }, { 8, 262144, "recursive_halving" },
  { 8, ANY, "ring" },
  { 32, 262144, "recursive_halving" }, { 32, ANY, "ring" },
  { 64, 64, "non-overlapping" }, { 64, 2048, "recursive_halving" },
  { 64, 524288, "butterfly" }, { 64, ANY, "ring" },
  { 128, 256, "non-overlapping" }, { 128, 512, "recursive_halving" },
  { 128, 2048, "butterfly" }, { 128, 4096, "recursive_halving" },
  { 128, ANY, "butterfly" },
  { 256, 256, "non-overlapping" }, { 256, 512, "recursive_halving" },
  { 256, ANY, "butterfly" },
  { 512, 256, "non-overlapping" }, { 512, 1024, "recursive_halving" },
  { 512, ANY, "butterfly" },
  { 1024, 512, "non-overlapping" }, { 1024, 2048, "recursive_halving" },
  { 1024, 8192, "butterfly" }, { 1024, 16384, "recursive_halving" },
  { 1024, ANY, "butterfly" },
  { 2048, 512, "non-overlapping" }, { 2048, 4096, "recursive_halving" },
  { 2048, 16384, "butterfly" }, { 2048, 32768, "recursive_halving" },
  { 2048, ANY, "butterfly" },
  { 4096, 512, "non-overlapping" }, { 4096, 4096, "recursive_halving" },
  { 4096, ANY, "butterfly" },
  { ANY, 1024, "non-overlapping" }, { ANY, 8192, "recursive_halving" },
  { ANY, ANY, "butterfly" },
};

/* commutative operations; by P and a rank's block */
static const struct rule reduce_scatter_block_rules[] = {
  { 4, 4, "recursive_doubling" }, { 4, 8, "butterfly" },
  { 4, 16, "recursive_halving" }, { 4, 128, "butterfly" },
  { 4, 256, "recursive_halving" }, { 4, 4096, "butterfly" },
  { 4, 8192, "recursive_halving" }, { 4, 131072, "butterfly" },
  { 4, ANY, "basic_linear" },
  { 8, 8, "recursive_halving" }, { 8, 32, "recursive_doubling" },
  { 8, 256, "butterfly" }, { 8, 8192, "recursive_halving" },
  { 8, 16384, "butterfly" }, { 8, 1048576, "recursive_halving" },
  { 8, ANY, "basic_linear" },
  { 16, 4, "basic_linear" }, { 16, 32, "recursive_halving" },
  { 16, 128, "butterfly" }, { 16, 524288, "recursive_halving" },
  { 16, 4194304, "basic_linear" }, { 16, ANY, "butterfly" },
  { 32, 32, "basic_linear" }, { 32, 524288, "recursive_halving" },
  { 32, 2097152, "basic_linear" }, { 32, 4194304, "recursive_halving" },
  { 32, ANY, "butterfly" },
  { ANY, 4, "recursive_halving" }, { ANY, 16, "basic_linear" },
  { ANY, 65536, "butterfly" }, { ANY, 262144, "basic_linear" },
  { ANY, ANY, "butterfly" },
};

#define RULES(op, t) { op, t, sizeof t / sizeof t[0] }
static const struct
{
  const char *op;
  const struct rule *rules;
  size_t n;
} tables[] = {
  RULES ("barrier", barrier_rules), RULES ("bcast", bcast_rules),
  RULES ("reduce", reduce_rules), RULES ("allreduce", allreduce_rules),
  RULES ("allgather", allgather_rules), RULES ("alltoall", alltoall_rules),
  RULES ("gather", gather_rules), RULES ("scatter", scatter_rules),
  RULES ("alltoallv", alltoallv_rules),
  RULES ("allgatherv", allgatherv_rules),
  RULES ("reduce_scatter", reduce_scatter_rules),
  RULES ("reduce_scatter_block", reduce_scatter_block_rules),
};

const char *
coll_decide (const char *op, int64_t P, int64_t bytes)
{
  if (!op || P < 2 || bytes < 0)
    return NULL;
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
    if (strcmp (tables[t].op, op) == 0)
      {
        for (size_t i = 0; i < tables[t].n; i++)
          if (P < tables[t].rules[i].p_below
              && bytes < tables[t].rules[i].bytes_below)
            return tables[t].rules[i].algo;
        /* the last row is unbounded; never here */
        return tables[t].rules[tables[t].n - 1].algo;
      }
  return NULL;
}

const char *
coll_decide_fixed_run (const char *op, const char *algo)
{
  if (op && algo && strcmp (algo, "chain") == 0
      && (strcmp (op, "bcast") == 0 || strcmp (op, "reduce") == 0))
    return "pipeline";
  return algo;
}

const char *
coll_decide_fallback (const char *op, const char *algo, int64_t P,
                      int64_t count)
{
  if (!op || !algo || count < 0 || strcmp (op, "allreduce") != 0)
    return algo;
  if ((strcmp (algo, "ring") == 0 || strcmp (algo, "segmented_ring") == 0)
      && count < P)
    return "recursive_doubling";
  int64_t pof2 = 1;
  while (pof2 <= P / 2)
    pof2 *= 2;
  if (strcmp (algo, "rabenseifner") == 0 && count < pof2)
    return "basic_linear";
  return algo;
}

/* Does dag_coll generate OP:ALGO?  */
static int
generated (const char *op, const char *algo)
{
  size_t ol = strlen (op);
  for (size_t i = 0; dag_coll_algorithms[i][0]; i++)
    {
      const char *n = dag_coll_algorithms[i][0];
      if (strncmp (n, op, ol) == 0 && n[ol] == ':'
          && strcmp (n + ol + 1, algo) == 0)
        return 1;
    }
  return 0;
}

static const char *const nearest[][3] = {
  { "bcast", "split_binary_tree", "binary_tree" },
  { "reduce", "rabenseifner", "linear" },
};

const char *
coll_decide_generator (const char *op, const char *algo)
{
  if (!op || !algo)
    return NULL;
  if (generated (op, algo))
    return algo;
  for (size_t i = 0; i < sizeof nearest / sizeof nearest[0]; i++)
    if (strcmp (nearest[i][0], op) == 0 && strcmp (nearest[i][1], algo) == 0
        && generated (op, nearest[i][2]))
      return nearest[i][2];
  return NULL;
}

const char *
coll_decide_default (const char *op, int64_t P, int64_t bytes)
{
  const char *algo = coll_decide (op, P, bytes);
  if (!algo)
    return NULL;
  return coll_decide_generator (op, coll_decide_fixed_run (op, algo));
}
