/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_report.h: what dag-predict writes of a simulation (dagsim.h) as
   TSV tables: the schedule (--gantt), the critical path, the per-rank
   times, the matching queues, the links of a topology, and the summary
   row of the model and its parameters.  */
#ifndef MSGPERF_DAG_REPORT_H
#define MSGPERF_DAG_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"
#include "dag_bind.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "topology.h"
#include "tsv.h"

/* --gantt: proc, start, end, kind, task, with the waits between a
   rank's operations; sorts R's intervals.  */
void dag_write_gantt (tsv_writer *w, const struct dag *d,
                      struct dagsim_result *r);
/* --critical-path: step, proc, kind, task, start, end.  */
void dag_write_critical (tsv_writer *w, const struct dag *d,
                         const struct dagsim_result *r);
/* --per-proc: finish, compute, send, recv, idle, sent, received.  */
void dag_write_per_proc (tsv_writer *w, const struct dag *d,
                         const struct dagsim_result *r);
/* --qstat: the matching queues of each rank.  */
void dag_write_qstat (tsv_writer *w, const struct dag *d,
                      const struct dagsim_result *r);
/* --link-stats: what each link of TOPO carried, in its file's order.  */
void dag_write_link_stats (tsv_writer *w, const struct dagsim_result *r,
                           const struct dag_topo *topo);

/* The summary's header: the NKEYS KEYS (--each), the SWEEP column if
   any, makespan procs events messages model iterations, then M's
   parameters but SWEEP, and cs when CORES (--cores) is set.  */
void dag_summary_header (tsv_writer *w, enum dag_model m, const char *sweep,
                         size_t nkeys, const char *const *keys, int cores);
/* Its row for D's result R under PARAMS (NA events and messages when R
   is stuck).  */
void dag_summary_row (tsv_writer *w, enum dag_model m, const char *sweep,
                      double sweep_value, const struct dag *d,
                      const struct dagsim_result *r, int iterations,
                      const struct dag_params *params, int cores);

/* --timing: the program's clocks (dag_progress.h) at its start (0), the
   schedule read and indexed, the simulation's start (1) and end (2):
   wall (t), CPU (c) and system (k) seconds.  */
struct dag_timing
{
  double t0, c0, k0, c_read, k_read, c_index, t1, c1, k1, t2, c2, k2;
};

/* T as metadata, with EVENTS simulated per second, and --save-mem's
   directory and peak.  */
void dag_write_timing (tsv_writer *w, const struct dag_timing *t,
                       uint64_t events);

/* After the output: a LoGPC iteration that did not converge, FX the
   first of N such runs (its rows show the last simulation), as a
   warning with the bracket of its fixed point.  */
void dag_warn_unconverged (const struct dag_fixpoint *fx, int n);

/* A warning when one of the makespans MS[0..N) is infinite: such a
   time is written NA (msgperf(7), NUMBERS).  */
void dag_warn_infinite (const double *ms, size_t n);

/* --each: one summary row per parameter row of B (led by its key
   columns), with the results RS and ITS and the parameters EACH of that
   row; the results are freed.  */
void dag_write_each (tsv_writer *w, struct dag_bind *b, int model,
                     const struct dag *d, struct dagsim_result *rs,
                     const int *its, const struct dag_params *each);

/* -g coll:OP:all: the summary rows of the N algorithms NAMES (their
   schedules DS, results RS, iterations ITS), best first; frees the
   results, the schedules and the names.  */
void dag_write_all (tsv_writer *w, struct dag_bind *b, int model,
                    char **names, size_t n, struct dag *ds,
                    struct dagsim_result *rs, const int *its,
                    const double *ms);

/* Which table one run writes (dag-predict's options).  */
enum dag_table { DAG_TABLE_SUMMARY, DAG_TABLE_GANTT, DAG_TABLE_CRITICAL,
                 DAG_TABLE_PER_PROC, DAG_TABLE_QSTAT, DAG_TABLE_LINKS };

/* The table options given (dag-predict's), checked against each other
   (dies, usage, on two tables at once, a table with --sweep, or
   --link-stats without a topology).  */
struct dag_table_opts
{
  int gantt, critical, per_proc, qstat, link_stats, sweep, topology;
};
enum dag_table dag_table_choose (const struct dag_table_opts *o);

/* One run's table T, or its summary row; frees R.  */
void dag_write_one (tsv_writer *w, enum dag_table t, struct dag_bind *b,
                    int model, const struct dag *d, struct dagsim_result *r,
                    int iters, const struct dag_topo *topo);


#endif
