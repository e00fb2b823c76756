/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag.h: task and communication graphs for dag-predict.
 *
 * Every schedule, whatever its source (native TSV, a LogGOPSim GOAL file,
 * a generator), becomes the same operation graph: per-processor
 * operations CALC (local work), SEND and RECV, and dependencies between
 * them.  An edge A -> B of kind DAG_REQUIRES lets B start once A has
 * completed; DAG_IREQUIRES once A has started (GOAL's "irequires").
 *
 * The builder grows arrays; dag_finalize turns the edge list into
 * compressed successor lists and checks for cycles.  No I/O here: errors
 * of the input go through err.h (die_at), so a harness can catch them. */
#ifndef MSGPERF_DAG_H
#define MSGPERF_DAG_H

#include <stddef.h>
#include <stdint.h>

enum dag_op { DAG_CALC = 0, DAG_SEND = 1, DAG_RECV = 2 };
enum dag_dep { DAG_REQUIRES = 0, DAG_IREQUIRES = 1 };

/* Wildcard source or tag of a receive (GOAL's -1).  */
#define DAG_ANY (-1)

/* What the simulator reads of an operation: 24 bytes.  Its name and
   input line, needed only for messages and output, are in struct dag's
   side arrays (dag_node_name, dag_node_line).  */
struct dag_node
{
  union {
    double work;      /* CALC: time */
    int64_t bytes;    /* SEND, RECV: message size */
  } u;
  int32_t tag;        /* SEND, RECV (RECV: DAG_ANY allowed); < 2^31 - 1 */
  int32_t proc;       /* processor (rank) running the operation */
  int32_t peer;       /* SEND: destination; RECV: source or DAG_ANY */
  uint8_t op;         /* enum dag_op */
  uint8_t derived;    /* SEND/RECV made from a native `msg` row */
  uint8_t cpu, nic;   /* GOAL's `cpu C` and `nic N`: which of its
                         processor's CPUs and NICs the operation uses
                         (in the padding: the node stays 24 bytes) */
};

/* Largest cpu and nic number an operation may have.  */
#define DAG_MAX_CPU UINT8_MAX
#define DAG_MAX_NIC UINT8_MAX

struct dag
{
  struct dag_node *node;
  size_t n, cap;
  /* Per operation, cap entries each: its name (an offset in the name
     pool, or -1) and the input line that defined it (or 0).  Each is
     NULL until an operation has one, so a generated DAG (names, no
     lines) carries no array of lines.  */
  int32_t *name_of, *line_of;
  /* cap is an expectation (dag_expect): the arrays were reserved whole,
     on huge pages, and the side arrays are made likewise.  */
  int expected;
  int32_t nprocs;           /* 1 + largest processor number */
  /* Largest cpu and nic number of an operation: 0, one CPU and one NIC
     per processor (native and generated DAGs always).  */
  int32_t maxcpu, maxnic;

  /* Edge list while building.  */
  int32_t *efrom, *eto;
  uint8_t *ekind;
  size_t ne, ecap;

  /* After dag_finalize: successors of node v are succ[succ_off[v] ..
     succ_off[v+1]-1], each (to << 1) | kind; npred[v] = predecessors.  */
  uint32_t *succ_off;
  uint32_t *succ;
  uint32_t *npred;
  int has_wildcard;         /* a RECV with DAG_ANY source or tag */
  /* After dag_finalize: whether a channel (receiver, sender, tag) may
     have one send and one receive (not from dag_add_message).  0 when
     every such send, or every such receive, comes in a run, in node
     order, of its kind on one channel: then no channel can.  */
  int may_pair;
  int has_irequires;        /* an edge of kind DAG_IREQUIRES */
  /* The arrays are a binary schedule's (dag_image_open): read only,
     never grown, and dag_free leaves them to whoever mapped them.  */
  int mapped;

  /* Names (task ids, GOAL labels): NUL-terminated strings.  */
  char *pool;
  size_t pool_len, pool_cap;

  /* Input name for messages ("<stdin>", a path, "gen").  */
  const char *source;
};

void dag_init (struct dag *d, const char *source);
void dag_free (struct dag *d);

/* Do A and B, as built (before dag_finalize), hold the same operations
   (every field, name and input line) and the same dependencies in the
   same order?  (Two readers of one schedule must agree.)  */
int dag_same (const struct dag *a, const struct dag *b);

/* Make room for NODES operations and EDGES dependencies in all (a hint
   from generators that know their size).  */
void dag_reserve (struct dag *d, size_t nodes, size_t edges);

/* Expect at most NODES operations and EDGES dependencies (a reader's
   bound from the size of its text): their arrays are reserved whole at
   once as address space, which becomes memory only where it is written,
   so that they never move as they fill, and on huge pages
   (dag_hugepages; the reader maps them in ahead of itself,
   dag_node_room).  Measured on a 2^20-rank broadcast's GOAL text, where
   the arrays grew by doubling on 4 KiB pages: reading it took 0.14 CPU s
   instead of 0.24, indexing it 0.024 instead of 0.059 (2 cores, virtual
   machine, whose misses of the address translation cost much).  A hint:
   what the system refuses is not reserved (the arrays then grow as
   before), nor are arrays in files (big_use_dir), whose space a
   reservation would take on the disk.  */
void dag_expect (struct dag *d, size_t nodes, size_t edges);

/* Map in the pages of the block P of LEN bytes, about to be written
   in full, at once (Linux's MADV_POPULATE_WRITE) rather than one page
   fault at a time (which costs more than the work on a page of the
   simulator's state), huge pages first (dag_hugepages).  Does nothing
   for blocks under 64 KiB or where the call is not available.  Returns
   P.  */
void *dag_populate (void *p, size_t len);

/* Ask for the block P of LEN bytes to be backed by huge pages where the
   kernel has them (Linux's MADV_HUGEPAGE; transparent huge pages in
   "madvise" mode): the simulator reads its big arrays at random, and
   with small pages most of those reads also miss the TLB (measured on
   the 2^20-rank broadcast: its simulation some 8% faster, its indexing
   25%).  Does nothing for blocks under 4 MiB or where the call is not
   available.  Returns P.  */
void *dag_hugepages (void *p, size_t len);

/* The array P (from bigmem.h's allocators, or NULL), of which the
   first USED bytes (at most LEN) are in use, resized to LEN bytes: the
   growth of the operation and dependency arrays a builder fills
   without dag_expect (generators, a text from a pipe).  A big array
   (4 MiB or more, in memory) is copied into a new block on huge pages
   (dag_hugepages) rather than resized by realloc, which keeps it on
   4 KiB pages.  On this 2-core virtual machine a pass over a 2^20-rank
   broadcast's or a 1024-rank ring allreduce's generated operations in
   4 KiB pages took several times as long as the same pass over a
   text's in huge pages (a miss of the address translation costs a
   walk of the host's tables too).  */
void *dag_grow (void *p, size_t used, size_t len);

/* Add a string to the name pool; returns its offset.  */
int32_t dag_intern (struct dag *d, const char *s, size_t len);
const char *dag_name (const struct dag *d, int32_t off);

/* Name (pool offset or -1) and input line (or 0) of operation V.  */
static inline int32_t
dag_node_name (const struct dag *d, size_t v)
{
  return d->name_of ? d->name_of[v] : -1;
}

static inline int32_t
dag_node_line (const struct dag *d, size_t v)
{
  return d->line_of ? d->line_of[v] : 0;
}

/* Add operations; return the node index.  NAME is a pool offset or -1.
   Inline: a reader adds millions, and most need only the stores of
   dag_node_store; growing the arrays, making a side array and mapping
   pages in ahead (every DAG_GROW_AHEAD entries) are dag_node_room's
   (the same for dependencies: dag_add_edge_slow).  DAG_GROW_AHEAD:
   operations and edges whose entries are mapped in at once, ahead of
   the reader (at most this many entries' pages are mapped before they
   are used).  */
enum { DAG_GROW_AHEAD = 1 << 17 };
void dag_node_room (struct dag *d, int32_t name, int32_t line);
void dag_add_edge_slow (struct dag *d, int32_t from, int32_t to,
                        enum dag_dep k);

/* Node d->n (room made by dag_node_room when needed) as an operation
   OP of PROC with PEER and TAG (its u is the caller's to set), and its
   side arrays; returns the node.  The fields are stored one at a time
   from the arguments.  A struct dag_node built on the stack a field at
   a time and copied whole is read back in loads wider than its stores,
   which the processor cannot forward from them: a stall for each
   operation a reader adds (6-8% of the time reading a 2^20-rank
   broadcast's GOAL text).  */
static inline struct dag_node *
dag_node_store (struct dag *d, enum dag_op op, int32_t proc, int32_t peer,
                int32_t tag, int32_t name, int32_t line)
{
  if (d->n == d->cap || d->n % DAG_GROW_AHEAD == 0
      || (name >= 0 && !d->name_of) || (line != 0 && !d->line_of))
    dag_node_room (d, name, line);
  size_t n = d->n;
  if (d->name_of)
    d->name_of[n] = name;
  if (d->line_of)
    d->line_of[n] = line;
  struct dag_node *o = &d->node[n];
  o->tag = tag;
  o->proc = proc;
  o->peer = peer;
  o->op = (uint8_t) op;
  o->derived = 0;
  o->cpu = 0;
  o->nic = 0;
  if (proc >= d->nprocs)
    d->nprocs = proc + 1;
  if (op != DAG_CALC && peer >= d->nprocs)
    d->nprocs = peer + 1;
  if (op == DAG_RECV && (peer == DAG_ANY || tag == DAG_ANY))
    d->has_wildcard = 1;
  d->n = n + 1;
  return o;
}

static inline int32_t
dag_add_calc (struct dag *d, int32_t proc, double work, int32_t name,
              int32_t line)
{
  dag_node_store (d, DAG_CALC, proc, -1, 0, name, line)->u.work = work;
  return (int32_t) (d->n - 1);
}

static inline int32_t
dag_add_comm (struct dag *d, enum dag_op op, int32_t proc, int32_t peer,
              int64_t bytes, int64_t tag, int32_t name, int32_t line)
{
  dag_node_store (d, op, proc, peer, (int32_t) tag, name, line)->u.bytes
    = bytes;
  return (int32_t) (d->n - 1);
}

static inline int32_t
dag_add_send (struct dag *d, int32_t proc, int32_t to, int64_t bytes,
              int64_t tag, int32_t name, int32_t line)
{
  return dag_add_comm (d, DAG_SEND, proc, to, bytes, tag, name, line);
}

static inline int32_t
dag_add_recv (struct dag *d, int32_t proc, int32_t from, int64_t bytes,
              int64_t tag, int32_t name, int32_t line)
{
  return dag_add_comm (d, DAG_RECV, proc, from, bytes, tag, name, line);
}

/* Dependency FROM -> TO of kind K as edge d->ne, which has room.  */
static inline void
dag_edge_store (struct dag *d, int32_t from, int32_t to, enum dag_dep k)
{
  d->efrom[d->ne] = from;
  d->eto[d->ne] = to;
  d->ekind[d->ne] = (uint8_t) k;
  d->ne++;
  if (k == DAG_IREQUIRES)
    d->has_irequires = 1;
}

static inline void
dag_add_edge (struct dag *d, int32_t from, int32_t to, enum dag_dep k)
{
  if (d->ne == d->ecap || d->ne % DAG_GROW_AHEAD == 0)
    dag_add_edge_slow (d, from, to, k);
  else
    dag_edge_store (d, from, to, k);
}

/* Operation V uses CPU CPU (at most DAG_MAX_CPU) and NIC NIC (at most
   DAG_MAX_NIC) of its processor; the caller checks the range.  */
void dag_set_cpu_nic (struct dag *d, int32_t v, int cpu, int nic);

/* struct dag's may_pair of D's operations (dag_finalize sets it).  */
int dag_may_pair (const struct dag *d);

/* dag_may_pair a step at a time, for a pass over the operations that
   checks them too (dag_image_open): zero a struct dag_pair_runs, add
   every operation in node order, then ask.  */
struct dag_pair_runs
{
  size_t nop[2], inrun[2];        /* sends [0] and receives [1] */
  const struct dag_node *last[2];
  int lastrun[2];
};
int dag_pair_runs_may_pair (const struct dag_pair_runs *r);

/* Per kind (send, receive) of operation not from dag_add_message: how
   many, and how many are in a run of that kind (in node order) on one
   channel, a channel of several (dag's may_pair).  */
static inline void
dag_pair_runs_add (struct dag_pair_runs *r, const struct dag_node *nd)
{
  if (nd->derived || nd->op == DAG_CALC)
    return;
  int k = nd->op == DAG_RECV;
  const struct dag_node *l = r->last[k];
  r->nop[k]++;
  if (l && l->proc == nd->proc && l->peer == nd->peer && l->tag == nd->tag)
    {
      r->inrun[k] += r->lastrun[k] ? 1 : 2;
      r->lastrun[k] = 1;
    }
  else
    r->lastrun[k] = 0;
  r->last[k] = nd;
}

/* A native `msg` of BYTES from CALC node A to CALC node B: a dependency
   when both run on one processor, else a SEND after A and a RECV before
   B, matched by the tag *NEXT_TAG (incremented).  The RECV is the node
   right after its SEND, both marked `derived`: the simulator pairs them
   without a matching queue.  */
void dag_add_message (struct dag *d, int32_t a, int32_t b, int64_t bytes,
                      int64_t *next_tag, int32_t line);

/* Describe node V for messages: "task 'x' (proc 3)", "rank 2 'l4'
   (line 9)", "send 1024b 0->5 tag 7".  Writes at most LEN bytes.  */
void dag_describe (const struct dag *d, int32_t v, char *buf, size_t len);

/* Build successor lists; die naming one cycle if there is one (the
   message lists the operations around the cycle).  Self-dependencies
   count as cycles.  */
void dag_finalize (struct dag *d);

/* ------------------------------------------------- string -> int map */

/* A hash map from (scope, string) to an int32, used by the parsers to
   resolve task ids and GOAL labels.  Strings are copied.  */
struct strmap
{
  struct strmap_slot *slot;
  size_t cap, n;
  char *keys;
  size_t keys_len, keys_cap;
};
void strmap_init (struct strmap *m);
void strmap_free (struct strmap *m);
/* Value for KEY in SCOPE, or -1.  */
int32_t strmap_get (const struct strmap *m, int64_t scope,
                    const char *key, size_t len);
/* Insert; returns the previous value (-1 if KEY was new).  */
int32_t strmap_put (struct strmap *m, int64_t scope,
                    const char *key, size_t len, int32_t value);

/* 64-bit mixing hash (splitmix64 finaliser).  */
static inline uint64_t
dag_mix64 (uint64_t x)
{
  x ^= x >> 30;
  x *= UINT64_C (0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= UINT64_C (0x94d049bb133111eb);
  x ^= x >> 31;
  return x;
}

#endif
