/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_interval: a prediction's interval from the spread of its
   parameters over launches (msgperf(7), MPI PROGRAMS: one launch is one
   sample).  dag-predict --interval predicts once per launch's parameter
   set; the prediction is the median of those makespans and its interval
   their least and largest, as msgperf-compare(1) summarises a measured
   column over launches.  Pure functions: no I/O.  */
#ifndef MSGPERF_DAG_INTERVAL_H
#define MSGPERF_DAG_INTERVAL_H

#include <stddef.h>

#include "dagmodel.h"

struct dag_interval
{
  double median;   /* the prediction (makespan) */
  double min, max; /* its interval over the launches */
  size_t n;        /* launches predicted */
};

/* The median, least and largest of MS[0..N) (N > 0, left unchanged);
   all NaN when one of them is NaN (a schedule that could not complete
   under some launch's parameters has no interval).  */
void dag_interval_of (const double *ms, size_t n, struct dag_interval *iv);

/* The parameters written beside the interval: for every parameter of
   model M, the median of its values in EACH[0..N) (N > 0); the rest of
   OUT (network, progress rule, table) is EACH[0]'s.  */
void dag_interval_params (const struct dag_params *each, size_t n,
                          enum dag_model m, struct dag_params *out);

/* The launches of a parameter stream's rows: the rows ordered by launch,
   launch K's rows ROWS[START[K]..START[K+1]).  */
struct dag_launches
{
  size_t n;          /* launches kept */
  size_t *rows;      /* indices into the caller's rows, by launch */
  size_t *start;     /* n + 1 */
  double *id;        /* each launch's number */
  size_t shared;     /* launches left out (flagged cpu_shared) */
};

/* Group rows 0..N-1 by their launch number ID[i]; a row whose SHARED[i]
   is nonzero leaves its launch out (all of the launch's rows).  Launches
   keep the order of their first row, rows their order within one.
   Returns the number of launches kept.  */
size_t dag_launches_group (const double *id, const int *shared, size_t n,
                           struct dag_launches *ls);
/* N rows, each its own launch numbered from 1 (dag-predict --each).  */
void dag_launches_single (size_t n, struct dag_launches *ls);
void dag_launches_free (struct dag_launches *ls);

#endif
