/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clocksync.c: the ping-pong exchanges behind the global clock
 * (clocksync.h).  */
#include <config.h>

#include "clocksync.h"

#include "mpiutil.h"

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
