/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diamond.h: the closed form of the Diamond DAG makespan with stripe
 * partitioning, eq. (15) of the LoGPC paper (Section 5.2), its optimal
 * block count from dM/db = 0, and the LogGOPS rule set under which a
 * simulation of the generated DAG follows the same critical path.  */
#ifndef MSGPERF_DIAMOND_H
#define MSGPERF_DIAMOND_H

#include <stdint.h>

#include "dagsim.h"

struct diamond_in
{
  double n;        /* n x n tasks */
  double P;        /* processors = stripes */
  double b;        /* blocks per stripe */
  double work;     /* time of one task */
  double alpha;    /* aggregation cost per value sent */
  double value;    /* bytes per value: B = value n / b */
  double L, os, G; /* LogGP parameters */
  double a;        /* header bytes before the receiver is notified */
};

struct diamond_out
{
  double wa;       /* n^2 / (P b) tasks of work per block, times work */
  double W;        /* wa + alpha n / b */
  double B;        /* bytes per block message */
  double d;        /* L + a G */
  double Os, Or;   /* os + (B - 1) G, (B - 1 - a) G */
  double u, v;     /* Or + W + d, Os + W + Or */
  double M;        /* eq. (15) */
};

void diamond_eval (const struct diamond_in *in, struct diamond_out *out);

/* M(b) = A / b + k b + C with A = (P-1) c1 + (P-3) c2, k = os - (2+a) G,
   c1 = n^2 work / P + alpha n, c2 = G value n.  dM/db = 0 gives
   b* = sqrt(A / k) when A > 0 and k > 0; otherwise M is monotonic and the
   best b is 1 (A <= 0) or n (k <= 0).  *B_REAL gets b* (or the bound),
   *B_INT the best integer in [1, n] and *M_INT its makespan.  */
void diamond_optimal_b (const struct diamond_in *in, double *b_real,
                        int64_t *b_int, double *m_int);

/* The simulator's rules that reproduce eq. (15): the send holds the CPU
   for Os, the first byte is noticed d after the block's work ends
   (L' = d - Os), handling costs Or, no gaps.  */
void diamond_cost (const struct diamond_out *o, struct dagsim_cost *c);

#endif
