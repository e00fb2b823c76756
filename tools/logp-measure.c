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
#include "logp_report.h"
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
check_sizes_modes (struct lm_config *c)
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
parse_classes (struct lm_config *c)
{
  struct lm_opts *o = &c->o;
  c->class_width = opt_class_width
    ? cli_double ("class-width", opt_class_width, 1e-6, 1e6) : 0.1;
  c->class_by = CP_L;
  if (opt_class_by)
    {
      int k = 0;
      while (k < CP_N && strcmp (lm_class_param_name[k], opt_class_by) != 0)
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
               lm_class_param_name[c->class_by]);
}

static void
parse (int argc, char **argv, struct lm_config *c)
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
  c->repeat_text = opt_repeat;
  c->time_limit_text = opt_time_limit;
  c->summary = opt_summary;
  c->classes = opt_classes;

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
make_pairs (const struct lm_config *c, size_t *n)
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

/* ------------------------------------------------------------- gather */

/* Every rank reads a file:PATH topology (so that a missing file is the
   same usage error everywhere) and checks the spec against the job's
   size, before MPI_Init: a spec that does not fit the job is a usage
   error on every rank before any MPI work (msgperf-trees(7)).  */
static void
check_topology (struct lm_config *c)
{
  c->topology_text = ov_check_topology (c->topology, mpu_size);
}

/* The overlay of the spec check_topology accepted (collective).  */
static void
build_overlay (struct lm_config *c, struct overlay *ov)
{
  struct treespec_error err;
  if (ov_build (ov, c->topology, c->topology_text, MPI_COMM_WORLD, &err)
      != 0)
    mpu_die (EXIT_DATA, "option '--topology': %s", err.msg);
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
  struct lm_config *c;
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
  struct lm_config *c = r->c;
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
    lm_gather_classes (r->ov, c, r->res, r->pairs, r->npairs, &r->classes);
  lm_gather_results (r->ov, r->res, r->pairs, r->npairs, c->o.raw);
  r->t_gather += MPI_Wtime () - t1;
  if (mpu_rank != 0)
    return;
  for (size_t p = 0; p < r->npairs; p++)
    if ((int) r->res[p].head[H_LIMITED] != LOGP_STAGE_NONE)
      c->limited_runs++;
  if (opt_summary)
    for (size_t p = 0; p < r->npairs; p++)
      lm_summarize (&r->res[p], c, &r->sum[rep * r->npairs + p]);
}

int
main (int argc, char **argv)
{
  cli_init (PROGRAM, argc, argv);
  /* Options first, on every rank, MPI_Init after them: a usage error
     ends every rank with status 2 before any joins the job (mpiutil.h).  */
  mpu_preinit (&argc, &argv);
  struct lm_config c;
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
  c.o.tick = c.timer_res = mpu_timer_resolution ();

  /* A send and a receive buffer (logp_proto.c says why), each on its own
     pages (msgbuf.h): the receive buffer once sat at an odd address right
     after the send buffer, and Open MPI's shared-memory single copy into
     it made RTT(64 KiB) 25.6 us against 7.5 us aligned.  The metadata
     records the layout of exactly the addresses measured with.  */
  size_t blen = (size_t) c.o.max_bytes;
  msgbuf_pair (blen, &r.sbuf, &r.rbuf);
  msgbuf_check ((uintptr_t) r.sbuf, (uintptr_t) r.rbuf, blen,
                msgbuf_page_size (), msgbuf_line_size (), &c.buf_layout);
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

  lm_write_output (r.res, r.npairs, r.pairs, &c, hosts, r.total, r.t_gather,
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
