/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_classes.c: see logp_classes.h.  */
#include <config.h>

#include <math.h>

#include "logp_classes.h"

size_t
logp_pack (const double *in, size_t n, double *out)
{
  double nan_mask = 0, inf_mask = 0, bit = 1;
  for (size_t i = 0; i < n; i++, bit *= 2)
    {
      double v = in[i];
      if (isnan (v))
        {
          nan_mask += bit;
          v = 0;
        }
      else if (isinf (v))
        {
          inf_mask += bit;
          v = v > 0 ? 1 : -1;
        }
      out[i + 2] = v;
    }
  out[0] = nan_mask;
  out[1] = inf_mask;
  return n + 2;
}

int
logp_unpack (const double *in, size_t n, double *out)
{
  double nan_mask = in[0], inf_mask = in[1];
  double top = ldexp (1, (int) n);
  if (!(nan_mask >= 0 && nan_mask < top && nan_mask == floor (nan_mask))
      || !(inf_mask >= 0 && inf_mask < top && inf_mask == floor (inf_mask)))
    return -1;
  /* Bit i of each mask, taken off from the top down.  */
  for (size_t i = n; i-- > 0;)
    {
      double bit = ldexp (1, (int) i);
      int is_nan = nan_mask >= bit, is_inf = inf_mask >= bit;
      if (is_nan)
        nan_mask -= bit;
      if (is_inf)
        inf_mask -= bit;
      if (is_nan && is_inf)
        return -1;
      double v = in[i + 2];
      out[i] = is_nan ? NAN : is_inf ? (v > 0 ? INFINITY : -INFINITY) : v;
    }
  return 0;
}

double
logp_class_key (double v, double w)
{
  if (!isfinite (v))
    return LOGP_CLASS_NA;
  if (!(v > 0))
    return LOGP_CLASS_NONPOS;
  double k = floor (log (v) / log1p (w));
  /* The quotient of logarithms may round across a bound: settle on the
     class whose bounds, as logp_class_bounds computes them, hold V.  */
  if (v < pow (1 + w, k))
    k -= 1;
  else if (v >= pow (1 + w, k + 1))
    k += 1;
  return k;
}

void
logp_class_bounds (double key, double w, double *lo, double *hi)
{
  *lo = pow (1 + w, key);
  *hi = pow (1 + w, key + 1);
}
