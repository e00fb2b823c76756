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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#ifdef __GLIBC__
# include <malloc.h>
#endif

#include "bigmem.h"
#include "cli.h"
#include "dag.h"
#include "dag_coll.h"
#include "dag_gen.h"
#include "dag_image.h"
#include "dag_parse.h"
#include "dagcost.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "diamond.h"
#include "noise.h"
#include "err.h"
#include "listopt.h"
#include "num.h"
#include "params.h"
#include "paramsizes.h"
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
  OPT_SEED, OPT_TOL, OPT_MAXIT, OPT_HEADER, OPT_NETWORK, OPT_CORES, OPT_PROGRESS,
  OPT_SAVE_MEM
};

static char *opt_save_binary;
static char *opt_format, *opt_model, *opt_params, *opt_tasks, *opt_edges;
static char *opt_sweep, *opt_gen, *opt_time_unit, *opt_tie_order;
static int opt_per_proc, opt_critical, opt_gantt, opt_closed, opt_timing;
static int opt_qstat, opt_noise_cosched, opt_link_stats;
static char *opt_noise, *opt_noise_trace, *opt_noise_phase;
static int opt_progress, opt_no_progress;
/* --save-mem[=DIR]: given, and its DIR (NULL: setup_save_mem chooses) */
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
/* --progress-rule (dag_params' progress; NULL: a progress thread) */
static const struct dagcost_progress *opt_rule;
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
    case OPT_PROGRESS:
      opt_rule = dagcost_progress_named (a);
      if (!opt_rule)
        die_usage ("option '--progress-rule': '%s': expected mpi or "
                   "thread", a);
      break;
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
    "generate the DAG (a gen PATTERN) instead of reading one", "PATTERN" },
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
  { "progress-rule", '\0', POPT_ARG_STRING, NULL, OPT_PROGRESS,
    "what moves a message above S after its receive matched: thread (a "
    "progress thread, LogGOPSim's rule) or mpi (only both ranks' MPI "
    "calls: the sender is held while the bytes move) (default thread)",
    "RULE" },
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
  params.progress = opt_rule;
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

/* The schedule PATH (NULL or "-": standard input) whole; NUL bytes are
   the readers' to report, with their line.  */
static char *
slurp (const char *path, size_t *len)
{
  char *text;
  const char *name = path && strcmp (path, "-") != 0 ? path : "<stdin>";
  enum readfile_status st = read_file (path, 0, &text, len);
  if (st == READFILE_OPEN)
    die ("%s: cannot open: %s", name, strerror (errno));
  if (st == READFILE_NOMEM)
    die ("%s: out of memory while reading the schedule", name);
  if (st != READFILE_OK)
    die ("%s: read error: %s", name, strerror (errno));
  return text;
}

/* Does PATH name a regular file (or one that cannot be looked at, left
   to the open that reports it)?  */
static int
is_regular (const char *path)
{
  struct stat st;
  return stat (path, &st) != 0 || S_ISREG (st.st_mode);
}

/* Is TEXT (LEN bytes, the start of a schedule) GOAL?  GOAL's first
   statement, after a byte order mark, blank lines and comments, is
   "num_ranks N"; a native stream starts with '#' or a header of column
   names (a column named num_ranks is followed by a TAB and a name).  */
static int
looks_like_goal (const char *text, size_t len)
{
  size_t i = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  for (;;)
    {
      while (i < len && strchr (" \t\r\n", text[i]))
        i++;
      if (i + 1 < len && text[i] == '/' && text[i + 1] == '/')
        while (i < len && text[i] != '\n')
          i++;
      else if (i + 1 < len && text[i] == '/' && text[i + 1] == '*')
        {
          const char *end = NULL;
          for (size_t k = i + 2; k + 1 < len && !end; k++)
            if (text[k] == '*' && text[k + 1] == '/')
              end = text + k + 2;
          i = end ? (size_t) (end - text) : len;
        }
      else
        break;
    }
  static const char kw[] = "num_ranks";
  if (len - i < sizeof kw || memcmp (text + i, kw, sizeof kw - 1) != 0)
    return 0;
  for (i += sizeof kw - 1; i < len && (text[i] == ' ' || text[i] == '\t'); )
    i++;
  return i < len && text[i] >= '0' && text[i] <= '9';
}

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
  if (!dag_coll_is (gen.pattern))
    return dag_gen_run (&gen, s);
  if (gen.work != 0)
    return "the collectives take no --work: their computation is the "
             "reduction's, --reduce-cost";
  if (opt_reduce_cost > 0 && strncmp (gen.pattern, "coll:reduce:", 12) != 0
      && strncmp (gen.pattern, "coll:allreduce:", 15) != 0)
    return "--reduce-cost applies to coll:reduce and coll:allreduce only";
  struct dag_coll c = { gen.pattern, gen.procs, gen.bytes, opt_coll_root,
                        opt_coll_segment, opt_reduce_cost };
  return dag_coll_run (&c, s);
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

static const char *kind_names[] = { "compute", "send", "recv", "wait" };

static void
task_label (const struct dag *d, int32_t v, char *buf, size_t len)
{
  const char *name = dag_name (d, dag_node_name (d, (size_t) v));
  if (name)
    snprintf (buf, len, "%s", name);
  else
    snprintf (buf, len, "op%ld", (long) v);
}

static int
iv_cmp (const void *a, const void *b)
{
  const struct dagsim_interval *x = a, *y = b;
  if (x->proc != y->proc)
    return x->proc < y->proc ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->end > y->end) - (x->end < y->end);
}

static void
write_gantt (tsv_writer *w, const struct dag *d, struct dagsim_result *r)
{
  static const char *cols[] = { "proc", "start", "end", "kind", "task" };
  tsv_write_header (w, 5, cols);
  qsort (r->gantt, r->ngantt, sizeof *r->gantt, iv_cmp);
  char label[256];
  double t = 0;
  int32_t proc = -1;
  for (size_t i = 0; i < r->ngantt; i++)
    {
      struct dagsim_interval *iv = &r->gantt[i];
      if (iv->proc != proc)
        {
          proc = iv->proc;
          t = 0;
        }
      task_label (d, iv->node, label, sizeof label);
      if (iv->start > t)
        {
          tsv_put_int (w, proc);
          tsv_put_num (w, t);
          tsv_put_num (w, iv->start);
          tsv_put_str (w, kind_names[GANTT_WAIT]);
          tsv_put_str (w, label);
          tsv_end_row (w);
        }
      tsv_put_int (w, proc);
      tsv_put_num (w, iv->start);
      tsv_put_num (w, iv->end);
      tsv_put_str (w, kind_names[iv->kind]);
      tsv_put_str (w, label);
      tsv_end_row (w);
      if (iv->end > t)
        t = iv->end;
    }
}

static void
write_critical (tsv_writer *w, const struct dag *d,
                const struct dagsim_result *r)
{
  static const char *cols[] = { "step", "proc", "kind", "task", "start",
                                "end" };
  tsv_write_header (w, 6, cols);
  char label[256];
  for (size_t i = 0; i < r->ncp; i++)
    {
      int32_t v = r->cp[i];
      const struct dag_node *nd = &d->node[v];
      task_label (d, v, label, sizeof label);
      tsv_put_int (w, (int64_t) i + 1);
      tsv_put_int (w, nd->proc);
      tsv_put_str (w, nd->op == DAG_CALC ? "compute"
                      : nd->op == DAG_SEND ? "send" : "recv");
      tsv_put_str (w, label);
      tsv_put_num (w, r->cp_start[i]);
      tsv_put_num (w, r->cp_end[i]);
      tsv_end_row (w);
    }
}

static void
write_per_proc (tsv_writer *w, const struct dag *d,
                const struct dagsim_result *r)
{
  static const char *cols[] = { "proc", "finish", "compute", "send", "recv",
                                "idle", "sent", "received" };
  tsv_write_header (w, 8, cols);
  /* idle: the time of the rank's CPUs (one per cpu number of the
     schedule) up to its finish not spent computing, sending or
     receiving */
  double ncpu = (double) d->maxcpu + 1;
  for (int32_t p = 0; p < d->nprocs; p++)
    {
      const struct dagsim_proc *q = &r->proc[p];
      double idle = ncpu * q->finish - q->compute - q->send - q->recv;
      tsv_put_int (w, p);
      tsv_put_num (w, q->finish);
      tsv_put_num (w, q->compute);
      tsv_put_num (w, q->send);
      tsv_put_num (w, q->recv);
      tsv_put_num (w, idle > 0 ? idle : 0);
      tsv_put_int (w, q->nsend);
      tsv_put_int (w, q->nrecv);
      tsv_end_row (w);
    }
}

/* --qstat: the matching queues of each processor (dagsim.h,
   struct dagsim_queue).  */
static void
write_qstat (tsv_writer *w, const struct dag *d,
             const struct dagsim_result *r)
{
  static const char *cols[] = { "proc", "posted", "posted_max",
                                "posted_mean", "unexpected",
                                "unexpected_max", "unexpected_mean" };
  tsv_write_header (w, 7, cols);
  for (int32_t p = 0; p < d->nprocs; p++)
    {
      const struct dagsim_queue *q = &r->queue[p];
      tsv_put_int (w, p);
      tsv_put_int (w, q->posted);
      tsv_put_int (w, q->posted_max);
      tsv_put_num (w, q->posted_mean);
      tsv_put_int (w, q->unexpected);
      tsv_put_int (w, q->unexpected_max);
      tsv_put_num (w, q->unexpected_mean);
      tsv_end_row (w);
    }
}

/* --link-stats: what each link of the topology carried (dagsim.h,
   struct dagsim_link), in the file's order of links.  */
static void
write_link_stats (tsv_writer *w, const struct dagsim_result *r)
{
  static const char *cols[] = { "from", "to", "G", "L", "messages",
                                "bytes", "busy", "utilization", "waited",
                                "wait" };
  tsv_write_header (w, 10, cols);
  for (size_t i = 0; i < r->nlinks; i++)
    {
      const struct dag_topo_link *l = &topo.link[i];
      const struct dagsim_link *q = &r->link[i];
      tsv_put_str (w, dag_topo_name (&topo, l->from));
      tsv_put_str (w, dag_topo_name (&topo, l->to));
      if (isnan (l->G))
        tsv_put_na (w);
      else
        tsv_put_num (w, l->G);
      tsv_put_num (w, l->L);
      tsv_put_int (w, q->messages);
      tsv_put_num (w, q->bytes);
      tsv_put_num (w, q->busy);
      if (r->makespan > 0)
        tsv_put_num (w, q->busy / r->makespan);
      else
        tsv_put_na (w);
      tsv_put_int (w, q->waited);
      tsv_put_num (w, q->wait);
      tsv_end_row (w);
    }
}

/* The summary row: [sweep column,] makespan procs events messages model
   iterations, then the model's parameters.  */
static void
summary_header_keys (tsv_writer *w, enum dag_model m, const char *sweep,
                     size_t nkeys, const char *const *keys)
{
  const char *cols[48];
  size_t n = 0;
  for (size_t i = 0; i < nkeys; i++)
    cols[n++] = keys[i];
  if (sweep)
    cols[n++] = sweep;
  static const char *fixed[] = { "makespan", "procs", "events", "messages",
                                 "model", "iterations" };
  for (size_t i = 0; i < 6; i++)
    cols[n++] = fixed[i];
  for (const char *const *p = dag_model_param_names (m); *p; p++)
    if (!sweep || strcmp (*p, sweep) != 0)
      cols[n++] = *p;
  /* --cores: the switch time in effect (0: free) */
  if (opt_cores && (!sweep || strcmp (sweep, "cs") != 0))
    cols[n++] = "cs";
  tsv_write_header (w, n, cols);
}

static void
summary_header (tsv_writer *w, enum dag_model m, const char *sweep)
{
  summary_header_keys (w, m, sweep, 0, NULL);
}

static void
summary_row (tsv_writer *w, enum dag_model m, const char *sweep,
             double sweep_value, const struct dag *d,
             const struct dagsim_result *r, int iterations)
{
  if (sweep)
    tsv_put_num (w, sweep_value);
  tsv_put_num (w, r->makespan);
  tsv_put_int (w, d->nprocs);
  if (r->stuck)
    {
      /* the schedule could not complete (predict) */
      tsv_put_na (w);
      tsv_put_na (w);
    }
  else
    {
      tsv_put_int (w, (int64_t) r->events);
      tsv_put_int (w, r->messages);
    }
  tsv_put_str (w, dag_model_name (m));
  tsv_put_int (w, iterations);
  for (const char *const *p = dag_model_param_names (m); *p; p++)
    if (!sweep || strcmp (*p, sweep) != 0)
      tsv_put_num (w, dag_params_get (&params, *p));
  if (opt_cores && (!sweep || strcmp (sweep, "cs") != 0))
    tsv_put_num (w, params.cs);
  tsv_end_row (w);
}

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

static double
clock_s (clockid_t id)
{
  struct timespec ts;
  clock_gettime (id, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static double
now (void)
{
  return clock_s (CLOCK_MONOTONIC);
}

static double
cpu_now (void)
{
  return clock_s (CLOCK_PROCESS_CPUTIME_ID);
}

/* CPU seconds spent in the kernel for the process (page faults, mostly:
   the simulator's state is written once and the kernel zeroes each new
   page first).  Tick-based on most kernels: meaningful above ~0.1 s.  */
static double
system_now (void)
{
  struct rusage ru;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0.0;
  return (double) ru.ru_stime.tv_sec + 1e-6 * (double) ru.ru_stime.tv_usec;
}

/* One run of dag-predict: the options checked, the schedule, the
   parameters, the simulations and their timings.  */
struct predict_job
{
  const char **files;
  size_t nfiles;
  int goal;                   /* the schedule is GOAL */
  int binary;                 /* --format binary, or the input is one */
  void *image;                /* the binary schedule read, or NULL */
  char *image_text;           /* or the one read from standard input */
  const char *image_name;     /* its file's name */
  uint64_t saved_bytes;       /* --save-binary: the file's size */
  int model;                  /* enum dag_model */
  int tie;                    /* enum dagsim_tie */
  int sched_stdin;            /* the schedule comes from standard input */
  tsv_reader *rd[3];          /* the schedule's streams (time unit) */
  size_t nrd;
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
  /* timings (--timing) */
  double t0, c0, k0, c_read, k_read, c_index, t1, c1, k1, t2, c2, k2;
};

/* --save-mem: the big arrays in files in its directory from now on
   (checked first: a directory where no file can be created is a usage
   error, found before the schedule is read).  A file size limit
   (ulimit -f) then fails as a file that cannot grow, with a message,
   rather than ending the program with SIGXFSZ.  */
static void
setup_save_mem (void)
{
  if (!opt_save_mem)
    return;
  const char *dir = opt_save_dir;
  if (!dir)
    {
      /* /tmp is a tmpfs on many systems (memory, what --save-mem is to
         spare): then /var/tmp, on a disk by convention */
      dir = getenv ("TMPDIR");
      if (!dir || !*dir)
        dir = big_dir_in_memory ("/tmp") && !big_dir_in_memory ("/var/tmp")
              && access ("/var/tmp", W_OK) == 0 ? "/var/tmp" : "/tmp";
    }
  if (!*dir)
    die_usage ("option '--save-mem': empty directory name (expected "
               "--save-mem or --save-mem=DIR)");
  int e = big_use_dir (dir);
  if (e)
    die_usage ("option '--save-mem': cannot create a file in '%s': %s%s",
               dir, strerror (e),
               e == ENOTDIR ? " (the directory is given as --save-mem=DIR)"
                            : "");
  if (big_dir_in_memory (dir))
    warn ("option '--save-mem': '%s' is on a file system in memory "
          "(tmpfs, ramfs): the schedule stays in memory (give "
          "--save-mem=DIR on a disk)", dir);
  signal (SIGXFSZ, SIG_IGN);
}

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
        j->goal = 1;
      else if (strcmp (opt_format, "binary") == 0)
        j->binary = 1;
      else if (strcmp (opt_format, "native") != 0)
        die_usage ("option '--format': '%s' (expected native, goal or "
                   "binary)", opt_format);
    }
  /* without -m: per-size rows, when --params has them, for plogp */
  j->model = dag_model_parse (opt_model ? opt_model
                              : opt_params && !opt_where && !opt_each
                                && strcmp (opt_params, "-") != 0
                                && param_file_per_size (opt_params)
                              ? "plogp" : "loggops");
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
  if ((opt_tasks || opt_edges) && (j->nfiles || j->goal || j->binary
                                   || opt_gen))
    die_usage ("--tasks/--edges replace the input file");
  if (opt_edges && !opt_tasks)
    die_usage ("--edges needs --tasks");
  if (opt_gen && (j->nfiles || j->goal || j->binary))
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

static void open_image (struct predict_job *j, const char *path,
                        int from_stdin, const char *name, char *text,
                        size_t len);

/* The size of the file open as FD, if it is a regular one, else 0 (for
   goal_parse_fd: a hint).  */
static size_t
regular_size (int fd)
{
  struct stat st;
  return fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
         && (uintmax_t) st.st_size <= SIZE_MAX ? (size_t) st.st_size : 0;
}

/* Up to N bytes of FD (NAME) into BUF, fewer only at its end; returns
   how many.  */
static size_t
read_or_die (int fd, const char *name, char *buf, size_t n)
{
  ptrdiff_t k = read_full (fd, buf, n);
  if (k < 0)
    die ("%s: read error: %s", name, strerror (errno));
  return (size_t) k;
}

/* The N bytes of HEAD and, if MORE (its end not yet read: a terminal
   would wait for more after a Ctrl-D), the rest of FD (NAME),
   NUL-terminated, in memory of their own; *LEN their length.  */
static char *
read_rest (int fd, const char *name, const char *head, size_t n, int more,
           size_t *len)
{
  size_t cap = n < 65536 ? 65536 : 2 * n;
  char *t = xmalloc (cap + 1);
  memcpy (t, head, n);
  while (more)
    {
      if (n == cap)
        {
          if (cap > SIZE_MAX / 4)
            die ("%s: out of memory while reading the schedule", name);
          cap *= 2;
          t = xrealloc (t, cap + 1);
        }
      size_t k = read_or_die (fd, name, t + n, cap - n);
      n += k;
      if (n < cap)
        break;
    }
  t[n] = '\0';
  *len = n;
  return t;
}

/* The schedule of a FILE or standard input: GOAL when --format says so,
   or (without --format) when its first statement does.  A regular file
   is peeked at.  Standard input and anything else (a named pipe, a
   shell's <(...)), which a peek would take bytes from, have their first
   HEAD bytes read and looked at: GOAL is then read on from there in
   pieces (goal_parse_fd), any other format whole, and read as a stream
   from memory when it is native.  An input whose end came within HEAD
   is not read again (a terminal would wait for more after its
   Ctrl-D).  */
enum { HEAD = 4096 };

static void
read_schedule_file (struct predict_job *j)
{
  const char *path = j->nfiles ? j->files[0] : NULL;
  int from_stdin = !path || strcmp (path, "-") == 0;
  const char *name = from_stdin ? "<stdin>" : path;
  size_t len = 0, nhead = 0;
  char *text = NULL, head[HEAD];
  int fd = -1;              /* open, its first NHEAD bytes in HEAD */
  int ended = 0;            /* and its end read */
  if (!opt_format && (from_stdin || !is_regular (path)))
    {
      fd = from_stdin ? STDIN_FILENO : open (path, O_RDONLY);
      if (fd < 0)
        die ("%s: cannot open: %s", name, strerror (errno));
      nhead = read_or_die (fd, name, head, sizeof head);
      ended = nhead < sizeof head;
      j->binary = dag_image_is (head, nhead);
      j->goal = !j->binary && looks_like_goal (head, nhead);
      if (!j->goal || ended)
        {
          text = read_rest (fd, name, head, nhead, !ended, &len);
          if (!from_stdin)
            close (fd);
          fd = -1;
        }
    }
  else if (!opt_format)
    {
      FILE *fp = fopen (path, "rb");
      if (fp)
        {
          char peek[HEAD];
          size_t n = fread (peek, 1, sizeof peek, fp);
          j->binary = dag_image_is (peek, n);
          j->goal = !j->binary && looks_like_goal (peek, n);
          fclose (fp);
        }
    }
  dag_init (&j->d, name);
  if (j->binary)
    {
      open_image (j, path, from_stdin, name, text, len);
      return;
    }
  if (j->goal && text)
    {
      /* A byte order mark is no part of the first statement.  */
      size_t bom = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0
                   ? 3 : 0;
      goal_parse (text + bom, len - bom, name, &j->d);
    }
  else if (j->goal)
    {
      if (fd < 0)
        fd = from_stdin ? STDIN_FILENO : open (path, O_RDONLY);
      if (fd < 0)
        die ("%s: cannot open: %s", name, strerror (errno));
      goal_parse_fd (fd, head, nhead, regular_size (fd), 0, name, &j->d);
      if (!from_stdin)
        close (fd);
    }
  else
    {
      /* (an empty text read whole: a stream with nothing in it, for
         the reader's own error) */
      FILE *mem = !text ? NULL : len ? fmemopen (text, len, "r")
                                     : fopen ("/dev/null", "r");
      if (text && !mem)
        die ("%s: cannot read the schedule from memory: %s", name,
             strerror (errno));
      tsv_reader *r = mem ? tsv_open_stream (mem, name)
                          : tsv_open (text ? "-" : path);
      dag_read_native (r, &j->d);
      j->rd[j->nrd++] = r;
      if (mem)
        fclose (mem);
    }
  free (text);
}

/* A binary schedule (--save-binary): FILE read, or TEXT (LEN bytes,
   standard input's, kept until the end), pointed at by j->d.  */
static void
open_image (struct predict_job *j, const char *path, int from_stdin,
            const char *name, char *text, size_t len)
{
  if (!text && !from_stdin)
    {
      struct stat st;
      int fd = open (path, O_RDONLY);
      if (fd < 0 || fstat (fd, &st) != 0)
        die ("%s: %s", name, strerror (errno));
      if (!S_ISREG (st.st_mode) || st.st_size <= 0
          || (uintmax_t) st.st_size > SIZE_MAX)
        die ("%s: a binary schedule must be a regular file, not empty",
             name);
      len = (size_t) st.st_size;
      /* Read into memory of its own rather than mapped: the simulator
         reads these arrays at random, and on huge pages (dag_populate)
         it misses the TLB far less than on a file's small pages (the
         2^20-rank broadcast simulated in 0.71 s from its text's arrays
         against 0.88 s from the mapped file).  */
      char *buf = dag_populate (big_alloc (len), len);
      size_t got = 0;
      while (got < len)
        {
          ssize_t k = read (fd, buf + got, len - got);
          if (k < 0 && errno == EINTR)
            continue;
          if (k <= 0)
            die ("%s: cannot read the binary schedule: %s", name,
                 k < 0 ? strerror (errno) : "it became shorter");
          got += (size_t) k;
        }
      close (fd);
      j->image = buf;
    }
  else
    {
      if (!text)
        text = slurp (path, &len);
      j->image_text = text;
    }
  j->image_name = name;
  int goal = 0;
  const char *why = dag_image_open (&j->d, j->image ? j->image : text, len,
                                    &goal);
  if (why)
    die ("%s: binary schedule: %s (write it again with --save-binary)",
         name, why);
  j->goal = goal;
}

/* --save-binary FILE: the schedule just read and indexed, written to a
   new file beside FILE and renamed to FILE, so that FILE is whole or
   untouched.  */
static void
save_binary (struct predict_job *j)
{
  if (!j->goal)
    die_usage ("--save-binary saves a GOAL schedule: %s is native TSV",
               j->d.source);
  struct dag_image_header hdr;
  struct dag_image_part parts[1 + DAG_IMAGE_NARRAYS];
  size_t np = dag_image_layout (&j->d, j->d.source, 1, &hdr, parts);
  size_t plen = strlen (opt_save_binary);
  char *tmp = xmalloc (plen + 8);
  memcpy (tmp, opt_save_binary, plen);
  memcpy (tmp + plen, ".XXXXXX", 8);
  int fd = mkstemp (tmp);
  if (fd < 0)
    die ("--save-binary: cannot create a file beside '%s': %s",
         opt_save_binary, strerror (errno));
  /* mkstemp makes it private (0600): give it what a new file gets.  */
  mode_t mask = umask (0);
  umask (mask);
  (void) fchmod (fd, 0666 & ~mask);
  FILE *f = fdopen (fd, "wb");
  static const char zeros[8];
  uint64_t at = 0;
  int ok = f != NULL;
  for (size_t k = 0; ok && k < np; k++)
    {
      ok = fwrite (zeros, 1, parts[k].off - at, f) == parts[k].off - at
           && fwrite (parts[k].p, 1, parts[k].len, f) == parts[k].len;
      at = parts[k].off + parts[k].len;
    }
  if (ok)
    ok = fwrite (zeros, 1, hdr.total - at, f) == hdr.total - at;
  /* The first failure's reason: writing, closing, renaming.  */
  int e = ok ? 0 : errno;
  if ((f ? fclose (f) : close (fd)) != 0 && ok)
    e = errno, ok = 0;
  if (ok && rename (tmp, opt_save_binary) != 0)
    e = errno, ok = 0;
  if (!ok)
    {
      unlink (tmp);
      die ("--save-binary: cannot write '%s': %s", opt_save_binary,
           strerror (e));
    }
  free (tmp);
  j->saved_bytes = hdr.total;
}

/* The schedule: generated, native --tasks/--edges, or a FILE.  */
static void
read_schedule (struct predict_job *j)
{
  if (j->sched_stdin && isatty (STDIN_FILENO))
    fprintf (stderr, "%s: reading a schedule (%s) from standard input; "
             "end it with Ctrl-D, or give a FILE, --gen PATTERN or --tasks "
             "FILE\n", PROGRAM, j->goal ? "GOAL" : "native TSV");
  if (opt_gen)
    generate (&j->d);
  else if (opt_tasks)
    {
      tsv_reader *t = tsv_open (opt_tasks);
      tsv_reader *e = opt_edges ? tsv_open (opt_edges) : NULL;
      dag_init (&j->d, tsv_name (t));
      dag_read_native2 (t, e, &j->d);
      j->rd[j->nrd++] = t;
      if (e)
        j->rd[j->nrd++] = e;
    }
  else
    read_schedule_file (j);
  j->c_read = cpu_now ();
  j->k_read = system_now ();
  if (!j->d.mapped)
    dag_finalize (&j->d);
  j->c_index = cpu_now ();
  if (opt_save_binary)
    save_binary (j);
}

/* The output's time unit (the schedule's, --time-unit's, LogGOPSim's ns
   for GOAL), --params' times converted to it, the defaults scaled.  */
static void
resolve_units (struct predict_job *j)
{
  const char *unit = tsv_time_unit (j->rd, j->nrd);
  if (opt_time_unit && unit && strcmp (unit, opt_time_unit) != 0)
    die ("--time-unit %s, but the input says #@time_unit=%s", opt_time_unit,
         unit);
  if (!unit)
    unit = opt_time_unit;
  /* A GOAL schedule carries no unit: LogGOPSim's nanoseconds unless
     --time-unit says otherwise.  */
  j->goal_default_unit = j->goal && !unit;
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

static int progress_open_line;   /* a \r-ended line waits on the tty */

/* --progress: a sweep's point I (value V) done, and the time the rest
   will take at the mean so far (an estimate: a point's cost grows with
   its DAG).  */
static void
sweep_progress (const struct predict_job *j, size_t i, const char *v)
{
  double spent = now () - j->t1;
  double left = spent / (double) (i + 1) * (double) (j->nsweep - i - 1);
  char a[NUM_BUFSIZE], b[NUM_BUFSIZE];
  num_format (spent, 3, a);
  num_format (left, 2, b);
  int tty = isatty (STDERR_FILENO);
  fprintf (stderr, "%s: --sweep %s=%s: %zu of %zu done in %s s, about %s s "
           "left%s", PROGRAM, j->sweep_name, v, i + 1, j->nsweep, a, b,
           tty && i + 1 < j->nsweep ? "\r" : "\n");
  progress_open_line = tty && i + 1 < j->nsweep;
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
        sweep_progress (j, i, v);
    }
}

/* --progress: at most one line a second, on a terminal rewritten in
   place (the simulator calls about every 2^20 events).  */
static void
show_progress (void *ctx, uint64_t events, double t)
{
  (void) ctx;
  static double last;
  double w = now ();
  if (w - last < 1.0)
    return;
  last = w;
  char tb[NUM_BUFSIZE];
  num_format (t, 6, tb);
  int tty = isatty (STDERR_FILENO);
  fprintf (stderr, "%s: %.1f M events, simulated time %s%s", PROGRAM,
           (double) events / 1e6, tb, tty ? "\r" : "\n");
  progress_open_line |= tty;
}

/* ---------------------------------------------------------------- noise */

/* --noise, --noise-trace: the model (noise.h) and the trace's detours.  */
static struct dag_noise noise;
static double *ntr_start, *ntr_len;
static long *ntr_line;

/* One number of --noise SPEC: at least 0.  */
static double
noise_number (const char *part, size_t len)
{
  double v;
  enum num_status st = num_parse (part, len, &v);
  if (st != NUM_OK || v < 0)
    die_usage ("option '--noise': '%.*s' in '%s': %s", (int) len, part,
               opt_noise, st != NUM_OK ? num_strerror (st)
                                       : "a time must be at least 0");
  return v;
}

/* --noise periodic:PERIOD:DETOUR[:PHASE] or exp:MEAN_INTERVAL:DETOUR.  */
static void
parse_noise_spec (void)
{
  const char *p = strchr (opt_noise, ':');
  size_t klen = p ? (size_t) (p - opt_noise) : strlen (opt_noise);
  double v[3];
  size_t n = 0;
  while (p && n < 3)
    {
      const char *q = strchr (p + 1, ':');
      size_t len = q ? (size_t) (q - p - 1) : strlen (p + 1);
      v[n++] = noise_number (p + 1, len);
      p = q;
    }
  int periodic = klen == 8 && strncmp (opt_noise, "periodic", 8) == 0;
  int expo = klen == 3 && strncmp (opt_noise, "exp", 3) == 0;
  if (p || !(periodic ? n == 2 || n == 3 : expo ? n == 2 : 0))
    die_usage ("option '--noise': '%s' (expected "
               "periodic:PERIOD:DETOUR[:PHASE] or exp:MEAN_INTERVAL:DETOUR)",
               opt_noise);
  if (periodic)
    {
      noise.kind = DAG_NOISE_PERIODIC;
      noise.period = v[0];
      noise.detour = v[1];
      if (n == 3)
        {
          noise.phase_given = 1;
          noise.phase = v[2];
        }
    }
  else
    {
      noise.kind = DAG_NOISE_EXP;
      noise.mean = v[0];
      noise.detour = v[1];
    }
}

/* --noise-trace FILE: LogGOPSim's noise trace, a detour per line, its
   start and duration (in the schedule's time unit; LogGOPSim's are ns)
   separated by blanks; lines starting with '#' and blank lines are
   skipped.  */
static void
read_noise_trace (const char *path)
{
  FILE *f = fopen (path, "r");
  if (!f)
    die ("%s: %s", path, strerror (errno));
  char *buf = NULL;
  size_t cap = 0, n = 0, ncap = 0;
  long line = 0;
  ssize_t got;
  while ((got = getline (&buf, &cap, f)) >= 0)
    {
      line++;
      if (memchr (buf, '\0', (size_t) got))
        die_at (path, line, 0, "a NUL byte");
      buf[strcspn (buf, "\r\n")] = '\0';
      const char *c = buf + strspn (buf, " \t");
      if (*c == '#' || *c == '\0')
        continue;
      double v[2];
      int k = 0;
      while (*c)
        {
          size_t len = strcspn (c, " \t");
          if (k == 2)
            die_at (path, line, 3, "'%s': a detour is START DURATION, two "
                    "numbers", buf);
          enum num_status st = num_parse (c, len, &v[k]);
          if (st != NUM_OK)
            die_at (path, line, k + 1, "'%.*s': %s", (int) len, c,
                    num_strerror (st));
          if (v[k] < 0)
            die_at (path, line, k + 1, "'%.*s': a time must be at least 0",
                    (int) len, c);
          k++;
          c += len;
          c += strspn (c, " \t");
        }
      if (k < 2)
        die_at (path, line, 0, "'%s': a detour is START DURATION, two "
                "numbers", buf);
      if (n == ncap)
        {
          ncap = ncap ? 2 * ncap : 256;
          ntr_start = xrealloc (ntr_start, ncap * sizeof *ntr_start);
          ntr_len = xrealloc (ntr_len, ncap * sizeof *ntr_len);
          ntr_line = xrealloc (ntr_line, ncap * sizeof *ntr_line);
        }
      ntr_start[n] = v[0];
      ntr_len[n] = v[1];
      ntr_line[n] = line;
      n++;
    }
  int bad_read = ferror (f);
  free (buf);
  fclose (f);
  if (bad_read)
    die ("%s: read error", path);
  if (!n)
    die ("%s: no detours (a line START DURATION each)", path);
  noise.kind = DAG_NOISE_TRACE;
  noise.start = ntr_start;
  noise.len = ntr_len;
  noise.n = n;
}

/* The noise of the options, its phases drawn for NRANKS ranks.  */
static void
setup_noise (int64_t nranks)
{
  if (opt_noise && opt_noise_trace)
    die_usage ("--noise and --noise-trace are exclusive: one source of "
               "noise");
  if (opt_noise_phase && !opt_noise_trace)
    die_usage ("--noise-phase sets the phase of --noise-trace (with "
               "--noise periodic it is the spec's PHASE)");
  if (opt_noise_cosched && !opt_noise && !opt_noise_trace)
    die_usage ("--noise-cosched needs --noise or --noise-trace");
  if (!opt_noise && !opt_noise_trace)
    return;
  if (opt_noise)
    parse_noise_spec ();
  else
    {
      if (opt_noise_phase)
        {
          noise.phase_given = 1;
          noise.phase = cli_double ("noise-phase", opt_noise_phase, 0,
                                    HUGE_VAL);
        }
      read_noise_trace (opt_noise_trace);
    }
  noise.cosched = opt_noise_cosched;
  noise.seed = gen.seed;
  size_t bad;
  const char *e = dag_noise_init (&noise, nranks, &bad);
  if (e && opt_noise_trace)
    die_at (opt_noise_trace, ntr_line[bad], 0, "%s", e);
  if (e)
    die_usage ("option '--noise': '%s': %s", opt_noise, e);
}

/* The noise's metadata: the options as given, and what was drawn.  */
static void
noise_meta (tsv_writer *w)
{
  if (noise.kind == DAG_NOISE_NONE)
    return;
  if (opt_noise)
    tsv_meta (w, "noise", "%s", opt_noise);
  else
    {
      char sb[NUM_BUFSIZE];
      num_format (noise.span, -1, sb);
      tsv_meta (w, "noise_trace", "%s (%zu detours, repeated every %s)",
                opt_noise_trace, noise.n, sb);
    }
  if (opt_noise_phase)
    tsv_meta (w, "noise_phase", "%s", opt_noise_phase);
  if (noise.cosched)
    tsv_meta (w, "noise_cosched", "yes");
  if (!noise.phase_given)
    tsv_meta (w, "noise_seed", "%llu", (unsigned long long) noise.seed);
}

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
    j->so.progress = show_progress;
  j->so.qstat = opt_qstat;
  j->so.link_stats = opt_link_stats;
  int64_t nranks = j->d.nprocs;
  for (size_t k = 0; j->ds && k < j->nsweep; k++)
    if (j->ds[k].nprocs > nranks)
      nranks = j->ds[k].nprocs;
  setup_noise (nranks);
  if (noise.kind != DAG_NOISE_NONE)
    j->so.noise = &noise;
  j->t1 = now ();
  j->c1 = cpu_now ();
  j->k1 = system_now ();
  if (opt_each)
    simulate_each (j);
  else
    {
      if (pfile)
        resolve_params (dag_model_param_names (j->model), 0, j->file_scale);
      build_plogp (j);
      apply_network (&j->d);
      if (!opt_sweep)
        predict (&j->d, j->model, &j->so, &j->r, &j->iters, NULL);
      else
        simulate_sweep (j);
    }
  j->t2 = now ();
  j->c2 = cpu_now ();
  j->k2 = system_now ();
  if (progress_open_line)
    fputc ('\n', stderr);
  /* A time past the largest double is written NA: say so (msgperf(7),
     NUMBERS).  The schedule's times are finite when the makespan is.  */
  size_t nruns = opt_each ? nprow : opt_sweep ? j->nsweep : 1;
  for (size_t i = 0; i < nruns; i++)
    if (isinf (opt_sweep || opt_each ? j->ms[i] : j->r.makespan))
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
  for (size_t i = 0; i < j->nrd; i++)
    tsv_copy_meta (w, j->rd[i]);
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
  noise_meta (w);
  tsv_meta_time_unit (w, j->unit);
  if (j->d.mapped)
    tsv_meta (w, "binary_schedule", "%s (of %s)", j->image_name,
              j->d.source);
  if (opt_save_binary)
    tsv_meta (w, "saved_binary", "%s (%llu bytes)", opt_save_binary,
              (unsigned long long) j->saved_bytes);
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
  summary_header_keys (w, j->model, NULL, nk, kn);
  for (size_t i = 0; i < nprow; i++)
    {
      for (size_t k = 0; k < nk; k++)
        tsv_put_str (w, pfile->cell[prow[i] * pfile->ncols
                                    + (size_t) keys[k]]);
      params = j->each_params[i];
      summary_row (w, j->model, NULL, 0, &j->d, &j->rs[i], j->its[i]);
      dagsim_result_free (&j->rs[i]);
    }
}

/* --timing: the program's own run time, as metadata.  */
static void
write_timing (tsv_writer *w, const struct predict_job *j)
{
  tsv_meta (w, "build_seconds", "%.3f", j->t1 - j->t0);
  /* the DAG read or generated, then indexed (dag_finalize: successor
     lists, cycle check), in CPU time */
  tsv_meta (w, "read_cpu_seconds", "%.3f", j->c_read - j->c0);
  tsv_meta (w, "read_system_seconds", "%.3f", j->k_read - j->k0);
  tsv_meta (w, "index_cpu_seconds", "%.3f", j->c_index - j->c_read);
  tsv_meta (w, "simulate_seconds", "%.3f", j->t2 - j->t1);
  tsv_meta (w, "events_per_second", "%.0f",
            j->t2 > j->t1 ? (double) j->r.events / (j->t2 - j->t1) : 0.0);
  tsv_meta (w, "simulate_cpu_seconds", "%.3f", j->c2 - j->c1);
  tsv_meta (w, "simulate_system_seconds", "%.3f", j->k2 - j->k1);
  tsv_meta (w, "events_per_cpu_second", "%.0f",
            j->c2 > j->c1 ? (double) j->r.events / (j->c2 - j->c1) : 0.0);
  if (big_dir ())
    {
      tsv_meta (w, "save_mem_dir", "%s", big_dir ());
      tsv_meta (w, "save_mem_peak_bytes", "%zu", big_file_peak ());
    }
}

/* One run: the table asked for, or the summary row.  */
static void
write_one (tsv_writer *w, struct predict_job *j)
{
  if (opt_timing)
    write_timing (w, j);
  if (opt_gantt)
    write_gantt (w, &j->d, &j->r);
  else if (opt_critical)
    write_critical (w, &j->d, &j->r);
  else if (opt_per_proc)
    write_per_proc (w, &j->d, &j->r);
  else if (opt_qstat)
    write_qstat (w, &j->d, &j->r);
  else if (opt_link_stats)
    write_link_stats (w, &j->r);
  else
    {
      summary_header (w, j->model, NULL);
      summary_row (w, j->model, NULL, 0, &j->d, &j->r, j->iters);
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
  summary_header (w, j->model, j->sweep_name);
  for (size_t i = 0; i < j->nsweep; i++)
    {
      if (!j->gfield)
        dag_params_set (&params, j->sweep_name, j->sweep_vals[i]);
      else
        apply_network (&j->ds[i]);
      summary_row (w, j->model, j->sweep_name, j->sweep_vals[i], &j->ds[i],
                   &j->rs[i], j->its[i]);
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
  struct predict_job j = { .t0 = now (), .c0 = cpu_now (),
                           .k0 = system_now () };
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
  setup_save_mem ();
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
  read_schedule (&j);
  resolve_units (&j);
  read_topology (j.unit);
  simulate (&j);

  tsv_writer *w = tsv_writer_open (NULL);
  write_predict_meta (w, &j);
  if (opt_each)
    write_each (w, &j);
  else if (!opt_sweep)
    write_one (w, &j);
  else
    write_sweep (w, &j);
  tsv_writer_close (w);

  for (size_t i = 0; i < j.nrd; i++)
    tsv_close (j.rd[i]);
  dag_free (&j.d);
  big_free (j.image);
  free (j.image_text);
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
static int
write_coll_list (poptContext con)
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
  poptFreeContext (con);
  return 0;
}

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
    return write_coll_list (con);
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
  tsv_writer *w = tsv_writer_open (NULL);
  tsv_write_tool_meta (w, "gen");
  tsv_meta (w, "pattern", "%s", gen.pattern);
  if (dag_coll_is (gen.pattern))
    {
      tsv_meta (w, "procs", "%lld", (long long) gen.procs);
      tsv_meta (w, "bytes", "%lld", (long long) gen.bytes);
      if (opt_coll_root >= 0)
        tsv_meta (w, "root", "%lld", (long long) opt_coll_root);
      if (opt_coll_segment > 0)
        tsv_meta (w, "segment", "%lld", (long long) opt_coll_segment);
      if (opt_reduce_cost > 0)
        tsv_meta (w, "reduce_cost", "%.17g", opt_reduce_cost);
    }
  if (strcmp (gen.pattern, "nway-dissemination") == 0)
    tsv_meta (w, "nway", "%lld", (long long) gen.nway);
  if (strcmp (gen.pattern, "halo") == 0)
    tsv_meta (w, "dims", "%s", gen.dims);
  tsv_meta (w, "seed", "%llu", (unsigned long long) gen.seed);
  tsv_meta_time_unit (w, opt_time_unit);
  static const char *cols[] = { "kind", "id", "proc", "work", "from", "to",
                                "bytes" };
  struct tsv_sink ts;
  memset (&ts, 0, sizeof ts);
  ts.w = w;
  dag_init (&ts.names, "gen");
  struct dag_sink sink = { &ts, ts_task, ts_msg, ts_dep, NULL };
  tsv_write_header (w, 7, cols);
  gen_run (&sink);
  tsv_writer_close (w);
  dag_free (&ts.names);
  free (ts.name);
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

/* The row of eq. (15)'s terms, the best b, and the simulation.  */
static void
diamond_row (tsv_writer *w, const struct diamond_out *o, double b_real,
             int64_t b_best, double m_best, double m_sim)
{
  const char *cols[20] = { "n", "P", "b", "W", "B", "d", "Os", "Or", "u",
                           "v", "makespan", "b_opt", "b_best",
                           "makespan_best", "makespan_sim" };
  tsv_write_header (w, opt_closed ? 14 : 15, cols);
  tsv_put_int (w, gen.n);
  tsv_put_int (w, gen.procs);
  tsv_put_int (w, gen.blocks);
  tsv_put_num (w, o->W);
  tsv_put_num (w, o->B);
  tsv_put_num (w, o->d);
  tsv_put_num (w, o->Os);
  tsv_put_num (w, o->Or);
  tsv_put_num (w, o->u);
  tsv_put_num (w, o->v);
  tsv_put_num (w, o->M);
  tsv_put_num (w, b_real);
  tsv_put_int (w, b_best);
  tsv_put_num (w, m_best);
  if (!opt_closed)
    tsv_put_num (w, m_sim);
  tsv_end_row (w);
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
  diamond_row (w, &o, b_real, b_best, m_best, m_sim);
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
