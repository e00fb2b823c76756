/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trees.c: the tree kernels of comet-run, MRNet's micro-benchmarks
 * (Roth, Arnold, Miller, SC'03, Section 4.1 and Figure 7) on the overlay
 * of common/mpi/overlay.h, one row per --topology:
 *
 *   tree-roundtrip    one multicast from the root followed by one sum
 *                     reduction (Figure 7b): latency;
 *   tree-throughput   a stream of sum reductions, pipelined through the
 *                     tree (Figure 7c): time per reduction and reductions
 *                     per second;
 *   tree-startup      building the overlay: the topology sent down, every
 *                     subtree reporting back (Figure 7a, Section 2.5).
 *
 * Every rank of MPI_COMM_WORLD is a node of the tree; rank 0 (the test
 * node) is its root and takes the times.  */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "comet.h"
#include "mpiutil.h"
#include "xalloc.h"
#include "overlay.h"
#include "treefilter.h"
#include "treespec.h"

struct tree_arg
{
  struct overlay ov;
  const char *spec, *text;
  struct tf_params p;
  double one;              /* every rank's contribution */
  struct tf_buf down, up;  /* multicast packet, reduction result */
};

/* Check, at the root, that the sum of the ones is the number of ranks:
   a compare per iteration, so that a wrong tree cannot pass as a fast
   one.  */
static void
check_sum (struct tree_arg *a)
{
  if (a->ov.parent < 0 && (a->up.len != 1 || a->up.v[0] != a->ov.size))
    mpu_die (EXIT_DATA, "%s: the reduction gave %g, not %d", a->spec,
             a->up.len ? a->up.v[0] : -1.0, a->ov.size);
}

static void
op_roundtrip (void *arg)
{
  struct tree_arg *a = arg;
  ov_multicast (&a->ov, &a->down);
  ov_reduce (&a->ov, TF_SUM, &a->p, &a->one, NULL, &a->up, NULL);
  check_sum (a);
}

static void
op_reduce (void *arg)
{
  struct tree_arg *a = arg;
  ov_reduce (&a->ov, TF_SUM, &a->p, &a->one, NULL, &a->up, NULL);
  check_sum (a);
}

static void
op_startup (void *arg)
{
  struct tree_arg *a = arg;
  struct overlay ov;
  struct treespec_error err;
  if (ov_build (&ov, a->spec, a->text, MPI_COMM_WORLD, &err))
    mpu_die (EXIT_DATA, "topology '%s': %s", a->spec, err.msg);
  ov_free (&ov);
}

static void
build (struct tree_arg *a, size_t i, const struct comet_opts *o)
{
  memset (a, 0, sizeof *a);
  a->spec = o->topologies[i];
  a->text = o->topology_text[i];
  a->p.m = 1;
  a->one = 1;
  tf_buf_init (&a->down);
  tf_buf_init (&a->up);
  struct treespec_error err;
  if (ov_build (&a->ov, a->spec, a->text, MPI_COMM_WORLD, &err))
    mpu_die (EXIT_DATA, "topology '%s': %s", a->spec, err.msg);
  if (a->ov.parent < 0 && tf_buf_append (&a->down, &a->one, 1) < 0)
    mpu_die (EXIT_DATA, "topology '%s': %s", a->spec, tf_nomem);
}

static void
release (struct tree_arg *a)
{
  ov_free (&a->ov);
  tf_buf_free (&a->down);
  tf_buf_free (&a->up);
}

/* Depth and largest fan-out of topology I: every rank parses it (the
   options were checked on every rank already).  */
static void
shape (const struct comet_opts *o, size_t i, struct comet_row *row)
{
  struct tree t;
  struct treespec_error err;
  int rc = treespec_file_path (o->topologies[i])
    ? treespec_parse_text (o->topology_text[i], mpu_size, &t, &err)
    : treespec_parse (o->topologies[i], mpu_size, &t, &err);
  if (rc)
    mpu_die (EXIT_DATA, "topology '%s': %s", o->topologies[i], err.msg);
  row->topology = o->topologies[i];
  row->depth = t.depth;
  row->fanout = t.max_fanout;
  tree_free (&t);
}

static void
run (struct comet_ctx *c, const char *kernel, comet_op op, int rate)
{
  const struct comet_opts *o = c->opt;
  for (size_t i = 0; i < o->ntopologies; i++)
    {
      struct tree_arg a;
      build (&a, i, o);
      struct comet_timing t = { MPI_COMM_WORLD, 0, 0, op, &a, 1.0, 0 };
      struct comet_result res;
      comet_measure (c, &t, &res);
      struct comet_row row;
      comet_row_init (&row, kernel);
      shape (o, i, &row);
      comet_row_result (&row, &res);
      if (rate && res.s.median > 0)
        row.rate = 1e6 / res.s.median;
      comet_emit (c, &row);
      release (&a);
    }
}

void
kernel_tree_roundtrip (struct comet_ctx *c)
{
  run (c, "tree-roundtrip", op_roundtrip, 0);
}

void
kernel_tree_throughput (struct comet_ctx *c)
{
  run (c, "tree-throughput", op_reduce, 1);
}

void
kernel_tree_startup (struct comet_ctx *c)
{
  run (c, "tree-startup", op_startup, 0);
}

void
comet_tree_meta (struct comet_ctx *c)
{
  const struct comet_opts *o = c->opt;
  struct tree_arg a;
  build (&a, 0, o);
  double *off = NULL, *bound = NULL;
  if (a.ov.parent < 0)
    {
      off = xcalloc (1, (size_t) mpu_size * sizeof (double));
      bound = xcalloc (1, (size_t) mpu_size * sizeof (double));
    }
  /* MPI_Wtime, the clock comet-run reads.  */
  ov_clockskew (&a.ov, 50, off, bound);
  if (a.ov.parent < 0 && c->w)
    {
      size_t cap = 64 + (size_t) mpu_size * 48, m = 0;
      char *text = xcalloc (1, cap);
      double worst = 0, worst_bound = 0;
      for (int r = 0; r < mpu_size; r++)
        {
          m += (size_t) snprintf (text + m, cap - m, "%s%d:%.3f+-%.3f",
                                  r ? "," : "", r, off[r] * 1e6,
                                  bound[r] * 1e6);
          if (off[r] > worst || -off[r] > worst)
            worst = off[r] < 0 ? -off[r] : off[r];
          if (bound[r] > worst_bound)
            worst_bound = bound[r];
        }
      tsv_meta (c->w, "clock_skew_topology", "%s", a.spec);
      tsv_meta (c->w, "clock_skew", "%s", text);
      tsv_meta (c->w, "clock_skew_max", "%.3f", worst * 1e6);
      tsv_meta (c->w, "clock_skew_max_bound", "%.3f", worst_bound * 1e6);
      free (text);
    }
  free (off);
  free (bound);
  release (&a);
}
