/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperfit.h: fitting the hyperbolic model (eq. (2)) or the Hockney
 * linear model to measured (bytes, time) points.
 *
 * Nonlinear least squares with GSL (gsl_multifit_nlinear, trust region
 * Levenberg-Marquardt) for T(x; a, b) = a^2/(a + b x) + b x; weighted
 * linear least squares for alpha + beta x.  Piecewise fits find protocol
 * breakpoints (eager/rendezvous switches) by dynamic programming over the
 * distinct message sizes.  Pure computation: no I/O.  */
#ifndef MSGPERF_HYPERFIT_H
#define MSGPERF_HYPERFIT_H

#include <stddef.h>

enum hfit_model
{
  HFIT_HYPERBOLIC = 0,  /* T(x; a, b), eq. (2) */
  HFIT_LINEAR = 1       /* alpha + beta x (Hockney) */
};

enum hfit_weight
{
  HFIT_WEIGHT_RELATIVE = 0, /* minimise sum ((model - t)/t)^2: noise
                               proportional to the time (the default) */
  HFIT_WEIGHT_NONE = 1,     /* minimise sum (model - t)^2 */
  HFIT_WEIGHT_SQRT = 2,     /* minimise sum (model - t)^2 / t: noise
                               variance proportional to the time, between
                               the two: the many small sizes no longer
                               outvote the few large ones that fix b, nor
                               the largest one all the others */
  HFIT_WEIGHT_ROBUST = 3    /* relative errors, iteratively reweighted
                               with Tukey's bisquare: a point whose
                               relative residual is far beyond the
                               others' (a protocol stall) gets weight 0 */
};

enum hfit_status
{
  HFIT_OK = 0,
  HFIT_TOO_FEW,         /* fewer than HFIT_MIN_DISTINCT distinct sizes */
  HFIT_BAD_TIME,        /* a time <= 0 (or not finite) */
  HFIT_BAD_SIZE,        /* a size < 0 (or not finite) */
  HFIT_NEGATIVE_A,      /* best fit has a (alpha) < 0: refused */
  HFIT_NEGATIVE_B,      /* best fit has b (beta) < 0: refused */
  HFIT_NO_CONVERGENCE,  /* the solver failed */
  HFIT_NOT_FINITE,      /* a parameter is inf or NaN: the sums overflow */
  HFIT_NO_MEMORY        /* out of memory (a runtime failure, exit 1) */
};

/* A fit needs at least this many distinct sizes (2 parameters + 1).  */
#define HFIT_MIN_DISTINCT 3

struct hfit_options
{
  enum hfit_model model;
  enum hfit_weight weight;
};

/* The result of one fit (one segment).  */
struct hfit_result
{
  enum hfit_model model;
  double p[2];      /* (a, b) or (alpha, beta) */
  double se[2];     /* standard errors of p */
  double rms;       /* RMS of the residuals (time unit) */
  double rel_rms;   /* RMS of the relative residuals (model - t)/t */
  double r2;        /* coefficient of determination (unweighted) */
  double cost;      /* the minimised weighted sum of squares */
  size_t n;         /* points used */
  size_t n_rejected;/* HFIT_WEIGHT_ROBUST: points of weight 0 */
  double x_lo, x_hi;/* smallest and largest size fitted */
  int iterations;
};

/* Fit N points (X sizes, T times; any order).  On HFIT_OK, RES is filled.
   On HFIT_NEGATIVE_A/B, RES holds the refused parameters (for the
   explanation) and must not be reported as a model; when the times
   decrease overall, a hyperbolic fit is refused with HFIT_NEGATIVE_B and
   P holds the Hockney fit that shows the negative slope.  */
enum hfit_status hfit_fit (const double *x, const double *t, size_t n,
                           const struct hfit_options *opt,
                           struct hfit_result *res);

/* A short phrase for STATUS.  */
const char *hfit_strerror (enum hfit_status status);

/* Value of the fitted model at X.  */
double hfit_eval (const struct hfit_result *res, double x);

/* ----------------------------------------------------------- segments */

/* Piecewise fit at given breakpoints BREAKS[0..NB-1] (strictly
   increasing): segment 0 holds the points with x < BREAKS[0], segment j
   the points with BREAKS[j-1] <= x < BREAKS[j], segment NB the rest.
   RES has NB + 1 entries.  Returns the first failing status, and sets
   *BAD_SEGMENT to its index (may be NULL).  */
enum hfit_status hfit_segments_at (const double *x, const double *t,
                                   size_t n, const double *breaks, size_t nb,
                                   const struct hfit_options *opt,
                                   struct hfit_result *res,
                                   size_t *bad_segment);

/* Search breakpoints: the partition of the sorted distinct sizes into K
   contiguous segments (each with >= HFIT_MIN_DISTINCT distinct sizes and
   a physically valid fit) with the smallest total cost.  K = 0 chooses K
   in 1..KMAX by the Bayesian information criterion.  On success *K_OUT is
   the number of segments, BREAKS (room for KMAX - 1, or K - 1) receives
   the breakpoints (the first size of segments 1..K-1) and RES (room for
   KMAX, or K) the fits.  HFIT_TOO_FEW when no such partition exists.  */
enum hfit_status hfit_segments_search (const double *x, const double *t,
                                       size_t n, size_t k, size_t kmax,
                                       const struct hfit_options *opt,
                                       size_t *k_out, double *breaks,
                                       struct hfit_result *res);

#endif
