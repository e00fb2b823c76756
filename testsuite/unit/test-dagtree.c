/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-dagtree: dag-predict's tree generators against the LogP tree
   costs of the MRNet paper, Section 2.6 (treecost.h), over trees built
   by treespec.h.

   dag-predict's LogP rules (dag-predict(1), TIMING RULES): a send holds
   the CPU for o and the sending side of the NIC for g, the message is
   handled L + o later and holds the receiver's CPU for o.  A rank that
   has the message at T (its receive done; the root at 0) and no work
   serves its i-th child (1-based) at T + (i-1) h, h = max(g, o), so the
   child has it at T + (i-1) h + 2o + L.  The paper's convention is
   T + i g + 2o + L: one gap more per level.  With a task of work g on
   every rank, dag-predict's rules become the paper's (the work plays the
   first gap), and the makespan is the paper's latency plus the work of
   the last leaf, g.  Pipelined broadcasts follow each other every
   (largest fan-out) g when o is small: the paper's interval.  */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "dag.h"
#include "dag_gen.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "treecost.h"
#include "treespec.h"
#include "unit.h"

/* The makespan dag-predict simulates for R broadcasts (or reductions)
   over SPEC (PROCS ranks when > 0) under LogP with work W per rank.  */
static double
simulate (const char *spec, int procs, const char *pattern, double L,
          double o, double g, double w, int rounds)
{
  struct dag_gen gen;
  dag_gen_init (&gen);
  if (procs > 0)
    {
      gen.procs = procs;
      gen.procs_given = 1;
    }
  gen.pattern = pattern;
  gen.topology = spec;
  gen.work = w;
  gen.bytes = 1;
  gen.rounds = rounds;
  gen.rounds_given = 1;
  struct dag d;
  struct dag_sink s;
  struct dag_sink_dag c;
  dag_init (&d, "gen");
  dag_sink_dag_init (&s, &c, &d);
  CHECK (dag_gen_run (&gen, &s) == NULL);
  dag_finalize (&d);
  struct dag_params p;
  dag_params_default (&p);
  p.L = L;
  p.os = p.or_ = o;
  p.g = g;
  struct dagsim_result r;
  int it;
  dag_predict (&d, MODEL_LOGP, &p, NULL, 1e-12, 50, &r, &it);
  double ms = r.makespan;
  dagsim_result_free (&r);
  dag_free (&d);
  return ms;
}

/* dag-predict's rule above, applied rank by rank (work 0).  */
static double
dag_rule (const struct tree *t, double L, double o, double g)
{
  double at[64], h = g > o ? g : o, last = 0;
  CHECK (t->n <= 64);
  at[0] = 0;
  /* Ranks of b:, g: and k: trees are numbered parents first.  */
  for (int r = 0; r < t->n; r++)
    for (int i = 0; i < tree_nchildren (t, r); i++)
      {
        int ch = tree_children (t, r)[i];
        CHECK (ch > r);
        at[ch] = at[r] + i * h + 2 * o + L;
        if (at[ch] > last)
          last = at[ch];
      }
  return last;
}

static const char *const specs[] = {
  "b:4^2",                                   /* Figure 4a */
  "g:6:5,4,0,0,0,0:4,0,0,0,0,0,0,0,0",       /* Figure 4b */
  "k:2@16", "k:3@9", "b:2x3", "flat", NULL
};

int
main (void)
{
  /* Figure 4a with L = 1, o = 1000, g = 1e6 (coefficients readable). */
  struct tree t;
  struct tree_cost c;
  CHECK (treespec_parse ("b:4^2", 0, &t, NULL) == 0);
  tree_bcast_cost (&t, 1, 1000, 1e6, &c, NULL);
  double sim0 = simulate ("b:4^2", 0, "tree-bcast", 1, 1000, 1e6, 0, 1);
  double simg = simulate ("b:4^2", 0, "tree-bcast", 1, 1000, 1e6, 1e6, 1);
  double iv = simulate ("b:4^2", 0, "tree-bcast", 1, 1000, 1e6, 0, 21)
              - simulate ("b:4^2", 0, "tree-bcast", 1, 1000, 1e6, 0, 20);
  printf ("b:4^2 paper %.0f (8g+4o+2L) interval %.0f (4g)\n", c.latency,
          c.interval);
  printf ("b:4^2 dag-predict %.0f (6g+4o+2L) work g %.0f (8g+4o+2L + g) "
          "interval %.0f (4g)\n", sim0, simg, iv);
  CHECK (c.latency == 8e6 + 4000 + 2 && c.interval == 4e6);
  CHECK (sim0 == 6e6 + 4000 + 2);
  CHECK (simg == c.latency + 1e6);
  CHECK (iv == c.interval);
  tree_free (&t);

  /* Every tree, several parameter sets: the rule, the mapping with
     work g (when g >= o), the interval (when o is small), and a
     reduction up the tree costs what the broadcast down it does.  */
  static const double prm[][3] = {
    { 1, 1000, 1e6 }, { 10, 2, 3 }, { 2500, 1500, 1000 }, { 7, 1, 50 }
  };
  for (int s = 0; specs[s]; s++)
    {
      int flat = strcmp (specs[s], "flat") == 0;
      CHECK (treespec_parse (specs[s], flat ? 17 : 0, &t, NULL) == 0);
      for (size_t k = 0; k < sizeof prm / sizeof prm[0]; k++)
        {
          double L = prm[k][0], o = prm[k][1], g = prm[k][2];
          int P = flat ? 17 : 0;
          tree_bcast_cost (&t, L, o, g, &c, NULL);
          double b = simulate (specs[s], P, "tree-bcast", L, o, g, 0, 1);
          double r = simulate (specs[s], P, "tree-reduce", L, o, g, 0, 1);
          CHECK (b == dag_rule (&t, L, o, g));
          CHECK (r == b);
          if (g >= o)
            CHECK (simulate (specs[s], P, "tree-bcast", L, o, g, g, 1)
                   == c.latency + g);
          if (g >= 2 * o)
            {
              double m20 = simulate (specs[s], P, "tree-bcast", L, o, g, 0,
                                     20);
              double m21 = simulate (specs[s], P, "tree-bcast", L, o, g, 0,
                                     21);
              CHECK (m21 - m20 == c.interval);
            }
        }
      tree_free (&t);
    }
  return unit_done ();
}
