/* SPDX-License-Identifier: GPL-3.0-or-later */
/* loGPC-solve: the LoGPC contention model of Moritz and Frank for k-ary
 * n-cubes (common/models/logpc/logpc.h, common/models/logpc/kcube.h) on
 * the command line.
 *
 * Every subcommand computes one row of results from a set of parameters.
 * Parameters come, in increasing priority, from defaults, --params FILE
 * (one TSV row), options, and the columns of each input row (a sweep).
 * An output row is the input row plus the computed columns.  This file
 * reads the options and the stream and writes the rows; the subcommands,
 * the network of a row and the pLogP table's values at its size are in
 * common/modelio/logpc_io.c, sharing the run's state through CTX.  */
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
#include "logpc_io.h"
#include "xalloc.h"

#define PROGRAM "loGPC-solve"

/* ------------------------------------------------------------ parameters */

/* Numeric parameters: one option --NAME and one column NAME each, from
   the table of common/stream/params.h.  */


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
    if (strcmp (lpc_snames[i], name) == 0)
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

static struct lpc_ctx ctx = { .pl = { .big = -1, .small = INFINITY } };


enum
{
  OPT_PARAM = 100,            /* OPT_PARAM + enum param */
  OPT_SPARAM = 200,           /* OPT_SPARAM + enum sparam */
  OPT_PARAMS_FILE = 300, OPT_MAPPING, OPT_SEED, OPT_EXCLUDE_SELF,
  OPT_EXPLAIN, OPT_TIME_UNIT, OPT_ENUMERATE, OPT_KIND, OPT_STYLE, OPT_TORUS,
  OPT_SET, OPT_WHERE, OPT_PLOGP
};


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
      param_set_value (&ctx.o.opt.ps, k, v, PORIGIN_OPTION);
      free (arg);
      return;
    }
  if (val >= OPT_SPARAM && val < OPT_SPARAM + NSPARAM)
    {
      /* An empty --dims= would otherwise read as "no --dims".  */
      if (!arg || !*arg)
        die_usage ("option '--%s': empty value",
                   lpc_snames[val - OPT_SPARAM]);
      ctx.o.opt.s[val - OPT_SPARAM] = arg;
      return;
    }
  switch (val)
    {
    case OPT_PARAMS_FILE:
      ctx.o.params_file = arg;
      return;
    case OPT_WHERE:
      ctx.o.where = arg;
      return;
    case OPT_PLOGP:
      ctx.o.plogp_file = arg;
      return;
    case OPT_SET:
      param_set_parse (&ctx.o.opt.ps, arg, "--set", logpc_usable ());
      break;
    case OPT_MAPPING:
      ctx.o.mapping = arg;
      return;
    case OPT_SEED:
      ctx.o.seed = (uint64_t) cli_int ("seed", arg, 0, INT64_MAX);
      break;
    case OPT_EXCLUDE_SELF:
      ctx.o.exclude_self = 1;
      break;
    case OPT_ENUMERATE:
      ctx.o.enumerate = 1;
      break;
    case OPT_EXPLAIN:
      ctx.o.explain = 1;
      break;
    case OPT_TORUS:
      ctx.o.opt.s[PS_TOPOLOGY] = "torus";
      break;
    case OPT_TIME_UNIT:
      if (!tsv_time_unit_valid (arg))
        die_usage ("option '--time-unit': unknown unit '%s' (us, ns, ms, s "
                   "or cycles)", arg);
      ctx.o.time_unit = arg;
      return;
    case OPT_KIND:
      if (strcmp (arg, "all") && strcmp (arg, "short") && strcmp (arg, "long")
          && strcmp (arg, "e2e"))
        die_usage ("option '--kind': unknown kind '%s' (all, short, long or "
                   "e2e)", arg);
      ctx.o.kind = arg;
      return;
    case OPT_STYLE:
      if (strcmp (arg, "short") && strcmp (arg, "long"))
        die_usage ("option '--style': unknown style '%s' (short or long)",
                   arg);
      ctx.o.style = arg;
      return;
    }
  free (arg);
}

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
    use[k] = logpc_usable ()[k] && !param_given (&ctx.o.opt.ps, k);
  param_file_apply (pf, r, &p->ps, scale, use);
  for (int k = 0; k < NSPARAM; k++)
    {
      const char *f = param_file_get (pf, r, lpc_snames[k]);
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
warn_overflow (const struct lpc_sub *sub, const double *out, size_t nc)
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
  const char *pu = pf->time_unit ? pf->time_unit : ctx.o.time_unit;
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
        free ((char *) ctx.o.file.s[k]);
      params_clear (&ctx.o.file);
      params_of_row (pf, prow[0], scale, &ctx.o.file);
    }
  if (ctx.pl.pf)
    lpc_plogp_build (&ctx, file_scale (ctx.pl.pf, &unit, ctx.pl.conversion));
  params_clear (base);
  params_over (base, &ctx.o.file);
  params_over (base, &ctx.o.opt);
  return unit;
}

/* SUB's computation on P: the parameters of its message size read from
   --plogp first (the distance has no message).  */
static void
compute (const struct lpc_sub *sub, struct params *p, double *out)
{
  if (strcmp (sub->name, "distance") != 0)
    lpc_apply_plogp (&ctx, p);
  sub->compute (&ctx, p, out);
}

/* The dry run: does SUB need input rows beyond BASE?  */
static int
needs_input (const struct lpc_sub *sub, const struct params *base, double *out)
{
  struct params p = *base;
  int explain_was = ctx.o.explain;
  ctx.o.explain = 0;
  ctx.probing = 1;
  int needs = setjmp (ctx.probe_jmp) != 0;
  if (!needs)
    compute (sub, &p, out);
  ctx.probing = 0;
  ctx.o.explain = explain_was;
  /* the real run explains the network again */
  ctx.netc.valid = 0;
  return needs;
}

/* One run of a subcommand: its inputs, parameters and output.  */
struct job
{
  struct lpc_sub sub;             /* the subcommand (with remap's long style) */
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
  if (ctx.o.where && !ctx.o.params_file && !ctx.o.plogp_file)
    die_usage ("--where selects rows of --params FILE or --plogp FILE: "
               "give one");
  if (ctx.o.params_file)
    {
      if (strcmp (ctx.o.params_file, "-") == 0 && (!input
                                               || strcmp (input, "-") == 0)
          && input)
        die_usage ("--params - and the input stream cannot both be "
                   "standard input");
      j->pf = param_file_read (ctx.o.params_file);
      param_file_select (j->pf, ctx.o.where, 0,
                         "the file as the input stream (one row each)",
                         &j->prow);
    }
  if (ctx.o.plogp_file)
    {
      if (strcmp (ctx.o.plogp_file, "-") == 0
          && ((ctx.o.params_file && strcmp (ctx.o.params_file, "-") == 0)
              || (input && strcmp (input, "-") == 0)))
        die_usage ("--plogp - and another stream cannot both be standard "
                   "input");
      /* every selected row is one size of the table */
      ctx.pl.pf = param_file_read (ctx.o.plogp_file);
      ctx.pl.n = param_file_select (ctx.pl.pf, ctx.o.where, 1, NULL,
                                    &ctx.pl.rows);
    }
  if (ctx.o.mapping && strcmp (ctx.o.mapping, "identity")
      && strcmp (ctx.o.mapping, "random"))
    lpc_read_mapping_file (&ctx, ctx.o.mapping);

  /* The input stream: a FILE, or standard input when the parameters of
     the command line are not enough (a dry run tells, stdin_if_needed).  */
  if (input)
    j->in = tsv_open (input);
  /* Time unit: --time-unit or the input's; the parameter file's times
     are converted to it (s, ms, us, ns).  */
  if (j->in)
    j->readers[j->nr++] = j->in;
  j->unit = time_unit_again (j->readers, j->nr, ctx.o.time_unit);
  if (ctx.o.time_unit)
    j->unit = ctx.o.time_unit;
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
  /* Standard input read as --params -, --plogp - or --mapping - holds
     no rows after it: what is unset is that file's to say.  */
  int taken = 0;
  const char *files[] = { ctx.o.params_file, ctx.o.plogp_file,
                          ctx.o.mapping };
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    taken |= files[i] && strcmp (files[i], "-") == 0;
  /* An empty stream holds no rows: the command line's error, and a
     parameter the file lacks is not the file's alone (param_need).  */
  int ch = taken ? EOF : getc (stdin);
  if (ch != EOF)
    {
      ungetc (ch, stdin);
      j->in = tsv_open (NULL);
      j->readers[j->nr++] = j->in;
    }
  else if (!taken)
    param_note_empty_input ("standard input");
  const char *u = time_unit_again (j->readers, j->nr, ctx.o.time_unit);
  /* the file's times follow the input's unit */
  if (u && !ctx.o.time_unit)
    j->unit = params_layers (j->pf, j->prow, u, j->conversion, &j->base);
}

/* --plogp: where the messages' sizes fell in the table (after the rows
   of a sweep, which are written as they are computed): beyond its
   largest size the last segment's slope, below its smallest that size's
   values; and whether Table 1's L was clamped.  */
static void
plogp_range_meta (tsv_writer *w)
{
  if (!ctx.pl.valid)
    return;
  const struct plogp *t = &ctx.pl.t;
  /* Table 1 reads L at 1 byte, and G at 1 byte for smaller messages */
  param_plogp_range_meta (w, t->pt[0].bytes, t->pt[t->n - 1].bytes,
                          ctx.pl.big >= 0 ? 1 : -1, ctx.pl.big,
                          " (Table 1's short message)");
  if (ctx.pl.clamped)
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
      if (ctx.o.where)
        tsv_meta (w, "params_where", "%s", ctx.o.where);
      if (j->conversion[0])
        tsv_meta (w, "params_time_conversion", "%s", j->conversion);
    }
  if (ctx.pl.valid)
    {
      param_file_write_meta_as (ctx.pl.pf, w, "plogp_");
      if (ctx.o.where)
        tsv_meta (w, "plogp_where", "%s", ctx.o.where);
      if (ctx.pl.conversion[0])
        tsv_meta (w, "plogp_time_conversion", "%s", ctx.pl.conversion);
      char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE];
      num_format (ctx.pl.t.pt[0].bytes, -1, lo);
      num_format (ctx.pl.t.pt[ctx.pl.t.n - 1].bytes, -1, hi);
      tsv_meta (w, "plogp_sizes", "%zu sizes, %s to %s bytes", ctx.pl.t.n, lo,
                hi);
      if (!j->in)
        plogp_range_meta (w);
    }
  if (ctx.o.mapping)
    tsv_meta (w, "mapping", "%s", ctx.o.mapping);
  if (ctx.o.mapping && strcmp (ctx.o.mapping, "random") == 0)
    tsv_meta (w, "seed", "%llu", (unsigned long long) ctx.o.seed);
  tsv_meta_time_unit (w, j->unit);
}

/* Computed column J's value: the method's name where it is text.  */
static void
put_out (tsv_writer *w, const struct job *j, struct numcache *cache,
         size_t k)
{
  if (isnan (j->out[k]) && strcmp (j->sub.cols[k], "method") == 0)
    tsv_put_str (w, ctx.out_str);
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
  const struct lpc_sub *sub = &j->sub;
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
  ctx.cur_reader = in;
  struct params p;
  size_t nmeta = tsv_nmeta (in);
  while (tsv_next (in))
    {
      if (tsv_nmeta (in) != nmeta)
        {
          /* Metadata between rows: copied, and a #@time_unit must
             agree with the rest.  */
          time_unit_again (j->readers, j->nr, ctx.o.time_unit);
          tsv_copy_meta (w, in);
          nmeta = tsv_nmeta (in);
        }
      ctx.explain_row = tsv_lineno (in);
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
  ctx.cur_reader = NULL;
  time_unit_again (j->readers, j->nr, ctx.o.time_unit);
  free (pk);
  free (sk);
  free (at);
  free (from);
  free (names);
  free (cache);
}

static int
run (const struct lpc_sub *sub, int argc, const char **argv)
{
  params_clear (&ctx.o.opt);
  params_clear (&ctx.o.file);
  ctx.o.seed = 1;
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
  if (strcmp (sub->name, "remap") == 0 && ctx.o.style
      && strcmp (ctx.o.style, "long") == 0)
    {
      j.sub.cols = lpc_remap_long_cols;
      j.sub.show = lpc_show_remap_long;
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
  plogp_free (&ctx.pl.t);
  free (ctx.pl.rows);
  param_file_free (ctx.pl.pf);
  free (j.out);
  poptFreeContext (con);
  return 0;
}

#define RUNNER(i) \
  static int run_##i (int argc, const char **argv) \
  { return run (&lpc_subs[i], argc, argv); }
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
