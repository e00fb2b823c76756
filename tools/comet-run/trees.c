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

#include <math.h>
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
  struct ov_sync sync;     /* --sync */
  long packets;            /* reduction packets the root received in the
                              verification wave */
  double one;              /* every rank's contribution */
  struct tf_buf down, up;  /* multicast packet, reduction result */
};

/* The timed calls: every rank contributes a one; the root's sum is
   checked after the timed loop (tree_check_last), not inside it.  */
static void
op_roundtrip (void *arg)
{
  struct tree_arg *a = arg;
  ov_multicast (&a->ov, &a->down);
  ov_reduce (&a->ov, TF_SUM, &a->p, &a->one, &a->sync, &a->up, NULL);
}

static void
op_reduce (void *arg)
{
  struct tree_arg *a = arg;
  ov_reduce (&a->ov, TF_SUM, &a->p, &a->one, &a->sync, &a->up, NULL);
}

static void
tree_fail (const char *kernel, const struct tree_arg *a, const char *what,
           double got, double want)
{
  mpu_die (EXIT_DATA, "%s: verification failed for topology %s on rank "
           "%d: %s is %.17g, expected %.17g", kernel, a->spec, a->ov.rank,
           what, got, want);
}

/* At the root, after the timed loop: the last wave's sum of the ones is
   the number of ranks.  */
static void
tree_check_last (const char *kernel, const struct tree_arg *a)
{
  if (a->ov.parent < 0 && (a->up.len != 1 || a->up.v[0] != a->ov.size))
    tree_fail (kernel, a, "the sum of the ones",
               a->up.len ? a->up.v[0] : NAN, a->ov.size);
}

/* One untimed wave with checked content before the timed ones (number
   SEQ of the sweep): with MULTICAST the root sends {SEQ + 7, 1e6 + SEQ}
   and every other rank checks it got exactly that; then every rank
   contributes {r + 1, (r + 1)^2 + SEQ} and the root checks both sums,
   which a missing, doubled or stale packet changes.
   MSGPERF_COMET_BREAK=KERNEL skips the transfers.  */
static void
tree_verify (const char *kernel, struct tree_arg *a, int multicast,
             int64_t seq)
{
  int skip = comet_broken (kernel);
  int root = a->ov.parent < 0, r = a->ov.rank, n = a->ov.size;
  double s = (double) seq;
  if (multicast)
    {
      struct tf_buf b;
      tf_buf_init (&b);
      double sent[2] = { s + 7, 1e6 + s }, stale[2] = { -1, -1 };
      if (tf_buf_append (&b, root ? sent : stale, 2) < 0)
        mpu_die (EXIT_DATA, "%s: %s", kernel, tf_nomem);
      if (!skip)
        ov_multicast (&a->ov, &b);
      if (!root)
        for (int k = 0; k < 2; k++)
          if (b.len != 2 || b.v[k] != sent[k])
            tree_fail (kernel, a, k ? "multicast value 1"
                       : "multicast value 0", b.len == 2 ? b.v[k] : NAN,
                       sent[k]);
      tf_buf_free (&b);
    }
  struct tf_params p = a->p;
  p.m = 2;
  double mine[2] = { r + 1, (double) (r + 1) * (r + 1) + s };
  double want[2] = { 0, 0 };
  for (int k = 0; k < n; k++)
    {
      want[0] += k + 1;
      want[1] += (double) (k + 1) * (k + 1) + s;
    }
  struct tf_buf out;
  struct ov_wave w = { 0, 0, 0, NULL, 0 };
  tf_buf_init (&out);
  if (!skip)
    ov_reduce (&a->ov, TF_SUM, &p, mine, &a->sync, &out, &w);
  a->packets = w.packets;
  if (root)
    for (int k = 0; k < 2; k++)
      if (out.len != 2 || out.v[k] != want[k])
        tree_fail (kernel, a, k ? "reduction value 1" : "reduction value 0",
                   out.len == 2 ? out.v[k] : NAN, want[k]);
  tf_buf_free (&out);
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
  a->sync.mode = (enum ov_sync_mode) o->tree_sync;
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

/* RATE: the rows have per_s.  VERIFY: 0 for none (tree-startup moves
   no data), 1 for a reduction, 2 for a multicast and a reduction.  */
static void
run (struct comet_ctx *c, const char *kernel, comet_op op, int rate,
     int verify)
{
  const struct comet_opts *o = c->opt;
  for (size_t i = 0; i < o->ntopologies; i++)
    {
      struct tree_arg a;
      build (&a, i, o);
      if (verify)
        tree_verify (kernel, &a, verify == 2, (int64_t) i);
      struct comet_timing t = { MPI_COMM_WORLD, 0, 0, op, &a, 1.0, 0 };
      struct comet_result res;
      comet_measure (c, &t, &res);
      if (verify)
        tree_check_last (kernel, &a);
      struct comet_row row;
      comet_row_init (&row, kernel);
      shape (o, i, &row);
      comet_row_result (&row, &res);
      if (rate && res.s.median > 0)
        row.rate = 1e6 / res.s.median;
      if (verify)
        row.packets = a.packets;
      comet_emit (c, &row);
      release (&a);
    }
}

void
kernel_tree_roundtrip (struct comet_ctx *c)
{
  run (c, "tree-roundtrip", op_roundtrip, 0, 2);
}

void
kernel_tree_throughput (struct comet_ctx *c)
{
  run (c, "tree-throughput", op_reduce, 1, 1);
}

void
kernel_tree_startup (struct comet_ctx *c)
{
  run (c, "tree-startup", op_startup, 0, 0);
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
      tsv_meta (c->w, "tree_sync", "%s", o->tree_sync == OV_DO_NOT_WAIT
                ? "do-not-wait" : "wait-for-all");
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
