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

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "coll_decide.h"
#include "dag_coll.h"
#include "num.h"
#include "togoal_int.h"

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

/* The exits of instance I's P parts: the last task's set of G and
   every send.  */
static void
set_exits (struct instance *I, const struct gen *g, int32_t P)
{
  for (int32_t r = 0; r < P; r++)
    {
      const struct gtask *last = NULL;
      for (size_t i = 0; i < g->nt; i++)
        if (g->t[i].rank == r)
          last = &g->t[i];
      if (last)
        depset_copy (&I->exit[r], &last->set);
      else
        depset_add (&I->exit[r], (struct dep) { ENTRY, 0 });
      const struct rankops *p = &I->part[r];
      for (size_t k = 0; k < p->n; k++)
        if (p->ops[k].kind == OP_SEND)
          depset_add (&I->exit[r], (struct dep) { (int64_t) k, 0 });
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
      algo = coll_decide (togoal_coll_op (ci), P, bytes);
      gen = coll_decide_fixed_run (togoal_coll_op (ci), algo);
    }
  /* what Open MPI runs for a reduction of too few elements */
  gen = coll_decide_fallback (togoal_coll_op (ci), gen, P, I->count);
  gen = coll_decide_generator (togoal_coll_op (ci), gen);
  if (!gen)
    {
      snprintf (c->err, c->errsize, "%s on %d ranks, %" PRId64 " bytes: "
                "no generator for Open MPI's algorithm '%s' (choose one "
                "with --coll)", togoal_coll_op (ci), (int) P, bytes,
                algo ? algo : "?");
      return -1;
    }
  note_used (c, ci, algo, gen);
  char name[128];
  snprintf (name, sizeof name, "coll:%s:%s", togoal_coll_op (ci), gen);
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
  set_exits (I, &g, P);
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

/* ---------------------------------------------------------- one rank */

/* The records of TR before K (less a margin for the v-collectives,
   which look back at their counts) no longer needed in memory, from
   *RELEASED on: their pages let go when TR is a mapping.  */
static void
release_records (const struct togoal_rank *tr, uint64_t k,
                 uint64_t *released)
{
  const uint64_t margin = 1 << 16;
  long page = sysconf (_SC_PAGESIZE);
  if (!tr->mapped || k < margin || page <= 0)
    return;
  uintptr_t lo = (uintptr_t) (tr->rec + *released);
  uintptr_t hi = (uintptr_t) (tr->rec + (k - margin));
  lo = (lo + (uintptr_t) page - 1) / (uintptr_t) page * (uintptr_t) page;
  hi = hi / (uintptr_t) page * (uintptr_t) page;
  if (hi > lo)
    madvise ((void *) lo, hi - lo, MADV_DONTNEED);
  *released = k - margin;
}

/* The operations of X's rank to the spill file, record K converted (a
   receive's wait still to come changes it through a patch).  */
static int
spill_window (struct rconv *x, uint64_t k, uint64_t *released)
{
  struct rankops *R = x->R;
  if (!x->c->spill
      && !(x->c->spill = spill_open (x->c->err, x->c->errsize)))
    return -1;
  if (spill_ops (x->c->spill, R, R->n) != 0)
    return fail (x->c, x->rank, k, "cannot write the temporary file of "
                 "operations (give another directory in TMPDIR, or "
                 "--window 0): %s", strerror (errno));
  release_records (&x->c->in->ranks[x->rank], k, released);
  return 0;
}

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
  size_t i = (size_t) x->req[r->request];
  if (x->R->kind[i] == OP_RECV)
    {
      struct patch p = { i, 0, 0, 0, 0 };
      struct localcomm *xc = local_get (&x->L, r->comm);
      if (r->peer >= 0 && xc && xc->members && r->peer < xc->n)
        p.peer = xc->members[r->peer], p.set |= PATCH_PEER;
      if (r->tag >= 0)
        {
          p.tag = r->tag, p.set |= PATCH_TAG;
          if (r->tag > x->c->max_tag)
            x->c->max_tag = r->tag;
        }
      if (r->bytes >= 0)
        p.bytes = r->bytes, p.set |= PATCH_BYTES;
      /* A receive posted for any source that completes from none was
         cancelled (MPI_Cancel, untraced): no message, an empty calc. */
      if ((r->flags & TRACE_R_ANY_SOURCE) && r->peer < 0 && r->tag < 0
          && r->bytes <= 0)
        {
          p.set = PATCH_CANCEL;
          x->R->kind[i] = OP_CALC;
          x->c->cancelled++;
        }
      if (i >= x->R->off)
        patch_apply (op_at (x->R, i), &p);
      else if (p.set)
        {
          /* spilled already: changed as it is read back */
          GROW (x->R->patch, x->R->npatch, x->R->cappatch);
          x->R->patch[x->R->npatch++] = p;
        }
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
  free (I->part[cr].kind);
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
  uint64_t released = 0;
  for (uint64_t k = 0; k < tr->nrec && rc == 0; k++)
    {
      const struct trace_record *r = &tr->rec[k];
      if (r->call == TRACE_UNTRACED)
        continue;       /* counts of untraced calls: the caller says them */
      R->cur = k;
      /* compute before the call */
      conv_gap (&x, r, k, tick, tr->h->t0, &prev_end);
      rc = conv_record (&x, r, k);
      if (rc == 0 && c->spill_on && R->n - R->off >= c->in->window)
        rc = spill_window (&x, k, &released);
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
            const struct op *o = op_at (&R[r], i);
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

static int
patch_cmp (const void *a, const void *b)
{
  const struct patch *x = a, *y = b;
  return x->op < y->op ? -1 : x->op > y->op;
}

static const char *
label (int kind, size_t i, char *buf, size_t n)
{
  snprintf (buf, n, "%c%zu", kind == OP_CALC ? 'c'
            : kind == OP_SEND ? 's' : 'r', i);
  return buf;
}

/* "OP=ALGO ..." of the algorithms C expanded, into IN's used.  */
static void
used_list (const struct conv *c, const struct togoal_input *in)
{
  if (!in->used || !in->usedsize)
    return;
  in->used[0] = '\0';
  for (size_t i = 0; i < c->nused; i++)
    {
      size_t l = strlen (in->used);
      const char *op = togoal_coll_op (c->used[i].op);
      if (strcmp (c->used[i].algo, c->used[i].gen) == 0)
        snprintf (in->used + l, in->usedsize - l, "%s%s=%s", l ? " " : "",
                  op, c->used[i].algo);
      else
        snprintf (in->used + l, in->usedsize - l, "%s%s=%s(as %s)",
                  l ? " " : "", op, c->used[i].algo, c->used[i].gen);
    }
}

/* Operation I of rank R's operations P, O, which depends on D[0 ..
   O->ndep-1], tags by T and B.  */
static void
write_op (FILE *out, const struct togoal_input *in,
          const struct rankops *p, int32_t r, int64_t T, int64_t B,
          const struct op *o, size_t i, const struct dep *d)
{
  char a[32], b[32], num[NUM_BUFSIZE];
  label (o->kind, i, a, sizeof a);
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
    fprintf (out, "%s %s %s\n", a, d[j].start ? "irequires" : "requires",
             label (p->kind[d[j].op], (size_t) d[j].op, b, sizeof b));
  if (in->map)
    in->map (in->map_ctx, r, a, in->ranks[r].rec[o->src].seq,
             o->kind == OP_CALC ? "compute"
             : trace_call_name (in->ranks[r].rec[o->src].call));
}

/* The block of rank R, its operations P (those before P->off read back
   from SPILL, with *BUF of *CAP dependencies), tags by T and B.  */
static int
write_rank (FILE *out, const struct togoal_input *in,
            const struct rankops *p, int32_t r, int64_t T, int64_t B,
            FILE *spill, struct dep **buf, size_t *cap)
{
  fprintf (out, "rank %d {\n", (int) r);
  uint64_t released = 0;
  size_t np = 0;                /* the patches, by operation */
  for (size_t i = 0; i < p->n; i++)
    {
      struct op sp;
      const struct op *o = &sp;
      const struct dep *d = *buf;
      if (i < p->off)
        {
          if (spill_next (spill, &sp, buf, cap) != 0)
            return -1;
          d = *buf;
          while (np < p->npatch && p->patch[np].op == i)
            patch_apply (&sp, &p->patch[np++]);
        }
      else
        {
          o = op_at (p, i);
          d = p->deps + (o->dep0 - p->doff);
        }
      write_op (out, in, p, r, T, B, o, i, d);
      if (in->map && i % (1 << 16) == 0)
        release_records (&in->ranks[r], o->src, &released);
    }
  fprintf (out, "}\n");
  return 0;
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
  c.spill_on = in->window && !in->cut;
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
  used_list (&c, in);
  if (in->cancelled)
    *in->cancelled = c.cancelled;
  for (int32_t r = 0; rc == 0 && r < P; r++)
    if (R[r].npatch)
      qsort (R[r].patch, R[r].npatch, sizeof *R[r].patch, patch_cmp);
  if (rc == 0 && c.spill && (fflush (c.spill) != 0
                             || fseek (c.spill, 0, SEEK_SET) != 0))
    rc = fail (&c, 0, 0, "cannot read back the temporary file of "
               "operations: %s", strerror (errno));
  if (rc == 0)
    {
      if (in->before)
        in->before (in->before_ctx);
      fprintf (out, "num_ranks %d\n", (int) P);
      struct dep *buf = NULL;
      size_t cap = 0;
      for (int32_t r = 0; r < P && rc == 0; r++)
        if (write_rank (out, in, &R[r], r, T, B, c.spill, &buf, &cap) != 0)
          rc = fail (&c, r, 0, "cannot read back the temporary file of "
                     "operations: %s", ferror (c.spill) ? strerror (errno)
                     : "it became shorter");
      free (buf);
    }
  if (c.spill)
    fclose (c.spill);
  for (int32_t r = 0; r < P; r++)
    {
      free (R[r].ops);
      free (R[r].deps);
      free (R[r].kind);
      free (R[r].patch);
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
          free (I->part[r].kind);
          free (I->exit[r].d);
        }
      free (I->part);
      free (I->exit);
    }
  free (c.inst);
  free (c.used);
  return rc;
}
