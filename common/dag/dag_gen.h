/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_gen.h: generators of task graphs in the native form (tasks,
 * messages, dependencies) for dag-predict.
 *
 * A generator calls a sink for every task, message and dependency, so
 * the same code builds a DAG in memory (dag_sink_dag) or writes the
 * native TSV (the program's sink).  Pure: no I/O, errors are returned as
 * a message, never printed.  */
#ifndef MSGPERF_DAG_GEN_H
#define MSGPERF_DAG_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"

struct dag_sink
{
  void *ctx;
  /* Returns the task's handle, passed back to msg and dep.  */
  int32_t (*task) (void *ctx, const char *id, int32_t proc, double work);
  void (*msg) (void *ctx, int32_t from, int32_t to, int64_t bytes);
  void (*dep) (void *ctx, int32_t from, int32_t to);
  /* Optional (may be NULL): the counts about to be generated.  */
  void (*reserve) (void *ctx, size_t tasks, size_t msgs, size_t deps);
};

/* Parameters of every pattern (each uses some).  */
struct dag_gen
{
  const char *pattern;   /* see dag_gen_patterns */
  int64_t procs;         /* P */
  int64_t n;             /* diamond: n x n tasks; em3d: graph nodes */
  int64_t blocks;        /* diamond: b blocks per stripe */
  int64_t rounds;        /* remap rounds, pipeline items, iterations */
  double work;           /* work per task (diamond: per DAG task) */
  double alpha;          /* diamond: aggregation cost per value sent */
  int64_t bytes;         /* per message (diamond, em3d: per value) */
  const char *mapping;   /* diamond: identity, random, or "3,1,0,2" */
  const char *mode;      /* remap: async or sync */
  const char *dest;      /* remap: shift ((i+p) mod P) or random */
  const char *topology;  /* trees: a treespec.h spec (default k:2) */
  const char *topology_text; /* the contents of a file:PATH topology */
  int procs_given;       /* --procs was set (trees: must fit the spec) */
  int rounds_given;      /* --rounds was set (trees: default 1) */
  int64_t degree;        /* em3d */
  double nonlocal;       /* em3d: fraction of edges to other processors */
  int64_t span;          /* em3d: distance of remote processors */
  int64_t px, py;        /* stencil processor grid */
  int64_t nway;          /* nway-dissemination: peers per round n */
  const char *dims;      /* halo: "XxY" or "XxYxZ" */
  uint64_t seed;
};

/* Defaults for every field.  */
void dag_gen_init (struct dag_gen *g);

/* Names and one-line descriptions, NULL-terminated.  */
extern const char *const dag_gen_patterns[][2];

/* Run the generator.  Returns NULL on success, or a static message
   describing the bad parameter (the program reports it as a usage
   error).  */
const char *dag_gen_run (const struct dag_gen *g, const struct dag_sink *s);

/* A sink that builds D (the native semantics of dag_add_message).  */
struct dag_sink_dag
{
  struct dag *d;
  int64_t tag;
};
void dag_sink_dag_init (struct dag_sink *s, struct dag_sink_dag *ctx,
                        struct dag *d);

/* The field of G that --sweep NAME changes (procs or P, blocks, rounds,
   bytes, and n when WITH_N), or NULL.  */
int64_t *dag_gen_field (struct dag_gen *g, const char *name, int with_n);

/* --sweep of a generator's field F of G (dag_gen_field) to V: -1 unless
   V is a whole number >= 0.  */
int dag_gen_set_field (struct dag_gen *g, int64_t *f, double v);

#endif
