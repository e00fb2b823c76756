/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-treecost.c: the broadcast costs of Section 2.6 of the MRNet
   paper.  */
#include <config.h>

#include "treecost.h"
#include "treespec.h"
#include "unit.h"

/* Cost of SPEC with L, o, g such that the coefficients of g, o and L can
   be read off: L = 1, o = 1000, g = 1e6.  */
static void
cost (const char *spec, double *latency, double *interval)
{
  struct tree t;
  struct tree_cost c;
  CHECK (treespec_parse (spec, 0, &t, NULL) == 0);
  CHECK (tree_bcast_cost (&t, 1, 1000, 1e6, &c, NULL) == 0);
  *latency = c.latency;
  *interval = c.interval;
  tree_free (&t);
}

int
main (void)
{
  double lat, iv;
  /* Figure 4a: 16 back-ends, fan-out 4: 8g + 4o + 2L, every 4g.  */
  cost ("b:4^2", &lat, &iv);
  CHECK (lat == 8e6 + 4000 + 2);
  CHECK (iv == 4e6);
  /* Figure 4b: a binomial tree of four nodes (0 -> 1, 2; 2 -> 3), each
     with four back-ends, binomial children served first: the root serves
     six, so at least 6g between broadcasts.  */
  cost ("g:6:5,4,0,0,0,0:4,0,0,0,0,0,0,0,0", &lat, &iv);
  CHECK (iv == 6e6);
  /* Its last back-end hangs from the third binomial node, reached in
     two hops of one gap each: (g + 2o + L) + (g + 2o + L), which serves
     it fourth: + 4g + 2o + L = 6g + 6o + 3L; sooner than Figure 4a's
     8g + 4o + 2L when 2g > 2o + L, as the paper says.  */
  CHECK (lat == 6e6 + 6000 + 3);
  /* Flat with 16 back-ends: 16g + 2o + L, every 16g.  */
  {
    struct tree t;
    struct tree_cost c;
    double at[17];
    CHECK (treespec_parse ("flat", 17, &t, NULL) == 0);
    CHECK (tree_bcast_cost (&t, 1, 1000, 1e6, &c, at) == 0);
    CHECK (c.latency == 16e6 + 2000 + 1 && c.interval == 16e6);
    CHECK (c.last == 16 && at[1] == 1e6 + 2000 + 1 && at[0] == 0);
    tree_free (&t);
  }
  /* Binomial tree of 8: the root serves 4, 2, 1, rank 4 serves 6, 5,
     rank 6 serves 7: rank 7 has it at 3g + 6o + 3L, as rank 1 does at
     3g + 2o + L; every 3g.  */
  cost ("k:2@8", &lat, &iv);
  CHECK (iv == 3e6);
  CHECK (lat == 3e6 + 6000 + 3);
  return unit_done ();
}
