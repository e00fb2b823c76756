/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_pairs.c: ordered pairs of ranks, all or a seeded sample.  */
#include <config.h>

#include "logp_pairs.h"

#include <stdlib.h>

uint64_t
logp_rand_next (uint64_t *state)
{
  /* splitmix64 (Steele, Lea, Flood 2014).  */
  uint64_t z = (*state += UINT64_C (0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

uint64_t
logp_rand_below (uint64_t *state, uint64_t n)
{
  /* Reject the top partial block so every residue is equally likely.  */
  uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t r;
  do
    r = logp_rand_next (state);
  while (r >= limit);
  return r % n;
}

size_t
logp_npairs (int p)
{
  return p < 2 ? 0 : (size_t) p * (size_t) (p - 1);
}

static int
cmp_pair (const void *a, const void *b)
{
  const struct logp_pair *x = a, *y = b;
  if (x->src != y->src)
    return x->src < y->src ? -1 : 1;
  if (x->dst != y->dst)
    return x->dst < y->dst ? -1 : 1;
  return 0;
}

size_t
logp_pairs (int p, size_t sample, uint64_t seed, struct logp_pair *out)
{
  size_t n = 0;
  for (int i = 0; i < p; i++)
    for (int j = 0; j < p; j++)
      if (i != j)
        {
          out[n].src = i;
          out[n].dst = j;
          n++;
        }
  if (sample == 0 || sample >= n)
    return n;
  /* Partial Fisher-Yates: the first SAMPLE entries become a uniform
     sample without replacement.  */
  uint64_t state = seed;
  for (size_t k = 0; k < sample; k++)
    {
      size_t r = k + (size_t) logp_rand_below (&state, (uint64_t) (n - k));
      struct logp_pair t = out[k];
      out[k] = out[r];
      out[r] = t;
    }
  qsort (out, sample, sizeof *out, cmp_pair);
  return sample;
}
