/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clockmodel.h: a rank's clock against a reference clock as a straight
 * line, fitted from ping-pong exchanges (pure; common/mpi/clocksync.c
 * runs the exchanges).
 *
 * Hunold and Carpen-Amarie ("MPI Benchmarking Revisited: Experimental
 * Design and Reproducibility", 2015; "Reproducible MPI Benchmarking Is
 * Still Not As Easy As You Think", 2016) model the offset of a rank's
 * clock from the reference as linear in the rank's local time,
 *
 *   offset(t) = drift * t + intercept,                           (1)
 *
 * and take the global (reference) time of a local reading t as
 *
 *   g(t) = t - offset(t).                                        (2)
 *
 * Each point of the fit is the offset seen in the exchange with the
 * shortest round trip among several (SKaMPI's estimate): with t_s the
 * local time a request left, t_r the reference's reading when it
 * answered and t_e the local time the answer arrived,
 *
 *   offset = (t_s + t_e) / 2 - t_r  at local time (t_s + t_e) / 2, (3)
 *
 * whose error is at most half the round trip t_e - t_s when the two
 * directions take the same time.  */
#ifndef MSGPERF_CLOCKMODEL_H
#define MSGPERF_CLOCKMODEL_H

#include <stddef.h>

struct clock_model
{
  double drift;       /* seconds of offset per second of local time */
  double intercept;   /* seconds: offset at local time 0 */
  double residual;    /* seconds: root mean square of the fit's
                         residuals (0 for fewer than 3 points) */
  double drift_se;    /* standard error of DRIFT (0 for fewer than 3
                         points) */
  size_t n;           /* points fitted */
};

/* The identity: the reference's own clock.  */
void clock_model_identity (struct clock_model *m);

/* Of N exchanges (T_SEND[i], T_REF[i], T_RECV[i]) the one with the
   shortest round trip: its local mid-time *T_MID and offset *OFFSET
   (eq. (3)), and its round trip *RTT.  Returns its index, or -1 when N
   is 0 or no round trip is non-negative.  */
long clock_offset_min_rtt (const double *t_send, const double *t_ref,
                           const double *t_recv, size_t n, double *t_mid,
                           double *offset, double *rtt);

/* Least-squares line (1) through the N points (T[i], OFFSET[i]).  One
   point, or points all at the same T, give drift 0 and their mean
   offset.  Returns 0, or -1 when N is 0 (M is then the identity).  */
int clock_model_fit (const double *t, const double *offset, size_t n,
                     struct clock_model *m);

/* clock_model_fit, then a constant offset (drift 0, the mean offset)
   instead of the line when the drift is within two standard errors of 0
   (at about the 95% level, indistinguishable from no drift): a drift
   fitted from the noise of a short fit would otherwise be extrapolated
   over the whole run.  The residual is then the constant's.  */
int clock_model_fit_auto (const double *t, const double *offset, size_t n,
                          struct clock_model *m);

/* Keep M's drift and move its line through the offset OFFSET seen at
   local time T (intercept = OFFSET - drift * T, eq. (1)): a fresh point
   re-anchors the model, so that an error in the fitted drift grows only
   from the last anchor on, not from the fit.  */
void clock_model_anchor (struct clock_model *m, double t, double offset);

/* The global time of local reading T (eq. (2)).  */
double clock_model_global (const struct clock_model *m, double t);

#endif
