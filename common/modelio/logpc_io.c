/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logpc_io.c: loGPC-solve's rows bound to the LoGPC model (logpc_io.h).  */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logpc_io.h"
#include "num.h"
#include "xalloc.h"

#define PROGRAM "loGPC-solve"

const char *const lpc_snames[NSPARAM] = {
  "dims", "topology", "channels", "traffic"
};

/* ------------------------------------------------------------ explain */

/* The arguments (formatted numbers) are evaluated only when explaining.  */
#define EXPLAIN(...) \
  do { if (cx->o.explain) lpc_explain (cx, __VA_ARGS__); } while (0)

void
lpc_explain (struct lpc_ctx *cx, const char *fmt, ...)
{
  if (!cx->o.explain)
    return;
  va_list ap;
  if (cx->explain_row > 0)
    fprintf (stderr, "%s: row %ld: ", PROGRAM, cx->explain_row);
  else
    fprintf (stderr, "%s: ", PROGRAM);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

/* A number for a message, round-trip form.  */
static const char *
fmt (double v, char buf[NUM_BUFSIZE])
{
  num_format (v, -1, buf);
  return buf;
}

/* ------------------------------------------------------------ errors */

/* Where the current row came from, for data errors.  */

/* A dry run with the parameters of the command line: does the
   subcommand need an input stream?  A missing parameter (which a row
   could give) jumps back instead of dying.  */

void
lpc_fail (struct lpc_ctx *cx, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  if (cx->cur_reader)
    die_at (tsv_name (cx->cur_reader), tsv_lineno (cx->cur_reader), 0,
            "%s", msg);
  die ("%s", msg);
}

/* A bad parameter value: a usage error when it came from the command
   line (no input rows), a data error at the row otherwise.  */
void
lpc_bad (struct lpc_ctx *cx, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  if (cx->cur_reader)
    die_at (tsv_name (cx->cur_reader), tsv_lineno (cx->cur_reader), 0,
            "%s", msg);
  die_usage ("%s", msg);
}

/* A required parameter that is missing: a usage error without input rows,
   a data error at the row otherwise.  */
double
lpc_need (struct lpc_ctx *cx, const struct params *p, int k)
{
  if (isnan (p->ps.v[k]))
    {
      if (cx->probing)
        longjmp (cx->probe_jmp, 1);
      char hint[64];
      snprintf (hint, sizeof hint, "--%s", param_defs[k].name);
      /* NA in the parameter file, or absent from it: common/stream/params.c */
      if (p->ps.na[k] || (!cx->cur_reader && param_last_file))
        param_need (&p->ps, k, hint);
      if (cx->cur_reader)
        lpc_fail (cx, "parameter '%s' (%s) is not set: give --%s, a '%s' "
                  "column or --params FILE", param_defs[k].name,
                  param_defs[k].help, param_defs[k].name, param_defs[k].name);
      die_usage ("parameter '%s' (%s) is not set: give --%s, a '%s' column "
                 "or --params FILE", param_defs[k].name, param_defs[k].help,
                 param_defs[k].name, param_defs[k].name);
    }
  return p->ps.v[k];
}

double
lpc_opt_or (const struct params *p, int k, double dflt)
{
  return isnan (p->ps.v[k]) ? dflt : p->ps.v[k];
}

/* ------------------------------------------------------------ network */

/* The mapping file, read once.  */

void
lpc_read_mapping_file (struct lpc_ctx *cx, const char *path)
{
  tsv_reader *r = tsv_open (path);
  size_t cnode = tsv_col_required (r, "node");
  long crank = tsv_col (r, "rank");
  int64_t cap = 0;
  while (tsv_next (r))
    {
      int64_t rank = cx->file_map_n;
      if (crank >= 0)
        {
          rank = tsv_int (r, (size_t) crank);
          if (rank != cx->file_map_n)
            tsv_die_field (r, (size_t) crank, "rank %lld out of order "
                           "(rank %lld expected: one row per rank, in "
                           "order)", (long long) rank,
                           (long long) cx->file_map_n);
        }
      int64_t node = tsv_int (r, cnode);
      if (node < 0)
        tsv_die_field (r, cnode, "negative node %lld", (long long) node);
      if (cx->file_map_n == cap)
        {
          cap = cap ? 2 * cap : 64;
          cx->file_map = xrealloc (cx->file_map,
                                   (size_t) cap * sizeof *cx->file_map);
        }
      cx->file_map[cx->file_map_n++] = node;
    }
  if (cx->file_map_n == 0)
    die_at (tsv_name (r), 0, 0, "the mapping has no rows");
  tsv_close (r);
}

/* The network of one row, cached across rows: the key (what the row
   says) and the model's network built from it.  */


static const char *
sval (const struct params *p, int k, const char *dflt)
{
  return p->s[k] ? p->s[k] : dflt;
}

static int
same_key (const struct network *c, const struct params *p,
          const char *traffic_dflt)
{
  return c->valid && strcmp (c->dims, sval (p, PS_DIMS, "")) == 0
         && strcmp (c->topology, sval (p, PS_TOPOLOGY, "mesh")) == 0
         && strcmp (c->channels, sval (p, PS_CHANNELS, "bi")) == 0
         && strcmp (c->traffic, sval (p, PS_TRAFFIC, traffic_dflt)) == 0
         && ((isnan (c->P) && isnan (p->ps.v[PARAM_P]))
             || c->P == p->ps.v[PARAM_P])
         && ((isnan (c->kd_opt) && isnan (p->ps.v[PARAM_KD]))
             || c->kd_opt == p->ps.v[PARAM_KD])
         && ((isnan (c->n_opt) && isnan (p->ps.v[PARAM_N]))
             || c->n_opt == p->ps.v[PARAM_N]);
}

static void
copy_key (struct lpc_ctx *cx, char *dst, size_t size, const char *name,
          const char *s)
{
  if (strlen (s) >= size)
    lpc_bad (cx, "%s '%s' is too long", name, s);
  strcpy (dst, s);
}

/* --explain: how the network's average distance came about.  */
static void
explain_network (struct lpc_ctx *cx, const struct network *c,
                 const char *mapping)
{
  const struct logpc_network *m = &c->m;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE];
  if (strcmp (m->method, "given") == 0)
    {
      EXPLAIN ("k_d = %g given (n = %d, %s channels)", c->kd_opt, m->net.n,
               m->bidir ? "bidirectional" : "unidirectional");
      return;
    }
  EXPLAIN ("network: %s %s, %s channels, %lld nodes, %lld ranks, %s "
           "traffic, mapping %s%s", c->dims, c->topology,
           m->bidir ? "bidirectional" : "unidirectional",
           (long long) m->nodes, (long long) m->ranks, c->traffic,
           mapping, cx->o.exclude_self ? ", self excluded" : "");
  for (int d = 0; d < m->cube.n; d++)
    EXPLAIN ("  dimension %d (k = %lld): average distance %s%s", d,
             (long long) m->cube.k[d], fmt (m->per_dim[d], b1),
             strcmp (m->method, "closed") ? " (enumerated)"
             : m->torus ? (m->bidir ? " (k/4 or (k^2-1)/(4k))"
                           : " ((k-1)/2, Section 4)")
             : " ((k^2-1)/(3k), eq. 11)");
  EXPLAIN ("eq. (11): n k_d = %s hops on average (%s); k_d = %s",
           fmt (m->dist, b1), m->method, fmt (m->net.kd, b2));
  if (m->traffic == KCUBE_NEIGHBOR)
    EXPLAIN ("eq. (12): rank i sends to i-1 or i+1 (mod P)");
}

/* Compute the network of parameters P (traffic TRAFFIC_DFLT unless set);
   NEED_CUBE: the average distance must come from the topology (distance).  */
const struct network *
lpc_network (struct lpc_ctx *cx, const struct params *p,
             const char *traffic_dflt, int need_cube)
{
  struct network *c = &cx->netc;
  if (same_key (c, p, traffic_dflt))
    return c;
  memset (c, 0, sizeof *c);
  copy_key (cx, c->dims, sizeof c->dims, "dims", sval (p, PS_DIMS, ""));
  copy_key (cx, c->topology, sizeof c->topology, "topology",
            sval (p, PS_TOPOLOGY, "mesh"));
  copy_key (cx, c->channels, sizeof c->channels, "channels",
            sval (p, PS_CHANNELS, "bi"));
  copy_key (cx, c->traffic, sizeof c->traffic, "traffic",
            sval (p, PS_TRAFFIC, traffic_dflt));
  c->P = p->ps.v[PARAM_P];
  c->kd_opt = p->ps.v[PARAM_KD];
  c->n_opt = p->ps.v[PARAM_N];
  if (cx->o.explain && isnan (c->P) && !isnan (p->P_file))
    {
      char b1[NUM_BUFSIZE];
      EXPLAIN ("P = %s from --params is not used as the network's rank "
               "count (a measured row's P is the ranks it was measured "
               "with): one rank per node; give --P or a 'P' column to place "
               "fewer ranks", fmt (p->P_file, b1));
    }
  const char *mapping = cx->o.mapping ? cx->o.mapping : "identity";
  struct logpc_netspec spec = {
    .dims = c->dims, .topology = c->topology, .channels = c->channels,
    .traffic = c->traffic, .P = c->P, .kd = c->kd_opt, .n = c->n_opt,
    .need_cube = need_cube, .exclude_self = cx->o.exclude_self,
    .enumerate = cx->o.enumerate, .mapping = mapping, .map = cx->file_map,
    .map_n = cx->file_map_n, .seed = cx->o.seed
  };
  char msg[512];
  switch (logpc_network_build (&spec, &c->m, msg, sizeof msg))
    {
    case LOGPC_NETSPEC_OK:
      break;
    case LOGPC_NETSPEC_NONET:
      if (cx->probing)
        longjmp (cx->probe_jmp, 1);   /* a dims or kd column may give it */
      lpc_bad (cx, "%s", msg);
    case LOGPC_NETSPEC_BAD:
      lpc_bad (cx, "%s", msg);
    case LOGPC_NETSPEC_MAPPING:
      lpc_fail (cx, "%s", msg);
    case LOGPC_NETSPEC_NOMEM:
      die ("%s", msg);
    }
  c->valid = 1;
  explain_network (cx, c, mapping);
  return c;
}

/* ------------------------------------------------------------ pLogP */

/* --plogp FILE: the per-size table of parameterized LogP (Kielmann, Bal,
   Verstoep, Section 2) and what the rows read from it.  */

/* The table from the selected rows of --plogp, its times multiplied by
   SCALE (into the output's unit).  */
void
lpc_plogp_build (struct lpc_ctx *cx, double scale)
{
  plogp_free (&cx->pl.t);
  double *v = xmalloc (cx->pl.n * 5 * sizeof *v);
  param_file_sizes (cx->pl.pf, cx->pl.rows, cx->pl.n, scale, "--plogp", v);
  struct plogp_point *pts = xmalloc (cx->pl.n * sizeof *pts);
  for (size_t i = 0; i < cx->pl.n; i++)
    pts[i] = (struct plogp_point) { v[5 * i], v[5 * i + 1], v[5 * i + 2],
                                    v[5 * i + 3] };
  /* pLogP's L is the pair's: one value for the whole table */
  param_file_same_value (cx->pl.pf, cx->pl.rows, cx->pl.n, "L", "--plogp",
                         "select one pair with --where src=I,dst=J");
  size_t which = 0;
  enum plogp_status st = plogp_init (&cx->pl.t, pts, cx->pl.n, v[4], &which);
  free (pts);
  free (v);
  if (st == PLOGP_NOMEM)
    die ("out of memory while reading the per-size table of %s",
         cx->pl.pf->name);
  if (st != PLOGP_OK)
    param_plogp_fail (cx->pl.pf, cx->pl.rows, cx->pl.n, which, "--plogp",
                      plogp_status_text (st), st == PLOGP_DUPLICATE
                      ? "one pair's rows: select them with --where "
                        "src=I,dst=J" : NULL);
  cx->pl.valid = 1;
}

/* The LogGP parameters of a message of P's bytes from the table (Table
   1): L, os, or (and LoGPC's long-message osl, orl) and G, below the
   options and the row's columns (msgperf(7), PARAMETERS: the table is a
   parameter file).  */
void
lpc_apply_plogp (struct lpc_ctx *cx, struct params *p)
{
  if (!cx->pl.valid)
    return;
  double B = lpc_need (cx, p, PARAM_BYTES);
  struct plogp_table1 t1;
  plogp_table1 (&cx->pl.t, B, &t1);
  static const int ks[] = { PARAM_L, PARAM_OS, PARAM_OR, PARAM_OSL,
                            PARAM_ORL, PARAM_G };
  const double vs[] = { t1.L, t1.os, t1.or_, t1.os, t1.or_, t1.G };
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    {
      int k = ks[i];
      if (p->ps.origin[k] == PORIGIN_OPTION || p->ps.origin[k] == PORIGIN_ROW)
        continue;
      param_set_value (&p->ps, k, vs[i], PORIGIN_FILE);
      p->ps.file[k] = cx->pl.pf->name;
    }
  if (cx->probing)
    return;
  cx->pl.big = B > cx->pl.big ? B : cx->pl.big;
  cx->pl.small = B < cx->pl.small ? B : cx->pl.small;
  cx->pl.clamped |= t1.clamped;
  if (cx->o.explain)
    {
      char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
      char b4[NUM_BUFSIZE], b5[NUM_BUFSIZE];
      EXPLAIN ("pLogP Table 1 at B = %s bytes: L = L + g(1) - os(1) - or(1) "
               "= %s%s, os = osl = os(B) = %s, or = orl = or(B) = %s, "
               "G = g(B) / B = %s%s", fmt (B, b1), fmt (t1.L, b2),
               t1.clamped ? " (negative: clamped)" : "", fmt (t1.os, b3),
               fmt (t1.or_, b4), fmt (t1.G, b5),
               t1.beyond ? " (beyond the table: extrapolated)"
               : t1.below ? " (below the table: its smallest size)" : "");
    }
}

/* ------------------------------------------------------------ the model */

/* The network of C with the channel time per byte of P: --Gc (or a 'Gc'
   column), else G when known and > 0 (a measured machine: a channel
   moves bytes at the network's gap per byte), else 1 (the paper's
   Alewife, one byte per network cycle).  */
static struct logpc_net
model_net (struct lpc_ctx *cx, const struct network *c, const struct params *p)
{
  struct logpc_net net = c->m.net;
  double G = p->ps.v[PARAM_G];
  const char *why;
  if (!isnan (p->ps.v[PARAM_GC]))
    {
      net.Gc = p->ps.v[PARAM_GC];
      why = "given";
    }
  else if (isfinite (G) && G > 0)
    {
      net.Gc = logpc_gc_default (G);
      why = "the default: the network's gap per byte G";
    }
  else if (p->ps.na[PARAM_G])
    {
      /* the NA policy: G is NA where it was given (a measurement that
         could not derive it), so Gc = G cannot default */
      lpc_need (cx, p, PARAM_G);
      return net;
    }
  else
    {
      net.Gc = logpc_gc_default (G);
      why = G == 0 ? "the default: G = 0 is no channel time, so the "
                     "paper's one byte per time unit"
            : "the default: no G, so the paper's one byte per time unit";
    }
  if (cx->o.explain)
    {
      char b1[NUM_BUFSIZE];
      EXPLAIN ("channel time per byte Gc = %s (%s): a B-byte message "
               "occupies a channel for s = B Gc in eqs. (3)-(7)",
               fmt (net.Gc, b1), why);
    }
  return net;
}

static void
saturated (struct lpc_ctx *cx, const struct logpc_contention *c, double B)
{
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE], b4[NUM_BUFSIZE];
  char b5[NUM_BUFSIZE];
  lpc_fail (cx, "the network is saturated: injection rate m = %s gives channel "
            "utilisation rho = %s >= 1 (eq. 4); the saturation rate for "
            "B = %s bytes (channel occupancy s = B Gc = %s) is m_sat = %s "
            "messages per time unit", fmt (c->m, b1),
            isfinite (c->rho) ? fmt (c->rho, b2) : "above 1.8e308",
            fmt (B, b3), fmt (c->s, b5), fmt (c->m_sat, b4));
}

void
lpc_check (struct lpc_ctx *cx, enum logpc_status s,
           const struct logpc_contention *c, double B)
{
  if (s == LOGPC_SATURATED)
    saturated (cx, c, B);
  if (s != LOGPC_OK)
    lpc_fail (cx, "%s", logpc_strerror (s));
}

/* "" for 1, else "MULT " (the factor of C_n in eq. 7).  */
static const char *
multtext (double mult, char buf[NUM_BUFSIZE])
{
  if (mult == 1)
    return "";
  int n = num_format (mult, -1, buf);
  if (n < NUM_BUFSIZE - 1)
    {
      buf[n] = ' ';
      buf[n + 1] = '\0';
    }
  return buf;
}

static void
explain_contention (struct lpc_ctx *cx, const struct logpc_net *net, double B,
                    const struct logpc_contention *c)
{
  if (!cx->o.explain)
    return;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE], b4[NUM_BUFSIZE];
  if (!isnan (c->T))
    {
      EXPLAIN ("eq. (7): m_c = 1 / (T + %sC_n(m_c)), T = %s: quadratic "
               "%s m^2 + %s m - 1 = 0", multtext (c->mult, b4), fmt (c->T, b1), fmt (c->qa, b2), fmt (c->qb, b3));
      EXPLAIN ("eq. (7): physical root m_c = 2 / (qb + sqrt(qb^2 + 4 qa)) "
               "= %s: the only root with 0 < m_c < m_sat = %s (the other "
               "is %s)", fmt (c->m, b1), fmt (c->m_sat, b2),
               c->qa > 0 ? "negative" : c->qa < 0 ? "beyond saturation"
               : "absent: the equation is linear");
    }
  EXPLAIN ("channel occupancy s = B Gc = %s * %s = %s", fmt (B, b1),
           fmt (net->Gc, b2), fmt (c->s, b3));
  EXPLAIN ("eq. (4): rho = s m k_d / %g = %s * %s * %s / %g = %s",
           net->chan, fmt (c->s, b1), fmt (c->m, b2), fmt (net->kd, b3),
           net->chan, fmt (c->rho, b4));
  if (c->clamped)
    EXPLAIN ("eq. (3): k_d <= 1: Agarwal's (k_d - 1) factor would make the "
             "delay negative; w_b taken as 0");
  EXPLAIN ("eq. (3)/(5): w_b = rho s / (1 - rho) (k_d - 1) / k_d^2 "
           "(1 + 1/n) = %s", fmt (c->wb, b1));
  EXPLAIN ("eq. (6): C_n = n k_d w_b = %d * %s * %s = %s", net->n,
           fmt (net->kd, b1), fmt (c->wb, b2), fmt (c->Cn, b3));
  if (!isnan (c->T))
    EXPLAIN ("eq. (7): T_c = 1 / m_c = T + %sC_n = %s",
             multtext (c->mult, b4), fmt (c->Tc, b1));
}

/* The subcommands.  Each declares its computed columns and fills them.  */

static const char *const distance_cols[] = {
  "n", "nodes", "P", "dist", "kd", "method", NULL
};

/* Non-numeric output: a negative sentinel index into this table.  */

static void
do_distance (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "uniform", 1);
  out[0] = c->m.cube.n;
  out[1] = (double) c->m.nodes;
  out[2] = (double) c->m.ranks;
  out[3] = c->m.dist;
  out[4] = c->m.dist / c->m.cube.n;
  out[5] = NAN;
  cx->out_str = c->m.method;
}

static const char *const contention_cols[] = {
  "kd", "rho", "wb", "Cn", "m_sat", NULL
};

static void
do_contention (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "uniform", 0);
  struct logpc_net net = model_net (cx, c, p);
  double B = lpc_need (cx, p, PARAM_BYTES), m = lpc_need (cx, p, PARAM_M);
  struct logpc_contention r;
  enum logpc_status s = logpc_contention (&net, B, m, &r);
  explain_contention (cx, &net, B, &r);
  lpc_check (cx, s, &r, B);
  out[0] = net.kd;
  out[1] = r.rho;
  out[2] = r.wb;
  out[3] = r.Cn;
  out[4] = r.m_sat;
}

static const char *const solve_cols[] = {
  "kd", "mc", "Tc", "Cn", "rho", "wb", "m_sat", "inflation", NULL
};

static void
do_solve (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "uniform", 0);
  struct logpc_net net = model_net (cx, c, p);
  double B = lpc_need (cx, p, PARAM_BYTES), T = lpc_need (cx, p, PARAM_T);
  struct logpc_contention r;
  enum logpc_status s = logpc_closed (&net, B, T, 1.0, &r);
  explain_contention (cx, &net, B, &r);
  lpc_check (cx, s, &r, B);
  out[0] = net.kd;
  out[1] = r.m;
  out[2] = r.Tc;
  out[3] = r.Cn;
  out[4] = r.rho;
  out[5] = r.wb;
  out[6] = r.m_sat;
  out[7] = r.Tc / T;
}

static const char *const transfer_cols[] = {
  "kd", "mc", "rho", "Cn", "t_short", "t_short_c", "t_long", "t_long_c",
  "t_e2e", "t_e2e_c", NULL
};

static void
do_transfer (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "uniform", 0);
  struct logpc_net net = model_net (cx, c, p);
  double B = lpc_need (cx, p, PARAM_BYTES);
  const char *kind = cx->o.kind ? cx->o.kind : "all";
  int all = strcmp (kind, "all") == 0;
  struct logpc_contention r;
  enum logpc_status s;
  struct logpc_machine mp;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE];

  if (!isnan (p->ps.v[PARAM_M]))
    s = logpc_contention (&net, B, p->ps.v[PARAM_M], &r);
  else if (!isnan (p->ps.v[PARAM_T]))
    s = logpc_closed (&net, B, p->ps.v[PARAM_T], 1.0, &r);
  else
    {
      if (cx->probing)
        longjmp (cx->probe_jmp, 1);
      if (cx->cur_reader)
        lpc_fail (cx, "no injection rate: give --m (open model) or --T (closed "
                  "model, eq. 7), or an 'm' or 'T' column");
      die_usage ("no injection rate: give --m (open model) or --T (closed "
                 "model, eq. 7)");
    }
  explain_contention (cx, &net, B, &r);
  lpc_check (cx, s, &r, B);
  out[0] = net.kd;
  out[1] = isnan (r.T) ? NAN : r.m;
  out[2] = r.rho;
  out[3] = r.Cn;
  for (int i = 4; i < 10; i++)
    out[i] = NAN;
  logpc_machine_init (&mp);
  if (all || strcmp (kind, "short") == 0)
    {
      mp.os = lpc_need (cx, p, PARAM_OS);
      mp.orr = lpc_need (cx, p, PARAM_OR);
      mp.L = lpc_need (cx, p, PARAM_L);
      out[4] = logpc_short (&mp, 0);
      out[5] = logpc_short (&mp, r.Cn);
      EXPLAIN ("eq. (8)/(9): T_s-r = os + L + C_n + or = %s (%s without "
               "contention)", fmt (out[5], b1), fmt (out[4], b2));
    }
  if (all || strcmp (kind, "long") == 0 || strcmp (kind, "e2e") == 0)
    {
      mp.osl = lpc_need (cx, p, PARAM_OSL);
      mp.G = lpc_need (cx, p, PARAM_G);
      mp.L = lpc_need (cx, p, PARAM_L);
    }
  if (all || strcmp (kind, "long") == 0)
    {
      out[6] = logpc_long (&mp, B, 0);
      out[7] = logpc_long (&mp, B, r.Cn);
      EXPLAIN ("eq. (10): T_s-r = osl + (B-1) G + L + C_n = %s (eq. 1 "
               "without contention: %s)", fmt (out[7], b1), fmt (out[6], b2));
    }
  if (all || strcmp (kind, "e2e") == 0)
    {
      mp.orl = lpc_need (cx, p, PARAM_ORL);
      mp.Gm = lpc_need (cx, p, PARAM_GM);
      mp.a = lpc_need (cx, p, PARAM_HDR_BYTES);
      out[8] = logpc_e2e (&mp, B, 0);
      out[9] = logpc_e2e (&mp, B, r.Cn);
      EXPLAIN ("eq. (2): T_s-r = osl + L + max(orl + a G + B Gm, (B-1) G) "
               "= %s; with the header delay C_n: %s", fmt (out[8], b1),
               fmt (out[9], b2));
    }
}

static const char *const bound_cols[] = {
  "kd", "F", "inflation", "mcB", NULL
};

static void
do_bound (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "uniform", 0);
  struct logpc_net net = model_net (cx, c, p);
  double G = lpc_need (cx, p, PARAM_G);
  struct logpc_bound b;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE];
  if (!(G > 0))
    lpc_bad (cx, "the bound needs G > 0 (the maximal rate is 1 / (2 G B))");
  if (cx->o.explain)
    {
      struct logpc_contention r;
      logpc_closed (&net, 1.0, 2.0 * G, 1.0, &r);
      EXPLAIN ("eq. (13): maximal injection T = 2 G B; B cancels, solved "
               "with B = 1");
      explain_contention (cx, &net, 1.0, &r);
    }
  enum logpc_status s = logpc_bound (&net, G, &b);
  if (s != LOGPC_OK)
    lpc_fail (cx, "%s", logpc_strerror (s));
  EXPLAIN ("eq. (13): m_c = 1 / (F B) with F = %s", fmt (b.F, b1));
  EXPLAIN ("eq. (14): T_c / T = F / (2 G) = %s", fmt (b.inflation, b2));
  out[0] = net.kd;
  out[1] = b.F;
  out[2] = b.inflation;
  out[3] = b.mcB;
}

static const char *const remap_cols[] = {
  "kd", "t_logp", "Cr", "t_lopc", "Cn_sync", "t_logpc", "t_async",
  "Cn_async", NULL
};
const char *const lpc_remap_long_cols[] = {
  "kd", "T", "Tc", "mc", "Cn", "inflation", NULL
};

static void
do_remap (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "uniform", 0);
  struct logpc_net net = model_net (cx, c, p);
  double B = lpc_need (cx, p, PARAM_BYTES);
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
  if (cx->o.style && strcmp (cx->o.style, "long") == 0)
    {
      struct logpc_remap_long r;
      double G = lpc_need (cx, p, PARAM_G);
      if (!(G > 0))
        lpc_bad (cx, "the long-message remap needs G > 0");
      EXPLAIN ("Section 5.1.3: base iteration 2 G B = %s", fmt (2 * G * B,
                                                               b1));
      enum logpc_status s = logpc_remap_long (&net, G, B, &r);
      explain_contention (cx, &net, B, &r.c);
      lpc_check (cx, s, &r.c, B);
      EXPLAIN ("eq. (13): one message every %s = %s B time units",
               fmt (r.Tc, b1), fmt (r.Tc / B, b2));
      out[0] = net.kd;
      out[1] = r.T;
      out[2] = r.Tc;
      out[3] = r.c.m;
      out[4] = r.c.Cn;
      out[5] = r.Tc / r.T;
      return;
    }
  struct logpc_machine mp;
  struct logpc_remap r;
  logpc_machine_init (&mp);
  mp.os = lpc_need (cx, p, PARAM_OS);
  mp.orr = lpc_need (cx, p, PARAM_OR);
  mp.L = lpc_need (cx, p, PARAM_L);
  enum logpc_status s = logpc_remap_short (&net, &mp, B, p->ps.v[PARAM_CR],
                                           &r);
  EXPLAIN ("Table 4, LogP synchronous: 2 (os + L + or) = %s",
           fmt (r.logp_sync, b1));
  EXPLAIN ("Table 4, LoPC: + C_r = %s (%s) = %s", fmt (r.Cr, b1),
           isnan (p->ps.v[PARAM_CR]) ? "or + os, LoPC's empirical value"
           : "given", fmt (r.lopc_sync, b2));
  EXPLAIN ("synchronous: 2 messages per round trip, m_c = 2 / (t_lopc + "
           "2 C_n), i.e. eq. (7) with T = t_lopc / 2 = %s",
           fmt (r.lopc_sync / 2, b1));
  explain_contention (cx, &net, B, &r.sync);
  EXPLAIN ("Table 4, LoGPC: + 2 C_n = %s", fmt (r.logpc_sync, b1));
  EXPLAIN ("Section 5.1.2, asynchronous: os + or = %s per message, m = "
           "1 / (os + or) = %s", fmt (r.async, b1), fmt (1 / r.async, b2));
  explain_contention (cx, &net, B, &r.async_c);
  lpc_check (cx, s, &r.async_c, B);
  EXPLAIN ("asynchronous: C_n = %s adds latency only (LogP = LoPC = LoGPC "
           "= %s)", fmt (r.async_c.Cn, b1), fmt (r.async, b3));
  out[0] = net.kd;
  out[1] = r.logp_sync;
  out[2] = r.Cr;
  out[3] = r.lopc_sync;
  out[4] = r.sync.Cn;
  out[5] = r.logpc_sync;
  out[6] = r.async;
  out[7] = r.async_c.Cn;
}

static const char *const diamond_cols[] = {
  "kd", "W", "d", "Os_blk", "Or_blk", "u", "v", "M", "mc", "Cn", "Mc",
  "contention", NULL
};

static void
do_diamond (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "neighbor", 0);
  struct logpc_net net = model_net (cx, c, p);
  struct logpc_machine mp;
  struct logpc_diamond_in in;
  struct logpc_diamond r;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
  logpc_machine_init (&mp);
  in.n_dag = lpc_need (cx, p, PARAM_DAG_N);
  in.b = lpc_need (cx, p, PARAM_BLOCKS);
  in.P = isnan (p->ps.v[PARAM_P]) && !isnan (p->P_file) ? p->P_file
         : lpc_need (cx, p, PARAM_P);
  in.task = lpc_need (cx, p, PARAM_TASK);
  in.agg = lpc_opt_or (p, PARAM_AGG, 0);
  in.B = lpc_need (cx, p, PARAM_BYTES);
  mp.os = lpc_need (cx, p, PARAM_OS);
  mp.L = lpc_need (cx, p, PARAM_L);
  mp.G = lpc_need (cx, p, PARAM_G);
  mp.a = lpc_need (cx, p, PARAM_HDR_BYTES);
  if (in.P < 2)
    lpc_bad (cx, "the Diamond DAG model needs P >= 2 processors");
  if (in.B - 1 < mp.a)
    lpc_bad (cx, "B = %g bytes is shorter than the header a + 1 = %g bytes "
          "(O_r = (B - 1 - a) G would be negative)", in.B, mp.a + 1);
  enum logpc_status s = logpc_diamond (&net, &mp, &in, &r);
  EXPLAIN ("Section 5.2.1: w_a = n^2 / (P b) task = %s, W = w_a + alpha "
           "n / b = %s", fmt (r.wa, b1), fmt (r.W, b2));
  EXPLAIN ("Section 5.2.1: d = L + a G = %s, O_s = os + (B-1) G = %s, "
           "O_r = (B-1-a) G = %s", fmt (r.d, b1), fmt (r.Os, b2),
           fmt (r.Or, b3));
  EXPLAIN ("Section 5.2.1: u = O_r + W + d = %s, v = O_s + W + O_r = %s",
           fmt (r.u, b1), fmt (r.v, b2));
  EXPLAIN ("eq. (15): M = (W + d) + (P - 2) u + (b - 1) v + O_r + W = %s",
           fmt (r.M, b1));
  EXPLAIN ("Section 5.2.1: m_c = 1 / (v + 2 C_n), eq. (7) with T = v and "
           "twice the contention");
  explain_contention (cx, &net, in.B, &r.c);
  lpc_check (cx, s, &r.c, in.B);
  EXPLAIN ("Section 5.2.1: bound M + ((P - 1) + 2 (b - 1)) C_n = %s + %s "
           "C_n = %s", fmt (r.M, b1), fmt (r.sends, b2), fmt (r.Mc, b3));
  out[0] = net.kd;
  out[1] = r.W;
  out[2] = r.d;
  out[3] = r.Os;
  out[4] = r.Or;
  out[5] = r.u;
  out[6] = r.v;
  out[7] = r.M;
  out[8] = r.c.m;
  out[9] = r.c.Cn;
  out[10] = r.Mc;
  out[11] = r.Mc / r.M;
}

static const char *const em3d_cols[] = {
  "kd", "t_msg", "t_comm", "rho", "Cn", "t_comm_c", NULL
};

static void
do_em3d (struct lpc_ctx *cx, const struct params *p, double *out)
{
  const struct network *c = lpc_network (cx, p, "uniform", 0);
  struct logpc_net net = model_net (cx, c, p);
  struct logpc_machine mp;
  struct logpc_em3d r;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
  logpc_machine_init (&mp);
  double B = lpc_need (cx, p, PARAM_BYTES), msgs = lpc_need (cx, p, PARAM_MSGS);
  mp.os = lpc_need (cx, p, PARAM_OS);
  mp.orr = lpc_need (cx, p, PARAM_OR);
  if (!(mp.os + mp.orr > 0))
    lpc_bad (cx, "os + or must be > 0 (the injection rate is 1 / (os + or))");
  enum logpc_status s = logpc_em3d (&net, &mp, B, msgs, &r);
  EXPLAIN ("Section 5.3: os + or = %s per message, m = 1 / (os + or)",
           fmt (r.t_msg, b1));
  explain_contention (cx, &net, B, &r.c);
  lpc_check (cx, s, &r.c, B);
  EXPLAIN ("Section 5.3: %s messages: %s without hotspots, %s if every "
           "send stalls for C_n", fmt (msgs, b1), fmt (r.t_comm, b2),
           fmt (r.t_comm_c, b3));
  out[0] = net.kd;
  out[1] = r.t_msg;
  out[2] = r.t_comm;
  out[3] = r.c.rho;
  out[4] = r.c.Cn;
  out[5] = r.t_comm_c;
}

static const char *const show_distance[] = {
  "dims", "topology", "channels", "traffic", NULL };
static const char *const show_contention[] = { "bytes", "m", NULL };
static const char *const show_solve[] = { "bytes", "T", NULL };
static const char *const show_transfer[] = { "bytes", "m", "T", NULL };
static const char *const show_bound[] = { "G", NULL };
static const char *const show_remap[] = { "bytes", NULL };
const char *const lpc_show_remap_long[] = { "bytes", "G", NULL };
static const char *const show_diamond[] = {
  "dag_n", "P", "blocks", "bytes", NULL };
static const char *const show_em3d[] = { "bytes", "msgs", NULL };

const struct lpc_sub lpc_subs[LPC_NSUBS] = {
  { "distance", distance_cols, show_distance, "uniform", do_distance },
  { "contention", contention_cols, show_contention, "uniform",
    do_contention },
  { "solve", solve_cols, show_solve, "uniform", do_solve },
  { "closed-loop", solve_cols, show_solve, "uniform", do_solve },
  { "transfer", transfer_cols, show_transfer, "uniform", do_transfer },
  { "bound", bound_cols, show_bound, "uniform", do_bound },
  { "remap", remap_cols, show_remap, "uniform", do_remap },
  { "diamond", diamond_cols, show_diamond, "neighbor", do_diamond },
  { "em3d", em3d_cols, show_em3d, "uniform", do_em3d },
};
