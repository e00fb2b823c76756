/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_eager.c: the eager limit S of LogGOPS (see logp_eager.h).  */
#include <config.h>

#include "logp_eager.h"

int
logp_eager_waited (double t1, double t2, double busy)
{
  /* t2 - t1 is about BUSY for a send that waits, about 0 for one that
     does not: decide at the midpoint.  */
  return t2 - t1 > busy / 2;
}

/* Size M decided by the majority of up to three probes: two that agree
   decide, else a third.  Negative: the probe's error.  */
static int
vote (int64_t m, logp_eager_probe_fn probe, void *ctx,
      struct logp_eager *out)
{
  out->probes++;
  int a = probe (m, ctx);
  if (a < 0)
    return a;
  int b = probe (m, ctx);
  if (b < 0 || a == b)
    return b;
  out->disputed++;
  return probe (m, ctx);
}

int
logp_eager_search (int64_t min_bytes, int64_t max_bytes,
                   logp_eager_probe_fn probe, void *ctx,
                   struct logp_eager *out)
{
  out->S = min_bytes - 1;
  out->first_wait = -1;
  out->probes = 0;
  out->disputed = 0;
  /* Doubling: lo the last size that did not wait, hi the first that
     did.  */
  int64_t lo = min_bytes - 1, hi = -1;
  for (int64_t m = min_bytes;;)
    {
      int w = vote (m, probe, ctx, out);
      if (w < 0)
        return w;
      if (w)
        {
          hi = m;
          break;
        }
      lo = m;
      if (m >= max_bytes)
        break;
      m = m > max_bytes / 2 ? max_bytes : 2 * m;
    }
  if (hi < 0)
    {
      out->S = max_bytes;
      return 0;
    }
  /* Halving down to a byte.  */
  while (hi - lo > 1)
    {
      int64_t mid = lo + (hi - lo) / 2;
      int w = vote (mid, probe, ctx, out);
      if (w < 0)
        return w;
      if (w)
        hi = mid;
      else
        lo = mid;
    }
  out->S = lo;
  out->first_wait = hi;
  return 0;
}
