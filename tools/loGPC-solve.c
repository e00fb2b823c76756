/* SPDX-License-Identifier: GPL-3.0-or-later */
/* loGPC-solve: the LoGPC contention model of Moritz and Frank for k-ary
 * n-cubes (common/models/logpc/logpc.h, common/models/logpc/kcube.h) on the command line.
 *
 * Every subcommand computes one row of results from a set of parameters.
 * Parameters come, in increasing priority, from defaults, --params FILE
 * (one TSV row), options, and the columns of each input row (a sweep).
 * An output row is the input row plus the computed columns.  */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "kcube.h"
#include "logpc.h"
#include "netspec.h"
#include "num.h"
#include "params.h"
#include "plogp.h"
#include "tsv.h"
#include "xalloc.h"

#define PROGRAM "loGPC-solve"

/* ------------------------------------------------------------ parameters */

/* Numeric parameters: one option --NAME and one column NAME each, from
   the table of common/stream/params.h.  */

/* String parameters describing the network.  */
enum sparam { PS_DIMS, PS_TOPOLOGY, PS_CHANNELS, PS_TRAFFIC, NSPARAM };
static const char *const snames[NSPARAM] = {
  "dims", "topology", "channels", "traffic"
};

struct params
{
  struct param_set ps;       /* numeric parameters, NaN: not given */
  double P_file;             /* P of --params: not the network's rank
                                count (see network), NaN: not given */
  const char *s[NSPARAM];    /* NULL: not given */
};

static void
params_clear (struct params *p)
{
  param_set_clear (&p->ps);
  p->P_file = NAN;
  for (int i = 0; i < NSPARAM; i++)
    p->s[i] = NULL;
}

static int
sparam_index (const char *name)
{
  for (int i = 0; i < NSPARAM; i++)
    if (strcmp (snames[i], name) == 0)
      return i;
  return -1;
}

/* The parameters of the table LoGPC uses: not the LogP gap g, O, S, nor
   the hyperbolic and Hockney ones, nor dag-predict's context switch.  */
static const unsigned char *
logpc_usable (void)
{
  static unsigned char u[PARAM_NPARAM];
  for (int k = 0; k < PARAM_NPARAM; k++)
    u[k] = k != PARAM_g && k != PARAM_O && k != PARAM_S && k != PARAM_A
           && k != PARAM_B && k != PARAM_ALPHA && k != PARAM_BETA
           && k != PARAM_CS;
  return u;
}

/* Read field I of R's current row into parameter K (numeric) unless NA.  */
static void
row_param (const tsv_reader *r, size_t i, int k, struct params *p)
{
  if (tsv_is_na (r, i))
    return;
  double v = tsv_num (r, i, 0);
  if (!param_in_range (k, v))
    tsv_die_field (r, i, "'%s' is out of range (%s expected for %s)",
                   tsv_field (r, i), param_range_text (k),
                   param_defs[k].help);
  param_set_value (&p->ps, k, v, PORIGIN_ROW);
}

/* ------------------------------------------------------------ options */

enum
{
  OPT_PARAM = 100,            /* OPT_PARAM + enum param */
  OPT_SPARAM = 200,           /* OPT_SPARAM + enum sparam */
  OPT_PARAMS_FILE = 300, OPT_MAPPING, OPT_SEED, OPT_EXCLUDE_SELF,
  OPT_EXPLAIN, OPT_TIME_UNIT, OPT_ENUMERATE, OPT_KIND, OPT_STYLE, OPT_TORUS,
  OPT_SET, OPT_WHERE, OPT_PLOGP
};

static struct
{
  struct params opt;          /* from options */
  struct params file;         /* from --params */
  const char *params_file;
  const char *plogp_file;     /* --plogp: a per-size table */
  const char *where;          /* --where KEY=VALUE,... */
  const char *mapping;        /* identity, random or a file */
  uint64_t seed;
  int exclude_self;
  int explain;
  int enumerate;
  const char *time_unit;
  const char *kind;           /* transfer: all, short, long, e2e */
  const char *style;          /* remap: short, long */
} o;

static struct poptOption param_table[] = {
  { "L", 'L', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_L,
    "network latency L", "TIME" },
  { "os", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_OS,
    "send overhead o_s of a short message", "TIME" },
  { "or", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_OR,
    "receive overhead o_r of a short message", "TIME" },
  { "osl", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_OSL,
    "send overhead o_sl of a long message", "TIME" },
  { "orl", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_ORL,
    "receive overhead o_rl of a long message (interrupt included)",
    "TIME" },
  { "G", 'G', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_G,
    "gap per byte G of the network", "TIME" },
  { "Gm", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_GM,
    "gap per byte G_m of the memory (DMA) transfer", "TIME" },
  { "Gc", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_GC,
    "channel time per byte Gc: a B-byte message occupies a channel for "
    "s = B Gc in eqs. 3-7 (default: G if known and > 0, else 1, the "
    "paper's byte per cycle)", "TIME" },
  { "hdr_bytes", 'a', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_HDR_BYTES,
    "bytes a received before the interrupt is taken", "BYTES" },
  { "bytes", 'B', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_BYTES,
    "message size B (K, M, G: x1024)", "BYTES" },
  { "m", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_M,
    "injection rate m per node (open model)", "RATE" },
  { "T", 'T', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_T,
    "contention-free inter-message time T (closed model, eq. 7)", "TIME" },
  { "kd", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_KD,
    "average distance per dimension k_d (instead of the topology's)",
    "HOPS" },
  { "n", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_N,
    "network dimension n when --kd is given without --dims", "N" },
  { "P", 'P', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_P,
    "ranks placed on the network (default: one per node)", "N" },
  { "Cr", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_CR,
    "remap: LoPC processor contention C_r (default: or + os)", "TIME" },
  { "dag_n", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_DAG_N,
    "diamond: the DAG has dag_n x dag_n tasks", "N" },
  { "blocks", 'b', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_BLOCKS,
    "diamond: blocks b per stripe", "N" },
  { "task", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_TASK,
    "diamond: time of one task", "TIME" },
  { "agg", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_AGG,
    "diamond: aggregation cost alpha per value sent (default 0)", "TIME" },
  { "msgs", '\0', POPT_ARG_STRING, NULL, OPT_PARAM + PARAM_MSGS,
    "em3d: messages sent per processor", "N" },
  POPT_TABLEEND
};

static struct poptOption net_table[] = {
  { "dims", 'd', POPT_ARG_STRING, NULL, OPT_SPARAM + PS_DIMS,
    "radix of each dimension, dimension 0 (numbered fastest) first, "
    "e.g. 8x4 for Alewife", "KxK..." },
  { "topology", 't', POPT_ARG_STRING, NULL, OPT_SPARAM + PS_TOPOLOGY,
    "mesh (no end-around connections) or torus (default: mesh)", "TYPE" },
  { "torus", '\0', POPT_ARG_NONE, NULL, OPT_TORUS,
    "same as --topology=torus", NULL },
  { "channels", '\0', POPT_ARG_STRING, NULL, OPT_SPARAM + PS_CHANNELS,
    "bi (bidirectional, two physical channels) or uni (default: bi)",
    "TYPE" },
  { "traffic", '\0', POPT_ARG_STRING, NULL, OPT_SPARAM + PS_TRAFFIC,
    "uniform, neighbor (eq. 12) or span=l (default: uniform; diamond: "
    "neighbor)", "PATTERN" },
  { "mapping", '\0', POPT_ARG_STRING, NULL, OPT_MAPPING,
    "ranks to nodes: identity, random, or a TSV file with a 'node' column "
    "(default: identity)", "MAP" },
  { "seed", '\0', POPT_ARG_STRING, NULL, OPT_SEED,
    "seed of the random mapping (default: 1)", "N" },
  { "exclude-self", '\0', POPT_ARG_NONE, NULL, OPT_EXCLUDE_SELF,
    "uniform traffic: a rank never sends to itself", NULL },
  { "enumerate", '\0', POPT_ARG_NONE, NULL, OPT_ENUMERATE,
    "average distance by enumeration even where a closed form exists",
    NULL },
  POPT_TABLEEND
};

static struct poptOption run_table[] = {
  { "params", 'p', POPT_ARG_STRING, NULL, OPT_PARAMS_FILE,
    "read parameters from a row of FILE (columns named as options; e.g. "
    "logp-measure --summary)", "FILE" },
  { "plogp", '\0', POPT_ARG_STRING, NULL, OPT_PLOGP,
    "parameterized LogP: L, os, or, osl, orl and G of every message read "
    "at its size from per-size rows (logp-measure's: bytes, os, or, g, L)",
    "FILE" },
  { "where", '\0', POPT_ARG_STRING, NULL, OPT_WHERE,
    "the rows of --params and --plogp to use, by key columns (src, dst, "
    "bytes ...)", "KEY=VALUE[,...]" },
  { "set", 's', POPT_ARG_STRING, NULL, OPT_SET,
    "parameters by name, as the options (o sets os and or; repeatable)",
    "NAME=VALUE[,...]" },
  { "explain", 'e', POPT_ARG_NONE, NULL, OPT_EXPLAIN,
    "print every intermediate quantity with its equation on stderr",
    NULL },
  { "time-unit", 'u', POPT_ARG_STRING, NULL, OPT_TIME_UNIT,
    "unit of every time (us, ns, ms, s, cycles) written as #@time_unit",
    "UNIT" },
  { "kind", '\0', POPT_ARG_STRING, NULL, OPT_KIND,
    "transfer: all, short, long or e2e columns (default: all)", "KIND" },
  { "style", '\0', POPT_ARG_STRING, NULL, OPT_STYLE,
    "remap: short (Table 4) or long (Section 5.1.3) (default: short)",
    "STYLE" },
  POPT_TABLEEND
};

static struct poptOption table[] = {
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, param_table, 0,
    "Machine and workload parameters (also columns of the same name):",
    NULL },
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, net_table, 0, "Network:", NULL },
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, run_table, 0, "Input and output:",
    NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

static void
handle_option (int val, poptContext con)
{
  char *arg = poptGetOptArg (con);
  if (val >= OPT_PARAM && val < OPT_PARAM + PARAM_NPARAM)
    {
      int k = val - OPT_PARAM;
      double v = param_option_value (k, param_defs[k].name, arg);
      param_set_value (&o.opt.ps, k, v, PORIGIN_OPTION);
      free (arg);
      return;
    }
  if (val >= OPT_SPARAM && val < OPT_SPARAM + NSPARAM)
    {
      /* An empty --dims= would otherwise read as "no --dims".  */
      if (!arg || !*arg)
        die_usage ("option '--%s': empty value",
                   snames[val - OPT_SPARAM]);
      o.opt.s[val - OPT_SPARAM] = arg;
      return;
    }
  switch (val)
    {
    case OPT_PARAMS_FILE:
      o.params_file = arg;
      return;
    case OPT_WHERE:
      o.where = arg;
      return;
    case OPT_PLOGP:
      o.plogp_file = arg;
      return;
    case OPT_SET:
      param_set_parse (&o.opt.ps, arg, "--set", logpc_usable ());
      break;
    case OPT_MAPPING:
      o.mapping = arg;
      return;
    case OPT_SEED:
      o.seed = (uint64_t) cli_int ("seed", arg, 0, INT64_MAX);
      break;
    case OPT_EXCLUDE_SELF:
      o.exclude_self = 1;
      break;
    case OPT_ENUMERATE:
      o.enumerate = 1;
      break;
    case OPT_EXPLAIN:
      o.explain = 1;
      break;
    case OPT_TORUS:
      o.opt.s[PS_TOPOLOGY] = "torus";
      break;
    case OPT_TIME_UNIT:
      if (!tsv_time_unit_valid (arg))
        die_usage ("option '--time-unit': unknown unit '%s' (us, ns, ms, s "
                   "or cycles)", arg);
      o.time_unit = arg;
      return;
    case OPT_KIND:
      if (strcmp (arg, "all") && strcmp (arg, "short") && strcmp (arg, "long")
          && strcmp (arg, "e2e"))
        die_usage ("option '--kind': unknown kind '%s' (all, short, long or "
                   "e2e)", arg);
      o.kind = arg;
      return;
    case OPT_STYLE:
      if (strcmp (arg, "short") && strcmp (arg, "long"))
        die_usage ("option '--style': unknown style '%s' (short or long)",
                   arg);
      o.style = arg;
      return;
    }
  free (arg);
}

/* ------------------------------------------------------------ explain */

static long explain_row;      /* 0: not sweeping */

/* The arguments (formatted numbers) are evaluated only when explaining.  */
#define EXPLAIN(...) \
  do { if (o.explain) explain (__VA_ARGS__); } while (0)

static void explain (const char *fmt, ...) ERR_PRINTF (1, 2);
static void
explain (const char *fmt, ...)
{
  if (!o.explain)
    return;
  va_list ap;
  if (explain_row > 0)
    fprintf (stderr, "%s: row %ld: ", PROGRAM, explain_row);
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
static const tsv_reader *cur_reader;

/* A dry run with the parameters of the command line: does the
   subcommand need an input stream?  A missing parameter (which a row
   could give) jumps back instead of dying.  */
static int probing;
static jmp_buf probe_jmp;

static void fail (const char *fmt, ...) ERR_PRINTF (1, 2) ERR_NORETURN;
static void
fail (const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  if (cur_reader)
    die_at (tsv_name (cur_reader), tsv_lineno (cur_reader), 0, "%s", msg);
  die ("%s", msg);
}

/* A bad parameter value: a usage error when it came from the command
   line (no input rows), a data error at the row otherwise.  */
static void bad (const char *fmt, ...) ERR_PRINTF (1, 2) ERR_NORETURN;
static void
bad (const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  if (cur_reader)
    die_at (tsv_name (cur_reader), tsv_lineno (cur_reader), 0, "%s", msg);
  die_usage ("%s", msg);
}

/* A required parameter that is missing: a usage error without input rows,
   a data error at the row otherwise.  */
static double
need (const struct params *p, int k)
{
  if (isnan (p->ps.v[k]))
    {
      if (probing)
        longjmp (probe_jmp, 1);
      char hint[64];
      snprintf (hint, sizeof hint, "--%s", param_defs[k].name);
      /* NA in the parameter file, or absent from it: common/stream/params.c */
      if (p->ps.na[k] || (!cur_reader && param_last_file))
        param_need (&p->ps, k, hint);
      if (cur_reader)
        fail ("parameter '%s' (%s) is not set: give --%s, a '%s' column or "
              "--params FILE", param_defs[k].name, param_defs[k].help,
              param_defs[k].name, param_defs[k].name);
      die_usage ("parameter '%s' (%s) is not set: give --%s, a '%s' column "
                 "or --params FILE", param_defs[k].name, param_defs[k].help,
                 param_defs[k].name, param_defs[k].name);
    }
  return p->ps.v[k];
}

static double
opt_or (const struct params *p, int k, double dflt)
{
  return isnan (p->ps.v[k]) ? dflt : p->ps.v[k];
}

/* ------------------------------------------------------------ network */

/* The mapping file, read once.  */
static int64_t *file_map;
static int64_t file_map_n;

static void
read_mapping_file (const char *path)
{
  tsv_reader *r = tsv_open (path);
  size_t cnode = tsv_col_required (r, "node");
  long crank = tsv_col (r, "rank");
  int64_t cap = 0;
  while (tsv_next (r))
    {
      int64_t rank = file_map_n;
      if (crank >= 0)
        {
          rank = tsv_int (r, (size_t) crank);
          if (rank != file_map_n)
            tsv_die_field (r, (size_t) crank, "rank %lld out of order "
                           "(rank %lld expected: one row per rank, in "
                           "order)", (long long) rank,
                           (long long) file_map_n);
        }
      int64_t node = tsv_int (r, cnode);
      if (node < 0)
        tsv_die_field (r, cnode, "negative node %lld", (long long) node);
      if (file_map_n == cap)
        {
          cap = cap ? 2 * cap : 64;
          file_map = xrealloc (file_map, (size_t) cap * sizeof *file_map);
        }
      file_map[file_map_n++] = node;
    }
  if (file_map_n == 0)
    die_at (tsv_name (r), 0, 0, "the mapping has no rows");
  tsv_close (r);
}

/* The network of one row, cached across rows: the key (what the row
   says) and the model's network built from it.  */
struct network
{
  char dims[64], topology[16], channels[16], traffic[32];
  double P, kd_opt, n_opt;
  int valid;
  struct logpc_network m;
};

static struct network netc;

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
copy_key (char *dst, size_t size, const char *name, const char *s)
{
  if (strlen (s) >= size)
    bad ("%s '%s' is too long", name, s);
  strcpy (dst, s);
}

/* --explain: how the network's average distance came about.  */
static void
explain_network (const struct network *c, const char *mapping)
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
           mapping, o.exclude_self ? ", self excluded" : "");
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
static const struct network *
network (const struct params *p, const char *traffic_dflt, int need_cube)
{
  struct network *c = &netc;
  if (same_key (c, p, traffic_dflt))
    return c;
  memset (c, 0, sizeof *c);
  copy_key (c->dims, sizeof c->dims, "dims", sval (p, PS_DIMS, ""));
  copy_key (c->topology, sizeof c->topology, "topology",
            sval (p, PS_TOPOLOGY, "mesh"));
  copy_key (c->channels, sizeof c->channels, "channels",
            sval (p, PS_CHANNELS, "bi"));
  copy_key (c->traffic, sizeof c->traffic, "traffic",
            sval (p, PS_TRAFFIC, traffic_dflt));
  c->P = p->ps.v[PARAM_P];
  c->kd_opt = p->ps.v[PARAM_KD];
  c->n_opt = p->ps.v[PARAM_N];
  if (o.explain && isnan (c->P) && !isnan (p->P_file))
    {
      char b1[NUM_BUFSIZE];
      EXPLAIN ("P = %s from --params is not used as the network's rank "
               "count (a measured row's P is the ranks it was measured "
               "with): one rank per node; give --P or a 'P' column to place "
               "fewer ranks", fmt (p->P_file, b1));
    }
  const char *mapping = o.mapping ? o.mapping : "identity";
  struct logpc_netspec spec = {
    .dims = c->dims, .topology = c->topology, .channels = c->channels,
    .traffic = c->traffic, .P = c->P, .kd = c->kd_opt, .n = c->n_opt,
    .need_cube = need_cube, .exclude_self = o.exclude_self,
    .enumerate = o.enumerate, .mapping = mapping, .map = file_map,
    .map_n = file_map_n, .seed = o.seed
  };
  char msg[512];
  switch (logpc_network_build (&spec, &c->m, msg, sizeof msg))
    {
    case LOGPC_NETSPEC_OK:
      break;
    case LOGPC_NETSPEC_NONET:
      if (probing)
        longjmp (probe_jmp, 1);   /* a dims or kd column may give it */
      bad ("%s", msg);
    case LOGPC_NETSPEC_BAD:
      bad ("%s", msg);
    case LOGPC_NETSPEC_MAPPING:
      fail ("%s", msg);
    case LOGPC_NETSPEC_NOMEM:
      die ("%s", msg);
    }
  c->valid = 1;
  explain_network (c, mapping);
  return c;
}

/* ------------------------------------------------------------ pLogP */

/* --plogp FILE: the per-size table of parameterized LogP (Kielmann, Bal,
   Verstoep, Section 2) and what the rows read from it.  */
static struct
{
  struct param_file *pf;
  size_t *rows;               /* the rows used (--where) */
  size_t n;
  struct plogp t;
  int valid;                  /* T is built */
  char conversion[128];       /* how its times were converted */
  double big, small;          /* the largest and smallest sizes read */
  int clamped;                /* Table 1's L came out negative */
} pl = { .big = -1, .small = INFINITY };

/* The table from the selected rows of --plogp, its times multiplied by
   SCALE (into the output's unit).  */
static void
plogp_build (double scale)
{
  plogp_free (&pl.t);
  double *v = xmalloc (pl.n * 5 * sizeof *v);
  param_file_sizes (pl.pf, pl.rows, pl.n, scale, "--plogp", v);
  struct plogp_point *pts = xmalloc (pl.n * sizeof *pts);
  for (size_t i = 0; i < pl.n; i++)
    pts[i] = (struct plogp_point) { v[5 * i], v[5 * i + 1], v[5 * i + 2],
                                    v[5 * i + 3] };
  /* pLogP's L is the pair's: one value for the whole table */
  param_file_same_value (pl.pf, pl.rows, pl.n, "L", "--plogp",
                         "select one pair with --where src=I,dst=J");
  size_t which = 0;
  enum plogp_status st = plogp_init (&pl.t, pts, pl.n, v[4], &which);
  free (pts);
  free (v);
  if (st == PLOGP_NOMEM)
    die ("out of memory while reading the per-size table of %s",
         pl.pf->name);
  if (st != PLOGP_OK)
    param_plogp_fail (pl.pf, pl.rows, pl.n, which, "--plogp",
                      plogp_status_text (st), st == PLOGP_DUPLICATE
                      ? "one pair's rows: select them with --where "
                        "src=I,dst=J" : NULL);
  pl.valid = 1;
}

/* The LogGP parameters of a message of P's bytes from the table (Table
   1): L, os, or (and LoGPC's long-message osl, orl) and G, below the
   options and the row's columns (msgperf(7), PARAMETERS: the table is a
   parameter file).  */
static void
apply_plogp (struct params *p)
{
  if (!pl.valid)
    return;
  double B = need (p, PARAM_BYTES);
  struct plogp_table1 t1;
  plogp_table1 (&pl.t, B, &t1);
  static const int ks[] = { PARAM_L, PARAM_OS, PARAM_OR, PARAM_OSL,
                            PARAM_ORL, PARAM_G };
  const double vs[] = { t1.L, t1.os, t1.or_, t1.os, t1.or_, t1.G };
  for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
    {
      int k = ks[i];
      if (p->ps.origin[k] == PORIGIN_OPTION || p->ps.origin[k] == PORIGIN_ROW)
        continue;
      param_set_value (&p->ps, k, vs[i], PORIGIN_FILE);
      p->ps.file[k] = pl.pf->name;
    }
  if (probing)
    return;
  pl.big = B > pl.big ? B : pl.big;
  pl.small = B < pl.small ? B : pl.small;
  pl.clamped |= t1.clamped;
  if (o.explain)
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
model_net (const struct network *c, const struct params *p)
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
      need (p, PARAM_G);
      return net;
    }
  else
    {
      net.Gc = logpc_gc_default (G);
      why = G == 0 ? "the default: G = 0 is no channel time, so the "
                     "paper's one byte per time unit"
            : "the default: no G, so the paper's one byte per time unit";
    }
  if (o.explain)
    {
      char b1[NUM_BUFSIZE];
      EXPLAIN ("channel time per byte Gc = %s (%s): a B-byte message "
               "occupies a channel for s = B Gc in eqs. (3)-(7)",
               fmt (net.Gc, b1), why);
    }
  return net;
}

static void
saturated (const struct logpc_contention *c, double B)
{
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE], b4[NUM_BUFSIZE];
  char b5[NUM_BUFSIZE];
  fail ("the network is saturated: injection rate m = %s gives channel "
        "utilisation rho = %s >= 1 (eq. 4); the saturation rate for "
        "B = %s bytes (channel occupancy s = B Gc = %s) is m_sat = %s "
        "messages per time unit", fmt (c->m, b1),
        isfinite (c->rho) ? fmt (c->rho, b2) : "above 1.8e308",
        fmt (B, b3), fmt (c->s, b5), fmt (c->m_sat, b4));
}

static void
check (enum logpc_status s, const struct logpc_contention *c, double B)
{
  if (s == LOGPC_SATURATED)
    saturated (c, B);
  if (s != LOGPC_OK)
    fail ("%s", logpc_strerror (s));
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
explain_contention (const struct logpc_net *net, double B,
                    const struct logpc_contention *c)
{
  if (!o.explain)
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
struct sub
{
  const char *name;
  const char *const *cols;      /* computed columns, NULL-terminated */
  const char *const *show;      /* parameters shown without input rows */
  const char *traffic;          /* default traffic */
  void (*compute) (const struct params *p, double *out);
};

static const char *const distance_cols[] = {
  "n", "nodes", "P", "dist", "kd", "method", NULL
};

/* Non-numeric output: a negative sentinel index into this table.  */
static const char *out_str;

static void
do_distance (const struct params *p, double *out)
{
  const struct network *c = network (p, "uniform", 1);
  out[0] = c->m.cube.n;
  out[1] = (double) c->m.nodes;
  out[2] = (double) c->m.ranks;
  out[3] = c->m.dist;
  out[4] = c->m.dist / c->m.cube.n;
  out[5] = NAN;
  out_str = c->m.method;
}

static const char *const contention_cols[] = {
  "kd", "rho", "wb", "Cn", "m_sat", NULL
};

static void
do_contention (const struct params *p, double *out)
{
  const struct network *c = network (p, "uniform", 0);
  struct logpc_net net = model_net (c, p);
  double B = need (p, PARAM_BYTES), m = need (p, PARAM_M);
  struct logpc_contention r;
  enum logpc_status s = logpc_contention (&net, B, m, &r);
  explain_contention (&net, B, &r);
  check (s, &r, B);
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
do_solve (const struct params *p, double *out)
{
  const struct network *c = network (p, "uniform", 0);
  struct logpc_net net = model_net (c, p);
  double B = need (p, PARAM_BYTES), T = need (p, PARAM_T);
  struct logpc_contention r;
  enum logpc_status s = logpc_closed (&net, B, T, 1.0, &r);
  explain_contention (&net, B, &r);
  check (s, &r, B);
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
do_transfer (const struct params *p, double *out)
{
  const struct network *c = network (p, "uniform", 0);
  struct logpc_net net = model_net (c, p);
  double B = need (p, PARAM_BYTES);
  const char *kind = o.kind ? o.kind : "all";
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
      if (probing)
        longjmp (probe_jmp, 1);
      if (cur_reader)
        fail ("no injection rate: give --m (open model) or --T (closed "
              "model, eq. 7), or an 'm' or 'T' column");
      die_usage ("no injection rate: give --m (open model) or --T (closed "
                 "model, eq. 7)");
    }
  explain_contention (&net, B, &r);
  check (s, &r, B);
  out[0] = net.kd;
  out[1] = isnan (r.T) ? NAN : r.m;
  out[2] = r.rho;
  out[3] = r.Cn;
  for (int i = 4; i < 10; i++)
    out[i] = NAN;
  logpc_machine_init (&mp);
  if (all || strcmp (kind, "short") == 0)
    {
      mp.os = need (p, PARAM_OS);
      mp.orr = need (p, PARAM_OR);
      mp.L = need (p, PARAM_L);
      out[4] = logpc_short (&mp, 0);
      out[5] = logpc_short (&mp, r.Cn);
      EXPLAIN ("eq. (8)/(9): T_s-r = os + L + C_n + or = %s (%s without "
               "contention)", fmt (out[5], b1), fmt (out[4], b2));
    }
  if (all || strcmp (kind, "long") == 0 || strcmp (kind, "e2e") == 0)
    {
      mp.osl = need (p, PARAM_OSL);
      mp.G = need (p, PARAM_G);
      mp.L = need (p, PARAM_L);
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
      mp.orl = need (p, PARAM_ORL);
      mp.Gm = need (p, PARAM_GM);
      mp.a = need (p, PARAM_HDR_BYTES);
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
do_bound (const struct params *p, double *out)
{
  const struct network *c = network (p, "uniform", 0);
  struct logpc_net net = model_net (c, p);
  double G = need (p, PARAM_G);
  struct logpc_bound b;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE];
  if (!(G > 0))
    bad ("the bound needs G > 0 (the maximal rate is 1 / (2 G B))");
  if (o.explain)
    {
      struct logpc_contention r;
      logpc_closed (&net, 1.0, 2.0 * G, 1.0, &r);
      EXPLAIN ("eq. (13): maximal injection T = 2 G B; B cancels, solved "
               "with B = 1");
      explain_contention (&net, 1.0, &r);
    }
  enum logpc_status s = logpc_bound (&net, G, &b);
  if (s != LOGPC_OK)
    fail ("%s", logpc_strerror (s));
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
static const char *const remap_long_cols[] = {
  "kd", "T", "Tc", "mc", "Cn", "inflation", NULL
};

static void
do_remap (const struct params *p, double *out)
{
  const struct network *c = network (p, "uniform", 0);
  struct logpc_net net = model_net (c, p);
  double B = need (p, PARAM_BYTES);
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
  if (o.style && strcmp (o.style, "long") == 0)
    {
      struct logpc_remap_long r;
      double G = need (p, PARAM_G);
      if (!(G > 0))
        bad ("the long-message remap needs G > 0");
      EXPLAIN ("Section 5.1.3: base iteration 2 G B = %s", fmt (2 * G * B,
                                                               b1));
      enum logpc_status s = logpc_remap_long (&net, G, B, &r);
      explain_contention (&net, B, &r.c);
      check (s, &r.c, B);
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
  mp.os = need (p, PARAM_OS);
  mp.orr = need (p, PARAM_OR);
  mp.L = need (p, PARAM_L);
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
  explain_contention (&net, B, &r.sync);
  EXPLAIN ("Table 4, LoGPC: + 2 C_n = %s", fmt (r.logpc_sync, b1));
  EXPLAIN ("Section 5.1.2, asynchronous: os + or = %s per message, m = "
           "1 / (os + or) = %s", fmt (r.async, b1), fmt (1 / r.async, b2));
  explain_contention (&net, B, &r.async_c);
  check (s, &r.async_c, B);
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
do_diamond (const struct params *p, double *out)
{
  const struct network *c = network (p, "neighbor", 0);
  struct logpc_net net = model_net (c, p);
  struct logpc_machine mp;
  struct logpc_diamond_in in;
  struct logpc_diamond r;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
  logpc_machine_init (&mp);
  in.n_dag = need (p, PARAM_DAG_N);
  in.b = need (p, PARAM_BLOCKS);
  in.P = isnan (p->ps.v[PARAM_P]) && !isnan (p->P_file) ? p->P_file
         : need (p, PARAM_P);
  in.task = need (p, PARAM_TASK);
  in.agg = opt_or (p, PARAM_AGG, 0);
  in.B = need (p, PARAM_BYTES);
  mp.os = need (p, PARAM_OS);
  mp.L = need (p, PARAM_L);
  mp.G = need (p, PARAM_G);
  mp.a = need (p, PARAM_HDR_BYTES);
  if (in.P < 2)
    bad ("the Diamond DAG model needs P >= 2 processors");
  if (in.B - 1 < mp.a)
    bad ("B = %g bytes is shorter than the header a + 1 = %g bytes "
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
  explain_contention (&net, in.B, &r.c);
  check (s, &r.c, in.B);
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
do_em3d (const struct params *p, double *out)
{
  const struct network *c = network (p, "uniform", 0);
  struct logpc_net net = model_net (c, p);
  struct logpc_machine mp;
  struct logpc_em3d r;
  char b1[NUM_BUFSIZE], b2[NUM_BUFSIZE], b3[NUM_BUFSIZE];
  logpc_machine_init (&mp);
  double B = need (p, PARAM_BYTES), msgs = need (p, PARAM_MSGS);
  mp.os = need (p, PARAM_OS);
  mp.orr = need (p, PARAM_OR);
  if (!(mp.os + mp.orr > 0))
    bad ("os + or must be > 0 (the injection rate is 1 / (os + or))");
  enum logpc_status s = logpc_em3d (&net, &mp, B, msgs, &r);
  EXPLAIN ("Section 5.3: os + or = %s per message, m = 1 / (os + or)",
           fmt (r.t_msg, b1));
  explain_contention (&net, B, &r.c);
  check (s, &r.c, B);
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
static const char *const show_remap_long[] = { "bytes", "G", NULL };
static const char *const show_diamond[] = {
  "dag_n", "P", "blocks", "bytes", NULL };
static const char *const show_em3d[] = { "bytes", "msgs", NULL };

/* ------------------------------------------------------------ driver */

/* Parameters of row R of the --params file PF (common/stream/params.c), times
   scaled by SCALE; the string parameters are copied.  */
static void
params_of_row (const struct param_file *pf, size_t r, double scale,
               struct params *p)
{
  /* a parameter an option gives is not read from the file (it would be
     replaced: a bad value there is no error) */
  unsigned char use[PARAM_NPARAM];
  for (int k = 0; k < PARAM_NPARAM; k++)
    use[k] = logpc_usable ()[k] && !param_given (&o.opt.ps, k);
  param_file_apply (pf, r, &p->ps, scale, use);
  for (int k = 0; k < NSPARAM; k++)
    {
      const char *f = param_file_get (pf, r, snames[k]);
      if (f && !num_is_na (f, strlen (f)))
        p->s[k] = xstrdup (f);
    }
  /* A measured row's P (logp-measure --summary: the ranks measured) is
     not the network's rank count: the topology takes P only from --P or
     a 'P' column (the diamond DAG still reads it as its processors).  */
  p->P_file = p->ps.v[PARAM_P];
  p->ps.v[PARAM_P] = NAN;
  p->ps.na[PARAM_P] = 0;
}

/* Merge layer SRC over DST.  */
static void
params_over (struct params *dst, const struct params *src)
{
  param_set_over (&dst->ps, &src->ps);
  if (!isnan (src->P_file))
    dst->P_file = src->P_file;
  for (int i = 0; i < NSPARAM; i++)
    if (src->s[i])
      dst->s[i] = src->s[i];
}

static size_t
ncols_of (const char *const *cols)
{
  size_t n = 0;
  while (cols[n])
    n++;
  return n;
}

static void
put_shown (tsv_writer *w, const struct params *p, const char *name)
{
  int k, ks[2];
  if (param_lookup (name, ks, NULL) == 1 && (k = ks[0]) >= 0)
    {
      tsv_put_num (w, k == PARAM_P && isnan (p->ps.v[k]) ? p->P_file
                                                          : p->ps.v[k]);
      return;
    }
  k = sparam_index (name);
  const char *dflt = strcmp (name, "topology") == 0 ? "mesh"
                     : strcmp (name, "channels") == 0 ? "bi"
                     : strcmp (name, "traffic") == 0 ? "uniform" : NULL;
  const char *s = p->s[k] ? p->s[k] : dflt;
  if (s)
    tsv_put_str (w, s);
  else
    tsv_put_na (w);
}

/* The text of the last number written in each output column: in a sweep
   many computed columns repeat (k_d, times that do not depend on the
   swept parameter), and formatting is most of the cost of a row.  */
struct numcache
{
  uint64_t bits;   /* the number's bits: equal bits, equal text */
  int len;         /* 0: nothing cached yet */
  char text[NUM_BUFSIZE];
};

static void
put_cached (tsv_writer *w, struct numcache *cache, size_t nc, size_t j,
            double v)
{
  struct numcache *c = &cache[j];
  uint64_t bits;
  memcpy (&bits, &v, sizeof bits);
  if (c->bits != bits || c->len == 0)
    {
      /* Another column may hold the same number (the long and the
         end-to-end time of a long message): copy its text.  */
      size_t i;
      for (i = 0; i < nc; i++)
        if (cache[i].bits == bits && cache[i].len != 0)
          break;
      if (i < nc)
        {
          memcpy (c->text, cache[i].text, (size_t) cache[i].len);
          c->len = cache[i].len;
        }
      else
        c->len = num_format (v, tsv_precision, c->text);
      c->bits = bits;
    }
  tsv_put_strn (w, c->text, (size_t) c->len);
}

/* A computed value above the largest double is written NA: say so, once
   (msgperf(7), NUMBERS).  NaN results are the documented "does not apply"
   of some columns and are not reported.  */
static void
warn_overflow (const struct sub *sub, const double *out, size_t nc)
{
  for (size_t j = 0; j < nc; j++)
    if (isinf (out[j]))
      {
        warn_once ("overflow", "column '%s' (and any other value above the "
                   "largest double, about 1.8e308) is written NA: rescale "
                   "the times or sizes", sub->cols[j]);
        return;
      }
}

/* The time unit of the inputs (checked again whenever more metadata
   were read: a #@time_unit may stand between rows), which must agree
   with --time-unit.  */
static const char *
time_unit_again (tsv_reader *const *readers, size_t nr, const char *given)
{
  const char *unit = tsv_time_unit (readers, nr);
  if (given && unit && strcmp (given, unit) != 0)
    die ("--time-unit %s conflicts with the input's #@time_unit=%s",
         given, unit);
  return unit;
}

/* The parameters of the command line in BASE: --params FILE (row
   PROW[0] of PF, its times converted to UNIT when both are known), then
   the options.  Returns the output's unit (UNIT, else the file's);
   CONVERSION receives the conversion made, if any.  */
/* The factor from parameter file PF's time unit into *UNIT (set to the
   file's when still unknown), the conversion described in CONVERSION.
   A file without #@time_unit takes --time-unit; without either, beside
   an input or another file that has a unit, it is an error (msgperf(7),
   PARAMETERS: never a silent mix).  */
static double
file_scale (const struct param_file *pf, const char **unit,
            char conversion[128])
{
  double scale = 1;
  conversion[0] = '\0';
  const char *pu = pf->time_unit ? pf->time_unit : o.time_unit;
  if (!pu && *unit)
    die ("%s: no #@time_unit line, and the other times are in %s: declare the "
         "file's unit with a '#@time_unit=UNIT' line (s, ms, us, ns) or "
         "--time-unit UNIT", pf->name, *unit);
  if (pu && *unit && strcmp (pu, *unit) != 0)
    {
      if (param_time_scale (pu, *unit, &scale) != 0)
        die ("%s: its times are in %s and the output's in %s: only s, "
             "ms, us and ns convert", pf->name, pu, *unit);
      char f[NUM_BUFSIZE];
      num_format (scale, -1, f);
      snprintf (conversion, 128, "%s to %s (x%s)", pu, *unit, f);
    }
  if (!*unit)
    *unit = pu;
  return scale;
}

static const char *
params_layers (const struct param_file *pf, const size_t *prow,
               const char *unit, char conversion[128], struct params *base)
{
  conversion[0] = '\0';
  if (pf)
    {
      double scale = file_scale (pf, &unit, conversion);
      for (int k = 0; k < NSPARAM; k++)
        free ((char *) o.file.s[k]);
      params_clear (&o.file);
      params_of_row (pf, prow[0], scale, &o.file);
    }
  if (pl.pf)
    plogp_build (file_scale (pl.pf, &unit, pl.conversion));
  params_clear (base);
  params_over (base, &o.file);
  params_over (base, &o.opt);
  return unit;
}

/* SUB's computation on P: the parameters of its message size read from
   --plogp first (the distance has no message).  */
static void
compute (const struct sub *sub, struct params *p, double *out)
{
  if (sub->compute != do_distance)
    apply_plogp (p);
  sub->compute (p, out);
}

/* The dry run: does SUB need input rows beyond BASE?  */
static int
needs_input (const struct sub *sub, const struct params *base, double *out)
{
  struct params p = *base;
  int explain_was = o.explain;
  o.explain = 0;
  probing = 1;
  int needs = setjmp (probe_jmp) != 0;
  if (!needs)
    compute (sub, &p, out);
  probing = 0;
  o.explain = explain_was;
  /* the real run explains the network again */
  netc.valid = 0;
  return needs;
}

/* One run of a subcommand: its inputs, parameters and output.  */
struct job
{
  struct sub sub;             /* the subcommand (with remap's long style) */
  tsv_reader *in;             /* the input stream, or NULL */
  tsv_reader *readers[1];
  size_t nr;
  struct param_file *pf;      /* --params, or NULL */
  size_t *prow;               /* its selected row (--where) */
  const char *unit;           /* time unit of the output */
  char conversion[128];       /* how --params times were converted */
  struct params base;         /* defaults, --params, options */
  double *out;                /* the computed columns */
  size_t nc;
};

/* --params, --mapping and the input FILE; the parameters' layers in the
   output's time unit.  */
static void
open_inputs (struct job *j, const char *input)
{
  if (o.where && !o.params_file && !o.plogp_file)
    die_usage ("--where selects rows of --params FILE or --plogp FILE: "
               "give one");
  if (o.params_file)
    {
      if (strcmp (o.params_file, "-") == 0 && (!input
                                               || strcmp (input, "-") == 0)
          && input)
        die_usage ("--params - and the input stream cannot both be "
                   "standard input");
      j->pf = param_file_read (o.params_file);
      param_file_select (j->pf, o.where, 0,
                         "the file as the input stream (one row each)",
                         &j->prow);
    }
  if (o.plogp_file)
    {
      if (strcmp (o.plogp_file, "-") == 0
          && ((o.params_file && strcmp (o.params_file, "-") == 0)
              || (input && strcmp (input, "-") == 0)))
        die_usage ("--plogp - and another stream cannot both be standard "
                   "input");
      /* every selected row is one size of the table */
      pl.pf = param_file_read (o.plogp_file);
      pl.n = param_file_select (pl.pf, o.where, 1, NULL, &pl.rows);
    }
  if (o.mapping && strcmp (o.mapping, "identity")
      && strcmp (o.mapping, "random"))
    read_mapping_file (o.mapping);

  /* The input stream: a FILE, or standard input when the parameters of
     the command line are not enough (a dry run tells, stdin_if_needed).  */
  if (input)
    j->in = tsv_open (input);
  /* Time unit: --time-unit or the input's; the parameter file's times
     are converted to it (s, ms, us, ns).  */
  if (j->in)
    j->readers[j->nr++] = j->in;
  j->unit = time_unit_again (j->readers, j->nr, o.time_unit);
  if (o.time_unit)
    j->unit = o.time_unit;
  j->unit = params_layers (j->pf, j->prow, j->unit, j->conversion, &j->base);
}

/* Without an input FILE, a dry run: if the command line is enough, no
   stream is read (stdin stays the caller's, e.g. a while-read loop);
   otherwise the rows come from standard input.  */
static void
stdin_if_needed (struct job *j)
{
  if (j->in || !needs_input (&j->sub, &j->base, j->out))
    return;
  if (isatty (STDIN_FILENO))
    fprintf (stderr, "%s: reading rows of parameters (a TSV stream "
             "with a header) from standard input; end them with "
             "Ctrl-D, or give the missing parameters as options\n",
             PROGRAM);
  /* An empty stream holds no rows: the command line's error.  */
  int ch = getc (stdin);
  if (ch != EOF)
    {
      ungetc (ch, stdin);
      j->in = tsv_open (NULL);
      j->readers[j->nr++] = j->in;
    }
  const char *u = time_unit_again (j->readers, j->nr, o.time_unit);
  /* the file's times follow the input's unit */
  if (u && !o.time_unit)
    j->unit = params_layers (j->pf, j->prow, u, j->conversion, &j->base);
}

/* --plogp: where the messages' sizes fell in the table (after the rows
   of a sweep, which are written as they are computed): beyond its
   largest size the last segment's slope, below its smallest that size's
   values; and whether Table 1's L was clamped.  */
static void
plogp_range_meta (tsv_writer *w)
{
  if (!pl.valid)
    return;
  const struct plogp *t = &pl.t;
  /* Table 1 reads L at 1 byte, and G at 1 byte for smaller messages */
  param_plogp_range_meta (w, t->pt[0].bytes, t->pt[t->n - 1].bytes,
                          pl.big >= 0 ? 1 : -1, pl.big,
                          " (Table 1's short message)");
  if (pl.clamped)
    tsv_meta (w, "plogp_L_clamped", "L + g(1) - os(1) - or(1) < 0 (o_r "
              "above g, Section 3): L taken as 0");
}

/* The metadata: the input's, the tool's, the parameters' origin.  */
static void
write_meta (tsv_writer *w, const struct job *j)
{
  if (j->in)
    tsv_copy_meta (w, j->in);
  tsv_write_tool_meta (w, j->sub.name);
  if (j->pf)
    {
      param_file_write_meta (j->pf, w);
      if (o.where)
        tsv_meta (w, "params_where", "%s", o.where);
      if (j->conversion[0])
        tsv_meta (w, "params_time_conversion", "%s", j->conversion);
    }
  if (pl.valid)
    {
      param_file_write_meta_as (pl.pf, w, "plogp_");
      if (o.where)
        tsv_meta (w, "plogp_where", "%s", o.where);
      if (pl.conversion[0])
        tsv_meta (w, "plogp_time_conversion", "%s", pl.conversion);
      char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE];
      num_format (pl.t.pt[0].bytes, -1, lo);
      num_format (pl.t.pt[pl.t.n - 1].bytes, -1, hi);
      tsv_meta (w, "plogp_sizes", "%zu sizes, %s to %s bytes", pl.t.n, lo,
                hi);
      if (!j->in)
        plogp_range_meta (w);
    }
  if (o.mapping)
    tsv_meta (w, "mapping", "%s", o.mapping);
  if (o.mapping && strcmp (o.mapping, "random") == 0)
    tsv_meta (w, "seed", "%llu", (unsigned long long) o.seed);
  tsv_meta_time_unit (w, j->unit);
}

/* Computed column J's value: the method's name where it is text.  */
static void
put_out (tsv_writer *w, const struct job *j, struct numcache *cache,
         size_t k)
{
  if (isnan (j->out[k]) && strcmp (j->sub.cols[k], "method") == 0)
    tsv_put_str (w, out_str);
  else if (cache)
    put_cached (w, cache, j->nc, k, j->out[k]);
  else
    tsv_put_num (w, j->out[k]);
}

/* No input rows: one row of the shown parameters and the computed
   columns (computed before anything is written).  */
static void
write_one_row (tsv_writer *w, const struct job *j)
{
  const struct sub *sub = &j->sub;
  size_t ns = ncols_of (sub->show), nc = j->nc;
  const char **names = xmalloc ((ns + nc) * sizeof *names);
  for (size_t i = 0; i < ns; i++)
    names[i] = sub->show[i];
  for (size_t i = 0; i < nc; i++)
    names[ns + i] = sub->cols[i];
  /* A shown parameter that is also computed (P) appears once.  */
  size_t nn = 0;
  for (size_t i = 0; i < ns + nc; i++)
    {
      int dup = 0;
      for (size_t k = 0; k < nn; k++)
        dup |= strcmp (names[k], names[i]) == 0;
      if (!dup)
        names[nn++] = names[i];
    }
  tsv_write_header (w, nn, names);
  for (size_t i = 0; i < ns; i++)
    {
      int computed = 0;
      for (size_t k = 0; k < nc; k++)
        computed |= strcmp (sub->show[i], sub->cols[k]) == 0;
      if (!computed)
        put_shown (w, &j->base, sub->show[i]);
    }
  for (size_t k = 0; k < nc; k++)
    put_out (w, j, NULL, k);
  tsv_end_row (w);
  free (names);
}

/* The parameters of the current row: the base layers, then the row's
   columns (an alias such as o sets each of its parameters).  */
static void
row_params (const struct job *j, int (*pk)[2], const int *sk,
            struct params *p)
{
  tsv_reader *in = j->in;
  *p = j->base;
  for (size_t i = 0; i < tsv_ncols (in); i++)
    if (pk[i][0] >= 0)
      {
        row_param (in, i, pk[i][0], p);
        if (pk[i][1] >= 0)
          row_param (in, i, pk[i][1], p);
      }
    else if (sk[i] >= 0 && !tsv_is_na (in, i))
      p->s[sk[i]] = tsv_field (in, i);
}

/* A sweep: every input row with the computed columns, which replace
   input columns of the same name or are appended.  */
static void
write_rows (tsv_writer *w, struct job *j)
{
  tsv_reader *in = j->in;
  size_t ni = tsv_ncols (in), nc = j->nc;
  /* Input column i sets parameter pk[i] (numeric) or sk[i] (string);
     computed column k replaces input column at[k], or is appended.  */
  int (*pk)[2] = xmalloc (ni * sizeof *pk);
  int *sk = xmalloc (ni * sizeof *sk);
  long *at = xmalloc (nc * sizeof *at);
  long *from = xmalloc (ni * sizeof *from);
  struct numcache *cache = xcalloc (nc, sizeof *cache);
  const char **names = xmalloc ((ni + nc) * sizeof *names);
  for (size_t i = 0; i < ni; i++)
    {
      names[i] = tsv_colname (in, i);
      int n = param_lookup (names[i], pk[i], NULL);
      if (n < 1)
        pk[i][0] = -1;
      if (n < 2)
        pk[i][1] = -1;
      sk[i] = sparam_index (names[i]);
      from[i] = -1;
    }
  size_t nn = ni;
  for (size_t k = 0; k < nc; k++)
    {
      at[k] = tsv_col (in, j->sub.cols[k]);
      if (at[k] < 0)
        {
          at[k] = (long) nn;
          names[nn++] = j->sub.cols[k];
        }
      else
        from[at[k]] = (long) k;
    }
  tsv_write_header (w, nn, names);
  cur_reader = in;
  struct params p;
  size_t nmeta = tsv_nmeta (in);
  while (tsv_next (in))
    {
      if (tsv_nmeta (in) != nmeta)
        {
          /* Metadata between rows: copied, and a #@time_unit must
             agree with the rest.  */
          time_unit_again (j->readers, j->nr, o.time_unit);
          tsv_copy_meta (w, in);
          nmeta = tsv_nmeta (in);
        }
      explain_row = tsv_lineno (in);
      row_params (j, pk, sk, &p);
      compute (&j->sub, &p, j->out);
      warn_overflow (&j->sub, j->out, nc);
      for (size_t i = 0; i < ni; i++)
        if (from[i] < 0)
          tsv_put_strn (w, tsv_field (in, i), tsv_field_len (in, i));
        else
          put_out (w, j, cache, (size_t) from[i]);
      for (size_t k = 0; k < nc; k++)
        if ((size_t) at[k] >= ni)
          put_out (w, j, cache, k);
      tsv_end_row (w);
      /* The network is cached by its string parameters, which point
         into this row: forget the pointers, keep the copies.  */
    }
  cur_reader = NULL;
  time_unit_again (j->readers, j->nr, o.time_unit);
  free (pk);
  free (sk);
  free (at);
  free (from);
  free (names);
  free (cache);
}

static int
run (const struct sub *sub, int argc, const char **argv)
{
  params_clear (&o.opt);
  params_clear (&o.file);
  o.seed = 1;
  poptContext con = cli_parse (argc, argv, table,
                               "[OPTION...] [FILE]", handle_option);
  const char **args = poptGetArgs (con);
  const char *input = NULL;
  if (args && args[0])
    {
      if (args[1])
        die_usage ("at most one input stream (got '%s' and '%s')", args[0],
                   args[1]);
      input = args[0];
    }
  struct job j = { .sub = *sub };
  open_inputs (&j, input);
  /* The long-message remap has columns of its own.  */
  if (sub->compute == do_remap && o.style && strcmp (o.style, "long") == 0)
    {
      j.sub.cols = remap_long_cols;
      j.sub.show = show_remap_long;
    }
  j.nc = ncols_of (j.sub.cols);
  j.out = xmalloc (j.nc * sizeof *j.out);
  stdin_if_needed (&j);
  /* Without input rows, compute before writing anything: an error leaves
     stdout empty.  */
  if (!j.in)
    {
      compute (&j.sub, &j.base, j.out);
      warn_overflow (&j.sub, j.out, j.nc);
    }
  tsv_writer *w = tsv_writer_open (NULL);
  write_meta (w, &j);
  if (j.in)
    {
      write_rows (w, &j);
      plogp_range_meta (w);
    }
  else
    write_one_row (w, &j);
  tsv_writer_close (w);
  if (j.in)
    tsv_close (j.in);
  free (j.prow);
  param_file_free (j.pf);
  plogp_free (&pl.t);
  free (pl.rows);
  param_file_free (pl.pf);
  free (j.out);
  poptFreeContext (con);
  return 0;
}

static const struct sub subs[] = {
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

#define RUNNER(i) \
  static int run_##i (int argc, const char **argv) \
  { return run (&subs[i], argc, argv); }
RUNNER (0)
RUNNER (1)
RUNNER (2)
RUNNER (3)
RUNNER (4)
RUNNER (5)
RUNNER (6)
RUNNER (7)
RUNNER (8)

static const struct cli_subcommand commands[] = {
  { "distance", run_0, "average distance k_d of a k-ary n-cube (eqs. 11, "
    "12)" },
  { "contention", run_1, "open model: rho, w_b, C_n at rate m (eqs. 3-6)" },
  { "solve", run_2, "closed model: m_c = 1 / (T + C_n) (eq. 7)" },
  { "closed-loop", run_3, "same as solve" },
  { "transfer", run_4, "transfer times with contention (eqs. 2, 8-10)" },
  { "bound", run_5, "upper bound on the inflation T_c/T (eqs. 13, 14)" },
  { "remap", run_6, "all-to-all remap, Table 4 and Section 5.1.3" },
  { "diamond", run_7, "Diamond DAG makespan with contention (eq. 15)" },
  { "em3d", run_8, "EM3D-style asynchronous exchange (Section 5.3)" },
  { NULL, NULL, NULL }
};

int
main (int argc, char **argv)
{
  cli_init (PROGRAM, argc, argv);
  return cli_dispatch (argc, argv, commands);
}
