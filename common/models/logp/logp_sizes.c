/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_sizes.c: size selection of the fast LogP procedure (Kielmann, Bal,
   Verstoep, Section 3).  See logp_sizes.h.  */
#include <config.h>

#include "logp_sizes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *
logp_origin_name (enum logp_origin o)
{
  switch (o)
    {
    case LOGP_BASE: return "base";
    case LOGP_GROWN: return "grown";
    case LOGP_REFINED: return "refined";
    }
  return "base";
}

const char *
logp_stage_name (enum logp_stage s)
{
  switch (s)
    {
    case LOGP_STAGE_NONE: return "none";
    case LOGP_STAGE_BASE: return "base";
    case LOGP_STAGE_GROWTH: return "growth";
    case LOGP_STAGE_REFINE: return "refine";
    }
  return "none";
}

void
logp_curve_free (struct logp_curve *c)
{
  free (c->p);
  memset (c, 0, sizeof *c);
}

double
logp_extrapolate (int64_t m2, double v2, int64_t m1, double v1, int64_t m)
{
  /* The straight line through the two smaller sizes, evaluated at M.  */
  double r = (double) (m - m1) / (double) (m1 - m2);
  return v1 + r * (v1 - v2);
}

int
logp_misses (const struct logp_point *a, const struct logp_point *b,
             const struct logp_point *c, int q, double eps, double abs_tol)
{
  double r = (double) (c->bytes - b->bytes) / (double) (b->bytes - a->bytes);
  double pred = logp_extrapolate (a->bytes, a->v[q], b->bytes, b->v[q],
                                  c->bytes);
  /* pred = (1 + r) v_b - r v_a: the worst-case propagated uncertainty.  */
  double u_pred = (1.0 + r) * b->u[q] + r * a->u[q];
  double tol = eps * fabs (c->v[q]) + abs_tol + c->u[q] + u_pred;
  return fabs (c->v[q] - pred) > tol;
}

int
logp_gap_per_byte_falls (const struct logp_point *b,
                         const struct logp_point *c, double eps,
                         double abs_tol)
{
  if (!(b->bytes > 0 && c->bytes > b->bytes))
    return 0;
  double mb = (double) b->bytes, mc = (double) c->bytes;
  double gb = b->v[LOGP_G] / mb, gc = c->v[LOGP_G] / mc;
  /* The drop must exceed EPS relative plus both uncertainties (and the
     timer's resolution), per byte.  */
  double tol = eps * fabs (gb) + (b->u[LOGP_G] + abs_tol) / mb
               + (c->u[LOGP_G] + abs_tol) / mc;
  return gb - gc > tol;
}

int
logp_interval_done (const struct logp_point *b, const struct logp_point *c,
                    const struct logp_select_cfg *cfg)
{
  double limit = cfg->eps * (double) c->bytes;
  if (limit < (double) cfg->min_step)
    limit = (double) cfg->min_step;
  return (double) (c->bytes - b->bytes) <= limit;
}

const char *
logp_select_check (const struct logp_select_cfg *cfg)
{
  if (cfg->min_bytes < 1)
    return "the smallest size must be at least 1 byte";
  if (cfg->max_bytes < cfg->min_bytes)
    return "the largest size is smaller than the smallest size";
  if (cfg->start_max < cfg->min_bytes)
    return "the initial largest size is smaller than the smallest size";
  if (!(cfg->eps > 0 && cfg->eps < 1))
    return "epsilon must be in (0, 1)";
  if (!(cfg->abs_tol >= 0))
    return "the absolute tolerance must be >= 0";
  if (cfg->min_step < 1)
    return "the minimum refinement step must be at least 1 byte";
  if (!(cfg->time_limit >= 0))
    return "the time limit must be >= 0 seconds";
  return NULL;
}

static size_t
max_points (const struct logp_select_cfg *cfg)
{
  return cfg->max_points ? cfg->max_points : 4096;
}

/* Measure BYTES and insert it at index AT of OUT.  The room is made
   before measuring, so that out of memory wastes no measurement.  */
static int
measure_at (struct logp_curve *out, size_t at, int64_t bytes,
            enum logp_origin origin, double budget, logp_measure_fn measure,
            void *ctx)
{
  if (out->n == out->cap)
    {
      size_t cap = out->cap ? 2 * out->cap : 32;
      struct logp_point *p = realloc (out->p, cap * sizeof *p);
      if (p == NULL)
        return LOGP_SELECT_NOMEM;
      out->p = p;
      out->cap = cap;
    }
  struct logp_point pt;
  memset (&pt, 0, sizeof pt);
  pt.bytes = bytes;
  pt.origin = origin;
  pt.budget = budget;
  int rc = measure (bytes, &pt, ctx);
  if (rc != 0)
    return rc;
  pt.bytes = bytes;
  pt.origin = origin;
  memmove (out->p + at + 1, out->p + at, (out->n - at) * sizeof *out->p);
  out->p[at] = pt;
  out->n++;
  if (origin == LOGP_GROWN)
    out->n_grown++;
  else if (origin == LOGP_REFINED)
    out->n_refined++;
  return 0;
}

/* Has the time limit run out before a new size of BYTES in STAGE?  Then
   OUT records where the selection stopped.  The clock is read before
   every size, so the selection overruns the limit by at most the time of
   the size that was running when it ran out.  */
static int
out_of_time (const struct logp_select_cfg *cfg, void *ctx, double start,
             enum logp_stage stage, int64_t bytes, struct logp_curve *out)
{
  if (cfg->clock == NULL)
    return 0;
  out->elapsed = cfg->clock (ctx) - start;
  if (!(cfg->time_limit > 0) || out->elapsed < cfg->time_limit)
    return 0;
  out->limited = stage;
  out->skipped = bytes;
  return 1;
}

/* The budget of a size (struct logp_point): the time left of the limit
   over SHARES, INFINITY without a limit.  */
static double
size_budget (const struct logp_select_cfg *cfg, void *ctx, double start,
             double shares)
{
  if (cfg->clock == NULL || !(cfg->time_limit > 0))
    return INFINITY;
  double left = cfg->time_limit - (cfg->clock (ctx) - start);
  return (left > 0 ? left : 0) / shares;
}

int
logp_select (const struct logp_select_cfg *cfg, logp_measure_fn measure,
             void *ctx, struct logp_curve *out)
{
  int rc;
  size_t limit = max_points (cfg);
  int64_t top = cfg->start_max < cfg->max_bytes ? cfg->start_max
                                                : cfg->max_bytes;
  double start = cfg->clock ? cfg->clock (ctx) : 0;
  out->limited = LOGP_STAGE_NONE;
  out->skipped = 0;
  out->elapsed = NAN;

  /* Initial set: m = min * 2^k up to 2^k_m, each size with its share of
     the time left.  */
  size_t nbase = 0;
  for (int64_t m = cfg->min_bytes; m <= top && nbase < limit; m *= 2)
    {
      nbase++;
      if (m > INT64_MAX / 2)
        break;
    }
  for (int64_t m = cfg->min_bytes; m <= top && out->n < limit; m *= 2)
    {
      if (out->n > 0 && out_of_time (cfg, ctx, start, LOGP_STAGE_BASE, m,
                                     out))
        return 0;
      double b = size_budget (cfg, ctx, start, (double) (nbase - out->n));
      if ((rc = measure_at (out, out->n, m, LOGP_BASE, b, measure, ctx))
          != 0)
        return rc;
      if (m > INT64_MAX / 2)
        break;
    }

  /* Grow k_m while g(2^k_m) is not within epsilon of the value linearly
     extrapolated from g(2^(k_m-2)) and g(2^(k_m-1)): g(m)/m has not yet
     stabilised, larger messages may still reach a lower gap per byte.  */
  while (out->n >= 3 && out->n < limit)
    {
      const struct logp_point *p = out->p + out->n - 3;
      /* Also grow while the gap per byte still falls: g(m) = c + G m on
         one line passes the extrapolation, yet g(m)/m = G + c/m is not G
         while c/m is more than the tolerance (the bandwidth regime, where
         Table 1 takes G, is further up).  */
      if (!logp_misses (p, p + 1, p + 2, LOGP_G, cfg->eps, cfg->abs_tol)
          && !logp_gap_per_byte_falls (p + 1, p + 2, cfg->eps, cfg->abs_tol))
        break;
      int64_t last = p[2].bytes;
      if (last > cfg->max_bytes / 2)
        break;
      if (out_of_time (cfg, ctx, start, LOGP_STAGE_GROWTH, 2 * last, out))
        return 0;
      if ((rc = measure_at (out, out->n, 2 * last, LOGP_GROWN,
                            size_budget (cfg, ctx, start, 1), measure,
                            ctx)) != 0)
        return rc;
    }

  /* Refinement: any size whose o_s, o_r or g misses the extrapolation from
     the two smaller sizes gets the midpoint below it measured, halving
     until it matches or the interval is at most max(32, eps * m_k).  A
     point's check depends only on the two before it, so one forward pass
     that re-checks from the inserted point on is enough.  */
  size_t i = 2;
  while (i < out->n && out->n < limit)
    {
      const struct logp_point *a = out->p + i - 2, *b = a + 1, *c = a + 2;
      int miss = 0;
      if (!logp_interval_done (b, c, cfg))
        for (int q = 0; q < LOGP_NQ && !miss; q++)
          miss = logp_misses (a, b, c, q, cfg->eps, cfg->abs_tol);
      int64_t mid = b->bytes + (c->bytes - b->bytes) / 2;
      if (miss && mid > b->bytes && mid < c->bytes)
        {
          if (out_of_time (cfg, ctx, start, LOGP_STAGE_REFINE, mid, out))
            return 0;
          if ((rc = measure_at (out, i, mid, LOGP_REFINED,
                                size_budget (cfg, ctx, start, 1), measure,
                                ctx)) != 0)
            return rc;
          /* Re-check from the new point (index i) on.  */
          continue;
        }
      i++;
    }
  if (cfg->clock)
    out->elapsed = cfg->clock (ctx) - start;
  return 0;
}
