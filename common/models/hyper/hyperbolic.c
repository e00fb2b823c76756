/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperbolic.c: the hyperbolic model (eqs. (1), (2)) and Rules 1 to 4 of
 * Stoica, Sultan and Keyes.  */
#include <config.h>

#include "hyperbolic.h"

#include <math.h>

/* eq. (2) */
double
hyper_time (double x, double a, double b)
{
  double d = a + b * x;
  if (a == 0)
    return b * x;
  double a2 = a * a;
  /* a^2 overflows for a > 1e154 (and is 0 below 1e-162), and d for
     a + b x above the largest double, although T itself may be finite:
     then the same T as a / (1 + b x / a) + b x.  The ordinary range keeps
     a^2/d and its usual rounding.  */
  if (isinf (a2) || a2 == 0 || isinf (d))
    return a / (1 + b * x / a) + b * x;
  return a2 / d + b * x;
}

double
hyper_time_cb (struct hyper_cb cb, double x)
{
  return hyper_time (x, cb.a, cb.b);
}

/* eq. (1) */
double
hyper_sawtooth (double x, double a, double m, double p)
{
  return a * ceil (x / p) + m * x;
}

/* b = a/p + m, below eq. (2) */
double
hyper_b_of_packet (double a, double m, double p)
{
  return a / p + m;
}

double
hyper_linear_time (double x, double alpha, double beta)
{
  return alpha + beta * x;
}

int
hyper_cb_valid (struct hyper_cb cb)
{
  return isfinite (cb.a) && isfinite (cb.b) && cb.a >= 0 && cb.b >= 0;
}

/* Rule 1 */
struct hyper_cb
hyper_serial (const struct hyper_cb *cbs, size_t n, enum hyper_link link)
{
  struct hyper_cb r = { 0, 0 };
  for (size_t i = 0; i < n; i++)
    {
      r.a += cbs[i].a;
      if (link == HYPER_DEPENDENT)
        r.b += cbs[i].b;
      else if (i == 0 || cbs[i].b > r.b || isnan (cbs[i].b))
        r.b = isnan (r.b) ? r.b : cbs[i].b;
    }
  return r;
}

/* Rule 2 */
struct hyper_cb
hyper_parallel (const struct hyper_cb *cbs, size_t n, enum hyper_link link)
{
  struct hyper_cb r = { 0, 0 };
  double inv = 0;
  int zero = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (i == 0 || cbs[i].a < r.a || isnan (cbs[i].a))
        r.a = isnan (r.a) ? r.a : cbs[i].a;
      if (link == HYPER_DEPENDENT)
        {
          if (i == 0 || cbs[i].b < r.b || isnan (cbs[i].b))
            r.b = isnan (r.b) ? r.b : cbs[i].b;
        }
      else if (cbs[i].b == 0)
        zero = 1;
      else
        inv += 1 / cbs[i].b;      /* NaN propagates */
    }
  if (link == HYPER_INDEPENDENT)
    r.b = isnan (inv) ? inv : zero || n == 0 ? 0 : 1 / inv;
  return r;
}

struct hyper_cb
hyper_serial2 (struct hyper_cb x, struct hyper_cb y, enum hyper_link link)
{
  struct hyper_cb v[2] = { x, y };
  return hyper_serial (v, 2, link);
}

struct hyper_cb
hyper_parallel2 (struct hyper_cb x, struct hyper_cb y, enum hyper_link link)
{
  struct hyper_cb v[2] = { x, y };
  return hyper_parallel (v, 2, link);
}

/* Rule 3, equal sizes: sum x_j / x_i = k.  */
struct hyper_cb
hyper_concurrent (struct hyper_cb cb, double k)
{
  struct hyper_cb r = { k * cb.a, k * cb.b };
  return r;
}

/* Rule 3 */
struct hyper_cb
hyper_concurrent_sized (struct hyper_cb cb, const double *sizes, size_t n,
                        size_t i)
{
  double sum = 0;
  for (size_t j = 0; j < n; j++)
    sum += sizes[j];
  struct hyper_cb r = { (double) n * cb.a, cb.b * sum / sizes[i] };
  return r;
}

/* Rule 4 */
struct hyper_cb
hyper_general (struct hyper_cb small, struct hyper_cb large)
{
  struct hyper_cb r = { small.a, large.b };
  return r;
}
