/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_params.h: parameterized LogP equations and the LogGP summary.
 *
 * Kielmann, Bal and Verstoep, "Fast Measurement of LogP Parameters for
 * Message Passing Platforms": the equations of Section 3 (Fig. 1, right)
 * that turn round-trip times into g(m) and L, the saturation rule for g(0),
 * and Table 1, which expresses LogGP's L, o, g, G in parameterized LogP.
 * Pure functions: no I/O, no MPI.  Times are in one unit throughout.  */
#ifndef MSGPERF_LOGP_PARAMS_H
#define MSGPERF_LOGP_PARAMS_H

#include <stddef.h>
#include <stdint.h>

/* g(m) = RTT(m) - RTT(0) + g(0)   (Section 3, from RTT(0) = 2(L + g(0))
   and RTT(m) = L + g(m) + L + g(0)).  */
double logp_gap (double rtt_m, double rtt_0, double g0);

/* L = (RTT(0) - 2 g(0)) / 2   (Section 3).  */
double logp_latency (double rtt_0, double g0);

/* Gap per message of a saturation run: N messages in a row and one empty
   reply take RTT_N = L + N g + L + g(0) while RTT_1 = 2L + g + g(0), so
   g = (RTT_N - RTT_1) / (N - 1).  N must be >= 2.  */
double logp_sat_gap (double rtt_n, double rtt_1, int64_t n);

/* Saturation reached (Section 3): the gap per message changed by at most
   EPS relative to the previous N, and RTT_1 < EPS * RTT_N.  */
int logp_sat_done (double gap_prev, double gap_cur, double rtt_1,
                   double rtt_n, double eps);

/* A measured value: median and 95% interval of the median.  */
struct logp_est
{
  double med, lo, hi;
};

/* One measured size of one pair, as logp-measure reports it.  */
struct logp_row
{
  int64_t bytes;
  struct logp_est os, o_r, g, rtt;
  struct logp_est or_exp;   /* expected receives; med NaN when not measured */
};

/* Flags of the LogGP summary.  A flag never removes a parameter: it names
   the rule that produced it (man/logp-measure.1 has the table).  */
enum
{
  LOGGP_NO_SMALL = 1 << 0,     /* no row for the short size: L, o, g NA */
  LOGGP_G_RAISED = 1 << 1,     /* max(o_s(1), o_r(1)) > g(1) beyond the
                                  tolerance: g = max(g(1), o_s(1), o_r(1)) */
  LOGGP_L_CLAMPED = 1 << 2,    /* Table 1's L < 0 beyond the tolerance:
                                  L = 0 */
  LOGGP_G_NONLINEAR = 1 << 3,  /* the slopes of the two halves of the last
                                  segment disagree beyond the tolerance */
  LOGGP_G_NONPOS = 1 << 4,     /* the fitted slope is <= 0 */
  LOGGP_G_FEW = 1 << 5,        /* fewer than 3 sizes in the last segment */
  LOGGP_G_FALLBACK = 1 << 6,   /* G = g(m_max)/m_max (no usable slope) */
  LOGGP_CPU_SHARED = 1 << 7,   /* the ranks waited for a CPU more than
                                  LOGGP_CPU_WAIT_MAX of the time: every
                                  parameter may be off by time slices */
  LOGGP_G_OFFSET = 1 << 8      /* the fitted line's intercept is more than
                                  half of g(m_max): its slope misses most
                                  of the gap, the fallback is taken */
};

/* Timer steps in every tolerance: a difference of a few steps is noise
   whatever the intervals say.  */
#define LOGGP_TICKS 3

/* The largest share of the time a rank may spend waiting for a CPU before
   the summary is flagged cpu_shared.  A rank alone on its core waits a
   few per cent (kernel threads, timers); two busy-polling ranks sharing
   one core wait about half the time.  */
#define LOGGP_CPU_WAIT_MAX 0.1

/* Inputs of the summary besides the rows.  */
struct loggp_cfg
{
  int64_t short_size;   /* the short size of Table 1 (1 byte in the paper) */
  struct logp_est L_p;  /* parameterized-LogP L, with its interval */
  double tick;          /* timer resolution (time unit), >= 0 */
  size_t max_segments;  /* segment search for G: at most this many (>= 1) */
  double cpu_wait;      /* share of the measurement's time the ranks spent
                           waiting for a CPU (cpuwait.h); NaN or 0 when
                           unknown or none */
};

struct loggp
{
  double L, o, g, G;    /* LogGP (Table 1, with the rules of the flags) */
  double os, o_r;       /* o_s(1), o_r(1) */
  double g_raw;         /* g(1) as measured */
  double L_table;       /* Table 1's L before the clamp */
  double L_rtt;         /* second estimate RTT(1)/2 - o */
  double G_intercept;   /* intercept of the fitted line (0 for the
                           fallback, a line through the origin) */
  double g_excess;      /* max(o_s, o_r) - g(1) (> 0: g was raised) */
  double g_tol;         /* its tolerance */
  double L_tol;         /* tolerance of L_table < 0 */
  double G_lo, G_hi;    /* slopes of the two halves (NaN when < 3 sizes) */
  double G_tol;         /* tolerance of |G_lo - G_hi| */
  double g_over_m;      /* g(m)/m at the largest size */
  double cpu_wait;      /* cfg's cpu_wait, for the report */
  double S;             /* LogGOPS's eager limit in bytes, measured apart
                           (logp_eager.h) and set by the caller; NaN */
  int64_t fit_from;     /* G fitted over the sizes in [fit_from, fit_to] */
  int64_t fit_to;
  size_t fit_n;         /* number of sizes in the fit */
  size_t segments;      /* protocol segments found (0: search failed) */
  unsigned flags;
};

/* Least-squares line g(m) = c + s m over the sizes in [FROM, TO] of ROWS
   (medians of g).  Returns the number of sizes used; SLOPE and ICEPT are
   NaN when < 2.  U (may be NULL) receives the slope's uncertainty: the
   per-size tolerance max(half-width of the interval, TOL_ABS) propagated
   through the fit, sum |m_i - mean m| / Sxx * tol_i.  */
size_t logp_fit_line (const struct logp_row *rows, size_t n, int64_t from,
                      int64_t to, double tol_abs, double *slope,
                      double *icept, double *u);

/* The first size of the last protocol segment of g(m) over the sizes
   >= 1, found by the piecewise linear fit of hyper-reduce (hyperfit.h,
   hfit_segments_search with the Bayesian information criterion, at most
   KMAX segments) on RTT(m), which is g(m) plus the constant
   RTT(0) - g(0).  *NSEG gets the number of segments (0 when the search
   found none: the result is then the smallest size).  -1 out of
   memory.  */
int64_t logp_last_segment (const struct logp_row *rows, size_t n,
                           size_t kmax, size_t *nseg);

/* LogGP from parameterized LogP (Table 1), always complete when the rows
   hold its inputs:
     o = (o_s(1) + o_r(1))/2,              Table 1
     g = max(g(1), o_s(1), o_r(1)),        LogP's g >= o (Section 2)
     L = max(0, L_p + g(1) - o_s(1) - o_r(1)),  Table 1, clamped
     G = least-squares slope of g(m) over the last protocol segment
         (Table 1's g(m)/m for large m without the intercept's 1/m),
         else g(m_max)/m_max.
   The checks compare medians with the tolerance max(sum of the interval
   half-widths, LOGGP_TICKS timer steps) and set FLAGS (see the enum).
   ROWS sorted by bytes.  Returns 0, or -1 out of memory (OUT is then
   incomplete and must not be written).  */
int loggp_derive (const struct logp_row *rows, size_t n,
                   const struct loggp_cfg *cfg, struct loggp *out);

/* The flags as text ("ok" when none), e.g. "g_raised,L_clamped", in BUF.  */
const char *loggp_check_text (unsigned flags, char *buf, size_t len);

/* Spread of N values (repeated runs): median, smallest and largest of
   the finite ones, NaN when there is none.  V is reordered.  */
void loggp_spread (double *v, size_t n, double *med, double *min,
                   double *max);

#endif
