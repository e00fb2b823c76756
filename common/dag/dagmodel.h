/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagmodel.h: the cost models of dag-predict, their parameters by name
 * (msgperf(7), NAMES AND UNITS), and the LoGPC fixed-point iteration.  */
#ifndef MSGPERF_DAGMODEL_H
#define MSGPERF_DAGMODEL_H

#include <stdint.h>

#include "dag.h"
#include "dagsim.h"
#include "kcube.h"
#include "topology.h"

struct dagcost_net;
struct dagcost_progress;

enum dag_model
{
  MODEL_LOGP, MODEL_LOGGP, MODEL_LOGGOPS, MODEL_HYPERBOLIC, MODEL_LOGPC,
  MODEL_PLOGP
};

/* "logp", "loggp", "loggops", "hyperbolic", "logpc", "plogp"; -1 if
   unknown.  */
int dag_model_parse (const char *name);
const char *dag_model_name (enum dag_model m);

struct dag_params
{
  double L, os, or_, g, G, O, S;   /* LogGOPS */
  double a, b;                      /* hyperbolic */
  double n, kd;                     /* LoGPC network: dimension, k_d */
  double Gc;                        /* LoGPC channel time per byte; NaN:
                                       logpc_gc_default (G) */
  int network;                      /* enum dag_network */
  struct dag_topo *topo;            /* DAG_NET_TOPOLOGY: the links */
  const struct dagcost_net *net;    /* DAG_NET_TABLE: the network and */
  const void *net_arg;              /* its parameters (dagcost.h) */
  const struct dagcost_progress *progress; /* NULL: a progress thread */
  int64_t cores;                    /* processors share cores p mod
                                       CORES; 0: a core each */
  double cs;                        /* with cores: a core's switch from
                                       one processor to another */
  const struct plogp *plogp;        /* plogp: the per-size table */
  int S_given;                      /* S set by the user: plogp then has
                                       LogGOPS's rendezvous above S */
};

/* The network of the simulation (dag-predict --network).  */
enum dag_network
{
  DAG_NET_NIC = 0,   /* a network interface per processor (dagsim.h) */
  DAG_NET_BUS = 1,   /* one link shared by every message, FIFO */
  DAG_NET_MESH = 2,  /* NICs, and LoGPC's n and k_d from a mesh */
  DAG_NET_TOPOLOGY = 3,  /* NICs, and the links of a file (topology.h) */
  DAG_NET_TABLE = 4      /* a network of dagcost.c's table named with
                            its parameters, NAME:ARGS */
};

struct dag_netspec
{
  int kind;                      /* enum dag_network */
  int ndims;                     /* mesh: 0, derived from P */
  int64_t dims[KCUBE_MAXDIM];
  const char *file;              /* topology: the file's name (in the
                                    parsed text) */
  int fifo;                      /* topology-fifo:FILE */
  const struct dagcost_net *net; /* DAG_NET_TABLE: the network and its */
  void *arg;                     /* parameters (allocated) */
};

/* Parse "nic", "bus", "mesh", "mesh:K1xK2x..." (radices >= 1, at most
   KCUBE_MAXDIM, at most KCUBE_MAXNODES nodes), "topology:FILE" or
   "topology-fifo:FILE" (a name of at least one character, kept in
   TEXT) or NAME:ARGS of a
   network of dagcost.c's table (e.g. fattree:K:R).  Returns 0, or -1 with
   *COL the 1-based column of TEXT where it goes wrong and *WHY what was
   expected there.  */
int dag_network_parse (const char *text, struct dag_netspec *ns, int *col,
                       const char **why);

/* The mesh of NS for P processors: the given dims, or when none are
   given the 1-D mesh of P nodes.  Fills T (no end-around connections,
   bidirectional channels) and returns 0, or -1 when it has fewer than P
   nodes.  */
int dag_network_mesh (const struct dag_netspec *ns, int64_t P,
                      struct kcube *t);

/* LoGPC's k_d of mesh T: the average distance per dimension with
   destinations uniform over the nodes, k_d = (1/n) sum_i (k_i^2 - 1) /
   (3 k_i) (eq. (11), whose 2 k_d is the sum over Alewife's two
   dimensions).  */
double dag_network_kd (const struct kcube *t);

/* LogGOPSim's defaults (L=2500, o=1500, g=1000, G=6, O=0, S=65535),
   a=1, b=0, and LoGPC's Alewife mesh (n=2, kd=1.9375) with Gc unset
   (G, see logpc_gc_default); a NIC per processor and a core each.  */
void dag_params_default (struct dag_params *p);

/* The field of P that holds parameter K (enum param_id of params.h, the
   one table of names, units and ranges), NULL when the models here do
   not read it.  */
double *dag_params_field (struct dag_params *p, int k);

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

/* How the LoGPC iteration ended.  */
struct dag_fixpoint
{
  int iterations;      /* simulations run */
  int converged;       /* 1: the makespan settled within the tolerance
                          (always 1 for the other models) */
  double lo, hi;       /* not converged: the makespans the fixed point
                          lies between (see dag_predict_fix) */
  double damping;      /* the last step's weight (1: undamped) */
};

/* Predict: simulate D under M.  For LoGPC, iterate on the vector of
   injection rates x: F(x) measures each processor's rate (messages sent
   over its busy span) in a simulation whose message latencies are
   L + C_n at the rates x (eq. (6); the closed form of eq. (7) when the
   open model saturates).  x_1 = 0 (contention-free), then
   x_{k+1} = x_k + w (F(x_k) - x_k): w = 1 (plain iteration) until the
   makespan's change reverses its sign, an oscillation around the fixed
   point (more contention, fewer messages per time, less contention),
   and halved at every reversal.  The iteration has converged when the
   change of the makespan, divided by w (the change an undamped step
   would make), is at most TOL relative.  When MAXIT simulations do not
   converge, FX->lo and FX->hi bracket the fixed point's makespan: the
   least and greatest of the last two makespans and of the last turns
   (the makespans where the change last went from rising to falling and
   from falling to rising); after one simulation, lo is the
   contention-free makespan and hi infinite.  Returns 0, or -1 when the
   schedule cannot complete (R->stuck says why; dagsim_run).  */
int dag_predict_fix (const struct dag *d, enum dag_model m,
                      const struct dag_params *p,
                      const struct dagsim_opts *opt, double tol, int maxit,
                      struct dagsim_result *r, struct dag_fixpoint *fx);

/* dag_predict_fix without the convergence report: *ITERATIONS receives
   the number of simulations.  */
int dag_predict (const struct dag *d, enum dag_model m,
                  const struct dag_params *p, const struct dagsim_opts *opt,
                  double tol, int maxit, struct dagsim_result *r,
                  int *iterations);

#endif
