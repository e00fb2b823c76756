/* SPDX-License-Identifier: GPL-3.0-or-later */
/* progress.c: what moves a rendezvous message's bytes (dagcost.h).
 *
 * With a progress thread (LogGOPSim's rule, dagsim.h) the bytes move
 * on their own: the sender is free at the match and the receive ends
 * when the receiver has handled the message.  Open MPI has no such
 * thread: above the eager limit S, a message announces itself, and its
 * bytes move only while both ranks are inside MPI calls.  A sender
 * inside its send and a receiver at its receive are both there from
 * the match on, so the bytes leave at the match T_m: the receiver
 * handles them from T_m (the model's receive from T_m, e.g. LogGOPS's
 * or + (s-1) max(O, G)), and the sender is held in its call while they
 * move, until that end less or.  A message that arrived before its
 * receive was posted is then handled again from the post, not before
 * it (an early receiver no longer hides the transfer).  */
#include <config.h>

#include <stddef.h>
#include <string.h>

#include "dagcost.h"

static void
thread_matched (const struct dagsim_cost *c, const struct dagcost_model *m,
                int64_t bytes, double t_match, double *snd_done,
                double *rcv_done)
{
  (void) c;
  (void) m;
  (void) bytes;
  (void) t_match;
  (void) snd_done;
  (void) rcv_done;
}

static void
mpi_matched (const struct dagsim_cost *c, const struct dagcost_model *m,
             int64_t bytes, double t_match, double *snd_done,
             double *rcv_done)
{
  if (!m->recv)
    return;
  double or_, nic;
  double end = m->recv (c, bytes, t_match, &or_, &nic);
  if (end > *rcv_done)
    *rcv_done = end;
  if (end - or_ > *snd_done)
    *snd_done = end - or_;
}

const struct dagcost_progress dagcost_progress_thread = {
  "thread", thread_matched
};

const struct dagcost_progress dagcost_progress_mpi = {
  "mpi", mpi_matched
};

static const struct dagcost_progress *const rules[] = {
  &dagcost_progress_mpi, &dagcost_progress_thread
};

const struct dagcost_progress *
dagcost_progress_named (const char *name)
{
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
    if (strcmp (rules[i]->name, name) == 0)
      return rules[i];
  return NULL;
}

const struct dagcost_progress *
dagcost_progress_arg (size_t i)
{
  return i < sizeof rules / sizeof rules[0] ? rules[i] : NULL;
}
