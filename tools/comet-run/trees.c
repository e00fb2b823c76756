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
 * node) is its root and takes the times.
 *
 * A multicast packet and a rank's reduction values are one double, or
 * with --sizes each size in whole doubles (ceil (bytes / 8), as
 * globalsum): the rows' bytes, one row per topology and size.  The
 * packets going up carry the overlay's header besides (overlay.h).  */
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
  double *ones;            /* every rank's contribution, p.m ones */
  struct tf_buf down, up;  /* multicast packet, reduction result */
};

/* The timed calls: every rank contributes ones; the root's sums are
   checked after the timed loop (tree_check_last), not inside it.  */
static void
op_roundtrip (void *arg)
{
  struct tree_arg *a = arg;
  ov_multicast (&a->ov, &a->down);
  ov_reduce (&a->ov, TF_SUM, &a->p, a->ones, &a->sync, &a->up, NULL);
}

static void
op_reduce (void *arg)
{
  struct tree_arg *a = arg;
  ov_reduce (&a->ov, TF_SUM, &a->p, a->ones, &a->sync, &a->up, NULL);
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
   the number of ranks, in every element.  */
static void
tree_check_last (const char *kernel, const struct tree_arg *a)
{
  if (a->ov.parent >= 0)
    return;
  if (a->up.len != a->p.m)
    tree_fail (kernel, a, "the length of the sum of the ones",
               (double) a->up.len, (double) a->p.m);
  for (size_t k = 0; k < a->p.m; k++)
    if (a->up.v[k] != a->ov.size)
      tree_fail (kernel, a, "the sum of the ones", a->up.v[k], a->ov.size);
}

/* Value K of what rank R sends in the verification wave number SEQ:
   whole numbers, so that every sum is exact and the check an equality;
   (R + 1)^2 tells the ranks apart even in a sum (one rank's values
   doubled and another's missing change it), SEQ the previous wave's
   values (a stale buffer).  */
static double
tree_value (int64_t seq, int r, size_t k)
{
  return (double) (r + 1) * (r + 1) + (double) (k % 1024)
         + (double) (seq % 4096) * 4;
}

/* The content this rank sends in wave SEQ as rank R, or under
   MSGPERF_COMET_BREAK=KERNEL:stale the previous wave's, under
   KERNEL:peer the next rank's (verify.c's comet_fill for doubles).  */
static void
tree_fill (const char *kernel, double *v, size_t m, int64_t seq, int r,
           int nranks)
{
  int mode = comet_break_mode (kernel);
  if (mode == COMET_BREAK_STALE)
    seq--;
  else if (mode == COMET_BREAK_PEER)
    r = (r + 1) % nranks;
  for (size_t k = 0; k < m; k++)
    v[k] = tree_value (seq, r, k);
}

/* End the run unless GOT, LEN values, is WANT, M values; WHAT names
   them in the message.  */
static void
tree_check_values (const char *kernel, const struct tree_arg *a,
                   const char *what, const double *got, size_t len,
                   const double *want, size_t m)
{
  char name[64];
  if (len != m)
    {
      snprintf (name, sizeof name, "the length of the %s", what);
      tree_fail (kernel, a, name, (double) len, (double) m);
    }
  for (size_t k = 0; k < m; k++)
    if (got[k] != want[k])
      {
        snprintf (name, sizeof name, "%s value %zu", what, k);
        tree_fail (kernel, a, name, got[k], want[k]);
      }
}

/* One untimed wave with checked content before the timed ones (number
   SEQ of the sweep), of the timed waves' length: with MULTICAST the root
   sends tree_value (SEQ, root) and every other rank checks it got
   exactly that in place of a packet one longer; then every rank
   contributes tree_value (SEQ, rank) and the root checks the sums and
   that every rank's values are in them.  A missing, doubled, stale or
   wrong rank's packet changes what is checked.
   MSGPERF_COMET_BREAK=KERNEL skips the transfers, KERNEL:stale and
   KERNEL:peer make every sender send the wrong values (tree_fill): the
   root in the multicast, the other ranks in the reduction (the root's
   own values are not sent, and a sum of every rank's values each taken
   from the next rank is the right sum).  */
static void
tree_verify (const char *kernel, struct tree_arg *a, int multicast,
             int64_t seq)
{
  int skip = comet_broken (kernel);
  int root = a->ov.parent < 0, r = a->ov.rank, n = a->ov.size;
  size_t m = a->p.m;
  double *want = xcalloc (m + 1, sizeof *want);
  double *mine = xcalloc (m + 1, sizeof *mine);
  if (multicast)
    {
      struct tf_buf b;
      tf_buf_init (&b);
      for (size_t k = 0; k < m; k++)
        want[k] = tree_value (seq, 0, k);
      /* The receivers start from a packet that is not due.  */
      for (size_t k = 0; k <= m; k++)
        mine[k] = -1 - want[k];
      if (root)
        tree_fill (kernel, mine, m, seq, r, n);
      if (tf_buf_append (&b, mine, root ? m : m + 1) < 0)
        mpu_die (EXIT_DATA, "%s: %s", kernel, tf_nomem);
      if (!skip)
        ov_multicast (&a->ov, &b);
      if (!root)
        tree_check_values (kernel, a, "multicast", b.v, b.len, want, m);
      tf_buf_free (&b);
    }
  for (size_t k = 0; k < m; k++)
    {
      want[k] = 0;
      for (int q = 0; q < n; q++)
        want[k] += tree_value (seq, q, k);
    }
  if (root)
    for (size_t k = 0; k < m; k++)
      mine[k] = tree_value (seq, r, k);
  else
    tree_fill (kernel, mine, m, seq, r, n);
  struct tf_buf out;
  struct ov_wave w = { 0, 0, 0, NULL, 0 };
  tf_buf_init (&out);
  if (!skip)
    ov_reduce (&a->ov, TF_SUM, &a->p, mine, &a->sync, &out, &w);
  a->packets = w.packets;
  if (root)
    {
      if (w.contributed != n)
        tree_fail (kernel, a, "the number of ranks in the reduction",
                   (double) w.contributed, n);
      tree_check_values (kernel, a, "reduction", out.v, out.len, want, m);
    }
  tf_buf_free (&out);
  free (want);
  free (mine);
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
  tf_buf_init (&a->down);
  tf_buf_init (&a->up);
  struct treespec_error err;
  if (ov_build (&a->ov, a->spec, a->text, MPI_COMM_WORLD, &err))
    mpu_die (EXIT_DATA, "topology '%s': %s", a->spec, err.msg);
}

/* The timed waves' packets: M doubles (M ones; at the root, the
   multicast packet).  */
static void
set_length (struct tree_arg *a, size_t m)
{
  a->p.m = m;
  free (a->ones);
  a->ones = xcalloc (m + 1, sizeof *a->ones);
  for (size_t k = 0; k < m; k++)
    a->ones[k] = 1;
  a->down.len = 0;
  if (a->ov.parent < 0 && tf_buf_append (&a->down, a->ones, m) < 0)
    mpu_die (EXIT_DATA, "topology '%s': %s", a->spec, tf_nomem);
}

static void
release (struct tree_arg *a)
{
  ov_free (&a->ov);
  free (a->ones);
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
   the topology, not data: one row per topology, bytes NA), 1 for a
   reduction, 2 for a multicast and a reduction, swept over
   c->opt->tree_values.  */
static void
run (struct comet_ctx *c, const char *kernel, comet_op op, int rate,
     int verify)
{
  const struct comet_opts *o = c->opt;
  const struct comet_sweep *len = &o->tree_values;
  size_t nlen = verify ? len->n : 1;
  for (size_t i = 0; i < o->ntopologies; i++)
    {
      struct tree_arg a;
      build (&a, i, o);
      for (size_t j = 0; j < nlen; j++)
        {
          if (verify)
            {
              set_length (&a, (size_t) len->v[j]);
              tree_verify (kernel, &a, verify == 2,
                           (int64_t) (i * nlen + j));
            }
          struct comet_timing t = { MPI_COMM_WORLD, 0, 0, op, &a, 1.0, 0, 0 };
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
            {
              row.packets = a.packets;
              row.bytes = len->v[j] * (int64_t) sizeof (double);
            }
          comet_emit (c, &row);
        }
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
