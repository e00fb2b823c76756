/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cost_loggops.c: LogGOPS's message costs (dagsim.h's timing rules, as
 * in LogGOPSim); LogP is the row with G = O = 0 and S infinite, LogGP
 * the row with O = 0 and S infinite (dag_model_cost).  */
#include <config.h>

#include "dagcost.h"

/* Sender: CPU busy [t, t + os + (s-1) O], NIC busy [t, t + g + (s-1) G],
   first byte at the receiver at t + os + L.  */
static void
loggops_send (const struct dagsim_cost *c, int32_t proc, int64_t bytes,
              double t, struct dagcost_send *m, double *nic)
{
  (void) proc;
  double x1 = dagcost_bytes1 (bytes);
  m->cpu_end = t + c->os + x1 * c->O;
  m->busy = c->os;
  *nic = t + c->g + x1 * c->G;
  m->ready = t + c->os;
  m->flight = c->L;
  m->arrive = t + c->os + c->L;
  m->hold = x1;
  m->G = c->G;
  m->late = 0;
}

/* Receiver: CPU busy [t, t + or + max((s-1) O, (s-1) G)], NIC busy
   [t, t + g + (s-1) G].  */
static double
loggops_recv (const struct dagsim_cost *c, int64_t bytes, double t,
              double *or_, double *nic)
{
  double x1 = dagcost_bytes1 (bytes);
  double extra = x1 * c->O > x1 * c->G ? x1 * c->O : x1 * c->G;
  *or_ = c->or_;
  *nic = t + c->g + x1 * c->G;
  return t + c->or_ + extra;
}

static void
loggops_totals (const struct dagsim_cost *c, int64_t bytes, double *send,
                double *recv)
{
  double x1 = dagcost_bytes1 (bytes);
  *send += c->os + x1 * c->O;
  *recv += c->or_ + (x1 * c->O > x1 * c->G ? x1 * c->O : x1 * c->G);
}

static int
loggops_uses (const struct dagsim_cost *c)
{
  (void) c;
  return 1;
}

const struct dagcost_model dagcost_loggops = {
  "loggops", loggops_uses, loggops_send, loggops_recv, loggops_totals, 1
};
