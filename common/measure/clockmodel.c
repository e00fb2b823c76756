/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clockmodel.c: the linear clock model of clockmodel.h.  */
#include <config.h>

#include "clockmodel.h"

#include <math.h>

void
clock_model_identity (struct clock_model *m)
{
  m->drift = 0;
  m->intercept = 0;
  m->residual = 0;
  m->drift_se = 0;
  m->n = 0;
}

long
clock_offset_min_rtt (const double *t_send, const double *t_ref,
                      const double *t_recv, size_t n, double *t_mid,
                      double *offset, double *rtt)
{
  long best = -1;
  double best_rtt = 0;
  for (size_t i = 0; i < n; i++)
    {
      double r = t_recv[i] - t_send[i];
      if (r >= 0 && (best < 0 || r < best_rtt))
        {
          best = (long) i;
          best_rtt = r;
        }
    }
  if (best < 0)
    return -1;
  /* eq. (3) */
  double mid = t_send[best] + 0.5 * best_rtt;
  *t_mid = mid;
  *offset = mid - t_ref[best];
  *rtt = best_rtt;
  return best;
}

int
clock_model_fit (const double *t, const double *offset, size_t n,
                 struct clock_model *m)
{
  clock_model_identity (m);
  if (n == 0)
    return -1;
  /* Centred sums: local times are large (seconds since boot or the
     epoch) and their spread small, so that the raw sums of t * t would
     cancel.  */
  double tm = 0, om = 0;
  for (size_t i = 0; i < n; i++)
    {
      tm += t[i];
      om += offset[i];
    }
  tm /= (double) n;
  om /= (double) n;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++)
    {
      sxx += (t[i] - tm) * (t[i] - tm);
      sxy += (t[i] - tm) * (offset[i] - om);
    }
  /* eq. (1) by least squares: drift = Sxy / Sxx, through the means.  */
  double drift = sxx > 0 ? sxy / sxx : 0;
  m->drift = drift;
  m->intercept = om - drift * tm;
  m->n = n;
  if (n >= 3)
    {
      double ss = 0;
      for (size_t i = 0; i < n; i++)
        {
          double e = offset[i] - (om + drift * (t[i] - tm));
          ss += e * e;
        }
      m->residual = sqrt (ss / (double) n);
      /* The slope's standard error, sqrt (s^2 / Sxx) with s^2 the
         residual variance on n - 2 degrees of freedom.  */
      m->drift_se = sxx > 0 ? sqrt (ss / (double) (n - 2) / sxx) : 0;
    }
  return 0;
}

int
clock_model_fit_auto (const double *t, const double *offset, size_t n,
                      struct clock_model *m)
{
  if (clock_model_fit (t, offset, n, m) != 0)
    return -1;
  if (fabs (m->drift) >= 2 * m->drift_se)
    return 0;
  double om = 0, ss = 0;
  for (size_t i = 0; i < n; i++)
    om += offset[i];
  om /= (double) n;
  for (size_t i = 0; i < n; i++)
    ss += (offset[i] - om) * (offset[i] - om);
  m->drift = 0;
  m->intercept = om;
  m->residual = n >= 3 ? sqrt (ss / (double) n) : 0;
  return 0;
}

void
clock_model_anchor (struct clock_model *m, double t, double offset)
{
  m->intercept = offset - m->drift * t;     /* eq. (1) through (t, offset) */
}

double
clock_model_global (const struct clock_model *m, double t)
{
  /* eq. (2) with (1) */
  return t - (m->drift * t + m->intercept);
}
