/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-plogp: parameterized LogP at any size (common/models/logp/plogp.c),
   every expected value computed by hand in the comments.  */
#include <config.h>

#include <math.h>
#include <stddef.h>

#include "plogp.h"
#include "unit.h"

static int
near (double a, double b)
{
  return fabs (a - b) <= 1e-12 * (fabs (b) > 1 ? fabs (b) : 1);
}

int
main (void)
{
  /* Sizes given out of order: 1000, 0, 100.  */
  const struct plogp_point pts[] = {
    { 1000, 11, 2, 23 }, { 0, 1, 2, 3 }, { 100, 2, 2, 5 }
  };
  struct plogp t;
  size_t which = 99;
  CHECK (plogp_init (&t, pts, 3, 10, &which) == PLOGP_OK);
  CHECK (t.n == 3 && t.pt[0].bytes == 0 && t.pt[2].bytes == 1000);
  struct plogp_at v;
  /* m = 50, halfway in [0, 100]: os 1.5, or 2, g 4.  */
  plogp_eval (&t, 50, &v);
  CHECK (near (v.os, 1.5) && near (v.or_, 2) && near (v.g, 4));
  CHECK (!v.beyond && !v.below);
  /* a measured size: its own values */
  plogp_eval (&t, 100, &v);
  CHECK (v.os == 2 && v.or_ == 2 && v.g == 5);
  plogp_eval (&t, 1000, &v);
  CHECK (v.os == 11 && v.g == 23 && !v.beyond);
  /* m = 550, halfway in [100, 1000]: os (2+11)/2 = 6.5, g (5+23)/2 = 14 */
  plogp_eval (&t, 550, &v);
  CHECK (near (v.os, 6.5) && near (v.g, 14));
  /* m = 2000, beyond: the last segment's slopes 9/900 and 18/900 per
     byte: os 11 + 1000 * 0.01 = 21, g 23 + 1000 * 0.02 = 43.  */
  plogp_eval (&t, 2000, &v);
  CHECK (near (v.os, 21) && near (v.or_, 2) && near (v.g, 43));
  CHECK (v.beyond && !v.below);
  /* LogGP at m = 50: L' = L + g - os - or = 10 + 4 - 1.5 - 2 = 10.5 */
  struct plogp_loggp lg;
  plogp_loggp (&t, 50, &lg);
  CHECK (near (lg.L, 10.5) && near (lg.os, 1.5) && near (lg.or_, 2)
         && near (lg.g, 4) && !lg.clamped);
  /* ... so that os + L' + or = L + g(m) = 14 (r(m), Section 2) */
  CHECK (near (lg.os + lg.L + lg.or_, 14));
  /* Table 1 at m = 550: at 1 byte (in [0, 100]) os 1.01, or 2, g 3.02,
     so L = 10 + 3.02 - 1.01 - 2 = 10.01; os 6.5, or 2, g 14 at 550, and
     G = 14 / 550.  */
  struct plogp_table1 t1;
  plogp_table1 (&t, 550, &t1);
  CHECK (near (t1.L, 10.01) && near (t1.os, 6.5) && near (t1.or_, 2)
         && near (t1.g, 14) && near (t1.G, 14.0 / 550));
  CHECK (!t1.beyond && !t1.below && !t1.clamped);
  /* below one byte G is g(1) / 1 = 3.02; beyond: g(2000) / 2000 */
  plogp_table1 (&t, 0, &t1);
  CHECK (near (t1.G, 3.02) && near (t1.os, 1.01) && !t1.below);
  plogp_table1 (&t, 2000, &t1);
  CHECK (near (t1.G, 43.0 / 2000) && t1.beyond);
  plogp_free (&t);

  /* Below the smallest size: the smallest size's values, flagged.  A
     receive overhead above g makes L' negative: 0.05 + 0.06 - 0.02 - 0.10
     = -0.01, kept (o_s and o_r overlap by 0.01; os + L' + or = L + g =
     0.11), not clamped since o_r <= L + g.  One size: constant
     everywhere.  */
  const struct plogp_point one[] = { { 1, 0.02, 0.10, 0.06 } };
  CHECK (plogp_init (&t, one, 1, 0.05, NULL) == PLOGP_OK);
  plogp_eval (&t, 0, &v);
  CHECK (v.below && v.os == 0.02 && v.g == 0.06);
  plogp_eval (&t, 1e6, &v);
  CHECK (v.beyond && v.os == 0.02 && v.or_ == 0.10 && v.g == 0.06);
  plogp_loggp (&t, 1, &lg);
  CHECK (!lg.clamped && near (lg.L, -0.01)
         && near (lg.os + lg.L + lg.or_, 0.11));
  /* Table 1's L is the same -0.01 at 1 byte, clamped (LogGP's L) */
  plogp_table1 (&t, 8, &t1);
  CHECK (t1.clamped && t1.L == 0 && t1.beyond && near (t1.G, 0.06 / 8));
  plogp_free (&t);
  /* o_r above L + g (against g >= o_r, Section 2): L' = 0.05 + 0.06 -
     0.02 - 0.20 = -0.11 would start the receive 0.09 before the send;
     o_r is capped at L + g = 0.11 and L' = -o_s = -0.02, so the receiver
     is done at r(m) = L + g = 0.11 after the send started.  */
  const struct plogp_point slow[] = { { 1, 0.02, 0.20, 0.06 } };
  CHECK (plogp_init (&t, slow, 1, 0.05, NULL) == PLOGP_OK);
  plogp_loggp (&t, 1, &lg);
  CHECK (lg.clamped && near (lg.L, -0.02) && near (lg.or_, 0.11)
         && near (lg.os + lg.L + lg.or_, 0.11));
  /* Table 1 (LogGP's L) clamps at 0 as before */
  plogp_table1 (&t, 8, &t1);
  CHECK (t1.clamped && t1.L == 0 && t1.beyond && near (t1.G, 0.06 / 8));
  plogp_free (&t);

  /* A falling last segment does not extrapolate below zero: g from 10
     at 0 to 2 at 100 reaches 0 at 125; at 1000 it is 0.  */
  const struct plogp_point fall[] = { { 0, 1, 1, 10 }, { 100, 1, 1, 2 } };
  CHECK (plogp_init (&t, fall, 2, 0, NULL) == PLOGP_OK);
  plogp_eval (&t, 1000, &v);
  CHECK (v.g == 0 && v.beyond);
  plogp_free (&t);

  /* Errors: the second row of a size, a negative value, L, no rows.  */
  const struct plogp_point dup[] = { { 100, 1, 1, 1 }, { 0, 1, 1, 1 },
                                     { 100, 2, 2, 2 } };
  CHECK (plogp_init (&t, dup, 3, 0, &which) == PLOGP_DUPLICATE
         && which == 2 && t.pt == NULL);
  const struct plogp_point neg[] = { { 0, 1, 1, 1 }, { 8, -1, 1, 1 } };
  CHECK (plogp_init (&t, neg, 2, 0, &which) == PLOGP_NEGATIVE && which == 1);
  /* A negative L is pLogP's when g(0) > RTT(0)/2: accepted while the
     one-way time L + g(m) is >= 0 at every size (here 2, 4 and 22),
     refused at the first size where it is not (L = -4: g(0) = 3).  */
  CHECK (plogp_init (&t, pts, 3, -1, &which) == PLOGP_OK);
  plogp_loggp (&t, 0, &lg);
  CHECK (near (lg.os + lg.L + lg.or_, 2));
  plogp_free (&t);
  CHECK (plogp_init (&t, pts, 3, -4, &which) == PLOGP_NEGATIVE_ONEWAY
         && which == 1 && t.pt == NULL);
  /* A negative g(m) (noise on a tiny size: RTT(m) below RTT(0) - g(0))
     is held as 0 while L + g(m) >= 0: with L = 0.3, g(2) = -0.05 reads
     as 0, the one-way time at 2 bytes is L = 0.3 (not 0.25), halfway to
     g(4) = 0.1 the gap is 0.05 (the line from 0, not from -0.05: 0.025),
     and nneg_g counts the size; with L = 0.04, L + g(2) < 0 is refused
     at that row, as is a g that is not finite.  */
  const struct plogp_point gn[] = { { 0, 0.02, 0.2, 0.1 },
                                    { 2, 0.02, 0.2, -0.05 },
                                    { 4, 0.02, 0.2, 0.1 } };
  CHECK (plogp_init (&t, gn, 3, 0.3, &which) == PLOGP_OK && t.nneg_g == 1);
  plogp_eval (&t, 2, &v);
  CHECK (v.g == 0);
  plogp_loggp (&t, 2, &lg);
  CHECK (near (lg.L + lg.os + lg.or_, 0.3));
  plogp_eval (&t, 3, &v);
  CHECK (near (v.g, 0.05));
  plogp_free (&t);
  CHECK (plogp_init (&t, gn, 3, 0.04, &which) == PLOGP_NEGATIVE_ONEWAY
         && which == 1 && t.pt == NULL);
  const struct plogp_point ginf[] = { { 0, 1, 1, 1 }, { 8, 1, 1, -INFINITY } };
  CHECK (plogp_init (&t, ginf, 2, 5, &which) == PLOGP_NEGATIVE && which == 1);
  CHECK (plogp_init (&t, pts, 3, INFINITY, &which) == PLOGP_NEGATIVE
         && which == 3);
  CHECK (plogp_init (&t, pts, 3, NAN, &which) == PLOGP_NEGATIVE);
  CHECK (plogp_init (&t, pts, 0, 1, &which) == PLOGP_EMPTY);
  CHECK (strcmp (plogp_status_text (PLOGP_DUPLICATE),
                 "two rows for the same message size") == 0);
  return unit_done ();
}
