/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagcost.c: the tables of cost models and networks (dagcost.h), one
 * row each; the first row whose uses() accepts a cost is chosen.  */
#include <config.h>

#include <string.h>

#include "dagcost.h"

static int
nic_uses (const struct dagsim_cost *c)
{
  (void) c;
  return 1;
}

/* A NIC per rank (dagsim.h's rules): nothing shared between messages,
   so no state and no wire () (the engine takes the model's arrival).  */
const struct dagcost_net dagcost_nic = {
  "nic", nic_uses, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
};

static const struct dagcost_model *const models[] = {
  &dagcost_hyperbolic, &dagcost_plogp, &dagcost_logpc,
  &dagcost_loggops   /* last: takes every cost */
};

extern const struct dagcost_net dagcost_fattree;   /* net_fattree.c */

static const struct dagcost_net *const nets[] = {
  &dagcost_bus, &dagcost_topology, &dagcost_topology_fifo,
  &dagcost_fattree,
  &dagcost_nic   /* last: takes every cost */
};

const struct dagcost_model *
dagcost_model_of (const struct dagsim_cost *c)
{
  size_t n = sizeof models / sizeof models[0];
  for (size_t i = 0; i + 1 < n; i++)
    if (models[i]->uses (c))
      return models[i];
  return models[n - 1];
}

const struct dagcost_net *
dagcost_net_of (const struct dagsim_cost *c)
{
  if (c->net)
    return c->net;
  size_t n = sizeof nets / sizeof nets[0];
  for (size_t i = 0; i + 1 < n; i++)
    if (nets[i]->uses (c))
      return nets[i];
  return nets[n - 1];
}

const struct dagcost_net *
dagcost_net_named (const char *name, size_t len)
{
  for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
    if (nets[i]->parse && strlen (nets[i]->name) == len
        && strncmp (nets[i]->name, name, len) == 0)
      return nets[i];
  return NULL;
}

const struct dagcost_net *
dagcost_net_arg (size_t i)
{
  for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++)
    if (nets[k]->parse && i-- == 0)
      return nets[k];
  return NULL;
}
