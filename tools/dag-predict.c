/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag-predict: makespan prediction for task and communication DAGs and
   for LogGOPSim GOAL schedules under the LogP family of cost models.

     dag-predict [predict] [OPTION...] [FILE]   simulate, one summary row
     dag-predict gen PATTERN [OPTION...]        write a generated DAG
     dag-predict diamond [OPTION...]            eq. (15) of the LoGPC paper

   main() parses options, reads the schedule, calls the model in common/
   (dag*.c, goal.c, diamond.c) and writes the stream.  */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include "bigmem.h"
#include "cli.h"
#include "dag.h"
#include "dag_coll.h"
#include "dag_gen.h"
#include "dag_gen_write.h"
#include "dag_image.h"
#include "dag_input.h"
#include "dag_parse.h"
#include "dag_progress.h"
#include "dag_report.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "diamond.h"
#include "diamond_write.h"
#include "noise.h"
#include "noise_read.h"
#include "err.h"
#include "listopt.h"
#include "num.h"
#include "params.h"
#include "plogp.h"
#include "readfile.h"
#include "treespec.h"
#include "tsv.h"
#include "xalloc.h"

#define PROGRAM "dag-predict"

/* ------------------------------------------------------------- options */

enum
{
  OPT_SET = 1, OPT_GEN_N, OPT_PROCS, OPT_BLOCKS, OPT_ROUNDS, OPT_WORK,
  OPT_ALPHA, OPT_BYTES, OPT_DEGREE, OPT_NONLOCAL, OPT_SPAN, OPT_PX, OPT_PY,
  OPT_SEED, OPT_TOL, OPT_MAXIT, OPT_HEADER, OPT_NETWORK, OPT_CORES,
  OPT_SAVE_MEM
};

static char *opt_save_binary;
static char *opt_format, *opt_model, *opt_params, *opt_tasks, *opt_edges;
static char *opt_sweep, *opt_gen, *opt_time_unit, *opt_tie_order;
static int opt_per_proc, opt_critical, opt_gantt, opt_closed, opt_timing;
static int opt_qstat, opt_noise_cosched, opt_link_stats;
static char *opt_noise, *opt_noise_trace, *opt_noise_phase;
static int opt_progress, opt_no_progress;
/* --save-mem[=DIR]: given, and its DIR (NULL: dag_save_mem_setup chooses) */
static int opt_save_mem;
static char *opt_save_dir;
static double opt_tol = 1e-6, opt_header = 0;
static int opt_maxit = 50;
/* --network, --cores (dag_params' network, cores; n and kd for a mesh) */
static char *opt_network;
static struct dag_netspec net_spec;
static int64_t opt_cores;
static struct dag_gen gen;
static struct dag_params params;
static char *opt_where;
static int opt_each;
/* The parameter layers (common/stream/params.h): built-in defaults < --params
   FILE < --set.  */
static struct param_set p_default, p_file, p_set;
static struct param_file *pfile;
static size_t *prow, nprow;

static const unsigned char *dag_usable (void);

/* The collectives' options (dag_coll.h): -1 and 0 when not given.  */
enum { OPT_COLL_ROOT = 100, OPT_COLL_SEGMENT, OPT_COLL_REDUCE_COST, OPT_NWAY };
static int64_t opt_coll_root = -1, opt_coll_segment = 0;
static double opt_reduce_cost = 0;      /* dag_coll.h: reduce_cost */

static void
handle (int val, poptContext con)
{
  const char *arg = poptGetOptArg (con);
  char *a = (char *) arg;
  switch (val)
    {
    case OPT_COLL_ROOT:
      opt_coll_root = cli_int ("root", a, 0, INT32_MAX - 1);
      break;
    case OPT_COLL_SEGMENT:
      opt_coll_segment = cli_int ("segment", a, 1, INT64_C (1) << 50);
      break;
    case OPT_COLL_REDUCE_COST:
      opt_reduce_cost = cli_double ("reduce-cost", a, 0, 1e9);
      break;
    case OPT_NWAY:
      gen.nway = cli_int ("nway", a, 1, INT32_MAX);
      break;
    case OPT_SET:
      param_set_parse (&p_set, a, "--set", dag_usable ());
      break;
    case OPT_GEN_N: gen.n = cli_int ("n", a, 1, INT64_C (1) << 40); break;
    case OPT_PROCS:
      gen.procs = cli_int ("procs", a, 1, INT32_MAX - 1);
      gen.procs_given = 1;
      break;
    case OPT_BLOCKS:
      gen.blocks = cli_int ("blocks", a, 1, INT32_MAX);
      break;
    case OPT_ROUNDS:
      gen.rounds = cli_int ("rounds", a, 1, INT32_MAX);
      gen.rounds_given = 1;
      break;
    case OPT_WORK: gen.work = cli_double ("work", a, 0, HUGE_VAL); break;
    case OPT_ALPHA: gen.alpha = cli_double ("alpha", a, 0, HUGE_VAL); break;
    case OPT_BYTES:
      gen.bytes = opt_size ("bytes", a, 0, INT64_C (1) << 50);
      break;
    case OPT_DEGREE: gen.degree = cli_int ("degree", a, 0, 1 << 20); break;
    case OPT_NONLOCAL:
      gen.nonlocal = cli_double ("nonlocal", a, 0, 1);
      break;
    case OPT_SPAN: gen.span = cli_int ("span", a, 1, INT32_MAX); break;
    case OPT_PX: gen.px = cli_int ("px", a, 1, 1 << 24); break;
    case OPT_PY: gen.py = cli_int ("py", a, 1, 1 << 24); break;
    case OPT_SEED:
      gen.seed = (uint64_t) cli_int ("seed", a, 0, INT64_MAX);
      break;
    case OPT_TOL: opt_tol = cli_double ("tolerance", a, 0, 1); break;
    case OPT_MAXIT:
      opt_maxit = (int) cli_int ("max-iterations", a, 1, 10000);
      break;
    case OPT_HEADER:
      opt_header = cli_double ("header", a, 0, HUGE_VAL);
      break;
    case OPT_NETWORK:
      {
        int col;
        const char *why;
        free (net_spec.arg);
        if (dag_network_parse (a, &net_spec, &col, &why) != 0)
          die_usage ("option '--network': '%s': column %d: expected %s", a,
                     col, why);
        free (opt_network);
        opt_network = strdup (a);
        if (!opt_network)
          die ("out of memory");
        if (net_spec.kind == DAG_NET_TOPOLOGY)
          net_spec.file = opt_network + strlen ("topology:");
      }
      break;
    case OPT_CORES: opt_cores = cli_int ("cores", a, 1, INT32_MAX); break;
    case OPT_SAVE_MEM:
      opt_save_mem = 1;
      free (opt_save_dir);
      opt_save_dir = a ? xstrdup (a) : NULL;
      break;
    }
  free (a);
}

#define GEN_OPTIONS \
  { "procs", 'P', POPT_ARG_STRING, NULL, OPT_PROCS, \
    "processors P (default 4)", "P" }, \
  { "n", 'n', POPT_ARG_STRING, NULL, OPT_GEN_N, \
    "diamond: n x n tasks; em3d: graph nodes (default 64)", "N" }, \
  { "blocks", 'b', POPT_ARG_STRING, NULL, OPT_BLOCKS, \
    "diamond: blocks per stripe b (default 4)", "B" }, \
  { "rounds", 'r', POPT_ARG_STRING, NULL, OPT_ROUNDS, \
    "remap rounds, pipeline items, iterations (default 4); trees: "\
    "pipelined broadcasts or reductions (default 1)", "R" }, \
  { "work", 'w', POPT_ARG_STRING, NULL, OPT_WORK, \
    "work per task (default 0: no compute unless asked)", "TIME" }, \
  { "alpha", '\0', POPT_ARG_STRING, NULL, OPT_ALPHA, \
    "diamond: aggregation cost per value sent (default 0)", "TIME" }, \
  { "bytes", 'B', POPT_ARG_STRING, NULL, OPT_BYTES, \
    "bytes per message (diamond, em3d: per value; default 8; K, M, G: " \
    "x1024)", "BYTES" }, \
  { "mapping", '\0', POPT_ARG_STRING, &gen.mapping, 0, \
    "diamond: identity, random or a list P0,P1,... (default identity)", \
    "MAP" }, \
  { "mode", '\0', POPT_ARG_STRING, &gen.mode, 0, \
    "remap: async or sync (default async)", "MODE" }, \
  { "dest", '\0', POPT_ARG_STRING, &gen.dest, 0, \
    "remap: shift or random (default shift)", "DEST" }, \
  { "topology", 't', POPT_ARG_STRING, &gen.topology, 0, \
    "trees: b:F^D, b:F1xF2x..., k:K[@N], g:..., flat, file:PATH "\
    "(msgperf-trees(7); default k:2)", \
    "SPEC" }, \
  { "degree", '\0', POPT_ARG_STRING, NULL, OPT_DEGREE, \
    "em3d: edges per node (default 4)", "D" }, \
  { "nonlocal", '\0', POPT_ARG_STRING, NULL, OPT_NONLOCAL, \
    "em3d: fraction of non-local edges (default 1)", "F" }, \
  { "span", '\0', POPT_ARG_STRING, NULL, OPT_SPAN, \
    "em3d: distance of remote processors (default 1)", "S" }, \
  { "px", '\0', POPT_ARG_STRING, NULL, OPT_PX, "stencil: grid width", "X" }, \
  { "py", '\0', POPT_ARG_STRING, NULL, OPT_PY, "stencil: grid height", "Y" }, \
  { "seed", '\0', POPT_ARG_STRING, NULL, OPT_SEED, \
    "seed of the random choices (default 1)", "SEED" }, \
  { "root", '\0', POPT_ARG_STRING, NULL, OPT_COLL_ROOT, \
    "coll: root rank of a rooted collective (default 0)", "R" }, \
  { "segment", '\0', POPT_ARG_STRING, NULL, OPT_COLL_SEGMENT, \
    "coll: segment size of the tree bcasts and reduces, and of "\
    "allreduce:segmented_ring, gather:linear_sync (default: "\
    "none)", "BYTES" }, \
  { "reduce-cost", '\0', POPT_ARG_STRING, NULL, OPT_COLL_REDUCE_COST, \
    "coll: reduce and allreduce combine what they receive at T time "\
    "units per byte (default 0: not modelled)", "T" }, \
  { "nway", '\0', POPT_ARG_STRING, NULL, OPT_NWAY, \
    "nway-dissemination: peers per round (default 1)", "N" }, \
  { "dims", '\0', POPT_ARG_STRING, &gen.dims, 0, \
    "halo: ranks per dimension, XxY or XxYxZ", "DIMS" }

#define MODEL_OPTIONS \
  { "model", 'm', POPT_ARG_STRING, &opt_model, 0, \
    "logp, loggp, loggops, hyperbolic, logpc or plogp (default loggops)", \
    "MODEL" }, \
  { "set", 's', POPT_ARG_STRING, NULL, OPT_SET, \
    "parameters by name: L, o (os and or), os, or, g, G, O, S, a, b, n, " \
    "kd, Gc (repeatable; above --params)", "NAME=VALUE[,...]" }, \
  { "params", 'p', POPT_ARG_STRING, &opt_params, 0, \
    "read the parameters from a row of a TSV file (e.g. logp-measure " \
    "--summary)", "FILE" }, \
  { "where", '\0', POPT_ARG_STRING, &opt_where, 0, \
    "the --params rows to use, by key columns", "KEY=VALUE[,...]" }

static struct poptOption predict_options[] = {
  { "format", 'f', POPT_ARG_STRING, &opt_format, 0,
    "input format: native, goal or binary (default: binary when the "
    "input is a --save-binary file, goal when it starts with num_ranks, "
    "else native)", "FORMAT" },
  { "save-binary", '\0', POPT_ARG_STRING, &opt_save_binary, 0,
    "also save the GOAL schedule, read and indexed, as a binary schedule "
    "that later runs read without parsing (LogGOPSim's txt2bin)", "FILE" },
  { "tasks", '\0', POPT_ARG_STRING, &opt_tasks, 0,
    "native tasks file (id, proc, work)", "FILE" },
  { "edges", '\0', POPT_ARG_STRING, &opt_edges, 0,
    "native edges file (from, to, bytes)", "FILE" },
  { "gen", 'g', POPT_ARG_STRING, &opt_gen, 0,
    "generate the DAG (a gen PATTERN; coll:OP:default Open MPI's choice, "
    "coll:OP:all every algorithm, best first) instead of reading one",
    "PATTERN" },
  MODEL_OPTIONS,
  { "each", '\0', POPT_ARG_NONE, &opt_each, 0,
    "predict once per --params row: one summary row each, with the row's "
    "key columns", NULL },
  { "per-proc", '\0', POPT_ARG_NONE, &opt_per_proc, 0,
    "one row per processor: finish, compute, send, recv, idle", NULL },
  { "critical-path", '\0', POPT_ARG_NONE, &opt_critical, 0,
    "the operations on the critical path", NULL },
  { "gantt", '\0', POPT_ARG_NONE, &opt_gantt, 0,
    "the schedule: proc, start, end, kind, task", NULL },
  { "qstat", '\0', POPT_ARG_NONE, &opt_qstat, 0,
    "one row per processor: the longest and mean posted-receive and "
    "unexpected-message queues", NULL },
  { "link-stats", '\0', POPT_ARG_NONE, &opt_link_stats, 0,
    "with --network topology:FILE, one row per link: messages, bytes, "
    "busy time, utilization, waits", NULL },
  { "sweep", '\0', POPT_ARG_STRING, &opt_sweep, 0,
    "re-run over a model parameter, or a generator one (procs, n, blocks, "
    "rounds, bytes) with --gen; the values a list of msgperf(7): A,B,C, "
    "FROM:TO (doubling), FROM:TO:xF, FROM:TO:+STEP, K, M, G", "NAME=LIST" },
  { "tolerance", '\0', POPT_ARG_STRING, NULL, OPT_TOL,
    "logpc: relative makespan change that stops the iteration "
    "(default 1e-6)", "X" },
  { "max-iterations", '\0', POPT_ARG_STRING, NULL, OPT_MAXIT,
    "logpc: most simulations (default 50)", "N" },
  { "network", '\0', POPT_ARG_STRING, NULL, OPT_NETWORK,
    "nic (a network interface per rank), bus (one shared link), mesh, "
    "mesh:K1xK2... (logpc: n and kd of that mesh; mesh: 1-D of P), "
    "topology:FILE (the links from, to, G, L of FILE, first come first "
    "served), or fattree:H[:R] (leaf switches of H ranks, H/R uplinks "
    "each) (default nic)", "NET" },
  { "cores", '\0', POPT_ARG_STRING, NULL, OPT_CORES,
    "ranks share N cores, rank r on core r mod N (default: a core each); "
    "a core's switch between ranks costs --set cs=T (default 0)",
    "N" },
  { "time-unit", 'u', POPT_ARG_STRING, &opt_time_unit, 0,
    "time unit of a schedule without #@time_unit (us, ns, ms, s, cycles)",
    "UNIT" },
  { "tie-order", '\0', POPT_ARG_STRING, &opt_tie_order, 0,
    "order of same-instant events: creation (LogGOPSim's) or class (sends, "
    "receives, computations, messages) (default creation)", "ORDER" },
  { "noise", '\0', POPT_ARG_STRING, &opt_noise, 0,
    "synthetic CPU noise: periodic:PERIOD:DETOUR[:PHASE] or "
    "exp:MEAN_INTERVAL:DETOUR (detours drawn from --seed)", "SPEC" },
  { "noise-trace", '\0', POPT_ARG_STRING, &opt_noise_trace, 0,
    "CPU noise from a trace of detours (START DURATION per line, "
    "LogGOPSim's format), repeated", "FILE" },
  { "noise-cosched", '\0', POPT_ARG_NONE, &opt_noise_cosched, 0,
    "co-scheduled noise: the same detours on every rank", NULL },
  { "noise-phase", '\0', POPT_ARG_STRING, &opt_noise_phase, 0,
    "--noise-trace: the trace's time at time 0 on every rank (default: "
    "drawn from --seed)", "T" },
  { "timing", '\0', POPT_ARG_NONE, &opt_timing, 0,
    "record the program's own run time as metadata (#@build_seconds, "
    "#@simulate_seconds, #@events_per_second, and the same in CPU time)",
    NULL },
  { "progress", '\0', POPT_ARG_NONE, &opt_progress, 0,
    "progress of long simulations on standard error (events, simulated "
    "time) even when it is not a terminal", NULL },
  { "no-progress", '\0', POPT_ARG_NONE, &opt_no_progress, 0,
    "no progress lines, even on a terminal", NULL },
  { "save-mem", '\0', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL,
    OPT_SAVE_MEM, "keep the schedule's graph and the per-operation state "
    "of the simulation in files in DIR, which the system can page out to, "
    "for schedules larger than memory (default DIR: $TMPDIR, else /tmp, "
    "or /var/tmp when /tmp is a tmpfs)",
    "DIR" },
  GEN_OPTIONS,
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption gen_options[] = {
  GEN_OPTIONS,
  { "time-unit", 'u', POPT_ARG_STRING, &opt_time_unit, 0,
    "time unit of the work (written as #@time_unit)", "UNIT" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

static struct poptOption diamond_options[] = {
  { "closed-form", 'c', POPT_ARG_NONE, &opt_closed, 0,
    "only eq. (15), no simulation", NULL },
  { "header", '\0', POPT_ARG_STRING, NULL, OPT_HEADER,
    "a: header bytes before the receiver is notified (default 0)",
    "BYTES" },
  MODEL_OPTIONS,
  GEN_OPTIONS,
  { "time-unit", 'u', POPT_ARG_STRING, &opt_time_unit, 0,
    "time unit of the parameters (written as #@time_unit)", "UNIT" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* ----------------------------------------------------------- parameters */

/* The parameters the models here use (for --set).  */
static const unsigned char *
dag_usable (void)
{
  static unsigned char u[PARAM_NPARAM];
  struct dag_params d;
  for (int k = 0; k < PARAM_NPARAM; k++)
    u[k] = dag_params_field (&d, k) != NULL;
  return u;
}

/* LogGOPSim's defaults and the rest of dag_params_default, as the lowest
   layer.  A time default is in LogGOPSim's nanoseconds: it is converted to
   the schedule's unit (SCALE), and with a parameter file a nonzero time
   default is dropped, so a time the file lacks is an error rather than a
   number from another unit (zero, sizes and counts are the same in every
   unit).  */
static void
set_defaults (double scale, int with_file)
{
  struct dag_params d;
  dag_params_default (&d);
  param_set_clear (&p_default);
  for (int k = 0; k < PARAM_NPARAM; k++)
    {
      double *f = dag_params_field (&d, k);
      if (!f || isnan (*f))
        continue;
      int timed = param_defs[k].unit != PUNIT_NONE
                  && param_defs[k].unit != PUNIT_BYTES && *f != 0;
      if (timed && with_file)
        continue;
      param_set_value (&p_default, k,
                       timed ? param_scale_value (*f, scale) : *f,
                       PORIGIN_DEFAULT);
    }
}

/* Set by -m plogp: its L may be negative (plogp_negative_L).  */
static int plogp_signed_L;

/* With plogp_signed_L, parameter row ROW's L when it is a finite number
   below 0 (and USE[PARAM_L] cleared, so that param_file_apply does not
   refuse it); else 0, USE unchanged.  */
static double
plogp_negative_L (size_t row, unsigned char *use)
{
  const char *text = plogp_signed_L && use[PARAM_L]
                     ? param_file_get (pfile, row, "L") : NULL;
  double v;
  if (!text || num_parse (text, strlen (text), &v) != NUM_OK
      || !isfinite (v) || !(v < 0))
    return 0;
  use[PARAM_L] = 0;
  return v;
}

/* The parameters in effect for parameter row R (of pfile, if any) and
   model M: every parameter M needs must be given (the NA policy), the
   others keep dag_params_default's value.  */
static void
resolve_params (const char *const *need, size_t r, double file_scale)
{
  struct param_set ps = p_default;
  if (pfile)
    {
      /* only the columns of the parameters the model needs, and --set
         does not give, are read: a negative g the measurement left in a
         row is no error for a model without g or with --set g=...  */
      unsigned char use[PARAM_NPARAM] = { 0 };
      for (const char *const *n = need; *n; n++)
        {
          int ks[2];
          if (param_lookup (*n, ks, NULL) == 1
              && !param_given (&p_set, ks[0]))
            use[ks[0]] = 1;
        }
      /* -m plogp: a negative L in the row is pLogP's own (g(0) >
         RTT(0)/2, as over TCP): read it here, past the L >= 0 check of
         the other models; plogp_init checks L + g(m) >= 0.  */
      /* --cores: a core's switch time, where the file has it (0, free
         switches, where it has not) */
      if (opt_cores && !param_given (&p_set, PARAM_CS))
        use[PARAM_CS] = 1;
      double neg_L = plogp_negative_L (prow[r], use);
      param_set_clear (&p_file);
      param_file_apply (pfile, prow[r], &p_file, file_scale, use);
      if (neg_L < 0)
        param_set_value (&p_file, PARAM_L,
                         param_scale_value (neg_L, file_scale),
                         PORIGIN_FILE);
      param_set_over (&ps, &p_file);
    }
  param_set_over (&ps, &p_set);
  dag_params_default (&params);
  for (const char *const *n = need; *n; n++)
    {
      int ks[2];
      param_lookup (*n, ks, NULL);
      char hint[64];
      snprintf (hint, sizeof hint, "--set %s=VALUE", *n);
      /* Gc unset means G (logpc_gc_default) */
      if (ks[0] == PARAM_GC && !param_given (&ps, PARAM_GC) && !ps.na[ks[0]])
        continue;
      *dag_params_field (&params, ks[0]) = param_need (&ps, ks[0], hint);
    }
  /* the diamond closed form reads L, os and G whatever the model */
  for (int k = 0; k < PARAM_NPARAM; k++)
    if (dag_params_field (&params, k) && param_given (&ps, k))
      *dag_params_field (&params, k) = ps.v[k];
  /* S from --set (or a file): LogGOPSim's default 65535 is not -m
     plogp's, which has no rendezvous unless told.  */
  params.S_given = param_given (&ps, PARAM_S)
                   && ps.origin[PARAM_S] != PORIGIN_DEFAULT;
}

/* --network topology:FILE: its links, the input line of each, and the
   columns of the link's ends (for errors found once the schedule is
   known).  */
static struct dag_topo topo;
static long *topo_line;
static const char *topo_name;
static size_t topo_cfrom, topo_cto;
static char topo_conversion[128];   /* "us to ns (x1000)", or empty */
static char **topo_meta;            /* its metadata lines, without "#@" */
static size_t ntopo_meta;

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

/* Every column of R's header is one of from, to, G, L.  */
static void
topo_columns (tsv_reader *r)
{
  static const char *const known[] = { "from", "to", "G", "L" };
  for (size_t i = 0; i < tsv_ncols (r); i++)
    {
      size_t k = 0;
      while (k < 4 && strcmp (tsv_colname (r, i), known[k]) != 0)
        k++;
      if (k == 4)
        die_at (tsv_name (r), tsv_lineno (r), (long) i + 1, "unknown column "
                "'%s' (a topology has from, to, and optionally G and L)",
                tsv_colname (r, i));
    }
  topo_cfrom = tsv_col_required (r, "from");
  topo_cto = tsv_col_required (r, "to");
}

/* One row of R as a link; dies on a link to itself, a second copy of a
   link, or a number that names no rank.  */
static void
topo_row (tsv_reader *r, long cG, long cL)
{
  double G = topo_time (r, cG), L = topo_time (r, cL);
  const char *from = tsv_field (r, topo_cfrom), *to = tsv_field (r, topo_cto);
  size_t which;
  switch (dag_topo_add (&topo, from, to, G, isnan (L) ? 0 : L, &which))
    {
    case DAG_TOPO_OK:
      break;
    case DAG_TOPO_SELF:
      tsv_die_field (r, topo_cto, "a link from '%s' to itself (links join "
                     "two different nodes)", from);
    case DAG_TOPO_DUPLICATE:
      tsv_die_field (r, topo_cto, "the link '%s' -> '%s' again (first on "
                     "line %ld; one row per directed link)", from, to,
                     topo_line[which]);
    case DAG_TOPO_BADRANK:
      tsv_die_field (r, which ? topo_cto : topo_cfrom, "'%s' is a number "
                     "but no rank (ranks are 0, 1, 2 ... without leading "
                     "zeros, below 2147483647)", which ? to : from);
    default:
      die ("internal error: dag_topo_add");
    }
  static size_t cap;
  if (topo.nlinks > cap)
    {
      cap = topo.link_cap;
      topo_line = xrealloc (topo_line, cap * sizeof *topo_line);
    }
  topo_line[topo.nlinks - 1] = tsv_lineno (r);
}

/* The times of the topology R into the schedule's unit UNIT.  TIMED:
   the line of the first link with a time (0: none, and then the units
   do not matter).  */
static void
topo_units (tsv_reader *r, const char *unit, long timed)
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
  snprintf (topo_conversion, sizeof topo_conversion, "%s to %s (x%s)", tu,
            unit, f);
  for (size_t i = 0; i < topo.nlinks; i++)
    {
      topo.link[i].G = param_scale_value (topo.link[i].G, scale);
      topo.link[i].L = param_scale_value (topo.link[i].L, scale);
    }
}

/* Read --network topology:FILE, its times in UNIT.  */
static void
read_topology (const char *unit)
{
  if (net_spec.kind != DAG_NET_TOPOLOGY)
    return;
  tsv_reader *r = tsv_open (net_spec.file);
  topo_name = xstrdup (tsv_name (r));
  topo_columns (r);
  long cG = tsv_col (r, "G"), cL = tsv_col (r, "L");
  long timed = 0;
  dag_topo_init (&topo);
  while (tsv_next (r))
    {
      topo_row (r, cG, cL);
      const struct dag_topo_link *l = &topo.link[topo.nlinks - 1];
      if (!timed && (l->G > 0 || l->L > 0))
        timed = tsv_lineno (r);
    }
  topo_units (r, unit, timed);
  dag_topo_finish (&topo);
  ntopo_meta = tsv_nmeta (r);
  topo_meta = xmalloc ((ntopo_meta ? ntopo_meta : 1) * sizeof *topo_meta);
  for (size_t i = 0; i < ntopo_meta; i++)
    topo_meta[i] = xstrdup (tsv_meta_line (r, i));
  tsv_close (r);
}

/* The topology against the schedule D: every rank it names is one of
   D's, and every message has a route.  */
static void
check_topology (const struct dag *d)
{
  if (params.network != DAG_NET_TOPOLOGY)
    return;
  int32_t u = dag_topo_rank_over (&topo, d->nprocs);
  if (u >= 0)
    {
      size_t i = topo.first_link[u];
      size_t col = topo.link[i].from == u ? topo_cfrom : topo_cto;
      die_at (topo_name, topo_line[i], (long) col + 1, "rank '%s', but the "
              "schedule has %ld ranks (0 to %ld)", dag_topo_name (&topo, u),
              (long) d->nprocs, (long) d->nprocs - 1);
    }
  int32_t a, b;
  if (dag_topo_route_dag (&topo, d, &a, &b) != DAG_TOPO_OK)
    die ("%s: no route from rank %ld to rank %ld, and the schedule sends "
         "from one to the other (link them, through switches if need be)",
         topo_name, (long) a, (long) b);
}

/* --network and --cores into PARAMS, for the schedule D: a mesh gives
   LoGPC's n and kd (eq. (11)).  */
static void
apply_network (const struct dag *d)
{
  int64_t P = d->nprocs;
  params.network = net_spec.kind;
  params.topo = net_spec.kind == DAG_NET_TOPOLOGY ? &topo : NULL;
  params.net = net_spec.net;
  params.net_arg = net_spec.arg;
  params.cores = opt_cores;
  if (!opt_cores && param_given (&p_set, PARAM_CS))
    die_usage ("option '--set': cs is the switch time of a core that "
               "ranks share: it needs --cores");
  /* --cores shares one CPU between ranks: which of a rank's several
     CPUs would it be?  */
  if (opt_cores && (d->maxcpu > 0 || d->maxnic > 0))
    die_usage ("option '--cores': %s gives its ranks several CPUs or "
               "NICs (cpu up to %ld, nic up to %ld): ranks that share "
               "cores have one of each", d->source, (long) d->maxcpu,
               (long) d->maxnic);
  if (net_spec.kind != DAG_NET_MESH)
    return;
  struct kcube t;
  if (dag_network_mesh (&net_spec, P, &t) != 0)
    die_usage ("option '--network': '%s' has %ld nodes, fewer than the "
               "schedule's %ld processors", opt_network,
               (long) kcube_nodes (&t), (long) P);
  params.n = t.n;
  params.kd = dag_network_kd (&t);
}

/* dag_predict_fix, remembering the first LoGPC iteration that did not
   converge (reported after the output, exit status 1).  */
static struct dag_fixpoint unconverged;
static int nunconverged;

/* Schedules that could not complete in a sweep or --each: their rows
   are NA, the reason is a warning, and the exit status is 1.  */
static int nstuck;

/* Predict D.  A schedule that cannot complete ends the program, unless
   AT (a sweep point or parameter row, for the warning) is given: then
   its row is NA and the others go on.  */
static void
predict (const struct dag *d, int model, const struct dagsim_opts *so,
         struct dagsim_result *r, int *iterations, const char *at)
{
  struct dag_fixpoint fx;
  check_topology (d);
  if (dag_predict_fix (d, model, &params, so, opt_tol, opt_maxit, r, &fx))
    {
      if (!at)
        die ("%s", r->stuck);
      warn ("%s: %s: its row is NA", at, r->stuck);
      nstuck++;
    }
  *iterations = fx.iterations;
  if (!fx.converged && !r->stuck && !nunconverged++)
    unconverged = fx;
}

/* A parameter name for --sweep: one dag_params field.  */
static int
sweep_param (const char *name)
{
  int ks[2];
  int n = param_lookup (name, ks, NULL);
  if (n != 1)
    return -1;
  struct dag_params d;
  return dag_params_field (&d, ks[0]) ? ks[0] : -1;
}

/* ------------------------------------------------------------- reading */

/* A file:PATH topology: its text for treespec_parse_text (read once;
   unreadable is a usage error, as in comet-run).  */
static void
load_topology (void)
{
  const char *path = treespec_file_path (gen.topology);
  if (!path || gen.topology_text)
    return;
  gen.topology_text = read_option_file ("topology", path);
}

/* Run the generator gen.pattern into S: a collective coll:OP:ALGO
   (dag_coll.h) or a pattern of dag_gen.h.  */
static const char *
gen_run (const struct dag_sink *s)
{
  struct dag_coll c = { gen.pattern, gen.procs, gen.bytes, opt_coll_root,
                        opt_coll_segment, opt_reduce_cost };
  return dag_gen_any (&gen, &c, s);
}

static void
generate (struct dag *d)
{
  load_topology ();
  struct dag_sink sink;
  struct dag_sink_dag ctx;
  gen.pattern = opt_gen;
  dag_init (d, "gen");
  dag_sink_dag_init (&sink, &ctx, d);
  const char *err = gen_run (&sink);
  if (err)
    die_usage ("gen %s: %s", opt_gen, err);
}

/* ------------------------------------------------------------ writing */

/* ------------------------------------------------------------ predict */

static int64_t *
gen_field (const char *name)
{
  if (strcmp (name, "procs") == 0 || strcmp (name, "P") == 0)
    return &gen.procs;
  if (strcmp (name, "blocks") == 0)
    return &gen.blocks;
  if (strcmp (name, "n") == 0 && opt_gen)
    return &gen.n;
  if (strcmp (name, "rounds") == 0)
    return &gen.rounds;
  if (strcmp (name, "bytes") == 0)
    return &gen.bytes;
  return NULL;
}

/* One run of dag-predict: the options checked, the schedule, the
   parameters, the simulations and their timings.  */
struct predict_job
{
  const char **files;
  size_t nfiles;
  struct dag_input in;        /* the schedule's file, its format */
  int model;                  /* enum dag_model */
  int tie;                    /* enum dagsim_tie */
  int sched_stdin;            /* the schedule comes from standard input */
  /* --sweep NAME=V1,...: a model parameter, or a generator's field */
  char *sweep_name;
  double *sweep_vals;
  size_t nsweep;
  int64_t *gfield;
  struct dag d;
  const char *unit;           /* the output's time unit */
  int goal_default_unit;      /* ns because GOAL has none */
  double file_scale;          /* --params times into UNIT */
  char conversion[128];
  struct plogp plogp;         /* -m plogp: the per-size table */
  struct dagsim_opts so;
  /* results: one run, or one per sweep value or parameter row */
  struct dagsim_result r;
  int iters;
  double *ms;
  struct dagsim_result *rs;
  int *its;
  struct dag *ds;
  size_t best;
  struct dag_params *each_params;
  struct dag_timing tm;       /* --timing */
};

/* The options that exclude or need each other (usage errors).  */
static void
check_predict_options (struct predict_job *j)
{
  if (opt_per_proc + opt_critical + opt_gantt > 1)
    die_usage ("--per-proc, --critical-path and --gantt are exclusive: one "
               "table per run");
  if (opt_qstat && (opt_per_proc || opt_critical || opt_gantt))
    die_usage ("--qstat writes its own table: not with --per-proc, "
               "--critical-path or --gantt");
  if (opt_link_stats && (opt_per_proc || opt_critical || opt_gantt
                         || opt_qstat))
    die_usage ("--link-stats writes its own table: not with --per-proc, "
               "--critical-path, --gantt or --qstat");
  if (opt_sweep && (opt_per_proc || opt_critical || opt_gantt || opt_qstat
                    || opt_link_stats))
    die_usage ("--sweep writes the summary rows only");
  if (opt_link_stats && net_spec.kind != DAG_NET_TOPOLOGY)
    die_usage ("--link-stats tells what each link of a topology carried: "
               "give --network topology:FILE");
  if (opt_format)
    {
      if (strcmp (opt_format, "goal") == 0)
        j->in.goal = 1;
      else if (strcmp (opt_format, "binary") == 0)
        j->in.binary = 1;
      else if (strcmp (opt_format, "native") != 0)
        die_usage ("option '--format': '%s' (expected native, goal or "
                   "binary)", opt_format);
    }
  j->model = dag_model_parse (opt_model ? opt_model : "loggops");
  plogp_signed_L = j->model == MODEL_PLOGP;
  if (j->model < 0)
    die_usage ("option '--model': unknown model '%s' (expected logp, loggp, "
               "loggops, hyperbolic, logpc or plogp)", opt_model);
  if (net_spec.kind == DAG_NET_MESH && j->model != MODEL_LOGPC)
    die_usage ("option '--network': '%s' gives LoGPC's n and kd: use it "
               "with -m logpc (nic or bus with the other models)",
               opt_network);
  if (net_spec.kind == DAG_NET_MESH
      && (param_given (&p_set, PARAM_N) || param_given (&p_set, PARAM_KD)))
    die_usage ("option '--network': '%s' sets n and kd: not with --set n "
               "or kd", opt_network);
  if (j->nfiles > 1)
    die_usage ("one schedule at a time (got %zu files)", j->nfiles);
  j->tie = DAGSIM_TIE_CREATION;
  if (opt_tie_order && strcmp (opt_tie_order, "class") == 0)
    j->tie = DAGSIM_TIE_CLASS;
  else if (opt_tie_order && strcmp (opt_tie_order, "creation") != 0)
    die_usage ("option '--tie-order': '%s' (expected creation or class)",
               opt_tie_order);
  if (opt_save_binary && (opt_tasks || opt_gen))
    die_usage ("--save-binary saves a GOAL schedule read from a file: not "
               "with %s", opt_gen ? "--gen" : "--tasks");
  if (opt_save_binary && !*opt_save_binary)
    die_usage ("option '--save-binary': empty file name");
  if ((opt_tasks || opt_edges) && (j->nfiles || j->in.goal || j->in.binary
                                   || opt_gen))
    die_usage ("--tasks/--edges replace the input file");
  if (opt_edges && !opt_tasks)
    die_usage ("--edges needs --tasks");
  if (opt_gen && (j->nfiles || j->in.goal || j->in.binary))
    die_usage ("--gen replaces the input file");
  if (opt_time_unit && !tsv_time_unit_valid (opt_time_unit))
    die_usage ("option '--time-unit': unknown unit '%s' (us, ns, ms, s, "
               "cycles)", opt_time_unit);
  if (opt_where && !opt_params)
    die_usage ("--where selects rows of --params FILE: give --params");
  if (opt_each && !opt_params)
    die_usage ("--each predicts once per row of --params FILE: give "
               "--params");
  if (opt_each && (opt_sweep || opt_per_proc || opt_critical || opt_gantt))
    die_usage ("--each writes one summary row per parameter row: not with "
               "--sweep, --per-proc, --critical-path or --gantt");
  if (opt_each && (opt_qstat || opt_link_stats))
    die_usage ("--each writes one summary row per parameter row: not with "
               "--qstat or --link-stats");
  if (j->model == MODEL_PLOGP && !opt_params)
    die_usage ("-m plogp reads the per-size rows of logp-measure (bytes, "
               "os, or, g, L): give them with --params FILE");
  if (j->model == MODEL_PLOGP && opt_each)
    die_usage ("-m plogp uses every row of --params FILE as one table: "
               "not with --each");
  j->sched_stdin = !opt_gen && !opt_tasks
                   && (!j->nfiles || strcmp (j->files[0], "-") == 0);
  if (opt_params && strcmp (opt_params, "-") == 0
      && (j->sched_stdin || (opt_edges && strcmp (opt_edges, "-") == 0)
          || (opt_tasks && strcmp (opt_tasks, "-") == 0)))
    die_usage ("--params - and the schedule cannot both be standard input");
  if (net_spec.kind == DAG_NET_TOPOLOGY && strcmp (net_spec.file, "-") == 0
      && (j->sched_stdin || (opt_params && strcmp (opt_params, "-") == 0)
          || (opt_edges && strcmp (opt_edges, "-") == 0)
          || (opt_tasks && strcmp (opt_tasks, "-") == 0)))
    die_usage ("option '--network': topology:- and the schedule or "
               "--params cannot both be standard input");
}

/* Does model M read parameter NAME (-m plogp: L and a given S; its
   overheads and gaps come from the table)?  */
static int
model_uses (enum dag_model m, const char *name)
{
  if (m == MODEL_PLOGP && strcmp (name, "S") == 0)
    return 1;
  if (opt_cores && strcmp (name, "cs") == 0)
    return 1;
  for (const char *const *p = dag_model_param_names (m); *p; p++)
    if (strcmp (*p, name) == 0)
      return 1;
  return 0;
}

/* --sweep NAME=V1,V2,...  */
static void
parse_sweep (struct predict_job *j)
{
  j->sweep_name = xstrdup (opt_sweep);
  char *eq = strchr (j->sweep_name, '=');
  if (!eq || eq == j->sweep_name || !eq[1])
    die_usage ("option '--sweep': expected NAME=V1,V2,... not '%s'",
               opt_sweep);
  *eq = '\0';
  j->gfield = gen_field (j->sweep_name);
  if (!j->gfield && sweep_param (j->sweep_name) < 0
      && strcmp (j->sweep_name, "o") != 0)
    die_usage ("option '--sweep': unknown parameter '%s' (a model "
               "parameter, or procs, n, blocks, rounds, bytes with "
               "--gen)", j->sweep_name);
  if (j->gfield && !opt_gen)
    die_usage ("option '--sweep': '%s' changes the DAG: use --gen",
               j->sweep_name);
  if (!j->gfield && strcmp (j->sweep_name, "o") == 0)
    die_usage ("option '--sweep': sweep os or or, not o");
  if (!j->gfield && !model_uses (j->model, j->sweep_name))
    {
      char list[128] = "";
      size_t n = 0;
      for (const char *const *p = dag_model_param_names (j->model); *p; p++)
        n += (size_t) snprintf (list + n, sizeof list - n, "%s%s",
                                n ? ", " : "", *p);
      if (j->model == MODEL_PLOGP)
        snprintf (list + n, sizeof list - n, ", S; os, or and g per size "
                  "from --params");
      die_usage ("option '--sweep': -m %s does not use %s: every row would "
                 "be the same (its parameters: %s)", dag_model_name (j->model),
                 j->sweep_name, list);
    }
  /* a generator's field is a whole number (a size may have K, M, G); a
     parameter is checked against the parameter table's range */
  j->sweep_vals = opt_list ("sweep", eq + 1, j->gfield != NULL,
                            (double) (INT64_C (1) << 50), &j->nsweep);
  int k = j->gfield ? -1 : sweep_param (j->sweep_name);
  for (size_t i = 0; k >= 0 && i < j->nsweep; i++)
    if (!param_in_range (k, j->sweep_vals[i]))
      {
        char v[NUM_BUFSIZE];
        num_format (j->sweep_vals[i], -1, v);
        die_usage ("option '--sweep': %s=%s is out of range (%s expected "
                   "for %s)", j->sweep_name, v, param_range_text (k),
                   param_defs[k].help);
      }
}

/* The schedule: generated, native --tasks/--edges, or a FILE.  */
static void
read_schedule (struct predict_job *j)
{
  if (j->sched_stdin && isatty (STDIN_FILENO))
    fprintf (stderr, "%s: reading a schedule (%s) from standard input; "
             "end it with Ctrl-D, or give a FILE, --gen PATTERN or --tasks "
             "FILE\n", PROGRAM, j->in.goal ? "GOAL" : "native TSV");
  if (opt_gen)
    generate (&j->d);
  else if (opt_tasks)
    {
      tsv_reader *t = tsv_open (opt_tasks);
      tsv_reader *e = opt_edges ? tsv_open (opt_edges) : NULL;
      dag_init (&j->d, tsv_name (t));
      dag_read_native2 (t, e, &j->d);
      j->in.rd[j->in.nrd++] = t;
      if (e)
        j->in.rd[j->in.nrd++] = e;
    }
  else
    dag_input_read (&j->in, &j->d, j->nfiles ? j->files[0] : NULL,
                    opt_format != NULL);
  j->tm.c_read = dag_clock_cpu ();
  j->tm.k_read = dag_clock_system ();
  if (!j->d.mapped)
    dag_finalize (&j->d);
  j->tm.c_index = dag_clock_cpu ();
  if (opt_save_binary)
    dag_input_save (&j->in, &j->d, opt_save_binary);
}

/* The output's time unit (the schedule's, --time-unit's, LogGOPSim's ns
   for GOAL), --params' times converted to it, the defaults scaled.  */
static void
resolve_units (struct predict_job *j)
{
  const char *unit = tsv_time_unit (j->in.rd, j->in.nrd);
  if (opt_time_unit && unit && strcmp (unit, opt_time_unit) != 0)
    die ("--time-unit %s, but the input says #@time_unit=%s", opt_time_unit,
         unit);
  if (!unit && j->in.goal_unit[0])
    {
      unit = j->in.goal_unit;   /* its "// #@time_unit=" line */
      if (!tsv_time_unit_valid (unit))
        die ("the schedule's '// #@time_unit=%s': not a time unit (s, ms, "
             "us, ns, cycles)", unit);
      if (opt_time_unit && strcmp (unit, opt_time_unit) != 0)
        die ("--time-unit %s, but the schedule says // #@time_unit=%s",
             opt_time_unit, unit);
    }
  if (!unit)
    unit = opt_time_unit;
  /* A GOAL schedule without a unit line: LogGOPSim's nanoseconds unless
     --time-unit says otherwise.  */
  j->goal_default_unit = j->in.goal && !unit;
  if (j->goal_default_unit && pfile && pfile->time_unit
      && strcmp (pfile->time_unit, "ns") != 0)
    warn ("the GOAL schedule has no '// #@time_unit=UNIT' line: its times "
          "are read in ns (LogGOPSim's), and %s's converted from %s; give "
          "--time-unit if the schedule's are in another unit",
          pfile->name, pfile->time_unit);
  if (j->goal_default_unit)
    unit = "ns";
  j->file_scale = 1;
  if (pfile)
    {
      const char *pu = pfile->time_unit ? pfile->time_unit : opt_time_unit;
      if (!pu && unit)
        die ("%s: no #@time_unit line, and the schedule's times are in "
             "%s%s: declare the file's unit with a '#@time_unit=UNIT' line "
             "(s, ms, us, ns) or --time-unit UNIT", pfile->name, unit,
             j->goal_default_unit ? " (a GOAL schedule's default)" : "");
      if (pu && !unit)
        unit = pu;
      else if (pu && strcmp (pu, unit) != 0)
        {
          if (param_time_scale (pu, unit, &j->file_scale) != 0)
            die ("%s: its times are in %s and the schedule's in %s: only "
                 "s, ms, us and ns convert (use --time-unit on a schedule "
                 "without a unit)", pfile->name, pu, unit);
          char f[NUM_BUFSIZE];
          num_format (j->file_scale, -1, f);
          snprintf (j->conversion, sizeof j->conversion, "%s to %s (x%s)",
                    pu, unit, f);
        }
    }
  j->unit = unit;
  /* LogGOPSim's defaults are in ns.  */
  double def_scale = 1;
  int convertible = !unit || param_time_scale ("ns", unit, &def_scale) == 0;
  set_defaults (def_scale, pfile != NULL || !convertible);
  if (!pfile)
    resolve_params (dag_model_param_names (j->model), 0, 1);
}

/* --sweep L with -m plogp: the table's L (a swept value is >= 0 and
   so is every g(m) of the table, a negative one held as 0: the one-way
   times stay >= 0).  */
static void
plogp_sweep_L (struct predict_job *j, double L)
{
  j->plogp.L = L;
}

/* -m plogp: the rows of --params (those --where selects) as the table of
   os(m), or(m), g(m); L from --set or the rows' L (pLogP's own).  */
static void
build_plogp (struct predict_job *j)
{
  if (j->model != MODEL_PLOGP)
    return;
  /* the one reader of per-size tables (params.h); L is read below */
  double *v = xmalloc (nprow * 5 * sizeof *v);
  param_plogp_rows (pfile, prow, nprow, j->file_scale, "-m plogp", 0, v);
  struct plogp_point *pts = xmalloc (nprow * sizeof *pts);
  for (size_t k = 0; k < nprow; k++)
    pts[k] = (struct plogp_point) { v[5 * k], v[5 * k + 1], v[5 * k + 2],
                                    v[5 * k + 3] };
  free (v);
  /* pLogP's L is the pair's (and the launch's): one value for the
     table, taken from its first row unless --set gives it; rows that
     disagree are of several pairs or measurements.  */
  if (!param_given (&p_set, PARAM_L))
    param_file_same_value (pfile, prow, nprow, "L", "-m plogp",
                           "select one pair with --where src=I,dst=J, or "
                           "give L with --set");
  size_t which = 0;
  enum plogp_status st = plogp_init (&j->plogp, pts, nprow, params.L,
                                     &which);
  free (pts);
  if (st == PLOGP_NOMEM)
    die ("out of memory while reading the per-size table of %s",
         pfile->name);
  if (st != PLOGP_OK)
    param_plogp_fail (pfile, prow, nprow, which, "-m plogp",
                      plogp_status_text (st), NULL);
  params.plogp = &j->plogp;
}

/* --each: one prediction per parameter row, all before any output.  */
static void
simulate_each (struct predict_job *j)
{
  j->ms = xmalloc (nprow * sizeof *j->ms);
  j->rs = xmalloc (nprow * sizeof *j->rs);
  j->its = xmalloc (nprow * sizeof *j->its);
  j->each_params = xmalloc (nprow * sizeof *j->each_params);
  for (size_t i = 0; i < nprow; i++)
    {
      resolve_params (dag_model_param_names (j->model), i, j->file_scale);
      apply_network (&j->d);
      j->each_params[i] = params;
      char at[64];
      snprintf (at, sizeof at, "--each: parameter row %zu", i + 1);
      predict (&j->d, j->model, &j->so, &j->rs[i], &j->its[i], at);
      j->ms[i] = j->rs[i].makespan;
    }
}

/* --sweep: every value first, since the best is metadata written before
   the header.  */
static void
simulate_sweep (struct predict_job *j)
{
  size_t n = j->nsweep;
  j->ms = xmalloc (n * sizeof *j->ms);
  j->rs = xmalloc (n * sizeof *j->rs);
  j->its = xmalloc (n * sizeof *j->its);
  j->ds = xmalloc (n * sizeof *j->ds);
  for (size_t i = 0; i < n; i++)
    {
      double val = j->sweep_vals[i];
      if (j->gfield)
        {
          if (val != floor (val) || val < 0)
            die_usage ("option '--sweep': %s needs whole numbers",
                       j->sweep_name);
          *j->gfield = (int64_t) val;
          if (j->gfield == &gen.procs)
            gen.procs_given = 1;
          if (j->gfield == &gen.rounds)
            gen.rounds_given = 1;
          generate (&j->ds[i]);
          dag_finalize (&j->ds[i]);
          apply_network (&j->ds[i]);
        }
      else
        {
          j->ds[i] = j->d;
          if (dag_params_set (&params, j->sweep_name, val) != 0)
            die_usage ("option '--sweep': %s out of range", j->sweep_name);
          if (j->model == MODEL_PLOGP && strcmp (j->sweep_name, "L") == 0)
            plogp_sweep_L (j, val);
          if (strcmp (j->sweep_name, "S") == 0)
            params.S_given = 1;
        }
      char at[NUM_BUFSIZE + 64], v[NUM_BUFSIZE];
      num_format (val, -1, v);
      snprintf (at, sizeof at, "--sweep %s=%s", j->sweep_name, v);
      predict (&j->ds[i], j->model, &j->so, &j->rs[i], &j->its[i], at);
      j->ms[i] = j->rs[i].makespan;
      if (isnan (j->ms[j->best]) || j->ms[i] < j->ms[j->best])
        j->best = i;
      if (j->so.progress)
        dag_progress_sweep (j->sweep_name, v, i, j->nsweep, j->tm.t1);
    }
}

/* -g coll:OP:all: every algorithm of OP (dag_coll_all), best first.  */
static char **all_names;
static size_t nall;

static void
simulate_all (struct predict_job *j)
{
  j->ms = xmalloc (nall * sizeof *j->ms);
  j->rs = xmalloc (nall * sizeof *j->rs);
  j->its = xmalloc (nall * sizeof *j->its);
  j->ds = xmalloc (nall * sizeof *j->ds);
  for (size_t i = 0; i < nall; i++)
    {
      opt_gen = all_names[i];
      generate (&j->ds[i]);
      dag_finalize (&j->ds[i]);
      apply_network (&j->ds[i]);
      predict (&j->ds[i], j->model, &j->so, &j->rs[i], &j->its[i],
               all_names[i]);
      j->ms[i] = j->rs[i].makespan;
    }
}

static void
write_all (tsv_writer *w, struct predict_job *j)
{
  size_t *order = xmalloc (nall * sizeof *order);
  dag_coll_order (j->ms, nall, order);
  const char *col = "algorithm";
  dag_summary_header (w, j->model, NULL, 1, &col, opt_cores != 0);
  for (size_t k = 0; k < nall; k++)
    {
      size_t i = order[k];
      tsv_put_str (w, strrchr (all_names[i], ':') + 1);
      dag_summary_row (w, j->model, NULL, 0, &j->ds[i], &j->rs[i],
                       j->its[i], &params, opt_cores != 0);
      dagsim_result_free (&j->rs[i]);
      dag_free (&j->ds[i]);
      free (all_names[i]);
    }
  free (all_names);
  free (order);
}

/* ---------------------------------------------------------------- noise */

/* --noise, --noise-trace: the model (noise.h) and its options
   (noise_read.h).  */
static struct dag_noise noise;
static struct dag_noise_opts noise_opts;

/* Every simulation, before any output: an error leaves none.  */
static void
simulate (struct predict_job *j)
{
  /* the summary row needs no per-processor totals */
  j->so = (struct dagsim_opts) { .gantt = opt_gantt,
                                 .critical_path = opt_critical,
                                 .finish_only = !opt_per_proc,
                                 .tie_order = j->tie };
  if (opt_progress || (!opt_no_progress && isatty (STDERR_FILENO)))
    j->so.progress = dag_progress_show;
  j->so.qstat = opt_qstat;
  j->so.link_stats = opt_link_stats;
  int64_t nranks = j->d.nprocs;
  for (size_t k = 0; j->ds && k < j->nsweep; k++)
    if (j->ds[k].nprocs > nranks)
      nranks = j->ds[k].nprocs;
  noise_opts.spec = opt_noise;
  noise_opts.trace = opt_noise_trace;
  noise_opts.phase = opt_noise_phase;
  noise_opts.cosched = opt_noise_cosched;
  noise_opts.seed = gen.seed;
  dag_noise_setup (&noise, &noise_opts, nranks);
  if (noise.kind != DAG_NOISE_NONE)
    j->so.noise = &noise;
  j->tm.t1 = dag_clock_wall ();
  j->tm.c1 = dag_clock_cpu ();
  j->tm.k1 = dag_clock_system ();
  if (opt_each)
    simulate_each (j);
  else
    {
      if (pfile)
        resolve_params (dag_model_param_names (j->model), 0, j->file_scale);
      build_plogp (j);
      apply_network (&j->d);
      if (nall)
        simulate_all (j);
      else if (!opt_sweep)
        predict (&j->d, j->model, &j->so, &j->r, &j->iters, NULL);
      else
        simulate_sweep (j);
    }
  j->tm.t2 = dag_clock_wall ();
  j->tm.c2 = dag_clock_cpu ();
  j->tm.k2 = dag_clock_system ();
  dag_progress_end ();
  /* A time past the largest double is written NA: say so (msgperf(7),
     NUMBERS).  The schedule's times are finite when the makespan is.  */
  size_t nruns = opt_each ? nprow : opt_sweep ? j->nsweep : nall ? nall : 1;
  for (size_t i = 0; i < nruns; i++)
    if (isinf (opt_sweep || opt_each || nall ? j->ms[i] : j->r.makespan))
      {
        warn ("the makespan is above the largest double (about 1.8e308) "
              "and is written NA, as are the times past it: rescale the "
              "work or the parameters, e.g. to a larger time unit");
        break;
      }
}

/* -m plogp: the table's range, and whether the schedule's messages
   leave it (then their costs follow the last segment's slope, or the
   smallest size's values).  */
static void
plogp_meta (tsv_writer *w, const struct predict_job *j)
{
  const struct plogp *t = &j->plogp;
  char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE];
  num_format (t->pt[0].bytes, -1, lo);
  num_format (t->pt[t->n - 1].bytes, -1, hi);
  tsv_meta (w, "plogp_sizes", "%zu sizes, %s to %s bytes", t->n, lo, hi);
  if (params.S_given)
    {
      char sb[NUM_BUFSIZE];
      num_format (params.S, -1, sb);
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
  const struct dag *ds = j->ds ? j->ds : &j->d;
  size_t nd = j->ds ? j->nsweep : 1;
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

/* The metadata: the schedule's, the model's, the parameters'.  */
static void
write_predict_meta (tsv_writer *w, const struct predict_job *j)
{
  for (size_t i = 0; i < j->in.nrd; i++)
    tsv_copy_meta (w, j->in.rd[i]);
  tsv_write_tool_meta (w, "predict");
  tsv_meta (w, "model", "%s", dag_model_name (j->model));
  tsv_meta (w, "tie_order", "%s", j->tie == DAGSIM_TIE_CLASS ? "class"
                                                            : "creation");
  if (opt_network)
    tsv_meta (w, "network", "%s", opt_network);
  /* the topology's metadata, under a prefix of its own (msgperf(7):
     an input's metadata never mixes with the output's keys) */
  for (size_t i = 0; i < ntopo_meta; i++)
    {
      const char *m = topo_meta[i], *eq = strchr (m, '=');
      int klen = eq ? (int) (eq - m) : (int) strlen (m);
      char key[256];
      snprintf (key, sizeof key, "network_%.*s", klen, m);
      tsv_meta (w, key, "%s", eq ? eq + 1 : "");
    }
  if (topo_conversion[0])
    tsv_meta (w, "network_time_conversion", "%s", topo_conversion);
  if (opt_cores)
    tsv_meta (w, "cores", "%ld", (long) opt_cores);
  dag_noise_meta (w, &noise, &noise_opts);
  tsv_meta_time_unit (w, j->unit);
  if (j->d.mapped)
    tsv_meta (w, "binary_schedule", "%s (of %s)", j->in.image_name,
              j->d.source);
  if (opt_save_binary)
    tsv_meta (w, "saved_binary", "%s (%llu bytes)", opt_save_binary,
              (unsigned long long) j->in.saved_bytes);
  if (j->goal_default_unit)
    tsv_meta (w, "goal_time_unit", "ns (LogGOPSim's; the default of "
              "--time-unit)");
  if (pfile)
    {
      param_file_write_meta (pfile, w);
      if (opt_where)
        tsv_meta (w, "params_where", "%s", opt_where);
      if (j->conversion[0])
        tsv_meta (w, "params_time_conversion", "%s", j->conversion);
    }
  if (j->model == MODEL_PLOGP)
    plogp_meta (w, j);
}

/* --each: one summary row per parameter row, led by its key columns.  */
static void
write_each (tsv_writer *w, struct predict_job *j)
{
  long keys[8];
  size_t nk = param_file_keys (pfile, keys);
  const char *kn[8];
  for (size_t k = 0; k < nk; k++)
    kn[k] = pfile->col[keys[k]];
  dag_summary_header (w, j->model, NULL, nk, kn, opt_cores != 0);
  for (size_t i = 0; i < nprow; i++)
    {
      for (size_t k = 0; k < nk; k++)
        tsv_put_str (w, pfile->cell[prow[i] * pfile->ncols
                                    + (size_t) keys[k]]);
      params = j->each_params[i];
      dag_summary_row (w, j->model, NULL, 0, &j->d, &j->rs[i], j->its[i],
                       &params, opt_cores != 0);
      dagsim_result_free (&j->rs[i]);
    }
}

/* One run: the table asked for, or the summary row.  */
static void
write_one (tsv_writer *w, struct predict_job *j)
{
  if (opt_timing)
    dag_write_timing (w, &j->tm, j->r.events);
  if (opt_gantt)
    dag_write_gantt (w, &j->d, &j->r);
  else if (opt_critical)
    dag_write_critical (w, &j->d, &j->r);
  else if (opt_per_proc)
    dag_write_per_proc (w, &j->d, &j->r);
  else if (opt_qstat)
    dag_write_qstat (w, &j->d, &j->r);
  else if (opt_link_stats)
    dag_write_link_stats (w, &j->r, &topo);
  else
    {
      dag_summary_header (w, j->model, NULL, 0, NULL, opt_cores != 0);
      dag_summary_row (w, j->model, NULL, 0, &j->d, &j->r, j->iters, &params,
                       opt_cores != 0);
    }
  dagsim_result_free (&j->r);
}

/* --sweep: the best value, then one summary row per value.  */
static void
write_sweep (tsv_writer *w, struct predict_job *j)
{
  char bv[NUM_BUFSIZE];
  num_format (j->sweep_vals[j->best], -1, bv);
  tsv_meta (w, "sweep_best", "%s=%s", j->sweep_name, bv);
  dag_summary_header (w, j->model, j->sweep_name, 0, NULL,
                      opt_cores != 0);
  for (size_t i = 0; i < j->nsweep; i++)
    {
      if (!j->gfield)
        dag_params_set (&params, j->sweep_name, j->sweep_vals[i]);
      else
        apply_network (&j->ds[i]);
      dag_summary_row (w, j->model, j->sweep_name, j->sweep_vals[i],
                       &j->ds[i], &j->rs[i], j->its[i], &params,
                       opt_cores != 0);
      dagsim_result_free (&j->rs[i]);
      if (j->gfield)
        dag_free (&j->ds[i]);
    }
}

/* After the output: a LoGPC iteration that did not converge (its rows
   show the last simulation) is a warning with its bracket and exit
   status 1; so are schedules that could not complete (warned about
   already, their rows NA).  */
static int
predict_status (void)
{
  if (nunconverged)
    {
      char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE], wt[NUM_BUFSIZE];
      char where[2 * NUM_BUFSIZE + 64];
      num_format (unconverged.lo, -1, lo);
      num_format (unconverged.damping, -1, wt);
      if (isfinite (unconverged.hi))
        {
          num_format (unconverged.hi, -1, hi);
          snprintf (where, sizeof where, "lies between %s and %s", lo, hi);
        }
      else
        snprintf (where, sizeof where, "is at least %s, the contention-free "
                  "makespan", lo);
      warn ("logpc: the contention iteration did not converge in %d "
            "simulation%s (--max-iterations)%s: the makespan's fixed point "
            "%s (last step weight %s); the row shows the last simulation",
            unconverged.iterations, unconverged.iterations == 1 ? "" : "s",
            nunconverged > 1 ? " in some runs, the first shown" : "", where,
            wt);
      return 1;
    }
  return nstuck ? 1 : 0;
}

static int
run_predict (int argc, const char **argv)
{
  struct predict_job j = { .tm = { .t0 = dag_clock_wall (),
                                   .c0 = dag_clock_cpu (),
                                   .k0 = dag_clock_system () } };
  dag_gen_init (&gen);
  dag_params_default (&params);
  param_set_clear (&p_set);
  poptContext con = cli_parse (argc, argv, predict_options,
                               "[FILE]  (or: gen PATTERN ..., diamond ...)",
                               handle);
  j.files = poptGetArgs (con);
  while (j.files && j.files[j.nfiles])
    j.nfiles++;
  check_predict_options (&j);
  if (opt_save_mem)
    dag_save_mem_setup (opt_save_dir);
  if (opt_params)
    {
      pfile = param_file_read (opt_params);
      /* plogp: every selected row is one size of the table */
      nprow = param_file_select (pfile, opt_where,
                                 opt_each || j.model == MODEL_PLOGP,
                                 "--each", &prow);
    }
  if (opt_sweep)
    parse_sweep (&j);
  if (opt_gen && (nall = dag_coll_all (opt_gen, gen.procs, &all_names)))
    {
      if (opt_sweep || opt_each || opt_gantt || opt_critical || opt_per_proc
          || opt_qstat || opt_link_stats || opt_timing)
        die_usage ("--gen %s: one summary row per algorithm; no --sweep, "
                   "--each or other table", opt_gen);
      opt_gen = all_names[0];
    }
  read_schedule (&j);
  resolve_units (&j);
  read_topology (j.unit);
  simulate (&j);

  tsv_writer *w = tsv_writer_open (NULL);
  write_predict_meta (w, &j);
  if (opt_each)
    write_each (w, &j);
  else if (nall)
    write_all (w, &j);
  else if (!opt_sweep)
    write_one (w, &j);
  else
    write_sweep (w, &j);
  tsv_writer_close (w);

  for (size_t i = 0; i < j.in.nrd; i++)
    tsv_close (j.in.rd[i]);
  dag_free (&j.d);
  big_free (j.in.image);
  free (j.in.image_text);
  free (j.ms);
  free (j.rs);
  free (j.its);
  free (j.ds);
  free (j.each_params);
  plogp_free (&j.plogp);
  free (j.sweep_name);
  free (j.sweep_vals);
  free (prow);
  param_file_free (pfile);
  poptFreeContext (con);
  free (opt_network);
  free (opt_save_dir);
  if (topo_name)
    dag_topo_free (&topo);
  free (topo_line);
  free ((char *) topo_name);
  for (size_t i = 0; i < ntopo_meta; i++)
    free (topo_meta[i]);
  free (topo_meta);
  return predict_status ();
}

/* ---------------------------------------------------------------- gen */

static int
run_gen (int argc, const char **argv)
{
  dag_gen_init (&gen);
  poptContext con = cli_parse (argc, argv, gen_options,
                               "PATTERN  (diamond, remap, em3d, tree-bcast, "
                               "tree-reduce, stencil, pipeline, "
                               "multigrid-time, coll:OP:ALGO; coll:list "
                               "lists the collectives)", handle);
  const char **args = poptGetArgs (con);
  if (!args || !args[0])
    {
      char list[512] = "";
      for (size_t i = 0; dag_gen_patterns[i][0]; i++)
        {
          strcat (list, i ? ", " : "");
          strcat (list, dag_gen_patterns[i][0]);
        }
      die_usage ("gen: missing PATTERN (one of: %s)", list);
    }
  if (args[1])
    die_usage ("gen: one PATTERN only (extra '%s')", args[1]);
  if (opt_time_unit && !tsv_time_unit_valid (opt_time_unit))
    die_usage ("option '--time-unit': unknown unit '%s' (us, ns, ms, s, "
               "cycles)", opt_time_unit);
  gen.pattern = args[0];
  if (strcmp (gen.pattern, "coll:list") == 0)
    {
      dag_coll_write_list ();
      poptFreeContext (con);
      return 0;
    }
  load_topology ();
  /* Check the parameters on a dry run into a DAG first, so a usage error
     never leaves a half-written stream.  */
  {
    struct dag probe;
    struct dag_sink ps;
    struct dag_sink_dag pc;
    dag_init (&probe, "gen");
    dag_sink_dag_init (&ps, &pc, &probe);
    const char *err = gen_run (&ps);
    dag_free (&probe);
    if (err)
      die_usage ("gen %s: %s", gen.pattern, err);
  }
  struct dag_coll c = { gen.pattern, gen.procs, gen.bytes, opt_coll_root,
                        opt_coll_segment, opt_reduce_cost };
  dag_gen_write (&gen, &c, opt_time_unit);
  poptFreeContext (con);
  return 0;
}

/* ------------------------------------------------------------ diamond */

/* The generated Diamond DAG simulated under the rules that reproduce
   eq. (15) (diamond_cost).  */
static double
diamond_simulated (const struct diamond_out *o)
{
  struct dag d;
  gen.pattern = "diamond";
  opt_gen = "diamond";
  generate (&d);
  dag_finalize (&d);
  struct dagsim_cost c;
  diamond_cost (o, &c);
  struct dagsim_result r;
  /* Eq. (15) follows a block's computation, which starts before a
     message handled at the same instant: the class order.  */
  struct dagsim_opts so = { .tie_order = DAGSIM_TIE_CLASS };
  if (dagsim_run (&d, &c, &so, &r) != 0)
    die ("%s", r.stuck);
  double m = r.makespan;
  dagsim_result_free (&r);
  dag_free (&d);
  return m;
}

static int
run_diamond (int argc, const char **argv)
{
  dag_gen_init (&gen);
  dag_params_default (&params);
  param_set_clear (&p_set);
  poptContext con = cli_parse (argc, argv, diamond_options, NULL, handle);
  const char **args = poptGetArgs (con);
  if (args && args[0])
    die_usage ("diamond reads no file (got '%s')", args[0]);
  if (opt_time_unit && !tsv_time_unit_valid (opt_time_unit))
    die_usage ("option '--time-unit': unknown unit '%s' (us, ns, ms, s, "
               "cycles)", opt_time_unit);
  if (opt_model && strcmp (opt_model, "loggp") != 0)
    die_usage ("diamond: eq. (15) is a LogGP form: --model loggp only");
  double scale = 1;
  const char *unit = opt_time_unit;
  char conversion[128] = "";
  if (opt_params)
    {
      pfile = param_file_read (opt_params);
      nprow = param_file_select (pfile, opt_where, 0, NULL, &prow);
      const char *pu = pfile->time_unit;
      if (pu && unit && strcmp (pu, unit) != 0)
        {
          if (param_time_scale (pu, unit, &scale) != 0)
            die ("%s: its times are in %s, --time-unit says %s: only s, ms, "
                 "us and ns convert", pfile->name, pu, unit);
          char f[NUM_BUFSIZE];
          num_format (scale, -1, f);
          snprintf (conversion, sizeof conversion, "%s to %s (x%s)", pu,
                    unit, f);
        }
      if (!unit)
        unit = pu;
    }
  else if (opt_where)
    die_usage ("--where selects rows of --params FILE: give --params");
  set_defaults (1, pfile != NULL);
  /* eq. (15) reads L, o_s and G */
  static const char *const diamond_needs[] = { "L", "os", "G", NULL };
  resolve_params (diamond_needs, 0, scale);

  struct diamond_in in = {
    (double) gen.n, (double) gen.procs, (double) gen.blocks, gen.work,
    gen.alpha, (double) gen.bytes, params.L, params.os, params.G, opt_header
  };
  if (gen.procs < 2)
    die_usage ("diamond: eq. (15) needs --procs of at least 2");
  if (gen.blocks > gen.n)
    die_usage ("diamond: --blocks must not exceed --n");
  struct diamond_out o;
  diamond_eval (&in, &o);
  double b_real, m_best;
  int64_t b_best;
  diamond_optimal_b (&in, &b_real, &b_best, &m_best);

  double m_sim = opt_closed ? NAN : diamond_simulated (&o);

  tsv_writer *w = tsv_writer_open (NULL);
  tsv_write_tool_meta (w, "diamond");
  tsv_meta_time_unit (w, unit);
  if (pfile)
    {
      param_file_write_meta (pfile, w);
      if (opt_where)
        tsv_meta (w, "params_where", "%s", opt_where);
      if (conversion[0])
        tsv_meta (w, "params_time_conversion", "%s", conversion);
    }
  diamond_write_row (w, &gen, &o, b_real, b_best, m_best, m_sim,
                     opt_closed);
  tsv_writer_close (w);
  free (prow);
  param_file_free (pfile);
  poptFreeContext (con);
  return 0;
}

/* --------------------------------------------------------------- main */

static const struct cli_subcommand subcommands[] = {
  { "predict", run_predict, "simulate a schedule (the default)" },
  { "gen", run_gen, "write a generated DAG as native TSV" },
  { "diamond", run_diamond, "Diamond DAG: eq. (15), optimal b, simulation" },
  { NULL, NULL, NULL }
};

int
main (int argc, char **argv)
{
#if defined __GLIBC__ && defined M_MMAP_THRESHOLD
  /* Every big array mapped, and returned when freed: by default glibc
     raises its mapping threshold to the size of a mapped block that is
     freed, and the simulator's set-up frees some of several MB before
     it allocates its state, which then came from the heap and stayed
     in the peak (the 2^20-rank broadcast's binary: 196 MB instead of
     206).  */
  mallopt (M_MMAP_THRESHOLD, 128 * 1024);
#endif
  cli_init (PROGRAM, argc, argv);
  if (argc > 1)
    for (size_t i = 0; subcommands[i].name; i++)
      if (strcmp (argv[1], subcommands[i].name) == 0)
        return cli_dispatch (argc, argv, subcommands);
  cli.subcommand = "predict";
  return run_predict (argc, (const char **) argv);
}
