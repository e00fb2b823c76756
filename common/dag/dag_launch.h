/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_launch: dag-predict --interval's reading and writing: the rows of
   a --params stream of several launches (msgperf-launch(1): a launch
   column, cpu_shared) grouped by launch, and the summary row of the
   per-launch predictions with their interval (dag_interval.h).  */
#ifndef MSGPERF_DAG_LAUNCH_H
#define MSGPERF_DAG_LAUNCH_H

#include <stddef.h>

#include "dag.h"
#include "dag_bind.h"
#include "dag_interval.h"
#include "dagsim.h"
#include "tsv.h"

/* B's selected rows grouped by their launch column into LS (as indices
   into B->prow), a launch flagged cpu_shared left out.  ONE_ROW: every
   launch must have exactly one row (a model that is not -m plogp).
   Dies at FILE:LINE:COL on a bad launch or cpu_shared field, at FILE on
   a file without a launch column, a launch with several rows when
   ONE_ROW, or no launch left.  */
void dag_launch_read (const struct dag_bind *b, int one_row,
                      struct dag_launches *ls);

/* The summary row of the LS->n predictions RS (iterations ITS, the
   parameters EACH of each launch) of schedule D under MODEL: launches,
   shared, makespan_min, makespan_max, then the summary columns with the
   median makespan and the median of each parameter; frees the results. */
void dag_launch_write (tsv_writer *w, const struct dag_bind *b, int model,
                       const struct dag *d, const struct dag_launches *ls,
                       struct dagsim_result *rs, const int *its,
                       const struct dag_params *each);

#endif
