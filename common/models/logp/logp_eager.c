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

int
logp_eager_search (int64_t min_bytes, int64_t max_bytes,
                   logp_eager_probe_fn probe, void *ctx,
                   struct logp_eager *out)
{
  out->S = min_bytes - 1;
  out->first_wait = -1;
  out->probes = 0;
  /* Doubling: lo the last size that did not wait, hi the first that
     did.  */
  int64_t lo = min_bytes - 1, hi = -1;
  for (int64_t m = min_bytes;;)
    {
      int w = probe (m, ctx);
      out->probes++;
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
      int w = probe (mid, ctx);
      out->probes++;
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
