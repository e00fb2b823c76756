/* SPDX-License-Identifier: GPL-3.0-or-later */
/* comet-run: the CoMet communication benchmark (Ganapati, Otto and
 * Walpole, "CoMet: A Synthetic Benchmark for Message-Passing
 * Architectures", 1994; shared/papers/comet-benchmark.txt) on MPI.
 *
 *   mpirun -np P comet-run KERNEL... [OPTION...]
 *
 * main() parses the options, picks the kernels from the table below, sets
 * up the adjacency matrix, writes the metadata and the header, and runs
 * the kernels, which write one row per measurement point.  */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "comet.h"
#include "err.h"
#include "grid2d.h"
#include "mpiutil.h"
#include "overlay.h"
#include "xalloc.h"
#include "num.h"
#include "sizelist.h"
#include "stats.h"
#include "tsv.h"
#include "treespec.h"

/* ------------------------------------------------------------ kernels */

static const struct comet_kernel *
find_kernel (const char *name)
{
  for (const struct comet_kernel *k = comet_kernels; k->name; k++)
    if (strcmp (k->name, name) == 0)
      return k;
  return NULL;
}

/* The kernels for people: --help and the no-kernel usage error.  */
static void
describe_kernels (FILE *fp)
{
  fprintf (fp, "\nKernels (one or more, run in the order given; --list "
           "prints this as a TSV table):\n");
  for (const struct comet_kernel *k = comet_kernels; k->name; k++)
    fprintf (fp, "  %-16s %s (%d ranks or more)\n", k->name,
             k->description, k->min_ranks);
}

static void
list_kernels (void)
{
  printf ("kernel\tmin_ranks\tdescription\n");
  for (const struct comet_kernel *k = comet_kernels; k->name; k++)
    printf ("%s\t%d\t%s\n", k->name, k->min_ranks, k->description);
}

/* ------------------------------------------------------------ options */

#define DEFAULT_SIZES "0:4194304:x2"
#define DEFAULT_VECLENS "0:262144:x4"
#define DEFAULT_ORDERS "4:512:x2"

/* Largest message, vector (doubles) and block order accepted.  */
#define MAX_BYTES INT64_C (1073741824)
#define MAX_VECLEN INT64_C (134217728)
#define MAX_ORDER COMET_MAX_ORDER

static char *opt_sizes, *opt_veclens, *opt_orders, *opt_loads;
static char *opt_eps, *opt_min_reps, *opt_max_reps, *opt_time_cap;
static char *opt_sample_time, *opt_max_repeat, *opt_warmup, *opt_grid;
static char *opt_timeout, *opt_buffers, *opt_cache, *opt_stat;
static char *opt_iterations, *opt_sync, *opt_rep_sync, *opt_window;
static char *opt_clock_sync;
static int opt_progress, opt_no_progress, opt_list;
static const char **opt_topologies;
static size_t opt_ntopologies;

enum { OPT_TOPOLOGY = 1 };

/* --topology may be given several times: keep them all.  */
static void
option_handler (int val, poptContext con)
{
  if (val != OPT_TOPOLOGY)
    return;
  const char *arg = poptGetOptArg (con);
  const char **n = realloc (opt_topologies,
                            (opt_ntopologies + 1) * sizeof *n);
  if (!n)
    mpu_die (EXIT_DATA, "out of memory");
  opt_topologies = n;
  opt_topologies[opt_ntopologies++] = arg;
}

static struct poptOption options[] = {
  { "sizes", '\0', POPT_ARG_STRING, &opt_sizes, 0,
    "message sizes in bytes: FROM:TO:xFACTOR, FROM:TO:+STEP or A,B,... "
    "(default: " DEFAULT_SIZES ")", "SWEEP" },
  { "veclens", 'v', POPT_ARG_STRING, &opt_veclens, 0,
    "vector lengths (doubles) of globalsum and of overlap's DAXPY "
    "(default: " DEFAULT_VECLENS ")", "SWEEP" },
  { "orders", 'n', POPT_ARG_STRING, &opt_orders, 0,
    "order of each rank's square block in the matrix kernels "
    "(default: " DEFAULT_ORDERS ")", "SWEEP" },
  { "loads", 'l', POPT_ARG_STRING, &opt_loads, 0,
    "message sizes of the contention load (default: the sizes reaching "
    "50% and 90% of the peak echo bandwidth)", "SWEEP" },
  { "epsilon", 'e', POPT_ARG_STRING, &opt_eps, 0,
    "stop when the 95% interval of the median is within this fraction of "
    "it (default: 0.05)", "E" },
  { "min-reps", '\0', POPT_ARG_STRING, &opt_min_reps, 0,
    "fewest samples per point (default: 10)", "N" },
  { "max-reps", 'r', POPT_ARG_STRING, &opt_max_reps, 0,
    "most samples per point (default: 1000)", "N" },
  { "time-cap", 'T', POPT_ARG_STRING, &opt_time_cap, 0,
    "most seconds of sampling per point (default: 2)", "S" },
  { "sample-time", '\0', POPT_ARG_STRING, &opt_sample_time, 0,
    "target seconds of one timed repeat loop (default: 1e-4)", "S" },
  { "max-repeat", '\0', POPT_ARG_STRING, &opt_max_repeat, 0,
    "most iterations of one timed repeat loop (default: 1000, the paper's "
    "max_times)", "N" },
  { "warmup", 'w', POPT_ARG_STRING, &opt_warmup, 0,
    "untimed iterations before each point (default: 10; at least 1)", "N" },
  { "buffers", '\0', POPT_ARG_STRING, &opt_buffers, 0,
    "message buffers of echo, pairwise, contention and broadcast: separate "
    "(a send and a receive buffer, page-aligned, as OSU and IMB) or shared "
    "(one buffer both ways) (default: separate)", "separate|shared" },
  { "cache", '\0', POPT_ARG_STRING, &opt_cache, 0,
    "warm (the same buffers every iteration) or cold (each iteration the "
    "next slot of a pool twice the last-level cache) (default: warm)",
    "warm|cold" },
  { "stat", '\0', POPT_ARG_STRING, &opt_stat, 0,
    "median (adaptive repeat loops, the median and its interval) or osu "
    "(--iterations single iterations after --warmup, each timed alone, "
    "barrier-separated; t_mean is OSU's average) (default: median)",
    "median|osu" },
  { "iterations", '\0', POPT_ARG_STRING, &opt_iterations, 0,
    "timed iterations per point of --stat osu (default: 1000)", "N" },
  { "grid", 'g', POPT_ARG_STRING, &opt_grid, 0,
    "shape of the adjacency matrix, ROWSxCOLS (default: MPI_Dims_create)",
    "RxC" },
  { "timeout", '\0', POPT_ARG_STRING, &opt_timeout, 0,
    "end the whole run with an error after S seconds (default: 0, none)",
    "S" },
  { "topology", 't', POPT_ARG_STRING, NULL, OPT_TOPOLOGY,
    "tree of the tree kernels, repeatable: flat, b:F^D, b:F1xF2.., k:K@N, "
    "g:L1:L2.. or file:PATH, see msgperf-trees(7) (default: flat and k:2)",
    "SPEC" },
  { "sync", '\0', POPT_ARG_STRING, &opt_sync, 0,
    "synchronisation of the tree kernels' reductions (MRNet, section "
    "2.4): wait-for-all (a rank sends one packet when all its children's "
    "have arrived) or do-not-wait (every packet goes up on its own as it "
    "arrives) (default: wait-for-all)", "wait-for-all|do-not-wait" },
  { "rep-sync", '\0', POPT_ARG_STRING, &opt_rep_sync, 0,
    "how the repetitions of the collective kernels start: none (back to "
    "back in timed repeat loops), barrier (each after MPI_Barrier) or "
    "window (each at a window boundary of a clock synchronised per "
    "launch; late or overrunning ones dropped); barrier and window add "
    "t_span, the earliest start to the latest end (default: none)",
    "none|barrier|window" },
  { "window", '\0', POPT_ARG_STRING, &opt_window, 0,
    "window length in microseconds of --rep-sync window (default: 4 times "
    "the slowest rank's median call plus 10, per point)", "US" },
  { "clock-sync", '\0', POPT_ARG_STRING, &opt_clock_sync, 0,
    "the global clock of --rep-sync barrier or window: linear (each rank "
    "fitted against the test node, P - 1 rounds) or hca (fitted against "
    "a parent in a binomial tree, log2 P rounds, composed) (default: "
    "linear)", "linear|hca" },
  { "progress", '\0', POPT_ARG_NONE, &opt_progress, 0,
    "progress lines on stderr even when it is not a terminal (under "
    "mpirun: after 5 s by default)", NULL },
  { "no-progress", '\0', POPT_ARG_NONE, &opt_no_progress, 0,
    "no progress lines, even on a terminal or in a long run", NULL },
  { "list", '\0', POPT_ARG_NONE, &opt_list, 0,
    "list the kernels (a TSV table) and exit", NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

static void
parse_sweep (const char *option, const char *text, const char *dflt,
             int64_t max, struct comet_sweep *s)
{
  char err[SIZELIST_ERRSIZE];
  s->given = text != NULL;
  if (sizelist_parse (text ? text : dflt, max, &s->v, &s->n, err) != 0)
    die_usage ("option '--%s': bad list '%s': %s; expected %s", option,
               text, err, SIZELIST_FORMS);
}

/* OUT: the --sizes sweep in whole doubles, each size rounded up
   (ceil (bytes / 8)), a length that two sizes share once.  At most
   MAX_BYTES / 8 = MAX_VECLEN doubles.  */
static void
sizes_in_doubles (const struct comet_sweep *sizes, struct comet_sweep *out)
{
  out->v = xcalloc (1, (sizes->n ? sizes->n : 1) * sizeof *out->v);
  out->n = 0;
  for (size_t i = 0; i < sizes->n; i++)
    {
      int64_t n = (sizes->v[i] + 7) / 8;
      if (out->n == 0 || out->v[out->n - 1] != n)
        out->v[out->n++] = n;
    }
}

/* globalsum's vector lengths: --veclens when given; else, when --sizes
   is given, each size rounded up to whole doubles, so that a run of
   several kernels over one --sizes sweep measures them all at the same
   sizes (a size that is not a multiple of 8 becomes the next one that
   is, and the row's bytes say so); else the default.  */
static void
globalsum_lengths (struct comet_opts *o)
{
  o->sums.given = o->veclens.given;
  if (o->veclens.given || !o->sizes.given)
    {
      o->sums.n = o->veclens.n;
      o->sums.v = xcalloc (1, (o->sums.n ? o->sums.n : 1) * sizeof *o->sums.v);
      for (size_t i = 0; i < o->sums.n; i++)
        o->sums.v[i] = o->veclens.v[i];
      return;
    }
  sizes_in_doubles (&o->sizes, &o->sums);
}

/* The tree kernels' packets: --sizes in whole doubles when given (the
   same sizes as the other kernels of the run), else one double, the
   packet of MRNet's micro-benchmarks.  */
static void
tree_lengths (struct comet_opts *o)
{
  o->tree_values.given = o->sizes.given;
  if (o->sizes.given)
    {
      sizes_in_doubles (&o->sizes, &o->tree_values);
      return;
    }
  o->tree_values.v = xcalloc (1, sizeof *o->tree_values.v);
  o->tree_values.v[0] = 1;
  o->tree_values.n = 1;
}

/* The --topology specs (default flat and k:2), each checked on every
   rank against the number of ranks, so that a bad one is a usage error
   before anything is measured (msgperf-trees(7)).  */
static void
parse_topologies (struct comet_opts *o)
{
  static const char *dflt[] = { "flat", "k:2" };
  if (opt_ntopologies == 0)
    {
      o->topologies = dflt;
      o->ntopologies = 2;
    }
  else
    {
      o->topologies = opt_topologies;
      o->ntopologies = opt_ntopologies;
    }
  o->topology_text = xcalloc (1, o->ntopologies * sizeof (char *));
  for (size_t i = 0; i < o->ntopologies; i++)
    o->topology_text[i] = ov_check_topology (o->topologies[i], mpu_size);
}

/* --rep-sync and --window.  */
static void
parse_rep_sync (struct comet_opts *o)
{
  static const char *const names[] = { "none", "barrier", "window" };
  o->rep_sync = COMET_SYNC_NONE;
  for (int i = 0; opt_rep_sync && i < 3; i++)
    if (strcmp (opt_rep_sync, names[i]) == 0)
      o->rep_sync = i + 1;
  if (opt_rep_sync && o->rep_sync-- == COMET_SYNC_NONE)
    die_usage ("option '--rep-sync': '%s' is not 'none', 'barrier' or "
               "'window'", opt_rep_sync);
  o->window = opt_window ? cli_double ("window", opt_window, 1e-3, 1e7) * 1e-6
                         : 0;
  if (opt_window && o->rep_sync != COMET_SYNC_WINDOW)
    die_usage ("option '--window': only with --rep-sync window");
  o->clock_tree = opt_clock_sync && strcmp (opt_clock_sync, "hca") == 0;
  if (opt_clock_sync && !o->clock_tree && strcmp (opt_clock_sync, "linear"))
    die_usage ("option '--clock-sync': '%s' is not 'linear' or 'hca'",
               opt_clock_sync);
  if (opt_clock_sync && o->rep_sync == COMET_SYNC_NONE)
    die_usage ("option '--clock-sync': only with --rep-sync barrier or "
               "window");
  if (o->rep_sync != COMET_SYNC_NONE && o->stat_osu)
    die_usage ("option '--rep-sync': %s needs --stat median (--stat osu "
               "times OSU's way)", opt_rep_sync);
}

static void
parse_options (struct comet_opts *o)
{
  parse_sweep ("sizes", opt_sizes, DEFAULT_SIZES, MAX_BYTES, &o->sizes);
  parse_sweep ("veclens", opt_veclens, DEFAULT_VECLENS, MAX_VECLEN,
               &o->veclens);
  globalsum_lengths (o);
  tree_lengths (o);
  parse_sweep ("orders", opt_orders, DEFAULT_ORDERS, MAX_ORDER, &o->orders);
  for (size_t i = 0; i < o->orders.n; i++)
    if (o->orders.v[i] < 1)
      die_usage ("option '--orders': a block order must be at least 1, "
                 "not %lld", (long long) o->orders.v[i]);
  if (opt_loads)
    parse_sweep ("loads", opt_loads, NULL, MAX_BYTES, &o->loads);
  o->adapt.eps = opt_eps ? cli_double ("epsilon", opt_eps, 1e-6, 10) : 0.05;
  o->adapt.min_reps = (size_t) (opt_min_reps
                                ? cli_int ("min-reps", opt_min_reps, 1,
                                           10000000) : 10);
  o->adapt.max_reps = (size_t) (opt_max_reps
                                ? cli_int ("max-reps", opt_max_reps, 1,
                                           10000000) : 1000);
  if (o->adapt.min_reps > o->adapt.max_reps)
    die_usage ("option '--min-reps': %zu is more than --max-reps %zu",
               o->adapt.min_reps, o->adapt.max_reps);
  o->adapt.time_cap = opt_time_cap
    ? cli_double ("time-cap", opt_time_cap, 1e-6, 1e6) : 2;
  o->sample_time = opt_sample_time
    ? cli_double ("sample-time", opt_sample_time, 0, 10) : 1e-4;
  o->max_repeat = opt_max_repeat
    ? cli_int ("max-repeat", opt_max_repeat, 1, 100000000) : 1000;
  o->warmup = opt_warmup ? cli_int ("warmup", opt_warmup, 1, 100000000) : 10;
  o->timeout = opt_timeout ? cli_double ("timeout", opt_timeout, 0, 1e7) : 0;
  o->progress = opt_progress;
  o->buffers_shared = 0;
  if (opt_buffers && strcmp (opt_buffers, "shared") == 0)
    o->buffers_shared = 1;
  else if (opt_buffers && strcmp (opt_buffers, "separate") != 0)
    die_usage ("option '--buffers': '%s' is neither 'separate' nor "
               "'shared'", opt_buffers);
  o->stat_osu = 0;
  if (opt_stat && strcmp (opt_stat, "osu") == 0)
    o->stat_osu = 1;
  else if (opt_stat && strcmp (opt_stat, "median") != 0)
    die_usage ("option '--stat': '%s' is neither 'median' nor 'osu'",
               opt_stat);
  o->iterations = opt_iterations
    ? cli_int ("iterations", opt_iterations, 1, 100000000) : 1000;
  o->cache_cold = 0;
  if (opt_cache && strcmp (opt_cache, "cold") == 0)
    o->cache_cold = 1;
  else if (opt_cache && strcmp (opt_cache, "warm") != 0)
    die_usage ("option '--cache': '%s' is neither 'warm' nor 'cold'",
               opt_cache);
  if (opt_grid && grid2d_parse (opt_grid, &o->grid_rows, &o->grid_cols) != 0)
    die_usage ("option '--grid': bad shape '%s' (ROWSxCOLS, e.g. 2x2)",
               opt_grid);
  o->tree_sync = OV_WAIT_ALL;
  if (opt_sync && strcmp (opt_sync, "do-not-wait") == 0)
    o->tree_sync = OV_DO_NOT_WAIT;
  else if (opt_sync && strcmp (opt_sync, "wait-for-all") != 0)
    die_usage ("option '--sync': '%s' is neither 'wait-for-all' nor "
               "'do-not-wait'", opt_sync);
  parse_rep_sync (o);
  parse_topologies (o);
}

/* The checks of the kernels of RUN that need one (a --sizes sweep a
   matrix kernel cannot follow ...): usage errors, before any rank joins
   the job.  */
static void
check_kernels (const struct comet_opts *o, const struct comet_kernel **run,
               size_t nk)
{
  for (size_t i = 0; i < nk; i++)
    if (run[i]->check)
      run[i]->check (o, run[i]->name);
}

/* The kernels' run metadata (collective), each hook once.  */
static void
kernels_meta (struct comet_ctx *c, const struct comet_kernel **run,
              size_t nk)
{
  for (size_t i = 0; i < nk; i++)
    {
      size_t j = 0;
      while (j < i && run[j]->run_meta != run[i]->run_meta)
        j++;
      if (run[i]->run_meta && j == i)
        run[i]->run_meta (c);
    }
}

/* The collective algorithms Open MPI was told to use.  `mpirun --mca
   NAME VALUE` reaches the processes as the environment variable
   OMPI_MCA_NAME, and coll/tuned obeys its NAME_algorithm settings only
   when coll_tuned_use_dynamic_rules is true; a prediction of a collective
   must know which algorithm ran.  Every OMPI_MCA_coll_tuned_* variable
   is copied as #@coll_tuned_*=VALUE, and the forced algorithms are
   summed up as #@coll_algorithm=bcast=6 allreduce=4 ... (in the
   environment's order), or #@coll_algorithm=default when none is
   forced.  Any coll_tuned_OP_algorithm counts, so the collective kernels'
   alltoall, allgather, reduce, scatter and gather are recorded like bcast
   and allreduce.  */
static void
coll_algorithm_meta (tsv_writer *w)
{
  extern char **environ;
  static const char prefix[] = "OMPI_MCA_";
  static const char tuned[] = "coll_tuned_";
  static const char suffix[] = "_algorithm";
  char list[1024] = "";
  size_t m = 0;
  int dynamic = 0;
  for (char **e = environ; *e; e++)
    {
      if (strncmp (*e, prefix, sizeof prefix - 1) != 0)
        continue;
      const char *key = *e + sizeof prefix - 1;
      const char *eq = strchr (key, '=');
      if (!eq || strncmp (key, tuned, sizeof tuned - 1) != 0)
        continue;
      char name[128];
      size_t len = (size_t) (eq - key);
      if (len >= sizeof name)
        continue;
      memcpy (name, key, len);
      name[len] = '\0';
      /* Only names a metadata key may have.  */
      if (strspn (name, "abcdefghijklmnopqrstuvwxyz"
                  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != len)
        continue;
      tsv_meta (w, name, "%s", eq + 1);
      const char *op = name + sizeof tuned - 1;
      size_t oplen = len - (sizeof tuned - 1);
      if (strcmp (op, "use_dynamic_rules") == 0)
        dynamic = strcmp (eq + 1, "0") != 0 && strcmp (eq + 1, "false") != 0;
      else if (oplen > sizeof suffix - 1
               && strcmp (op + oplen - (sizeof suffix - 1), suffix) == 0
               && strcmp (eq + 1, "0") != 0 && strcmp (eq + 1, "ignore") != 0
               && m < sizeof list)
        m += (size_t) snprintf (list + m, sizeof list - m, "%s%.*s=%s",
                                m ? " " : "",
                                (int) (oplen - (sizeof suffix - 1)), op,
                                eq + 1);
    }
  /* Without dynamic rules coll/tuned ignores the forced algorithms.  */
  tsv_meta (w, "coll_algorithm", "%s", dynamic && m ? list : "default");
}

/* ------------------------------------------------------------ main */

/* The kernels named by ARGS (a usage error for none, an unknown one, or
   one this run has too few ranks for), and their names joined for
   #@tool (*JOINED).  */
static const struct comet_kernel **volatile run_kernels;

static const struct comet_kernel **
resolve_kernels (const char **args, size_t *nkp, char **joinedp,
                 int *columnsp)
{
  size_t nk = 0;
  while (args && args[nk])
    nk++;
  if (nk == 0)
    {
      char *list = NULL;
      size_t len = 0;
      FILE *fp = open_memstream (&list, &len);
      if (!fp)
        mpu_die (EXIT_DATA, "out of memory");
      describe_kernels (fp);
      fclose (fp);
      if (len && list[len - 1] == '\n')
        list[len - 1] = '\0';
      die_usage ("no kernel given: name one or more of the kernels below, "
                 "e.g. 'mpirun -np 2 comet-run echo'%s", list);
    }
  /* Kept in RUN_KERNELS too (volatile: a store the compiler may not
     drop), so that the array stays reachable when an error after this
     (a usage error, a failed check on any rank) ends the process: not a
     leak.  */
  const struct comet_kernel **run = run_kernels
    = xcalloc (1, nk * sizeof *run);
  size_t joined_len = 1;
  for (size_t i = 0; i < nk; i++)
    {
      run[i] = find_kernel (args[i]);
      if (!run[i])
        {
          char known[512] = "";
          size_t m = 0;
          for (const struct comet_kernel *k = comet_kernels; k->name; k++)
            m += (size_t) snprintf (known + m, sizeof known - m, "%s%s",
                                    m ? ", " : "", k->name);
          die_usage ("unknown kernel '%s' (valid kernels: %s)", args[i],
                     known);
        }
      if (mpu_size < run[i]->min_ranks)
        die_usage ("kernel '%s' needs at least %d ranks, this run has %d "
                   "(run it under mpirun -np %d or more)", run[i]->name,
                   run[i]->min_ranks, mpu_size, run[i]->min_ranks);
      *columnsp |= run[i]->columns;
      joined_len += strlen (args[i]) + 1;
    }
  char *joined = *joinedp = xcalloc (1, joined_len);
  for (size_t i = 0; i < nk; i++)
    {
      if (i)
        strcat (joined, " ");
      strcat (joined, args[i]);
    }

  *nkp = nk;
  return run;
}

/* The test rank's metadata of the run: units, statistics, buffers,
   forced collective algorithms.  */
static void
write_run_meta (const struct comet_ctx *cp, const struct comet_opts *op)
{
  tsv_meta_time_unit (cp->w, "us");
  tsv_meta (cp->w, "bandwidth_unit", "MBps=1e6 bytes/s");
  /* Measured: at the digits a fit holds; options: as given.  */
  tsv_meta_num (cp->w, "loop_overhead", cp->loop_fixed * 1e6,
                NUM_DERIVED_DIGITS);
  tsv_meta_num (cp->w, "loop_overhead_per_iteration", cp->loop_iter * 1e6,
                NUM_DERIVED_DIGITS);
  tsv_meta_num (cp->w, "epsilon", op->adapt.eps, -1);
  tsv_meta (cp->w, "min_reps", "%zu", op->adapt.min_reps);
  tsv_meta (cp->w, "max_reps", "%zu", op->adapt.max_reps);
  tsv_meta_num (cp->w, "time_cap", op->adapt.time_cap, -1);
  tsv_meta (cp->w, "warmup", "%lld", (long long) op->warmup);
  tsv_meta (cp->w, "max_repeat", "%lld", (long long) op->max_repeat);
  tsv_meta (cp->w, "buffers", "%s", op->buffers_shared ? "shared"
            : "separate");
  tsv_meta (cp->w, "cache", "%s", op->cache_cold ? "cold" : "warm");
  tsv_meta (cp->w, "stat", "%s", op->stat_osu ? "osu" : "median");
  if (op->stat_osu)
    tsv_meta (cp->w, "iterations", "%lld", (long long) op->iterations);
  /* cold: the pools together hold twice this many bytes.  */
  if (op->cache_cold)
    tsv_meta (cp->w, "cache_llc_bytes", "%zu", comet_llc_bytes ());
  if (op->rep_sync != COMET_SYNC_NONE)
    tsv_meta (cp->w, "rep_sync", "%s", op->rep_sync == COMET_SYNC_WINDOW
              ? "window" : "barrier");
  if (op->rep_sync == COMET_SYNC_WINDOW && opt_window)
    tsv_meta (cp->w, "window", "%s", opt_window);
  else if (op->rep_sync == COMET_SYNC_WINDOW)
    tsv_meta (cp->w, "window", "auto");
  coll_algorithm_meta (cp->w);
}

/* The rows without bandwidth (a rank exchanging with itself), and why,
   before the header.  */
static void
write_mbps_na (const struct comet_ctx *cp, const struct comet_kernel **run,
               size_t nk)
{
  for (size_t i = 0; i < nk; i++)
    for (size_t d = 0; run[i]->self_exchange; d++)
      {
        const char *const *dirs = run[i]->directions;
        if (d && (!dirs || !dirs[d]))
          break;
        const char *dir = dirs ? dirs[d] : NULL;
        const char *why = run[i]->self_exchange (cp, run[i]->name, dir);
        if (why)
          tsv_meta (cp->w, "MBps_na", "%s%s%s on the %dx%d grid: %s",
                    run[i]->name, dir ? " " : "", dir ? dir : "",
                    cp->rows, cp->cols, why);
      }
}

int
main (int argc, char **argv)
{
  cli_init ("comet-run", argc, argv);
  /* Options first, on every rank, MPI_Init after them: a usage error
     ends every rank with status 2 before any joins the job (mpiutil.h).  */
  mpu_preinit (&argc, &argv);
  cli_help_hook = describe_kernels;

  poptContext con = cli_parse (argc, (const char **) argv, options,
                               "KERNEL...", option_handler);
  if (opt_list)
    {
      list_kernels ();
      poptFreeContext (con);
      mpu_finalize ();
      return 0;
    }

  /* The kernels, checked before anything is measured.  */
  size_t nk;
  char *joined;
  int columns = 0;
  const struct comet_kernel **run = resolve_kernels (poptGetArgs (con), &nk,
                                                     &joined, &columns);
  comet_set_columns (columns);
  struct comet_opts opt;
  memset (&opt, 0, sizeof opt);
  parse_options (&opt);
  if (opt.grid_rows && opt.grid_rows * opt.grid_cols != mpu_size)
    die_usage ("option '--grid': %dx%d has %d positions for %d ranks",
               opt.grid_rows, opt.grid_cols, opt.grid_rows * opt.grid_cols,
               mpu_size);
  check_kernels (&opt, run, nk);
  if (opt.rep_sync == COMET_SYNC_NONE)
    comet_set_columns (columns & ~COL_SYNC);
  mpu_init (&argc, &argv);
  mpu_timeout (opt.timeout);

  struct comet_ctx c;
  memset (&c, 0, sizeof c);
  c.opt = &opt;
  comet_topology (&c);
  c.progress = c.rank == c.test
               ? cli_progress_mode (opt.progress, opt_no_progress)
               : CLI_PROGRESS_OFF;
  comet_loop_overhead (&c);

  if (c.rank == c.test)
    {
      c.w = tsv_writer_open (NULL);
      tsv_write_tool_meta (c.w, joined);
    }
  mpu_write_meta (c.w);
  comet_topology_meta (&c);
  if (c.rank == c.test)
    write_run_meta (&c, &opt);
  comet_clock_setup (&c);
  kernels_meta (&c, run, nk);
  if (c.rank == c.test)
    write_mbps_na (&c, run, nk);
  if (c.rank == c.test)
    comet_write_header (c.w);

  for (size_t i = 0; i < nk; i++)
    {
      comet_progress (&c, "kernel %s", run[i]->name);
      c.kernel_t0 = MPI_Wtime ();
      run[i]->run (&c);
      comet_idle_barrier (&c);
    }

  if (c.rank == c.test)
    tsv_writer_close (c.w);
  free (opt.sizes.v);
  free (opt.veclens.v);
  free (opt.sums.v);
  free (opt.tree_values.v);
  free (opt.orders.v);
  free (opt.loads.v);
  for (size_t i = 0; i < opt.ntopologies; i++)
    free (opt.topology_text[i]);
  free (opt.topology_text);
  for (size_t i = 0; i < opt_ntopologies; i++)
    free ((char *) opt_topologies[i]);
  free (opt_topologies);
  free (joined);
  free (run);
  poptFreeContext (con);
  MPI_Comm_free (&c.comm);
  mpu_finalize ();
  return 0;
}
