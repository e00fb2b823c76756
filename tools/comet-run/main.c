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

struct comet_kernel
{
  const char *name;
  comet_kernel_fn run;
  const char *description;
  int min_ranks;
  int columns;              /* COL_* of comet.h the kernel's rows fill */
};

/* The kernels, in the order of Section 2.2 of the paper.  To add one
   (for example the tree kernels tree-roundtrip, tree-throughput and
   tree-startup): write its function in a new file of this directory
   (say tree.c, declared in comet.h, built through Makefile.am's
   tools_comet_run_comet_run_SOURCES), and add one row here:
     { NAME, FUNCTION, ONE-LINE DESCRIPTION, FEWEST RANKS, COLUMNS }
   COLUMNS is the set of optional output columns its rows fill; a kernel
   that needs a column nobody has yet adds it to the COL_* enum of comet.h
   and to column_names[] below.  The function is called on every rank of
   the adjacency matrix (struct comet_ctx), measures with comet_measure and
   writes its rows with comet_emit.  The table ends with a NULL row.  */
static const struct comet_kernel kernels[] = {
  { "echo", kernel_echo,
    "ping-pong; one-way time = half the round trip, per size and hops",
    2, COL_BYTES | COL_HOPS | COL_MBPS },
  { "pairwise", kernel_pairwise,
    "simultaneous exchange between two nodes (MPI_Sendrecv), per hops",
    2, COL_BYTES | COL_HOPS | COL_MBPS },
  { "broadcast", kernel_broadcast,
    "MPI_Bcast from the test node to all, timed to the last acknowledgement",
    2, COL_BYTES | COL_MBPS },
  { "globalsum", kernel_globalsum,
    "MPI_Allreduce sum of a vector of doubles, verified on every rank",
    2, COL_VECLEN | COL_BYTES | COL_MBPS },
  { "barrier", kernel_barrier,
    "best-case MPI_Barrier (first call not reported)",
    2, COL_BYTES },
  { "contention", kernel_contention,
    "echo between two ranks while two others exchange continuously",
    4, COL_BYTES | COL_HOPS | COL_LOAD | COL_MBPS },
  { "overlap", kernel_overlap,
    "pairwise exchange and DAXPY, synchronous versus asynchronous",
    2, COL_BYTES | COL_VECLEN | COL_HOPS | COL_OVERLAP },
  { "update-guard", kernel_update_guard,
    "halo exchange of the guard wrapper with the four neighbours",
    2, COL_ORDER | COL_BYTES | COL_MBPS },
  { "shift", kernel_shift,
    "shift the block matrix one block north, then east",
    2, COL_ORDER | COL_DIRECTION | COL_BYTES | COL_MBPS },
  { "transpose", kernel_transpose,
    "exchange with the transposed node plus local transpose",
    2, COL_ORDER | COL_BYTES | COL_MBPS },
  { "rowbcast", kernel_rowbcast,
    "broadcast one matrix row down the grid columns",
    2, COL_ORDER | COL_BYTES | COL_MBPS },
  { "colbcast", kernel_colbcast,
    "broadcast one matrix column along the grid rows",
    2, COL_ORDER | COL_BYTES | COL_MBPS },
  { "alltoall", kernel_alltoall,
    "MPI_Alltoall of --sizes bytes per rank pair, verified on every rank",
    2, COL_BYTES | COL_MBPS },
  { "allgather", kernel_allgather,
    "MPI_Allgather of --sizes bytes per rank, verified on every rank",
    2, COL_BYTES | COL_MBPS },
  { "allreduce", kernel_allreduce,
    "MPI_Allreduce sum of --sizes bytes, verified on every rank",
    2, COL_BYTES | COL_MBPS },
  { "reduce", kernel_reduce,
    "MPI_Reduce sum of --sizes bytes to the test node, verified there",
    2, COL_BYTES | COL_MBPS },
  { "scatter", kernel_scatter,
    "MPI_Scatter of --sizes bytes per rank, timed to the last acknowledgement",
    2, COL_BYTES | COL_MBPS },
  { "gather", kernel_gather,
    "MPI_Gather of --sizes bytes per rank to the test node, verified there",
    2, COL_BYTES | COL_MBPS },
  { "bcast", kernel_bcast,
    "MPI_Bcast of --sizes bytes, timed to the last acknowledgement, verified",
    2, COL_BYTES | COL_MBPS },
  { "reduce_local", kernel_reduce_local,
    "MPI_Reduce_local sum of --sizes bytes, each rank alone: the "
    "reduction's arithmetic (dag-predict --reduce-cost)",
    2, COL_BYTES | COL_MBPS },
  { "combine", kernel_combine,
    "a reduction step: the next rank sends --sizes bytes, the test node "
    "adds its own (MPI_Reduce_local) and sends the sum back; the round "
    "trip",
    2, COL_BYTES | COL_MBPS },
  { "tree-roundtrip", kernel_tree_roundtrip,
    "multicast then sum reduction through each --topology tree",
    2, COL_BYTES | COL_TREE | COL_PACKETS },
  { "tree-throughput", kernel_tree_throughput,
    "pipelined sum reductions through each --topology tree",
    2, COL_BYTES | COL_TREE | COL_RATE | COL_PACKETS },
  { "tree-startup", kernel_tree_startup,
    "building each --topology tree (topology down, reports up)",
    2, COL_BYTES | COL_TREE },
  { NULL, NULL, NULL, 0, 0 }
};

static const struct comet_kernel *
find_kernel (const char *name)
{
  for (const struct comet_kernel *k = kernels; k->name; k++)
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
  for (const struct comet_kernel *k = kernels; k->name; k++)
    fprintf (fp, "  %-16s %s (%d ranks or more)\n", k->name,
             k->description, k->min_ranks);
}

static void
list_kernels (void)
{
  printf ("kernel\tmin_ranks\tdescription\n");
  for (const struct comet_kernel *k = kernels; k->name; k++)
    printf ("%s\t%d\t%s\n", k->name, k->min_ranks, k->description);
}

/* ------------------------------------------------------------ output */

static int out_columns;   /* union of the kernels' COL_* */

void
comet_row_init (struct comet_row *r, const char *kernel)
{
  memset (r, 0, sizeof *r);
  r->kernel = kernel;
  r->bytes = r->veclen = r->order = r->load = -1;
  r->hops = -1;
  r->direction = NULL;
  r->mbps = r->tsync = r->tcomm = r->tcomp = r->overlap = NAN;
  r->overlap_raw = NAN;
  r->topology = NULL;
  r->depth = r->fanout = -1;
  r->rate = NAN;
  r->packets = -1;
  r->t_mean = NAN;
  r->ops = -1;
  r->t_quantum = NAN;
}

static void
write_header (tsv_writer *w)
{
  const char *names[40];
  size_t n = 0;
  names[n++] = "kernel";
  names[n++] = "nprocs";
  if (out_columns & COL_BYTES) names[n++] = "bytes";
  if (out_columns & COL_VECLEN) names[n++] = "veclen";
  if (out_columns & COL_ORDER) names[n++] = "order";
  if (out_columns & COL_HOPS) names[n++] = "hops";
  if (out_columns & COL_DIRECTION) names[n++] = "direction";
  if (out_columns & COL_LOAD) names[n++] = "load";
  if (out_columns & COL_TREE)
    {
      names[n++] = "topology";
      names[n++] = "depth";
      names[n++] = "fanout";
    }
  static const char *const stats[] = { "t", "t_mean", "t_min", "t_max",
    "t_p05", "t_p95", "t_ci_lo", "t_ci_hi", "reps", "ops", "stop" };
  for (size_t i = 0; i < sizeof stats / sizeof *stats; i++)
    names[n++] = stats[i];
  if (out_columns & COL_MBPS) names[n++] = "MBps";
  if (out_columns & COL_RATE) names[n++] = "per_s";
  if (out_columns & COL_PACKETS) names[n++] = "packets";
  if (out_columns & COL_OVERLAP)
    {
      names[n++] = "tsync";
      names[n++] = "tcomm";
      names[n++] = "tcomp";
      names[n++] = "overlap";
      names[n++] = "overlap_raw";
      names[n++] = "overlap_flag";
    }
  tsv_write_header (w, n, names);
}

static void
put_count (tsv_writer *w, int64_t v)
{
  if (v < 0)
    tsv_put_na (w);
  else
    tsv_put_int (w, v);
}

/* msgperf(7), NUMBERS: a statistic of the samples (the median, a
   percentile, an interval bound, the extremes, and the mean) to the step
   of a sample, the timer's resolution / (repeat * divisor): one rounding
   for all but the mean (put_mean_us), so that t_min <= t_mean <= t_max
   still holds as printed (6
   significant digits would print a mean of 91342.53 below the minimum
   91342.53 as 91342.5); values derived from times (MBps, per_s, the
   overlap times and shares) to 6 significant digits.  --precision rounds
   further.  */
static void
put_sample_us (tsv_writer *w, double v, double quantum)
{
  if (!(quantum > 0))
    quantum = 0;
  char buf[NUM_BUFSIZE];
  int sig = tsv_precision > 0 ? tsv_precision
                              : quantum > 0 ? -1 : NUM_DERIVED_DIGITS;
  num_format_measured (v, quantum, sig, buf);
  tsv_put_str (w, buf);
}

/* The mean of N samples holds finer digits than one sample: each sample's
   rounding error (up to a step Q) averages down as Q / sqrt (N), and at
   --stat osu a 0.16 us bcast timed to 0.01 us would otherwise be printed
   to within 3%.  It is rounded to the decade of Q / sqrt (N), after being
   held between the extremes as they are printed, so that t_min <= t_mean
   <= t_max still holds as printed.  */
static void
put_mean_us (tsv_writer *w, const struct comet_row *r)
{
  double q = r->t_quantum, v = r->t_mean;
  if (!(q > 0) || tsv_precision > 0 || !isfinite (v) || r->t.n < 2)
    {
      put_sample_us (w, v, q);
      return;
    }
  char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE], buf[NUM_BUFSIZE];
  num_format_measured (r->t.min, q, -1, lo);
  num_format_measured (r->t.max, q, -1, hi);
  double vlo = strtod (lo, NULL), vhi = strtod (hi, NULL);
  if (v < vlo)
    v = vlo;
  if (v > vhi)
    v = vhi;
  num_format_measured (v, q / sqrt ((double) r->t.n), -1, buf);
  tsv_put_str (w, buf);
}

static void
put_derived (tsv_writer *w, double v)
{
  char buf[NUM_BUFSIZE];
  int sig = tsv_precision > 0 && tsv_precision < NUM_DERIVED_DIGITS
    ? tsv_precision : NUM_DERIVED_DIGITS;
  num_format_measured (v, 0, sig, buf);
  tsv_put_str (w, buf);
}

/* The progress line of row R: the point, its time, and where the
   kernel's size sweep is.  */
static void
emit_progress (struct comet_ctx *c, const struct comet_row *r)
{
  if (c->rank != c->test || !cli_progress_now (c->progress))
    return;
  char extra[160] = "";
  size_t m = 0;
  if (r->hops >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " hops=%d", r->hops);
  if (r->load >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " load=%lld",
                            (long long) r->load);
  if (r->direction)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " %s",
                            r->direction);
  if (r->topology)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " topology=%s",
                            r->topology);
  if (r->order >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " order=%lld",
                            (long long) r->order);
  if (r->veclen >= 0)
    m += (size_t) snprintf (extra + m, sizeof extra - m, " veclen=%lld",
                            (long long) r->veclen);
  if (r->bytes >= 0)
    snprintf (extra + m, sizeof extra - m, " bytes=%lld",
              (long long) r->bytes);
  /* How far the kernel's size sweep is, and the time the rest will take
     at the mean so far (larger sizes take longer: a lower bound).  */
  char eta[96] = "";
  const struct comet_sweep *sz = &c->opt->sizes;
  for (size_t k = 0; r->bytes >= 0 && k < sz->n; k++)
    if (sz->v[k] == r->bytes)
      {
        double spent = MPI_Wtime () - c->kernel_t0;
        snprintf (eta, sizeof eta, "; size %zu of %zu, at least %.2g s left",
                  k + 1, sz->n, spent / (double) (k + 1)
                                * (double) (sz->n - k - 1));
        break;
      }
  comet_progress (c, "%s%s: %.4g us (%s, %zu reps)%s", r->kernel, extra,
                  r->t.median, stats_stop_name (r->stop), r->t.n, eta);
}

void
comet_emit (struct comet_ctx *c, const struct comet_row *r)
{
  if (c->rank != c->test)
    return;
  tsv_writer *w = c->w;
  tsv_put_str (w, r->kernel);
  tsv_put_int (w, c->size);
  if (out_columns & COL_BYTES) put_count (w, r->bytes);
  if (out_columns & COL_VECLEN) put_count (w, r->veclen);
  if (out_columns & COL_ORDER) put_count (w, r->order);
  if (out_columns & COL_HOPS) put_count (w, r->hops);
  if (out_columns & COL_DIRECTION)
    {
      if (r->direction)
        tsv_put_str (w, r->direction);
      else
        tsv_put_na (w);
    }
  if (out_columns & COL_LOAD) put_count (w, r->load);
  if (out_columns & COL_TREE)
    {
      if (r->topology)
        tsv_put_str (w, r->topology);
      else
        tsv_put_na (w);
      put_count (w, r->depth);
      put_count (w, r->fanout);
    }
  put_sample_us (w, r->t.median, r->t_quantum);
  put_mean_us (w, r);
  put_sample_us (w, r->t.min, r->t_quantum);
  put_sample_us (w, r->t.max, r->t_quantum);
  put_sample_us (w, r->t.p05, r->t_quantum);
  put_sample_us (w, r->t.p95, r->t_quantum);
  put_sample_us (w, r->t.ci_lo, r->t_quantum);
  put_sample_us (w, r->t.ci_hi, r->t_quantum);
  tsv_put_int (w, (int64_t) r->t.n);
  put_count (w, r->ops);
  tsv_put_str (w, stats_stop_name (r->stop));
  if (out_columns & COL_MBPS) put_derived (w, r->mbps);
  if (out_columns & COL_RATE) put_derived (w, r->rate);
  if (out_columns & COL_PACKETS) put_count (w, r->packets);
  if (out_columns & COL_OVERLAP)
    {
      put_derived (w, r->tsync);
      put_derived (w, r->tcomm);
      put_derived (w, r->tcomp);
      put_derived (w, r->overlap);
      put_derived (w, r->overlap_raw);
      /* Whether the clamp changed the share, so that a reader sees a
         measurement that went wrong instead of a plausible 0 or 100.  */
      if (isnan (r->overlap_raw))
        tsv_put_na (w);
      else
        tsv_put_str (w, r->overlap_raw < 0 ? "below_0"
                        : r->overlap_raw > 100 ? "above_100" : "in_range");
    }
  tsv_end_row (w);
  /* Row by row: a run ended by --timeout or a signal leaves whole rows.  */
  tsv_flush (w);

  emit_progress (c, r);
}

void
comet_progress (struct comet_ctx *c, const char *fmt, ...)
{
  if (c->rank != c->test || !cli_progress_now (c->progress))
    return;
  va_list ap;
  va_start (ap, fmt);
  fprintf (stderr, "%s: ", err_program);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
}

/* ------------------------------------------------------------ helpers */

int
comet_mpi_count (int64_t n, const char *what)
{
  if (n < 0 || n > 0x7fffffff)
    mpu_die (EXIT_DATA, "%s %lld does not fit an MPI count", what,
             (long long) n);
  return (int) n;
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
static char *opt_iterations, *opt_sync;
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
  parse_topologies (o);
}

/* A --sizes sweep that a matrix kernel of RUN cannot follow (a size
   beyond the bytes of its largest block) is a usage error, before any
   rank joins the job.  */
static void
check_matrix_orders (const struct comet_opts *o,
                     const struct comet_kernel **run, size_t nk)
{
  for (size_t i = 0; i < nk; i++)
    {
      if (!comet_matrix_kernel (run[i]->name))
        continue;
      struct comet_sweep s;
      int64_t bad = comet_matrix_orders (o, run[i]->name, &s);
      free (s.v);
      if (bad)
        die_usage ("option '--sizes': %s sends at most %lld bytes (block "
                   "order %lld), not %lld; give its block orders with "
                   "--orders", run[i]->name,
                   (long long) comet_matrix_bytes (run[i]->name,
                                                   COMET_MAX_ORDER),
                   (long long) COMET_MAX_ORDER, (long long) bad);
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
resolve_kernels (const char **args, size_t *nkp, char **joinedp)
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
          for (const struct comet_kernel *k = kernels; k->name; k++)
            m += (size_t) snprintf (known + m, sizeof known - m, "%s%s",
                                    m ? ", " : "", k->name);
          die_usage ("unknown kernel '%s' (valid kernels: %s)", args[i],
                     known);
        }
      if (mpu_size < run[i]->min_ranks)
        die_usage ("kernel '%s' needs at least %d ranks, this run has %d "
                   "(run it under mpirun -np %d or more)", run[i]->name,
                   run[i]->min_ranks, mpu_size, run[i]->min_ranks);
      out_columns |= run[i]->columns;
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
  tsv_meta (cp->w, "loop_overhead", "%.17g",
            cp->loop_fixed * 1e6);
  tsv_meta (cp->w, "loop_overhead_per_iteration", "%.17g",
            cp->loop_iter * 1e6);
  tsv_meta (cp->w, "epsilon", "%.17g", op->adapt.eps);
  tsv_meta (cp->w, "min_reps", "%zu", op->adapt.min_reps);
  tsv_meta (cp->w, "max_reps", "%zu", op->adapt.max_reps);
  tsv_meta (cp->w, "time_cap", "%.17g", op->adapt.time_cap);
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
  coll_algorithm_meta (cp->w);
}

/* The rows without bandwidth (a rank exchanging with itself), and why,
   before the header.  */
static void
write_mbps_na (const struct comet_ctx *cp, const struct comet_kernel **run,
               size_t nk)
{
  for (size_t i = 0; i < nk; i++)
    for (int d = 0; d < 2; d++)
      {
        int shift = strcmp (run[i]->name, "shift") == 0;
        if (d && !shift)
          break;
        const char *dir = shift ? (d ? "east" : "north") : NULL;
        const char *why = comet_self_exchange (cp, run[i]->name, dir);
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
  const struct comet_kernel **run = resolve_kernels (poptGetArgs (con), &nk,
                                                     &joined);
  struct comet_opts opt;
  memset (&opt, 0, sizeof opt);
  parse_options (&opt);
  if (opt.grid_rows && opt.grid_rows * opt.grid_cols != mpu_size)
    die_usage ("option '--grid': %dx%d has %d positions for %d ranks",
               opt.grid_rows, opt.grid_cols, opt.grid_rows * opt.grid_cols,
               mpu_size);
  check_matrix_orders (&opt, run, nk);
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
  for (size_t i = 0; i < nk; i++)
    if (strncmp (run[i]->name, "tree-", 5) == 0)
      {
        comet_tree_meta (&c);
        break;
      }
  if (c.rank == c.test)
    write_mbps_na (&c, run, nk);
  if (c.rank == c.test)
    write_header (c.w);

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
