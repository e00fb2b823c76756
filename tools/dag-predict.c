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
#include "dag_bind.h"
#include "dag_input.h"
#include "dag_launch.h"
#include "dag_parse.h"
#include "dag_progress.h"
#include "dag_report.h"
#include "dag_sweep.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "diamond.h"
#include "diamond_sim.h"
#include "diamond_write.h"
#include "noise.h"
#include "noise_read.h"
#include "err.h"
#include "listopt.h"
#include "num.h"
#include "params.h"
#include "plogp.h"
#include "predict_meta.h"
#include "readfile.h"
#include "topo_read.h"
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
/* --save-mem[=DIR]: given, and its DIR (NULL: dag_save_mem_setup chooses) */
static int opt_save_mem;
static char *opt_save_dir;
static double opt_tol = 1e-6, opt_header = 0;
static int opt_maxit = 50;
/* --network, --cores (dag_params' network, cores; n and kd for a mesh) */
static char *opt_network;
static struct dag_netspec net_spec;
static int64_t opt_cores;
/* --progress-rule (dag_params' progress; NULL: a progress thread) */
static const struct dagcost_progress *opt_rule;
static struct dag_gen gen;
static char *opt_where;
static int opt_each, opt_interval;
/* The parameters and their layers (dag_bind.h); --network
   topology:FILE's links (topo_read.h).  */
static struct dag_bind bind;
static struct dag_topo_file topo;

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
      param_set_parse (&bind.p_set, a, "--set", dag_bind_usable ());
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
      opt_network = dag_bind_network_option (a, &net_spec, opt_network);
      break;
    case OPT_CORES: opt_cores = cli_int ("cores", a, 1, INT32_MAX); break;
    case OPT_PROGRESS: opt_rule = dag_bind_progress_option (a); break;
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
  { "interval", '\0', POPT_ARG_NONE, &opt_interval, 0,
    "predict per launch of --params: median, least, largest", NULL },
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
    "topology:FILE (the links from, to, G, L of FILE, shared max-min "
    "fair), topology-fifo:FILE (the same, first come first served), or "
    "fattree:H[:R] (leaf switches of H ranks, H/R uplinks each) (default "
    "nic)", "NET" },
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
  if (bind.params.network == DAG_NET_TOPOLOGY)
    dag_topo_check (&topo, d);
  if (dag_predict_fix (d, model, &bind.params, so, opt_tol, opt_maxit, r, &fx))
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

/* ------------------------------------------------------------- reading */

static void
generate (struct dag *d)
{
  struct dag_coll c = { opt_gen, gen.procs, gen.bytes, opt_coll_root,
                        opt_coll_segment, opt_reduce_cost };
  dag_generate (&gen, &c, opt_gen, d);
}

/* ------------------------------------------------------------ predict */

/* One run of dag-predict: the options checked, the schedule, the
   parameters, the simulations and their timings.  */
struct predict_job
{
  const char **files;
  size_t nfiles;
  struct dag_input in;        /* the schedule's file, its format */
  int model;                  /* enum dag_model */
  int tie;                    /* enum dagsim_tie */
  enum dag_table table;       /* the table one run writes */
  int sched_stdin;            /* the schedule comes from standard input */
  /* --sweep NAME=V1,...: a model parameter, or a generator's field */
  char *sweep_name;
  double *sweep_vals;
  size_t nsweep;
  int64_t *gfield;
  struct dag d;
  struct dag_units u;         /* the output's time unit, --params' */
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
  struct dag_table_opts to = { opt_gantt, opt_critical, opt_per_proc,
                               opt_qstat, opt_link_stats, opt_sweep != NULL,
                               net_spec.kind == DAG_NET_TOPOLOGY };
  j->table = dag_table_choose (&to);
  if (opt_format && dag_input_format (&j->in, opt_format) != 0)
    die_usage ("option '--format': '%s' (expected native, goal or "
               "binary)", opt_format);
  int one_row = (opt_where || opt_each) && !opt_interval;
  j->model = dag_model_parse (opt_model ? opt_model
                              : dag_bind_default_model (opt_params, one_row));
  bind.signed_L = j->model == MODEL_PLOGP;
  if (j->model < 0)
    die_usage ("option '--model': unknown model '%s' (expected logp, loggp, "
               "loggops, hyperbolic, logpc or plogp)", opt_model);
  if (net_spec.kind == DAG_NET_MESH && j->model != MODEL_LOGPC)
    die_usage ("option '--network': '%s' gives LoGPC's n and kd: use it "
               "with -m logpc (nic or bus with the other models)",
               opt_network);
  if (net_spec.kind == DAG_NET_MESH
      && (param_given (&bind.p_set, PARAM_N) || param_given (&bind.p_set, PARAM_KD)))
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
  if (opt_interval && (!opt_params || opt_each || j->table || opt_sweep))
    die_usage ("--interval predicts once per launch of --params FILE: "
               "give --params; not with --each, --sweep or another table");
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
    dag_input_native (&j->in, &j->d, opt_tasks, opt_edges);
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

/* --each: one prediction per parameter row; --interval: one per launch
   of --params (dag_launch.h), with that launch's rows (-m plogp: its
   per-size table).  All before any output.  */
static struct dag_launches launches;

static void
simulate_launches (struct predict_job *j)
{
  if (opt_each)
    dag_launches_single (bind.nprow, &launches);
  else
    dag_launch_read (&bind, j->model != MODEL_PLOGP, &launches);
  size_t n = launches.n, *all = bind.prow, nrows = bind.nprow;
  j->ms = xmalloc (n * sizeof *j->ms);
  j->rs = xmalloc (n * sizeof *j->rs);
  j->its = xmalloc (n * sizeof *j->its);
  j->each_params = xmalloc (n * sizeof *j->each_params);
  bind.prow = xmalloc (nrows * sizeof *bind.prow);
  for (size_t i = 0; i < n; i++)
    {
      bind.nprow = launches.start[i + 1] - launches.start[i];
      for (size_t k = 0; k < bind.nprow; k++)
        bind.prow[k] = all[launches.rows[launches.start[i] + k]];
      dag_bind_resolve (&bind, dag_model_param_names (j->model), 0,
                        j->u.file_scale);
      if (j->model == MODEL_PLOGP)
        plogp_free (&j->plogp),
        dag_bind_plogp (&bind, &j->plogp, j->u.file_scale);
      dag_bind_network (&bind, &net_spec, opt_network, &topo.topo, &j->d);
      char at[64];
      snprintf (at, sizeof at, opt_each ? "--each: parameter row %.0f"
                : "--interval: launch %.0f", launches.id[i]);
      predict (&j->d, j->model, &j->so, &j->rs[i], &j->its[i], at);
      j->ms[i] = j->rs[i].makespan;
      j->each_params[i] = bind.params;
    }
  free (bind.prow);
  bind.prow = all;
  bind.nprow = nrows;
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
          if (dag_gen_set_field (&gen, j->gfield, val) != 0)
            die_usage ("option '--sweep': %s needs whole numbers",
                       j->sweep_name);
          generate (&j->ds[i]);
          dag_finalize (&j->ds[i]);
          dag_bind_network (&bind, &net_spec, opt_network, &topo.topo,
                        &j->ds[i]);
        }
      else
        {
          j->ds[i] = j->d;
          dag_bind_sweep_set (&bind, j->sweep_name, val,
                              j->model == MODEL_PLOGP ? &j->plogp : NULL);
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
      dag_bind_network (&bind, &net_spec, opt_network, &topo.topo, &j->ds[i]);
      predict (&j->ds[i], j->model, &j->so, &j->rs[i], &j->its[i],
               all_names[i]);
      j->ms[i] = j->rs[i].makespan;
    }
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
  if (opt_each || opt_interval)
    simulate_launches (j);
  else
    {
      if (bind.pfile)
        dag_bind_resolve (&bind, dag_model_param_names (j->model), 0, j->u.file_scale);
      if (j->model == MODEL_PLOGP)
        dag_bind_plogp (&bind, &j->plogp, j->u.file_scale);
      dag_bind_network (&bind, &net_spec, opt_network, &topo.topo,
                        &j->d);
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
  size_t nruns = opt_each || opt_interval ? launches.n
                 : opt_sweep ? j->nsweep : nall ? nall : 1;
  dag_warn_infinite (opt_sweep || opt_each || nall || opt_interval ? j->ms
                     : &j->r.makespan,
                     nruns);
}

/* The metadata: the schedule's, the model's, the parameters'.  */
static void
write_predict_meta (tsv_writer *w, const struct predict_job *j)
{
  struct dag_predict_meta m = {
    &j->in, &j->d, j->ds, j->ds ? j->nsweep : 0, j->model, j->tie,
    opt_network, &topo, &noise, &noise_opts, &j->u, opt_save_binary, &bind,
    opt_where, &j->plogp
  };
  dag_predict_write_meta (w, &m);
}

/* One run: the table asked for, or the summary row.  */
static void
write_one (tsv_writer *w, struct predict_job *j)
{
  if (opt_timing)
    dag_write_timing (w, &j->tm, j->r.events);
  dag_write_one (w, j->table, &bind, j->model, &j->d, &j->r, j->iters,
                 &topo.topo);
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
        dag_params_set (&bind.params, j->sweep_name, j->sweep_vals[i]);
      else
        dag_bind_network (&bind, &net_spec, opt_network, &topo.topo,
                        &j->ds[i]);
      dag_summary_row (w, j->model, j->sweep_name, j->sweep_vals[i],
                       &j->ds[i], &j->rs[i], j->its[i], &bind.params,
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
    dag_warn_unconverged (&unconverged, nunconverged);
  return nunconverged || nstuck ? 1 : 0;
}

static int
run_predict (int argc, const char **argv)
{
  struct predict_job j = { .tm = { .t0 = dag_clock_wall (),
                                   .c0 = dag_clock_cpu (),
                                   .k0 = dag_clock_system () } };
  dag_gen_init (&gen);
  dag_params_default (&bind.params);
  param_set_clear (&bind.p_set);
  poptContext con = cli_parse (argc, argv, predict_options,
                               "[FILE]  (or: gen PATTERN ..., diamond ...)",
                               handle);
  j.files = poptGetArgs (con);
  while (j.files && j.files[j.nfiles])
    j.nfiles++;
  check_predict_options (&j);
  bind.cores = opt_cores;
  bind.progress = opt_rule;
  if (opt_save_mem)
    dag_save_mem_setup (opt_save_dir);
  if (opt_params)
    {
      bind.pfile = param_file_read (opt_params);
      /* plogp: every selected row is one size of the table */
      bind.nprow = param_file_select (bind.pfile, opt_where,
                                 opt_each || opt_interval
                                 || j.model == MODEL_PLOGP,
                                 param_file_col (bind.pfile, "bytes") >= 0
                                 ? "-m plogp" : "--each", &bind.prow);
    }
  if (opt_sweep)
    dag_sweep_parse (opt_sweep, &gen, opt_gen != NULL, &bind, j.model,
                     &j.sweep_name, &j.sweep_vals, &j.nsweep, &j.gfield);
  if (opt_gen && (nall = dag_coll_all (opt_gen, gen.procs, &all_names)))
    {
      if (opt_sweep || opt_each || opt_interval || opt_gantt || opt_critical
          || opt_per_proc || opt_qstat || opt_link_stats || opt_timing)
        die_usage ("--gen %s: one summary row per algorithm; no --sweep, "
                   "--each or other table", opt_gen);
      opt_gen = all_names[0];
    }
  read_schedule (&j);
  dag_bind_units (&bind, &j.u, tsv_time_unit (j.in.rd, j.in.nrd),
                  j.in.goal_unit, j.in.goal, opt_time_unit,
                  dag_model_param_names (j.model));
  if (net_spec.kind == DAG_NET_TOPOLOGY)
    dag_topo_read (&topo, net_spec.file, j.u.unit);
  simulate (&j);

  tsv_writer *w = tsv_writer_open (NULL);
  write_predict_meta (w, &j);
  if (opt_each)
    dag_write_each (w, &bind, j.model, &j.d, j.rs, j.its, j.each_params);
  else if (opt_interval)
    dag_launch_write (w, &bind, j.model, &j.d, &launches, j.rs, j.its,
                      j.each_params);
  else if (nall)
    dag_write_all (w, &bind, j.model, all_names, nall, j.ds, j.rs, j.its,
                   j.ms);
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
  dag_launches_free (&launches);
  plogp_free (&j.plogp);
  free (j.sweep_name);
  free (j.sweep_vals);
  free (bind.prow);
  param_file_free (bind.pfile);
  poptFreeContext (con);
  free (opt_network);
  free (opt_save_dir);
  dag_topo_file_free (&topo);
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
      char list[512];
      die_usage ("gen: missing PATTERN (one of: %s)",
                 dag_gen_pattern_list (list, sizeof list));
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
  dag_gen_load_topology (&gen);
  struct dag_coll c = { gen.pattern, gen.procs, gen.bytes, opt_coll_root,
                        opt_coll_segment, opt_reduce_cost };
  /* a usage error never leaves a half-written stream */
  const char *err = dag_gen_check (&gen, &c);
  if (err)
    die_usage ("gen %s: %s", gen.pattern, err);
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
  double m = diamond_simulate (&d, o);
  dag_free (&d);
  return m;
}

static int
run_diamond (int argc, const char **argv)
{
  dag_gen_init (&gen);
  dag_params_default (&bind.params);
  param_set_clear (&bind.p_set);
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
      bind.pfile = param_file_read (opt_params);
      bind.nprow = param_file_select (bind.pfile, opt_where, 0, NULL, &bind.prow);
      unit = dag_bind_file_unit (&bind, unit, &scale, conversion);
    }
  else if (opt_where)
    die_usage ("--where selects rows of --params FILE: give --params");
  dag_bind_defaults (&bind, 1, bind.pfile != NULL);
  /* eq. (15) reads L, o_s and G */
  static const char *const diamond_needs[] = { "L", "os", "G", NULL };
  dag_bind_resolve (&bind, diamond_needs, 0, scale);

  struct diamond_in in = {
    (double) gen.n, (double) gen.procs, (double) gen.blocks, gen.work,
    gen.alpha, (double) gen.bytes, bind.params.L, bind.params.os, bind.params.G, opt_header
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
  dag_bind_write_meta (w, &bind, opt_where, conversion);
  diamond_write_row (w, &gen, &o, b_real, b_best, m_best, m_sim,
                     opt_closed);
  tsv_writer_close (w);
  free (bind.prow);
  param_file_free (bind.pfile);
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
