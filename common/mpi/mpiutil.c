/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mpiutil.c: helpers of the MPI programs (see mpiutil.h).  */
#include <config.h>
#include "mpiutil.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "num.h"
#include "stats.h"
#include "timerstep.h"
#include "xalloc.h"

int mpu_rank = 0, mpu_size = 1;
static int mpu_initialized;

/* MSGPERF_MPI_SLOW (mpu_slow_hook): the slow rank (-1: none), the size it
   is slow on, the seconds of its shortest sleep, and the calls so far.  */
static int slow_rank = -1;
static int64_t slow_bytes;
static double slow_seconds;
static uint64_t slow_calls;

/* Rank and size taken from the environment by mpu_preinit (-1: not).  */
static int env_rank = -1, env_size = -1;

/* err.h's exit hook on an MPI rank.  Status 0 (--help, --version) and
   usage errors are reached by every rank alike, since all parse the same
   command line: those finalize and exit normally.  Anything else may
   happen on one rank only, so the whole job is aborted.  */
static void
mpi_exit_hook (int status)
{
  if (mpu_initialized && (status == 0 || status == EXIT_USAGE))
    {
      fflush (stdout);
      MPI_Finalize ();
      exit (status);
    }
  if (mpu_initialized)
    {
      fflush (stdout);
      fflush (stderr);
      MPI_Abort (MPI_COMM_WORLD, status);
    }
  /* A usage error found before MPI_Init (mpu_preinit): join the job and
     leave it cleanly before exiting.  When every rank exited within
     milliseconds of its start, mpiexec now and then reported the job with
     status 1 instead of the ranks' 2 (probably a rank ending while the
     launcher was still starting the others); ranks that pass MPI_Init
     and MPI_Finalize are reported with their own status.  */
  if (status == EXIT_USAGE && env_size >= 0)
    {
      fflush (stdout);
      fflush (stderr);
      if (MPI_Init (NULL, NULL) == MPI_SUCCESS)
        MPI_Finalize ();
    }
  exit (status);
}

/* RANK:BYTES:SECONDS, each field by the strict parsers of num.h.  */
static void
slow_parse (const char *v)
{
  if (v == NULL || *v == '\0')
    return;
  const char *c1 = strchr (v, ':');
  const char *c2 = c1 ? strchr (c1 + 1, ':') : NULL;
  int64_t rank, bytes;
  double sec;
  if (c2 == NULL
      || num_parse_int64 (v, (size_t) (c1 - v), &rank) != NUM_OK
      || num_parse_int64 (c1 + 1, (size_t) (c2 - c1 - 1), &bytes) != NUM_OK
      || num_parse_str (c2 + 1, &sec) != NUM_OK
      || rank < 0 || rank > INT32_MAX || bytes < 0 || !(sec >= 0)
      || sec > 3600)
    die ("environment variable MSGPERF_MPI_SLOW: '%s' is not "
         "RANK:BYTES:SECONDS (a rank, a size in bytes, 0 to 3600 seconds)",
         v);
  slow_rank = (int) rank;
  slow_bytes = bytes;
  slow_seconds = sec;
}

void
mpu_slow_hook (int64_t bytes)
{
  if (slow_rank != mpu_rank || bytes != slow_bytes)
    return;
  double s = slow_seconds * (double) (1 + slow_calls++ % 4);
  struct timespec ts, rem;
  ts.tv_sec = (time_t) s;
  ts.tv_nsec = (long) ((s - floor (s)) * 1e9);
  /* A signal (SIGALRM of --timeout ends the process itself) may cut the
     sleep short: sleep the rest.  */
  while (nanosleep (&ts, &rem) != 0 && errno == EINTR)
    ts = rem;
}

/* Only rank 0 writes stdout (msgperf(7) 5); the others would only
   repeat its --help text or usage errors.  */
static void
quiet_other_ranks (void)
{
  static int done;
  if (mpu_rank == 0 || done)
    return;
  done = 1;
  if (!freopen ("/dev/null", "w", stdout))
    mpu_die (EXIT_DATA, "cannot redirect stdout: %m");
  err_usage_silent = 1;
}

/* The launcher's value of the first of NAMES that is set: -1 when none
   is, or when the value is not a whole number in [LO, INT32_MAX].  */
static int64_t
env_int (const char *const *names, int64_t lo)
{
  for (; *names; names++)
    {
      const char *v = getenv (*names);
      int64_t x;
      if (v == NULL)
        continue;
      if (num_parse_int64 (v, strlen (v), &x) != NUM_OK || x < lo
          || x > INT32_MAX)
        return -1;
      return x;
    }
  return -1;
}


void
mpu_preinit (int *argc, char ***argv)
{
  static const char *const size_names[] = { "OMPI_COMM_WORLD_SIZE",
    "PMI_SIZE", NULL };
  static const char *const rank_names[] = { "OMPI_COMM_WORLD_RANK",
    "PMI_RANK", NULL };
  /* Each line to stderr in one write: the messages of several ranks that
     fail alike (die() writes a message in pieces) then come out whole
     instead of mixed within a line.  Every exit path flushes it.  */
  setvbuf (stderr, NULL, _IOLBF, 0);
  int64_t size = env_int (size_names, 1), rank = env_int (rank_names, 0);
  if (size < 1 || rank < 0 || rank >= size)
    {
      mpu_init (argc, argv);
      return;
    }
  env_rank = mpu_rank = (int) rank;
  env_size = mpu_size = (int) size;
  err_exit_hook = mpi_exit_hook;
  quiet_other_ranks ();
}

void
mpu_init (int *argc, char ***argv)
{
  if (mpu_initialized)
    return;
  setvbuf (stderr, NULL, _IOLBF, 0);
  int rc = MPI_Init (argc, argv);
  if (rc != MPI_SUCCESS)
    {
      fprintf (stderr, "%s: MPI_Init failed\n", err_program);
      exit (EXIT_DATA);
    }
  mpu_initialized = 1;
  MPI_Comm_rank (MPI_COMM_WORLD, &mpu_rank);
  MPI_Comm_size (MPI_COMM_WORLD, &mpu_size);
  MPI_Comm_set_errhandler (MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  err_exit_hook = mpi_exit_hook;
  if (env_size >= 0 && (env_rank != mpu_rank || env_size != mpu_size))
    mpu_die (EXIT_DATA, "the launcher's environment said rank %d of %d, "
             "MPI says rank %d of %d", env_rank, env_size, mpu_rank,
             mpu_size);
  quiet_other_ranks ();
  slow_parse (getenv ("MSGPERF_MPI_SLOW"));
}

void
mpu_finalize (void)
{
  fflush (stdout);
  if (!mpu_initialized)
    return;
  MPI_Finalize ();
  mpu_initialized = 0;
}

void
mpu_die (int status, const char *fmt, ...)
{
  fflush (stdout);
  fprintf (stderr, "%s: rank %d: ", err_program, mpu_rank);
  va_list ap;
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
  fflush (stderr);
  if (mpu_initialized)
    MPI_Abort (MPI_COMM_WORLD, status ? status : EXIT_DATA);
  exit (status ? status : EXIT_DATA);
}

void
mpu_check (int rc, const char *what)
{
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string (rc, text, &len) != MPI_SUCCESS)
    snprintf (text, sizeof text, "MPI error %d", rc);
  mpu_die (EXIT_DATA, "%s failed: %s", what, text);
}

/* The timeout message is formatted in advance: the signal handler may
   only use async-signal-safe calls.  */
static char timeout_msg[256];
static size_t timeout_len;

static void
on_alarm (int sig)
{
  (void) sig;
  ssize_t r = write (STDERR_FILENO, timeout_msg, timeout_len);
  (void) r;
  _exit (EXIT_DATA);
}

void
mpu_timeout (double seconds)
{
  if (!(seconds > 0))
    return;
  int n = snprintf (timeout_msg, sizeof timeout_msg,
                    "%s: rank %d: timed out after %g s (--timeout); a "
                    "partner may have stopped answering\n",
                    err_program, mpu_rank, seconds);
  timeout_len = n > 0 ? (size_t) n : 0;
  if (timeout_len >= sizeof timeout_msg)
    timeout_len = sizeof timeout_msg - 1;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it;
  memset (&it, 0, sizeof it);
  it.it_value.tv_sec = (time_t) seconds;
  it.it_value.tv_usec = (suseconds_t) ((seconds - floor (seconds)) * 1e6);
  if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
    it.it_value.tv_usec = 1;
  setitimer (ITIMER_REAL, &it, NULL);
}

double
mpu_timer_overhead (void)
{
  enum { N = 1001 };
  double t[N], d[N - 1];
  for (int i = 0; i < N; i++)
    t[i] = MPI_Wtime ();
  for (int i = 0; i < N - 1; i++)
    d[i] = t[i + 1] - t[i];
  stats_sort (d, N - 1);
  return stats_median_sorted (d, N - 1);
}

static double res_step = -1, res_min_diff = NAN;

/* The next MPI_Wtime reading that differs from T, or T itself when the
   clock does not move within a bounded number of calls.  */
static double
next_reading (double t)
{
  double u = t;
  for (long i = 0; i < 100000000L && u == t; i++)
    u = MPI_Wtime ();
  return u;
}

static void
measure_resolution (void)
{
  enum { NC = 2001, NS = 4000 };
  double *t = xmalloc (NC * sizeof *t);
  double *d = xmalloc ((NC - 1 + NS) * sizeof *d);
  for (int i = 0; i < NC; i++)
    t[i] = MPI_Wtime ();
  size_t n = 0;
  double cheapest = INFINITY;
  for (int i = 0; i + 1 < NC; i++)
    {
      d[n] = t[i + 1] - t[i];
      if (d[n] > 0 && d[n] < cheapest)
        cheapest = d[n];
      n++;
    }
  double unit = MPI_Wtick ();
  /* A coarse clock: every consecutive pair read the same value.  The
     cheapest interval is then one step, edge to edge.  */
  if (!isfinite (cheapest))
    {
      double a = next_reading (MPI_Wtime ());
      double b = next_reading (a);
      cheapest = b > a ? b - a : unit;
    }
  /* Intervals from a change of the reading to a reading at least K
     cheapest intervals later (K = 0..8): every one a whole number of
     steps, over a span of several steps.  Bounded to about 10 ms.  */
  double start = MPI_Wtime ();
  for (int i = 0; i < NS; i++)
    {
      double target = cheapest * (double) (i % 9);
      double b = next_reading (MPI_Wtime ());
      double c = MPI_Wtime ();
      for (long k = 0; k < 100000000L && (c - b < target || c == b); k++)
        c = MPI_Wtime ();
      d[n++] = c - b;
      if (i >= 100 && c - start > 0.01)
        break;
    }
  res_step = timer_step (d, n, unit, &res_min_diff);
  /* The consecutive-call minimum of the brief definition, not the
     edge-to-edge one of a coarse clock.  */
  double mc = INFINITY;
  for (int i = 0; i + 1 < NC; i++)
    if (t[i + 1] - t[i] > 0 && t[i + 1] - t[i] < mc)
      mc = t[i + 1] - t[i];
  res_min_diff = isfinite (mc) ? mc : NAN;
  if (!(res_step > 0))
    res_step = unit;
  free (t);
  free (d);
}

double
mpu_timer_resolution (void)
{
  if (res_step < 0)
    measure_resolution ();
  return res_step;
}

double
mpu_timer_min_diff (void)
{
  if (res_step < 0)
    measure_resolution ();
  return res_min_diff;
}

void
mpu_barrier (void)
{
  mpu_check (MPI_Barrier (MPI_COMM_WORLD), "MPI_Barrier");
}

void
mpu_write_meta (tsv_writer *w)
{
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  memset (name, 0, sizeof name);
  MPI_Get_processor_name (name, &len);
  char *all = NULL;
  if (mpu_rank == 0)
    {
      all = calloc ((size_t) mpu_size, MPI_MAX_PROCESSOR_NAME);
      if (!all)
        mpu_die (EXIT_DATA, "out of memory");
    }
  mpu_check (MPI_Gather (name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all,
                         MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD),
             "MPI_Gather");
  double overhead = mpu_timer_overhead ();
  if (mpu_rank != 0)
    return;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  int liblen = 0;
  MPI_Get_library_version (lib, &liblen);
  char *nl = strchr (lib, '\n');
  if (nl)
    *nl = '\0';
  /* "Open MPI v4.1.4, package: ..." is long; keep the first clause.  */
  char *comma = strchr (lib, ',');
  if (comma)
    *comma = '\0';
  tsv_meta (w, "mpi_library", "%s", lib);
  tsv_meta (w, "nprocs", "%d", mpu_size);
  char num[NUM_BUFSIZE];
  double res = mpu_timer_resolution () * 1e6;
  num_format_measured (res, 0, NUM_DERIVED_DIGITS, num);
  tsv_meta (w, "timer_resolution", "%s", num);
  num_format (MPI_Wtick () * 1e6, -1, num);
  tsv_meta (w, "timer_tick", "%s", num);
  num_format_measured (mpu_timer_min_diff () * 1e6, res, -1, num);
  tsv_meta (w, "timer_min_diff", "%s", num);
  num_format_measured (overhead * 1e6, res, -1, num);
  tsv_meta (w, "timer_overhead", "%s", num);
  /* Distinct host names in rank order, with the number of ranks on each.  */
  size_t cap = 64, used = 0;
  char *hosts = malloc (cap);
  if (!hosts)
    mpu_die (EXIT_DATA, "out of memory");
  hosts[0] = '\0';
  for (int r = 0; r < mpu_size; r++)
    {
      const char *h = all + (size_t) r * MPI_MAX_PROCESSOR_NAME;
      int seen = 0, count = 0;
      for (int q = 0; q < mpu_size; q++)
        if (strcmp (h, all + (size_t) q * MPI_MAX_PROCESSOR_NAME) == 0)
          {
            if (q < r)
              seen = 1;
            count++;
          }
      if (seen)
        continue;
      size_t need = used + strlen (h) + 24;
      if (need > cap)
        {
          cap = 2 * need;
          char *n = realloc (hosts, cap);
          if (!n)
            mpu_die (EXIT_DATA, "out of memory");
          hosts = n;
        }
      used += (size_t) sprintf (hosts + used, "%s%s:%d", used ? "," : "", h,
                                count);
    }
  tsv_meta (w, "hosts", "%s", hosts);
  free (hosts);
  free (all);
}
