/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_sizes.h: which message sizes the fast LogP procedure measures.
 *
 * Kielmann, Bal and Verstoep, "Fast Measurement of LogP Parameters for
 * Message Passing Platforms", Section 3: sizes m = 2^k for k in [0, k_m];
 * k_m grows while g(2^k_m) is not within epsilon of the value linearly
 * extrapolated from g(2^(k_m-2)) and g(2^(k_m-1)), or while g(m)/m still
 * falls by more than epsilon (the bandwidth regime); then every size whose
 * o_s, o_r or g misses the extrapolation from the two smaller sizes by more
 * than epsilon gets the midpoint of the interval below it measured, halving
 * until the extrapolation matches or the interval is at most
 * max(32 bytes, epsilon * m_k).
 *
 * Pure logic: the measurements come from a callback, so the same code
 * drives the MPI program and the unit tests on synthetic curves.  */
#ifndef MSGPERF_LOGP_SIZES_H
#define MSGPERF_LOGP_SIZES_H

#include <stddef.h>
#include <stdint.h>

/* The three size-dependent quantities the refinement looks at.  */
enum { LOGP_OS = 0, LOGP_OR = 1, LOGP_G = 2, LOGP_NQ = 3 };

/* How a size entered the set.  */
enum logp_origin { LOGP_BASE = 0, LOGP_GROWN, LOGP_REFINED };

/* "base", "grown", "refined" (the `origin` column).  */
const char *logp_origin_name (enum logp_origin o);

struct logp_point
{
  int64_t bytes;
  double v[LOGP_NQ];   /* measured values (medians) */
  double u[LOGP_NQ];   /* their uncertainty (half-width of the 95% interval
                          of the median, >= 0; 0 for exact values) */
  enum logp_origin origin;
  size_t id;           /* callback's handle for this measurement */
  /* In: the most seconds (CLOCK time) this size should take, the
     selection's share of what is left of TIME_LIMIT; INFINITY without a
     limit.  In the initial set the share is the time left over the sizes
     left (this one included), so that a size that costs more than its
     rate says (a slow middle size) cannot starve the largest sizes, which
     G is fitted on; what a size leaves unused goes to the next.  In the
     growth and the refinement it is all the time left.  The callback
     stops repeating a size at its budget (after its minimum of
     repetitions).  */
  double budget;
};

/* Measure size BYTES: fill PT->v, PT->u (and PT->id if wanted).  Return 0,
   or non-zero to abandon the selection (logp_select returns that value;
   LOGP_SELECT_NOMEM is reserved for out of memory).  */
typedef int (*logp_measure_fn) (int64_t bytes, struct logp_point *pt,
                                void *ctx);

struct logp_select_cfg
{
  int64_t min_bytes;   /* first size (>= 1); sizes double from here */
  int64_t start_max;   /* largest size of the initial set (2^k_m) */
  int64_t max_bytes;   /* k_m never grows past this */
  double eps;          /* relative tolerance (epsilon), > 0 */
  double abs_tol;      /* absolute tolerance (timer resolution), >= 0 */
  int64_t min_step;    /* refinement stops at max(min_step, eps*m): 32 */
  size_t max_points;   /* safety bound on the number of sizes (0: 4096) */
  /* Total time cap of the selection: no new size is started once
     CLOCK (CTX) has advanced by TIME_LIMIT or more since the first size
     began.  On a slow link every doubling of k_m doubles the time of one
     size, so the growth alone could take minutes (a 100 Mbit/s link:
     about 13 s for one 4 MiB size at 9 round trips).  TIME_LIMIT <= 0 or
     CLOCK NULL: no cap.  */
  double time_limit;
  double (*clock) (void *ctx);
};

/* The stage of the selection the time limit stopped (logp_curve).  */
enum logp_stage
{
  LOGP_STAGE_NONE = 0,   /* the selection ran to its end */
  LOGP_STAGE_BASE,       /* the initial set was cut short */
  LOGP_STAGE_GROWTH,     /* k_m would have grown further */
  LOGP_STAGE_REFINE      /* a refinement was left out */
};

/* "none", "base", "growth", "refine".  */
const char *logp_stage_name (enum logp_stage s);

/* A growing, sorted set of measured sizes.  */
struct logp_curve
{
  struct logp_point *p;
  size_t n, cap;
  size_t n_grown, n_refined;
  enum logp_stage limited;  /* where the time limit stopped it */
  int64_t skipped;          /* the size it would have measured next */
  double elapsed;           /* CLOCK time of the selection (NaN: no clock) */
};

void logp_curve_free (struct logp_curve *c);

/* Linear extrapolation to M through (M2, V2) and (M1, V1), M2 < M1 < M.  */
double logp_extrapolate (int64_t m2, double v2, int64_t m1, double v1,
                         int64_t m);

/* Does quantity Q of C miss the extrapolation from A (smallest) and B by
   more than EPS * |value| + ABS_TOL + the uncertainty of the three
   measurements propagated through the extrapolation?  */
int logp_misses (const struct logp_point *a, const struct logp_point *b,
                 const struct logp_point *c, int q, double eps,
                 double abs_tol);

/* Does the gap per byte still fall from B to the larger C: g(B)/B -
   g(C)/C more than EPS * g(B)/B plus the uncertainties of both (and
   ABS_TOL each) per byte?  k_m grows while it does (the sweep reaches
   the bandwidth regime, issue 18).  */
int logp_gap_per_byte_falls (const struct logp_point *b,
                             const struct logp_point *c, double eps,
                             double abs_tol);

/* Is the interval below C (from B) small enough to stop halving?  */
int logp_interval_done (const struct logp_point *b,
                        const struct logp_point *c,
                        const struct logp_select_cfg *cfg);

/* Check CFG: NULL when usable, else a message for the user.  */
const char *logp_select_check (const struct logp_select_cfg *cfg);

/* Run the whole selection (initial set, growth of k_m, refinement),
   calling MEASURE once per size, sizes in increasing order within each
   stage, until CFG's time limit (if any) stops it: then OUT->limited
   names the stage and OUT->skipped the size left out, and the sizes
   measured so far are the result.  OUT must be zero-initialised; it
   holds the sorted set on return.  Returns 0, LOGP_SELECT_NOMEM when
   memory for the set runs out (OUT then holds the sizes measured so far),
   or the callback's non-zero value.  */
#define LOGP_SELECT_NOMEM (-32768)
int logp_select (const struct logp_select_cfg *cfg, logp_measure_fn measure,
                 void *ctx, struct logp_curve *out);

#endif
