/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_report.c: a simulation's results as TSV tables (dag_report.h).  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "dag_coll.h"
#include "dag_report.h"
#include "err.h"
#include "num.h"
#include "xalloc.h"

static const char *kind_names[] = { "compute", "send", "recv", "wait" };

static void
task_label (const struct dag *d, int32_t v, char *buf, size_t len)
{
  const char *name = dag_name (d, dag_node_name (d, (size_t) v));
  if (name)
    snprintf (buf, len, "%s", name);
  else
    snprintf (buf, len, "op%ld", (long) v);
}

static int
iv_cmp (const void *a, const void *b)
{
  const struct dagsim_interval *x = a, *y = b;
  if (x->proc != y->proc)
    return x->proc < y->proc ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->end > y->end) - (x->end < y->end);
}

void
dag_write_gantt (tsv_writer *w, const struct dag *d,
                 struct dagsim_result *r)
{
  static const char *cols[] = { "proc", "start", "end", "kind", "task" };
  tsv_write_header (w, 5, cols);
  qsort (r->gantt, r->ngantt, sizeof *r->gantt, iv_cmp);
  char label[256];
  double t = 0;
  int32_t proc = -1;
  for (size_t i = 0; i < r->ngantt; i++)
    {
      struct dagsim_interval *iv = &r->gantt[i];
      if (iv->proc != proc)
        {
          proc = iv->proc;
          t = 0;
        }
      task_label (d, iv->node, label, sizeof label);
      if (iv->start > t)
        {
          tsv_put_int (w, proc);
          tsv_put_num (w, t);
          tsv_put_num (w, iv->start);
          tsv_put_str (w, kind_names[GANTT_WAIT]);
          tsv_put_str (w, label);
          tsv_end_row (w);
        }
      tsv_put_int (w, proc);
      tsv_put_num (w, iv->start);
      tsv_put_num (w, iv->end);
      tsv_put_str (w, kind_names[iv->kind]);
      tsv_put_str (w, label);
      tsv_end_row (w);
      if (iv->end > t)
        t = iv->end;
    }
}

void
dag_write_critical (tsv_writer *w, const struct dag *d,
                    const struct dagsim_result *r)
{
  static const char *cols[] = { "step", "proc", "kind", "task", "start",
                                "end" };
  tsv_write_header (w, 6, cols);
  char label[256];
  for (size_t i = 0; i < r->ncp; i++)
    {
      int32_t v = r->cp[i];
      const struct dag_node *nd = &d->node[v];
      task_label (d, v, label, sizeof label);
      tsv_put_int (w, (int64_t) i + 1);
      tsv_put_int (w, nd->proc);
      tsv_put_str (w, nd->op == DAG_CALC ? "compute"
                      : nd->op == DAG_SEND ? "send" : "recv");
      tsv_put_str (w, label);
      tsv_put_num (w, r->cp_start[i]);
      tsv_put_num (w, r->cp_end[i]);
      tsv_end_row (w);
    }
}

void
dag_write_per_proc (tsv_writer *w, const struct dag *d,
                    const struct dagsim_result *r)
{
  static const char *cols[] = { "proc", "finish", "compute", "send", "recv",
                                "idle", "sent", "received" };
  tsv_write_header (w, 8, cols);
  /* idle: the time of the rank's CPUs (one per cpu number of the
     schedule) up to its finish not spent computing, sending or
     receiving */
  double ncpu = (double) d->maxcpu + 1;
  for (int32_t p = 0; p < d->nprocs; p++)
    {
      const struct dagsim_proc *q = &r->proc[p];
      double idle = ncpu * q->finish - q->compute - q->send - q->recv;
      tsv_put_int (w, p);
      tsv_put_num (w, q->finish);
      tsv_put_num (w, q->compute);
      tsv_put_num (w, q->send);
      tsv_put_num (w, q->recv);
      tsv_put_num (w, idle > 0 ? idle : 0);
      tsv_put_int (w, q->nsend);
      tsv_put_int (w, q->nrecv);
      tsv_end_row (w);
    }
}

/* --qstat: the matching queues of each processor (dagsim.h,
   struct dagsim_queue).  */
void
dag_write_qstat (tsv_writer *w, const struct dag *d,
                 const struct dagsim_result *r)
{
  static const char *cols[] = { "proc", "posted", "posted_max",
                                "posted_mean", "unexpected",
                                "unexpected_max", "unexpected_mean" };
  tsv_write_header (w, 7, cols);
  for (int32_t p = 0; p < d->nprocs; p++)
    {
      const struct dagsim_queue *q = &r->queue[p];
      tsv_put_int (w, p);
      tsv_put_int (w, q->posted);
      tsv_put_int (w, q->posted_max);
      tsv_put_num (w, q->posted_mean);
      tsv_put_int (w, q->unexpected);
      tsv_put_int (w, q->unexpected_max);
      tsv_put_num (w, q->unexpected_mean);
      tsv_end_row (w);
    }
}

/* --link-stats: what each link of the topology carried (dagsim.h,
   struct dagsim_link), in the file's order of links.  */
void
dag_write_link_stats (tsv_writer *w, const struct dagsim_result *r,
                      const struct dag_topo *topo)
{
  static const char *cols[] = { "from", "to", "G", "L", "messages",
                                "bytes", "busy", "utilization", "waited",
                                "wait" };
  tsv_write_header (w, 10, cols);
  for (size_t i = 0; i < r->nlinks; i++)
    {
      const struct dag_topo_link *l = &topo->link[i];
      const struct dagsim_link *q = &r->link[i];
      tsv_put_str (w, dag_topo_name (topo, l->from));
      tsv_put_str (w, dag_topo_name (topo, l->to));
      if (isnan (l->G))
        tsv_put_na (w);
      else
        tsv_put_num (w, l->G);
      tsv_put_num (w, l->L);
      tsv_put_int (w, q->messages);
      tsv_put_num (w, q->bytes);
      tsv_put_num (w, q->busy);
      if (r->makespan > 0)
        tsv_put_num (w, q->busy / r->makespan);
      else
        tsv_put_na (w);
      tsv_put_int (w, q->waited);
      tsv_put_num (w, q->wait);
      tsv_end_row (w);
    }
}

/* The summary row: [sweep column,] makespan procs events messages model
   iterations, then the model's parameters.  */
void
dag_summary_header (tsv_writer *w, enum dag_model m, const char *sweep,
                    size_t nkeys, const char *const *keys, int cores)
{
  const char *cols[48];
  size_t n = 0;
  for (size_t i = 0; i < nkeys; i++)
    cols[n++] = keys[i];
  if (sweep)
    cols[n++] = sweep;
  static const char *fixed[] = { "makespan", "procs", "events", "messages",
                                 "model", "iterations" };
  for (size_t i = 0; i < 6; i++)
    cols[n++] = fixed[i];
  for (const char *const *p = dag_model_param_names (m); *p; p++)
    if (!sweep || strcmp (*p, sweep) != 0)
      cols[n++] = *p;
  /* --cores: the switch time in effect (0: free) */
  if (cores && (!sweep || strcmp (sweep, "cs") != 0))
    cols[n++] = "cs";
  tsv_write_header (w, n, cols);
}

void
dag_summary_row (tsv_writer *w, enum dag_model m, const char *sweep,
                 double sweep_value, const struct dag *d,
                 const struct dagsim_result *r, int iterations,
                 const struct dag_params *params, int cores)
{
  if (sweep)
    tsv_put_num (w, sweep_value);
  tsv_put_num (w, r->makespan);
  tsv_put_int (w, d->nprocs);
  if (r->stuck)
    {
      /* the schedule could not complete (predict) */
      tsv_put_na (w);
      tsv_put_na (w);
    }
  else
    {
      tsv_put_int (w, (int64_t) r->events);
      tsv_put_int (w, r->messages);
    }
  tsv_put_str (w, dag_model_name (m));
  tsv_put_int (w, iterations);
  for (const char *const *p = dag_model_param_names (m); *p; p++)
    if (!sweep || strcmp (*p, sweep) != 0)
      tsv_put_num (w, dag_params_get (params, *p));
  if (cores && (!sweep || strcmp (sweep, "cs") != 0))
    tsv_put_num (w, params->cs);
  tsv_end_row (w);
}

/* --timing: the program's own run time, as metadata.  */
void
dag_write_timing (tsv_writer *w, const struct dag_timing *j,
                  uint64_t events)
{
  tsv_meta (w, "build_seconds", "%.3f", j->t1 - j->t0);
  /* the DAG read or generated, then indexed (dag_finalize: successor
     lists, cycle check), in CPU time */
  tsv_meta (w, "read_cpu_seconds", "%.3f", j->c_read - j->c0);
  tsv_meta (w, "read_system_seconds", "%.3f", j->k_read - j->k0);
  tsv_meta (w, "index_cpu_seconds", "%.3f", j->c_index - j->c_read);
  tsv_meta (w, "simulate_seconds", "%.3f", j->t2 - j->t1);
  tsv_meta (w, "events_per_second", "%.0f",
            j->t2 > j->t1 ? (double) events / (j->t2 - j->t1) : 0.0);
  tsv_meta (w, "simulate_cpu_seconds", "%.3f", j->c2 - j->c1);
  tsv_meta (w, "simulate_system_seconds", "%.3f", j->k2 - j->k1);
  tsv_meta (w, "events_per_cpu_second", "%.0f",
            j->c2 > j->c1 ? (double) events / (j->c2 - j->c1) : 0.0);
  if (big_dir ())
    {
      tsv_meta (w, "save_mem_dir", "%s", big_dir ());
      tsv_meta (w, "save_mem_peak_bytes", "%zu", big_file_peak ());
    }
}

void
dag_warn_unconverged (const struct dag_fixpoint *fx, int n)
{
  char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE], wt[NUM_BUFSIZE];
  char where[2 * NUM_BUFSIZE + 64];
  num_format (fx->lo, -1, lo);
  num_format (fx->damping, -1, wt);
  if (isfinite (fx->hi))
    {
      num_format (fx->hi, -1, hi);
      snprintf (where, sizeof where, "lies between %s and %s", lo, hi);
    }
  else
    snprintf (where, sizeof where, "is at least %s, the contention-free "
              "makespan", lo);
  warn ("logpc: the contention iteration did not converge in %d "
        "simulation%s (--max-iterations)%s: the makespan's fixed point "
        "%s (last step weight %s); the row shows the last simulation",
        fx->iterations, fx->iterations == 1 ? "" : "s",
        n > 1 ? " in some runs, the first shown" : "", where, wt);
}

/* The schedule's times are finite when the makespan is.  */
void
dag_warn_infinite (const double *ms, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (isinf (ms[i]))
      {
        warn ("the makespan is above the largest double (about 1.8e308) "
              "and is written NA, as are the times past it: rescale the "
              "work or the parameters, e.g. to a larger time unit");
        break;
      }
}

void
dag_write_each (tsv_writer *w, struct dag_bind *b, int model,
                const struct dag *d, struct dagsim_result *rs,
                const int *its, const struct dag_params *each)
{
  long keys[8];
  size_t nk = param_file_keys (b->pfile, keys);
  const char *kn[8];
  for (size_t k = 0; k < nk; k++)
    kn[k] = b->pfile->col[keys[k]];
  dag_summary_header (w, model, NULL, nk, kn, b->cores != 0);
  for (size_t i = 0; i < b->nprow; i++)
    {
      for (size_t k = 0; k < nk; k++)
        tsv_put_str (w, b->pfile->cell[b->prow[i] * b->pfile->ncols
                                       + (size_t) keys[k]]);
      b->params = each[i];
      dag_summary_row (w, model, NULL, 0, d, &rs[i], its[i], &b->params,
                       b->cores != 0);
      dagsim_result_free (&rs[i]);
    }
}

void
dag_write_all (tsv_writer *w, struct dag_bind *b, int model, char **names,
               size_t n, struct dag *ds, struct dagsim_result *rs,
               const int *its, const double *ms)
{
  size_t *order = xmalloc (n * sizeof *order);
  dag_coll_order (ms, n, order);
  const char *col = "algorithm";
  dag_summary_header (w, model, NULL, 1, &col, b->cores != 0);
  for (size_t k = 0; k < n; k++)
    {
      size_t i = order[k];
      tsv_put_str (w, strrchr (names[i], ':') + 1);
      dag_summary_row (w, model, NULL, 0, &ds[i], &rs[i], its[i],
                       &b->params, b->cores != 0);
      dagsim_result_free (&rs[i]);
      dag_free (&ds[i]);
      free (names[i]);
    }
  free (names);
  free (order);
}

void
dag_write_one (tsv_writer *w, enum dag_table t, struct dag_bind *b,
               int model, const struct dag *d, struct dagsim_result *r,
               int iters, const struct dag_topo *topo)
{
  switch (t)
    {
    case DAG_TABLE_GANTT: dag_write_gantt (w, d, r); break;
    case DAG_TABLE_CRITICAL: dag_write_critical (w, d, r); break;
    case DAG_TABLE_PER_PROC: dag_write_per_proc (w, d, r); break;
    case DAG_TABLE_QSTAT: dag_write_qstat (w, d, r); break;
    case DAG_TABLE_LINKS: dag_write_link_stats (w, r, topo); break;
    case DAG_TABLE_SUMMARY:
      dag_summary_header (w, model, NULL, 0, NULL, b->cores != 0);
      dag_summary_row (w, model, NULL, 0, d, r, iters, &b->params,
                       b->cores != 0);
      break;
    }
  dagsim_result_free (r);
}

enum dag_table
dag_table_choose (const struct dag_table_opts *o)
{
  if (o->per_proc + o->critical + o->gantt > 1)
    die_usage ("--per-proc, --critical-path and --gantt are exclusive: one "
               "table per run");
  if (o->qstat && (o->per_proc || o->critical || o->gantt))
    die_usage ("--qstat writes its own table: not with --per-proc, "
               "--critical-path or --gantt");
  if (o->link_stats && (o->per_proc || o->critical || o->gantt || o->qstat))
    die_usage ("--link-stats writes its own table: not with --per-proc, "
               "--critical-path, --gantt or --qstat");
  if (o->sweep && (o->per_proc || o->critical || o->gantt || o->qstat
                   || o->link_stats))
    die_usage ("--sweep writes the summary rows only");
  if (o->link_stats && !o->topology)
    die_usage ("--link-stats tells what each link of a topology carried: "
               "give --network topology:FILE");
  return o->gantt ? DAG_TABLE_GANTT : o->critical ? DAG_TABLE_CRITICAL
         : o->per_proc ? DAG_TABLE_PER_PROC : o->qstat ? DAG_TABLE_QSTAT
         : o->link_stats ? DAG_TABLE_LINKS : DAG_TABLE_SUMMARY;
}
