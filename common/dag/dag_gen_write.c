/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_gen_write.c: a generator's DAG written as native TSV as it is
   generated, and the list of the collectives (dag_gen_write.h).  */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_decide.h"
#include "dag_gen_write.h"
#include "err.h"
#include "readfile.h"
#include "treespec.h"

/* The sink that writes: a row per task, message and dependency, the
   tasks' names kept to name the edges' ends.  */
struct tsv_sink
{
  tsv_writer *w;
  struct dag names;      /* only the name pool is used */
  int32_t *name;         /* per task handle */
  size_t n, cap;
};

static int32_t
ts_task (void *ctx, const char *id, int32_t proc, double work)
{
  struct tsv_sink *s = ctx;
  if (s->n == s->cap)
    {
      s->cap = s->cap ? 2 * s->cap : 1024;
      s->name = realloc (s->name, s->cap * sizeof *s->name);
      if (!s->name)
        die ("out of memory");
    }
  s->name[s->n] = dag_intern (&s->names, id, strlen (id));
  tsv_put_str (s->w, "task");
  tsv_put_str (s->w, id);
  tsv_put_int (s->w, proc);
  tsv_put_num (s->w, work);
  tsv_put_na (s->w);
  tsv_put_na (s->w);
  tsv_put_na (s->w);
  tsv_end_row (s->w);
  return (int32_t) s->n++;
}

static void
ts_edge (struct tsv_sink *s, const char *kind, int32_t from, int32_t to,
         int64_t bytes)
{
  tsv_put_str (s->w, kind);
  tsv_put_na (s->w);
  tsv_put_na (s->w);
  tsv_put_na (s->w);
  tsv_put_str (s->w, dag_name (&s->names, s->name[from]));
  tsv_put_str (s->w, dag_name (&s->names, s->name[to]));
  if (bytes >= 0)
    tsv_put_int (s->w, bytes);
  else
    tsv_put_na (s->w);
  tsv_end_row (s->w);
}

static void
ts_msg (void *ctx, int32_t from, int32_t to, int64_t bytes)
{
  ts_edge (ctx, "msg", from, to, bytes);
}

static void
ts_dep (void *ctx, int32_t from, int32_t to)
{
  ts_edge (ctx, "dep", from, to, -1);
}

/* gen coll:list: the collectives, one row each.  */
void
dag_coll_write_list (void)
{
  tsv_writer *w = tsv_writer_open (NULL);
  tsv_write_tool_meta (w, "gen");
  static const char *cols[] = { "pattern", "description" };
  tsv_write_header (w, 2, cols);
  char name[64];
  for (size_t i = 0; dag_coll_algorithms[i][0]; i++)
    {
      snprintf (name, sizeof name, "%s%s", DAG_COLL_PREFIX,
                dag_coll_algorithms[i][0]);
      tsv_put_str (w, name);
      tsv_put_str (w, dag_coll_algorithms[i][1]);
      tsv_end_row (w);
    }
  tsv_writer_close (w);
}

const char *
dag_gen_any (const struct dag_gen *gen, const struct dag_coll *c,
             const struct dag_sink *s)
{
  if (!dag_coll_is (gen->pattern))
    return dag_gen_run (gen, s);
  if (gen->work != 0)
    return "the collectives take no --work: their computation is the "
             "reduction's, --reduce-cost";
  if (c->reduce_cost > 0 && strncmp (gen->pattern, "coll:reduce:", 12) != 0
      && strncmp (gen->pattern, "coll:allreduce:", 15) != 0)
    return "--reduce-cost applies to coll:reduce and coll:allreduce only";
  return dag_coll_run (c, s);
}

/* coll:OP:default: the algorithm it resolved to (coll_decide.h).  */
static void
write_default_algorithm (tsv_writer *w, const struct dag_gen *gen)
{
  const char *op = gen->pattern + sizeof DAG_COLL_PREFIX - 1;
  const char *colon = strchr (op, ':');
  if (!colon || strcmp (colon + 1, "default") != 0)
    return;
  char opname[32];
  snprintf (opname, sizeof opname, "%.*s", (int) (colon - op), op);
  const char *a = coll_decide_default (opname, gen->procs, gen->bytes);
  if (a)
    tsv_meta (w, "algorithm", "%s", a);
}

void
dag_gen_write (const struct dag_gen *gen, const struct dag_coll *c,
               const char *time_unit)
{
  tsv_writer *w = tsv_writer_open (NULL);
  tsv_write_tool_meta (w, "gen");
  tsv_meta (w, "pattern", "%s", gen->pattern);
  if (dag_coll_is (gen->pattern))
    {
      tsv_meta (w, "procs", "%lld", (long long) gen->procs);
      tsv_meta (w, "bytes", "%lld", (long long) gen->bytes);
      write_default_algorithm (w, gen);
      if (c->root >= 0)
        tsv_meta (w, "root", "%lld", (long long) c->root);
      if (c->segment > 0)
        tsv_meta (w, "segment", "%lld", (long long) c->segment);
      if (c->reduce_cost > 0)
        tsv_meta_num (w, "reduce_cost", c->reduce_cost, -1);
    }
  if (strcmp (gen->pattern, "nway-dissemination") == 0)
    tsv_meta (w, "nway", "%lld", (long long) gen->nway);
  if (strcmp (gen->pattern, "halo") == 0)
    tsv_meta (w, "dims", "%s", gen->dims);
  tsv_meta (w, "seed", "%llu", (unsigned long long) gen->seed);
  tsv_meta_time_unit (w, time_unit);
  static const char *cols[] = { "kind", "id", "proc", "work", "from", "to",
                                "bytes" };
  struct tsv_sink ts;
  memset (&ts, 0, sizeof ts);
  ts.w = w;
  dag_init (&ts.names, "gen");
  struct dag_sink sink = { &ts, ts_task, ts_msg, ts_dep, NULL };
  tsv_write_header (w, 7, cols);
  dag_gen_any (gen, c, &sink);
  tsv_writer_close (w);
  dag_free (&ts.names);
  free (ts.name);
}

const char *
dag_gen_check (const struct dag_gen *gen, const struct dag_coll *c)
{
  struct dag probe;
  struct dag_sink ps;
  struct dag_sink_dag pc;
  dag_init (&probe, "gen");
  dag_sink_dag_init (&ps, &pc, &probe);
  const char *err = dag_gen_any (gen, c, &ps);
  dag_free (&probe);
  return err;
}

char *
dag_gen_pattern_list (char *list, size_t size)
{
  size_t n = 0;
  list[0] = '\0';
  for (size_t i = 0; dag_gen_patterns[i][0] && n < size; i++)
    n += (size_t) snprintf (list + n, size - n, "%s%s", i ? ", " : "",
                            dag_gen_patterns[i][0]);
  return list;
}

void
dag_gen_load_topology (struct dag_gen *g)
{
  /* its text for treespec_parse_text (read once; unreadable is a usage
     error, as in comet-run) */
  const char *path = treespec_file_path (g->topology);
  if (path && !g->topology_text)
    g->topology_text = read_option_file ("topology", path);
}

void
dag_generate (struct dag_gen *g, struct dag_coll *c, const char *pattern,
              struct dag *d)
{
  dag_gen_load_topology (g);
  struct dag_sink sink;
  struct dag_sink_dag ctx;
  g->pattern = pattern;
  c->name = pattern;
  c->procs = g->procs;
  c->bytes = g->bytes;
  dag_init (d, "gen");
  dag_sink_dag_init (&sink, &ctx, d);
  const char *err = dag_gen_any (g, c, &sink);
  if (err)
    die_usage ("gen %s: %s", pattern, err);
}
