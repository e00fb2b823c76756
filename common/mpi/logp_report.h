/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_report.h: logp-measure's configuration, its results gathered at
   rank 0 through the overlay tree (logp_gather.c), and the stream rank
   0 writes of them (logp_report.c): the rows per pair and size, the raw
   samples, the LogGP summary or the link classes, and the metadata.  */
#ifndef MSGPERF_LOGP_REPORT_H
#define MSGPERF_LOGP_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "logp_pairs.h"
#include "logp_params.h"
#include "logp_proto.h"
#include "msgbuf.h"
#include "overlay.h"
#include "tsv.h"

/* The parameters --classes can group links by: per pair (L, g0) or at
   one size (the others), and their names.  */
enum class_param { CP_L, CP_G0, CP_OS, CP_OR, CP_G, CP_RTT, CP_N };
extern const char *const lm_class_param_name[CP_N];

struct lm_config
{
  struct lm_opts o;
  int pair_i, pair_j;
  int64_t sample;
  uint64_t seed;
  double timeout;
  const char *topology;   /* --topology */
  char *topology_text;    /* contents of a file:PATH topology, rank 0 */
  int class_by;           /* enum class_param */
  int64_t class_bytes;
  double class_width;
  int64_t repeat;         /* --repeat */
  const char *repeat_text;      /* --repeat as given, or NULL */
  const char *time_limit_text;  /* --time-limit as given, or NULL */
  int summary, classes;         /* --summary, --classes */
  /* set while measuring */
  double timer_res;       /* the timer's measured resolution (seconds;
                             #@timer_resolution) */
  size_t limited_runs;    /* pair runs the time limit stopped (rank 0) */
  struct msgbuf_layout buf_layout;  /* the buffers every pair used */
};

/* Every pair's result at rank 0 (heads first: they give the number of
   rows and samples; the samples only when RAW); elsewhere RES is freed.
   Collective over the overlay OV.  */
void lm_gather_results (struct overlay *ov, struct lm_result *res,
                        const struct logp_pair *pairs, size_t npairs,
                        int raw);

/* --classes: the links each rank measured filed under their class
   (logp_class_key), the class lists merged by one wave of the bin
   filter; rank 0 gets {key, count, members} per class in CLASSES.  */
void lm_gather_classes (struct overlay *ov, const struct lm_config *c,
                        const struct lm_result *res,
                        const struct logp_pair *pairs, size_t npairs,
                        struct tf_buf *classes);

/* The value of pair result R that --classes groups by (microseconds),
   NaN when R has no row of the size asked for.  */
double lm_class_value (const struct lm_config *c, const struct lm_result *r);

/* The LogGP summary (Table 1 with the rules of logp_params.h) of one
   pair's result R, times in microseconds.  */
void lm_summarize (const struct lm_result *r, const struct lm_config *c,
                   struct loggp *out);

/* The stream (collective: every rank adds to the metadata; rank 0
   writes): the run's metadata, then the table C asks for.  */
void lm_write_output (struct lm_result *res, size_t nres,
                      const struct logp_pair *pairs,
                      const struct lm_config *c, const char *hosts,
                      double total, double t_gather, double load0,
                      double load1, const struct tf_buf *classes,
                      const struct loggp *sum);

#endif
