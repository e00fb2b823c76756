/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diamond_sim: the generated Diamond DAG simulated under the rules that
   reproduce eq. (15) of the LoGPC paper (diamond_cost of diamond.h), to
   set beside the closed form.  */
#ifndef MSGPERF_DIAMOND_SIM_H
#define MSGPERF_DIAMOND_SIM_H

#include "dag.h"
#include "diamond.h"

/* The makespan of D (a finalized Diamond DAG) under O's costs; dies when
   the schedule cannot complete.  */
double diamond_simulate (const struct dag *d, const struct diamond_out *o);

#endif
