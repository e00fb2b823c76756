/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_pairs.h: which ordered (measure, mirror) pairs logp-measure runs.
 *
 * Kielmann, Bal and Verstoep, Section 3.1: on asymmetric links the
 * procedure runs twice with the roles of measure and mirror swapped.
 * logp-measure extends this to every ordered pair of P ranks, or a seeded
 * random sample of them.  Pure functions, no I/O.  */
#ifndef MSGPERF_LOGP_PAIRS_H
#define MSGPERF_LOGP_PAIRS_H

#include <stddef.h>
#include <stdint.h>

struct logp_pair
{
  int src;   /* measure */
  int dst;   /* mirror */
};

/* The splitmix64 generator: the next value of STATE.  */
uint64_t logp_rand_next (uint64_t *state);

/* A uniform integer in [0, N) from STATE (N > 0), without modulo bias.  */
uint64_t logp_rand_below (uint64_t *state, uint64_t n);

/* Number of ordered pairs of P ranks: P (P - 1).  */
size_t logp_npairs (int p);

/* Fill OUT (room for logp_npairs (P) pairs) with every ordered pair of P
   ranks, or with SAMPLE of them (0 < SAMPLE < P (P-1)) drawn without
   replacement with SEED, sorted by (src, dst).  SAMPLE 0 means all.
   Returns the number of pairs written.  */
size_t logp_pairs (int p, size_t sample, uint64_t seed,
                   struct logp_pair *out);

#endif
