/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagmodel.c: cost models and the LoGPC iteration of dag-predict.  */
#include <config.h>

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "dagmodel.h"
#include "err.h"
#include "hyperbolic.h"
#include "logpc.h"

static const char *const model_names[] = {
  "logp", "loggp", "loggops", "hyperbolic", "logpc", NULL
};

int
dag_model_parse (const char *name)
{
  for (int i = 0; model_names[i]; i++)
    if (strcmp (name, model_names[i]) == 0)
      return i;
  return -1;
}

const char *
dag_model_name (enum dag_model m)
{
  return model_names[m];
}

void
dag_params_default (struct dag_params *p)
{
  p->L = 2500;
  p->os = p->or_ = 1500;
  p->g = 1000;
  p->G = 6;
  p->O = 0;
  p->S = 65535;
  p->a = 1;
  p->b = 0;
  p->n = 2;
  p->kd = 1.9375;   /* 2 k_d = 3.875 on Alewife's 4 x 8 mesh, eq. (11) */
  p->Gc = NAN;      /* the channel time per byte: G unless set */
}

static double *
slot (struct dag_params *p, const char *name)
{
  static const struct { const char *name; size_t off; } tbl[] = {
    { "L", offsetof (struct dag_params, L) },
    { "os", offsetof (struct dag_params, os) },
    { "or", offsetof (struct dag_params, or_) },
    { "g", offsetof (struct dag_params, g) },
    { "G", offsetof (struct dag_params, G) },
    { "O", offsetof (struct dag_params, O) },
    { "S", offsetof (struct dag_params, S) },
    { "a", offsetof (struct dag_params, a) },
    { "b", offsetof (struct dag_params, b) },
    { "n", offsetof (struct dag_params, n) },
    { "kd", offsetof (struct dag_params, kd) },
    { "Gc", offsetof (struct dag_params, Gc) },
  };
  for (size_t i = 0; i < sizeof tbl / sizeof tbl[0]; i++)
    if (strcmp (name, tbl[i].name) == 0)
      return (double *) ((char *) p + tbl[i].off);
  return NULL;
}

int
dag_params_known (const char *name)
{
  struct dag_params p;
  return strcmp (name, "o") == 0 || slot (&p, name) != NULL;
}

int
dag_params_set (struct dag_params *p, const char *name, double v)
{
  if (!dag_params_known (name))
    return -1;
  if (!(v >= 0) || !isfinite (v))
    return -2;
  if (strcmp (name, "n") == 0 && (v < 1 || v != floor (v)))
    return -2;
  if (strcmp (name, "Gc") == 0 && !(v > 0))
    return -2;
  if (strcmp (name, "o") == 0)
    {
      p->os = p->or_ = v;
      return 0;
    }
  *slot (p, name) = v;
  return 0;
}

double
dag_params_get (const struct dag_params *p, const char *name)
{
  if (strcmp (name, "Gc") == 0 && isnan (p->Gc))
    return logpc_gc_default (p->G);
  return *slot ((struct dag_params *) p, name);
}

const char *const *
dag_model_param_names (enum dag_model m)
{
  static const char *const logp[] = { "L", "os", "or", "g", NULL };
  static const char *const loggp[] = { "L", "os", "or", "g", "G", NULL };
  static const char *const loggops[] = { "L", "os", "or", "g", "G", "O",
                                         "S", NULL };
  static const char *const hyper[] = { "a", "b", NULL };
  static const char *const logpc[] = { "L", "os", "or", "g", "G", "n",
                                       "kd", "Gc", NULL };
  switch (m)
    {
    case MODEL_LOGP: return logp;
    case MODEL_LOGGP: return loggp;
    case MODEL_LOGGOPS: return loggops;
    case MODEL_HYPERBOLIC: return hyper;
    case MODEL_LOGPC: return logpc;
    }
  return logp;
}

void
dag_model_cost (enum dag_model m, const struct dag_params *p,
                struct dagsim_cost *c)
{
  memset (c, 0, sizeof *c);
  c->L = p->L;
  c->os = p->os;
  c->or_ = p->or_;
  c->g = p->g;
  c->S = INFINITY;
  switch (m)
    {
    case MODEL_LOGP:
      break;
    case MODEL_LOGGP:
    case MODEL_LOGPC:
      c->G = p->G;
      break;
    case MODEL_LOGGOPS:
      c->G = p->G;
      c->O = p->O;
      c->S = p->S;
      break;
    case MODEL_HYPERBOLIC:
      c->hyperbolic = 1;
      c->a = p->a;
      c->b = p->b;
      break;
    }
}

/* LoGPC: C_n of a BYTES message injected at RATE (eq. (6) of the open
   model; when that saturates, the rate closed by eq. (7) with the
   measured inter-message time 1/RATE).  */
static double
contention (const void *ctx, double rate, double bytes)
{
  const struct logpc_net *net = ctx;
  if (!(rate > 0) || !(bytes > 0))
    return 0;
  double cn = logpc_cn (net, bytes, rate);
  if (isfinite (cn))
    return cn;
  struct logpc_contention out;
  if (logpc_closed (net, bytes, 1.0 / rate, 1.0, &out) == LOGPC_OK
      && isfinite (out.Cn))
    return out.Cn;
  warn_once ("dag-logpc-sat", "LoGPC: the network saturates and the "
             "closed model has no solution; contention taken as 0");
  return 0;
}

void
dag_predict (const struct dag *d, enum dag_model m,
             const struct dag_params *p, const struct dagsim_opts *opt,
             double tol, int maxit, struct dagsim_result *r,
             int *iterations)
{
  struct dagsim_cost c;
  dag_model_cost (m, p, &c);
  if (m != MODEL_LOGPC)
    {
      dagsim_run (d, &c, opt, r);
      *iterations = 1;
      return;
    }
  /* the rates need each processor's message count */
  struct dagsim_opts o = { 0, 0, 0, 0 };
  if (opt)
    o = *opt;
  o.finish_only = 0;
  opt = &o;
  struct logpc_net net;
  logpc_net_set (&net, (int) p->n, p->kd, 1);
  /* The channel occupancy of a B-byte message is B Gc (eqs. 3 to 7),
     Gc = G by default, as loGPC-solve does.  */
  net.Gc = dag_params_get (p, "Gc");
  size_t np = d->nprocs > 0 ? (size_t) d->nprocs : 1;
  /* static: freed by the next call if a simulation dies (harnesses) */
  static double *rate;
  free (rate);
  rate = calloc (np, sizeof *rate);
  if (!rate)
    die ("out of memory");
  c.ctx = &net;
  c.contention = contention;
  c.rate = rate;
  /* Iteration 1 is contention-free (all rates 0).  */
  dagsim_run (d, &c, opt, r);
  int it = 1;
  for (; it < maxit; it++)
    {
      for (size_t q = 0; q < np; q++)
        rate[q] = r->proc[q].finish > 0 && r->proc[q].nsend > 0
                  ? (double) r->proc[q].nsend / r->proc[q].finish : 0;
      struct dagsim_result next;
      dagsim_run (d, &c, opt, &next);
      double prev = r->makespan;
      dagsim_result_free (r);
      *r = next;
      if (fabs (r->makespan - prev) <= tol * fabs (r->makespan))
        {
          it++;
          break;
        }
    }
  *iterations = it;
  free (rate);
  rate = NULL;
}
