/* dagsim.c: event-driven simulation of an operation graph (dagsim.h).
 *
 * One binary heap of events ordered by (time, insertion sequence):
 * EV_OP (an operation whose dependencies are satisfied tries to start)
 * and EV_MSG (a message's first byte reaches its receiver).  An event
 * whose resource (CPU, NIC) is still busy is put back at the time the
 * resource frees, as LogGOPSim does.  Completion times are known when an
 * operation starts, so successors are released at once with their
 * satisfaction time: no completion events.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dagsim.h"
#include "err.h"
#include "hyperbolic.h"   /* hyper_time: eq. (2) */

/* ---------------------------------------------------------------- heap */

enum { EV_OP = 0, EV_MSG = 1 };

struct event
{
  double t;
  uint64_t seq;        /* (sequence << 1) | type */
  int32_t v;
};

struct heap
{
  struct event *e;
  size_t n, cap;
  uint64_t seq;
};

static inline int
ev_less (const struct event *a, const struct event *b)
{
  return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static void
heap_push (struct heap *h, double t, int type, int32_t v)
{
  if (h->n == h->cap)
    {
      h->cap = h->cap ? 2 * h->cap : 1024;
      h->e = realloc (h->e, h->cap * sizeof *h->e);
      if (!h->e)
        die ("out of memory (event queue of %zu events)", h->cap);
    }
  struct event x = { t, (h->seq++ << 1) | (uint64_t) type, v };
  size_t i = h->n++;
  while (i > 0)
    {
      size_t p = (i - 1) / 2;
      if (!ev_less (&x, &h->e[p]))
        break;
      h->e[i] = h->e[p];
      i = p;
    }
  h->e[i] = x;
}

static struct event
heap_pop (struct heap *h)
{
  struct event top = h->e[0];
  struct event x = h->e[--h->n];
  size_t i = 0, n = h->n;
  for (;;)
    {
      size_t c = 2 * i + 1;
      if (c >= n)
        break;
      if (c + 1 < n && ev_less (&h->e[c + 1], &h->e[c]))
        c++;
      if (!ev_less (&h->e[c], &x))
        break;
      h->e[i] = h->e[c];
      i = c;
    }
  if (n)
    h->e[i] = x;
  return top;
}

/* ------------------------------------------------------ matching queues */

/* Table RQ holds posted receives, UQ arrived unexpected messages.  Class
   bit 0: any source, bit 1: any tag.  */
enum { TBL_RQ = 0, TBL_UQ = 1 };

struct mq_slot
{
  int64_t tag;
  int32_t dst, src;
  int32_t head, tail;
  uint8_t key;         /* 1 + (table << 2 | class); 0 = empty slot */
};

struct mq
{
  struct mq_slot *slot;
  size_t cap, n;
};

static inline uint64_t
mq_hash (int tk, int32_t dst, int32_t src, int64_t tag)
{
  uint64_t h = (uint64_t) (uint32_t) dst * UINT64_C (0x9e3779b97f4a7c15);
  h ^= dag_mix64 ((uint64_t) (uint32_t) src << 3 | (uint64_t) tk);
  h ^= dag_mix64 ((uint64_t) tag + UINT64_C (0x632be59bd9b4e019));
  return dag_mix64 (h);
}

static struct mq_slot *
mq_get (struct mq *m, int tk, int32_t dst, int32_t src, int64_t tag,
        int create)
{
  if (create && 2 * (m->n + 1) > m->cap)
    {
      size_t cap = m->cap ? 2 * m->cap : 4096;
      struct mq_slot *old = m->slot;
      m->slot = calloc (cap, sizeof *m->slot);
      if (!m->slot)
        die ("out of memory (matching table of %zu entries)", cap);
      for (size_t i = 0; i < m->cap; i++)
        if (old[i].key)
          {
            struct mq_slot *s = &old[i];
            size_t j = mq_hash (s->key - 1, s->dst, s->src, s->tag)
                       & (cap - 1);
            while (m->slot[j].key)
              j = (j + 1) & (cap - 1);
            m->slot[j] = *s;
          }
      free (old);
      m->cap = cap;
    }
  if (!m->cap)
    return NULL;
  size_t mask = m->cap - 1;
  for (size_t i = mq_hash (tk, dst, src, tag) & mask;; i = (i + 1) & mask)
    {
      struct mq_slot *s = &m->slot[i];
      if (!s->key)
        {
          if (!create)
            return NULL;
          s->key = (uint8_t) (tk + 1);
          s->dst = dst;
          s->src = src;
          s->tag = tag;
          s->head = s->tail = -1;
          m->n++;
          return s;
        }
      if (s->key == tk + 1 && s->dst == dst && s->src == src
          && s->tag == tag)
        return s;
    }
}

/* ------------------------------------------------------------ the state */

enum { ST_STARTED = 1, ST_DONE = 2, ST_MATCHED = 4, ST_ARRIVED = 8,
       ST_POSTED = 16 };

struct sim
{
  const struct dag *d;
  const struct dagsim_cost *c;
  struct dagsim_result *r;
  const struct dagsim_opts *opt;
  struct heap h;
  struct mq mq;
  uint32_t *pending;
  double *ready;       /* latest satisfaction time; for a SEND after it
                          started: when the receiver finished handling */
  double *aux;         /* SEND: end of its CPU part */
  uint8_t *state;
  int32_t *rq_next;    /* per RECV */
  int32_t *uq_next;    /* per SEND x nclass */
  uint64_t *order;     /* posting / arrival order (wildcards only) */
  uint64_t order_seq;
  int nclass;
  double *cpu, *nic_s, *nic_r;
  /* critical path */
  int32_t *cp_pred;    /* operation that determined the start */
  int32_t *cpu_owner;  /* last operation that held each CPU */
  double *t_start, *t_end;
  int32_t *rpred;      /* latest-satisfying predecessor */
};

static void
gantt_add (struct sim *s, int32_t proc, double a, double b, int kind,
           int32_t v)
{
  struct dagsim_result *r = s->r;
  if (!s->opt || !s->opt->gantt || !(b > a))
    return;
  if (r->ngantt == r->gantt_cap)
    {
      r->gantt_cap = r->gantt_cap ? 2 * r->gantt_cap : 1024;
      r->gantt = realloc (r->gantt, r->gantt_cap * sizeof *r->gantt);
      if (!r->gantt)
        die ("out of memory (Gantt chart)");
    }
  struct dagsim_interval *iv = &r->gantt[r->ngantt++];
  iv->start = a;
  iv->end = b;
  iv->proc = proc;
  iv->node = v;
  iv->kind = (uint8_t) kind;
}

static inline double
bytes1 (int64_t bytes)
{
  return bytes > 1 ? (double) (bytes - 1) : 0.0;
}

/* Release the successors of V of kind KIND (requires/irequires) at T.  */
static void
release (struct sim *s, int32_t v, int kind, double t)
{
  const struct dag *d = s->d;
  for (size_t i = d->succ_off[v]; i < d->succ_off[v + 1]; i++)
    {
      uint32_t e = d->succ[i];
      if ((int) (e & 1) != kind)
        continue;
      int32_t w = (int32_t) (e >> 1);
      if (t >= s->ready[w])
        {
          s->ready[w] = t;
          if (s->rpred)
            s->rpred[w] = v;
        }
      if (--s->pending[w] == 0)
        {
          const struct dag_node *nd = &d->node[w];
          double at = s->ready[w];
          if (s->cpu[nd->proc] > at)
            at = s->cpu[nd->proc];
          if (nd->op == DAG_SEND && s->nic_s[nd->proc] > at)
            at = s->nic_s[nd->proc];
          heap_push (&s->h, at, EV_OP, w);
        }
    }
}

static void
mark_start (struct sim *s, int32_t v, double t)
{
  s->state[v] |= ST_STARTED;
  if (s->t_start)
    {
      s->t_start[v] = t;
      const struct dag_node *nd = &s->d->node[v];
      if (t > s->ready[v] && s->cpu_owner[nd->proc] >= 0)
        s->cp_pred[v] = s->cpu_owner[nd->proc];
      else
        s->cp_pred[v] = s->rpred[v];
    }
  release (s, v, DAG_IREQUIRES, t);
}

static void
mark_done (struct sim *s, int32_t v, double t)
{
  s->state[v] |= ST_DONE;
  if (s->t_end)
    s->t_end[v] = t;
  release (s, v, DAG_REQUIRES, t);
}

static void
set_cpu (struct sim *s, int32_t proc, double t, int32_t owner)
{
  if (t > s->cpu[proc])
    {
      s->cpu[proc] = t;
      if (s->cpu_owner)
        s->cpu_owner[proc] = owner;
    }
}

/* Queue heads, skipping messages already matched through another class
   (lazy deletion).  */
static int32_t
uq_head (struct sim *s, struct mq_slot *q, int cls)
{
  while (q->head >= 0 && (s->state[q->head] & ST_MATCHED))
    q->head = s->uq_next[(size_t) q->head * s->nclass + cls];
  return q->head;
}

static void
uq_pop (struct sim *s, struct mq_slot *q, int cls)
{
  q->head = s->uq_next[(size_t) q->head * s->nclass + cls];
  if (q->head < 0)
    q->tail = -1;
}

/* Rendezvous: the send SND completes when matched at T.  */
static void
rendezvous_done (struct sim *s, int32_t snd, double t)
{
  const struct dag_node *sn = &s->d->node[snd];
  double done = s->aux[snd] > t ? s->aux[snd] : t;
  set_cpu (s, sn->proc, t, snd);
  if (s->nic_s[sn->proc] < t)
    s->nic_s[sn->proc] = t;
  mark_done (s, snd, done);
}

static void
match_pair (struct sim *s, int32_t snd, int32_t rcv, double t_match,
            double t_done)
{
  s->state[snd] |= ST_MATCHED;
  s->state[rcv] |= ST_MATCHED;
  if (s->rpred)
    {
      /* the receive's completion is determined by the message */
      s->cp_pred[rcv] = snd;
    }
  if ((double) s->d->node[snd].u.bytes > s->c->S)
    rendezvous_done (s, snd, t_match);
  mark_done (s, rcv, t_done);
}

static void
post_recv (struct sim *s, int32_t v, double t)
{
  const struct dag *d = s->d;
  const struct dag_node *nd = &d->node[v];
  mark_start (s, v, t);
  int cls = (nd->peer == DAG_ANY) | ((nd->tag == DAG_ANY) << 1);
  int32_t src = nd->peer == DAG_ANY ? DAG_ANY : nd->peer;
  int64_t tag = nd->tag == DAG_ANY ? DAG_ANY : nd->tag;
  struct mq_slot *q = mq_get (&s->mq, TBL_UQ << 2 | cls, nd->proc, src, tag,
                              0);
  if (q && uq_head (s, q, cls) >= 0)
    {
      int32_t m = q->head;
      uq_pop (s, q, cls);
      double fin = s->ready[m];
      match_pair (s, m, v, t, fin > t ? fin : t);
      return;
    }
  q = mq_get (&s->mq, TBL_RQ << 2 | cls, nd->proc, src, tag, 1);
  s->rq_next[v] = -1;
  if (s->order)
    s->order[v] = s->order_seq++;
  if (q->tail >= 0)
    s->rq_next[q->tail] = v;
  else
    q->head = v;
  q->tail = v;
  s->state[v] |= ST_POSTED;
}

/* A message (send M) has been handled at its receiver; match it with the
   earliest posted receive or queue it as unexpected.  */
static void
deliver (struct sim *s, int32_t m, double t, double fin)
{
  const struct dag_node *sn = &s->d->node[m];
  int32_t dst = sn->peer;
  int ncls = s->d->has_wildcard ? 4 : 1;
  struct mq_slot *best = NULL;
  for (int cls = 0; cls < ncls; cls++)
    {
      int32_t src = (cls & 1) ? DAG_ANY : sn->proc;
      int64_t tag = (cls & 2) ? DAG_ANY : sn->tag;
      struct mq_slot *q = mq_get (&s->mq, TBL_RQ << 2 | cls, dst, src, tag,
                                  0);
      if (q && q->head >= 0
          && (!best || s->order[q->head] < s->order[best->head]))
        best = q;
    }
  s->ready[m] = fin;
  s->state[m] |= ST_ARRIVED;
  if (best)
    {
      int32_t v = best->head;
      best->head = s->rq_next[v];
      if (best->head < 0)
        best->tail = -1;
      match_pair (s, m, v, t, fin);
      return;
    }
  if (s->order)
    s->order[m] = s->order_seq++;
  for (int cls = 0; cls < s->nclass; cls++)
    {
      int32_t src = (cls & 1) ? DAG_ANY : sn->proc;
      int64_t tag = (cls & 2) ? DAG_ANY : sn->tag;
      struct mq_slot *q = mq_get (&s->mq, TBL_UQ << 2 | cls, dst, src, tag,
                                  1);
      s->uq_next[(size_t) m * s->nclass + cls] = -1;
      if (q->tail >= 0 && q->head >= 0)
        s->uq_next[(size_t) q->tail * s->nclass + cls] = m;
      else
        q->head = m;
      q->tail = m;
    }
}

static void
run_op (struct sim *s, int32_t v, double t)
{
  const struct dag *d = s->d;
  const struct dag_node *nd = &d->node[v];
  const struct dagsim_cost *c = s->c;
  int32_t p = nd->proc;
  struct dagsim_proc *pp = &s->r->proc[p];
  switch (nd->op)
    {
    case DAG_CALC:
      if (s->cpu[p] > t)
        {
          heap_push (&s->h, s->cpu[p], EV_OP, v);
          return;
        }
      mark_start (s, v, t);
      set_cpu (s, p, t + nd->u.work, v);
      pp->compute += nd->u.work;
      gantt_add (s, p, t, t + nd->u.work, GANTT_COMPUTE, v);
      mark_done (s, v, t + nd->u.work);
      return;

    case DAG_SEND:
      {
        double busy = s->cpu[p] > s->nic_s[p] ? s->cpu[p] : s->nic_s[p];
        if (busy > t)
          {
            heap_push (&s->h, busy, EV_OP, v);
            return;
          }
        double x = (double) nd->u.bytes, x1 = bytes1 (nd->u.bytes);
        double cpu_end, arrive;
        if (c->hyperbolic)
          {
            cpu_end = t + hyper_time (x, c->a, c->b);
            arrive = cpu_end;
          }
        else
          {
            cpu_end = t + c->os + x1 * c->O;
            s->nic_s[p] = t + c->g + x1 * c->G;
            arrive = t + c->os + c->L;
            if (c->rate && c->contention)
              arrive += c->contention (c->ctx, c->rate[p], x);
          }
        mark_start (s, v, t);
        set_cpu (s, p, cpu_end, v);
        s->aux[v] = cpu_end;
        pp->send += cpu_end - t;
        pp->nsend++;
        pp->bytes_sent += x;
        s->r->messages++;
        gantt_add (s, p, t, cpu_end, GANTT_SEND, v);
        heap_push (&s->h, arrive, EV_MSG, v);
        if (x <= c->S)
          mark_done (s, v, cpu_end);
        return;
      }

    case DAG_RECV:
      /* Posting a receive costs nothing: the receive overhead is charged
         when the message is handled (LogGOPSim's rule).  */
      post_recv (s, v, t);
      return;
    }
}

static void
run_msg (struct sim *s, int32_t m, double t)
{
  const struct dag_node *sn = &s->d->node[m];
  const struct dagsim_cost *c = s->c;
  int32_t r = sn->peer;
  if (r < 0 || r >= s->d->nprocs)
    die_at (s->d->source, sn->line, 0, "send to rank %d: no such rank",
            (int) r);
  double fin;
  if (c->hyperbolic)
    fin = t;
  else
    {
      double busy = s->cpu[r] > s->nic_r[r] ? s->cpu[r] : s->nic_r[r];
      if (busy > t)
        {
          heap_push (&s->h, busy, EV_MSG, m);
          return;
        }
      double x1 = bytes1 (sn->u.bytes);
      double extra = x1 * c->O > x1 * c->G ? x1 * c->O : x1 * c->G;
      fin = t + c->or_ + extra;
      set_cpu (s, r, fin, m);
      s->nic_r[r] = t + c->g + x1 * c->G;
      s->r->proc[r].recv += fin - t;
    }
  s->r->proc[r].nrecv++;
  gantt_add (s, r, t, fin, GANTT_RECV, m);
  deliver (s, m, t, fin);
}

static void *
xcalloc (size_t n, size_t size)
{
  void *p = calloc (n ? n : 1, size);
  if (!p)
    die ("out of memory (%zu x %zu bytes)", n, size);
  return p;
}

static void
die_stuck (struct sim *s)
{
  const struct dag *d = s->d;
  /* Name what never completed: receives posted but unmatched, messages
     that arrived unexpected and were never received, and the first
     operations that never started.  */
  char desc[256];
  size_t nrecv = 0, nsend = 0, nwait = 0;
  int32_t first_recv = -1, first_send = -1, first_wait = -1;
  for (size_t v = 0; v < d->n; v++)
    {
      uint8_t st = s->state[v];
      const struct dag_node *nd = &d->node[v];
      if (nd->op == DAG_RECV && (st & ST_POSTED) && !(st & ST_MATCHED))
        {
          if (first_recv < 0)
            first_recv = (int32_t) v;
          nrecv++;
        }
      else if (nd->op == DAG_SEND && (st & ST_STARTED)
               && !(st & ST_MATCHED))
        {
          if (first_send < 0)
            first_send = (int32_t) v;
          nsend++;
        }
      else if (!(st & ST_STARTED))
        {
          if (first_wait < 0)
            first_wait = (int32_t) v;
          nwait++;
        }
    }
  if (first_send >= 0)
    {
      dag_describe (d, first_send, desc, sizeof desc);
      warn ("unmatched send: %s%s", desc,
            nsend > 1 ? " (and more)" : "");
    }
  if (first_recv >= 0)
    {
      dag_describe (d, first_recv, desc, sizeof desc);
      warn ("unmatched receive: %s%s", desc,
            nrecv > 1 ? " (and more)" : "");
    }
  if (first_send >= 0 || first_recv >= 0)
    die ("%s: schedule cannot complete: %zu unmatched send%s, "
         "%zu unmatched receive%s, %zu operation%s never started",
         d->source, nsend, nsend == 1 ? "" : "s", nrecv,
         nrecv == 1 ? "" : "s", nwait, nwait == 1 ? "" : "s");
  dag_describe (d, first_wait, desc, sizeof desc);
  die ("%s: schedule cannot complete: %zu operation%s never started, "
       "e.g. %s", d->source, nwait, nwait == 1 ? "" : "s", desc);
}

void
dagsim_run (const struct dag *d, const struct dagsim_cost *c,
            const struct dagsim_opts *opt, struct dagsim_result *r)
{
  struct sim s;
  memset (&s, 0, sizeof s);
  memset (r, 0, sizeof *r);
  s.d = d;
  s.c = c;
  s.r = r;
  s.opt = opt;
  size_t n = d->n;
  size_t np = d->nprocs > 0 ? (size_t) d->nprocs : 1;
  s.nclass = d->has_wildcard ? 4 : 1;
  s.pending = xcalloc (n, sizeof *s.pending);
  memcpy (s.pending, d->npred, n * sizeof *s.pending);
  s.ready = xcalloc (n, sizeof *s.ready);
  s.aux = xcalloc (n, sizeof *s.aux);
  s.state = xcalloc (n, 1);
  s.rq_next = xcalloc (n, sizeof *s.rq_next);
  s.uq_next = xcalloc (n * (size_t) s.nclass, sizeof *s.uq_next);
  if (d->has_wildcard)
    s.order = xcalloc (n, sizeof *s.order);
  s.cpu = xcalloc (np, sizeof *s.cpu);
  s.nic_s = xcalloc (np, sizeof *s.nic_s);
  s.nic_r = xcalloc (np, sizeof *s.nic_r);
  r->proc = xcalloc (np, sizeof *r->proc);
  if (opt && opt->critical_path)
    {
      s.cp_pred = xcalloc (n, sizeof *s.cp_pred);
      s.rpred = xcalloc (n, sizeof *s.rpred);
      s.t_start = xcalloc (n, sizeof *s.t_start);
      s.t_end = xcalloc (n, sizeof *s.t_end);
      s.cpu_owner = xcalloc (np, sizeof *s.cpu_owner);
      for (size_t v = 0; v < n; v++)
        s.cp_pred[v] = s.rpred[v] = -1;
      for (size_t p = 0; p < np; p++)
        s.cpu_owner[p] = -1;
    }

  for (size_t v = 0; v < n; v++)
    if (!d->npred[v])
      heap_push (&s.h, 0.0, EV_OP, (int32_t) v);

  uint64_t events = 0;
  while (s.h.n)
    {
      struct event e = heap_pop (&s.h);
      events++;
      if ((e.seq & 1) == EV_OP)
        run_op (&s, e.v, e.t);
      else
        run_msg (&s, e.v, e.t);
    }
  r->events = events;

  for (size_t v = 0; v < n; v++)
    if (!(s.state[v] & ST_DONE))
      die_stuck (&s);

  r->makespan = 0;
  r->last_proc = 0;
  for (size_t p = 0; p < np; p++)
    {
      r->proc[p].finish = s.cpu[p];
      if (s.cpu[p] > r->makespan)
        {
          r->makespan = s.cpu[p];
          r->last_proc = (int32_t) p;
        }
    }

  if (s.t_start)
    {
      /* Walk back from the operation that ends last.  */
      int32_t last = -1;
      for (size_t v = 0; v < n; v++)
        if (last < 0 || s.t_end[v] > s.t_end[last])
          last = (int32_t) v;
      size_t cnt = 0;
      for (int32_t v = last; v >= 0 && cnt <= n; v = s.cp_pred[v])
        cnt++;
      r->cp = xcalloc (cnt, sizeof *r->cp);
      r->cp_start = xcalloc (cnt, sizeof *r->cp_start);
      r->cp_end = xcalloc (cnt, sizeof *r->cp_end);
      size_t i = cnt;
      for (int32_t v = last; v >= 0 && i > 0; v = s.cp_pred[v])
        {
          i--;
          r->cp[i] = v;
          r->cp_start[i] = s.t_start[v];
          r->cp_end[i] = s.t_end[v];
        }
      r->ncp = cnt;
    }

  free (s.h.e);
  free (s.mq.slot);
  free (s.pending);
  free (s.ready);
  free (s.aux);
  free (s.state);
  free (s.rq_next);
  free (s.uq_next);
  free (s.order);
  free (s.cpu);
  free (s.nic_s);
  free (s.nic_r);
  free (s.cp_pred);
  free (s.rpred);
  free (s.t_start);
  free (s.t_end);
  free (s.cpu_owner);
}

void
dagsim_result_free (struct dagsim_result *r)
{
  free (r->proc);
  free (r->gantt);
  free (r->cp);
  free (r->cp_start);
  free (r->cp_end);
  memset (r, 0, sizeof *r);
}
