/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clockskew.h: clock offsets from round trips, accumulated up a tree.
 *
 * MRNet's hierarchical clock-skew detection (Roth, Arnold, Miller, SC'03,
 * section 3.1, evaluated in 4.2.1): every parent measures the "local"
 * skew of each of its children from repeated round trips; then one upward
 * wave starts at every rank with a cumulative skew of zero, and each
 * parent adds its local skew for the child a value came through, so that
 * the root ends with the skew of every rank against its own clock.
 *
 * One round trip (a probe): the parent reads its clock (t_send), the child
 * reads its clock when the probe arrives (t_remote) and answers, the
 * parent reads its clock when the answer arrives (t_recv).  With one-way
 * delays d1 (down) and d2 (up) and the child's clock ahead by theta:
 *     t_remote = t_send + d1 + theta,   t_recv = t_send + d1 + d2,
 *     offset = t_remote - (t_send + t_recv) / 2 = theta + (d1 - d2) / 2,
 * so the error is at most rtt/2 = (d1 + d2)/2 and is smallest for the
 * probe with the smallest round trip, which is the one kept (the direct
 * scheme the paper compares against uses 100 probes the same way).
 * Offsets are "clock of the rank minus clock of the reference": a time t
 * read on rank r is t - offset[r] on the root's time base.  */
#ifndef MSGPERF_CLOCKSKEW_H
#define MSGPERF_CLOCKSKEW_H

#include <stddef.h>

#include "treespec.h"

struct cs_probe
{
  double t_send;    /* parent's clock, probe sent */
  double t_remote;  /* child's clock, probe received */
  double t_recv;    /* parent's clock, answer received */
};

struct cs_estimate
{
  double offset;    /* child's clock minus parent's clock */
  double rtt;       /* round trip of the probe kept */
  double bound;     /* |error| <= bound = rtt / 2 */
  size_t best;      /* index of the probe kept */
  size_t n;         /* probes considered */
};

/* Estimate from N probes: the probe with the smallest round trip (the
   first of equal ones).  Probes with t_recv < t_send are ignored (a clock
   that went backwards).  Returns 0, or -1 when no probe is usable.  */
int cs_estimate (const struct cs_probe *p, size_t n, struct cs_estimate *e);

/* One step of the upward wave: the cumulative offsets V (N of them,
   relative to a child) become relative to the parent by adding the
   parent's LOCAL estimate for that child.  */
void cs_lift (double *v, size_t n, double local);

/* The whole accumulation over tree T at once (the result the upward wave
   computes): LOCAL[r] is the offset of r against its parent (LOCAL[0]
   ignored); GLOBAL[r] becomes the offset of r against the root, and, when
   BOUND is not NULL, LOCAL_BOUND's sum along the path into BOUND[r].
   Returns 0, or -1 out of memory (GLOBAL and BOUND untouched).  */
int cs_accumulate (const struct tree *t, const double *local,
                    const double *local_bound, double *global,
                    double *bound);

#endif
