/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topo_read: a topology file (from, to, G, L) into a struct dag_topo,
   with errors naming the file, line and column.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "params.h"
#include "topo_read.h"
#include "xalloc.h"

/* Column I of the current row of R, a time (per byte for G) >= 0 or NA
   (NaN).  */
static double
topo_time (tsv_reader *r, long i)
{
  if (i < 0)
    return NAN;
  double v = tsv_num (r, (size_t) i, 1);
  if (v < 0)
    tsv_die_field (r, (size_t) i, "'%s' is negative (expected a time %s>= "
                   "0, or NA)", tsv_field (r, (size_t) i),
                   strcmp (tsv_colname (r, (size_t) i), "G") == 0
                   ? "per byte " : "");
  return v;
}

/* Every column of R's header is one of from, to, G, L, duplex.  */
static void
topo_columns (struct dag_topo_file *t, tsv_reader *r)
{
  static const char *const known[] = { "from", "to", "G", "L", "duplex" };
  for (size_t i = 0; i < tsv_ncols (r); i++)
    {
      size_t k = 0;
      while (k < 5 && strcmp (tsv_colname (r, i), known[k]) != 0)
        k++;
      if (k == 5)
        die_at (tsv_name (r), tsv_lineno (r), (long) i + 1, "unknown column "
                "'%s' (a topology has from, to, and optionally G, L and "
                "duplex)",
                tsv_colname (r, i));
    }
  t->cfrom = tsv_col_required (r, "from");
  t->cto = tsv_col_required (r, "to");
}

/* One row of R as a link; dies on a link to itself, a second copy of a
   link, or a number that names no rank.  */
static void
topo_row (struct dag_topo_file *t, tsv_reader *r, long cG, long cL,
          long cD)
{
  int half = 0;
  if (cD >= 0)
    {
      const char *d = tsv_field (r, (size_t) cD);
      half = strcmp (d, "half") == 0;
      if (!half && strcmp (d, "full") != 0 && strcmp (d, "NA") != 0)
        tsv_die_field (r, (size_t) cD, "'%s' is no duplex (expected full, "
                       "half or NA)", d);
    }
  double G = topo_time (r, cG), L = topo_time (r, cL);
  const char *from = tsv_field (r, t->cfrom), *to = tsv_field (r, t->cto);
  size_t which;
  switch (dag_topo_add (&t->topo, from, to, G, isnan (L) ? 0 : L, &which))
    {
    case DAG_TOPO_OK:
      break;
    case DAG_TOPO_SELF:
      tsv_die_field (r, t->cto, "a link from '%s' to itself (links join "
                     "two different nodes)", from);
    case DAG_TOPO_DUPLICATE:
      tsv_die_field (r, t->cto, "the link '%s' -> '%s' again (first on "
                     "line %ld; one row per directed link)", from, to,
                     t->line[which]);
    case DAG_TOPO_BADRANK:
      tsv_die_field (r, which ? t->cto : t->cfrom, "'%s' is a number "
                     "but no rank (ranks are 0, 1, 2 ... without leading "
                     "zeros, below 2147483647)", which ? to : from);
    default:
      die ("internal error: dag_topo_add");
    }
  if (t->topo.nlinks > t->line_cap)
    {
      t->line_cap = t->topo.link_cap;
      t->line = xrealloc (t->line, t->line_cap * sizeof *t->line);
    }
  t->line[t->topo.nlinks - 1] = tsv_lineno (r);
  if (half)
    t->topo.link[t->topo.nlinks - 1].twin = -2;   /* paired at the end */
}

/* Pair every half-duplex link of T (twin -2) with its reverse link,
   which must exist; column CD of FILE for the error.  */
static void
topo_pair_half (struct dag_topo_file *t, const char *file, long cD)
{
  for (size_t i = 0; i < t->topo.nlinks; i++)
    if (t->topo.link[i].twin == -2 && dag_topo_half (&t->topo, i) < 0)
      die_at (file, t->line[i], cD + 1, "'half': the link '%s' -> '%s' is "
              "half duplex, but there is no link '%s' -> '%s' to share its "
              "medium with", dag_topo_name (&t->topo, t->topo.link[i].from),
              dag_topo_name (&t->topo, t->topo.link[i].to),
              dag_topo_name (&t->topo, t->topo.link[i].to),
              dag_topo_name (&t->topo, t->topo.link[i].from));
}

/* The times of the topology R into the schedule's unit UNIT.  TIMED:
   the line of the first link with a time (0: none, and then the units
   do not matter).  */
static void
topo_units (struct dag_topo_file *t, tsv_reader *r, const char *unit,
            long timed)
{
  const char *tu = tsv_meta_get (r, "time_unit");
  double scale = 1;
  if (!timed || (tu && unit && strcmp (tu, unit) == 0))
    return;
  if (!tu)
    die_at (tsv_name (r), timed, 0, "a link time, but no #@time_unit line, "
            "and the schedule's times are in %s: declare the file's unit "
            "with a '#@time_unit=UNIT' line (s, ms, us, ns)",
            unit ? unit : "no unit");
  if (!unit)
    die ("%s: its times are in %s, and the schedule has no time unit: give "
         "--time-unit UNIT", tsv_name (r), tu);
  if (param_time_scale (tu, unit, &scale) != 0)
    die ("%s: its times are in %s and the schedule's in %s: only s, ms, us "
         "and ns convert", tsv_name (r), tu, unit);
  char f[NUM_BUFSIZE];
  num_format (scale, -1, f);
  snprintf (t->conversion, sizeof t->conversion, "%s to %s (x%s)", tu,
            unit, f);
  for (size_t i = 0; i < t->topo.nlinks; i++)
    {
      t->topo.link[i].G = param_scale_value (t->topo.link[i].G, scale);
      t->topo.link[i].L = param_scale_value (t->topo.link[i].L, scale);
    }
}

void
dag_topo_read (struct dag_topo_file *t, const char *file, const char *unit)
{
  tsv_reader *r = tsv_open (file);
  t->name = xstrdup (tsv_name (r));
  topo_columns (t, r);
  long cG = tsv_col (r, "G"), cL = tsv_col (r, "L");
  long cD = tsv_col (r, "duplex");
  long timed = 0;
  dag_topo_init (&t->topo);
  while (tsv_next (r))
    {
      topo_row (t, r, cG, cL, cD);
      const struct dag_topo_link *l = &t->topo.link[t->topo.nlinks - 1];
      if (!timed && (l->G > 0 || l->L > 0))
        timed = tsv_lineno (r);
    }
  topo_units (t, r, unit, timed);
  topo_pair_half (t, tsv_name (r), cD);
  dag_topo_finish (&t->topo);
  t->nmeta = tsv_nmeta (r);
  t->meta = xmalloc ((t->nmeta ? t->nmeta : 1) * sizeof *t->meta);
  for (size_t i = 0; i < t->nmeta; i++)
    t->meta[i] = xstrdup (tsv_meta_line (r, i));
  tsv_close (r);
}

void
dag_topo_check (struct dag_topo_file *t, const struct dag *d)
{
  int32_t u = dag_topo_rank_over (&t->topo, d->nprocs);
  if (u >= 0)
    {
      size_t i = t->topo.first_link[u];
      size_t col = t->topo.link[i].from == u ? t->cfrom : t->cto;
      die_at (t->name, t->line[i], (long) col + 1, "rank '%s', but the "
              "schedule has %ld ranks (0 to %ld)",
              dag_topo_name (&t->topo, u), (long) d->nprocs,
              (long) d->nprocs - 1);
    }
  int32_t a, b;
  if (dag_topo_route_dag (&t->topo, d, &a, &b) != DAG_TOPO_OK)
    die ("%s: no route from rank %ld to rank %ld, and the schedule sends "
         "from one to the other (link them, through switches if need be)",
         t->name, (long) a, (long) b);
}

void
dag_topo_write_meta (tsv_writer *w, const struct dag_topo_file *t)
{
  for (size_t i = 0; i < t->nmeta; i++)
    {
      const char *m = t->meta[i], *eq = strchr (m, '=');
      int klen = eq ? (int) (eq - m) : (int) strlen (m);
      char key[256];
      snprintf (key, sizeof key, "network_%.*s", klen, m);
      tsv_meta (w, key, "%s", eq ? eq + 1 : "");
    }
  if (t->conversion[0])
    tsv_meta (w, "network_time_conversion", "%s", t->conversion);
}

void
dag_topo_file_free (struct dag_topo_file *t)
{
  if (t->name)
    dag_topo_free (&t->topo);
  free (t->line);
  free (t->name);
  for (size_t i = 0; i < t->nmeta; i++)
    free (t->meta[i]);
  free (t->meta);
}
