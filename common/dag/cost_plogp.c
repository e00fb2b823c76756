/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cost_plogp.c: parameterized LogP's message costs (Kielmann, Bal,
 * Verstoep): LogGOPS's rules with the os(s), or(s) and g(s) of the
 * message's size s read from the table, G = O = 0, and
 * L' = L + g(s) - os(s) - or(s), so that the receiver has the message
 * at L + g(s) (Section 2; plogp_loggp).  */
#include <config.h>

#include "dagcost.h"
#include "plogp.h"

static void
plogp_send (const struct dagsim_cost *c, int32_t proc, int64_t bytes,
            double t, struct dagcost_send *m, double *nic)
{
  (void) proc;
  struct plogp_loggp lg;
  plogp_loggp (c->plogp, (double) bytes, &lg);
  double x1 = dagcost_bytes1 (bytes);
  m->cpu_end = t + lg.os;
  m->busy = lg.os;
  *nic = t + lg.g;
  m->ready = t + lg.os;
  m->flight = lg.L;
  m->arrive = t + lg.os + lg.L;
  m->hold = x1;
  m->G = 0;
  m->late = 0;
}

static double
plogp_recv (const struct dagsim_cost *c, int64_t bytes, double t,
            double *or_, double *nic)
{
  struct plogp_loggp lg;
  plogp_loggp (c->plogp, (double) bytes, &lg);
  *or_ = lg.or_;
  *nic = t + lg.g;
  return t + lg.or_;
}

static void
plogp_totals (const struct dagsim_cost *c, int64_t bytes, double *send,
              double *recv)
{
  struct plogp_loggp lg;
  plogp_loggp (c->plogp, (double) bytes, &lg);
  *send += lg.os;
  *recv += lg.or_;
}

static int
plogp_uses (const struct dagsim_cost *c)
{
  return c->plogp != NULL;
}

const struct dagcost_model dagcost_plogp = {
  "plogp", plogp_uses, plogp_send, plogp_recv, plogp_totals, 1
};
