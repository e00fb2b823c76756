/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_eager.h: the eager limit S of LogGOPS, found from blocking sends
 * to a busy receiver.
 *
 * LogGOPS (Hoefler, Schneider, Lumsdaine: LogGOPSim) adds to LogGP the
 * size S above which a message goes by rendezvous: its send completes
 * only once the receive is posted.  What matters to a prediction is not
 * the MPI library's configured limit (headers, fast paths and buffer
 * pools move it) but what a blocking send does: S here is the largest
 * size whose MPI_Send returns while the receiver is busy outside MPI.
 *
 * A size is probed by timing MPI_Send while the receiver computes for B
 * and for 2B before it posts the receive (the least of a few
 * repetitions each): a send that waits for the receiver takes about B
 * longer the second time, an eager one the same.  The difference, not
 * the time itself, decides, so a large eager send that takes long
 * (copying, a slow network) is not mistaken for a wait.
 *
 * The search doubles the size from the smallest until a size waits,
 * then halves the interval between the last eager size and that one down
 * to a byte.  It assumes that sizes above one that waits wait too.
 * Every size is probed twice, and a third time when the two disagree:
 * on a busy machine a sender descheduled for B/2 in every repetition
 * looks like a wait, and one wrong answer during the halving moves S by
 * the interval's width (seen: 16 bytes below Open MPI's TCP limit).
 * Pure logic: the probes come from a callback, so the same code drives
 * logp-measure and the unit tests.  */
#ifndef MSGPERF_LOGP_EAGER_H
#define MSGPERF_LOGP_EAGER_H

#include <stddef.h>
#include <stdint.h>

/* Probe size BYTES: 1 when its send waited for the receiver, 0 when it
   did not, negative to abandon the search (returned as it is).  */
typedef int (*logp_eager_probe_fn) (int64_t bytes, void *ctx);

struct logp_eager
{
  int64_t S;           /* largest size found eager; min_bytes - 1 when
                          even min_bytes waited */
  int64_t first_wait;  /* smallest size found waiting, S + 1; -1 when
                          none up to max_bytes did (S = max_bytes, a
                          lower bound) */
  size_t probes;       /* sizes probed */
  size_t disputed;     /* sizes whose first two probes disagreed (the
                          third decided) */
};

/* Search [MIN_BYTES, MAX_BYTES] (1 <= MIN_BYTES <= MAX_BYTES) with PROBE,
   called two or three times a size (the majority decides).  Returns 0,
   or the probe's negative value.  */
int logp_eager_search (int64_t min_bytes, int64_t max_bytes,
                       logp_eager_probe_fn probe, void *ctx,
                       struct logp_eager *out);

/* Did a send wait for its receiver?  T1 and T2: its times with the
   receiver busy for B and for 2B.  Waiting adds B to T2; the threshold
   is half of that.  NaN times: not decided, 0.  */
int logp_eager_waited (double t1, double t2, double busy);

#endif
