/* SPDX-License-Identifier: GPL-3.0-or-later */
/* togoal.c: traces to a GOAL schedule (see togoal.h).
 *
 * Every rank's operations are built in memory first, then written: a
 * receive posted with MPI_ANY_SOURCE or MPI_ANY_TAG learns its source and
 * tag only at the wait that completes it, and the tags are numbered once
 * the whole trace has been read.
 *
 * The rank's "state" is the set of operations its next operation
 * depends on: after a blocking operation X, {X requires}; after a
 * non-blocking X, {X irequires} (the next call starts once X has
 * started); a wait adds "requires" on the operations it completed.
 *
 * Tags: communicators are told apart by their world ranks and, among
 * those with the same ranks, by their order of creation (world, then
 * duplicates ...), which is the same on every member.  Each gets a
 * number (world 0) in the order the conversion meets them; a
 * point-to-point message on communicator c with tag t gets the GOAL tag
 * c T + t, T the least power of ten above every traced tag (at least
 * 10).  The k-th collective call on a communicator is one instance,
 * numbered as met; its messages all get tag B + instance, B = (number of
 * communicators) T, so that no two collectives and no point-to-point
 * message can match each other.  */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "coll_decide.h"
#include "dag_coll.h"
#include "num.h"
#include "togoal.h"
#include "xalloc.h"

static const char *const coll_ops[TOGOAL_NCOLL] = {
  "barrier", "bcast", "reduce", "allreduce", "allgather", "alltoall",
  "gather", "scatter",
  "gatherv", "scatterv", "allgatherv", "alltoallv", "reduce_scatter",
  "reduce_scatter_block", "scan", "exscan"
};

const char *
togoal_coll_op (int i)
{
  return i >= 0 && i < TOGOAL_NCOLL ? coll_ops[i] : NULL;
}

/* msgperf-trace(1), COLLECTIVES WITH PER-RANK SIZES, gives each one's
   messages.  */
static const char *const linear_only[] = { "linear", NULL };
static const char *const allgatherv_algos[] = {
  "ring", "linear", "default", "bruck", "neighbor", "two_proc", NULL
};
static const char *const alltoallv_algos[] = { "basic_linear", "pairwise",
                                               NULL };
static const char *const reduce_scatter_algos[] = {
  "linear", "non-overlapping", "recursive_halving", "ring", "butterfly", NULL
};
static const char *const reduce_scatter_block_algos[] = {
  "linear", "basic_linear", "recursive_doubling", "recursive_halving",
  "butterfly", NULL
};

const char *const *
togoal_coll_algos (int i)
{
  if (i < TOGOAL_NGEN || i >= TOGOAL_NCOLL)
    return NULL;
  if (TRACE_GATHERV + i - TOGOAL_NGEN == TRACE_ALLGATHERV)
    return allgatherv_algos;
  if (TRACE_GATHERV + i - TOGOAL_NGEN == TRACE_ALLTOALLV)
    return alltoallv_algos;
  if (TRACE_GATHERV + i - TOGOAL_NGEN == TRACE_REDUCE_SCATTER)
    return reduce_scatter_algos;
  if (TRACE_GATHERV + i - TOGOAL_NGEN == TRACE_REDUCE_SCATTER_BLOCK)
    return reduce_scatter_block_algos;
  return linear_only;
}

/* The operation index of collective CALL, or -1.  */
static int
coll_index (unsigned call)
{
  if (call >= TRACE_BARRIER && call <= TRACE_SCATTER)
    return (int) (call - TRACE_BARRIER);
  if (call >= TRACE_GATHERV && call <= TRACE_EXSCAN)
    return TOGOAL_NGEN + (int) (call - TRACE_GATHERV);
  return -1;
}

/* ------------------------------------------------------------ vectors */

#define GROW(p, n, cap)                                         \
  do {                                                          \
    if ((n) == (cap))                                           \
      {                                                         \
        (cap) = (cap) ? 2 * (cap) : 8;                          \
        (p) = xrealloc ((p), (cap) * sizeof *(p));              \
      }                                                         \
  } while (0)

/* A dependency: on operation OP (an index in its rank, or ENTRY in a
   collective's fragment), completed (requires) or started (irequires).  */
#define ENTRY (-1)
struct dep
{
  int64_t op;
  int start;      /* 1: irequires */
};

struct depset
{
  struct dep *d;
  size_t n, cap;
};

/* Add D; a dependency on an operation already there keeps the stronger
   (requires).  */
static void
depset_add (struct depset *s, struct dep d)
{
  for (size_t i = 0; i < s->n; i++)
    if (s->d[i].op == d.op)
      {
        s->d[i].start = s->d[i].start && d.start;
        return;
      }
  GROW (s->d, s->n, s->cap);
  s->d[s->n++] = d;
}

static void
depset_copy (struct depset *to, const struct depset *from)
{
  to->n = 0;
  for (size_t i = 0; i < from->n; i++)
    depset_add (to, from->d[i]);
}

/* --------------------------------------------------------- operations */

enum { OP_CALC, OP_SEND, OP_RECV };

struct op
{
  int kind;
  int32_t peer;      /* world rank, -1 any source */
  int64_t bytes;
  int32_t comm;      /* communicator number (point-to-point), or -1 */
  int64_t tag;       /* the trace's tag (-1 any), or the instance */
  double calc;       /* us */
  size_t dep0, ndep; /* in the rank's dependency list */
  uint64_t src;      /* the record it comes from (a calc: the record
                        it precedes) */
};

struct rankops
{
  struct op *ops;
  size_t n, cap;
  struct dep *deps;
  size_t nd, capd;
  uint64_t cur;      /* the record being converted */
};

static size_t
add_op (struct rankops *r, struct op o, const struct depset *deps)
{
  o.src = r->cur;
  o.dep0 = r->nd;
  o.ndep = deps ? deps->n : 0;
  for (size_t i = 0; i < o.ndep; i++)
    {
      GROW (r->deps, r->nd, r->capd);
      r->deps[r->nd++] = deps->d[i];
    }
  GROW (r->ops, r->n, r->cap);
  r->ops[r->n] = o;
  return r->n++;
}

/* ----------------------------------------------------- communicators */

/* A communicator as every member sees it: world ranks in comm-rank
   order, and its place among the rank's communicators with the same
   ranks.  */
struct commkey
{
  int32_t *members;
  int32_t n;
  int32_t occurrence;
  int64_t *inst;           /* k-th collective -> instance, or -1 */
  size_t ninst;
};

struct instance
{
  int32_t comm, k;         /* communicator number, k-th collective */
  int call;                /* TRACE_BARRIER ... */
  int32_t root;
  int64_t bytes;
  int64_t count;           /* a reduction's elements, or -1 */
  int32_t first_rank;      /* world rank that met it first */
  int32_t nparts;          /* the communicator's size */
  /* per comm rank: the operations of its part, their dependencies
     (ENTRY or an index in the part), and its exit set */
  struct rankops *part;
  struct depset *exit;
};

struct conv
{
  const struct togoal_input *in;
  struct commkey *comms;
  size_t ncomms, capcomms;
  struct instance *inst;
  size_t ninst, capinst;
  int64_t max_tag;
  char *err;
  size_t errsize;
  /* the algorithms expanded: operation, Open MPI's name, generator */
  struct used { int op; const char *algo, *gen; } *used;
  size_t nused, capused;
};

static void
note_used (struct conv *c, int op, const char *algo, const char *gen)
{
  for (size_t i = 0; i < c->nused; i++)
    if (c->used[i].op == op && strcmp (c->used[i].algo, algo) == 0)
      return;
  GROW (c->used, c->nused, c->capused);
  c->used[c->nused++] = (struct used) { op, algo, gen };
}

static int32_t
comm_number (struct conv *c, const int32_t *m, int32_t n, int32_t occ)
{
  for (size_t i = 0; i < c->ncomms; i++)
    if (c->comms[i].n == n && c->comms[i].occurrence == occ
        && memcmp (c->comms[i].members, m, (size_t) n * sizeof *m) == 0)
      return (int32_t) i;
  GROW (c->comms, c->ncomms, c->capcomms);
  struct commkey *k = &c->comms[c->ncomms];
  k->members = xmalloc ((size_t) n * sizeof *m);
  memcpy (k->members, m, (size_t) n * sizeof *m);
  k->n = n;
  k->occurrence = occ;
  k->inst = NULL;
  k->ninst = 0;
  return (int32_t) c->ncomms++;
}

/* One rank's communicators, by local id.  */
struct localcomm
{
  int32_t *members;    /* NULL: not known */
  int32_t n;
  int32_t number;      /* comm_number, or -1 */
  int32_t ncoll;       /* collectives met so far */
};

struct locals
{
  struct localcomm *c;
  size_t n;
};

static struct localcomm *
local_get (struct locals *l, int32_t id)
{
  if (id < 0)
    return NULL;
  if ((size_t) id >= l->n)
    {
      size_t n = (size_t) id + 1;
      l->c = xrealloc (l->c, n * sizeof *l->c);
      for (size_t i = l->n; i < n; i++)
        l->c[i] = (struct localcomm) { NULL, 0, -1, 0 };
      l->n = n;
    }
  return &l->c[id];
}

/* Number the local communicator ID of rank R once its members are
   known (its occurrence counts the lower ids with the same members).  */
static void
local_number (struct conv *c, struct locals *l, int32_t id)
{
  struct localcomm *lc = &l->c[id];
  int32_t occ = 0;
  for (int32_t j = 0; j < id; j++)
    if (l->c[j].members && l->c[j].n == lc->n
        && memcmp (l->c[j].members, lc->members,
                   (size_t) lc->n * sizeof *lc->members) == 0)
      occ++;
  lc->number = comm_number (c, lc->members, lc->n, occ);
}

/* ------------------------------------------------------- collectives */

struct gtask
{
  int32_t rank;
  int32_t *preds;
  size_t npreds, cappreds;
  int32_t *ins;          /* message indices into the task */
  size_t nins, capins;
  struct depset set;     /* what "the task is done" means on its rank */
};

struct gmsg
{
  int32_t from, to;
  int64_t bytes;
  int64_t send_op, recv_op;
};

struct gen
{
  struct gtask *t;
  size_t nt, capt;
  struct gmsg *m;
  size_t nm, capm;
  int bad;               /* a dependency across ranks or backwards */
};

/* Release a generated task graph: its tasks' lists, the tasks, the
   messages.  */
static void
gen_free (struct gen *g)
{
  for (size_t i = 0; i < g->nt; i++)
    {
      free (g->t[i].preds);
      free (g->t[i].ins);
      free (g->t[i].set.d);
    }
  free (g->t);
  free (g->m);
}

static int32_t
sink_task (void *ctx, const char *id, int32_t proc, double work)
{
  (void) id;
  (void) work;
  struct gen *g = ctx;
  GROW (g->t, g->nt, g->capt);
  g->t[g->nt] = (struct gtask) { .rank = proc };
  return (int32_t) g->nt++;
}

static void
sink_msg (void *ctx, int32_t from, int32_t to, int64_t bytes)
{
  struct gen *g = ctx;
  GROW (g->m, g->nm, g->capm);
  g->m[g->nm++] = (struct gmsg) { from, to, bytes, -1, -1 };
  struct gtask *t = &g->t[to];
  GROW (t->ins, t->nins, t->capins);
  t->ins[t->nins++] = (int32_t) (g->nm - 1);
}

static void
sink_dep (void *ctx, int32_t from, int32_t to)
{
  struct gen *g = ctx;
  if (g->t[from].rank != g->t[to].rank || from >= to)
    {
      g->bad = 1;
      return;
    }
  struct gtask *t = &g->t[to];
  GROW (t->preds, t->npreds, t->cappreds);
  t->preds[t->npreds++] = from;
}

/* The set a task's step starts from: its predecessors' sets, or the
   rank's entry.  */
static void
pred_set (const struct gen *g, const struct gtask *t, struct depset *s)
{
  s->n = 0;
  if (t->npreds == 0)
    depset_add (s, (struct dep) { ENTRY, 0 });
  for (size_t i = 0; i < t->npreds; i++)
    {
      const struct depset *p = &g->t[t->preds[i]].set;
      for (size_t j = 0; j < p->n; j++)
        depset_add (s, p->d[j]);
    }
}

/* Expand instance I (its parts are empty) by running the generator.  */
static int
expand (struct conv *c, struct instance *I, const int32_t *members,
        int32_t P)
{
  int ci = I->call - TRACE_BARRIER;
  int64_t bytes = I->call == TRACE_BARRIER ? 0 : I->bytes;
  /* --coll, else what Open MPI 4.1 runs by default for this P and size */
  const char *algo = c->in->algo[ci], *gen = algo;
  if (!algo)
    {
      algo = coll_decide (coll_ops[ci], P, bytes);
      gen = coll_decide_fixed_run (coll_ops[ci], algo);
    }
  /* what Open MPI runs for a reduction of too few elements */
  gen = coll_decide_fallback (coll_ops[ci], gen, P, I->count);
  gen = coll_decide_generator (coll_ops[ci], gen);
  if (!gen)
    {
      snprintf (c->err, c->errsize, "%s on %d ranks, %" PRId64 " bytes: "
                "no generator for Open MPI's algorithm '%s' (choose one "
                "with --coll)", coll_ops[ci], (int) P, bytes,
                algo ? algo : "?");
      return -1;
    }
  note_used (c, ci, algo, gen);
  char name[128];
  snprintf (name, sizeof name, "coll:%s:%s", coll_ops[ci], gen);
  int rooted = I->call == TRACE_BCAST || I->call == TRACE_REDUCE
               || I->call == TRACE_GATHER || I->call == TRACE_SCATTER;
  struct dag_coll dc = { name, P, bytes, rooted ? I->root : -1, 0, 0 };
  struct gen g = { 0 };
  struct dag_sink s = { &g, sink_task, sink_msg, sink_dep, NULL };
  const char *e = dag_coll_run (&dc, &s);
  int rc = 0;
  if (e || g.bad)
    {
      snprintf (c->err, c->errsize, "%s on %d ranks: %s", name, (int) P,
                e ? e : "the generator made a dependency across ranks");
      rc = -1;
      goto out;
    }
  /* operations in message order */
  for (size_t i = 0; i < g.nm; i++)
    {
      struct gmsg *m = &g.m[i];
      int32_t sr = g.t[m->from].rank, dr = g.t[m->to].rank;
      struct op so = { OP_SEND, members[dr], m->bytes, -1,
                       (int64_t) (I - c->inst), 0, 0, 0, 0 };
      struct op ro = { OP_RECV, members[sr], m->bytes, -1,
                       (int64_t) (I - c->inst), 0, 0, 0, 0 };
      m->send_op = (int64_t) add_op (&I->part[sr], so, NULL);
      m->recv_op = (int64_t) add_op (&I->part[dr], ro, NULL);
    }
  /* the tasks' sets, in creation order (predecessors come first) */
  for (size_t i = 0; i < g.nt; i++)
    {
      struct gtask *t = &g.t[i];
      if (t->nins)
        for (size_t j = 0; j < t->nins; j++)
          depset_add (&t->set, (struct dep) { g.m[t->ins[j]].recv_op, 0 });
      else
        pred_set (&g, t, &t->set);
    }
  /* every operation's dependencies: a send after its task, a receive
     posted when its task's step begins */
  struct depset tmp = { 0 };
  for (size_t i = 0; i < g.nm; i++)
    for (int side = 0; side < 2; side++)
      {
        struct gmsg *m = &g.m[i];
        int32_t r = g.t[side ? m->to : m->from].rank;
        struct rankops *p = &I->part[r];
        struct op *o = &p->ops[side ? m->recv_op : m->send_op];
        if (side)
          pred_set (&g, &g.t[m->to], &tmp);
        else
          depset_copy (&tmp, &g.t[m->from].set);
        o->dep0 = p->nd;
        o->ndep = tmp.n;
        for (size_t j = 0; j < tmp.n; j++)
          {
            GROW (p->deps, p->nd, p->capd);
            p->deps[p->nd++] = tmp.d[j];
          }
      }
  free (tmp.d);
  /* exits: the last task's set and every send */
  for (int32_t r = 0; r < P; r++)
    {
      const struct gtask *last = NULL;
      for (size_t i = 0; i < g.nt; i++)
        if (g.t[i].rank == r)
          last = &g.t[i];
      if (last)
        depset_copy (&I->exit[r], &last->set);
      else
        depset_add (&I->exit[r], (struct dep) { ENTRY, 0 });
      const struct rankops *p = &I->part[r];
      for (size_t k = 0; k < p->n; k++)
        if (p->ops[k].kind == OP_SEND)
          depset_add (&I->exit[r], (struct dep) { (int64_t) k, 0 });
    }
out:
  gen_free (&g);
  return rc;
}

/* Splice rank-in-comm CR's part of instance I into rank R's operations,
   after STATE; the state becomes the part's exit.  */
static void
splice (struct rankops *R, const struct instance *I, int32_t cr,
        struct depset *state)
{
  const struct rankops *p = &I->part[cr];
  size_t base = R->n;
  struct depset d = { 0 };
  for (size_t k = 0; k < p->n; k++)
    {
      d.n = 0;
      for (size_t j = 0; j < p->ops[k].ndep; j++)
        {
          struct dep x = p->deps[p->ops[k].dep0 + j];
          if (x.op == ENTRY)
            for (size_t s = 0; s < state->n; s++)
              depset_add (&d, state->d[s]);
          else
            depset_add (&d, (struct dep) { (int64_t) base + x.op, 0 });
        }
      add_op (R, p->ops[k], &d);
    }
  d.n = 0;
  const struct depset *ex = &I->exit[cr];
  for (size_t j = 0; j < ex->n; j++)
    if (ex->d[j].op == ENTRY && ex->n > 1)
      continue;         /* implied: every operation of the part is after it */
    else if (ex->d[j].op == ENTRY)
      for (size_t s = 0; s < state->n; s++)
        depset_add (&d, state->d[s]);
    else
      depset_add (&d, (struct dep) { (int64_t) base + ex->d[j].op, 0 });
  depset_copy (state, &d);
  free (d.d);
}

static int
fail (struct conv *c, int32_t rank, uint64_t k, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

static int
fail (struct conv *c, int32_t rank, uint64_t k, const char *fmt, ...)
{
  int n = snprintf (c->err, c->errsize, "rank %d, record %" PRIu64 ": ",
                    (int) rank, k);
  va_list ap;
  va_start (ap, fmt);
  if (n >= 0 && (size_t) n < c->errsize)
    vsnprintf (c->err + n, c->errsize - (size_t) n, fmt, ap);
  va_end (ap);
  return -1;
}

/* ---------------------------------------------------------- one rank */

static int
is_coll (unsigned call)
{
  return coll_index (call) >= 0;
}

/* Expanded by togoal itself (conv_vcoll), not by a generator.  */
static int
is_vcoll (unsigned call)
{
  return coll_index (call) >= TOGOAL_NGEN;
}

/* The conversion of one rank's trace: its communicators (local numbers
   to world ranks), the dependencies the next operation takes, the
   operations of its pending requests.  */
struct rconv
{
  struct conv *c;
  int32_t rank;
  struct rankops *R;
  struct locals L;
  struct depset state;       /* what the next operation requires */
  struct depset sr_entry;    /* a Sendrecv's, for its receive half */
  int64_t *req;              /* request id -> operation, or -1 */
  size_t nreq;
};

/* The operation I starts a new chain: the next operation depends on it
   (NB: as a non-blocking one, irequires).  */
static void
chain (struct rconv *x, size_t i, int nb)
{
  x->state.n = 0;
  depset_add (&x->state, (struct dep) { (int64_t) i, nb });
}

/* The computation between the last call's end (*PREV_END) and record
   R's start, as a calc at the trace's printed resolution.  */
static void
conv_gap (struct rconv *x, const struct trace_record *r, uint64_t k,
          double tick, double t0, double *prev_end)
{
  double ts = (r->t_start - t0) * 1e6;
  double te = (r->t_end - t0) * 1e6;
  if (k > 0 && r->call != TRACE_MEMBER && r->call != TRACE_SENDCOUNT
      && r->call != TRACE_RECVCOUNT && ts > *prev_end)
    {
      char buf[NUM_BUFSIZE];
      num_format_measured (ts - *prev_end, tick, -1, buf);
      double gap = 0;
      if (num_parse_str (buf, &gap) == NUM_OK)
        gap *= x->c->in->scale_compute;
      if (gap > 0)
        {
          struct op o = { OP_CALC, -1, 0, -1, -1, gap, 0, 0, 0 };
          chain (x, add_op (x->R, o, &x->state), 0);
        }
    }
  if (k == 0 || te > *prev_end)
    *prev_end = te;
}

/* The communicator of a message or collective record R (numbered when
   first used for a message), in *LCP; NULL for the other records.  */
static int
conv_comm (struct rconv *x, const struct trace_record *r, uint64_t k,
           struct localcomm **lcp)
{
  *lcp = NULL;
  if (!(r->call == TRACE_SEND || r->call == TRACE_SSEND
        || r->call == TRACE_ISEND || r->call == TRACE_ISSEND
        || r->call == TRACE_RECV || r->call == TRACE_IRECV
        || r->call == TRACE_START_SEND || r->call == TRACE_START_RECV
        || r->call == TRACE_SENDRECV || r->call == TRACE_SENDRECV_RECV
        || is_coll (r->call)))
    return 0;
  struct localcomm *lc = local_get (&x->L, r->comm);
  if (!lc || !lc->members)
    return fail (x->c, x->rank, k, "%s on communicator %d, whose ranks "
                 "the trace does not give (made by an untraced call)",
                 trace_call_name (r->call), (int) r->comm);
  if (lc->number < 0 && !(is_coll (r->call) && lc->n < 2))
    local_number (x->c, &x->L, r->comm);
  *lcp = lc;
  return 0;
}

/* Send, Ssend, Recv and their non-blocking forms: a non-blocking one is
   remembered by its request for the wait that completes it.  */
static int
conv_p2p (struct rconv *x, const struct trace_record *r, uint64_t k,
          struct op o)
{
  int nb = r->call == TRACE_ISEND || r->call == TRACE_ISSEND
           || r->call == TRACE_IRECV || r->call == TRACE_START_SEND
           || r->call == TRACE_START_RECV;
  if (r->call == TRACE_RECV || r->call == TRACE_IRECV
      || r->call == TRACE_START_RECV)
    o.kind = OP_RECV;
  if (o.peer < 0 && o.kind == OP_SEND)
    return fail (x->c, x->rank, k, "%s without a destination",
                 trace_call_name (r->call));
  size_t i = add_op (x->R, o, &x->state);
  chain (x, i, nb);
  if (nb && r->request > 0)
    {
      while ((size_t) r->request >= x->nreq)
        {
          size_t n = x->nreq ? 2 * x->nreq : 64;
          x->req = xrealloc (x->req, n * sizeof *x->req);
          for (size_t j = x->nreq; j < n; j++)
            x->req[j] = -1;
          x->nreq = n;
        }
      x->req[r->request] = (int64_t) i;
    }
  return 0;
}

/* A Wait or successful Test: the next operation requires the request's
   operation; a receive takes its matched source, tag and size.  */
static void
conv_wait (struct rconv *x, const struct trace_record *r)
{
  if (!(r->flags & TRACE_R_DONE) || r->request <= 0
      || (size_t) r->request >= x->nreq || x->req[r->request] < 0)
    return;
  struct op *o = &x->R->ops[x->req[r->request]];
  if (o->kind == OP_RECV)
    {
      struct localcomm *xc = local_get (&x->L, r->comm);
      if (r->peer >= 0 && xc && xc->members && r->peer < xc->n)
        o->peer = xc->members[r->peer];
      if (r->tag >= 0)
        {
          o->tag = r->tag;
          if (r->tag > x->c->max_tag)
            x->c->max_tag = r->tag;
        }
      if (r->bytes >= 0)
        o->bytes = r->bytes;
    }
  depset_add (&x->state, (struct dep) { x->req[r->request], 0 });
  x->req[r->request] = -1;
}

/* A member row: world rank R->peer is rank R->root of communicator
   R->comm.  */
static int
conv_member (struct rconv *x, const struct trace_record *r, uint64_t k)
{
  struct localcomm *nc = local_get (&x->L, r->comm);
  if (!nc || r->root < 0 || r->peer < 0 || r->peer >= x->c->in->size)
    return fail (x->c, x->rank, k, "bad member record (comm %d, world "
                 "rank %d, rank %d)", (int) r->comm, (int) r->peer,
                 (int) r->root);
  if (r->root >= nc->n)
    {
      nc->members = xrealloc (nc->members, (size_t) (r->root + 1)
                              * sizeof *nc->members);
      for (int32_t j = nc->n; j <= r->root; j++)
        nc->members[j] = -1;
      nc->n = r->root + 1;
    }
  nc->members[r->root] = r->peer;
  return 0;
}

/* The KTH collective of communicator LC, expanded once (by its first
   rank to reach it) through the collective generators; every rank then
   checks it called the same one.  Sets *IP.  */
static int
conv_instance (struct rconv *x, const struct trace_record *r, uint64_t k,
               struct localcomm *lc, int32_t kth, struct instance **ip)
{
  struct conv *c = x->c;
  struct commkey *ck = &c->comms[lc->number];
  if ((size_t) kth >= ck->ninst)
    {
      size_t n = 2 * (size_t) kth + 8;
      ck->inst = xrealloc (ck->inst, n * sizeof *ck->inst);
      for (size_t j = ck->ninst; j < n; j++)
        ck->inst[j] = -1;
      ck->ninst = n;
    }
  struct instance *I = ck->inst[kth] >= 0 ? &c->inst[ck->inst[kth]] : NULL;
  *ip = I;
  if (!I)
    {
      GROW (c->inst, c->ninst, c->capinst);
      ck->inst[kth] = (int64_t) c->ninst;
      *ip = I = &c->inst[c->ninst++];
      *I = (struct instance) { lc->number, kth, r->call, r->root,
                               r->bytes < 0 ? 0 : r->bytes, r->aux,
                               x->rank, lc->n, NULL, NULL };
      I->part = xcalloc ((size_t) lc->n, sizeof *I->part);
      I->exit = xcalloc ((size_t) lc->n, sizeof *I->exit);
      /* the v-collectives: each rank builds its own part, from its own
         sizes (conv_vcoll) */
      if (!is_vcoll (r->call) && expand (c, I, lc->members, lc->n) != 0)
        {
          char why[256];
          snprintf (why, sizeof why, "%s", c->err);
          return fail (c, x->rank, k, "%s", why);
        }
      return 0;
    }
  if (I->call != r->call || I->root != r->root)
    {
      char a[32] = "", b[32] = "";
      if (r->root >= 0)
        snprintf (a, sizeof a, " (root %d)", (int) r->root);
      if (I->root >= 0)
        snprintf (b, sizeof b, " (root %d)", (int) I->root);
      return fail (c, x->rank, k, "%s%s where rank %d called %s%s as "
                   "collective %d on this communicator",
                   trace_call_name (r->call), a, (int) I->first_rank,
                   trace_call_name ((unsigned) I->call), b, (int) kth);
    }
  return 0;
}

/* --------------------------------------------------- v-collectives
   Gatherv, Scatterv, Allgatherv, Alltoallv, Reduce_scatter(_block),
   Scan and Exscan: each rank's part is built from its own record and
   size records, in steps (msgperf-trace(1), COLLECTIVES WITH PER-RANK
   SIZES): the operations of one step all require the previous step's
   (the first step the rank's state), and the rank's state after the
   call is its last step.  */
struct vbuild
{
  struct rconv *x;
  const int32_t *members;   /* comm rank -> world rank */
  int64_t inst;             /* the instance: the messages' tag */
  struct depset cur, next;  /* the previous step's operations; this one's */
};

static void
vb_post (struct vbuild *b, int kind, int32_t peer, int64_t bytes)
{
  struct op o = { kind, b->members[peer], bytes, -1, b->inst, 0, 0, 0, 0 };
  size_t i = add_op (b->x->R, o, &b->cur);
  depset_add (&b->next, (struct dep) { (int64_t) i, 0 });
}

static void
vb_step (struct vbuild *b)
{
  if (b->next.n == 0)
    return;
  depset_copy (&b->cur, &b->next);
  b->next.n = 0;
}

/* The size records after record K of the rank: SEND[j] and RECV[j]
   (bytes to and from comm rank j; -1 when the trace gives none).  */
static int
v_sizes (struct rconv *x, uint64_t k, int32_t P, int64_t *send,
         int64_t *recv)
{
  const struct togoal_rank *tr = &x->c->in->ranks[x->rank];
  for (int32_t j = 0; j < P; j++)
    send[j] = recv[j] = -1;
  for (uint64_t i = k + 1; i < tr->nrec; i++)
    {
      const struct trace_record *s = &tr->rec[i];
      if (s->call != TRACE_SENDCOUNT && s->call != TRACE_RECVCOUNT)
        break;
      if (s->peer < 0 || s->peer >= P)
        return fail (x->c, x->rank, i, "%s of rank %d after a %d-rank "
                     "%s", trace_call_name (s->call), (int) s->peer,
                     (int) P, trace_call_name (tr->rec[k].call));
      (s->call == TRACE_SENDCOUNT ? send : recv)[s->peer] = s->bytes;
    }
  return 0;
}

/* The sizes V[j] of every rank j but SKIP (-1: none), which the call
   WHAT needs: an error names the first missing one.  */
static int
v_need (struct rconv *x, uint64_t k, const int64_t *v, int32_t P,
        int32_t skip, const char *what)
{
  for (int32_t j = 0; j < P; j++)
    if (j != skip && v[j] < 0)
      return fail (x->c, x->rank, k, "%s without the %s of rank %d",
                   trace_call_name (x->c->in->ranks[x->rank].rec[k].call),
                   what, (int) j);
  return 0;
}

/* Linear gather to (scatter from) ROOT: the root receives from (sends
   to) each other rank in rank order, one at a time; a zero block is no
   message.  */
static int
v_rooted (struct vbuild *b, uint64_t k, int32_t P, int32_t cr, int32_t root,
          int64_t own, const int64_t *v, int gather)
{
  if (root < 0 || root >= P)
    return fail (b->x->c, b->x->rank, k, "root %d of a %d-rank "
                 "communicator", (int) root, (int) P);
  if (cr != root)
    {
      if (own > 0)
        vb_post (b, gather ? OP_SEND : OP_RECV, root, own);
      vb_step (b);
      return 0;
    }
  int rc = v_need (b->x, k, v, P, root, gather ? "receive size"
                                               : "send size");
  for (int32_t j = 0; j < P && rc == 0; j++)
    if (j != root && v[j] > 0)
      {
        vb_post (b, gather ? OP_RECV : OP_SEND, j, v[j]);
        vb_step (b);
      }
  return rc;
}

/* Alltoallv: basic_linear (every receive, then every send, at once;
   zero sizes not sent) or pairwise (step s: to cr + s, from cr - s, zero
   sizes sent too).  */
static void
v_alltoallv (struct vbuild *b, int32_t P, int32_t cr, const int64_t *send,
             const int64_t *recv, int pairwise)
{
  if (pairwise)
    {
      for (int32_t s = 1; s < P; s++)
        {
          vb_post (b, OP_SEND, (cr + s) % P, send[(cr + s) % P]);
          vb_post (b, OP_RECV, (cr - s + P) % P, recv[(cr - s + P) % P]);
          vb_step (b);
        }
      return;
    }
  for (int32_t j = 0; j < P; j++)
    if (j != cr && recv[j] > 0)
      vb_post (b, OP_RECV, j, recv[j]);
  for (int32_t j = 0; j < P; j++)
    if (j != cr && send[j] > 0)
      vb_post (b, OP_SEND, j, send[j]);
  vb_step (b);
}

/* ----- Open MPI 4.1's algorithms for Allgatherv, Reduce_scatter(_block)
   (msgperf-trace(1) gives each one's messages).  A Sendrecv is one step
   of a send and a receive; a message of no bytes is sent where Open MPI
   sends one.  */

/* V[lo] + ... + V[hi].  */
static int64_t
v_sum (const int64_t *v, int32_t lo, int32_t hi)
{
  int64_t s = 0;
  for (int32_t i = lo; i <= hi; i++)
    s += v[i];
  return s;
}

/* The largest power of two <= P (P >= 1).  */
static int32_t
v_pof2 (int32_t P)
{
  int32_t p = 1;
  while (p <= P / 2)
    p *= 2;
  return p;
}

/* X's low BITS bits in reverse order.  */
static int32_t
v_mirror (int32_t x, int bits)
{
  int32_t m = 0;
  for (int i = 0; i < bits; i++)
    m |= ((x >> i) & 1) << (bits - 1 - i);
  return m;
}

/* When P is not a power of two, the first 2 REM ranks pair up, the odd
   one of each pair standing for both: virtual rank V is rank 2 V + 1
   below REM, V + REM above.  */
static int32_t
v_real (int32_t v, int32_t rem)
{
  return v < rem ? 2 * v + 1 : v + rem;
}

/* The bytes of virtual blocks LO..HI: those of the ranks they stand
   for.  */
static int64_t
v_vsum (const int64_t *block, int32_t rem, int32_t lo, int32_t hi)
{
  return v_sum (block, lo < rem ? 2 * lo : lo + rem,
                hi < rem ? 2 * hi + 1 : hi + rem);
}

/* The folding step of the first 2 REM ranks: the even one sends its
   whole vector (TOTAL bytes) to the odd one.  Rank CR's virtual rank,
   -1 for the even ones, which then wait for the result.  */
static int32_t
v_fold (struct vbuild *b, int32_t cr, int32_t rem, int64_t total)
{
  if (cr >= 2 * rem)
    return cr - rem;
  vb_post (b, cr % 2 ? OP_RECV : OP_SEND, cr % 2 ? cr - 1 : cr + 1, total);
  vb_step (b);
  return cr % 2 ? cr / 2 : -1;
}

/* Rank CR's messages in the dag_coll expansion of OP (bcast, reduce or
   scatter) that Open MPI 4.1's rule picks for P ranks, BYTES and ROOT
   (its decision of the call made inside Allgatherv default,
   Reduce_scatter non-overlapping and Reduce_scatter_block
   basic_linear): per task of the rank in order, its receives in one
   step, then its sends in one.  */
static int
vb_generated (struct vbuild *b, uint64_t k, const char *op, int32_t P,
              int32_t cr, int64_t bytes, int32_t root)
{
  const char *algo = coll_decide (op, P, bytes);
  const char *gen = coll_decide_generator (op,
                                           coll_decide_fixed_run (op, algo));
  if (!gen)
    return fail (b->x->c, b->x->rank, k, "%s on %d ranks, %" PRId64
                 " bytes: no generator for Open MPI's algorithm '%s'", op,
                 (int) P, bytes, algo ? algo : "?");
  char name[128];
  snprintf (name, sizeof name, "coll:%s:%s", op, gen);
  struct dag_coll dc = { name, P, bytes, root, 0, 0 };
  struct gen g = { 0 };
  struct dag_sink s = { &g, sink_task, sink_msg, sink_dep, NULL };
  const char *e = dag_coll_run (&dc, &s);
  int rc = 0;
  if (e)
    rc = fail (b->x->c, b->x->rank, k, "%s on %d ranks: %s", name, (int) P,
               e);
  for (size_t t = 0; t < g.nt && rc == 0; t++)
    if (g.t[t].rank == cr)
      {
        for (size_t i = 0; i < g.t[t].nins; i++)
          {
            const struct gmsg *m = &g.m[g.t[t].ins[i]];
            vb_post (b, OP_RECV, g.t[m->from].rank, m->bytes);
          }
        vb_step (b);
        for (size_t i = 0; i < g.nm; i++)
          if (g.m[i].from == (int32_t) t)
            vb_post (b, OP_SEND, g.t[g.m[i].to].rank, g.m[i].bytes);
        vb_step (b);
      }
  gen_free (&g);
  return rc;
}

/* Allgatherv ring: step s sends block cr - s to cr + 1 and receives
   block cr - s - 1 from cr - 1.  */
static void
v_allgatherv_ring (struct vbuild *b, int32_t P, int32_t cr,
                   const int64_t *block)
{
  for (int32_t s = 0; s < P - 1; s++)
    {
      vb_post (b, OP_SEND, (cr + 1) % P, block[(cr - s + P) % P]);
      vb_post (b, OP_RECV, (cr - 1 + P) % P,
               block[(cr - s - 1 + 2 * P) % P]);
      vb_step (b);
    }
}

/* Allgatherv linear: every block to and from every rank at once, the
   empty ones not sent.  */
static void
v_allgatherv_linear (struct vbuild *b, int32_t P, int32_t cr,
                     const int64_t *block)
{
  for (int32_t j = 0; j < P; j++)
    if (j != cr)
      {
        if (block[j] > 0)
          vb_post (b, OP_RECV, j, block[j]);
        if (block[cr] > 0)
          vb_post (b, OP_SEND, j, block[cr]);
      }
  vb_step (b);
}

/* Allgatherv bruck: at distance d = 1, 2, 4, ... < P, blocks cr ..
   cr + n - 1 to cr - d and blocks cr + d .. cr + d + n - 1 from cr + d,
   n = d, or P - d in the last step when d > P / 2.  */
static void
v_allgatherv_bruck (struct vbuild *b, int32_t P, int32_t cr,
                    const int64_t *block)
{
  for (int32_t d = 1; d < P; d *= 2)
    {
      int32_t n = d <= P / 2 ? d : P - d;
      int64_t out = 0, in = 0;
      for (int32_t i = 0; i < n; i++)
        {
          out += block[(cr + i) % P];
          in += block[(cr + d + i) % P];
        }
      vb_post (b, OP_SEND, (cr - d + P) % P, out);
      vb_post (b, OP_RECV, (cr + d) % P, in);
      vb_step (b);
    }
}

/* Allgatherv neighbor exchange (even P; Open MPI runs the ring on odd
   P): an even rank's neighbours are cr + 1 then cr - 1, an odd rank's
   cr - 1 then cr + 1, used in turn.  Step 0 swaps the own blocks with
   the first; each of the P / 2 - 1 steps after sends the pair of blocks
   received in the step before (an even rank's own pair first) and
   receives the next pair, whose first block moves by 2 (up through an
   even rank's first neighbour, down through its second; the reverse
   for an odd rank).  */
static void
v_allgatherv_neighbor (struct vbuild *b, int32_t P, int32_t cr,
                       const int64_t *block)
{
  int even = cr % 2 == 0;
  int32_t nb[2], from[2], step[2], sendfrom;
  nb[0] = even ? (cr + 1) % P : (cr - 1 + P) % P;
  nb[1] = even ? (cr - 1 + P) % P : (cr + 1) % P;
  from[0] = from[1] = sendfrom = even ? cr : nb[0];
  step[0] = even ? 2 : -2;
  step[1] = -step[0];
  vb_post (b, OP_SEND, nb[0], block[cr]);
  vb_post (b, OP_RECV, nb[0], block[nb[0]]);
  vb_step (b);
  for (int32_t i = 1; i < P / 2; i++)
    {
      int p = i % 2;
      from[p] = (from[p] + step[p] + P) % P;
      vb_post (b, OP_SEND, nb[p], block[sendfrom] + block[sendfrom + 1]);
      vb_post (b, OP_RECV, nb[p], block[from[p]] + block[from[p] + 1]);
      vb_step (b);
      sendfrom = from[p];
    }
}

/* Allgatherv default: a linear Gatherv to rank 0 (OWN bytes from each
   rank), then a Bcast of all the blocks from rank 0 with the algorithm
   Open MPI 4.1's rule picks for their total.  */
static int
v_allgatherv_default (struct vbuild *b, uint64_t k, int32_t P, int32_t cr,
                      int64_t own, const int64_t *block)
{
  int rc = v_rooted (b, k, P, cr, 0, own, block, 1);
  int64_t total = v_sum (block, 0, P - 1);
  if (rc == 0 && total > 0)
    rc = vb_generated (b, k, "bcast", P, cr, total, 0);
  return rc;
}

/* Reduce_scatter linear: a linear reduce of the whole vector (the sum
   of the blocks) to rank 0, which receives from P - 1 down to 1, then a
   linear scatter of rank j's block BLOCK[j] from rank 0.  */
static void
v_rs_linear (struct vbuild *b, int32_t P, int32_t cr, const int64_t *block)
{
  int64_t total = v_sum (block, 0, P - 1);
  if (total <= 0)
    return;
  if (cr == 0)
    {
      for (int32_t j = P - 1; j > 0; j--)
        {
          vb_post (b, OP_RECV, j, total);
          vb_step (b);
        }
      for (int32_t j = 1; j < P; j++)
        if (block[j] > 0)
          {
            vb_post (b, OP_SEND, j, block[j]);
            vb_step (b);
          }
      return;
    }
  vb_post (b, OP_SEND, 0, total);
  vb_step (b);
  if (block[cr] > 0)
    vb_post (b, OP_RECV, 0, block[cr]);
  vb_step (b);
}

/* Reduce_scatter non-overlapping: a Reduce of the whole vector to rank
   0 with the algorithm Open MPI 4.1's rule picks for it, then a linear
   Scatterv from rank 0.  */
static int
v_rs_nonoverlapping (struct vbuild *b, uint64_t k, int32_t P, int32_t cr,
                     const int64_t *block)
{
  int64_t total = v_sum (block, 0, P - 1);
  int rc = 0;
  if (total > 0)
    rc = vb_generated (b, k, "reduce", P, cr, total, 0);
  if (rc == 0)
    rc = v_rooted (b, k, P, cr, 0, block[cr], block, 0);
  return rc;
}

/* Reduce_scatter(_block) recursive halving: after the folding step,
   each of the log2 steps exchanges with virtual rank vr ^ mask (mask =
   pof2 / 2, ..., 1) the half of the current range of virtual blocks
   the partner keeps (the upper half to a higher partner) for the other
   half, empty halves not sent; then the odd rank of each folded pair
   sends the even one its block.  Nothing when every block is empty.  */
static void
v_rs_halving (struct vbuild *b, int32_t P, int32_t cr, const int64_t *block)
{
  int64_t total = v_sum (block, 0, P - 1);
  if (total <= 0)
    return;
  int32_t pof2 = v_pof2 (P), rem = P - pof2;
  int32_t vr = v_fold (b, cr, rem, total);
  int32_t si = 0, ri = 0, last = pof2;
  for (int32_t mask = pof2 / 2; vr >= 0 && mask > 0; mask /= 2)
    {
      int32_t vp = vr ^ mask;
      int64_t sc, rc;
      if (vr < vp)
        {
          si = ri + mask;
          sc = v_vsum (block, rem, si, last - 1);
          rc = v_vsum (block, rem, ri, si - 1);
        }
      else
        {
          ri = si + mask;
          sc = v_vsum (block, rem, si, ri - 1);
          rc = v_vsum (block, rem, ri, last - 1);
        }
      if (rc > 0)
        vb_post (b, OP_RECV, v_real (vp, rem), rc);
      if (sc > 0)
        vb_post (b, OP_SEND, v_real (vp, rem), sc);
      vb_step (b);
      si = ri;
      last = ri + mask;
    }
  if (cr < 2 * rem)
    {
      if (cr % 2 == 0 && block[cr] > 0)
        vb_post (b, OP_RECV, cr + 1, block[cr]);
      if (cr % 2 == 1 && block[cr - 1] > 0)
        vb_post (b, OP_SEND, cr - 1, block[cr - 1]);
      vb_step (b);
    }
}

/* Reduce_scatter ring: step s (0 .. P - 2) sends block cr - 1 - s to
   cr + 1 and receives block cr - 2 - s from cr - 1, empty blocks sent
   too; the last one received is the rank's own.  */
static void
v_rs_ring (struct vbuild *b, int32_t P, int32_t cr, const int64_t *block)
{
  for (int32_t s = 0; s < P - 1; s++)
    {
      vb_post (b, OP_SEND, (cr + 1) % P, block[(cr - 1 - s + 2 * P) % P]);
      vb_post (b, OP_RECV, (cr - 1 + P) % P,
               block[(cr - 2 - s + 2 * P) % P]);
      vb_step (b);
    }
}

/* Reduce_scatter(_block) butterfly: after the folding step, step mask
   = 1, 2, ..., pof2 / 2 swaps with virtual rank vr ^ mask half of the
   current range of virtual blocks (the upper half sent when bit mask of
   vr is 0), both halves sent even when empty; then the range left is
   the virtual block mirror(vr) (vr's bits reversed): if it stands for a
   folded pair, the even rank's block goes to it, and unless it is vr's
   own the rank swaps it for its own block with rank mirror(vr).  A
   folded even rank receives its block from the rank of mirror(cr / 2).
   (Reduce_scatter_block on a power of two uses v_rsb_butterfly_pof2.) */
static void
v_rs_butterfly (struct vbuild *b, int32_t P, int32_t cr,
                const int64_t *block)
{
  int32_t pof2 = v_pof2 (P), rem = P - pof2, bits = 0;
  while ((1 << bits) < pof2)
    bits++;
  int32_t vr = v_fold (b, cr, rem, v_sum (block, 0, P - 1));
  if (vr < 0)
    {
      vb_post (b, OP_RECV, v_real (v_mirror (cr / 2, bits), rem), block[cr]);
      vb_step (b);
      return;
    }
  int32_t n = pof2, si = 0, ri = 0;
  for (int32_t mask = 1; mask < pof2; mask *= 2)
    {
      int32_t peer = v_real (vr ^ mask, rem);
      n /= 2;
      if ((vr & mask) == 0)
        si += n;
      else
        ri += n;
      vb_post (b, OP_SEND, peer, v_vsum (block, rem, si, si + n - 1));
      vb_post (b, OP_RECV, peer, v_vsum (block, rem, ri, ri + n - 1));
      vb_step (b);
      si = ri;
    }
  int32_t vp = v_mirror (vr, bits), peer = v_real (vp, rem);
  int32_t idx = si < rem ? 2 * si : rem + si;
  if (vp < rem)
    {
      vb_post (b, OP_SEND, peer - 1, block[idx]);
      vb_step (b);
      idx++;
    }
  if (vp != vr)
    {
      vb_post (b, OP_SEND, peer, block[idx]);
      vb_post (b, OP_RECV, peer, block[cr]);
      vb_step (b);
    }
}

/* Reduce_scatter_block butterfly on a power of two P: the blocks are
   put in bit-reversed order first, so step mask = 1, 2, ..., P / 2
   swaps half of what is left, P BLOCK / (2 mask) bytes each way, with
   cr ^ mask, and nothing follows.  */
static void
v_rsb_butterfly_pof2 (struct vbuild *b, int32_t P, int32_t cr,
                      int64_t block)
{
  for (int32_t mask = 1; mask < P; mask *= 2)
    {
      vb_post (b, OP_SEND, cr ^ mask, P * block / (2 * mask));
      vb_post (b, OP_RECV, cr ^ mask, P * block / (2 * mask));
      vb_step (b);
    }
}

/* Reduce_scatter_block recursive doubling: step mask = 1, 2, 4, ... < P
   swaps with cr ^ mask (when that rank exists) every block outside the
   sender's subtree of size mask (the ranks with the same cr / mask),
   BLOCK bytes each; where the partner's subtree runs past P, the ranks
   of the subtree that did swap pass what they received on, one
   recursive-halving step at a time, to those that did not.  */
static void
v_rsb_doubling (struct vbuild *b, int32_t P, int32_t cr, int64_t block)
{
  for (int32_t mask = 1; mask < P; mask *= 2)
    {
      int32_t remote = cr ^ mask;
      int32_t ct = cr - cr % mask, rt = remote - remote % mask;
      int64_t sb = block * ct + (P >= ct + mask ? block * (P - ct - mask) : 0);
      int64_t rb = block * rt + (P >= rt + mask ? block * (P - rt - mask) : 0);
      if (remote < P)
        {
          vb_post (b, OP_SEND, remote, sb);
          vb_post (b, OP_RECV, remote, rb);
          vb_step (b);
        }
      if (rt + mask <= P)
        continue;
      int32_t have = P - ct - mask;
      for (int32_t h = mask / 2; h > 0; h /= 2)
        {
          int32_t r2 = cr ^ h, tr = cr - cr % (2 * h);
          if (r2 > cr && cr < tr + have && r2 >= tr + have)
            vb_post (b, OP_SEND, r2, rb);
          else if (r2 < cr && r2 < tr + have && cr >= tr + have)
            vb_post (b, OP_RECV, r2, rb);
          vb_step (b);
        }
    }
}

/* Reduce_scatter_block basic_linear: a Reduce of the whole vector (P
   BLOCK bytes) to rank 0, then a Scatter of BLOCK bytes from rank 0,
   each with the algorithm Open MPI 4.1's rule picks for it.  */
static int
v_rsb_linear (struct vbuild *b, uint64_t k, int32_t P, int32_t cr,
              int64_t block)
{
  int rc = vb_generated (b, k, "reduce", P, cr, P * block, 0);
  if (rc == 0)
    rc = vb_generated (b, k, "scatter", P, cr, block, 0);
  return rc;
}

/* Scan and Exscan: the linear chain, rank cr - 1 to cr.  */
static void
v_scan (struct vbuild *b, int32_t P, int32_t cr, int64_t bytes)
{
  if (bytes <= 0)
    return;
  if (cr > 0)
    vb_post (b, OP_RECV, cr - 1, bytes);
  vb_step (b);
  if (cr < P - 1)
    vb_post (b, OP_SEND, cr + 1, bytes);
  vb_step (b);
}

/* The size Open MPI 4.1's rule for the v-collective CALL looks at: a
   rank's mean block, the total over P rounded down (Allgatherv), the
   whole vector (Reduce_scatter), a rank's block OWN
   (Reduce_scatter_block); 0 for the others.  */
static int64_t
v_rule_bytes (unsigned call, int32_t P, int64_t own, const int64_t *recv)
{
  if (call == TRACE_ALLGATHERV)
    return v_sum (recv, 0, P - 1) / P;
  if (call == TRACE_REDUCE_SCATTER)
    return v_sum (recv, 0, P - 1);
  if (call == TRACE_REDUCE_SCATTER_BLOCK)
    return own;
  return 0;
}

/* Rank CR's part of v-collective CALL (record K) with algorithm ALGO.  */
static int
v_expand (struct vbuild *b, uint64_t k, unsigned call, const char *algo,
          int32_t P, int32_t cr, int32_t root, int64_t own,
          const int64_t *send, const int64_t *recv)
{
  int rc = 0;
  switch (call)
    {
    case TRACE_GATHERV:
      return v_rooted (b, k, P, cr, root, own, recv, 1);
    case TRACE_SCATTERV:
      return v_rooted (b, k, P, cr, root, own, send, 0);
    case TRACE_ALLGATHERV:
      if (strcmp (algo, "two_proc") == 0 && P != 2)
        return fail (b->x->c, b->x->rank, k, "allgatherv two_proc on %d "
                     "ranks (Open MPI runs it on 2 only)", (int) P);
      if (strcmp (algo, "linear") == 0)
        v_allgatherv_linear (b, P, cr, recv);
      else if (strcmp (algo, "default") == 0)
        rc = v_allgatherv_default (b, k, P, cr, own, recv);
      else if (strcmp (algo, "bruck") == 0)
        v_allgatherv_bruck (b, P, cr, recv);
      else if (strcmp (algo, "neighbor") == 0 && P % 2 == 0)
        v_allgatherv_neighbor (b, P, cr, recv);
      else
        v_allgatherv_ring (b, P, cr, recv);
      return rc;
    case TRACE_ALLTOALLV:
      v_alltoallv (b, P, cr, send, recv, strcmp (algo, "pairwise") == 0);
      return 0;
    case TRACE_REDUCE_SCATTER:
    case TRACE_REDUCE_SCATTER_BLOCK:
      if (strcmp (algo, "linear") == 0)
        v_rs_linear (b, P, cr, recv);
      else if (strcmp (algo, "non-overlapping") == 0)
        rc = v_rs_nonoverlapping (b, k, P, cr, recv);
      else if (strcmp (algo, "recursive_halving") == 0)
        v_rs_halving (b, P, cr, recv);
      else if (strcmp (algo, "ring") == 0)
        v_rs_ring (b, P, cr, recv);
      else if (call == TRACE_REDUCE_SCATTER)
        v_rs_butterfly (b, P, cr, recv);
      /* Reduce_scatter_block: nothing for empty blocks */
      else if (own <= 0)
        ;
      else if (strcmp (algo, "basic_linear") == 0)
        rc = v_rsb_linear (b, k, P, cr, own);
      else if (strcmp (algo, "recursive_doubling") == 0)
        v_rsb_doubling (b, P, cr, own);
      else if ((P & (P - 1)) == 0)
        v_rsb_butterfly_pof2 (b, P, cr, own);
      else
        v_rs_butterfly (b, P, cr, recv);
      return rc;
    case TRACE_SCAN: case TRACE_EXSCAN:
      v_scan (b, P, cr, own);
      return 0;
    default:
      return 0;
    }
}

/* The sizes v-collective CALL (record K) needs, there.  */
static int
v_check (struct rconv *x, uint64_t k, unsigned call, int32_t P, int32_t cr,
         const int64_t *send, const int64_t *recv)
{
  int rc = 0;
  if (call == TRACE_ALLGATHERV || call == TRACE_REDUCE_SCATTER)
    rc = v_need (x, k, recv, P, -1, "receive size");
  if (call == TRACE_ALLTOALLV)
    {
      rc = v_need (x, k, send, P, cr, "send size");
      if (rc == 0)
        rc = v_need (x, k, recv, P, cr, "receive size");
    }
  return rc;
}

/* Rank CR's part of the v-collective R (record K), instance INST.  */
static int
conv_vcoll (struct rconv *x, const struct trace_record *r, uint64_t k,
            const struct localcomm *lc, int32_t cr, int64_t inst)
{
  int32_t P = lc->n;
  int ci = coll_index (r->call);
  int64_t *send = xmalloc (2 * (size_t) P * sizeof *send);
  int64_t *recv = send + P;
  struct vbuild b = { x, lc->members, inst, { 0 }, { 0 } };
  depset_copy (&b.cur, &x->state);
  int64_t own = r->bytes < 0 ? 0 : r->bytes;
  int rc = v_sizes (x, k, P, send, recv);
  if (rc == 0)
    rc = v_check (x, k, r->call, P, cr, send, recv);
  if (rc == 0)
    {
      if (r->call == TRACE_REDUCE_SCATTER_BLOCK)
        for (int32_t j = 0; j < P; j++)
          recv[j] = own;
      /* --coll; else Open MPI 4.1's rule where there is one, else the
         first of togoal's */
      const char *algo = x->c->in->algo[ci];
      if (!algo)
        algo = coll_decide (coll_ops[ci], P,
                            v_rule_bytes (r->call, P, own, recv));
      if (!algo)
        algo = togoal_coll_algos (ci)[0];
      /* Open MPI runs neighbor exchange on an even P only */
      int odd = r->call == TRACE_ALLGATHERV && P % 2
                && strcmp (algo, "neighbor") == 0;
      note_used (x->c, ci, algo, odd ? "ring" : algo);
      rc = v_expand (&b, k, r->call, algo, P, cr, r->root, own, send, recv);
    }
  if (rc == 0)
    depset_copy (&x->state, &b.cur);
  free (send);
  free (b.cur.d);
  free (b.next.d);
  return rc;
}

/* A collective: this rank's part of its expansion spliced in.  */
static int
conv_collective (struct rconv *x, const struct trace_record *r, uint64_t k,
                 struct localcomm *lc)
{
  int32_t cr = -1;
  for (int32_t j = 0; j < lc->n; j++)
    if (lc->members[j] == x->rank)
      cr = j;
  if (cr < 0)
    return fail (x->c, x->rank, k, "%s on communicator %d, of which the "
                 "rank is not a member", trace_call_name (r->call),
                 (int) r->comm);
  int32_t kth = lc->ncoll++;
  if (lc->n < 2)
    return 0;        /* alone: no message */
  struct instance *I;
  int rc = conv_instance (x, r, k, lc, kth, &I);
  if (rc)
    return rc;
  if (is_vcoll (r->call))
    return conv_vcoll (x, r, k, lc, cr, (int64_t) (I - x->c->inst));
  splice (x->R, I, cr, &x->state);
  /* each member splices its part once */
  free (I->part[cr].ops);
  free (I->part[cr].deps);
  free (I->exit[cr].d);
  I->part[cr] = (struct rankops) { 0 };
  I->exit[cr] = (struct depset) { 0 };
  return 0;
}

/* One record R (the K-th of the rank) into operations.  */
static int
conv_record (struct rconv *x, const struct trace_record *r, uint64_t k)
{
  struct localcomm *lc;
  int rc = conv_comm (x, r, k, &lc);
  if (rc)
    return rc;
  int32_t peer = -1;
  if (lc && !is_coll (r->call) && r->peer >= 0)
    {
      if (r->peer >= lc->n)
        return fail (x->c, x->rank, k, "peer %d is not a rank of "
                     "communicator %d (%d ranks)", (int) r->peer,
                     (int) r->comm, (int) lc->n);
      peer = lc->members[r->peer];
    }
  if (lc && !is_coll (r->call) && r->tag > x->c->max_tag)
    x->c->max_tag = r->tag;
  struct op o = { OP_SEND, peer, r->bytes < 0 ? 0 : r->bytes,
                  lc ? lc->number : -1, r->tag, 0, 0, 0, 0 };
  /* MPI_PROC_NULL (a negative rank other than MPI_ANY_SOURCE's -1): no
     message */
  if (lc && !is_coll (r->call) && r->peer < -1)
    {
      if (r->call == TRACE_SENDRECV)
        depset_copy (&x->sr_entry, &x->state);
      return 0;
    }
  switch (r->call)
    {
    case TRACE_SEND: case TRACE_SSEND:
    case TRACE_RECV:
    case TRACE_ISEND: case TRACE_ISSEND: case TRACE_IRECV:
    case TRACE_START_SEND: case TRACE_START_RECV:
      return conv_p2p (x, r, k, o);
    case TRACE_SENDRECV:
      depset_copy (&x->sr_entry, &x->state);
      chain (x, add_op (x->R, o, &x->state), 0);
      return 0;
    case TRACE_SENDRECV_RECV:
      o.kind = OP_RECV;
      depset_add (&x->state,
                  (struct dep) { (int64_t) add_op (x->R, o, &x->sr_entry),
                                 0 });
      return 0;
    case TRACE_WAIT: case TRACE_WAITALL: case TRACE_WAITANY:
    case TRACE_WAITSOME: case TRACE_TEST: case TRACE_TESTALL:
    case TRACE_TESTANY: case TRACE_TESTSOME:
      conv_wait (x, r);
      return 0;
    case TRACE_COMM_SPLIT: case TRACE_COMM_DUP: case TRACE_CART_CREATE:
    case TRACE_COMM_CREATE:
      if (r->aux >= 0)
        {
          struct localcomm *nc = local_get (&x->L, r->aux);
          free (nc->members);
          *nc = (struct localcomm) { NULL, 0, -1, 0 };
        }
      return 0;
    case TRACE_MEMBER:
      return conv_member (x, r, k);
    default:
      /* init, finalize, probes, abort make nothing */
      return is_coll (r->call) ? conv_collective (x, r, k, lc) : 0;
    }
}

static int
convert_rank (struct conv *c, int32_t rank, struct rankops *R)
{
  const struct togoal_rank *tr = &c->in->ranks[rank];
  if (!tr->h)
    return 0;
  int32_t P = c->in->size;
  double tick = tr->h->wtick > 0 ? tr->h->wtick * 1e6 : 0;
  struct rconv x = { .c = c, .rank = rank, .R = R, .L = { NULL, 0 } };
  struct localcomm *w = local_get (&x.L, 0);
  w->members = xmalloc ((size_t) P * sizeof *w->members);
  w->n = P;
  for (int32_t i = 0; i < P; i++)
    w->members[i] = i;
  local_number (c, &x.L, 0);
  struct localcomm *self = local_get (&x.L, 1);
  self->members = xmalloc (sizeof *self->members);
  self->members[0] = rank;
  self->n = 1;

  double prev_end = 0;
  int rc = 0;
  for (uint64_t k = 0; k < tr->nrec && rc == 0; k++)
    {
      const struct trace_record *r = &tr->rec[k];
      R->cur = k;
      /* compute before the call */
      conv_gap (&x, r, k, tick, tr->h->t0, &prev_end);
      rc = conv_record (&x, r, k);
    }
  for (size_t i = 0; i < x.L.n; i++)
    free (x.L.c[i].members);
  free (x.L.c);
  free (x.req);
  free (x.state.d);
  free (x.sr_entry.d);
  return rc;
}

/* ---------------------------------------------------- partial traces */

struct msgkey
{
  int32_t src, dst, kind, rank;
  int64_t tag;
  size_t op;
};

static int
msgkey_cmp (const void *a, const void *b)
{
  const struct msgkey *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
  CMP (src); CMP (dst); CMP (tag); CMP (kind); CMP (op);
#undef CMP
  return 0;
}

static int64_t
goal_tag (const struct op *o, int64_t T, int64_t B)
{
  return o->comm >= 0 ? (o->tag < 0 ? -1 : o->comm * T + o->tag)
                      : B + o->tag;
}

/* Cut every rank's operations before its first message without a
   partner (in MPI order: the k-th send from s to d with tag t matches
   the k-th such receive), again until none is left.  Receives with a
   wildcard source or tag match anything and are kept.  Operations only
   depend on earlier ones, so what stays is a schedule.  */
static void
cut_unmatched (struct rankops *R, int32_t P, int64_t T, int64_t B,
               uint64_t *cut)
{
  size_t *keep = xmalloc ((size_t) P * sizeof *keep);
  for (int32_t r = 0; r < P; r++)
    keep[r] = R[r].n;
  struct msgkey *k = NULL;
  size_t cap = 0;
  for (int changed = 1; changed;)
    {
      changed = 0;
      size_t n = 0;
      for (int32_t r = 0; r < P; r++)
        for (size_t i = 0; i < keep[r]; i++)
          {
            const struct op *o = &R[r].ops[i];
            int64_t tag = goal_tag (o, T, B);
            if (o->kind == OP_CALC || o->peer < 0 || tag < 0)
              continue;
            GROW (k, n, cap);
            k[n++] = (struct msgkey) {
              o->kind == OP_SEND ? r : o->peer,
              o->kind == OP_SEND ? o->peer : r, o->kind, r, tag, i };
          }
      qsort (k, n, sizeof *k, msgkey_cmp);
      for (size_t a = 0; a < n;)
        {
          size_t b = a, ns = 0, nr = 0;
          while (b < n && k[b].src == k[a].src && k[b].dst == k[a].dst
                 && k[b].tag == k[a].tag)
            {
              if (k[b].kind == OP_SEND)
                ns++;
              else
                nr++;
              b++;
            }
          /* sends first (OP_SEND < OP_RECV), each side in rank order */
          for (size_t j = a; j < b; j++)
            {
              size_t ord = j < a + ns ? j - a : j - a - ns;
              size_t other = k[j].kind == OP_SEND ? nr : ns;
              if (ord >= other && k[j].op < keep[k[j].rank])
                {
                  keep[k[j].rank] = k[j].op;
                  changed = 1;
                }
            }
          a = b;
        }
    }
  for (int32_t r = 0; r < P; r++)
    {
      cut[r] = R[r].n - keep[r];
      R[r].n = keep[r];
    }
  free (k);
  free (keep);
}

/* ------------------------------------------------------------ output */

static const char *
label (const struct op *o, size_t i, char *buf, size_t n)
{
  snprintf (buf, n, "%c%zu", o->kind == OP_CALC ? 'c'
            : o->kind == OP_SEND ? 's' : 'r', i);
  return buf;
}

int
togoal_write (FILE *out, const struct togoal_input *in, char *err,
              size_t errsize)
{
  struct conv c = { .in = in, .max_tag = 0, .err = err,
                    .errsize = errsize };
  int32_t P = in->size;
  struct rankops *R = xcalloc ((size_t) P, sizeof *R);
  int rc = 0;
  for (int32_t r = 0; r < P && rc == 0; r++)
    rc = convert_rank (&c, r, &R[r]);
  int64_t T = 10;
  while (rc == 0 && T <= c.max_tag)
    T *= 10;
  const int64_t tag_max = INT64_C (2147483646);
  int64_t B = (int64_t) c.ncomms * T;
  if (rc == 0 && (B > tag_max || B + (int64_t) c.ninst > tag_max))
    {
      snprintf (err, errsize, "%zu communicators with tags up to %" PRId64
                " and %zu collective calls need tags beyond 2^31 - 2",
                c.ncomms, c.max_tag, c.ninst);
      rc = -1;
    }
  if (rc == 0 && in->cut)
    cut_unmatched (R, P, T, B, in->cut);
  if (in->used && in->usedsize)
    {
      in->used[0] = '\0';
      for (size_t i = 0; i < c.nused; i++)
        {
          size_t l = strlen (in->used);
          if (strcmp (c.used[i].algo, c.used[i].gen) == 0)
            snprintf (in->used + l, in->usedsize - l, "%s%s=%s", l ? " " : "",
                      coll_ops[c.used[i].op], c.used[i].algo);
          else
            snprintf (in->used + l, in->usedsize - l, "%s%s=%s(as %s)",
                      l ? " " : "", coll_ops[c.used[i].op], c.used[i].algo,
                      c.used[i].gen);
        }
    }
  if (rc == 0)
    {
      fprintf (out, "num_ranks %d\n", (int) P);
      for (int32_t r = 0; r < P; r++)
        {
          fprintf (out, "rank %d {\n", (int) r);
          const struct rankops *p = &R[r];
          for (size_t i = 0; i < p->n; i++)
            {
              const struct op *o = &p->ops[i];
              char a[32], b[32], num[NUM_BUFSIZE];
              label (o, i, a, sizeof a);
              int64_t tag = goal_tag (o, T, B);
              if (o->kind == OP_CALC)
                {
                  num_format (o->calc, in->precision, num);
                  fprintf (out, "%s: calc %s\n", a, num);
                }
              else if (o->kind == OP_SEND)
                fprintf (out, "%s: send %" PRId64 "b to %d tag %" PRId64
                         "\n", a, o->bytes, (int) o->peer, tag);
              else
                fprintf (out, "%s: recv %" PRId64 "b from %d tag %" PRId64
                         "\n", a, o->bytes, (int) o->peer, tag);
              for (size_t j = 0; j < o->ndep; j++)
                {
                  const struct dep *d = &p->deps[o->dep0 + j];
                  fprintf (out, "%s %s %s\n", a,
                           d->start ? "irequires" : "requires",
                           label (&p->ops[d->op], (size_t) d->op, b,
                                  sizeof b));
                }
              if (in->map)
                in->map (in->map_ctx, r, a, in->ranks[r].rec[o->src].seq,
                         o->kind == OP_CALC ? "compute"
                         : trace_call_name (in->ranks[r].rec[o->src].call));
            }
          fprintf (out, "}\n");
        }
    }
  for (int32_t r = 0; r < P; r++)
    {
      free (R[r].ops);
      free (R[r].deps);
    }
  free (R);
  for (size_t i = 0; i < c.ncomms; i++)
    {
      free (c.comms[i].members);
      free (c.comms[i].inst);
    }
  free (c.comms);
  for (size_t i = 0; i < c.ninst; i++)
    {
      struct instance *I = &c.inst[i];
      for (int32_t r = 0; r < I->nparts; r++)
        {
          free (I->part[r].ops);
          free (I->part[r].deps);
          free (I->exit[r].d);
        }
      free (I->part);
      free (I->exit);
    }
  free (c.inst);
  free (c.used);
  return rc;
}
