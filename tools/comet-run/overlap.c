/* SPDX-License-Identifier: GPL-3.0-or-later */
/* overlap.c: the overlap percentage (see overlap.h).  */
#include <config.h>
#include "overlap.h"

#include <math.h>

double
overlap_raw_percent (double t_sync, double t_async, double t_comm,
                     double t_comp, double noise)
{
  if (!isfinite (t_sync) || !isfinite (t_async) || !isfinite (t_comm)
      || !isfinite (t_comp) || !isfinite (noise))
    return NAN;
  double hideable = t_comm < t_comp ? t_comm : t_comp;
  if (!(hideable > 0) || !(hideable > noise))
    return NAN;
  return 100 * (t_sync - t_async) / hideable;
}

double
overlap_percent (double t_sync, double t_async, double t_comm, double t_comp,
                 double noise)
{
  double p = overlap_raw_percent (t_sync, t_async, t_comm, t_comp, noise);
  return isnan (p) ? p : p < 0 ? 0 : p > 100 ? 100 : p;
}
