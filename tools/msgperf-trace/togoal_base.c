/* SPDX-License-Identifier: GPL-3.0-or-later */
/* togoal_base.c: the operations, dependencies and communicators of
   msgperf-trace goal's conversion (togoal_int.h), and the collectives'
   names and algorithms (togoal.h).  */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "togoal_int.h"

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
int
coll_index (unsigned call)
{
  if (call >= TRACE_BARRIER && call <= TRACE_SCATTER)
    return (int) (call - TRACE_BARRIER);
  if (call >= TRACE_GATHERV && call <= TRACE_EXSCAN)
    return TOGOAL_NGEN + (int) (call - TRACE_GATHERV);
  return -1;
}

/* ------------------------------------------------------------ vectors */




/* Add D; a dependency on an operation already there keeps the stronger
   (requires).  */
void
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

void
depset_copy (struct depset *to, const struct depset *from)
{
  to->n = 0;
  for (size_t i = 0; i < from->n; i++)
    depset_add (to, from->d[i]);
}

/* --------------------------------------------------------- operations */




size_t
add_op (struct rankops *r, struct op o, const struct depset *deps)
{
  o.src = r->cur;
  o.dep0 = r->nd;
  o.ndep = deps ? deps->n : 0;
  for (size_t i = 0; i < o.ndep; i++)
    {
      GROW (r->deps, r->nd - r->doff, r->capd);
      r->deps[r->nd++ - r->doff] = deps->d[i];
    }
  GROW (r->ops, r->n - r->off, r->cap);
  GROW (r->kind, r->n, r->capkind);
  r->ops[r->n - r->off] = o;
  r->kind[r->n] = (uint8_t) o.kind;
  return r->n++;
}

/* ----------------------------------------------------- communicators */




void
note_used (struct conv *c, int op, const char *algo, const char *gen)
{
  for (size_t i = 0; i < c->nused; i++)
    if (c->used[i].op == op && strcmp (c->used[i].algo, algo) == 0)
      return;
  GROW (c->used, c->nused, c->capused);
  c->used[c->nused++] = (struct used) { op, algo, gen };
}

int32_t
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



struct localcomm *
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
void
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


int
fail (struct conv *c, int32_t rank, uint64_t k, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

int
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

/* ---------------------------------------------- generated collectives */




/* Release a generated task graph: its tasks' lists, the tasks, the
   messages.  */
void
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

int32_t
sink_task (void *ctx, const char *id, int32_t proc, double work)
{
  (void) id;
  (void) work;
  struct gen *g = ctx;
  GROW (g->t, g->nt, g->capt);
  g->t[g->nt] = (struct gtask) { .rank = proc };
  return (int32_t) g->nt++;
}

void
sink_msg (void *ctx, int32_t from, int32_t to, int64_t bytes)
{
  struct gen *g = ctx;
  GROW (g->m, g->nm, g->capm);
  g->m[g->nm++] = (struct gmsg) { from, to, bytes, -1, -1 };
  struct gtask *t = &g->t[to];
  GROW (t->ins, t->nins, t->capins);
  t->ins[t->nins++] = (int32_t) (g->nm - 1);
}

void
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
