/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-models-only.c: the models link alone.
 *
 * Linked with common/models/libmodels.a and common/core/libcore.a whole
 * (every object, used or not), GSL and libm, and nothing else: no stream,
 * error or MPI layer.  A model that calls die(), xmalloc() or an MPI
 * function therefore fails to link this program (doc/ARCHITECTURE).  It
 * calls one function of each model family and checks a value computed by
 * hand.  No unit.h: that harness includes the error layer.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hyperbolic.h"
#include "hyperexpr.h"
#include "hyperfit.h"
#include "kcube.h"
#include "logp_params.h"
#include "logpc.h"
#include "num.h"
#include "treecost.h"
#include "treefilter.h"
#include "treespec.h"

static int checks, failures;

static void
near (const char *what, double got, double want, double tol)
{
  checks++;
  if (!(fabs (got - want) <= tol))
    {
      failures++;
      fprintf (stderr, "test-models-only: %s = %.17g, expected %.17g\n",
               what, got, want);
    }
}

static void
check (const char *what, int ok)
{
  checks++;
  if (!ok)
    {
      failures++;
      fprintf (stderr, "test-models-only: check failed: %s\n", what);
    }
}

int
main (void)
{
  /* core: "2.5e3" parses to 2500.  */
  double v = 0;
  check ("num_parse", num_parse ("2.5e3", 5, &v) == NUM_OK);
  near ("num_parse (\"2.5e3\")", v, 2500, 0);

  /* hyper, eq. (2): T(1000; 10, 0.5) = 10^2 / (10 + 500) + 500
     = 500 + 100/510.  */
  near ("hyper_time (1000, 10, 0.5)", hyper_time (1000, 10, 0.5),
        500 + 100.0 / 510, 1e-12);

  /* hyper, Rule 1 through the expression language: serial independent
     blocks add a and take the largest b: (10 + 20, max (0.5, 0.25)).  */
  struct hexpr_error err;
  memset (&err, 0, sizeof err);
  struct hexpr *e = hexpr_parse ("serial(cb(10, 0.5), cb(20, 0.25))", &err);
  check ("hexpr_parse", e != NULL);
  if (e)
    {
      struct hyper_cb cb = { -1, -1 };
      check ("hexpr_eval", hexpr_eval (e, NULL, &cb, &err) == 0);
      near ("serial: a", cb.a, 30, 0);
      near ("serial: b", cb.b, 0.5, 0);
      hexpr_free (e);
    }

  /* hyper, the Hockney fit (GSL's error handler is switched by the
     model): t = 5 + 2 x exactly gives alpha = 5, beta = 2.  */
  double x[4] = { 1, 2, 3, 4 }, t[4] = { 7, 9, 11, 13 };
  struct hfit_options fo = { HFIT_LINEAR, HFIT_WEIGHT_NONE };
  struct hfit_result fr;
  check ("hfit_fit", hfit_fit (x, t, 4, &fo, &fr) == HFIT_OK);
  near ("hfit_fit: alpha", fr.p[0], 5, 1e-9);
  near ("hfit_fit: beta", fr.p[1], 2, 1e-9);

  /* logp, Section 3: L = (RTT(0) - 2 g(0)) / 2 = (30 - 10) / 2 and
     g(m) = RTT(m) - RTT(0) + g(0) = 50 - 30 + 5.  */
  near ("logp_latency (30, 5)", logp_latency (30, 5), 10, 0);
  near ("logp_gap (50, 30, 5)", logp_gap (50, 30, 5), 25, 0);

  /* logpc, eq. (11): a bidirectional mesh of radix 8 has the average
     distance (8^2 - 1) / (3 * 8) = 2.625 along one dimension; eq. (8):
     os + L + Cn + or = 2 + 10 + 1 + 3.  */
  near ("kcube_avg_dist1 (8, mesh)", kcube_avg_dist1 (8, 0, 1), 2.625,
        1e-15);
  struct logpc_machine m;
  logpc_machine_init (&m);
  m.L = 10;
  m.os = 2;
  m.orr = 3;
  near ("logpc_short", logpc_short (&m, 1), 16, 0);

  /* trees, MRNet Section 2.6: b:2^2 (7 ranks) broadcasts in
     D (F g + 2 o + L) = 2 (2 * 100 + 2 * 10 + 1) = 442.  */
  struct tree tr;
  struct treespec_error te;
  check ("treespec_parse (b:2^2)", treespec_parse ("b:2^2", 7, &tr, &te)
         == 0);
  if (tr.n == 7)
    {
      struct tree_cost c;
      check ("tree_bcast_cost", tree_bcast_cost (&tr, 1, 10, 100, &c, NULL)
             == 0);
      near ("b:2^2 broadcast", c.latency, 442, 0);
      check ("b:2^2 depth 2, fan-out 2", tr.depth == 2
             && tr.max_fanout == 2);
    }
  tree_free (&tr);

  /* trees, the sum filter: packets {1, 2} and {10, 20} add up.  */
  struct tf_params tp;
  memset (&tp, 0, sizeof tp);
  tp.m = 2;
  struct tf_buf acc;
  tf_buf_init (&acc);
  double mine[2] = { 1, 2 }, child[2] = { 10, 20 };
  check ("tf_local", tf_local (TF_SUM, &tp, 0, mine, &acc) == NULL);
  check ("tf_combine", tf_combine (TF_SUM, &tp, &acc, child, 2) == NULL);
  check ("tf_finish", tf_finish (TF_SUM, &tp, &acc) == NULL);
  check ("sum: two values", acc.len == 2);
  if (acc.len == 2)
    {
      near ("sum[0]", acc.v[0], 11, 0);
      near ("sum[1]", acc.v[1], 22, 0);
    }
  tf_buf_free (&acc);

  printf ("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
