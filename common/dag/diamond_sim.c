/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diamond_sim: eq. (15)'s Diamond DAG simulated.  */
#include <config.h>

#include "dagsim.h"
#include "diamond_sim.h"
#include "err.h"

double
diamond_simulate (const struct dag *d, const struct diamond_out *o)
{
  struct dagsim_cost c;
  diamond_cost (o, &c);
  struct dagsim_result r;
  /* Eq. (15) follows a block's computation, which starts before a
     message handled at the same instant: the class order.  */
  struct dagsim_opts so = { .tie_order = DAGSIM_TIE_CLASS };
  if (dagsim_run (d, &c, &so, &r) != 0)
    die ("%s", r.stuck);
  double m = r.makespan;
  dagsim_result_free (&r);
  return m;
}
