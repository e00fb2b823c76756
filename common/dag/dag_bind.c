/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_bind: the parameter layers of params.h resolved into the
   dag_params of a model (dagmodel.h).  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dag_bind.h"
#include "dagcost.h"
#include "err.h"
#include "num.h"
#include "paramsizes.h"
#include "xalloc.h"

const unsigned char *
dag_bind_usable (void)
{
  static unsigned char u[PARAM_NPARAM];
  struct dag_params d;
  for (int k = 0; k < PARAM_NPARAM; k++)
    u[k] = dag_params_field (&d, k) != NULL;
  return u;
}

int
dag_bind_sweep_param (const char *name)
{
  int ks[2];
  int n = param_lookup (name, ks, NULL);
  if (n != 1)
    return -1;
  struct dag_params d;
  return dag_params_field (&d, ks[0]) ? ks[0] : -1;
}

/* Does model M read parameter NAME (-m plogp: L and a given S; its
   overheads and gaps come from the table)?  */
static int
model_uses (const struct dag_bind *b, enum dag_model m, const char *name)
{
  if (m == MODEL_PLOGP && strcmp (name, "S") == 0)
    return 1;
  if (b->cores && strcmp (name, "cs") == 0)
    return 1;
  for (const char *const *p = dag_model_param_names (m); *p; p++)
    if (strcmp (*p, name) == 0)
      return 1;
  return 0;
}

void
dag_bind_sweep_name (const struct dag_bind *b, int model, const char *name)
{
  if (dag_bind_sweep_param (name) < 0 && strcmp (name, "o") != 0)
    die_usage ("option '--sweep': unknown parameter '%s' (a model "
               "parameter, or procs, n, blocks, rounds, bytes with "
               "--gen)", name);
  if (strcmp (name, "o") == 0)
    die_usage ("option '--sweep': sweep os or or, not o");
  if (model_uses (b, model, name))
    return;
  char list[128] = "";
  size_t n = 0;
  for (const char *const *p = dag_model_param_names (model); *p; p++)
    n += (size_t) snprintf (list + n, sizeof list - n, "%s%s",
                            n ? ", " : "", *p);
  if (model == MODEL_PLOGP)
    snprintf (list + n, sizeof list - n, ", S; os, or and g per size "
              "from --params");
  die_usage ("option '--sweep': -m %s does not use %s: every row would "
             "be the same (its parameters: %s)", dag_model_name (model),
             name, list);
}

/* Checked against the parameter table's range.  */
void
dag_bind_sweep_range (const char *name, const double *vals, size_t n)
{
  int k = dag_bind_sweep_param (name);
  for (size_t i = 0; k >= 0 && i < n; i++)
    if (!param_in_range (k, vals[i]))
      {
        char v[NUM_BUFSIZE];
        num_format (vals[i], -1, v);
        die_usage ("option '--sweep': %s=%s is out of range (%s expected "
                   "for %s)", name, v, param_range_text (k),
                   param_defs[k].help);
      }
}

/* A time default is in LogGOPSim's nanoseconds: it is converted to the
   schedule's unit (SCALE), and with a parameter file a nonzero time
   default is dropped, so a time the file lacks is an error rather than a
   number from another unit (zero, sizes and counts are the same in every
   unit).  */
void
dag_bind_defaults (struct dag_bind *b, double scale, int with_file)
{
  struct dag_params d;
  dag_params_default (&d);
  param_set_clear (&b->p_default);
  for (int k = 0; k < PARAM_NPARAM; k++)
    {
      double *f = dag_params_field (&d, k);
      if (!f || isnan (*f))
        continue;
      int timed = param_defs[k].unit != PUNIT_NONE
                  && param_defs[k].unit != PUNIT_BYTES && *f != 0;
      if (timed && with_file)
        continue;
      param_set_value (&b->p_default, k,
                       timed ? param_scale_value (*f, scale) : *f,
                       PORIGIN_DEFAULT);
    }
}

/* With B->signed_L, parameter row ROW's L when it is a finite number
   below 0 (and USE[PARAM_L] cleared, so that param_file_apply does not
   refuse it); else 0, USE unchanged.  */
static double
plogp_negative_L (const struct dag_bind *b, size_t row, unsigned char *use)
{
  const char *text = b->signed_L && use[PARAM_L]
                     ? param_file_get (b->pfile, row, "L") : NULL;
  double v;
  if (!text || num_parse (text, strlen (text), &v) != NUM_OK
      || !isfinite (v) || !(v < 0))
    return 0;
  use[PARAM_L] = 0;
  return v;
}

/* The file's layer for row R: only the columns of the parameters the
   model needs, and --set does not give, are read (a negative g the
   measurement left in a row is no error for a model without g or with
   --set g=...).  */
static void
file_layer (struct dag_bind *b, const char *const *need, size_t r,
            double file_scale)
{
  unsigned char use[PARAM_NPARAM] = { 0 };
  for (const char *const *n = need; *n; n++)
    {
      int ks[2];
      if (param_lookup (*n, ks, NULL) == 1 && !param_given (&b->p_set, ks[0]))
        use[ks[0]] = 1;
    }
  /* -m plogp: a negative L in the row is pLogP's own (g(0) > RTT(0)/2,
     as over TCP): read it here, past the L >= 0 check of the other
     models; plogp_init checks L + g(m) >= 0.  */
  /* --cores: a core's switch time, where the file has it (0, free
     switches, where it has not) */
  if (b->cores && !param_given (&b->p_set, PARAM_CS))
    use[PARAM_CS] = 1;
  double neg_L = plogp_negative_L (b, b->prow[r], use);
  param_set_clear (&b->p_file);
  param_file_apply (b->pfile, b->prow[r], &b->p_file, file_scale, use);
  if (neg_L < 0)
    param_set_value (&b->p_file, PARAM_L,
                     param_scale_value (neg_L, file_scale), PORIGIN_FILE);
}

/* Every parameter the model needs must be given (the NA policy), the
   others keep dag_params_default's value.  */
void
dag_bind_resolve (struct dag_bind *b, const char *const *need, size_t r,
                  double file_scale)
{
  struct param_set ps = b->p_default;
  if (b->pfile)
    {
      file_layer (b, need, r, file_scale);
      param_set_over (&ps, &b->p_file);
    }
  param_set_over (&ps, &b->p_set);
  dag_params_default (&b->params);
  for (const char *const *n = need; *n; n++)
    {
      int ks[2];
      param_lookup (*n, ks, NULL);
      char hint[64];
      snprintf (hint, sizeof hint, "--set %s=VALUE", *n);
      /* Gc unset means G (logpc_gc_default) */
      if (ks[0] == PARAM_GC && !param_given (&ps, PARAM_GC) && !ps.na[ks[0]])
        continue;
      *dag_params_field (&b->params, ks[0]) = param_need (&ps, ks[0], hint);
    }
  /* the diamond closed form reads L, os and G whatever the model */
  for (int k = 0; k < PARAM_NPARAM; k++)
    if (dag_params_field (&b->params, k) && param_given (&ps, k))
      *dag_params_field (&b->params, k) = ps.v[k];
  /* S from --set (or a file): LogGOPSim's default 65535 is not -m
     plogp's, which has no rendezvous unless told.  */
  b->params.S_given = param_given (&ps, PARAM_S)
                      && ps.origin[PARAM_S] != PORIGIN_DEFAULT;
}

/* The output's unit: the input's, a GOAL schedule's own line, or
   --time-unit; LogGOPSim's ns for a GOAL schedule with none.  */
static const char *
schedule_unit (struct dag_units *u, const struct param_file *pf,
               const char *unit, const char *goal_unit, int goal,
               const char *time_unit)
{
  if (time_unit && unit && strcmp (unit, time_unit) != 0)
    die ("--time-unit %s, but the input says #@time_unit=%s", time_unit,
         unit);
  if (!unit && goal_unit[0])
    {
      unit = goal_unit;   /* its "// #@time_unit=" line */
      if (!tsv_time_unit_valid (unit))
        die ("the schedule's '// #@time_unit=%s': not a time unit (s, ms, "
             "us, ns, cycles)", unit);
      if (time_unit && strcmp (unit, time_unit) != 0)
        die ("--time-unit %s, but the schedule says // #@time_unit=%s",
             time_unit, unit);
    }
  if (!unit)
    unit = time_unit;
  u->goal_default_unit = goal && !unit;
  if (u->goal_default_unit && pf && pf->time_unit
      && strcmp (pf->time_unit, "ns") != 0)
    warn ("the GOAL schedule has no '// #@time_unit=UNIT' line: its times "
          "are read in ns (LogGOPSim's), and %s's converted from %s; give "
          "--time-unit if the schedule's are in another unit",
          pf->name, pf->time_unit);
  return u->goal_default_unit ? "ns" : unit;
}

void
dag_bind_units (struct dag_bind *b, struct dag_units *u,
                const char *unit_in, const char *goal_unit, int goal,
                const char *time_unit, const char *const *need)
{
  const struct param_file *pf = b->pfile;
  const char *unit = schedule_unit (u, pf, unit_in, goal_unit, goal,
                                    time_unit);
  u->file_scale = 1;
  if (pf)
    {
      const char *pu = pf->time_unit ? pf->time_unit : time_unit;
      if (!pu && unit)
        die ("%s: no #@time_unit line, and the schedule's times are in "
             "%s%s: declare the file's unit with a '#@time_unit=UNIT' line "
             "(s, ms, us, ns) or --time-unit UNIT", pf->name, unit,
             u->goal_default_unit ? " (a GOAL schedule's default)" : "");
      if (pu && !unit)
        unit = pu;
      else if (pu && strcmp (pu, unit) != 0)
        {
          if (param_time_scale (pu, unit, &u->file_scale) != 0)
            die ("%s: its times are in %s and the schedule's in %s: only "
                 "s, ms, us and ns convert (use --time-unit on a schedule "
                 "without a unit)", pf->name, pu, unit);
          char f[NUM_BUFSIZE];
          num_format (u->file_scale, -1, f);
          snprintf (u->conversion, sizeof u->conversion, "%s to %s (x%s)",
                    pu, unit, f);
        }
    }
  u->unit = unit;
  /* LogGOPSim's defaults are in ns.  */
  double def_scale = 1;
  int convertible = !unit || param_time_scale ("ns", unit, &def_scale) == 0;
  dag_bind_defaults (b, def_scale, pf != NULL || !convertible);
  if (!pf)
    dag_bind_resolve (b, need, 0, 1);
}

/* A mesh gives LoGPC's n and kd (eq. (11)).  */
void
dag_bind_network (struct dag_bind *b, const struct dag_netspec *ns,
                  const char *text, struct dag_topo *topo,
                  const struct dag *d)
{
  int64_t P = d->nprocs;
  b->params.network = ns->kind;
  b->params.topo = ns->kind == DAG_NET_TOPOLOGY ? topo : NULL;
  if (b->params.topo)
    b->params.topo->fifo = ns->fifo;
  b->params.net = ns->net;
  b->params.net_arg = ns->arg;
  b->params.progress = b->progress;
  b->params.cores = b->cores;
  if (!b->cores && param_given (&b->p_set, PARAM_CS))
    die_usage ("option '--set': cs is the switch time of a core that "
               "ranks share: it needs --cores");
  /* --cores shares one CPU between ranks: which of a rank's several
     CPUs would it be?  */
  if (b->cores && (d->maxcpu > 0 || d->maxnic > 0))
    die_usage ("option '--cores': %s gives its ranks several CPUs or "
               "NICs (cpu up to %ld, nic up to %ld): ranks that share "
               "cores have one of each", d->source, (long) d->maxcpu,
               (long) d->maxnic);
  if (ns->kind != DAG_NET_MESH)
    return;
  struct kcube t;
  if (dag_network_mesh (ns, P, &t) != 0)
    die_usage ("option '--network': '%s' has %ld nodes, fewer than the "
               "schedule's %ld processors", text,
               (long) kcube_nodes (&t), (long) P);
  b->params.n = t.n;
  b->params.kd = dag_network_kd (&t);
}

void
dag_bind_plogp (struct dag_bind *b, struct plogp *t, double file_scale)
{
  size_t n = b->nprow;
  /* the one reader of per-size tables (params.h); L is read below */
  double *v = xmalloc (n * 5 * sizeof *v);
  param_plogp_rows (b->pfile, b->prow, n, file_scale, "-m plogp", 0, v);
  struct plogp_point *pts = xmalloc (n * sizeof *pts);
  for (size_t k = 0; k < n; k++)
    pts[k] = (struct plogp_point) { v[5 * k], v[5 * k + 1], v[5 * k + 2],
                                    v[5 * k + 3] };
  free (v);
  /* pLogP's L is the pair's (and the launch's): one value for the
     table, taken from its first row unless --set gives it; rows that
     disagree are of several pairs or measurements.  */
  if (!param_given (&b->p_set, PARAM_L))
    param_file_same_value (b->pfile, b->prow, n, "L", "-m plogp",
                           "select one pair with --where src=I,dst=J, or "
                           "give L with --set");
  size_t which = 0;
  enum plogp_status st = plogp_init (t, pts, n, b->params.L, &which);
  free (pts);
  if (st == PLOGP_NOMEM)
    die ("out of memory while reading the per-size table of %s",
         b->pfile->name);
  if (st != PLOGP_OK)
    param_plogp_fail (b->pfile, b->prow, n, which, "-m plogp",
                      plogp_status_text (st), NULL);
  b->params.plogp = t;
}

/* Then the messages' costs outside the table follow the last segment's
   slope, or the smallest size's values.  */
void
dag_bind_plogp_meta (tsv_writer *w, const struct dag_bind *b,
                     const struct plogp *t, const struct dag *ds, size_t nd)
{
  char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE];
  num_format (t->pt[0].bytes, -1, lo);
  num_format (t->pt[t->n - 1].bytes, -1, hi);
  tsv_meta (w, "plogp_sizes", "%zu sizes, %s to %s bytes", t->n, lo, hi);
  if (b->params.S_given)
    {
      char sb[NUM_BUFSIZE];
      num_format (b->params.S, -1, sb);
      tsv_meta (w, "plogp_rendezvous", "messages above S = %s bytes: the "
                "send completes when its receive is posted (LogGOPS)", sb);
    }
  if (t->L < 0)
    {
      char l[NUM_BUFSIZE];
      num_format (t->L, -1, l);
      tsv_meta (w, "plogp_L_negative", "L = %s: pLogP's (RTT(0) - 2 g(0))/2 "
                "with g(0) > RTT(0)/2; a message still takes its measured "
                "one-way time L + g(m) = RTT(m) - RTT(0)/2", l);
    }
  if (t->nneg_g)
    tsv_meta (w, "plogp_g_negative", "%zu size%s with g(m) < 0 (RTT(m) "
              "measured below RTT(0) - g(0): noise on a tiny size), the "
              "gap taken as 0 there", t->nneg_g, t->nneg_g == 1 ? "" : "s");
  double big = -1, small = INFINITY;
  for (size_t k = 0; k < nd; k++)
    for (size_t v = 0; v < ds[k].n; v++)
      if (ds[k].node[v].op == DAG_SEND)
        {
          double x = (double) ds[k].node[v].u.bytes;
          big = x > big ? x : big;
          small = x < small ? x : small;
        }
  param_plogp_range_meta (w, t->pt[0].bytes, t->pt[t->n - 1].bytes,
                          small == INFINITY ? -1 : small, big, NULL);
}

void
dag_bind_write_meta (tsv_writer *w, const struct dag_bind *b,
                     const char *where, const char *conversion)
{
  if (!b->pfile)
    return;
  param_file_write_meta (b->pfile, w);
  if (where)
    tsv_meta (w, "params_where", "%s", where);
  if (conversion[0])
    tsv_meta (w, "params_time_conversion", "%s", conversion);
}

const char *
dag_bind_file_unit (const struct dag_bind *b, const char *unit,
                    double *scale, char *conversion)
{
  const char *pu = b->pfile->time_unit;
  if (pu && unit && strcmp (pu, unit) != 0)
    {
      if (param_time_scale (pu, unit, scale) != 0)
        die ("%s: its times are in %s, --time-unit says %s: only s, ms, "
             "us and ns convert", b->pfile->name, pu, unit);
      char f[NUM_BUFSIZE];
      num_format (*scale, -1, f);
      snprintf (conversion, 128, "%s to %s (x%s)", pu, unit, f);
    }
  return unit ? unit : pu;
}

void
dag_bind_sweep_set (struct dag_bind *b, const char *name, double val,
                    struct plogp *t)
{
  if (dag_params_set (&b->params, name, val) != 0)
    die_usage ("option '--sweep': %s out of range", name);
  if (t && strcmp (name, "L") == 0)
    t->L = val;   /* >= 0, as every g(m) of the table */
  if (strcmp (name, "S") == 0)
    b->params.S_given = 1;
}

char *
dag_bind_network_option (const char *text, struct dag_netspec *ns,
                         char *old)
{
  int col;
  const char *why;
  free (ns->arg);
  if (dag_network_parse (text, ns, &col, &why) != 0)
    die_usage ("option '--network': '%s': column %d: expected %s", text,
               col, why);
  free (old);
  char *copy = strdup (text);
  if (!copy)
    die ("out of memory");
  if (ns->kind == DAG_NET_TOPOLOGY)
    ns->file = copy + strlen (ns->fifo ? "topology-fifo:" : "topology:");
  return copy;
}

const struct dagcost_progress *
dag_bind_progress_option (const char *text)
{
  const struct dagcost_progress *r = dagcost_progress_named (text);
  if (!r)
    die_usage ("option '--progress-rule': '%s': expected mpi or thread",
               text);
  return r;
}

const char *
dag_bind_default_model (const char *path, int where_each)
{
  return path && !where_each && strcmp (path, "-") != 0
         && param_file_per_size (path) ? "plogp" : "loggops";
}
