/* SPDX-License-Identifier: GPL-3.0-or-later */
/* attribute.c: msgperf-trace attribute (see attribute.h).
 *
 * The map (msgperf-trace goal --map) gives, for every operation of the
 * schedule, by rank and GOAL label, its kind (calc, send, recv) and the
 * record it comes from (seq, call; "compute" for the time before a
 * record).  A row of dag-predict names its operation by processor and
 * label, so the row gets that record's seq and call.  One exception:
 * dag-predict names the handling of a message that arrives before its
 * receive is posted by the send (the receive is not matched yet); such
 * a row (kind recv, an operation that is not a receive) has no call of
 * the receiving rank and is named "unexpected", seq NA.  */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "attribute.h"
#include "cli.h"
#include "err.h"
#include "tsv.h"
#include "xalloc.h"

struct mapent
{
  int64_t rank;
  char *task;
  char *op;
  int64_t seq;
  char *call;
};

static int
mapent_cmp (const void *a, const void *b)
{
  const struct mapent *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return strcmp (x->task, y->task);
}

struct map
{
  struct mapent *e;
  size_t n;
};

static void
map_read (const char *path, struct map *m)
{
  tsv_reader *r = tsv_open (path);
  size_t crank = tsv_col_required (r, "rank");
  size_t ctask = tsv_col_required (r, "task");
  size_t cop = tsv_col_required (r, "op");
  size_t cseq = tsv_col_required (r, "seq");
  size_t ccall = tsv_col_required (r, "call");
  size_t cap = 0;
  m->e = NULL;
  m->n = 0;
  while (tsv_next (r))
    {
      if (m->n == cap)
        {
          cap = cap ? 2 * cap : 256;
          m->e = xrealloc (m->e, cap * sizeof *m->e);
        }
      m->e[m->n++] = (struct mapent) {
        tsv_int (r, crank), xstrdup (tsv_field (r, ctask)),
        xstrdup (tsv_field (r, cop)), tsv_int (r, cseq),
        xstrdup (tsv_field (r, ccall)) };
    }
  qsort (m->e, m->n, sizeof *m->e, mapent_cmp);
  for (size_t i = 1; i < m->n; i++)
    if (mapent_cmp (&m->e[i - 1], &m->e[i]) == 0)
      die ("%s: rank %" PRId64 " has task '%s' twice", path, m->e[i].rank,
           m->e[i].task);
  tsv_close (r);
}

static void
map_free (struct map *m)
{
  for (size_t i = 0; i < m->n; i++)
    {
      free (m->e[i].task);
      free (m->e[i].op);
      free (m->e[i].call);
    }
  free (m->e);
}

/* The map's entry of the current row of R (columns CPROC, CTASK; CKIND
   or -1), NULL for an unexpected message's handling: a recv row whose
   task is not a receive of the rank (it is the sender's label, maybe
   one the rank does not have).  Dies when the map has no such
   operation otherwise.  */
static const struct mapent *
lookup (const struct map *m, const char *mappath, tsv_reader *r,
        size_t cproc, size_t ctask, long ckind)
{
  struct mapent key = { tsv_int (r, cproc), (char *) tsv_field (r, ctask),
                        NULL, 0, NULL };
  const struct mapent *e = bsearch (&key, m->e, m->n, sizeof *m->e,
                                    mapent_cmp);
  int recv = ckind >= 0
             && strcmp (tsv_field (r, (size_t) ckind), "recv") == 0;
  if (recv && (!e || strcmp (e->op, "recv") != 0))
    return NULL;
  if (!e)
    tsv_die_field (r, ctask, "no task '%s' of rank %" PRId64 " in the map "
                   "'%s' (the --map of the msgperf-trace goal that made "
                   "this schedule?)", key.task, key.rank, mappath);
  return e;
}

/* A --gantt wait row names the operation whose interval follows it,
   which may be an unexpected message's handling: it is held back, its
   fields copied, and named as the next row is.  */
struct held
{
  int on;
  int64_t proc;
  char *task;
  char **f;
  size_t n;
};

static void
hold (struct held *h, tsv_reader *r, size_t cproc, size_t ctask)
{
  h->on = 1;
  h->proc = tsv_int (r, cproc);
  h->task = xstrdup (tsv_field (r, ctask));
  h->n = tsv_ncols (r);
  h->f = xmalloc (h->n * sizeof *h->f);
  for (size_t i = 0; i < h->n; i++)
    h->f[i] = xstrdup (tsv_field (r, i));
}

static void
release (struct held *h)
{
  for (size_t i = 0; i < h->n; i++)
    free (h->f[i]);
  free (h->f);
  free (h->task);
  *h = (struct held) { 0 };
}

/* Is the current row of R a wait row (column CKIND, or -1)?  */
static int
is_wait (tsv_reader *r, long ckind)
{
  return ckind >= 0 && strcmp (tsv_field (r, (size_t) ckind), "wait") == 0;
}

/* The held wait row must be followed by its operation's row.  */
static void
check_held (const struct held *h, tsv_reader *r, size_t cproc, size_t ctask)
{
  if (h->on && (h->proc != tsv_int (r, cproc)
                || strcmp (h->task, tsv_field (r, ctask)) != 0))
    die ("%s:%ld: a wait of task '%s' (rank %" PRId64 ") not followed by "
         "that task's row (is this a dag-predict --gantt stream?)",
         tsv_name (r), tsv_lineno (r) - 1, h->task, h->proc);
}

/* --sum: (rank, call, kind) in the order first met.  */
struct sum
{
  int64_t rank;
  const char *call;
  char kind[16];
  int64_t count;
  double time;
  size_t order;
};

static int
sum_cmp (const void *a, const void *b)
{
  const struct sum *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->order > y->order) - (x->order < y->order);
}

static int opt_sum;

static struct poptOption attribute_options[] = {
  { "sum", '\0', POPT_ARG_NONE, &opt_sum, 0,
    "sum a --gantt stream: rank call kind count time, the predicted time "
    "of each rank in each call and state (compute, send, recv, wait)",
    NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* Add D to (RANK, CALL, KIND) of S.  */
static void
sum_add (struct sum **s, size_t *ns, size_t *cap, int64_t rank,
         const char *call, const char *kind, double d)
{
  size_t i = 0;
  while (i < *ns && !((*s)[i].rank == rank && strcmp ((*s)[i].call, call) == 0
                      && strcmp ((*s)[i].kind, kind) == 0))
    i++;
  if (i == *ns)
    {
      if (*ns == *cap)
        {
          *cap = *cap ? 2 * *cap : 64;
          *s = xrealloc (*s, *cap * sizeof **s);
        }
      (*s)[i] = (struct sum) { rank, call, "", 0, 0, i };
      snprintf ((*s)[i].kind, sizeof (*s)[i].kind, "%s", kind);
      (*ns)++;
    }
  (*s)[i].count++;
  (*s)[i].time += d;
}

static void
sum_rows (tsv_reader *r, tsv_writer *w, const struct map *m,
          const char *mappath)
{
  size_t cproc = tsv_col_required (r, "proc");
  size_t ctask = tsv_col_required (r, "task");
  size_t ckind = tsv_col_required (r, "kind");
  size_t cstart = tsv_col_required (r, "start");
  size_t cend = tsv_col_required (r, "end");
  struct sum *s = NULL;
  size_t ns = 0, cap = 0;
  int held = 0;
  int64_t held_proc = 0;
  double held_d = 0;
  char *held_task = NULL;
  while (tsv_next (r))
    {
      const char *kind = tsv_field (r, ckind);
      if (strcmp (kind, "compute") != 0 && strcmp (kind, "send") != 0
          && strcmp (kind, "recv") != 0 && strcmp (kind, "wait") != 0)
        tsv_die_field (r, ckind, "unknown kind '%s' (compute, send, recv "
                       "or wait)", kind);
      int64_t rank = tsv_int (r, cproc);
      double d = tsv_num (r, cend, 0) - tsv_num (r, cstart, 0);
      if (held && (held_proc != rank
                   || strcmp (held_task, tsv_field (r, ctask)) != 0))
        die ("%s:%ld: a wait of task '%s' (rank %" PRId64 ") not followed "
             "by that task's row (is this a dag-predict --gantt stream?)",
             tsv_name (r), tsv_lineno (r) - 1, held_task, held_proc);
      if (strcmp (kind, "wait") == 0)
        {
          held = 1;
          held_proc = rank;
          held_d = d;
          free (held_task);
          held_task = xstrdup (tsv_field (r, ctask));
          continue;
        }
      const struct mapent *e = lookup (m, mappath, r, cproc, ctask,
                                       (long) ckind);
      const char *call = e ? e->call : "unexpected";
      if (held)
        sum_add (&s, &ns, &cap, rank, call, "wait", held_d);
      held = 0;
      sum_add (&s, &ns, &cap, rank, call, kind, d);
    }
  if (held)
    die ("%s: ends with a wait of task '%s' (rank %" PRId64 ") without "
         "that task's row", tsv_name (r), held_task, held_proc);
  free (held_task);
  tsv_copy_meta (w, r);
  tsv_write_tool_meta (w, "attribute");
  static const char *const cols[] = { "rank", "call", "kind", "count",
                                      "time" };
  tsv_write_header (w, 5, cols);
  /* by rank, each rank's in the order met */
  qsort (s, ns, sizeof *s, sum_cmp);
  for (size_t i = 0; i < ns; i++)
    {
      tsv_put_int (w, s[i].rank);
      tsv_put_str (w, s[i].call);
      tsv_put_str (w, s[i].kind);
      tsv_put_int (w, s[i].count);
      tsv_put_num (w, s[i].time);
      tsv_end_row (w);
    }
  free (s);
}

static void
put_name (tsv_writer *w, const struct mapent *e)
{
  if (e)
    tsv_put_int (w, e->seq);
  else
    tsv_put_na (w);
  tsv_put_str (w, e ? e->call : "unexpected");
}

static void
name_rows (tsv_reader *r, tsv_writer *w, const struct map *m,
           const char *mappath)
{
  size_t cproc = tsv_col_required (r, "proc");
  size_t ctask = tsv_col_required (r, "task");
  long ckind = tsv_col (r, "kind");
  if (tsv_col (r, "seq") >= 0 || tsv_col (r, "call") >= 0)
    die ("%s: already has a 'seq' or 'call' column", tsv_name (r));
  tsv_copy_meta (w, r);
  tsv_write_tool_meta (w, "attribute");
  size_t n = tsv_ncols (r);
  const char **cols = xmalloc ((n + 2) * sizeof *cols);
  for (size_t i = 0; i < n; i++)
    cols[i] = tsv_colname (r, i);
  cols[n] = "seq";
  cols[n + 1] = "call";
  tsv_write_header (w, n + 2, cols);
  free (cols);
  struct held h = { 0 };
  while (tsv_next (r))
    {
      check_held (&h, r, cproc, ctask);
      if (is_wait (r, ckind))
        {
          hold (&h, r, cproc, ctask);
          continue;
        }
      const struct mapent *e = lookup (m, mappath, r, cproc, ctask, ckind);
      if (h.on)
        {
          for (size_t i = 0; i < h.n; i++)
            tsv_put_str (w, h.f[i]);
          put_name (w, e);
          tsv_end_row (w);
          release (&h);
        }
      tsv_put_fields (w, r);
      put_name (w, e);
      tsv_end_row (w);
    }
  if (h.on)
    die ("%s: ends with a wait of task '%s' (rank %" PRId64 ") without "
         "that task's row", tsv_name (r), h.task, h.proc);
}

int
attribute (int argc, const char **argv)
{
  poptContext con = cli_parse (argc, argv, attribute_options, "MAP [FILE]",
                               NULL);
  const char **args = poptGetArgs (con);
  if (!args || !args[0])
    die_usage ("attribute: missing MAP (the --map of msgperf-trace goal)");
  if (args[1] && args[2])
    die_usage ("attribute: one FILE only, got also '%s'", args[2]);
  struct map m;
  map_read (args[0], &m);
  tsv_reader *r = tsv_open (args[1]);
  tsv_writer *w = tsv_writer_open (NULL);
  if (opt_sum)
    sum_rows (r, w, &m, args[0]);
  else
    name_rows (r, w, &m, args[0]);
  tsv_writer_close (w);
  tsv_close (r);
  map_free (&m);
  poptFreeContext (con);
  return 0;
}
