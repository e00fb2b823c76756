/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperfit.c: least-squares fits of eq. (2) and of the Hockney model, and
 * piecewise fits with breakpoint search.  */
#include <config.h>

#include "hyperfit.h"
#include "hyperbolic.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector.h>

const char *
hfit_strerror (enum hfit_status status)
{
  switch (status)
    {
    case HFIT_OK: return "ok";
    case HFIT_TOO_FEW: return "too few distinct message sizes (need 3)";
    case HFIT_BAD_TIME: return "a time is zero or negative";
    case HFIT_BAD_SIZE: return "a message size is negative";
    case HFIT_NEGATIVE_A: return "the best fit has a negative fixed time";
    case HFIT_NEGATIVE_B: return "the best fit has a negative time per byte";
    case HFIT_NO_CONVERGENCE: return "the least-squares solver did not converge";
    case HFIT_NOT_FINITE:
      return "the fitted parameters are not finite: the least-squares sums "
             "overflow a double (values near 1e308; rescale the times or "
             "sizes, e.g. to a larger unit)";
    case HFIT_NO_MEMORY: return "out of memory while fitting";
    }
  return "unknown status";
}

double
hfit_eval (const struct hfit_result *res, double x)
{
  if (res->model == HFIT_LINEAR)
    return hyper_linear_time (x, res->p[0], res->p[1]);
  return hyper_time (x, res->p[0], res->p[1]);
}

/* ------------------------------------------------------------ helpers */

struct fit_data
{
  const double *x, *t;
  size_t n;
  double sa, sb;          /* parameter scales: a = sa u, b = sb v */
  enum hfit_weight weight;
  const double *rw;       /* robustness weights (NULL: all 1) */
};

/* The residual weight of a point of time T: 1/t for relative errors
   (HFIT_WEIGHT_ROBUST fits relative errors too, reweighted by RW).  */
static double
weight_of (enum hfit_weight w, double t)
{
  return w == HFIT_WEIGHT_RELATIVE || w == HFIT_WEIGHT_ROBUST ? 1 / t
         : w == HFIT_WEIGHT_SQRT ? 1 / sqrt (t) : 1;
}

/* Point I's weight: its residual weight times its robustness weight.  */
static double
point_weight (enum hfit_weight w, const double *rw, const double *t,
              size_t i)
{
  return weight_of (w, t[i]) * (rw ? rw[i] : 1);
}

static int
dbl_cmp (const void *pa, const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;
  return (a > b) - (a < b);
}

/* The number of distinct values of X, or (size_t) -1 out of memory.  */
static size_t
count_distinct (const double *x, size_t n)
{
  double *c = malloc ((n ? n : 1) * sizeof *c);
  if (!c)
    return (size_t) -1;
  memcpy (c, x, n * sizeof *c);
  qsort (c, n, sizeof *c, dbl_cmp);
  size_t d = n ? 1 : 0;
  for (size_t i = 1; i < n; i++)
    d += c[i] != c[i - 1];
  free (c);
  return d;
}

/* rms and r2 for times so large (about 1e154 and more) that the sums of
   squares overflow: the same sums with every term divided by the largest
   |time| or |residual| S first, so each is at most n.  */
static void
scaled_stats (const double *x, const double *t, size_t n,
              struct hfit_result *r)
{
  double s = 0, mean = 0, ss = 0, sst = 0;
  for (size_t i = 0; i < n; i++)
    {
      double e = hfit_eval (r, x[i]) - t[i];
      if (fabs (t[i]) > s)
        s = fabs (t[i]);
      if (isfinite (e) && fabs (e) > s)
        s = fabs (e);
    }
  if (!(s > 0) || !isfinite (s))
    return;
  for (size_t i = 0; i < n; i++)
    mean += t[i] / s;
  mean /= (double) n;
  for (size_t i = 0; i < n; i++)
    {
      double e = (hfit_eval (r, x[i]) - t[i]) / s;
      double c = t[i] / s - mean;
      ss += e * e;
      sst += c * c;
    }
  r->rms = s * sqrt (ss / (double) n);
  r->r2 = sst > 0 ? 1 - ss / sst : NAN;
}

/* Residual statistics for a filled-in model.  */
static void
fill_stats (const double *x, const double *t, size_t n,
            enum hfit_weight weight, const double *rw, struct hfit_result *r)
{
  double ss = 0, rel = 0, cost = 0, mean = 0, sst = 0;
  r->x_lo = r->x_hi = n ? x[0] : 0;
  for (size_t i = 0; i < n; i++)
    {
      double e = hfit_eval (r, x[i]) - t[i];
      double w = point_weight (weight, rw, t, i);
      ss += e * e;
      rel += (e / t[i]) * (e / t[i]);
      cost += (e * w) * (e * w);
      mean += t[i];
      if (x[i] < r->x_lo)
        r->x_lo = x[i];
      if (x[i] > r->x_hi)
        r->x_hi = x[i];
    }
  mean /= (double) n;
  for (size_t i = 0; i < n; i++)
    sst += (t[i] - mean) * (t[i] - mean);
  r->n = n;
  r->rms = sqrt (ss / (double) n);
  r->rel_rms = sqrt (rel / (double) n);
  r->cost = cost;
  r->r2 = sst > 0 ? 1 - ss / sst : NAN;
  if (!isfinite (ss) || !isfinite (sst))
    scaled_stats (x, t, n, r);
}

/* Weighted linear least squares of t = alpha + beta x.  */
static void
linear_fit (const double *x, const double *t, size_t n,
            enum hfit_weight weight, const double *rw, double p[2],
            double se[2])
{
  double sw = 0, sx = 0, st = 0;
  for (size_t i = 0; i < n; i++)
    {
      double w = point_weight (weight, rw, t, i);
      w *= w;
      sw += w;
      sx += w * x[i];
      st += w * t[i];
    }
  double mx = sx / sw, mt = st / sw, sxx = 0, sxt = 0;
  for (size_t i = 0; i < n; i++)
    {
      double w = point_weight (weight, rw, t, i);
      w *= w;
      sxx += w * (x[i] - mx) * (x[i] - mx);
      sxt += w * (x[i] - mx) * (t[i] - mt);
    }
  p[1] = sxt / sxx;
  p[0] = mt - p[1] * mx;
  double cost = 0;
  for (size_t i = 0; i < n; i++)
    {
      double e = (p[0] + p[1] * x[i] - t[i]) * point_weight (weight, rw, t, i);
      cost += e * e;
    }
  double s2 = n > 2 ? cost / (double) (n - 2) : 0;
  se[1] = sqrt (s2 / sxx);
  se[0] = sqrt (s2 * (1 / sw + mx * mx / sxx));
}

/* eq. (2) residuals in scaled parameters.  */
static int
hyp_f (const gsl_vector *p, void *params, gsl_vector *f)
{
  const struct fit_data *d = params;
  double a = d->sa * gsl_vector_get (p, 0);
  double b = d->sb * gsl_vector_get (p, 1);
  for (size_t i = 0; i < d->n; i++)
    {
      double e = hyper_time (d->x[i], a, b) - d->t[i];
      gsl_vector_set (f, i, e * point_weight (d->weight, d->rw, d->t, i));
    }
  return GSL_SUCCESS;
}

static int
hyp_df (const gsl_vector *p, void *params, gsl_matrix *J)
{
  const struct fit_data *d = params;
  double a = d->sa * gsl_vector_get (p, 0);
  double b = d->sb * gsl_vector_get (p, 1);
  for (size_t i = 0; i < d->n; i++)
    {
      double x = d->x[i], s = a + b * x;
      double w = point_weight (d->weight, d->rw, d->t, i);
      /* dT/da = a (a + 2 b x)/(a + b x)^2, dT/db = x - a^2 x/(a + b x)^2 */
      double da = s != 0 ? a * (a + 2 * b * x) / (s * s) : 1;
      double db = s != 0 ? x - a * a * x / (s * s) : x;
      gsl_matrix_set (J, i, 0, da * d->sa * w);
      gsl_matrix_set (J, i, 1, db * d->sb * w);
    }
  return GSL_SUCCESS;
}

static enum hfit_status
hyperbolic_fit (const double *x, const double *t, size_t n,
                enum hfit_weight weight, const double *rw,
                struct hfit_result *r)
{
  /* Start: a from the smallest messages, b from the Hockney slope.  */
  double lp[2], lse[2];
  linear_fit (x, t, n, weight, rw, lp, lse);
  double xmin = x[0], tmin = t[0], xmax = x[0], tmax = t[0];
  for (size_t i = 1; i < n; i++)
    {
      if (x[i] < xmin || (x[i] == xmin && t[i] < tmin))
        xmin = x[i], tmin = t[i];
      if (x[i] > xmax)
        xmax = x[i], tmax = t[i];
    }
  double a0 = isfinite (lp[0]) && lp[0] > 0 ? lp[0] : tmin;
  double b0 = isfinite (lp[1]) && lp[1] > 0 ? lp[1]
    : (xmax > 0 && tmax > 0 ? tmax / xmax : 1);
  if (!(a0 > 0) || !isfinite (a0))
    a0 = 1;
  if (!(b0 > 0) || !isfinite (b0))
    b0 = 1;

  struct fit_data d = { x, t, n, a0, b0, weight, rw };
  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters ();
  gsl_multifit_nlinear_workspace *w
    = gsl_multifit_nlinear_alloc (gsl_multifit_nlinear_trust, &fp, n, 2);
  /* GSL's error handler is off here (hfit_fit): out of memory is a NULL
     workspace, not an abort.  */
  if (!w)
    return HFIT_NO_MEMORY;
  gsl_multifit_nlinear_fdf fdf;
  memset (&fdf, 0, sizeof fdf);
  fdf.f = hyp_f;
  fdf.df = hyp_df;
  fdf.fvv = NULL;
  fdf.n = n;
  fdf.p = 2;
  fdf.params = &d;
  double p0[2] = { 1, 1 };
  gsl_vector_view pv = gsl_vector_view_array (p0, 2);
  gsl_multifit_nlinear_init (&pv.vector, &fdf, w);
  int info = 0;
  int st = gsl_multifit_nlinear_driver (200, 1e-12, 1e-12, 1e-12, NULL, NULL,
                                        &info, w);
  gsl_vector *sol = gsl_multifit_nlinear_position (w);
  double u = gsl_vector_get (sol, 0), v = gsl_vector_get (sol, 1);
  r->model = HFIT_HYPERBOLIC;
  r->p[0] = a0 * u;
  r->p[1] = b0 * v;
  r->iterations = (int) gsl_multifit_nlinear_niter (w);
  enum hfit_status status = HFIT_OK;
  if (st != GSL_SUCCESS && st != GSL_EMAXITER)
    status = HFIT_NO_CONVERGENCE;
  else if (!isfinite (r->p[0]) || !isfinite (r->p[1]))
    status = HFIT_NOT_FINITE;
  else
    {
      gsl_matrix *J = gsl_multifit_nlinear_jac (w);
      gsl_matrix *cov = gsl_matrix_alloc (2, 2);
      if (!cov)
        {
          gsl_multifit_nlinear_free (w);
          return HFIT_NO_MEMORY;
        }
      gsl_vector *f = gsl_multifit_nlinear_residual (w);
      double chisq;
      gsl_blas_ddot (f, f, &chisq);
      gsl_multifit_nlinear_covar (J, 0.0, cov);
      double s2 = n > 2 ? chisq / (double) (n - 2) : 0;
      r->se[0] = a0 * sqrt (s2 * gsl_matrix_get (cov, 0, 0));
      r->se[1] = b0 * sqrt (s2 * gsl_matrix_get (cov, 1, 1));
      gsl_matrix_free (cov);
    }
  gsl_multifit_nlinear_free (w);
  return status;
}

/* Tukey's bisquare constant: 95% efficiency on normal errors.  */
#define BISQUARE_C 4.685
/* Reweighting rounds of a robust fit: it stops earlier when the
   parameters settle.  */
#define ROBUST_ROUNDS 50
/* The smallest robust scale of the relative residuals: 1%, about the
   repeatability of a timed median.  Below it the residuals are rounding
   (a fit through 4 exact points), and reweighting by them would set
   aside a point for its last digits.  */
#define ROBUST_MIN_SCALE 0.01
/* The fewest points a robust fit reweights: the scale of 2 parameters'
   residuals needs several more points than parameters; with fewer the
   fit stays relative.  */
#define ROBUST_MIN_POINTS 6

/* Robustness weights from the relative residuals of fit R: Tukey's
   bisquare w = (1 - (r/(c s))^2)^2 for |r| < c s, else 0, where s is the
   residuals' robust scale 1.4826 median |r| (the median absolute
   deviation; the residuals of a fit centre on 0), at least
   ROBUST_MIN_SCALE.  Returns 1, 0 when the scale is not finite (the
   residuals overflow: no reweighting), -1 out of memory.  */
static int
bisquare_weights (const double *x, const double *t, size_t n,
                  const struct hfit_result *r, double *rw)
{
  double *a = malloc (n * sizeof *a);
  if (!a)
    return -1;
  for (size_t i = 0; i < n; i++)
    a[i] = fabs ((hfit_eval (r, x[i]) - t[i]) / t[i]);
  gsl_sort (a, 1, n);
  double med = gsl_stats_median_from_sorted_data (a, 1, n);
  free (a);
  double c = BISQUARE_C * fmax (1.4826 * med, ROBUST_MIN_SCALE);
  if (!isfinite (c))
    return 0;
  for (size_t i = 0; i < n; i++)
    {
      double u = (hfit_eval (r, x[i]) - t[i]) / t[i] / c;
      rw[i] = fabs (u) < 1 ? (1 - u * u) * (1 - u * u) : 0;
    }
  return 1;
}

/* The number of distinct sizes among the points of weight > 0.  */
static size_t
distinct_weighted (const double *x, const double *rw, size_t n, double *buf)
{
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (rw[i] > 0)
      buf[m++] = x[i];
  return count_distinct (buf, m);
}

/* One fit of MODEL with weighting WEIGHT and robustness weights RW.  */
static enum hfit_status
fit_once (const double *x, const double *t, size_t n, enum hfit_model model,
          enum hfit_weight weight, const double *rw, struct hfit_result *res)
{
  res->model = model;
  if (model == HFIT_HYPERBOLIC)
    return hyperbolic_fit (x, t, n, weight, rw, res);
  linear_fit (x, t, n, weight, rw, res->p, res->se);
  return isfinite (res->p[0]) && isfinite (res->p[1]) ? HFIT_OK
         : HFIT_NOT_FINITE;
}

/* HFIT_WEIGHT_ROBUST: iteratively reweighted least squares on the
   relative residuals with bisquare weights (bisquare_weights), from the
   relative fit in RES.  A round that would leave fewer than
   HFIT_MIN_DISTINCT sizes or fails keeps the previous fit.  */
static enum hfit_status
robust_rounds (const double *x, const double *t, size_t n,
               enum hfit_model model, struct hfit_result *res,
               double *rw)
{
  double *buf = malloc (2 * n * sizeof *buf);
  if (!buf)
    return HFIT_NO_MEMORY;
  double *next = buf + n;
  enum hfit_status st = HFIT_OK;
  for (int round = 0; round < ROBUST_ROUNDS; round++)
    {
      int k = bisquare_weights (x, t, n, res, next);
      if (k < 0)
        {
          st = HFIT_NO_MEMORY;
          break;
        }
      size_t d = k ? distinct_weighted (x, next, n, buf) : 0;
      if (d == (size_t) -1)
        {
          st = HFIT_NO_MEMORY;
          break;
        }
      if (!k || d < HFIT_MIN_DISTINCT)
        break;
      struct hfit_result trial = *res;
      if (fit_once (x, t, n, model, HFIT_WEIGHT_ROBUST, next, &trial)
          != HFIT_OK)
        break;
      double moved = fabs (trial.p[0] - res->p[0])
                     / fmax (fabs (res->p[0]), 1e-300)
                     + fabs (trial.p[1] - res->p[1])
                       / fmax (fabs (res->p[1]), 1e-300);
      *res = trial;
      memcpy (rw, next, n * sizeof *rw);
      if (moved < 1e-10)
        break;
    }
  free (buf);
  return st;
}

enum hfit_status
hfit_fit (const double *x, const double *t, size_t n,
          const struct hfit_options *opt, struct hfit_result *res)
{
  memset (res, 0, sizeof *res);
  res->model = opt->model;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (x[i]) || x[i] < 0)
        return HFIT_BAD_SIZE;
      if (!isfinite (t[i]) || t[i] <= 0)
        return HFIT_BAD_TIME;
    }
  size_t distinct = count_distinct (x, n);
  if (distinct == (size_t) -1)
    return HFIT_NO_MEMORY;
  if (distinct < HFIT_MIN_DISTINCT)
    return HFIT_TOO_FEW;
  double *rw = NULL;
  if (opt->weight == HFIT_WEIGHT_ROBUST)
    {
      rw = malloc (n * sizeof *rw);
      if (!rw)
        return HFIT_NO_MEMORY;
      for (size_t i = 0; i < n; i++)
        rw[i] = 1;
    }
  gsl_error_handler_t *old = gsl_set_error_handler_off ();
  enum hfit_status st = HFIT_OK;
  linear_fit (x, t, n, opt->weight, rw, res->p, res->se);
  /* A non-finite Hockney fit (its sums overflow) is its own error for
     the linear model; for the hyperbolic one it is only no start point
     (hyperbolic_fit then starts from the data), and its slope says
     nothing about the sign of b: an overflowed slope of -inf is not "the
     times decrease".  */
  int finite = isfinite (res->p[0]) && isfinite (res->p[1]);
  if (opt->model == HFIT_LINEAR && !finite)
    st = HFIT_NOT_FINITE;
  else if (opt->model == HFIT_HYPERBOLIC && finite && res->p[1] < 0)
    {
      /* The times decrease overall: the hyperbola would only reach its
         boundary b = 0.  Report the Hockney slope.  */
      fill_stats (x, t, n, opt->weight, rw, res);
      res->model = HFIT_HYPERBOLIC;
      st = HFIT_NEGATIVE_B;
    }
  else if (opt->model == HFIT_HYPERBOLIC)
    st = hyperbolic_fit (x, t, n, opt->weight, rw, res);
  if (st == HFIT_OK && rw && n >= ROBUST_MIN_POINTS)
    st = robust_rounds (x, t, n, opt->model, res, rw);
  gsl_set_error_handler (old);
  if (st == HFIT_OK)
    {
      fill_stats (x, t, n, opt->weight, rw, res);
      for (size_t i = 0; rw && i < n; i++)
        res->n_rejected += rw[i] == 0;
      if (res->p[0] < 0)
        st = HFIT_NEGATIVE_A;
      else if (res->p[1] < 0)
        st = HFIT_NEGATIVE_B;
    }
  free (rw);
  return st;
}

/* ----------------------------------------------------------- segments */

struct pt
{
  double x, t;
};

static int
pt_cmp (const void *pa, const void *pb)
{
  const struct pt *a = pa, *b = pb;
  return (a->x > b->x) - (a->x < b->x);
}

/* Sorted copy split into columns: 0, or -1 out of memory.  */
static int
sorted_copy (const double *x, const double *t, size_t n, double *sx,
             double *st)
{
  struct pt *p = malloc ((n ? n : 1) * sizeof *p);
  if (!p)
    return -1;
  for (size_t i = 0; i < n; i++)
    p[i].x = x[i], p[i].t = t[i];
  qsort (p, n, sizeof *p, pt_cmp);
  for (size_t i = 0; i < n; i++)
    sx[i] = p[i].x, st[i] = p[i].t;
  free (p);
  return 0;
}

enum hfit_status
hfit_segments_at (const double *x, const double *t, size_t n,
                  const double *breaks, size_t nb,
                  const struct hfit_options *opt, struct hfit_result *res,
                  size_t *bad_segment)
{
  double *sx = malloc ((n ? n : 1) * sizeof *sx);
  double *st = malloc ((n ? n : 1) * sizeof *st);
  if (!sx || !st || sorted_copy (x, t, n, sx, st) < 0)
    {
      free (sx);
      free (st);
      if (bad_segment)
        *bad_segment = 0;
      return HFIT_NO_MEMORY;
    }
  enum hfit_status status = HFIT_OK;
  size_t lo = 0;
  for (size_t j = 0; j <= nb; j++)
    {
      size_t hi = lo;
      while (hi < n && (j == nb || sx[hi] < breaks[j]))
        hi++;
      status = hfit_fit (sx + lo, st + lo, hi - lo, opt, &res[j]);
      if (status != HFIT_OK)
        {
          if (bad_segment)
            *bad_segment = j;
          break;
        }
      lo = hi;
    }
  free (sx);
  free (st);
  return status;
}

enum hfit_status
hfit_segments_search (const double *x, const double *t, size_t n,
                      size_t k, size_t kmax, const struct hfit_options *opt,
                      size_t *k_out, double *breaks, struct hfit_result *res)
{
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (x[i]) || x[i] < 0)
        return HFIT_BAD_SIZE;
      if (!isfinite (t[i]) || t[i] <= 0)
        return HFIT_BAD_TIME;
    }
  double *sx = malloc ((n ? n : 1) * sizeof *sx);
  double *st = malloc ((n ? n : 1) * sizeof *st);
  size_t *start = malloc ((n + 1) * sizeof *start);
  enum hfit_status status = HFIT_NO_MEMORY;
  double *cost = NULL, *best = NULL;
  size_t *from = NULL;
  if (!sx || !st || !start || sorted_copy (x, t, n, sx, st) < 0)
    goto done;
  size_t m = 0;               /* distinct sizes; start[j] = first point */
  for (size_t i = 0; i < n; i++)
    if (i == 0 || sx[i] != sx[i - 1])
      start[m++] = i;
  start[m] = n;

  size_t klo = k ? k : 1, khi = k ? k : kmax;
  if (khi > m / HFIT_MIN_DISTINCT)
    khi = m / HFIT_MIN_DISTINCT;
  status = HFIT_TOO_FEW;
  if (khi < klo)
    goto done;

  /* cost[i*m + j]: fit of distinct sizes i..j inclusive.  */
  cost = malloc (m * m * sizeof *cost);
  best = malloc ((khi + 1) * (m + 1) * sizeof *best);
  from = malloc ((khi + 1) * (m + 1) * sizeof *from);
  if (!cost || !best || !from)
    {
      status = HFIT_NO_MEMORY;
      goto done;
    }
  for (size_t i = 0; i < m; i++)
    for (size_t j = 0; j < m; j++)
      {
        cost[i * m + j] = INFINITY;
        if (j + 1 >= i + HFIT_MIN_DISTINCT)
          {
            struct hfit_result r;
            size_t lo = start[i], hi = start[j + 1];
            enum hfit_status fs = hfit_fit (sx + lo, st + lo, hi - lo, opt,
                                            &r);
            if (fs == HFIT_NO_MEMORY)
              {
                status = HFIT_NO_MEMORY;
                goto done;
              }
            if (fs == HFIT_OK)
              cost[i * m + j] = r.cost;
          }
      }
  /* best[q*(m+1) + j]: q segments covering distinct sizes 0..j-1.  */
  for (size_t q = 0; q <= khi; q++)
    for (size_t j = 0; j <= m; j++)
      best[q * (m + 1) + j] = q == 0 && j == 0 ? 0 : INFINITY;
  for (size_t q = 1; q <= khi; q++)
    for (size_t j = 1; j <= m; j++)
      for (size_t i = 0; i < j; i++)
        {
          double prev = best[(q - 1) * (m + 1) + i];
          double c = cost[i * m + (j - 1)];
          if (isfinite (prev) && isfinite (c)
              && prev + c < best[q * (m + 1) + j])
            {
              best[q * (m + 1) + j] = prev + c;
              from[q * (m + 1) + j] = i;
            }
        }
  /* Choose K: the given one, or the smallest BIC.  The cost floor keeps
     the logarithm finite on exact data.  */
  size_t kbest = 0;
  double bic_best = INFINITY;
  for (size_t q = klo; q <= khi; q++)
    {
      double c = best[q * (m + 1) + m];
      if (!isfinite (c))
        continue;
      double nn = (double) n;
      double bic = nn * log (c / nn + 1e-20)
                   + (double) (3 * q - 1) * log (nn);
      if (bic < bic_best)
        bic_best = bic, kbest = q;
    }
  if (kbest)
    {
      size_t j = m;
      for (size_t q = kbest; q >= 1; q--)
        {
          size_t i = from[q * (m + 1) + j];
          size_t lo = start[i], hi = start[j];
          if (hfit_fit (sx + lo, st + lo, hi - lo, opt, &res[q - 1])
              == HFIT_NO_MEMORY)
            {
              status = HFIT_NO_MEMORY;
              goto done;
            }
          if (q >= 2)
            breaks[q - 2] = sx[lo];
          j = i;
        }
      *k_out = kbest;
      status = HFIT_OK;
    }
done:
  free (cost);
  free (best);
  free (from);
  free (sx);
  free (st);
  free (start);
  return status;
}
