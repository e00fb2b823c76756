/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_proto.h: the measure/mirror protocol of logp-measure.
 *
 * tools/logp-measure.c parses the options, schedules the pairs, gathers and
 * writes the results; logp_proto.c is the protocol of Kielmann, Bal and
 * Verstoep, Section 3 (Fig. 1, right).  */
#ifndef MSGPERF_LOGP_PROTO_H
#define MSGPERF_LOGP_PROTO_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#include "logp_sizes.h"

struct lm_opts
{
  double eps;
  int64_t min_bytes, max_bytes, start_max, large_bytes;
  int64_t max_reps, max_reps_large, min_reps;
  double time_cap;        /* seconds per size (and per saturation run) */
  double time_limit;      /* seconds of the whole size selection (0: no
                             cap; logp_select_cfg.time_limit) */
  int saturate, expected, raw, progress;
  int eager;              /* measure the eager limit S (logp_eager.h) */
  double timer_ovh;       /* seconds, subtracted from every sample */
  double tick;            /* timer resolution (mpu_timer_resolution), s */
};

/* One result row: all doubles, so that it travels as MPI_DOUBLE.  Times
   in seconds; main.c converts to microseconds.  */
enum
{
  R_SRC, R_DST, R_BYTES, R_ORIGIN,
  R_OS, R_OS_LO, R_OS_HI,
  R_OR, R_OR_LO, R_OR_HI,
  R_G, R_G_LO, R_G_HI,
  R_RTT, R_RTT_LO, R_RTT_HI,
  R_OREXP, R_OREXP_LO, R_OREXP_HI,
  R_GSAT, R_GSAT_LO, R_GSAT_HI, R_GSAT_N, R_GSAT_STOP,
  R_REPS, R_STOP, R_L, R_G0,
  R_NF
};

/* One raw sample: bytes, quantity, messages in a row, repetition, time.  */
enum { S_BYTES, S_QTY, S_N, S_REP, S_T, S_NF };
enum { Q_OS, Q_RTT, Q_OR, Q_OREXP, Q_RTTN, Q_NQTY };

/* Per-pair summary numbers travelling with the rows.  */
enum
{
  H_NROWS, H_NSAMPLES, H_T_G0, H_T_SIZES, H_T_SAT, H_G0_N, H_G0_STOP,
  H_NGROWN, H_NREFINED,
  H_LIMITED,              /* enum logp_stage the time limit stopped */
  H_SKIPPED,              /* the size it left out */
  H_T_SELECT,             /* seconds of the selection (logp_curve.elapsed) */
  H_CPU_WAIT,             /* the larger of the two ranks' shares of the
                             pair's time spent waiting for a CPU
                             (cpuwait.h), NaN when unknown */
  H_S,                    /* the eager limit S, bytes (NaN: not measured) */
  H_S_WAIT,               /* the smallest size that waited, -1: none */
  H_S_BUSY,               /* the mirror's busy time B, seconds */
  H_S_PROBES,             /* sizes probed */
  H_S_DISPUTED,           /* of those, decided by a third probe */
  H_T_EAGER,              /* seconds of the search */
  H_NF
};

struct lm_result
{
  double head[H_NF];
  double *rows;           /* nrows * R_NF */
  size_t nrows, caprows;
  double *samples;        /* nsamples * S_NF */
  size_t nsamples, capsamples;
  char host_src[MPI_MAX_PROCESSOR_NAME];
  char host_dst[MPI_MAX_PROCESSOR_NAME];
};

/* A fixed list of sizes (after the first pair chose them).  */
struct lm_sizes
{
  int64_t *bytes;
  int *origin;
  size_t n;
};

/* Measure side of pair SRC -> DST (the caller is SRC).  SIZES NULL: choose
   the sizes adaptively (logp_select) and return them in CHOSEN; else
   measure exactly those.  SBUF and RBUF (each o->max_bytes + 1 bytes, not
   overlapping) are the send and the receive buffer.  */
void lm_measure (const struct lm_opts *o, int src, int dst, char *sbuf,
                 char *rbuf, const struct lm_sizes *sizes,
                 struct lm_sizes *chosen, struct lm_result *res);

/* Mirror side: answer SRC until it says done; SBUF and RBUF as above.  */
void lm_mirror (const struct lm_opts *o, int src, char *sbuf, char *rbuf);

void lm_result_free (struct lm_result *res);

#endif
