/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dagmodel.c: cost models and the LoGPC iteration of dag-predict.  */
#include <config.h>

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dagcost.h"
#include "dagmodel.h"
#include "err.h"
#include "xalloc.h"
#include "hyperbolic.h"
#include "logpc.h"
#include "params.h"

static const char *const model_names[] = {
  "logp", "loggp", "loggops", "hyperbolic", "logpc", "plogp", NULL
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
  p->network = DAG_NET_NIC;
  p->topo = NULL;
  p->net = NULL;
  p->net_arg = NULL;
  p->cores = 0;
  p->cs = 0;
  p->plogp = NULL;
  p->progress = NULL;   /* a progress thread */
  p->S_given = 0;
}

/* What --network takes: the built-in names, then the table's.  */
static const char *
network_names (void)
{
  static char buf[512];
  if (*buf)
    return buf;
  static const char *const builtin[] = {
    "nic", "bus", "mesh", "mesh:DIMS (e.g. mesh:8x4)", "topology:FILE"
  };
  size_t nb = sizeof builtin / sizeof builtin[0], nt = 0, k = 0;
  while (dagcost_net_arg (nt))
    nt++;
  for (size_t i = 0; i < nb + nt && k < sizeof buf; i++)
    {
      const char *sep = i == 0 ? "" : i + 1 == nb + nt ? " or " : ", ";
      if (i < nb)
        k += (size_t) snprintf (buf + k, sizeof buf - k, "%s%s", sep,
                                builtin[i]);
      else
        k += (size_t) snprintf (buf + k, sizeof buf - k, "%s%s:%s", sep,
                                dagcost_net_arg (i - nb)->name,
                                dagcost_net_arg (i - nb)->syntax);
    }
  return buf;
}

/* NAME:ARGS of a network of the table (1: not one, 0 or -1 as
   dag_network_parse).  */
static int
table_network (const char *text, struct dag_netspec *ns, int *col,
               const char **why)
{
  const char *colon = strchr (text, ':');
  const struct dagcost_net *n =
    colon ? dagcost_net_named (text, (size_t) (colon - text)) : NULL;
  if (!n)
    return 1;
  ns->kind = DAG_NET_TABLE;
  ns->net = n;
  int c = 1;
  if (n->parse (colon + 1, &ns->arg, &c, why) == 0)
    return 0;
  *col = (int) (colon + 1 - text) + c;
  return -1;
}

int
dag_network_parse (const char *text, struct dag_netspec *ns, int *col,
                   const char **why)
{
  memset (ns, 0, sizeof *ns);
  *col = 1;
  *why = network_names ();
  if (strcmp (text, "nic") == 0 || strcmp (text, "bus") == 0
      || strcmp (text, "mesh") == 0)
    {
      ns->kind = text[0] == 'n' ? DAG_NET_NIC
                 : text[0] == 'b' ? DAG_NET_BUS : DAG_NET_MESH;
      return 0;
    }
  if (strncmp (text, "topology:", 9) == 0
      || strncmp (text, "topology-fifo:", 14) == 0)
    {
      ns->fifo = text[8] == '-';
      *col = ns->fifo ? 15 : 10;
      *why = ns->fifo ? "a file name after 'topology-fifo:'"
                      : "a file name after 'topology:'";
      ns->kind = DAG_NET_TOPOLOGY;
      ns->file = text + (ns->fifo ? 14 : 9);
      return *ns->file ? 0 : -1;
    }
  int st = table_network (text, ns, col, why);
  if (st <= 0)
    return st;
  if (strncmp (text, "mesh:", 5) != 0)
    {
      /* the first character that no name continues with */
      static const char *const names[] = { "nic", "bus", "mesh:",
                                           "topology:", "topology-fifo:" };
      size_t best = 0;
      const struct dagcost_net *n;
      for (size_t i = 0; i < 5; i++)
        {
          size_t k = 0;
          while (text[k] && text[k] == names[i][k])
            k++;
          if (k > best)
            best = k;
        }
      for (size_t i = 0; (n = dagcost_net_arg (i)); i++)
        {
          size_t k = 0;
          while (text[k] && text[k] == n->name[k])
            k++;
          if (k > best)
            best = k;
        }
      *col = (int) best + 1;
      return -1;
    }
  ns->kind = DAG_NET_MESH;
  const char *s = text + 5;
  int64_t nodes = 1;
  for (;;)
    {
      *col = (int) (s - text) + 1;
      if (!(*s >= '0' && *s <= '9'))
        {
          *why = "a radix (a whole number >= 1) of the mesh";
          return -1;
        }
      int64_t v = 0;
      for (; *s >= '0' && *s <= '9'; s++)
        {
          if (v > KCUBE_MAXNODES)
            continue;
          v = v * 10 + (*s - '0');
        }
      if (v < 1)
        {
          *why = "a radix >= 1";
          return -1;
        }
      if (ns->ndims == KCUBE_MAXDIM)
        {
          *why = "at most 16 dimensions";
          return -1;
        }
      if (v > KCUBE_MAXNODES / nodes)
        {
          *why = "at most 2^40 nodes";
          return -1;
        }
      nodes *= v;
      ns->dims[ns->ndims++] = v;
      if (*s == '\0')
        return 0;
      if (*s != 'x')
        {
          *col = (int) (s - text) + 1;
          *why = "'x' between the radices, or the end";
          return -1;
        }
      s++;
    }
}

int
dag_network_mesh (const struct dag_netspec *ns, int64_t P, struct kcube *t)
{
  memset (t, 0, sizeof *t);
  t->torus = 0;
  t->bidir = 1;
  if (ns->ndims == 0)
    {
      /* the 1-D mesh of P nodes: n = 1, every message on one line of
         channels, the LoGPC analogue of one shared switch */
      t->n = 1;
      t->k[0] = P > 0 ? P : 1;
      return 0;
    }
  t->n = ns->ndims;
  memcpy (t->k, ns->dims, sizeof ns->dims);
  return kcube_nodes (t) < P ? -1 : 0;
}

double
dag_network_kd (const struct kcube *t)
{
  return kcube_avg_dist (t, 0, NULL) / (double) t->n;   /* eq. (11) */
}

double *
dag_params_field (struct dag_params *p, int k)
{
  /* the fields of the parameter table's names (params.h) that the
     models here read */
  static const size_t off[PARAM_NPARAM] = {
    [PARAM_L] = offsetof (struct dag_params, L) + 1,
    [PARAM_OS] = offsetof (struct dag_params, os) + 1,
    [PARAM_OR] = offsetof (struct dag_params, or_) + 1,
    [PARAM_g] = offsetof (struct dag_params, g) + 1,
    [PARAM_G] = offsetof (struct dag_params, G) + 1,
    [PARAM_O] = offsetof (struct dag_params, O) + 1,
    [PARAM_S] = offsetof (struct dag_params, S) + 1,
    [PARAM_A] = offsetof (struct dag_params, a) + 1,
    [PARAM_B] = offsetof (struct dag_params, b) + 1,
    [PARAM_N] = offsetof (struct dag_params, n) + 1,
    [PARAM_KD] = offsetof (struct dag_params, kd) + 1,
    [PARAM_GC] = offsetof (struct dag_params, Gc) + 1,
    [PARAM_CS] = offsetof (struct dag_params, cs) + 1,
  };   /* + 1: 0 is "no field" */
  if (k < 0 || k >= PARAM_NPARAM || off[k] == 0)
    return NULL;
  return (double *) ((char *) p + off[k] - 1);
}

/* The field of parameter NAME (its own spelling, not an alias).  */
static double *
slot (struct dag_params *p, const char *name)
{
  int ks[2], alias;
  if (param_lookup (name, ks, &alias) != 1 || alias)
    return NULL;
  return dag_params_field (p, ks[0]);
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
  /* per size, from the table: os(m), or(m), g(m); L is pLogP's */
  static const char *const plogp[] = { "L", NULL };
  switch (m)
    {
    case MODEL_LOGP: return logp;
    case MODEL_LOGGP: return loggp;
    case MODEL_LOGGOPS: return loggops;
    case MODEL_HYPERBOLIC: return hyper;
    case MODEL_LOGPC: return logpc;
    case MODEL_PLOGP: return plogp;
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
  c->bus = p->network == DAG_NET_BUS;
  c->topo = p->network == DAG_NET_TOPOLOGY ? p->topo : NULL;
  if (p->network == DAG_NET_TABLE)
    {
      c->net = p->net;
      c->net_arg = p->net_arg;
    }
  c->cores = p->cores;
  c->cs = p->cs;
  c->progress = p->progress;
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
    case MODEL_PLOGP:
      c->plogp = p->plogp;
      /* The paper has no protocol switch; a given S adds LogGOPS's
         rendezvous (an MPI's eager limit: the send completes when its
         receive is posted), which no per-size overhead can show.  */
      if (p->S_given)
        c->S = p->S;
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

int
dag_predict_fix (const struct dag *d, enum dag_model m,
                 const struct dag_params *p, const struct dagsim_opts *opt,
                 double tol, int maxit, struct dagsim_result *r,
                 struct dag_fixpoint *fx)
{
  struct dagsim_cost c;
  dag_model_cost (m, p, &c);
  fx->converged = 1;
  fx->damping = 1;
  fx->lo = fx->hi = NAN;
  if (m != MODEL_LOGPC)
    {
      int st = dagsim_run (d, &c, opt, r);
      fx->iterations = 1;
      fx->lo = fx->hi = r->makespan;
      return st;
    }
  /* the rates need each processor's message count */
  struct dagsim_opts o = { .tie_order = 0 };
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
  rate = xcalloc (np, sizeof *rate);
  c.ctx = &net;
  c.contention = contention;
  c.rate = rate;
  /* Iteration 1 is contention-free (all rates 0).  */
  int st = dagsim_run (d, &c, opt, r);
  int it = 1;
  double w = 1;          /* the step's weight */
  int dir = 0;           /* sign of the last change of the makespan */
  double last = 0;       /* the last change */
  /* The makespan at the last turn of the iteration from rising to
     falling (a maximum) and from falling to rising (a minimum): an
     oscillation narrows around the fixed point between them.  NaN: no
     such turn yet.  */
  double tmax = NAN, tmin = NAN, prev = NAN;
  fx->converged = 0;
  for (; st == 0 && it < maxit; it++)
    {
      for (size_t q = 0; q < np; q++)
        {
          double f = r->proc[q].finish > 0 && r->proc[q].nsend > 0
                     ? (double) r->proc[q].nsend / r->proc[q].finish : 0;
          rate[q] = w == 1 ? f : rate[q] + w * (f - rate[q]);
        }
      struct dagsim_result next;
      st = dagsim_run (d, &c, opt, &next);
      prev = r->makespan;
      dagsim_result_free (r);
      *r = next;
      if (st != 0)
        break;
      double change = r->makespan - prev;
      if (fabs (change) <= w * tol * fabs (r->makespan))
        {
          it++;
          fx->converged = 1;
          break;
        }
      int nd = change > 0 ? 1 : -1;
      if (dir && nd != dir)
        {
          /* An oscillation around the fixed point: PREV was a turn.
             One that does not at least halve (|change| above half the
             last) is damped from here on; one that shrinks faster
             converges undamped.  */
          if (dir > 0)
            tmax = prev;
          else
            tmin = prev;
          if (fabs (change) > 0.5 * fabs (last))
            w /= 2;
        }
      dir = nd;
      last = change;
    }
  fx->iterations = it;
  fx->damping = w;
  if (fx->converged)
    fx->lo = fx->hi = r->makespan;
  else if (it == 1)
    {
      /* only the contention-free run: contention adds delays */
      fx->lo = r->makespan;
      fx->hi = INFINITY;
    }
  else
    {
      /* the last turns and the last two makespans */
      double x[4] = { tmax, tmin, prev, r->makespan };
      fx->lo = INFINITY;
      fx->hi = -INFINITY;
      for (int k = 0; k < 4; k++)
        if (!isnan (x[k]))
          {
            fx->lo = x[k] < fx->lo ? x[k] : fx->lo;
            fx->hi = x[k] > fx->hi ? x[k] : fx->hi;
          }
    }
  free (rate);
  rate = NULL;
  return st;
}

int
dag_predict (const struct dag *d, enum dag_model m,
             const struct dag_params *p, const struct dagsim_opts *opt,
             double tol, int maxit, struct dagsim_result *r,
             int *iterations)
{
  struct dag_fixpoint fx;
  int st = dag_predict_fix (d, m, p, opt, tol, maxit, r, &fx);
  *iterations = fx.iterations;
  return st;
}
