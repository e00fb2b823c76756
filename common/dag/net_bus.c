/* SPDX-License-Identifier: GPL-3.0-or-later */
/* net_bus.c: --network bus, one link that every message occupies for
 * its bytes, first come first served (dagsim.h): a message whose first
 * byte is ready at t_r goes on the wire at t_w = max(t_r, bus free),
 * holds it for its bytes ((s - 1) G; hyperbolic: b s, the rate 1/b of
 * eq. (2) being the link's) and reaches the receiver its flight time
 * later (L; hyperbolic: T(s)).  */
#include <config.h>

#include <stdlib.h>

#include "dagcost.h"
#include "xalloc.h"

struct dagcost_net_state
{
  double bus;   /* when the link is free again */
};

static int
bus_uses (const struct dagsim_cost *c)
{
  return c->bus;
}

static struct dagcost_net_state *
bus_start (const struct dagsim_cost *c, const struct dag *d, int link_stats)
{
  (void) c;
  (void) d;
  (void) link_stats;
  return xcalloc (1, sizeof (struct dagcost_net_state));
}

static double
bus_wire (struct dagcost_net_state *st, int32_t from, int32_t to,
          const struct dagcost_send *m, double bytes)
{
  (void) from;
  (void) to;
  (void) bytes;
  double tw = st->bus > m->ready ? st->bus : m->ready;
  st->bus = tw + m->hold * m->G;
  return tw + m->flight;
}

static void
bus_release (struct dagcost_net_state *st)
{
  free (st);
}

static void
bus_finish (struct dagcost_net_state *st, struct dagsim_result *r)
{
  (void) r;
  free (st);
}

const struct dagcost_net dagcost_bus = {
  "bus", bus_uses, bus_start, bus_wire, bus_finish, bus_release, NULL, NULL,
  NULL, NULL
};
