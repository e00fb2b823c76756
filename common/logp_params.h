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

/* Check flags of the LogGP summary.  */
enum
{
  LOGGP_NO_SMALL = 1 << 0,     /* no row for the short size (1 byte) */
  LOGGP_G_LT_OS = 1 << 1,      /* g(1) < o_s(1) beyond the intervals */
  LOGGP_G_LT_OR = 1 << 2,      /* g(1) < o_r(1) beyond the intervals */
  LOGGP_BIG_G_NONPOS = 1 << 3, /* fitted G <= 0 */
  LOGGP_BIG_G_MISMATCH = 1 << 4,/* G disagrees with g(m)/m at the largest m */
  LOGGP_BIG_G_UNFIT = 1 << 5,  /* fewer than two large sizes to fit G */
  LOGGP_L_NEG = 1 << 6         /* LogGP's L < 0 */
};

struct loggp
{
  double L, o, g, G;    /* NaN when the check that guards them failed */
  double os, o_r;       /* o_s(1), o_r(1) */
  double g_over_m;      /* g(m)/m at the largest size */
  int64_t fit_from;     /* G fitted over sizes >= fit_from ... */
  int64_t fit_to;       /* ... up to fit_to */
  size_t fit_n;         /* number of sizes in the fit */
  int used_expected;    /* o_r(1) of expected receives was used */
  unsigned flags;
};

/* Least-squares slope of g(m) against m over the sizes in [FROM, TO] of
   ROWS.  Returns the number of sizes used (the slope is NaN when < 2).  */
size_t logp_fit_slope (const struct logp_row *rows, size_t n, int64_t from,
                       int64_t to, double *slope);

/* LogGP from parameterized LogP (Table 1), with SHORT the short size
   (1 byte in the paper) and L_P the parameterized-LogP latency:
     L = L_P + g(1) - o_s(1) - o_r(1),  o = (o_s(1) + o_r(1))/2,
     g = g(1),  G = g(m)/m for large m,
   G fitted by least squares over the sizes >= m_max/4 (the three largest
   powers of two, those the growth of k_m found on one line).  Consistency
   (reported in FLAGS, the parameter then NaN): g >= o_s and g >= o_r within
   the 95% intervals (when o_r > g and the expected-message o_r is known
   and consistent, it is used instead: Section 3.1), G > 0, and G within
   TOL (relative) of g(m_max)/m_max, LogGP's L >= 0.
   ROWS sorted by bytes.  */
void loggp_derive (const struct logp_row *rows, size_t n, int64_t short_size,
                   double L_p, double tol, struct loggp *out);

/* The failed checks as text ("ok" when none), e.g. "g_lt_or,G_nonpos", in BUF.  */
const char *loggp_check_text (unsigned flags, char *buf, size_t len);

#endif
