/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-clockmodel: the linear clock model (clockmodel.h) and the window
 * logic of synchronized repetitions (window.h) and the tree of
 * models composed into a global clock (clocktree.h), on hand-computed
 * cases.  */
#include <config.h>

#include "clockmodel.h"
#include "clocktree.h"
#include "unit.h"
#include "window.h"

/* Least squares by hand: t = 0 1 2 3, offset = 0 1 2 4.  Means 1.5 and
   1.75, Sxx = 5, Sxy = 2.625 + 0.375 + 0.125 + 3.375 = 6.5, so drift
   1.3 and intercept 1.75 - 1.3 * 1.5 = -0.2; residuals 0.2 -0.1 -0.4
   0.3, sum of squares 0.3: rms sqrt (0.3 / 4), drift's standard error
   sqrt (0.3 / 2 / 5).  */
static void
check_fit (void)
{
  double t[] = { 0, 1, 2, 3 }, off[] = { 0, 1, 2, 4 };
  struct clock_model m;
  CHECK (clock_model_fit (t, off, 4, &m) == 0);
  CHECK_NEAR (m.drift, 1.3, 1e-12);
  CHECK_NEAR (m.intercept, -0.2, 1e-12);
  CHECK_NEAR (m.residual, 0.27386127875258306, 1e-12);
  CHECK_NEAR (m.drift_se, 0.17320508075688773, 1e-12);
  CHECK (m.n == 4);
  /* 1.3 is beyond two standard errors: the line is kept.  */
  CHECK (clock_model_fit_auto (t, off, 4, &m) == 0);
  CHECK_NEAR (m.drift, 1.3, 1e-12);
  /* eq. (2): g(10) = 10 - (1.3 * 10 - 0.2) = -2.8.  */
  CHECK_NEAR (clock_model_global (&m, 10), -2.8, 1e-12);

  /* offset = 0 1 0 1: drift 0.2 (Sxy = 1), residuals -0.2 0.6 -0.6
     0.2, standard error sqrt (0.8 / 2 / 5) = 0.283: 0.2 is within two,
     so the constant 0.5 is taken, residual 0.5.  */
  double flat[] = { 0, 1, 0, 1 };
  CHECK (clock_model_fit (t, flat, 4, &m) == 0);
  CHECK_NEAR (m.drift, 0.2, 1e-12);
  CHECK_NEAR (m.drift_se, 0.28284271247461901, 1e-12);
  CHECK (clock_model_fit_auto (t, flat, 4, &m) == 0);
  CHECK (m.drift == 0);
  CHECK_NEAR (m.intercept, 0.5, 1e-12);
  CHECK_NEAR (m.residual, 0.5, 1e-12);

  /* One point: its offset, no drift; none: an error and the
     identity.  */
  CHECK (clock_model_fit (t + 2, off + 2, 1, &m) == 0);
  CHECK (m.drift == 0 && m.intercept == 2 && m.residual == 0);
  CHECK (clock_model_fit (t, off, 0, &m) == -1);
  CHECK (m.drift == 0 && m.intercept == 0);
  CHECK (clock_model_global (&m, 7.25) == 7.25);
}

/* A known drift corrected.  The rank's clock runs 10 ppm fast and is
   2.5 ms ahead: offset(t) = 1e-5 t + 2.5e-3 at local time t (eq. (1)).
   Twenty fit points 1 ms apart from local time 1000 s, each the best
   of three exchanges: a symmetric one of 2 us round trip, and two
   slower ones whose delays differ each way (the request 8 us, the
   answer 1 us), which would move the offset by 3.5 us if taken.  The
   global time of local reading 1010 s, 10 s past the fit, is then
   1010 - (1e-5 * 1010 + 2.5e-3) = 1009.9874 to within a nanosecond;
   without the drift it would be 100 us off.  */
static void
check_drift (void)
{
  enum { F = 20, E = 3 };
  double mid[F], off[F];
  for (int f = 0; f < F; f++)
    {
      double ts[E], tr[E], te[E];
      double t0 = 1000 + 1e-3 * f;
      double delay_out[E] = { 8e-6, 1e-6, 8e-6 };
      double delay_back[E] = { 1e-6, 1e-6, 1e-6 };
      for (int e = 0; e < E; e++)
        {
          ts[e] = t0 + 20e-6 * e;
          /* The reference reads its clock when the request arrives:
             local arrival time ts + delay_out, less the offset there.  */
          double arrive = ts[e] + delay_out[e];
          tr[e] = arrive - (1e-5 * arrive + 2.5e-3);
          te[e] = arrive + delay_back[e];
        }
      double rtt;
      CHECK (clock_offset_min_rtt (ts, tr, te, E, &mid[f], &off[f], &rtt)
             == 1);
      CHECK_NEAR (rtt, 2e-6, 1e-12);
    }
  struct clock_model m;
  CHECK (clock_model_fit_auto (mid, off, F, &m) == 0);
  CHECK_NEAR (m.drift, 1e-5, 1e-12);
  CHECK_NEAR (m.intercept, 2.5e-3, 1e-9);
  CHECK (m.residual < 1e-12);
  CHECK_NEAR (clock_model_global (&m, 1010), 1009.9874, 1e-9);

  /* Re-anchored through an offset of 3 ms seen at 1005 s, the drift
     kept: intercept 3e-3 - 1e-5 * 1005 = -7.05e-3, and g(1010) =
     1010 - (1.01e-2 - 7.05e-3) = 1009.99695.  */
  clock_model_anchor (&m, 1005, 3e-3);
  CHECK_NEAR (m.drift, 1e-5, 1e-12);
  CHECK_NEAR (m.intercept, -7.05e-3, 1e-9);
  CHECK_NEAR (clock_model_global (&m, 1010), 1009.99695, 1e-9);

  /* No exchange with a round trip that is not negative: -1.  */
  double a[] = { 2 }, b[] = { 1.5 }, c[] = { 1 }, x, y, z;
  CHECK (clock_offset_min_rtt (a, b, c, 1, &x, &y, &z) == -1);
  CHECK (clock_offset_min_rtt (a, b, c, 0, &x, &y, &z) == -1);
}

/* Windows of 2 s from s_0 = 10: window 3 starts at 16 (eq. (4)).  */
static void
check_flags (void)
{
  CHECK (window_start (10, 2, 3) == 16);
  CHECK (window_flags (10, 2, 9.5, 11) == 0);
  CHECK (window_flags (10, 2, 10, 12) == 0);    /* on time, just fits */
  CHECK (window_flags (10, 2, 10.1, 11) == WINDOW_LATE);
  CHECK (window_flags (10, 2, 9.5, 12.5) == WINDOW_EXPIRED);
  CHECK (window_flags (10, 2, 10.1, 12.5) == (WINDOW_LATE | WINDOW_EXPIRED));
}

/* Two ranks, four repetitions (rank-major).  Repetition 1 started late
   on rank 0 and repetition 2 expired on rank 1: both are dropped on
   every rank.  The valid ones, 0 and 3, last from the earliest start
   to the latest end (eq. (5)): 10.7 - 10 = 0.7 and 16.4 - 15.9 =
   0.5.  */
static void
check_collect (void)
{
  int flags[] = { 0, WINDOW_LATE, 0, 0,
                  0, 0, WINDOW_EXPIRED, 0 };
  double begin[] = { 10, 12.3, 14, 16,
                     10.1, 12, 14, 15.9 };
  double end[] = { 10.5, 12.9, 14.5, 16.4,
                   10.7, 12.5, 16.2, 16.3 };
  double self[] = { 0.5, 0.6, 0.5, 0.4 };
  double span[4], kept[4];
  struct window_tally n;
  window_collect (flags, begin, end, 2, 4, self, span, kept, &n);
  CHECK (n.valid == 2 && n.late == 1 && n.expired == 1);
  CHECK_NEAR (span[0], 0.7, 1e-12);
  CHECK_NEAR (span[1], 0.5, 1e-12);
  CHECK (kept[0] == 0.5 && kept[1] == 0.4);

  /* Late on one rank and expired on the other: counted once, as
     late.  Without SELF, only the spans.  */
  int both[] = { WINDOW_LATE, WINDOW_EXPIRED };
  double b1[] = { 1, 1 }, e1[] = { 2, 2 };
  window_collect (both, b1, e1, 2, 1, NULL, span, NULL, &n);
  CHECK (n.valid == 0 && n.late == 1 && n.expired == 0);
  int none[] = { 0, 0 };
  window_collect (none, b1, e1, 2, 1, NULL, span, NULL, &n);
  CHECK (n.valid == 1 && span[0] == 1);
}

/* The binomial tree of clocktree.h over 8 ranks and over 6: parents,
   rounds, and each round's pairs disjoint.  */
static void
check_tree_shape (void)
{
  /* 1, 3, 5, 7 fit in round 0 (against 0, 2, 4, 6), 2 and 6 in round 1
     (against 0, 4), 4 in round 2 (against 0).  */
  int parent[8] = { -1, 0, 0, 2, 0, 4, 4, 6 };
  int round[8] = { 0, 0, 1, 0, 2, 0, 1, 0 };
  for (int r = 0; r < 8; r++)
    {
      CHECK (clock_tree_parent (r) == parent[r]);
      if (r)
        CHECK (clock_tree_round (r) == round[r]);
    }
  CHECK (clock_tree_rounds (1) == 0 && clock_tree_rounds (2) == 1);
  CHECK (clock_tree_rounds (6) == 3 && clock_tree_rounds (8) == 3);
  CHECK (clock_tree_rounds (9) == 4);
  /* Each child is served by its parent in its round, by no one else:
     at 6 ranks, 4 serves 5 in round 0 and no 6 in round 1.  */
  for (int size = 6; size <= 8; size += 2)
    for (int k = 0; k < clock_tree_rounds (size); k++)
      for (int r = 0; r < size; r++)
        {
          int c = clock_tree_child (r, k, size);
          if (c >= 0)
            CHECK (clock_tree_parent (c) == r && clock_tree_round (c) == k);
          if (r > 0 && clock_tree_round (r) == k)
            CHECK (clock_tree_child (parent[r], k, size) == r);
        }
  CHECK (clock_tree_child (4, 1, 6) == -1);
  CHECK (clock_tree_child (2, 1, 8) == -1);
}

/* Known drifts composed along a tree.  By hand: rank 2 against 0 runs
   10 ppm fast, 2 ms ahead (offset 1e-5 t + 2e-3); rank 3 against 2,
   20 ppm fast, 1 ms behind (2e-5 t - 1e-3).  Eq. (6): drift 1e-5 + 2e-5
   - 2e-10 = 2.99998e-5, intercept 2e-3 - 1e-3 + 1e-5 * 1e-3
   = 1.00001e-3.  Then eight ranks whose clocks read
   t_r = a_r t_0 + b_r at reference time t_0: each against its parent
   fitted from exchanges with symmetric 1 us delays (clockmodel.h), the
   models composed, every rank's reading 100 s after the fit is mapped
   back to the reference's time within 1 ns.  */
static void
check_tree_compose (void)
{
  struct clock_model to_parent[8], m;
  for (int r = 0; r < 8; r++)
    clock_model_identity (&to_parent[r]);
  to_parent[2].drift = 1e-5, to_parent[2].intercept = 2e-3;
  to_parent[3].drift = 2e-5, to_parent[3].intercept = -1e-3;
  to_parent[2].residual = 3e-7, to_parent[3].residual = 4e-7;
  clock_tree_to_root (to_parent, 3, &m);
  CHECK_NEAR (m.drift, 2.99998e-5, 1e-17);
  CHECK_NEAR (m.intercept, 1.00001e-3, 1e-17);
  CHECK_NEAR (m.residual, 5e-7, 1e-18);
  clock_tree_to_root (to_parent, 2, &m);
  CHECK (m.drift == 1e-5 && m.intercept == 2e-3);
  clock_tree_to_root (to_parent, 0, &m);
  CHECK (m.drift == 0 && m.intercept == 0);

  double a[8] = { 1, 1 + 1e-5, 1 - 3e-5, 1 + 2e-5, 1 - 1e-5, 1 + 4e-5,
                  1, 1 - 2e-5 };
  double b[8] = { 0, 2e-3, -1e-3, 5e-3, 3e-4, -2e-3, 7e-4, 1e-3 };
  enum { F = 20 };
  for (int r = 1; r < 8; r++)
    {
      int p = clock_tree_parent (r);
      double mid[F], off[F];
      for (int f = 0; f < F; f++)
        {
          /* The exchange starts at reference time t0; each way 1 us.  */
          double t0 = 50 + 1e-3 * f + 1e-2 * r;
          double ts = a[r] * t0 + b[r];
          double tp = a[p] * (t0 + 1e-6) + b[p];
          double te = a[r] * (t0 + 2e-6) + b[r];
          double rtt;
          CHECK (clock_offset_min_rtt (&ts, &tp, &te, 1, &mid[f], &off[f],
                                       &rtt) == 0);
        }
      CHECK (clock_model_fit (mid, off, F, &to_parent[r]) == 0);
    }
  for (int r = 0; r < 8; r++)
    {
      clock_tree_to_root (to_parent, r, &m);
      double t0 = 150;
      CHECK_NEAR (clock_model_global (&m, a[r] * t0 + b[r]), t0, 1e-9);
    }
}

int
main (void)
{
  check_fit ();
  check_drift ();
  check_flags ();
  check_collect ();
  check_tree_shape ();
  check_tree_compose ();
  return unit_done ();
}
