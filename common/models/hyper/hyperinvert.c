/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperinvert.c: Section 3 inversions (eqs. (3)-(5), (8)-(10),
 * (12)-(14)) by least squares over all pattern sizes.  */
#include <config.h>

#include "hyperinvert.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pattern_names[] = { "ethernet", "sp2", "paragon" };

int
hinv_pattern_parse (const char *name)
{
  for (int i = 0; i < 3; i++)
    if (strcmp (name, pattern_names[i]) == 0)
      return i;
  return -1;
}

const char *
hinv_pattern_name (enum hinv_pattern p)
{
  return pattern_names[p];
}

const char *
hinv_status_name (enum hinv_status s)
{
  switch (s)
    {
    case HINV_FIT: return "fit";
    case HINV_UPPER_BOUND: return "upper_bound";
    case HINV_BELOW_RESOLUTION: return "below_resolution";
    case HINV_NOT_IDENTIFIABLE: return "not_identifiable";
    }
  return "?";
}

/* Coefficients of the node (0) and network (1) blocks in a(n) and b(n).  */
struct coef
{
  double u[2];   /* a = u0 a_0 + u1 a_1 */
  double v[2];   /* b = max (v0 b_0, v1 b_1) */
};

static struct coef
coefficients (const struct hinv_options *opt, const struct hinv_obs *o)
{
  struct coef c;
  double n = o->n;
  if (o->rtt)
    {
      /* eq. (3): RTT/2 = (2 a_w + a_c, max{b_w, b_c}); sp2 and paragon:
         the one-pair case of eqs. (8) and (12).  */
      c.u[0] = 2;
      c.u[1] = opt->pattern == HINV_PARAGON ? 2 : 1;
      c.v[0] = 1;
      c.v[1] = 1;
      return c;
    }
  switch (opt->pattern)
    {
    case HINV_ETHERNET:            /* eq. (4) */
      c.u[0] = 4 * (n - 1);
      c.u[1] = n * (n - 1);
      c.v[0] = 2 * (n - 1);
      c.v[1] = n * (n - 1);
      break;
    case HINV_SP2:                 /* eq. (8) */
      c.u[0] = 2;
      c.u[1] = n;
      c.v[0] = 1;
      c.v[1] = opt->channels > 0 ? n / fmin (n, opt->channels) : n;
      break;
    default:                       /* eq. (12) */
      c.u[0] = 2;
      c.u[1] = 2 * n;
      c.v[0] = 1;
      c.v[1] = n;
      break;
    }
  return c;
}

static void
note (struct hinv_result *r, const char *fmt, ...)
{
  if (r->nnotes >= HINV_MAX_NOTES)
    return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (r->note[r->nnotes++], sizeof r->note[0], fmt, ap);
  va_end (ap);
}

static int
same_ratio (double r1, double r2)
{
  return fabs (r1 - r2) <= 1e-9 * fmax (fabs (r1), fabs (r2));
}

/* The relative uncertainty floor of observation J's value Y with SE.  */
static double
rel_var (double y, double se)
{
  return isfinite (se) && y != 0 ? (se / y) * (se / y) : 0;
}

/* ---------------------------------------------------------- a: linear */

static void
solve_a (const struct hinv_obs *obs, const struct coef *c, size_t m,
         const struct hinv_options *opt, struct hinv_result *r)
{
  const char *n0 = r->name[0], *n1 = r->name[1];
  int separable = 0;
  for (size_t j = 1; j < m; j++)
    if (!same_ratio (c[j].u[1] * c[0].u[0], c[0].u[1] * c[j].u[0]))
      separable = 1;
  double floor_var = 0;
  for (size_t j = 0; j < m; j++)
    floor_var += rel_var (obs[j].a, obs[j].a_se) / (double) m;
  if (!separable)
    {
      /* a = u0 (a_0 + k a_1) for every observation.  */
      double k = c[0].u[1] / c[0].u[0], sw = 0, s = 0;
      for (size_t j = 0; j < m; j++)
        {
          double w = 1 / (obs[j].a * obs[j].a);
          s += w * obs[j].a * c[j].u[0];
          sw += w * c[j].u[0] * c[j].u[0];
        }
      for (int i = 0; i < 2; i++)
        {
          r->a[i].value = NAN;
          r->a[i].se = NAN;
          r->a[i].status = HINV_NOT_IDENTIFIABLE;
        }
      note (r, "a_%s and a_%s are not identifiable: every pattern size "
            "measured gives the same combination a_%s + %g a_%s = %g "
            "(measure more pattern sizes)", n0, n1, n0, k, n1, s / sw);
      return;
    }
  /* Weighted least squares, weights 1/a^2 (relative errors).  */
  double s00 = 0, s01 = 0, s11 = 0, t0 = 0, t1 = 0;
  for (size_t j = 0; j < m; j++)
    {
      double w = 1 / (obs[j].a * obs[j].a);
      s00 += w * c[j].u[0] * c[j].u[0];
      s01 += w * c[j].u[0] * c[j].u[1];
      s11 += w * c[j].u[1] * c[j].u[1];
      t0 += w * c[j].u[0] * obs[j].a;
      t1 += w * c[j].u[1] * obs[j].a;
    }
  double det = s00 * s11 - s01 * s01;
  double x0 = (s11 * t0 - s01 * t1) / det;
  double x1 = (s00 * t1 - s01 * t0) / det;
  double chi2 = 0;
  for (size_t j = 0; j < m; j++)
    {
      double e = (c[j].u[0] * x0 + c[j].u[1] * x1 - obs[j].a) / obs[j].a;
      chi2 += e * e;
    }
  double s2 = m > 2 ? chi2 / (double) (m - 2) : 0;
  if (s2 < floor_var)
    s2 = floor_var;
  double x[2] = { x0, x1 };
  double se[2] = { sqrt (s2 * s11 / det), sqrt (s2 * s00 / det) };
  /* A block whose share of every a(n) is under the resolution, or whose
     estimate is within two standard errors of zero, is not resolved.  */
  int unresolved[2];
  for (int i = 0; i < 2; i++)
    {
      double share = 0;
      for (size_t j = 0; j < m; j++)
        share = fmax (share, c[j].u[i] * x[i] / obs[j].a);
      unresolved[i] = x[i] <= 2 * se[i] || share < opt->resolution;
    }
  if (unresolved[0] && unresolved[1])
    unresolved[x[0] > x[1] ? 0 : 1] = 0;
  for (int i = 0; i < 2; i++)
    {
      int o = 1 - i;
      r->a[i].value = x[i];
      r->a[i].se = se[i];
      r->a[i].status = HINV_FIT;
      if (!unresolved[i])
        continue;
      r->a[i].status = HINV_BELOW_RESOLUTION;
      if (x[i] >= 0)
        {
          note (r, "a_%s is below the resolution of these data (estimate "
                "%g, standard error %g)", i ? n1 : n0, x[i], se[i]);
          continue;
        }
      /* A negative estimate: set it to 0 and refit the other one alone.  */
      note (r, "a_%s is below the resolution of these data (estimate %g, "
            "standard error %g); a_%s is refitted with a_%s = 0",
            i ? n1 : n0, x[i], se[i], o ? n1 : n0, i ? n1 : n0);
      double sw = 0, s = 0;
      for (size_t j = 0; j < m; j++)
        {
          double w = 1 / (obs[j].a * obs[j].a);
          s += w * c[j].u[o] * obs[j].a;
          sw += w * c[j].u[o] * c[j].u[o];
        }
      r->a[i].value = 0;
      r->a[o].value = s / sw;
      r->a[o].se = sqrt (s2 / sw);
    }
}

/* ---------------------------------------------------------- b: maximum */

/* Relative least squares through the origin of y = v B over the
   observations in IDX[0..K-1]: returns B, its SE and the cost.  */
static double
fit_one (const struct hinv_obs *obs, const struct coef *c, const size_t *idx,
         size_t k, int comp, double *se, double *cost, double *maxrel)
{
  double s = 0, sw = 0, fv = 0;
  for (size_t q = 0; q < k; q++)
    {
      size_t j = idx[q];
      double y = obs[j].b, v = c[j].v[comp];
      s += v / y;
      sw += v * v / (y * y);
      fv += rel_var (y, obs[j].b_se) / (double) k;
    }
  double B = s / sw, chi2 = 0, mr = 0;
  for (size_t q = 0; q < k; q++)
    {
      size_t j = idx[q];
      double e = (c[j].v[comp] * B - obs[j].b) / obs[j].b;
      chi2 += e * e;
      mr = fmax (mr, fabs (e));
    }
  double s2 = k > 1 ? chi2 / (double) (k - 1) : 0;
  if (s2 < fv)
    s2 = fv;
  *se = B * sqrt (s2 / (B * B * sw));
  *cost = chi2;
  *maxrel = mr;
  return B;
}

/* IDX: room for M indices (the caller's, so that nothing here can run
   out of memory).  */
static void
solve_b (const struct hinv_obs *obs, const struct coef *c, size_t m,
         const struct hinv_options *opt, struct hinv_result *r, size_t *idx)
{
  const char *n0 = r->name[0], *n1 = r->name[1];
  /* Order by the ratio v1/v0: the network dominates from some point on.  */
  for (size_t j = 0; j < m; j++)
    idx[j] = j;
  for (size_t i = 1; i < m; i++)
    for (size_t j = i; j > 0; j--)
      {
        double ra = c[idx[j - 1]].v[1] / c[idx[j - 1]].v[0];
        double rb = c[idx[j]].v[1] / c[idx[j]].v[0];
        if (ra <= rb)
          break;
        size_t t = idx[j];
        idx[j] = idx[j - 1];
        idx[j - 1] = t;
      }
  double rmin = c[idx[0]].v[1] / c[idx[0]].v[0];
  double rmax = c[idx[m - 1]].v[1] / c[idx[m - 1]].v[0];

  double se0, se1, cost0, cost1, mr0, mr1;
  double B0 = fit_one (obs, c, idx, m, 0, &se0, &cost0, &mr0);
  double B1 = fit_one (obs, c, idx, m, 1, &se1, &cost1, &mr1);

  if (same_ratio (rmin, rmax))
    {
      /* b = v0 max{b_0, r b_1}: only the maximum is seen.  */
      r->b[0].value = B0;
      r->b[0].se = se0;
      r->b[0].status = HINV_UPPER_BOUND;
      r->b[1].value = B0 / rmin;
      r->b[1].se = se0 / rmin;
      r->b[1].status = HINV_UPPER_BOUND;
      note (r, "b_%s and b_%s are not separable: every pattern size gives "
            "max{b_%s, %g b_%s} = %g; each is only bounded above "
            "(measure more pattern sizes)", n0, n1, n0, rmin, n1, B0);
      return;
    }
  /* Prefer one bottleneck everywhere when it explains the data within the
     resolution; otherwise the best consistent split.  */
  int one1 = mr1 <= opt->resolution, one0 = mr0 <= opt->resolution;
  if (one1 && (!one0 || cost1 <= cost0))
    {
      r->b[1].value = B1;
      r->b[1].se = se1;
      r->b[1].status = HINV_FIT;
      r->b[0].value = B1 * rmin;
      r->b[0].se = se1 * rmin;
      r->b[0].status = HINV_UPPER_BOUND;
      note (r, "b_%s is shadowed by b_%s: the network is the bottleneck at "
            "every size measured, so only b_%s <= %g is known",
            n0, n1, n0, B1 * rmin);
      return;
    }
  if (one0)
    {
      r->b[0].value = B0;
      r->b[0].se = se0;
      r->b[0].status = HINV_FIT;
      r->b[1].value = B0 / rmax;
      r->b[1].se = se0 / rmax;
      r->b[1].status = HINV_UPPER_BOUND;
      note (r, "b_%s is shadowed by b_%s: the nodes are the bottleneck at "
            "every size measured, so only b_%s <= %g is known",
            n1, n0, n1, B0 / rmax);
      return;
    }
  double best = INFINITY, bv[2] = { NAN, NAN }, bse[2] = { NAN, NAN };
  for (size_t s = 1; s < m; s++)
    {
      double r0 = c[idx[s - 1]].v[1] / c[idx[s - 1]].v[0];
      double r1 = c[idx[s]].v[1] / c[idx[s]].v[0];
      if (same_ratio (r0, r1))
        continue;
      double e0, e1, k0, k1, m0, m1;
      double x0 = fit_one (obs, c, idx, s, 0, &e0, &k0, &m0);
      double x1 = fit_one (obs, c, idx + s, m - s, 1, &e1, &k1, &m1);
      /* Consistent: the block assigned to each point is its maximum
         (within the resolution).  */
      int ok = 1;
      for (size_t q = 0; q < m; q++)
        {
          size_t j = idx[q];
          double t0 = c[j].v[0] * x0, t1 = c[j].v[1] * x1;
          if (q < s ? t0 < t1 * (1 - opt->resolution)
                    : t1 < t0 * (1 - opt->resolution))
            ok = 0;
        }
      if (ok && k0 + k1 < best)
        {
          best = k0 + k1;
          bv[0] = x0, bv[1] = x1;
          bse[0] = e0, bse[1] = e1;
        }
    }
  if (isfinite (best))
    {
      for (int i = 0; i < 2; i++)
        {
          r->b[i].value = bv[i];
          r->b[i].se = bse[i];
          r->b[i].status = HINV_FIT;
        }
    }
  else
    {
      /* No consistent split: report the better single bottleneck and say
         that the pattern does not describe these data.  */
      int net = cost1 <= cost0;
      r->b[net].value = net ? B1 : B0;
      r->b[net].se = net ? se1 : se0;
      r->b[net].status = HINV_FIT;
      r->b[!net].value = net ? B1 * rmin : B0 / rmax;
      r->b[!net].se = NAN;
      r->b[!net].status = HINV_UPPER_BOUND;
      note (r, "the b(n) measured do not follow max{...} of the %s pattern "
            "(relative residuals up to %.0f%%); b_%s is a rough estimate",
            hinv_pattern_name (opt->pattern), 100 * (net ? mr1 : mr0),
            net ? n1 : n0);
    }
}

int
hinv_solve (const struct hinv_obs *obs, size_t m,
            const struct hinv_options *opt, struct hinv_result *res)
{
  memset (res, 0, sizeof *res);
  res->name[0] = opt->pattern == HINV_ETHERNET ? "w" : "p";
  res->name[1] = opt->pattern == HINV_SP2 && opt->channels > 0 ? "l" : "c";
  if (m == 0)
    {
      note (res, "no observation");
      return -1;
    }
  for (size_t j = 0; j < m; j++)
    if (!(obs[j].a > 0) || !(obs[j].b > 0) || !isfinite (obs[j].a)
        || !isfinite (obs[j].b))
      {
        note (res, "the block fitted at n = %g has a = %g, b = %g: both "
              "must be > 0", obs[j].n, obs[j].a, obs[j].b);
        return -1;
      }
  struct coef *c = malloc (m * sizeof *c);
  size_t *idx = malloc (m * sizeof *idx);
  if (!c || !idx)
    {
      free (c);
      free (idx);
      note (res, "out of memory while solving for the blocks of %zu "
            "observations", m);
      return -1;
    }
  for (size_t j = 0; j < m; j++)
    {
      c[j] = coefficients (opt, &obs[j]);
      if (!(c[j].u[0] > 0) || !(c[j].u[1] > 0) || !(c[j].v[0] > 0)
          || !(c[j].v[1] > 0))
        {
          note (res, "n = %g is not a valid size for the %s pattern "
                "(need n >= %d)", obs[j].n, hinv_pattern_name (opt->pattern),
                opt->pattern == HINV_ETHERNET ? 2 : 1);
          free (c);
          free (idx);
          return -1;
        }
    }
  solve_a (obs, c, m, opt, res);
  solve_b (obs, c, m, opt, res, idx);
  free (c);
  free (idx);
  return 0;
}
