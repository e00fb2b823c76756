/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagmodel.h: the cost models of dag-predict, their parameters by name
 * (msgperf(7), NAMES AND UNITS), and the LoGPC fixed-point iteration.  */
#ifndef MSGPERF_DAGMODEL_H
#define MSGPERF_DAGMODEL_H

#include "dag.h"
#include "dagsim.h"

enum dag_model
{
  MODEL_LOGP, MODEL_LOGGP, MODEL_LOGGOPS, MODEL_HYPERBOLIC, MODEL_LOGPC
};

/* "logp", "loggp", "loggops", "hyperbolic", "logpc"; -1 if unknown.  */
int dag_model_parse (const char *name);
const char *dag_model_name (enum dag_model m);

struct dag_params
{
  double L, os, or_, g, G, O, S;   /* LogGOPS */
  double a, b;                      /* hyperbolic */
  double n, kd;                     /* LoGPC network: dimension, k_d */
  double Gc;                        /* LoGPC channel time per byte; NaN:
                                       logpc_gc_default (G) */
};

/* LogGOPSim's defaults (L=2500, o=1500, g=1000, G=6, O=0, S=65535),
   a=1, b=0, and LoGPC's Alewife mesh (n=2, kd=1.9375) with Gc unset
   (G, see logpc_gc_default).  */
void dag_params_default (struct dag_params *p);

/* Set parameter NAME (L, o, os, or, g, G, O, S, a, b, n, kd, Gc; "o" sets
   os and or) to V.  Returns 0, -1 for an unknown name, -2 for a value out
   of range (negative, Gc <= 0; S may be "inf" only through
   dag_params_set_S).  */
int dag_params_set (struct dag_params *p, const char *name, double v);

/* Is NAME a parameter name?  */
int dag_params_known (const char *name);

/* Names of the parameters a model uses, NULL-terminated, and their
   values.  */
const char *const *dag_model_param_names (enum dag_model m);
/* The value of NAME; for Gc the one in effect (G by default).  */
double dag_params_get (const struct dag_params *p, const char *name);

/* The simulator's cost rules for model M.  */
void dag_model_cost (enum dag_model m, const struct dag_params *p,
                     struct dagsim_cost *c);

/* Predict: simulate D under M.  For LoGPC, iterate: measure each
   processor's injection rate (messages per time over its busy span),
   inflate each message's latency by C_n at that rate (eq. (6); the
   closed form of eq. (7) when the open model saturates), re-simulate
   until the makespan changes by at most TOL (relative) or MAXIT runs.
   *ITERATIONS receives the number of simulations.  */
void dag_predict (const struct dag *d, enum dag_model m,
                  const struct dag_params *p, const struct dagsim_opts *opt,
                  double tol, int maxit, struct dagsim_result *r,
                  int *iterations);

#endif
