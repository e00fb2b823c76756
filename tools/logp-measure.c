/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp-measure: parameterized LogP / LogGP parameters of an MPI library,
 * measured with the fast procedure of Kielmann, Bal and Verstoep, "Fast
 * Measurement of LogP Parameters for Message Passing Platforms".
 *
 * main(): parse the options (every rank, identically), run the pairs one
 * at a time (measure on the pair's first rank, mirror on the second),
 * gather the results at rank 0 through an MRNet-style overlay tree
 * (common/mpi/overlay.h, concat filter; --classes: bin filter) and write
 * one stream.  The protocol is in common/mpi/logp_proto.c, the size
 * selection in common/models/logp/logp_sizes.c, the equations and the LogGP summary
 * in common/models/logp/logp_params.c, the record packing and the link classes in
 * common/models/logp/logp_classes.c.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "logp_proto.h"
#include "logp_classes.h"
#include "logp_pairs.h"
#include "logp_params.h"
#include "mpiutil.h"
#include "overlay.h"
#include "msgbuf.h"
#include "cpuwait.h"
#include "num.h"
#include "readfile.h"
#include "stats.h"
#include "tsv.h"
#include "xalloc.h"

#define PROGRAM "logp-measure"

/* ------------------------------------------------------------ options */

static char *opt_pair, *opt_sample, *opt_seed, *opt_timeout, *opt_eps;
static char *opt_min_bytes, *opt_max_bytes, *opt_start_bytes;
static char *opt_large_bytes, *opt_max_reps, *opt_max_reps_large;
static char *opt_time_cap, *opt_topology, *opt_class_width, *opt_class_by;
static char *opt_class_bytes, *opt_repeat, *opt_time_limit;
static int opt_reverse, opt_all_pairs, opt_saturate, opt_expected;
static int opt_no_eager;
static int opt_summary, opt_raw, opt_progress, opt_no_progress, opt_classes;

static struct poptOption options[] = {
  { "pair", '\0', POPT_ARG_STRING, &opt_pair, 0,
    "measure from rank I (measure) to rank J (mirror) (default: 0,1)",
    "I,J" },
  { "reverse", '\0', POPT_ARG_NONE, &opt_reverse, 0,
    "also run with the roles swapped (asymmetric links)", NULL },
  { "all-pairs", '\0', POPT_ARG_NONE, &opt_all_pairs, 0,
    "measure every ordered pair of ranks, one pair at a time", NULL },
  { "sample", '\0', POPT_ARG_STRING, &opt_sample, 0,
    "with --all-pairs: a random sample of N ordered pairs", "N" },
  { "seed", '\0', POPT_ARG_STRING, &opt_seed, 0,
    "seed of the pair sample (default: 1)", "S" },
  { "saturate", '\0', POPT_ARG_NONE, &opt_saturate, 0,
    "also measure g(m) of every size by link saturation", NULL },
  { "expected", '\0', POPT_ARG_NONE, &opt_expected, 0,
    "also measure o_r of expected messages (MPI_Irecv, MPI_Wait)", NULL },
  { "no-eager", '\0', POPT_ARG_NONE, &opt_no_eager, 0,
    "do not measure the eager limit S (the largest message a blocking "
    "send delivers to a busy receiver)", NULL },
  { "summary", '\0', POPT_ARG_NONE, &opt_summary, 0,
    "print the LogGP parameters (Table 1), one row per pair", NULL },
  { "repeat", '\0', POPT_ARG_STRING, &opt_repeat, 0,
    "with --summary: run the whole procedure N times and add the spread "
    "(min, max) of L, o, g, G (default: 1)", "N" },
  { "raw", '\0', POPT_ARG_NONE, &opt_raw, 0,
    "print every sample instead of the per-size rows", NULL },
  { "classes", '\0', POPT_ARG_NONE, &opt_classes, 0,
    "with --all-pairs: print the links grouped into classes of similar "
    "parameters instead of the per-size rows", NULL },
  { "class-by", '\0', POPT_ARG_STRING, &opt_class_by, 0,
    "the parameter of the classes: L, g0, os, or, g or rtt (default: L)",
    "PARAM" },
  { "class-bytes", '\0', POPT_ARG_STRING, &opt_class_bytes, 0,
    "the size at which os, or, g or rtt is taken (default: --min-bytes)",
    "N" },
  { "class-width", '\0', POPT_ARG_STRING, &opt_class_width, 0,
    "relative width of a class: each spans a factor 1+W (default: 0.1)",
    "W" },
  { "topology", 't', POPT_ARG_STRING, &opt_topology, 0,
    "tree that gathers the results at rank 0: flat, b:F^D, b:F1xF2.., "
    "k:K[@N], g:L1:L2.. or file:PATH, see msgperf-trees(7) (default: k:2)",
    "SPEC" },
  { "progress", '\0', POPT_ARG_NONE, &opt_progress, 0,
    "progress lines on stderr even when it is not a terminal (under "
    "mpirun: after 5 s by default)", NULL },
  { "no-progress", '\0', POPT_ARG_NONE, &opt_no_progress, 0,
    "no progress lines, even on a terminal or in a long run", NULL },
  { "timeout", '\0', POPT_ARG_STRING, &opt_timeout, 0,
    "end the job after SECONDS (default: 0, no bound)", "SECONDS" },
  { "epsilon", 'e', POPT_ARG_STRING, &opt_eps, 0,
    "relative tolerance of the procedure (default: 0.01)", "EPS" },
  { "min-bytes", '\0', POPT_ARG_STRING, &opt_min_bytes, 0,
    "smallest non-empty size (default: 1)", "N" },
  { "start-bytes", '\0', POPT_ARG_STRING, &opt_start_bytes, 0,
    "largest size of the initial set, 2^k_m (default: 4194304)", "N" },
  { "max-bytes", '\0', POPT_ARG_STRING, &opt_max_bytes, 0,
    "k_m never grows past N bytes (default: 67108864)", "N" },
  { "large-bytes", '\0', POPT_ARG_STRING, &opt_large_bytes, 0,
    "sizes from N bytes on are large (default: 65536)", "N" },
  { "max-reps", '\0', POPT_ARG_STRING, &opt_max_reps, 0,
    "repetition cap of small sizes (default: 60)", "N" },
  { "max-reps-large", '\0', POPT_ARG_STRING, &opt_max_reps_large, 0,
    "repetition cap of large sizes (default: 15)", "N" },
  { "time-cap", '\0', POPT_ARG_STRING, &opt_time_cap, 0,
    "seconds spent on one size at most (default: 5)", "SECONDS" },
  { "time-limit", '\0', POPT_ARG_STRING, &opt_time_limit, 0,
    "no new size after SECONDS of the size selection (growth of k_m "
    "included; 0: no limit) (default: 20)", "SECONDS" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

struct config
{
  struct lm_opts o;
  int pair_i, pair_j;
  int64_t sample;
  uint64_t seed;
  double timeout;
  const char *topology;   /* --topology */
  char *topology_text;    /* contents of a file:PATH topology, rank 0 */
  int class_by;           /* enum class_param */
  int64_t class_bytes;
  double class_width;
  int64_t repeat;         /* --repeat */
};

/* The parameters --classes can group links by: per pair (L, g0) or at
   one size (the others).  */
enum class_param { CP_L, CP_G0, CP_OS, CP_OR, CP_G, CP_RTT, CP_N };
static const char *const class_param_name[CP_N] = { "L", "g0", "os", "or",
                                                    "g", "rtt" };
static const int class_param_field[CP_N] = { R_L, R_G0, R_OS, R_OR, R_G,
                                             R_RTT };

static void
parse_pair (const char *text, int *i, int *j)
{
  const char *comma = strchr (text, ',');
  if (comma == NULL)
    die_usage ("option '--pair': '%s' is not I,J (two ranks)", text);
  char a[32], b[32];
  size_t la = (size_t) (comma - text), lb = strlen (comma + 1);
  if (la == 0 || lb == 0 || la >= sizeof a || lb >= sizeof b)
    die_usage ("option '--pair': '%s' is not I,J (two ranks)", text);
  memcpy (a, text, la);
  a[la] = '\0';
  memcpy (b, comma + 1, lb + 1);
  *i = (int) cli_int ("pair", a, 0, 1 << 30);
  *j = (int) cli_int ("pair", b, 0, 1 << 30);
}

/* Every rank parses the same command line and reaches the same verdict:
   usage errors end every rank with status 2, only rank 0 printing.  */
/* The size range (MPI counts are int, one buffer holds the largest) and
   the modes that exclude or need each other.  */
static void
check_sizes_modes (struct config *c)
{
  struct lm_opts *o = &c->o;
  /* The size range: MPI counts are int, one buffer holds the largest.  */
  if (o->max_bytes > ((int64_t) 1 << 30))
    die_usage ("option '--max-bytes': %lld is too large (at most %lld)",
               (long long) o->max_bytes, (long long) 1 << 30);
  if (o->min_bytes > o->max_bytes)
    die_usage ("unusable size range: --min-bytes %lld is larger than "
               "--max-bytes %lld", (long long) o->min_bytes,
               (long long) o->max_bytes);
  if (o->start_max > o->max_bytes)
    o->start_max = o->max_bytes;
  if (o->start_max < o->min_bytes)
    die_usage ("unusable size range: --start-bytes %lld is smaller than "
               "--min-bytes %lld", (long long) o->start_max,
               (long long) o->min_bytes);
  if (opt_raw && opt_summary)
    die_usage ("--raw and --summary exclude each other");
  c->repeat = opt_repeat ? cli_int ("repeat", opt_repeat, 1, 1000) : 1;
  if (opt_repeat && !opt_summary)
    die_usage ("--repeat needs --summary (the spread is a summary column)");
  if (opt_sample && !opt_all_pairs)
    die_usage ("--sample needs --all-pairs");
  if (opt_classes && !opt_all_pairs)
    die_usage ("--classes needs --all-pairs");
  if (opt_classes && (opt_raw || opt_summary))
    die_usage ("--classes excludes --raw and --summary");
  if ((opt_class_by || opt_class_bytes || opt_class_width) && !opt_classes)
    die_usage ("--class-by, --class-bytes and --class-width need --classes");
}

/* --classes: by which parameter, at which size, how wide.  */
static void
parse_classes (struct config *c)
{
  struct lm_opts *o = &c->o;
  c->class_width = opt_class_width
    ? cli_double ("class-width", opt_class_width, 1e-6, 1e6) : 0.1;
  c->class_by = CP_L;
  if (opt_class_by)
    {
      int k = 0;
      while (k < CP_N && strcmp (class_param_name[k], opt_class_by) != 0)
        k++;
      if (k == CP_N)
        die_usage ("option '--class-by': '%s' is not one of L, g0, os, or, "
                   "g, rtt", opt_class_by);
      c->class_by = k;
    }
  c->class_bytes = opt_class_bytes
    ? cli_int ("class-bytes", opt_class_bytes, 0, INT64_MAX) : o->min_bytes;
  if (opt_class_bytes && c->class_by <= CP_G0)
    die_usage ("--class-bytes: %s is one value per pair, not per size",
               class_param_name[c->class_by]);
}

static void
parse (int argc, char **argv, struct config *c)
{
  poptContext con = cli_parse (argc, (const char **) argv, options, NULL,
                               NULL);
  const char *extra = poptGetArg (con);
  if (extra != NULL)
    die_usage ("unexpected argument '%s' (logp-measure reads no files)",
               extra);
  poptFreeContext (con);

  memset (c, 0, sizeof *c);
  struct lm_opts *o = &c->o;
  o->eps = opt_eps ? cli_double ("epsilon", opt_eps, 1e-6, 0.5) : 0.01;
  o->min_bytes = opt_min_bytes
    ? cli_int ("min-bytes", opt_min_bytes, 1, INT64_MAX) : 1;
  o->max_bytes = opt_max_bytes
    ? cli_int ("max-bytes", opt_max_bytes, 1, INT64_MAX) : 67108864;
  o->start_max = opt_start_bytes
    ? cli_int ("start-bytes", opt_start_bytes, 1, INT64_MAX) : 4194304;
  o->large_bytes = opt_large_bytes
    ? cli_int ("large-bytes", opt_large_bytes, 0, INT64_MAX) : 65536;
  o->max_reps = opt_max_reps
    ? cli_int ("max-reps", opt_max_reps, 1, 1000000) : 60;
  o->max_reps_large = opt_max_reps_large
    ? cli_int ("max-reps-large", opt_max_reps_large, 1, 1000000) : 15;
  o->min_reps = 8;
  o->time_cap = opt_time_cap
    ? cli_double ("time-cap", opt_time_cap, 1e-3, 1e6) : 5.0;
  /* 20 s: a whole default sweep to 4 MiB takes under 1 s on shared memory
     and TCP, and about 25 s on a 100 Mbit/s link (9 round trips of 4 MiB
     alone are 13 s there), where the growth to 64 MiB took minutes.  */
  o->time_limit = opt_time_limit
    ? cli_double ("time-limit", opt_time_limit, 0, 1e7) : 20.0;
  o->saturate = opt_saturate;
  o->eager = !opt_no_eager;
  o->expected = opt_expected;
  o->raw = opt_raw;
  o->progress = cli_progress_mode (opt_progress, opt_no_progress);
  c->timeout = opt_timeout ? cli_double ("timeout", opt_timeout, 0, 1e7) : 0;
  c->seed = opt_seed ? (uint64_t) cli_int ("seed", opt_seed, 0, INT64_MAX)
                     : 1;
  c->sample = opt_sample ? cli_int ("sample", opt_sample, 1, INT64_MAX) : 0;

  check_sizes_modes (c);
  parse_classes (c);
  c->topology = opt_topology ? opt_topology : "k:2";
  if (opt_all_pairs && (opt_pair || opt_reverse))
    die_usage ("--all-pairs measures every ordered pair: it takes neither "
               "--pair nor --reverse");
  c->pair_i = 0;
  c->pair_j = 1;
  if (opt_pair)
    {
      parse_pair (opt_pair, &c->pair_i, &c->pair_j);
      if (c->pair_i == c->pair_j)
        die_usage ("option '--pair': '%s' names one rank twice", opt_pair);
    }
}

/* --------------------------------------------------------------- pairs */

static struct logp_pair *
make_pairs (const struct config *c, size_t *n)
{
  struct logp_pair *p;
  if (opt_all_pairs)
    {
      p = calloc (logp_npairs (mpu_size), sizeof *p);
      if (p == NULL)
        mpu_die (EXIT_DATA, "out of memory");
      if (c->sample > (int64_t) logp_npairs (mpu_size))
        die_usage ("option '--sample': %lld is more than the %zu ordered "
                   "pairs of %d ranks", (long long) c->sample,
                   logp_npairs (mpu_size), mpu_size);
      *n = logp_pairs (mpu_size, (size_t) c->sample, c->seed, p);
      return p;
    }
  if (c->pair_i >= mpu_size || c->pair_j >= mpu_size)
    die_usage ("option '--pair': rank %d is out of range (the job has %d "
               "ranks: 0 to %d)", c->pair_i >= mpu_size ? c->pair_i
                                                        : c->pair_j,
               mpu_size, mpu_size - 1);
  p = calloc (2, sizeof *p);
  if (p == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  p[0].src = c->pair_i;
  p[0].dst = c->pair_j;
  *n = 1;
  if (opt_reverse)
    {
      p[1].src = c->pair_j;
      p[1].dst = c->pair_i;
      *n = 2;
    }
  return p;
}

/* The sizes chosen by the first pair, to every rank.  */
static void
bcast_sizes (int root, struct lm_sizes *s)
{
  int64_t n = (int64_t) s->n;
  MPI_Comm w = MPI_COMM_WORLD;
  mpu_check (MPI_Bcast (&n, 1, MPI_INT64_T, root, w), "MPI_Bcast");
  if (mpu_rank != root)
    {
      s->n = (size_t) n;
      s->bytes = malloc (((size_t) n + 1) * sizeof (int64_t));
      s->origin = malloc (((size_t) n + 1) * sizeof (int));
      if (s->bytes == NULL || s->origin == NULL)
        mpu_die (EXIT_DATA, "out of memory");
    }
  mpu_check (MPI_Bcast (s->bytes, (int) n, MPI_INT64_T, root, w),
             "MPI_Bcast");
  mpu_check (MPI_Bcast (s->origin, (int) n, MPI_INT, root, w), "MPI_Bcast");
}

/* -------------------------------------------------------------- output */

static const double US = 1e6;

/* ------------------------------------------------------------- gather */

/* Every rank reads a file:PATH topology (so that a missing file is the
   same usage error everywhere) and checks the spec against the job's
   size, before MPI_Init: a spec that does not fit the job is a usage
   error on every rank before any MPI work (msgperf-trees(7)).  */
static void
check_topology (struct config *c)
{
  c->topology_text = ov_check_topology (c->topology, mpu_size);
}

/* The overlay of the spec check_topology accepted (collective).  */
static void
build_overlay (struct config *c, struct overlay *ov)
{
  struct treespec_error err;
  if (ov_build (ov, c->topology, c->topology_text, MPI_COMM_WORLD, &err)
      != 0)
    mpu_die (EXIT_DATA, "option '--topology': %s", err.msg);
}

enum part { PART_HEAD, PART_ROWS, PART_SAMPLES };

/* One upward wave of the concat filter that brings one part of every
   result to rank 0: each rank sends a record {pair, index, packed
   values} per head, row or sample of the pairs it measured (RES[p] on
   the pair's src rank), rank 0 puts each record back in its place.  This
   replaces a point-to-point gather: the overlay's internal ranks merge
   their subtrees' records, so rank 0 receives one packet per child.  */
static void
gather_part (struct overlay *ov, enum part part, struct lm_result *res,
             const struct logp_pair *pairs, size_t npairs)
{
  size_t nf = part == PART_HEAD ? H_NF : part == PART_ROWS ? R_NF : S_NF;
  struct tf_params tp;
  memset (&tp, 0, sizeof tp);
  tp.m = nf + 4;
  size_t nrec = 0;
  for (size_t p = 0; p < npairs; p++)
    if (pairs[p].src == mpu_rank)
      nrec += part == PART_HEAD ? 1 : part == PART_ROWS ? res[p].nrows
                                                         : res[p].nsamples;
  double *rec = malloc ((nrec * tp.m + 1) * sizeof (double));
  if (rec == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  size_t r = 0;
  for (size_t p = 0; p < npairs; p++)
    if (pairs[p].src == mpu_rank)
      {
        size_t n = part == PART_HEAD ? 1 : part == PART_ROWS
          ? res[p].nrows : res[p].nsamples;
        for (size_t k = 0; k < n; k++, r++)
          {
            const double *v = part == PART_HEAD ? res[p].head
              : part == PART_ROWS ? res[p].rows + k * R_NF
              : res[p].samples + k * S_NF;
            rec[r * tp.m] = (double) p;
            rec[r * tp.m + 1] = (double) k;
            logp_pack (v, nf, rec + r * tp.m + 2);
          }
      }
  struct tf_buf mine, all;
  tf_buf_init (&mine);
  tf_buf_init (&all);
  const char *e = tf_concat_rows (&tp, mpu_rank, rec, nrec, &mine);
  if (e == tf_nomem)
    mpu_die (EXIT_DATA, "%s of the results", tf_nomem);
  if (e)
    mpu_die (EXIT_DATA, "gathering the results: %s", e);
  free (rec);
  ov_reduce_packet (ov, TF_CONCAT, &tp, &mine, NULL, &all, NULL);
  tf_buf_free (&mine);
  if (mpu_rank == 0)
    for (size_t i = 0; i + tp.m + 1 <= all.len; i += tp.m + 1)
      {
        const double *x = all.v + i + 1;
        size_t p = (size_t) x[0], k = (size_t) x[1];
        if (!(x[0] >= 0 && p < npairs && x[1] >= 0))
          mpu_die (EXIT_DATA, "gathering the results: bad record");
        struct lm_result *t = &res[p];
        double *dst;
        if (part == PART_HEAD)
          {
            dst = t->head;
            if (t->rows == NULL)  /* a pair measured elsewhere */
              {
                double h[H_NF];
                if (logp_unpack (x + 2, nf, h) != 0)
                  mpu_die (EXIT_DATA, "gathering the results: bad record");
                t->nrows = (size_t) h[H_NROWS];
                t->nsamples = (size_t) h[H_NSAMPLES];
                t->rows = malloc ((t->nrows * R_NF + 1) * sizeof (double));
                t->samples = malloc ((t->nsamples * S_NF + 1)
                                     * sizeof (double));
                if (t->rows == NULL || t->samples == NULL)
                  mpu_die (EXIT_DATA, "out of memory");
              }
          }
        else if (part == PART_ROWS && k < t->nrows)
          dst = t->rows + k * R_NF;
        else if (part == PART_SAMPLES && k < t->nsamples)
          dst = t->samples + k * S_NF;
        else
          mpu_die (EXIT_DATA, "gathering the results: bad record");
        if (logp_unpack (x + 2, nf, dst) != 0)
          mpu_die (EXIT_DATA, "gathering the results: bad record");
      }
  tf_buf_free (&all);
}

/* The results of every pair at rank 0 (heads first: they give the number
   of rows and samples).  Elsewhere RES is freed.  */
static void
gather_results (struct overlay *ov, struct lm_result *res,
                const struct logp_pair *pairs, size_t npairs)
{
  gather_part (ov, PART_HEAD, res, pairs, npairs);
  gather_part (ov, PART_ROWS, res, pairs, npairs);
  if (opt_raw)
    gather_part (ov, PART_SAMPLES, res, pairs, npairs);
  if (mpu_rank != 0)
    for (size_t p = 0; p < npairs; p++)
      lm_result_free (&res[p]);
}

/* The value of pair result R that --classes groups by (microseconds), NaN
   when R has no row of the size asked for.  */
static double
class_value (const struct config *c, const struct lm_result *r)
{
  int f = class_param_field[c->class_by];
  for (size_t k = 0; k < r->nrows; k++)
    {
      const double *x = r->rows + k * R_NF;
      if (c->class_by <= CP_G0 || (int64_t) x[R_BYTES] == c->class_bytes)
        return x[f] * US;
    }
  return NAN;
}

/* --classes: every rank files the links it measured under their class
   (logp_class_key), one upward wave of the bin filter merges the class
   lists, rank 0 gets {key, count, members} per class, members being
   src * P + dst, sorted.  */
static void
gather_classes (struct overlay *ov, const struct config *c,
                const struct lm_result *res, const struct logp_pair *pairs,
                size_t npairs, struct tf_buf *classes)
{
  struct tf_buf mine;
  tf_buf_init (&mine);
  for (size_t p = 0; p < npairs; p++)
    if (pairs[p].src == mpu_rank
        && tf_bin_add (&mine, logp_class_key (class_value (c, &res[p]),
                                              c->class_width), 0,
                       (double) pairs[p].src * mpu_size + pairs[p].dst) < 0)
      mpu_die (EXIT_DATA, "%s of the classes", tf_nomem);
  struct tf_params tp;
  memset (&tp, 0, sizeof tp);
  tp.m = 1;
  ov_reduce_packet (ov, TF_BIN, &tp, &mine, NULL, classes, NULL);
  tf_buf_free (&mine);
}

/* The timer's measured resolution (mpu_timer_resolution, seconds; the
   #@timer_resolution of the metadata), set in main.  */
static double timer_res;

/* msgperf(7), NUMBERS: a time read from the timer (a median or an
   order statistic of single intervals: os, or, rtt and their intervals,
   a raw sample) is printed to the timer's resolution; a value derived
   from several (g = RTT(m) - RTT(0) + g(0), L, g(0) as a mean over n
   messages) to 6 significant digits.  --precision N rounds further.
   Both take microseconds; the summary's values are derived ones.  */
static void
format_time_us (double us, char *buf)
{
  num_format_measured (us, timer_res * US, tsv_precision, buf);
}

static void
format_derived_us (double us, char *buf)
{
  int sig = tsv_precision > 0 && tsv_precision < NUM_DERIVED_DIGITS
    ? tsv_precision : NUM_DERIVED_DIGITS;
  num_format_measured (us, 0, sig, buf);
}

static void
put_time_us (tsv_writer *w, double us)
{
  char buf[NUM_BUFSIZE];
  format_time_us (us, buf);
  tsv_put_str (w, buf);
}

static void
put_derived_us (tsv_writer *w, double us)
{
  char buf[NUM_BUFSIZE];
  format_derived_us (us, buf);
  tsv_put_str (w, buf);
}

/* Is field F of a result row a value derived from several times?  */
static int
derived_field (int f)
{
  return (f >= R_G && f <= R_G_HI) || (f >= R_GSAT && f <= R_GSAT_HI)
         || f == R_L || f == R_G0;
}

/* Row R (seconds) with every time replaced by the value its printed
   text has, so that the row's check agrees with what a reader sees.  */
static void
shown_row (const double *r, double *out)
{
  for (int f = 0; f < R_NF; f++)
    {
      out[f] = r[f];
      if (f < R_OS || f == R_REPS || f == R_STOP || f == R_GSAT_N
          || f == R_GSAT_STOP || !isfinite (r[f]))
        continue;
      char buf[NUM_BUFSIZE];
      double v;
      if (derived_field (f))
        format_derived_us (r[f] * US, buf);
      else
        format_time_us (r[f] * US, buf);
      if (num_parse_str (buf, &v) == NUM_OK)
        out[f] = v / US;
    }
}

static const char *
stop_name (double code)
{
  return stats_stop_name ((enum stats_stop) (int) code);
}

/* g(m) >= o_s(m) and g(m) >= o_r(m) within the intervals (Section 2);
   o_r > g is Section 3.1's unexpected-message effect.  L >= 0: a
   saturated g(0) above RTT(0)/2 contradicts the model.  g(m) >= 0: the
   derived g(m) = RTT(m) - RTT(0) + g(0) falls below 0 when a tiny size's
   round trip is measured faster than the empty one's (timer noise);
   dag-predict -m plogp holds such a gap as 0.  */
static const char *
row_check (const double *r, char *buf, size_t len)
{
  const char *fail[4];
  int n = 0;
  if (!(r[R_G_HI] >= r[R_OS_LO]))
    fail[n++] = "g_lt_os";
  if (!(r[R_G_HI] >= r[R_OR_LO]))
    fail[n++] = "g_lt_or";
  if (!(r[R_L] >= 0))
    fail[n++] = "L_neg";
  if (r[R_G] < 0)
    fail[n++] = "g_neg";
  if (!n)
    return "ok";
  buf[0] = '\0';
  for (int i = 0; i < n; i++)
    snprintf (buf + strlen (buf), len - strlen (buf), "%s%s", i ? "," : "",
              fail[i]);
  return buf;
}

static void
write_rows (tsv_writer *w, struct lm_result *res, size_t nres,
            const struct config *c)
{
  const char *cols[40];
  size_t n = 0;
  const char *base[] = { "src", "dst", "bytes", "origin", "os", "os_ci_lo",
    "os_ci_hi", "or", "or_ci_lo", "or_ci_hi", "g", "g_ci_lo", "g_ci_hi",
    "rtt", "rtt_ci_lo", "rtt_ci_hi", "reps", "stop", "L", "g0", "check" };
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
    cols[n++] = base[i];
  if (c->o.expected)
    {
      cols[n++] = "or_exp";
      cols[n++] = "or_exp_ci_lo";
      cols[n++] = "or_exp_ci_hi";
    }
  if (c->o.saturate)
    {
      cols[n++] = "g_sat";
      cols[n++] = "g_sat_ci_lo";
      cols[n++] = "g_sat_ci_hi";
      cols[n++] = "g_sat_n";
      cols[n++] = "g_sat_stop";
    }
  tsv_write_header (w, n, cols);
  for (size_t p = 0; p < nres; p++)
    for (size_t k = 0; k < res[p].nrows; k++)
      {
        double r[R_NF];
        shown_row (res[p].rows + k * R_NF, r);
        tsv_put_int (w, (int64_t) r[R_SRC]);
        tsv_put_int (w, (int64_t) r[R_DST]);
        tsv_put_int (w, (int64_t) r[R_BYTES]);
        tsv_put_str (w, logp_origin_name ((enum logp_origin) (int)
                                          r[R_ORIGIN]));
        for (int f = R_OS; f <= R_RTT_HI; f++)
          if (derived_field (f))
            put_derived_us (w, r[f] * US);
          else
            put_time_us (w, r[f] * US);
        tsv_put_int (w, (int64_t) r[R_REPS]);
        tsv_put_str (w, stop_name (r[R_STOP]));
        put_derived_us (w, r[R_L] * US);
        put_derived_us (w, r[R_G0] * US);
        char check[64];
        tsv_put_str (w, row_check (r, check, sizeof check));
        if (r[R_L] < 0)
          warn_once ("L_neg", "pair %d->%d: L = (RTT(0) - 2 g(0))/2 < 0: "
                     "the saturated g(0) exceeds RTT(0)/2 (rows flagged "
                     "L_neg)", (int) r[R_SRC], (int) r[R_DST]);
        if (r[R_G] < 0)
          warn_once ("g_neg", "pair %d->%d: g(m) = RTT(m) - RTT(0) + g(0) "
                     "< 0 at some size: its round trip was measured below "
                     "the empty one's (rows flagged g_neg)",
                     (int) r[R_SRC], (int) r[R_DST]);
        if (c->o.expected)
          for (int f = R_OREXP; f <= R_OREXP_HI; f++)
            put_time_us (w, r[f] * US);
        if (c->o.saturate)
          {
            for (int f = R_GSAT; f <= R_GSAT_HI; f++)
              put_derived_us (w, r[f] * US);
            tsv_put_int (w, (int64_t) r[R_GSAT_N]);
            tsv_put_str (w, stop_name (r[R_GSAT_STOP]));
          }
        tsv_end_row (w);
      }
}

static void
write_raw (tsv_writer *w, struct lm_result *res, size_t nres,
           const struct logp_pair *pairs)
{
  static const char *const qname[Q_NQTY] = { "os", "rtt", "or", "or_exp",
                                             "rtt_n" };
  const char *cols[] = { "src", "dst", "bytes", "quantity", "n", "rep", "t" };
  tsv_write_header (w, 7, cols);
  for (size_t p = 0; p < nres; p++)
    for (size_t k = 0; k < res[p].nsamples; k++)
      {
        const double *s = res[p].samples + k * S_NF;
        tsv_put_int (w, pairs[p].src);
        tsv_put_int (w, pairs[p].dst);
        tsv_put_int (w, (int64_t) s[S_BYTES]);
        tsv_put_str (w, qname[(int) s[S_QTY]]);
        tsv_put_int (w, (int64_t) s[S_N]);
        tsv_put_int (w, (int64_t) s[S_REP]);
        put_time_us (w, s[S_T] * US);
        tsv_end_row (w);
      }
}

static void
to_logp_rows (const struct lm_result *r, struct logp_row *out)
{
  for (size_t k = 0; k < r->nrows; k++)
    {
      const double *x = r->rows + k * R_NF;
      out[k].bytes = (int64_t) x[R_BYTES];
#define EST(dst, at) \
      out[k].dst.med = x[at] * US, out[k].dst.lo = x[at + 1] * US, \
      out[k].dst.hi = x[at + 2] * US
      EST (os, R_OS);
      EST (o_r, R_OR);
      EST (g, R_G);
      EST (rtt, R_RTT);
      EST (or_exp, R_OREXP);
#undef EST
    }
}

/* The LogGP summary (Table 1 with the rules of logp_params.h) of one
   pair's result R, times in microseconds.  */
static void
summarize (const struct lm_result *r, const struct config *c,
           struct loggp *out)
{
  struct logp_row *rows = calloc (r->nrows + 1, sizeof *rows);
  if (rows == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  to_logp_rows (r, rows);
  struct loggp_cfg cfg;
  memset (&cfg, 0, sizeof cfg);
  cfg.short_size = c->o.min_bytes;
  cfg.tick = c->o.tick * US;
  cfg.max_segments = 6;
  cfg.cpu_wait = r->head[H_CPU_WAIT];
  cfg.L_p.med = cfg.L_p.lo = cfg.L_p.hi = NAN;
  if (r->nrows)
    {
      /* L_p = (RTT(0) - 2 g(0))/2 (Section 3), its interval from those of
         RTT(0) and g(0) (the row of size 0).  */
      double L = r->rows[R_L] * US, hw = 0;
      for (size_t k = 0; k < r->nrows; k++)
        if (rows[k].bytes == 0)
          hw = (rows[k].rtt.hi - rows[k].rtt.lo) / 4
               + (rows[k].g.hi - rows[k].g.lo) / 2;
      if (!(hw >= 0) || !isfinite (hw))
        hw = 0;
      cfg.L_p.med = L;
      cfg.L_p.lo = L - hw;
      cfg.L_p.hi = L + hw;
    }
  if (loggp_derive (rows, r->nrows, &cfg, out) < 0)
    mpu_die (EXIT_DATA, "out of memory while deriving the LogGP parameters");
  out->S = r->head[H_S];
  free (rows);
}

/* V to 6 significant digits (a derived value: msgperf(7), NUMBERS), or to
   --precision when that is given.  */
static void
put_derived (tsv_writer *w, double v)
{
  if (!isfinite (v))
    {
      tsv_put_na (w);
      return;
    }
  char buf[NUM_BUFSIZE];
  num_format (v, tsv_precision >= 1 ? tsv_precision : 6, buf);
  tsv_put_str (w, buf);
}

static const char *
sig6 (double v, char *buf)
{
  if (!isfinite (v))
    return "NA";
  num_format (v, 6, buf);
  return buf;
}

/* What the checks of one summary found, by how much (metadata).  */
static void
summary_meta (tsv_writer *w, const struct loggp *s, const char *who)
{
  char a[NUM_BUFSIZE], b[NUM_BUFSIZE], d[NUM_BUFSIZE], e[NUM_BUFSIZE];
  char f[NUM_BUFSIZE], h[NUM_BUFSIZE];
  tsv_meta (w, "G_fit", "%s: bytes %lld..%lld (%zu sizes, last of %zu "
            "segments), G %s, intercept %s, halves %s and %s (tolerance "
            "%s), g(m)/m at %lld: %s", who, (long long) s->fit_from,
            (long long) s->fit_to, s->fit_n, s->segments, sig6 (s->G, a),
            sig6 (s->G_intercept, b), sig6 (s->G_lo, d), sig6 (s->G_hi, e),
            sig6 (s->G_tol, f), (long long) s->fit_to,
            sig6 (s->g_over_m, h));
  if (isfinite (s->cpu_wait))
    tsv_meta (w, "check_cpu", "%s: the ranks waited for a CPU %s of the "
              "time (limit %g): %s", who, sig6 (s->cpu_wait, a),
              LOGGP_CPU_WAIT_MAX, s->flags & LOGGP_CPU_SHARED
              ? "cores shared, every parameter may be off (cpu_shared)"
              : "ok");
  if (s->flags & LOGGP_NO_SMALL)
    return;
  tsv_meta (w, "check_g", "%s: max(os, or) - g(1) = %s (tolerance %s): %s",
            who, sig6 (s->g_excess, a), sig6 (s->g_tol, b),
            s->g_excess <= 0 ? "g >= os, or"
            : s->flags & LOGGP_G_RAISED ? "g raised (g_raised)"
            : "g raised within the tolerance");
  tsv_meta (w, "check_L", "%s: Table 1 L = %s (tolerance %s): %s", who,
            sig6 (s->L_table, a), sig6 (s->L_tol, b),
            s->L_table >= 0 ? "L >= 0"
            : s->flags & LOGGP_L_CLAMPED ? "clamped to 0 (L_clamped)"
            : "clamped to 0 within the tolerance");
  tsv_meta (w, "L_rtt", "%s: RTT(1)/2 - o = %s", who, sig6 (s->L_rtt, a));
}

/* The quantities of the summary with a spread column under --repeat.  */
enum { SP_L, SP_O, SP_G, SP_BIGG, SP_N };

static void
write_summary (tsv_writer *w, const struct loggp *sum, size_t nres,
               const struct logp_pair *pairs, const struct config *c)
{
  const char *cols[32] = { "src", "dst", "P", "L", "o", "g", "G", "os",
                           "or", "g_raw", "L_table", "G_intercept", "S",
                           "check" };
  size_t ncol = 14;
  static const char *const spread[] = { "L_min", "L_max", "o_min", "o_max",
                                        "g_min", "g_max", "G_min", "G_max" };
  size_t nrep = (size_t) c->repeat;
  if (opt_repeat)
    {
      cols[ncol++] = "runs";
      for (size_t k = 0; k < sizeof spread / sizeof spread[0]; k++)
        cols[ncol++] = spread[k];
      tsv_meta (w, "repeat", "%s", opt_repeat);
    }
  for (size_t p = 0; p < nres; p++)
    for (size_t r = 0; r < nrep; r++)
      {
        char who[64];
        if (nrep > 1)
          snprintf (who, sizeof who, "pair %d->%d run %zu", pairs[p].src,
                    pairs[p].dst, r + 1);
        else
          snprintf (who, sizeof who, "pair %d->%d", pairs[p].src,
                    pairs[p].dst);
        summary_meta (w, &sum[r * nres + p], who);
      }
  tsv_write_header (w, ncol, cols);
  double *v = malloc ((nrep + 1) * sizeof *v);
  if (v == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  for (size_t p = 0; p < nres; p++)
    {
      /* One run: its values; several: the medians, the flags of any.  */
      double med[9], lo[SP_N], hi[SP_N];
      unsigned flags = 0;
      for (size_t r = 0; r < nrep; r++)
        flags |= sum[r * nres + p].flags;
      /* In column order; the first SP_N have spread columns.  */
      for (int q = 0; q < 9; q++)
        {
          for (size_t r = 0; r < nrep; r++)
            {
              const struct loggp *s = &sum[r * nres + p];
              const double x[9] = { s->L, s->o, s->g, s->G, s->os, s->o_r,
                                    s->g_raw, s->L_table, s->G_intercept };
              v[r] = x[q];
            }
          double mn, mx;
          loggp_spread (v, nrep, &med[q], &mn, &mx);
          if (q < SP_N)
            lo[q] = mn, hi[q] = mx;
        }
      /* S in bytes, the median of the runs to the byte below.  */
      double S, smin, smax;
      for (size_t r = 0; r < nrep; r++)
        v[r] = sum[r * nres + p].S;
      loggp_spread (v, nrep, &S, &smin, &smax);
      char check[128];
      loggp_check_text (flags, check, sizeof check);
      if (flags)
        warn ("pair %d->%d: LogGP summary flagged (%s): logp-measure(1) "
              "gives the rule behind each flagged value", pairs[p].src,
              pairs[p].dst, check);
      tsv_put_int (w, pairs[p].src);
      tsv_put_int (w, pairs[p].dst);
      tsv_put_int (w, mpu_size);
      for (int q = 0; q < 9; q++)
        put_derived (w, med[q]);
      if (isfinite (S))
        tsv_put_int (w, (int64_t) floor (S));
      else
        tsv_put_na (w);
      tsv_put_str (w, check);
      if (opt_repeat)
        {
          tsv_put_int (w, (int64_t) nrep);
          for (int q = 0; q < SP_N; q++)
            {
              put_derived (w, lo[q]);
              put_derived (w, hi[q]);
            }
        }
      tsv_end_row (w);
    }
  free (v);
}

/* Pair runs that the time limit stopped (rank 0, every --repeat run).  */
static size_t limited_runs;

/* The layout of the buffers every pair measured with (main).  */
static struct msgbuf_layout buf_layout;

/* "#@KEY=V" with V in the shortest round-trip form.  */
static void
meta_num (tsv_writer *w, const char *key, double v)
{
  char buf[NUM_BUFSIZE];
  num_format (v, -1, buf);
  tsv_meta (w, key, "%s", buf);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* A --classes value V (us) of parameter C->class_by: L, g0 and g are
   derived from several times (6 significant digits), os, or and rtt
   are timer readings (the timer's resolution); MEAN: a mean of two.  */
static void
put_class_value (tsv_writer *w, const struct config *c, double v, int mean)
{
  int derived = c->class_by == CP_L || c->class_by == CP_G0
                || c->class_by == CP_G;
  if (derived || mean)
    put_derived_us (w, v);
  else
    put_time_us (w, v);
}

/* --classes: one row per class of the bin packet CLASSES (rank 0's
   result of gather_classes), in key order (not measured, not positive,
   then the positive classes from the smallest value up).  */
static void
write_classes (tsv_writer *w, const struct lm_result *res, size_t nres,
               const struct logp_pair *pairs, const struct config *c,
               const struct tf_buf *classes)
{
  const char *cols[] = { "class", "param", "bytes", "lo", "hi", "value",
                         "min", "max", "count", "members" };
  const char *param = class_param_name[c->class_by];
  tsv_meta (w, "classes", "%zu (of %zu links, by %s; each [lo, hi) spans "
            "a factor 1+W)", tf_bin_nclasses (classes->v, classes->len),
            nres, param);
  meta_num (w, "class_width", c->class_width);
  tsv_write_header (w, sizeof cols / sizeof cols[0], cols);
  double *vals = malloc ((nres + 1) * sizeof (double));
  size_t mlen = 0, mcap = 64;
  char *members = malloc (mcap);
  if (vals == NULL || members == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  size_t nclass = 0;
  for (size_t i = 0; i + 2 <= classes->len; nclass++)
    {
      double key = classes->v[i];
      size_t count = (size_t) classes->v[i + 1], nv = 0;
      const double *ids = classes->v + i + 2;
      i += 2 + count;
      if (i > classes->len)
        mpu_die (EXIT_DATA, "classes: bad packet");
      mlen = 0;
      members[0] = '\0';
      for (size_t k = 0; k < count; k++)
        {
          int src = (int) ids[k] / mpu_size, dst = (int) ids[k] % mpu_size;
          for (size_t p = 0; p < nres; p++)
            if (pairs[p].src == src && pairs[p].dst == dst)
              {
                double v = class_value (c, &res[p]);
                if (isfinite (v))
                  vals[nv++] = v;
              }
          char one[64];
          int n = snprintf (one, sizeof one, "%s%d-%d", k ? "," : "", src,
                            dst);
          while (mlen + (size_t) n + 1 > mcap)
            {
              char *m = realloc (members, mcap *= 2);
              if (m == NULL)
                mpu_die (EXIT_DATA, "out of memory");
              members = m;
            }
          memcpy (members + mlen, one, (size_t) n + 1);
          mlen += (size_t) n;
        }
      qsort (vals, nv, sizeof *vals, cmp_double);
      double lo = NAN, hi = NAN;
      if (key == LOGP_CLASS_NONPOS)
        hi = 0;
      else if (key != LOGP_CLASS_NA)
        logp_class_bounds (key, c->class_width, &lo, &hi);
      if (key == LOGP_CLASS_NA && c->class_by <= CP_G0)
        warn ("%zu link(s) have no %s: class %zu (value NA)", count, param,
              nclass + 1);
      else if (key == LOGP_CLASS_NA)
        warn ("%zu link(s) have no %s at %lld bytes (--class-bytes; not a "
              "measured size): class %zu (value NA)", count, param,
              (long long) c->class_bytes, nclass + 1);
      tsv_put_int (w, (int64_t) nclass + 1);
      tsv_put_str (w, param);
      if (c->class_by <= CP_G0)
        tsv_put_num (w, NAN);
      else
        tsv_put_int (w, c->class_bytes);
      tsv_put_num (w, lo);
      tsv_put_num (w, hi);
      /* The median, smallest and largest of the members' values, with
         the digits those have (timer readings or derived values);
         the median of an even count is a mean: 6 digits.  */
      double med = nv == 0 ? NAN : nv % 2 ? vals[nv / 2]
                   : (vals[nv / 2 - 1] + vals[nv / 2]) / 2;
      put_class_value (w, c, med, nv > 0 && nv % 2 == 0);
      put_class_value (w, c, nv ? vals[0] : NAN, 0);
      put_class_value (w, c, nv ? vals[nv - 1] : NAN, 0);
      tsv_put_int (w, (int64_t) count);
      tsv_put_str (w, members);
      tsv_end_row (w);
    }
  free (vals);
  free (members);
}

/* The time limit of the size selection, and each pair it stopped.  */
static void
meta_time_limit (tsv_writer *w, const struct lm_result *res, size_t nres,
                 const struct logp_pair *pairs, const struct config *c)
{
  if (opt_time_limit)
    tsv_meta (w, "time_limit_s", "%s", opt_time_limit);
  else
    meta_num (w, "time_limit_s", c->o.time_limit);
  for (size_t p = 0; p < nres; p++)
    {
      const double *h = res[p].head;
      if ((int) h[H_LIMITED] == LOGP_STAGE_NONE)
        continue;
      char t[NUM_BUFSIZE];
      num_format_measured (h[H_T_SELECT], timer_res, NUM_DERIVED_DIGITS, t);
      tsv_meta (w, "time_limit_reached", "pair %d %d: size selection "
                "stopped at the time limit after %s s (%s stage, before "
                "bytes %lld)%s", pairs[p].src, pairs[p].dst, t,
                logp_stage_name ((enum logp_stage) (int) h[H_LIMITED]),
                (long long) h[H_SKIPPED],
                (int) h[H_LIMITED] == LOGP_STAGE_GROWTH
                ? ": g(m)/m was still falling" : "");
    }
  if (limited_runs > 0 && c->repeat > 1)
    tsv_meta (w, "time_limit_runs", "%zu of %lld runs x %zu pairs stopped "
              "at the time limit", limited_runs, (long long) c->repeat, nres);
}

/* One line per pair (its hosts, L, g0, sizes), summing the phases' times
   into *T_G0, *T_SIZES, *T_SAT.  */
static void
meta_pairs (tsv_writer *w, const struct lm_result *res, size_t nres,
            const struct logp_pair *pairs, const char *hosts, double *t_g0,
            double *t_sizes, double *t_sat, double *t_eager)
{
  for (size_t p = 0; p < nres; p++)
    {
      const double *h = res[p].head;
      int s = pairs[p].src, d = pairs[p].dst;
      double L = res[p].nrows ? res[p].rows[R_L] : NAN;
      double g0 = res[p].nrows ? res[p].rows[R_G0] : NAN;
      char a[NUM_BUFSIZE], b[NUM_BUFSIZE], cw[NUM_BUFSIZE];
      num_format_measured (L * US, 0, NUM_DERIVED_DIGITS, a);
      num_format_measured (g0 * US, 0, NUM_DERIVED_DIGITS, b);
      num_format_measured (h[H_CPU_WAIT], 0, 3, cw);
      tsv_meta (w, "pair", "%d %d hosts=%s,%s L=%s g0=%s g0_messages=%lld "
                "g0_stop=%s sizes=%zu grown=%lld refined=%lld cpu_wait=%s",
                s, d,
                hosts + (size_t) s * MPI_MAX_PROCESSOR_NAME,
                hosts + (size_t) d * MPI_MAX_PROCESSOR_NAME, a, b,
                (long long) h[H_G0_N], stop_name (h[H_G0_STOP]),
                res[p].nrows, (long long) h[H_NGROWN],
                (long long) h[H_NREFINED], cw);
      if (isfinite (h[H_S]))
        {
          char bz[NUM_BUFSIZE];
          num_format_measured (h[H_S_BUSY] * US, 0, NUM_DERIVED_DIGITS,
                               bz);
          tsv_meta (w, "eager", "%d %d S=%lld first_wait=%lld busy=%s "
                    "probes=%lld disputed=%lld%s", s, d, (long long) h[H_S],
                    (long long) h[H_S_WAIT], bz, (long long) h[H_S_PROBES],
                    (long long) h[H_S_DISPUTED],
                    h[H_S_WAIT] < 0 ? " (no size up to --max-bytes waited: "
                    "S is a lower bound)" : "");
        }
      if (nres == 1)
        {
          tsv_meta (w, "L", "%s", a);
          tsv_meta (w, "g0", "%s", b);
          if (isfinite (h[H_S]))
            tsv_meta (w, "S", "%lld", (long long) h[H_S]);
        }
      *t_g0 += h[H_T_G0];
      *t_sizes += h[H_T_SIZES];
      *t_sat += h[H_T_SAT];
      *t_eager += h[H_T_EAGER];
    }
}

static void
write_output (struct lm_result *res, size_t nres,
              const struct logp_pair *pairs, const struct config *c,
              const char *hosts, double total, double t_gather,
              double load0, double load1, const struct tf_buf *classes,
              const struct loggp *sum)
{
  tsv_writer *w = mpu_rank == 0 ? tsv_writer_open (NULL) : NULL;
  if (w)
    tsv_write_tool_meta (w, NULL);
  mpu_write_meta (w);   /* collective */
  if (mpu_rank != 0)
    return;
  tsv_meta_time_unit (w, "us");
  tsv_meta (w, "method", "Kielmann, Bal, Verstoep fast LogP measurement%s",
            c->o.saturate ? ", and g(m) by saturation" : "");
  meta_num (w, "epsilon", c->o.eps);
  tsv_meta (w, "buffers", "bytes=%zu page=%zu send_page_offset=%zu "
            "recv_page_offset=%zu cache_line=%zu shared_lines=%zu "
            "overlap=%d", buf_layout.bytes, buf_layout.page,
            buf_layout.send_page_offset, buf_layout.recv_page_offset,
            buf_layout.line, buf_layout.shared_lines, buf_layout.overlap);
  tsv_meta (w, "seed", "%llu", (unsigned long long) c->seed);
  tsv_meta (w, "sizes_bytes", "%lld..%lld (start %lld)",
            (long long) c->o.min_bytes, (long long) c->o.max_bytes,
            (long long) c->o.start_max);
  tsv_meta (w, "max_reps", "%lld small, %lld from %lld bytes",
            (long long) c->o.max_reps, (long long) c->o.max_reps_large,
            (long long) c->o.large_bytes);
  tsv_meta (w, "pairs", "%zu", nres);
  meta_time_limit (w, res, nres, pairs, c);
  double t_g0 = 0, t_sizes = 0, t_sat = 0, t_eager = 0;
  meta_pairs (w, res, nres, pairs, hosts, &t_g0, &t_sizes, &t_sat,
              &t_eager);
  meta_num (w, "phase_g0_s", t_g0);
  meta_num (w, "phase_sizes_s", t_sizes);
  if (c->o.saturate)
    meta_num (w, "phase_saturate_s", t_sat);
  if (c->o.eager)
    meta_num (w, "phase_eager_s", t_eager);
  meta_num (w, "time_total_s", total);
  tsv_meta (w, "gather", "overlay %s, concat filter%s", c->topology,
            opt_classes ? ", bin filter" : "");
  meta_num (w, "phase_gather_s", t_gather);
  if (isfinite (load0) && isfinite (load1))
    {
      char a[NUM_BUFSIZE], b[NUM_BUFSIZE];
      num_format (load0, -1, a);
      num_format (load1, -1, b);
      tsv_meta (w, "load_average", "%s at start, %s at end (rank 0's host, "
                "1 minute)", a, b);
    }

  if (opt_raw)
    write_raw (w, res, nres, pairs);
  else if (opt_summary)
    write_summary (w, sum, nres, pairs, c);
  else if (opt_classes)
    write_classes (w, res, nres, pairs, c, classes);
  else
    write_rows (w, res, nres, c);
  tsv_writer_close (w);
}

/* The 1-minute load average (Linux), or NaN: a loaded machine makes
   every time here longer and noisier, so the stream records it.  */
static double
load_average (void)
{
  double v = NAN;
  FILE *fp = fopen ("/proc/loadavg", "r");
  if (fp != NULL)
    {
      char line[128];
      if (fgets (line, sizeof line, fp) != NULL)
        {
          char *sp = strchr (line, ' ');
          if (sp != NULL)
            *sp = '\0';
          if (num_parse_str (line, &v) != NUM_OK)
            v = NAN;
        }
      fclose (fp);
    }
  return v;
}

/* ---------------------------------------------------------------- main */

/* Every rank's host name, gathered on every rank.  */
static char *
gather_hosts (void)
{
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  memset (name, 0, sizeof name);
  MPI_Get_processor_name (name, &len);
  char *hosts = xcalloc ((size_t) mpu_size, MPI_MAX_PROCESSOR_NAME);
  mpu_check (MPI_Allgather (name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, hosts,
                            MPI_MAX_PROCESSOR_NAME, MPI_CHAR,
                            MPI_COMM_WORLD), "MPI_Allgather");
  return hosts;
}

/* One launch's measurement: the pairs, the buffers, the results.  */
struct lm_run
{
  struct config *c;
  struct logp_pair *pairs;
  size_t npairs;
  struct overlay *ov;
  char *sbuf, *rbuf;
  struct lm_result *res;       /* per pair */
  struct loggp *sum;           /* per run and pair (--summary) */
  struct lm_sizes sizes;       /* the first pair's sizes, for the others */
  struct tf_buf classes;       /* --classes */
  double total, t_gather;      /* seconds measuring, gathering */
};

/* The mirror's share of waiting for a CPU; tags 101 and 102 are the
   protocol's (logp_proto.c).  */
enum { TAG_CPU_WAIT = 103 };

/* The share of the pair's time that its busier rank spent waiting for a
   CPU (cpuwait.h), sent by the mirror D to the measure rank S, which
   keeps the larger of the two in RES.  A NaN travels as NaN.  */
static void
pair_cpu_wait (int s, int d, double share, struct lm_result *res)
{
  if (mpu_rank == d)
    {
      mpu_check (MPI_Send (&share, 1, MPI_DOUBLE, s, TAG_CPU_WAIT,
                           MPI_COMM_WORLD), "MPI_Send");
      return;
    }
  double other;
  mpu_check (MPI_Recv (&other, 1, MPI_DOUBLE, d, TAG_CPU_WAIT,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE), "MPI_Recv");
  res->head[H_CPU_WAIT] = isnan (share) || isnan (other) ? NAN
                          : fmax (share, other);
}

/* The whole procedure once (run REP of --repeat): every pair in turn, then
   the results gathered on rank 0 and summarized there.  */
static void
measure_once (struct lm_run *r, size_t rep)
{
  struct config *c = r->c;
  if (rep > 0)
    {
      /* --repeat: the sizes are chosen anew */
      for (size_t p = 0; p < r->npairs; p++)
        lm_result_free (&r->res[p]);
      free (r->sizes.bytes);
      free (r->sizes.origin);
      memset (&r->sizes, 0, sizeof r->sizes);
    }
  mpu_barrier ();
  double t0 = MPI_Wtime ();
  for (size_t p = 0; p < r->npairs; p++)
    {
      int s = r->pairs[p].src, d = r->pairs[p].dst;
      double run0, wait0, run1, wait1, w0 = MPI_Wtime ();
      cpuwait_read (&run0, &wait0);
      /* The result stays on the measure rank until the gather.  */
      if (mpu_rank == s)
        lm_measure (&c->o, s, d, r->sbuf, r->rbuf,
                    p == 0 ? NULL : &r->sizes, p == 0 ? &r->sizes : NULL,
                    &r->res[p]);
      else if (mpu_rank == d)
        lm_mirror (&c->o, s, r->sbuf, r->rbuf);
      cpuwait_read (&run1, &wait1);
      if (mpu_rank == s || mpu_rank == d)
        pair_cpu_wait (s, d, cpuwait_share (wait0, wait1, MPI_Wtime () - w0),
                       &r->res[p]);
      if (p == 0 && r->npairs > 1)
        bcast_sizes (s, &r->sizes);
      /* One pair at a time: the next does not disturb this one.  */
      mpu_barrier ();
    }
  r->total += MPI_Wtime () - t0;

  double t1 = MPI_Wtime ();
  if (opt_classes)
    gather_classes (r->ov, c, r->res, r->pairs, r->npairs, &r->classes);
  gather_results (r->ov, r->res, r->pairs, r->npairs);
  r->t_gather += MPI_Wtime () - t1;
  if (mpu_rank != 0)
    return;
  for (size_t p = 0; p < r->npairs; p++)
    if ((int) r->res[p].head[H_LIMITED] != LOGP_STAGE_NONE)
      limited_runs++;
  if (opt_summary)
    for (size_t p = 0; p < r->npairs; p++)
      summarize (&r->res[p], c, &r->sum[rep * r->npairs + p]);
}

int
main (int argc, char **argv)
{
  cli_init (PROGRAM, argc, argv);
  /* Options first, on every rank, MPI_Init after them: a usage error
     ends every rank with status 2 before any joins the job (mpiutil.h).  */
  mpu_preinit (&argc, &argv);
  struct config c;
  parse (argc, argv, &c);

  if (mpu_size < 2)
    die ("needs at least 2 MPI processes, the job has %d (run it as "
         "'mpirun -np 2 %s')", mpu_size, PROGRAM);
  struct lm_run r = { .c = &c };
  r.pairs = make_pairs (&c, &r.npairs);
  check_topology (&c);
  mpu_init (&argc, &argv);
  mpu_timeout (c.timeout);
  struct overlay ov;
  build_overlay (&c, &ov);
  r.ov = &ov;

  /* Testing aid (documented in the man page): this rank stops answering,
     as a hung partner would.  */
  const char *stall = getenv ("LOGP_MEASURE_STALL_RANK");
  if (stall != NULL && *stall && atoi (stall) == mpu_rank)
    for (;;)
      pause ();

  c.o.timer_ovh = mpu_timer_overhead ();
  /* The step of the clock, not MPI_Wtick's unit (mpiutil.h): the size
     selection's absolute tolerance and the rounding of the output.  */
  c.o.tick = timer_res = mpu_timer_resolution ();

  /* A send and a receive buffer (logp_proto.c says why), each on its own
     pages (msgbuf.h): the receive buffer once sat at an odd address right
     after the send buffer, and Open MPI's shared-memory single copy into
     it made RTT(64 KiB) 25.6 us against 7.5 us aligned.  The metadata
     records the layout of exactly the addresses measured with.  */
  size_t blen = (size_t) c.o.max_bytes;
  msgbuf_pair (blen, &r.sbuf, &r.rbuf);
  msgbuf_check ((uintptr_t) r.sbuf, (uintptr_t) r.rbuf, blen,
                msgbuf_page_size (), msgbuf_line_size (), &buf_layout);
  r.res = xcalloc (r.npairs + 1, sizeof *r.res);
  char *hosts = gather_hosts ();

  double load0 = mpu_rank == 0 ? load_average () : NAN;
  size_t nrep = (size_t) c.repeat;
  r.sum = xcalloc (nrep * r.npairs + 1, sizeof *r.sum);
  tf_buf_init (&r.classes);
  /* --repeat: the whole procedure N times; the last run's rows give the
     metadata, every run a summary.  */
  for (size_t rep = 0; rep < nrep; rep++)
    measure_once (&r, rep);
  double load1 = mpu_rank == 0 ? load_average () : NAN;

  write_output (r.res, r.npairs, r.pairs, &c, hosts, r.total, r.t_gather,
                load0, load1, &r.classes, r.sum);

  for (size_t p = 0; p < r.npairs; p++)
    lm_result_free (&r.res[p]);
  free (r.res);
  free (r.sum);
  free (r.sizes.bytes);
  free (r.sizes.origin);
  tf_buf_free (&r.classes);
  ov_free (&ov);
  free (c.topology_text);
  free (r.pairs);
  free (hosts);
  free (r.sbuf);
  free (r.rbuf);
  mpu_finalize ();
  return 0;
}
