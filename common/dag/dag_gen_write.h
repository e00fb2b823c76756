/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_gen_write.h: dag-predict gen's output: a generator's DAG (a
   pattern of dag_gen.h or a collective of dag_coll.h) written as native
   TSV while it is generated, and the list of the collectives.  */
#ifndef MSGPERF_DAG_GEN_WRITE_H
#define MSGPERF_DAG_GEN_WRITE_H

#include "dag.h"
#include "dag_coll.h"
#include "dag_gen.h"
#include "tsv.h"

/* Run GEN's pattern into S: a collective (C: its root, segment and
   reduce_cost; its name, procs and bytes are GEN's) or a pattern of
   dag_gen.h.  Returns NULL, or what is wrong with the options.  */
const char *dag_gen_any (const struct dag_gen *gen, const struct dag_coll *c,
                         const struct dag_sink *s);

/* GEN's DAG on standard output: its metadata (the pattern, the options
   it used, TIME_UNIT) and a row per task, message and dependency (kind
   id proc work from to bytes).  The options must have been checked (a
   dry run of dag_gen_any): an error here leaves the stream short.  */
void dag_gen_write (const struct dag_gen *gen, const struct dag_coll *c,
                    const char *time_unit);

/* gen coll:list on standard output: pattern, description.  */
void dag_coll_write_list (void);

/* A dry run of GEN's pattern into a DAG that is thrown away: NULL, or
   what is wrong with the options (as dag_gen_any).  */
const char *dag_gen_check (const struct dag_gen *gen,
                           const struct dag_coll *c);

/* The names of dag_gen_patterns, separated by ", ", in LIST (SIZE
   bytes, cut short if need be); returns LIST.  */
char *dag_gen_pattern_list (char *list, size_t size);

/* A file:PATH topology of G read into G->topology_text (once).  */
void dag_gen_load_topology (struct dag_gen *g);

/* Generate PATTERN into D (which this initializes) with G's fields and
   C's (a collective coll:OP:ALGO) or a pattern of dag_gen.h; a file:PATH
   topology is read once into G.  Errors are usage errors.  */
void dag_generate (struct dag_gen *g, struct dag_coll *c, const char *pattern,
                   struct dag *d);

#endif
