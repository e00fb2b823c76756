/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bandwidth.c: MBps and the 50%/90%-of-peak sizes (see bandwidth.h).  */
#include <config.h>
#include "bandwidth.h"

#include <math.h>

double
bandwidth_mbps (int64_t bytes, double t_us)
{
  if (!(t_us > 0))
    return NAN;
  return (double) bytes / t_us;
}

int64_t
bandwidth_fraction_size (const int64_t *bytes, const double *mbps, size_t n,
                         double fraction)
{
  double peak = 0;
  for (size_t i = 0; i < n; i++)
    if (mbps[i] > peak)
      peak = mbps[i];
  if (!(peak > 0))
    return -1;
  int64_t best = -1;
  for (size_t i = 0; i < n; i++)
    if (mbps[i] >= fraction * peak && (best < 0 || bytes[i] < best))
      best = bytes[i];
  return best;
}
