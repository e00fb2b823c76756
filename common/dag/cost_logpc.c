/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cost_logpc.c: LoGPC's message costs (Moritz and Frank): LogGP's, and
 * the contention delay C_n (eqs. (5), (6) of the LoGPC paper) of a
 * message sent at its sender's injection rate added to its arrival,
 * after the network (dagmodel.c iterates on the rates).  */
#include <config.h>

#include "dagcost.h"

static void
logpc_send (const struct dagsim_cost *c, int32_t proc, int64_t bytes,
            double t, struct dagcost_send *m, double *nic)
{
  dagcost_loggops.send (c, proc, bytes, t, m, nic);
  m->late = c->contention (c->ctx, c->rate[proc], (double) bytes);
}

static double
logpc_recv (const struct dagsim_cost *c, int64_t bytes, double t,
            double *or_, double *nic)
{
  return dagcost_loggops.recv (c, bytes, t, or_, nic);
}

static void
logpc_totals (const struct dagsim_cost *c, int64_t bytes, double *send,
              double *recv)
{
  dagcost_loggops.totals (c, bytes, send, recv);
}

static int
logpc_uses (const struct dagsim_cost *c)
{
  return c->rate && c->contention;
}

/* Not local: the rates make every run of the iteration one schedule,
   run in the one order.  */
const struct dagcost_model dagcost_logpc = {
  "logpc", logpc_uses, logpc_send, logpc_recv, logpc_totals, 0
};
