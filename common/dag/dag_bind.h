/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_bind: the parameters of dag-predict's models bound to their
   values.  The layers of common/stream/params.h (built-in defaults <
   --params FILE < --set) resolved for a model into a struct dag_params
   (dagmodel.h), the times converted to the schedule's unit, the network
   and --cores applied, and -m plogp's per-size table built from the
   rows of the file.  */
#ifndef MSGPERF_DAG_BIND_H
#define MSGPERF_DAG_BIND_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"
#include "dagmodel.h"
#include "params.h"
#include "plogp.h"
#include "topology.h"
#include "tsv.h"

struct dag_bind
{
  struct dag_params params;   /* in effect for the current run */
  struct param_set p_default, p_file, p_set;
  struct param_file *pfile;   /* --params FILE, or NULL */
  size_t *prow, nprow;        /* its selected rows */
  int signed_L;               /* -m plogp: L may be negative */
  int64_t cores;              /* --cores (0: a core each) */
  const struct dagcost_progress *progress;  /* --progress-rule, or NULL */
};

/* The output's time unit and the conversion of --params' times to it.  */
struct dag_units
{
  const char *unit;           /* the output's time unit, or NULL */
  int goal_default_unit;      /* ns because GOAL has none */
  double file_scale;          /* --params times into UNIT */
  char conversion[128];       /* "us to ns (x1000)", or empty */
};

/* The parameters the models use (for --set): one flag per param_defs
   entry.  */
const unsigned char *dag_bind_usable (void);

/* A parameter name for --sweep: its param_defs index when it is one
   dag_params field, else -1.  */
int dag_bind_sweep_param (const char *name);

/* --sweep NAME=... of a parameter (not a generator's field) under model
   MODEL: dies unless NAME is one parameter MODEL uses.  */
void dag_bind_sweep_name (const struct dag_bind *b, int model,
                          const char *name);

/* --sweep NAME=VALS[0..N): dies on a value out of NAME's range.  */
void dag_bind_sweep_range (const char *name, const double *vals, size_t n);

/* LogGOPSim's defaults and the rest of dag_params_default as the lowest
   layer, the time defaults (in ns) scaled by SCALE; WITH_FILE drops the
   nonzero time defaults.  */
void dag_bind_defaults (struct dag_bind *b, double scale, int with_file);

/* B->params for parameter row R of B->pfile (if any) and a model needing
   the parameters NEED (NULL-terminated).  */
void dag_bind_resolve (struct dag_bind *b, const char *const *need,
                       size_t r, double file_scale);

/* The output's unit into U: the input's UNIT_IN (NULL if none), a GOAL
   schedule's own GOAL_UNIT ("" if none; GOAL: the schedule is GOAL),
   --time-unit TIME_UNIT; then the defaults and, without a file, the
   parameters NEED.  */
void dag_bind_units (struct dag_bind *b, struct dag_units *u,
                     const char *unit_in, const char *goal_unit, int goal,
                     const char *time_unit, const char *const *need);

/* --network NS (its text TEXT; TOPO its topology, if any) and --cores
   into B->params for the schedule D.  */
void dag_bind_network (struct dag_bind *b, const struct dag_netspec *ns,
                       const char *text, struct dag_topo *topo,
                       const struct dag *d);

/* -m plogp: the rows of B->pfile as the table T of os(m), or(m), g(m);
   L from --set or the rows' L.  */
void dag_bind_plogp (struct dag_bind *b, struct plogp *t, double file_scale);

/* -m plogp's metadata: the table T's range, and whether the messages of
   the schedules DS[0..ND) leave it.  */
void dag_bind_plogp_meta (tsv_writer *w, const struct dag_bind *b,
                          const struct plogp *t, const struct dag *ds,
                          size_t nd);

/* The parameter file's metadata (B->pfile, if any), the --where
   selection WHERE and the conversion of its times CONVERSION ("" for
   none).  */
void dag_bind_write_meta (tsv_writer *w, const struct dag_bind *b,
                          const char *where, const char *conversion);

/* The parameter file's times into UNIT (--time-unit; NULL: the file's
   own unit, which is returned): SCALE and its CONVERSION (128 bytes)
   set when they differ.  Returns the unit.  */
const char *dag_bind_file_unit (const struct dag_bind *b, const char *unit,
                                double *scale, char *conversion);

/* --sweep NAME=VAL of a parameter: B->params changed (T: -m plogp's
   table, whose L it may be; NULL otherwise).  */
void dag_bind_sweep_set (struct dag_bind *b, const char *name, double val,
                         struct plogp *t);

/* --network TEXT into NS (dies with the column of an error); returns a
   copy of TEXT, which NS's file points into, and frees OLD, the copy of
   an earlier --network.  */
char *dag_bind_network_option (const char *text, struct dag_netspec *ns,
                               char *old);

/* --progress-rule TEXT: the rule it names (dies, usage, otherwise).  */
const struct dagcost_progress *dag_bind_progress_option (const char *text);

/* The model without -m: parameterized LogP when the --params file PATH
   (not standard input; no --where or --each: WHERE_EACH 0) holds
   per-size rows, LogGOPS otherwise.  */
const char *dag_bind_default_model (const char *path, int where_each);

#endif
