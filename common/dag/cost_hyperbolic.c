/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cost_hyperbolic.c: the hyperbolic model's message costs: the whole
 * transfer is T(x) = a^2/(a + b x) + b x (eq. (2) of the hyperbolic
 * paper) of sender CPU time, delivered at the end of it; the receiver
 * pays nothing and no NIC is held.  On a link, the message's x bytes
 * hold it at the rate 1/b of eq. (2).  */
#include <config.h>

#include "dagcost.h"
#include "hyperbolic.h"   /* hyper_time: eq. (2) */

static void
hyper_send (const struct dagsim_cost *c, int32_t proc, int64_t bytes,
            double t, struct dagcost_send *m, double *nic)
{
  (void) proc;
  (void) nic;
  double x = (double) bytes;
  m->cpu_end = t + hyper_time (x, c->a, c->b);
  m->busy = m->cpu_end - t;
  m->ready = t;
  m->flight = m->cpu_end - t;
  m->arrive = m->cpu_end;
  m->hold = x;
  m->G = c->b;
  m->late = 0;
}

static void
hyper_totals (const struct dagsim_cost *c, int64_t bytes, double *send,
              double *recv)
{
  (void) recv;
  *send += hyper_time ((double) bytes, c->a, c->b);
}

static int
hyper_uses (const struct dagsim_cost *c)
{
  return c->hyperbolic;
}

const struct dagcost_model dagcost_hyperbolic = {
  "hyperbolic", hyper_uses, hyper_send, NULL, hyper_totals, 1
};
