/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-clockskew.c: the skew estimator and its accumulation on synthetic
   clocks with known offsets and asymmetric delays.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "clockskew.h"
#include "treespec.h"
#include "unit.h"

/* A probe at parent time T to a child whose clock is THETA ahead, with
   one-way delays D1 (down) and D2 (up).  */
static struct cs_probe
probe (double t, double theta, double d1, double d2)
{
  struct cs_probe p = { t, t + d1 + theta, t + d1 + d2 };
  return p;
}

static double
uniform (void)
{
  return (double) rand () / RAND_MAX;
}

int
main (void)
{
  struct cs_estimate e;

  /* Symmetric delays: exact.  */
  {
    struct cs_probe p[] = { probe (100, 2.5e-3, 1e-6, 1e-6) };
    CHECK (cs_estimate (p, 1, &e) == 0);
    CHECK_NEAR (e.offset, 2.5e-3, 1e-12);
    CHECK_NEAR (e.rtt, 2e-6, 1e-12);
    CHECK_NEAR (e.bound, 1e-6, 1e-12);
  }
  /* The probe with the smallest round trip is kept, even when a slower
     one happens to be closer.  */
  {
    struct cs_probe p[] = {
      probe (0, 5, 10, 2),      /* rtt 12, estimate 5 + 4 */
      probe (20, 5, 1, 2),      /* rtt 3, estimate 5 - 0.5 */
      probe (40, 5, 3, 3),      /* rtt 6, estimate 5 exactly */
      probe (60, 5, 2, 1),      /* rtt 3 again: the first is kept */
    };
    CHECK (cs_estimate (p, 4, &e) == 0);
    CHECK (e.best == 1 && e.n == 4);
    CHECK_NEAR (e.offset, 4.5, 1e-12);
    CHECK (fabs (e.offset - 5) <= e.bound);
  }
  /* Unusable probes.  */
  {
    struct cs_probe p[] = { { 10, 0, 9 } };
    CHECK (cs_estimate (p, 1, &e) == -1);
    CHECK (cs_estimate (p, 0, &e) == -1);
  }
  /* Many probes with random asymmetric delays on large timestamps:
     the error is within the bound, and small.  */
  {
    struct cs_probe p[200];
    srand (3);
    for (int i = 0; i < 200; i++)
      p[i] = probe (1.7e9 + i * 1e-3, -0.0371, 1e-6 + 20e-6 * uniform (),
                    1e-6 + 20e-6 * uniform ());
    CHECK (cs_estimate (p, 200, &e) == 0);
    CHECK (fabs (e.offset + 0.0371) <= e.bound + 1e-9);
    CHECK (e.rtt < 10e-6);
  }
  /* Accumulation up a tree: offsets against the root are the sums of the
     local offsets along the path, by cs_accumulate and by the upward
     wave of cs_lift, for shapes whose parents have higher ranks too.  */
  {
    const char *specs[] = { "k:2@16", "b:3^2", "g:2:8,4" };
    for (size_t s = 0; s < 3; s++)
      {
        struct tree t;
        CHECK (treespec_parse (specs[s], 0, &t, NULL) == 0);
        double *clock = calloc ((size_t) t.n, sizeof (double));
        double *local = calloc ((size_t) t.n, sizeof (double));
        double *lb = calloc ((size_t) t.n, sizeof (double));
        double *global = calloc ((size_t) t.n, sizeof (double));
        double *bound = calloc ((size_t) t.n, sizeof (double));
        for (int r = 1; r < t.n; r++)
          clock[r] = uniform () - 0.5;
        for (int r = 1; r < t.n; r++)
          {
            /* Each parent measures its child with noisy probes.  */
            struct cs_probe p[20];
            double theta = clock[r] - clock[t.parent[r]];
            for (int i = 0; i < 20; i++)
              p[i] = probe (i, theta, 1e-6 * (1 + uniform ()),
                            1e-6 * (1 + uniform ()));
            CHECK (cs_estimate (p, 20, &e) == 0);
            local[r] = e.offset;
            lb[r] = e.bound;
          }
        CHECK (cs_accumulate (&t, local, lb, global, bound) == 0);
        for (int r = 0; r < t.n; r++)
          {
            CHECK (fabs (global[r] - clock[r]) <= bound[r] + 1e-12);
            CHECK (bound[r] <= 1e-6 * 2 * t.level[r] + 1e-12);
          }
        /* The wave: leaf values 0, lifted at every parent.  */
        for (int r = 1; r < t.n; r++)
          {
            double v = 0;
            int x = r;
            while (x != 0)
              {
                cs_lift (&v, 1, local[x]);
                x = t.parent[x];
              }
            CHECK_NEAR (v, global[r], 1e-12);
          }
        free (clock);
        free (local);
        free (lb);
        free (global);
        free (bound);
        tree_free (&t);
      }
  }
  return unit_done ();
}
