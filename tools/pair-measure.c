/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pair-measure: the rate of every ordered pair of ranks (one per host),
 * alone and two pairs at a time, the per-pair matrix of a cluster.
 *
 * A test is one pair, or two pairs with four distinct ranks measured at
 * the same time: two pairs that cross one link share it and each get
 * about half its rate, which no pair measured alone shows (and what
 * topo-infer reads the shared links from).  In a test every receiver
 * posts --count receives of --bytes and tells its sender to go; the
 * sender posts the messages at once; the receiver notes when each one
 * completes, and the rate is (count - 1) * bytes over the time from the
 * first message's completion (its last poll before) to the last: the
 * first message pays the start (latency, the rendezvous, a token
 * bucket's burst, TCP's slow start), the others flow at the rate of
 * the path.  Ranks out of a test
 * wait in a sleeping barrier, so that on a machine with fewer cores
 * than ranks the measured ranks get the CPUs.  An exchange is a pair's
 * two directions at once (a -> b with b -> a): on a full-duplex link
 * each gets its rate alone, where the programs' transport can use both
 * directions at once; half of it where the two take turns.  Every test is run --reps
 * times (a pair alone after one warm-up, which opens its connection);
 * the median is reported.  */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "err.h"
#include "mpiutil.h"
#include "num.h"
#include "stats.h"
#include "tsv.h"
#include "xalloc.h"

#define PROGRAM "pair-measure"

static char *opt_bytes, *opt_count, *opt_reps, *opt_max_pairs;
static char *opt_max_concurrent, *opt_seed, *opt_timeout;
static int opt_no_concurrent, opt_no_exchange, opt_progress;
static int opt_no_progress;

static struct poptOption options[] = {
  { "bytes", 'b', POPT_ARG_STRING, &opt_bytes, 0,
    "size of each message (default 65536)", "BYTES" },
  { "count", 'n', POPT_ARG_STRING, &opt_count, 0,
    "messages per sample, at least 2 (default 4)", "N" },
  { "reps", 'r', POPT_ARG_STRING, &opt_reps, 0,
    "samples per test, median reported (default 3)",
    "N" },
  { "max-pairs", '\0', POPT_ARG_STRING, &opt_max_pairs, 0,
    "measure alone a random sample of N ordered pairs (default: all)",
    "N" },
  { "max-concurrent", '\0', POPT_ARG_STRING, &opt_max_concurrent, 0,
    "measure a random sample of N two-pair tests (default: all)", "N" },
  { "no-concurrent", '\0', POPT_ARG_NONE, &opt_no_concurrent, 0,
    "measure no two disjoint pairs at once", NULL },
  { "no-exchange", '\0', POPT_ARG_NONE, &opt_no_exchange, 0,
    "measure no pair's two directions at once", NULL },
  { "seed", '\0', POPT_ARG_STRING, &opt_seed, 0,
    "seed of the samples' generator (default 1)", "N" },
  { "progress", '\0', POPT_ARG_NONE, &opt_progress, 0,
    "progress lines on stderr even when it is no terminal", NULL },
  { "no-progress", '\0', POPT_ARG_NONE, &opt_no_progress, 0,
    "no progress lines", NULL },
  { "timeout", '\0', POPT_ARG_STRING, &opt_timeout, 0,
    "end the job after SECONDS (default 0: no bound)", "SECONDS" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

struct config
{
  int64_t bytes, count, reps, max_pairs, max_conc;
  int exchange;
  uint64_t seed;
  double timeout;
};

/* A test: pair (a[0] -> b[0]) and, when two, (a[1] -> b[1]).  */
struct test
{
  int n, a[2], b[2];
};

static void
parse (int argc, char **argv, struct config *c)
{
  poptContext con = cli_parse (argc, (const char **) argv, options,
                               NULL, NULL);
  if (poptPeekArg (con) != NULL)
    die_usage ("unexpected operand '%s' (the program reads no file)",
               poptPeekArg (con));
  c->bytes = opt_bytes ? cli_int ("bytes", opt_bytes, 1, INT32_MAX) : 65536;
  c->count = opt_count ? cli_int ("count", opt_count, 2, 1000) : 4;
  c->reps = opt_reps ? cli_int ("reps", opt_reps, 1, 1000) : 3;
  c->max_pairs = opt_max_pairs
                 ? cli_int ("max-pairs", opt_max_pairs, 1, INT64_MAX) : -1;
  c->max_conc = opt_max_concurrent
                ? cli_int ("max-concurrent", opt_max_concurrent, 0,
                           INT64_MAX) : -1;
  if (opt_no_concurrent)
    c->max_conc = 0;
  c->exchange = !opt_no_exchange;
  c->seed = opt_seed ? (uint64_t) cli_int ("seed", opt_seed, 0, INT64_MAX)
                     : 1;
  c->timeout = opt_timeout ? cli_double ("timeout", opt_timeout, 0, 1e9)
                           : 0;
  poptFreeContext (con);
}

/* splitmix64: the samples' generator, the same on every rank.  */
static uint64_t
next_random (uint64_t *s)
{
  uint64_t z = (*s += UINT64_C (0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C (0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* Keep a random MAX of the N tests T (all when MAX < 0 or >= N), in
   their first order.  */
static size_t
sample_tests (struct test *t, size_t n, int64_t max, uint64_t *seed)
{
  if (max < 0 || (uint64_t) max >= n)
    return n;
  char *keep = xcalloc (n, 1);
  size_t *idx = xmalloc (n * sizeof *idx);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  /* the first MAX of a Fisher-Yates shuffle */
  for (size_t i = 0; i < (size_t) max; i++)
    {
      size_t j = i + (size_t) (next_random (seed) % (n - i));
      size_t x = idx[i];
      idx[i] = idx[j];
      idx[j] = x;
      keep[idx[i]] = 1;
    }
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (keep[i])
      t[m++] = t[i];
  free (keep);
  free (idx);
  return m;
}

/* Every ordered pair alone, every two disjoint ordered pairs (each set
   of two once), sampled as asked, then every exchange (a -> b with
   b -> a, a < b) of the pairs measured alone.  */
static struct test *
make_tests (int P, const struct config *c, size_t *nsolo, size_t *nconc,
            size_t *nexch)
{
  size_t np = (size_t) P * (size_t) (P - 1);
  struct test *solo = xmalloc (np * sizeof *solo);
  size_t k = 0;
  for (int a = 0; a < P; a++)
    for (int b = 0; b < P; b++)
      if (a != b)
        solo[k++] = (struct test) { 1, { a, 0 }, { b, 0 } };
  uint64_t seed = c->seed;
  *nsolo = sample_tests (solo, np, c->max_pairs, &seed);
  size_t cap = c->max_conc == 0 ? 0 : np * (np - 1) / 2;
  struct test *all = xmalloc ((*nsolo + cap + np / 2 + 1) * sizeof *all);
  memcpy (all, solo, *nsolo * sizeof *all);
  k = 0;
  struct test *conc = all + *nsolo;
  /* the pairs by number: p -> (p / (P - 1), the p % (P - 1)-th other) */
  for (size_t i = 0; i < np && cap; i++)
    for (size_t j = i + 1; j < np; j++)
      {
        int a0 = (int) (i / (size_t) (P - 1)), r0 = (int) (i % (size_t) (P - 1));
        int a1 = (int) (j / (size_t) (P - 1)), r1 = (int) (j % (size_t) (P - 1));
        int b0 = r0 < a0 ? r0 : r0 + 1, b1 = r1 < a1 ? r1 : r1 + 1;
        if (a0 == a1 || a0 == b1 || b0 == a1 || b0 == b1)
          continue;
        conc[k++] = (struct test) { 2, { a0, a1 }, { b0, b1 } };
      }
  *nconc = sample_tests (conc, k, c->max_conc, &seed);
  struct test *ex = conc + *nconc;
  k = 0;
  for (size_t i = 0; i < *nsolo && c->exchange; i++)
    {
      int a = solo[i].a[0], b = solo[i].b[0];
      int other = 0;   /* b -> a measured alone too (a < b: once) */
      for (size_t j = 0; j < *nsolo && a < b; j++)
        other |= solo[j].a[0] == b && solo[j].b[0] == a;
      if (other)
        ex[k++] = (struct test) { 2, { a, b }, { b, a } };
    }
  *nexch = k;
  free (solo);
  return all;
}

/* Wait for REQ, sleeping NAP ns between tests: a waiting rank leaves
   the CPU to the ranks that measure.  */
static void
lazy_wait (MPI_Request *req, long ns)
{
  struct timespec nap = { 0, ns };
  for (;;)
    {
      int done = 0;
      mpu_check (MPI_Test (req, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (done)
        return;
      if (ns > 0)
        nanosleep (&nap, NULL);
    }
}

static void
lazy_barrier (void)
{
  MPI_Request req;
  mpu_check (MPI_Ibarrier (MPI_COMM_WORLD, &req), "MPI_Ibarrier");
  /* 0.5 ms: the ranks out of a test wake up seldom; two pairs start
     within that of each other, against tens of ms of a test */
  lazy_wait (&req, 500000);
}

/* Whether any rank passed WANT nonzero, waited for as lazy_barrier
   waits: the ranks agree on taking one more sample.  */
static int
lazy_any (int want)
{
  MPI_Request req;
  int any = 0;
  mpu_check (MPI_Iallreduce (&want, &any, 1, MPI_INT, MPI_MAX,
                             MPI_COMM_WORLD, &req), "MPI_Iallreduce");
  lazy_wait (&req, 500000);
  return any;
}

/* Wait for REQ as lazy_wait does; *LO is the time of the last poll
   that found it incomplete (left as it was when the first poll finds
   it complete).  */
static void
lazy_wait_since (MPI_Request *req, long ns, double *lo)
{
  struct timespec nap = { 0, ns };
  for (;;)
    {
      int done = 0;
      double t = MPI_Wtime ();
      mpu_check (MPI_Test (req, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (done)
        return;
      *lo = t;
      nanosleep (&nap, NULL);
    }
}

/* One sample of test T on this rank, after the ranks met (a barrier);
   a receiver returns its rate in bytes per us, others NaN; *VALID says
   whether the receiver's messages came one after another.

   The receiver starts its pair: it posts its receives, then tells its
   sender to go, so no message can arrive before the receiver is
   waiting for it (a receiver that left the barrier late would
   otherwise find several messages already there, complete them
   together, and see a rate the path cannot carry).  The time is taken
   from the last poll that found the first message incomplete, not from
   its completion: a receiver that polls late (a nap, or a CPU shared
   with other ranks) then lengthens the time and lowers the rate,
   never raises it.  The later messages arrive after the first one's
   last byte, so the rate is at most the path's.

   That holds while the messages arrive one after another.  Above the
   transport's eager limit they do not: each waits for its receiver's
   answer (the rendezvous) and the rest of them comes interleaved, so
   they complete nearly together.  Whatever the order, all count
   messages pass the path between the go and the last completion, so
   count * bytes over that time T is at most the path's rate.  A sample
   counts only when its rate is at most VALID_OVER above that bound, so
   no rate written exceeds the path's by more.  Messages that follow
   each other pass when T = start + count * m (m: one message's time)
   has a start of at most VALID_OVER * count * m; a longer start makes
   the first-to-last time too short a part of T to trust anyway.  */
#define VALID_OVER 0.1

static double
sample (const struct test *t, const struct config *c, char *buf,
        MPI_Request *req, double *done, int *valid)
{
  int snd = -1, rcv = -1;  /* the pair this rank sends, receives in */
  for (int i = 0; i < t->n; i++)
    {
      if (t->a[i] == mpu_rank)
        snd = i;
      if (t->b[i] == mpu_rank)
        rcv = i;
    }
  *valid = 0;
  if (snd < 0 && rcv < 0)
    return NAN;
  /* an exchange's ranks send and receive: receives in req[0 .. count),
     sends after them; buf holds both; the go messages last */
  MPI_Request *go = req + 2 * c->count;
  char go_in = 0, go_out = 1;
  if (snd >= 0)
    mpu_check (MPI_Irecv (&go_in, 1, MPI_CHAR, t->b[snd], 8,
                          MPI_COMM_WORLD, &go[0]), "MPI_Irecv");
  for (int64_t m = 0; m < c->count && rcv >= 0; m++)
    mpu_check (MPI_Irecv (buf + m * c->bytes, (int) c->bytes, MPI_CHAR,
                          t->a[rcv], 7, MPI_COMM_WORLD, &req[m]),
               "MPI_Irecv");
  double go_time = MPI_Wtime (), lo = go_time;
  if (rcv >= 0)
    mpu_check (MPI_Isend (&go_out, 1, MPI_CHAR, t->a[rcv], 8,
                          MPI_COMM_WORLD, &go[1]), "MPI_Isend");
  if (snd >= 0)
    {
      lazy_wait (&go[0], 0);   /* short: the receiver posts, then says go */
      for (int64_t m = 0; m < c->count; m++)
        mpu_check (MPI_Isend (buf + (rcv >= 0) * c->count * c->bytes
                              + m * c->bytes, (int) c->bytes, MPI_CHAR,
                              t->b[snd], 7, MPI_COMM_WORLD,
                              &req[m + c->count]), "MPI_Isend");
    }
  if (rcv < 0)
    {
      for (int64_t m = 0; m < c->count; m++)
        lazy_wait (&req[m + c->count], 20000);
      return NAN;
    }
  /* messages of one pair complete in order (MPI's non-overtaking) */
  lazy_wait_since (&req[0], 20000, &lo);
  done[0] = MPI_Wtime ();
  for (int64_t m = 1; m < c->count; m++)
    {
      lazy_wait (&req[m], 20000);
      done[m] = MPI_Wtime ();
    }
  lazy_wait (&go[1], 20000);
  if (snd >= 0)
    for (int64_t m = 0; m < c->count; m++)
      lazy_wait (&req[m + c->count], 20000);
  double span = done[c->count - 1] - lo;
  double all = done[c->count - 1] - go_time;
  double rate = (double) (c->count - 1) * (double) c->bytes / span;
  double bound = (double) c->count * (double) c->bytes / all;
  *valid = rate <= (1 + VALID_OVER) * bound;
  return rate / 1e6;
}

/* The values of a row in RATE: the median, smallest and largest rate
   of the valid samples (0 when none), and the samples rejected.  */
#define ROW_VALUES 4

/* A test's samples in all, valid or rejected, at most this many times
   --reps: a rejected sample is taken again, so that a test has its
   --reps valid ones unless its samples keep failing (above the eager
   limit every one does).  */
#define MAX_TRIES 3

/* Run every test: RATE[(test * 2 + pair) * ROW_VALUES ...] on its
   receiver (0 elsewhere), summed into rank 0.  */
static void
run_tests (const struct test *t, size_t n, const struct config *c,
           double *rate)
{
  char *buf = xmalloc ((size_t) (2 * c->count * c->bytes));
  memset (buf, 1, (size_t) (2 * c->count * c->bytes));
  MPI_Request *req = xmalloc ((size_t) (2 * c->count + 2) * sizeof *req);
  double *done = xmalloc ((size_t) c->count * sizeof *done);
  double *s = xmalloc ((size_t) c->reps * sizeof *s);
  int mode = cli_progress_mode (opt_progress, opt_no_progress);
  for (size_t i = 0; i < n; i++)
    {
      double v = NAN;
      int valid;
      size_t nvalid = 0, ninvalid = 0;
      int rcv = t[i].b[0] == mpu_rank || (t[i].n == 2
                                          && t[i].b[1] == mpu_rank);
      if (t[i].n == 1)
        {
          lazy_barrier ();
          sample (&t[i], c, buf, req, done, &valid);   /* warm-up */
        }
      /* every rank takes part in every sample (the other pair of a
         test runs on while one receiver has its samples) */
      for (int64_t k = 0; k < MAX_TRIES * c->reps; k++)
        {
          if (!lazy_any (rcv && nvalid < (size_t) c->reps))
            break;
          v = sample (&t[i], c, buf, req, done, &valid);
          if (rcv && nvalid < (size_t) c->reps)
            {
              if (valid)
                s[nvalid++] = v;
              else
                ninvalid++;
            }
        }
      if (rcv)
        {
          double *row = &rate[ROW_VALUES * (2 * i + (t[i].b[0] == mpu_rank
                                                     ? 0 : 1))];
          if (nvalid > 0)
            {
              struct stats_summary sum;
              stats_summarize (s, nvalid, &sum);
              row[0] = sum.median;
              row[1] = sum.min;
              row[2] = sum.max;
            }
          row[3] = (double) ninvalid;
        }
      if (mpu_rank == 0 && cli_progress_now (mode))
        fprintf (stderr, "%s: test %zu of %zu\n", PROGRAM, i + 1, n);
    }
  free (buf);
  free (req);
  free (done);
  free (s);
}

/* A derived value to 6 digits (msgperf(7), NUMBERS); NA unless > 0.  */
static void
put_derived (tsv_writer *w, double v)
{
  char buf[NUM_BUFSIZE];
  if (!(v > 0) || !isfinite (v))
    {
      tsv_put_na (w);
      return;
    }
  num_format_measured (v, 0, NUM_DERIVED_DIGITS, buf);
  tsv_put_str (w, buf);
}

/* Mbit/s (10^6 bits a second) from bytes per us.  */
static void
put_mbit (tsv_writer *w, double bpus)
{
  put_derived (w, bpus * 8);
}

static void
write_rows (tsv_writer *w, const struct test *t, size_t n,
            const struct config *c, const double *rate)
{
  static const char *const cols[] = {
    "src", "dst", "with_src", "with_dst", "bytes", "msgs", "t",
    "mbit_s", "mbit_s_min", "mbit_s_max", "reps", "n_invalid"
  };
  tsv_write_header (w, sizeof cols / sizeof cols[0], cols);
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < t[i].n; k++)
      {
        const double *r = &rate[ROW_VALUES * (2 * i + k)];
        tsv_put_int (w, t[i].a[k]);
        tsv_put_int (w, t[i].b[k]);
        if (t[i].n == 2)
          {
            tsv_put_int (w, t[i].a[1 - k]);
            tsv_put_int (w, t[i].b[1 - k]);
          }
        else
          {
            tsv_put_na (w);
            tsv_put_na (w);
          }
        tsv_put_int (w, c->bytes);
        tsv_put_int (w, c->count - 1);
        /* the time of one message at the median rate, us */
        put_derived (w, c->bytes / r[0]);
        put_mbit (w, r[0]);
        put_mbit (w, r[1]);
        put_mbit (w, r[2]);
        tsv_put_int (w, c->reps);
        tsv_put_int (w, (int64_t) r[3]);
        tsv_end_row (w);
      }
}

/* Say how many rows have no rate, and why.  */
static void
warn_invalid (const struct test *t, size_t n, const struct config *c,
              const double *rate)
{
  size_t rows = 0, none = 0;
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < t[i].n; k++, rows++)
      none += !(rate[ROW_VALUES * (2 * i + k)] > 0);
  if (none > 0)
    warn ("%zu of %zu rows have no rate (NA): in every one of their %"
          PRId64 " samples the messages completed nearly together, so "
          "their first-to-last time does not measure the path (--bytes "
          "above the transport's eager limit, or a start longer than the "
          "%" PRId64 " messages take: raise --count, or lower --bytes "
          "below the eager limit)", none, rows, MAX_TRIES * c->reps,
          c->count);
}

int
main (int argc, char **argv)
{
  cli_init (PROGRAM, argc, argv);
  mpu_preinit (&argc, &argv);
  struct config c;
  parse (argc, argv, &c);
  if (mpu_size < 2)
    die ("needs at least 2 MPI processes, the job has %d (run it as "
         "'mpirun -np 2 %s')", mpu_size, PROGRAM);
  if ((double) c.count * (double) c.bytes > 5e8)
    die_usage ("--count times --bytes is over 5e8 bytes (twice that of "
               "buffer, for the exchanges)");
  mpu_init (&argc, &argv);
  mpu_timeout (c.timeout);
  size_t nsolo, nconc, nexch;
  struct test *t = make_tests (mpu_size, &c, &nsolo, &nconc, &nexch);
  size_t n = nsolo + nconc + nexch;
  double *rate = xcalloc (2 * ROW_VALUES * n + 1, sizeof *rate);
  tsv_writer *w = mpu_rank == 0 ? tsv_writer_open (NULL) : NULL;
  if (w)
    tsv_write_tool_meta (w, NULL);
  mpu_write_meta (w);
  double t0 = MPI_Wtime ();
  run_tests (t, n, &c, rate);
  double total = MPI_Wtime () - t0;
  double *sum = mpu_rank == 0 ? xcalloc (2 * ROW_VALUES * n + 1,
                                         sizeof *sum) : NULL;
  mpu_check (MPI_Reduce (rate, sum, (int) (2 * ROW_VALUES * n), MPI_DOUBLE,
                         MPI_SUM, 0,
                         MPI_COMM_WORLD), "MPI_Reduce");
  if (w)
    {
      tsv_meta (w, "seed", "%s", opt_seed ? opt_seed : "1");
      tsv_meta (w, "tests_alone", "%zu", nsolo);
      tsv_meta (w, "tests_concurrent", "%zu", nconc);
      tsv_meta (w, "tests_exchange", "%zu", nexch);
      tsv_meta (w, "measure_time", "%.3g s", total);
      tsv_meta_time_unit (w, "us");
      write_rows (w, t, n, &c, sum);
      tsv_writer_close (w);
      warn_invalid (t, n, &c, sum);
    }
  free (sum);
  free (rate);
  free (t);
  mpu_finalize ();
  return 0;
}
