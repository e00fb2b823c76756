/* SPDX-License-Identifier: GPL-3.0-or-later */
/* togoal_int.h: what the files of msgperf-trace goal's conversion share
   (togoal_base.c, togoal_vcoll.c, togoal.c, in that order of use: none
   calls a later one): the operations of a rank, their dependencies, the
   communicators and collective instances of the conversion.  */
#ifndef MSGPERF_TOGOAL_INT_H
#define MSGPERF_TOGOAL_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "togoal.h"
#include "xalloc.h"

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
  struct op *ops;    /* operations off .. n-1 (n counts them all) */
  size_t n, cap;
  struct dep *deps;  /* dependencies doff .. nd-1 */
  size_t nd, capd;
  uint64_t cur;      /* the record being converted */
  /* A rank's operations before OFF (its dependencies before DOFF) went
     to the spill file (togoal.c): only a window stays in memory.  KIND
     holds every operation's kind (n entries), which the label of a
     dependency on a spilled one needs.  */
  size_t off, doff;
  uint8_t *kind;
  size_t capkind;
  /* What the waits of spilled receives learnt (their matched source, tag
     and size), applied as they are read back.  */
  struct patch *patch;
  size_t npatch, cappatch;
};

/* A receive's matched source, tag and size, those in SET
   (PATCH_PEER ...), for operation OP.  */
enum { PATCH_PEER = 1, PATCH_TAG = 2, PATCH_BYTES = 4, PATCH_CANCEL = 8 };
struct patch
{
  size_t op;
  int32_t peer;
  int64_t tag, bytes;
  unsigned set;
};

static inline void
patch_apply (struct op *o, const struct patch *p)
{
  if (p->set & PATCH_PEER)
    o->peer = p->peer;
  if (p->set & PATCH_TAG)
    o->tag = p->tag;
  if (p->set & PATCH_BYTES)
    o->bytes = p->bytes;
  if (p->set & PATCH_CANCEL)
    {
      o->kind = OP_CALC;
      o->calc = 0;
    }
}

/* Operation I (off <= I < n) of R.  */
static inline struct op *
op_at (const struct rankops *r, size_t i)
{
  return &r->ops[i - r->off];
}

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
  uint64_t cancelled;      /* receives cancelled, left out */
  int spill_on;            /* the input's window applies */
  FILE *spill;             /* operations written later (NULL: none) */
  char *err;
  size_t errsize;
  /* the algorithms expanded: operation, Open MPI's name, generator */
  struct used { int op; const char *algo, *gen; } *used;
  size_t nused, capused;
};

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

/* A collective's task graph, as dag_coll.h's generators make it.  */
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
void gen_free (struct gen *g);
/* The dag_sink callbacks that build a struct gen (CTX).  */
int32_t sink_task (void *ctx, const char *id, int32_t proc, double work);
void sink_msg (void *ctx, int32_t from, int32_t to, int64_t bytes);
void sink_dep (void *ctx, int32_t from, int32_t to);

/* The operation index of collective CALL (TOGOAL_NCOLL's order), or
   -1.  */
int coll_index (unsigned call);

/* Add D; a dependency on an operation already there keeps the stronger
   (requires).  */
void depset_add (struct depset *s, struct dep d);
void depset_copy (struct depset *to, const struct depset *from);

/* Operation O, depending on DEPS, at the end of R; its index.  */
size_t add_op (struct rankops *r, struct op o, const struct depset *deps);

/* The algorithm ALGO (run as generator GEN) was expanded for OP.  */
void note_used (struct conv *c, int op, const char *algo, const char *gen);

/* The number of the communicator of world ranks M[0 .. N-1], the OCC-th
   with these ranks on its members.  */
int32_t comm_number (struct conv *c, const int32_t *m, int32_t n,
                     int32_t occ);
struct localcomm *local_get (struct locals *l, int32_t id);
void local_number (struct conv *c, struct locals *l, int32_t id);

/* The error "rank RANK, record K: ..." into C's buffer; -1.  */
int fail (struct conv *c, int32_t rank, uint64_t k, const char *fmt, ...)
  __attribute__ ((format (printf, 4, 5)));

/* The spill file of the operations written later (togoal_spill.c): a
   new unnamed temporary file in $TMPDIR (or /tmp), or NULL with the
   reason in ERR.  */
FILE *spill_open (char *err, size_t errsize);
/* R's operations off .. KEEP-1 (and their dependencies) appended to F
   and dropped from memory (R's off becomes KEEP); -1 on a write
   error.  */
int spill_ops (FILE *f, struct rankops *r, size_t keep);
/* The next operation of F into *O, its dependencies into *DEPS (of *CAP
   entries, grown as needed); -1 on a read error or the end.  */
int spill_next (FILE *f, struct op *o, struct dep **deps, size_t *cap);

/* The v-collective R (record K) of rank X: rank CR's part of instance
   INST on the communicator LC (togoal_vcoll.c).  */
int conv_vcoll (struct rconv *x, const struct trace_record *r, uint64_t k,
                const struct localcomm *lc, int32_t cr, int64_t inst);

#endif
