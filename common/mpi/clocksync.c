/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clocksync.c: the ping-pong exchanges behind the global clock
 * (clocksync.h): against the reference directly, or down a tree
 * (clocktree.h).  */
#include <config.h>

#include "clocksync.h"

#include <stdlib.h>

#include "mpiutil.h"
#include "xalloc.h"

enum { TAG_CLOCK = 97 };

double
mpu_global_time (const struct clock_model *m)
{
  return clock_model_global (m, MPI_Wtime ());
}

/* The reference's side: answer N pings of rank PEER with its own
   reading each.  */
static void
serve (MPI_Comm comm, int peer, int n)
{
  for (int i = 0; i < n; i++)
    {
      double t;
      mpu_check (MPI_Recv (&t, 1, MPI_DOUBLE, peer, TAG_CLOCK, comm,
                           MPI_STATUS_IGNORE), "MPI_Recv");
      t = MPI_Wtime ();
      mpu_check (MPI_Send (&t, 1, MPI_DOUBLE, peer, TAG_CLOCK, comm),
                 "MPI_Send");
    }
}

/* One point of the fitting rank: the offset of the shortest of
   CLOCKSYNC_EXCHANGES exchanges with ROOT, at local time *MID.  Returns
   0, or -1 when no round trip was non-negative.  */
static int
point (MPI_Comm comm, int root, double *mid, double *off)
{
  enum { E = CLOCKSYNC_EXCHANGES };
  double ts[E], tr[E], te[E], rtt;
  for (int e = 0; e < E; e++)
    {
      ts[e] = MPI_Wtime ();
      mpu_check (MPI_Send (&ts[e], 1, MPI_DOUBLE, root, TAG_CLOCK, comm),
                 "MPI_Send");
      mpu_check (MPI_Recv (&tr[e], 1, MPI_DOUBLE, root, TAG_CLOCK, comm,
                           MPI_STATUS_IGNORE), "MPI_Recv");
      te[e] = MPI_Wtime ();
    }
  return clock_offset_min_rtt (ts, tr, te, E, mid, off, &rtt) >= 0 ? 0 : -1;
}

/* The fitting rank's side: the points, CLOCKSYNC_SPACING apart, then
   the fit.  */
static void
fit (MPI_Comm comm, int root, struct clock_model *m)
{
  enum { F = CLOCKSYNC_FITPOINTS };
  double mid[F], off[F];
  size_t n = 0;
  double next = MPI_Wtime ();
  for (int f = 0; f < F; f++)
    {
      while (MPI_Wtime () < next)
        ;
      next += CLOCKSYNC_SPACING;
      if (point (comm, root, &mid[n], &off[n]) == 0)
        n++;
    }
  if (clock_model_fit_auto (mid, off, n, m) != 0)
    mpu_die (EXIT_DATA, "clock synchronisation: no exchange with rank %d "
             "had a non-negative round trip", root);
}

void
mpu_clock_sync (MPI_Comm comm, int root, struct clock_model *m)
{
  int me, size;
  mpu_check (MPI_Comm_rank (comm, &me), "MPI_Comm_rank");
  mpu_check (MPI_Comm_size (comm, &size), "MPI_Comm_size");
  clock_model_identity (m);
  for (int r = 0; r < size; r++)
    {
      if (r == root)
        continue;
      if (me == root)
        serve (comm, r, CLOCKSYNC_FITPOINTS * CLOCKSYNC_EXCHANGES);
      else if (me == r)
        fit (comm, root, m);
    }
  mpu_check (MPI_Barrier (comm), "MPI_Barrier");
}

void
mpu_clock_anchor (MPI_Comm comm, int root, struct clock_model *m)
{
  int me, size;
  mpu_check (MPI_Comm_rank (comm, &me), "MPI_Comm_rank");
  mpu_check (MPI_Comm_size (comm, &size), "MPI_Comm_size");
  for (int r = 0; r < size; r++)
    {
      double mid, off;
      if (r == root)
        continue;
      if (me == root)
        serve (comm, r, CLOCKSYNC_EXCHANGES);
      else if (me == r && point (comm, root, &mid, &off) == 0)
        clock_model_anchor (m, mid, off);
    }
}

/* ---------------------------------------------------------------- tree */

/* The round-by-round exchanges of the tree rooted at ROOT: in each
   round a rank that has a child serves it N pings, a child in that
   round runs WORK against its parent.  */
static void
tree_rounds (MPI_Comm comm, int root, int n,
             void (*work) (MPI_Comm, int, struct clock_model *),
             struct clock_model *to_parent)
{
  int me, size;
  mpu_check (MPI_Comm_rank (comm, &me), "MPI_Comm_rank");
  mpu_check (MPI_Comm_size (comm, &size), "MPI_Comm_size");
  int rel = (me - root + size) % size;
  for (int k = 0; k < clock_tree_rounds (size); k++)
    {
      int child = clock_tree_child (rel, k, size);
      if (child >= 0)
        serve (comm, (child + root) % size, n);
      else if (rel > 0 && clock_tree_round (rel) == k)
        work (comm, (clock_tree_parent (rel) + root) % size, to_parent);
    }
}

/* Every rank's model against its parent to every rank (by relative
   rank), and this rank's composed against ROOT.  */
static void
compose (MPI_Comm comm, int root, const struct clock_model *to_parent,
         struct clock_model *to_root)
{
  int me, size;
  mpu_check (MPI_Comm_rank (comm, &me), "MPI_Comm_rank");
  mpu_check (MPI_Comm_size (comm, &size), "MPI_Comm_size");
  double mine[4] = { to_parent->drift, to_parent->intercept,
                     to_parent->residual, to_parent->drift_se };
  double *all = xcalloc ((size_t) size, sizeof mine);
  mpu_check (MPI_Allgather (mine, 4, MPI_DOUBLE, all, 4, MPI_DOUBLE, comm),
             "MPI_Allgather");
  struct clock_model *m = xcalloc ((size_t) size, sizeof *m);
  for (int r = 0; r < size; r++)
    {
      struct clock_model *x = &m[(r - root + size) % size];
      clock_model_identity (x);
      x->drift = all[4 * r];
      x->intercept = all[4 * r + 1];
      x->residual = all[4 * r + 2];
      x->drift_se = all[4 * r + 3];
    }
  size_t n = to_parent->n;
  clock_tree_to_root (m, (me - root + size) % size, to_root);
  to_root->n = n;
  free (m);
  free (all);
}

void
mpu_clock_sync_tree (MPI_Comm comm, int root, struct clock_model *to_root,
                     struct clock_model *to_parent)
{
  clock_model_identity (to_parent);
  tree_rounds (comm, root, CLOCKSYNC_FITPOINTS * CLOCKSYNC_EXCHANGES, fit,
               to_parent);
  compose (comm, root, to_parent, to_root);
}

/* A child's re-anchoring against its parent (one point).  */
static void
anchor_one (MPI_Comm comm, int parent, struct clock_model *to_parent)
{
  double mid, off;
  if (point (comm, parent, &mid, &off) == 0)
    clock_model_anchor (to_parent, mid, off);
}

void
mpu_clock_anchor_tree (MPI_Comm comm, int root, struct clock_model *to_root,
                       struct clock_model *to_parent)
{
  tree_rounds (comm, root, CLOCKSYNC_EXCHANGES, anchor_one, to_parent);
  compose (comm, root, to_parent, to_root);
}
