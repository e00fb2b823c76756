/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_proto.c: the measure/mirror protocol of logp-measure.
 *
 * Kielmann, Bal and Verstoep, "Fast Measurement of LogP Parameters for
 * Message Passing Platforms", Section 3 and Fig. 1 (right):
 *   - g(0) by saturation: n empty messages in a row from measure to
 *     mirror, one empty reply; n = 10, 20, 40, ... until the gap per
 *     message changes by at most epsilon and RTT_1 < epsilon * RTT_n;
 *   - per size m, round trip 1: m bytes out (the send timed: o_s(m)), 0
 *     back (RTT(m)); round trip 2: 0 bytes out, wait Delta > RTT(m), then
 *     time the receive of the m-byte reply (o_r(m), unexpected message);
 *     optionally round trip 3: MPI_Irecv posted first, 0 out, wait Delta,
 *     MPI_Wait (o_r of expected messages, Section 3.1);
 *   - g(m) = RTT(m) - RTT(0) + g(0), L = (RTT(0) - 2 g(0)) / 2.
 * Then (not in the paper) LogGOPS's eager limit S: blocking sends of m
 * bytes to a mirror busy for B, then 2B, before it posts the receive;
 * the sizes searched as logp_eager.h says.
 * Every batch of round trips starts with a command to the mirror and its
 * empty "ready" reply (the synchronisation message of Fig. 1), so the
 * command never travels in a row with a timed message.  */
#include <config.h>

#include "logp_proto.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "logp_eager.h"
#include "logp_params.h"
#include "mpiutil.h"
#include "stats.h"
#include "xalloc.h"

enum { TAG_CMD = 101, TAG_DATA = 102 };
enum { OP_DONE = 0, OP_SIZE = 1, OP_SAT = 2, OP_EAGER = 3 };
enum { CMD_OP, CMD_BYTES, CMD_COUNT, CMD_N, CMD_EXPECTED, CMD_NF };

/* Later batches add this many repetitions.  */
enum { BATCH = 4 };
/* Messages in a row start here (Section 3) and double.  */
enum { SAT_N0 = 10 };
/* Repetitions of each eager probe (the least time counts), and the
   least time the mirror is busy for, in seconds.  */
enum { EAGER_REPS = 3 };
#define EAGER_BUSY_MIN 100e-6
/* Saturation runs never queue more than this many bytes per sample.  */
#define SAT_MAX_VOLUME ((int64_t) 1 << 30)
#define SAT_MAX_N ((int64_t) 1 << 20)

struct ctx
{
  const struct lm_opts *o;
  int src, dst;
  /* Separate send and receive buffers: see size_iteration.  */
  char *sbuf, *rbuf;
  struct lm_result *res;
  double rtt0, rtt0_lo, rtt0_hi;
  double g0, g0_lo, g0_hi;
  double L;
  struct stats_samples s[Q_NQTY];
  double *scratch;
  size_t scratch_cap;
  double t_select0;    /* MPI_Wtime at the start of the size selection */
  double size_budget;  /* seconds the size being measured may take at most
                          (logp_point.budget; INFINITY outside the
                          selection) */
  double busy;         /* the eager probes' B, seconds */
};

/* ------------------------------------------------------------- helpers */

static void
chk (int rc, const char *what)
{
  mpu_check (rc, what);
}

static double
wtime (void)
{
  return MPI_Wtime ();
}

static void
spin (double seconds)
{
  double t = wtime ();
  while (wtime () - t < seconds)
    ;
}

static void
push_sample (struct ctx *c, int64_t bytes, int q, int64_t n, size_t rep,
             double t)
{
  stats_samples_push (&c->s[q], t);
  if (!c->o->raw)
    return;
  struct lm_result *r = c->res;
  if (r->nsamples == r->capsamples)
    {
      r->capsamples = r->capsamples ? 2 * r->capsamples : 1024;
      r->samples = xrealloc (r->samples,
                             r->capsamples * S_NF * sizeof (double));
    }
  double *s = r->samples + r->nsamples * S_NF;
  s[S_BYTES] = (double) bytes;
  s[S_QTY] = q;
  s[S_N] = (double) n;
  s[S_REP] = (double) rep;
  s[S_T] = t;
  r->nsamples++;
}

static void
summarize (struct ctx *c, const struct stats_samples *s,
           struct stats_summary *out)
{
  if (c->scratch_cap < s->n)
    {
      c->scratch_cap = s->n;
      c->scratch = xrealloc (c->scratch, s->n * sizeof (double));
    }
  memcpy (c->scratch, s->x, s->n * sizeof (double));
  stats_summarize (c->scratch, s->n, out);
}

/* Combine the stopping decisions of the quantities measured together:
   converged when all are, else stopped by the first cap hit.  */
static enum stats_stop
combine_stop (const enum stats_stop *st, int k)
{
  int all_conv = 1, cap = 0, max = 0;
  for (int i = 0; i < k; i++)
    {
      all_conv &= st[i] == STATS_CONVERGED;
      cap |= st[i] == STATS_TIME_CAP;
      max |= st[i] == STATS_MAX_REPS;
    }
  if (all_conv)
    return STATS_CONVERGED;
  if (cap)
    return STATS_TIME_CAP;
  if (max)
    return STATS_MAX_REPS;
  return STATS_CONTINUE;
}

static void
send_cmd (struct ctx *c, int op, int64_t bytes, int64_t count, int64_t n)
{
  int64_t cmd[CMD_NF] = { op, bytes, count, n, c->o->expected };
  chk (MPI_Send (cmd, CMD_NF, MPI_INT64_T, c->dst, TAG_CMD, MPI_COMM_WORLD),
       "MPI_Send (command)");
  if (op == OP_DONE)
    return;
  /* The mirror's "ready" (Fig. 1): nothing is in flight afterwards.  */
  chk (MPI_Recv (NULL, 0, MPI_BYTE, c->dst, TAG_DATA, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE), "MPI_Recv (ready)");
}

/* Progress (item of the user's view, not of the measurement): on a
   terminal one line that each step rewrites; into a file or a launcher's
   pipe the first and the last line of each phase and at most one line
   every PROGRESS_EVERY seconds between, so that a pair gives a few lines
   per phase, not one per size or probe.  */
#define PROGRESS_EVERY 5.0
static struct
{
  char phase[32];
  char pending[320];
  double last;
  int open;
} pl;

static void
progress_emit (const char *phase, const char *line)
{
  if (isatty (STDERR_FILENO))
    {
      fprintf (stderr, "\r%s\033[K", line);
      fflush (stderr);
      pl.open = 1;
      return;
    }
  double now = cli_elapsed ();
  int fresh = strcmp (phase, pl.phase) != 0;
  if (fresh && pl.pending[0] != '\0')
    fputs (pl.pending, stderr);
  pl.pending[0] = '\0';
  if (fresh || now - pl.last >= PROGRESS_EVERY)
    {
      fprintf (stderr, "%s\n", line);
      pl.last = now;
    }
  else
    snprintf (pl.pending, sizeof pl.pending, "%s\n", line);
  snprintf (pl.phase, sizeof pl.phase, "%s", phase);
}

/* The pair is measured: the last line held back, or the terminal's line
   cleared for what follows.  */
static void
progress_end (void)
{
  if (pl.open)
    fputs ("\r\033[K", stderr);
  else if (pl.pending[0] != '\0')
    fputs (pl.pending, stderr);
  memset (&pl, 0, sizeof pl);
}

static void
progress (const struct ctx *c, const char *phase, int64_t bytes, int64_t n,
          size_t reps, enum stats_stop stop)
{
  if (!cli_progress_now (c->o->progress))
    return;
  char line[300];
  if (n > 1)
    snprintf (line, sizeof line, "%s: %d->%d: %s: bytes %lld: %lld in a "
              "row: %zu reps (%s)", err_program, c->src, c->dst, phase,
              (long long) bytes, (long long) n, reps, stats_stop_name (stop));
  else
    {
      /* The size selection is adaptive (no count to go by), but its time
         limit bounds what is left.  */
      char left[80] = "";
      if (strcmp (phase, "sizes") == 0 && c->o->time_limit > 0
          && c->t_select0 > 0)
        {
          double l = c->o->time_limit - (MPI_Wtime () - c->t_select0);
          snprintf (left, sizeof left, "; at most %.3g s of sizes left "
                    "(--time-limit)", l > 0 ? l : 0.0);
        }
      snprintf (line, sizeof line, "%s: %d->%d: %s: bytes %lld: %zu reps "
                "(%s)%s", err_program, c->src, c->dst, phase,
                (long long) bytes, reps, stats_stop_name (stop), left);
    }
  progress_emit (phase, line);
}

static void
adapt_cfg (const struct ctx *c, int64_t bytes, struct stats_adapt *a)
{
  const struct lm_opts *o = c->o;
  int64_t max = bytes >= o->large_bytes ? o->max_reps_large : o->max_reps;
  int64_t min = o->min_reps < max ? o->min_reps : max;
  a->min_reps = (size_t) min;
  a->max_reps = (size_t) max;
  a->eps = o->eps;
  /* The selection's share of --time-limit for this size, when it is
     below --time-cap (logp_sizes.h: struct logp_point).  */
  a->time_cap = fmin (o->time_cap, c->size_budget);
}

/* ------------------------------------------------------- one size: m */

/* One iteration of the two (three) round trips for size M.

   Both sides send from one buffer and receive into another.  With a
   single buffer each send read the data the previous receive had just
   written (the mirror sent back what it received, the measure sent what
   the mirror's reply had put there), so on shared memory every send first
   pulled those cache lines back from the other core: RTT(64 KiB) came out
   13 us against 8-9 us with separate buffers on the test machine, and
   the fast g(m) twice the saturated one, which never sends from a buffer
   it received into.  Separate buffers time what an application sending
   its own data pays; the paper (Section 4) saw the same locality effect
   on its mirror and attributes its fast/saturation gap to it.  */
static void
size_iteration (struct ctx *c, int64_t m, double *os, double *rtt,
                double *orv, double *orexp)
{
  int cnt = (int) m, peer = c->dst;
  double ovh = c->o->timer_ovh;
  MPI_Comm w = MPI_COMM_WORLD;

  /* Round trip 1: m bytes out, timed send, 0 back.  */
  double t0 = wtime ();
  chk (MPI_Send (c->sbuf, cnt, MPI_BYTE, peer, TAG_DATA, w), "MPI_Send");
  double t1 = wtime ();
  chk (MPI_Recv (NULL, 0, MPI_BYTE, peer, TAG_DATA, w, MPI_STATUS_IGNORE),
       "MPI_Recv");
  double t2 = wtime ();
  *os = t1 - t0 - ovh;
  *rtt = t2 - t0 - ovh;
  /* Delta > RTT(m): the reply is there before the receive starts.  */
  double delta = 2.0 * (t2 - t0) + 1e-6;

  /* Round trip 2: 0 out, wait Delta, timed receive of m bytes.  */
  chk (MPI_Send (NULL, 0, MPI_BYTE, peer, TAG_DATA, w), "MPI_Send");
  spin (delta);
  double t4 = wtime ();
  chk (MPI_Recv (c->rbuf, cnt, MPI_BYTE, peer, TAG_DATA, w,
                 MPI_STATUS_IGNORE), "MPI_Recv");
  double t5 = wtime ();
  *orv = t5 - t4 - ovh;

  /* Round trip 3 (--expected): the receive is posted before arrival.  */
  if (c->o->expected)
    {
      MPI_Request rq;
      double a = wtime ();
      chk (MPI_Irecv (c->rbuf, cnt, MPI_BYTE, peer, TAG_DATA, w, &rq),
           "MPI_Irecv");
      double b = wtime ();
      chk (MPI_Send (NULL, 0, MPI_BYTE, peer, TAG_DATA, w), "MPI_Send");
      spin (delta);
      double d0 = wtime ();
      chk (MPI_Wait (&rq, MPI_STATUS_IGNORE), "MPI_Wait");
      double d1 = wtime ();
      *orexp = (b - a) + (d1 - d0) - 2.0 * ovh;
    }
  else
    *orexp = NAN;
}

static void
mirror_size (int src, char *sbuf, char *rbuf, int64_t m, int64_t count,
             int expected)
{
  int cnt = (int) m;
  MPI_Comm w = MPI_COMM_WORLD;
  for (int64_t r = 0; r < count; r++)
    {
      chk (MPI_Recv (rbuf, cnt, MPI_BYTE, src, TAG_DATA, w,
                     MPI_STATUS_IGNORE), "MPI_Recv");
      mpu_slow_hook (m);   /* MSGPERF_MPI_SLOW, a testing aid */
      chk (MPI_Send (NULL, 0, MPI_BYTE, src, TAG_DATA, w), "MPI_Send");
      chk (MPI_Recv (NULL, 0, MPI_BYTE, src, TAG_DATA, w,
                     MPI_STATUS_IGNORE), "MPI_Recv");
      chk (MPI_Send (sbuf, cnt, MPI_BYTE, src, TAG_DATA, w), "MPI_Send");
      if (expected)
        {
          chk (MPI_Recv (NULL, 0, MPI_BYTE, src, TAG_DATA, w,
                         MPI_STATUS_IGNORE), "MPI_Recv");
          chk (MPI_Send (sbuf, cnt, MPI_BYTE, src, TAG_DATA, w), "MPI_Send");
        }
    }
}

/* --------------------------------------------- the eager limit S */

/* Mirror side of an eager probe: per repetition, receive "go", compute
   for B (then 2B) without entering MPI, receive the M bytes, answer.  */
static void
mirror_eager (int src, char *rbuf, int64_t m, int64_t count, double busy)
{
  MPI_Comm w = MPI_COMM_WORLD;
  for (int64_t r = 0; r < 2 * count; r++)
    {
      chk (MPI_Recv (NULL, 0, MPI_BYTE, src, TAG_DATA, w,
                     MPI_STATUS_IGNORE), "MPI_Recv");
      spin (busy * (double) (1 + r % 2));
      chk (MPI_Recv (rbuf, (int) m, MPI_BYTE, src, TAG_DATA, w,
                     MPI_STATUS_IGNORE), "MPI_Recv");
      chk (MPI_Send (NULL, 0, MPI_BYTE, src, TAG_DATA, w), "MPI_Send");
    }
}

/* Measure side: the least time of MPI_Send (M bytes) with the mirror
   busy for B and for 2B; did it wait (logp_eager_waited)?  */
static int
eager_probe (int64_t m, void *vctx)
{
  struct ctx *c = vctx;
  MPI_Comm w = MPI_COMM_WORLD;
  send_cmd (c, OP_EAGER, m, EAGER_REPS, (int64_t) llround (c->busy * 1e9));
  double t[2] = { INFINITY, INFINITY };
  for (int r = 0; r < 2 * EAGER_REPS; r++)
    {
      chk (MPI_Send (NULL, 0, MPI_BYTE, c->dst, TAG_DATA, w), "MPI_Send");
      double t0 = wtime ();
      chk (MPI_Send (c->sbuf, (int) m, MPI_BYTE, c->dst, TAG_DATA, w),
           "MPI_Send");
      double dt = wtime () - t0;
      chk (MPI_Recv (NULL, 0, MPI_BYTE, c->dst, TAG_DATA, w,
                     MPI_STATUS_IGNORE), "MPI_Recv");
      if (dt < t[r % 2])
        t[r % 2] = dt;
    }
  int waited = logp_eager_waited (t[0], t[1], c->busy);
  if (cli_progress_now (c->o->progress))
    {
      char line[300];
      snprintf (line, sizeof line, "%s: %d->%d: eager limit: bytes %lld: "
                "send %.3g us, %.3g us with the receiver busy %.3g us "
                "longer: %s", err_program, c->src, c->dst, (long long) m,
                t[0] * 1e6, t[1] * 1e6, c->busy * 1e6,
                waited ? "waits" : "eager");
      progress_emit ("eager limit", line);
    }
  return waited;
}

/* Phase 4: S, into RES's head.  B is ten round trips of an empty
   message and at least EAGER_BUSY_MIN and 20 timer ticks: long
   against the send of any eager message and against the timer.  */
static void
eager_limit (struct ctx *c, struct lm_result *res)
{
  const struct lm_opts *o = c->o;
  c->busy = fmax (fmax (EAGER_BUSY_MIN, 10 * c->rtt0), 20 * o->tick);
  double t = wtime ();
  struct logp_eager e;
  int64_t lo = o->min_bytes > 1 ? o->min_bytes : 1;
  logp_eager_search (lo, o->max_bytes > lo ? o->max_bytes : lo,
                     eager_probe, c, &e);
  res->head[H_S] = (double) e.S;
  res->head[H_S_WAIT] = (double) e.first_wait;
  res->head[H_S_BUSY] = c->busy;
  res->head[H_S_PROBES] = (double) e.probes;
  res->head[H_S_DISPUTED] = (double) e.disputed;
  res->head[H_T_EAGER] = wtime () - t;
}

static size_t
new_row (struct ctx *c)
{
  struct lm_result *r = c->res;
  if (r->nrows == r->caprows)
    {
      r->caprows = r->caprows ? 2 * r->caprows : 64;
      r->rows = xrealloc (r->rows, r->caprows * R_NF * sizeof (double));
    }
  double *row = r->rows + r->nrows * R_NF;
  for (int i = 0; i < R_NF; i++)
    row[i] = NAN;
  row[R_SRC] = c->src;
  row[R_DST] = c->dst;
  return r->nrows++;
}

static double *
row_at (struct ctx *c, size_t i)
{
  return c->res->rows + i * R_NF;
}

static void
put_est (double *row, int at, const struct stats_summary *s)
{
  row[at] = s->median;
  row[at + 1] = s->ci_lo;
  row[at + 2] = s->ci_hi;
}

/* Measure o_s(m), o_r(m), RTT(m) (and the expected o_r) adaptively; the
   row's g is filled in from RTT(0) and g(0) when they are known.  */
static size_t
measure_size (struct ctx *c, int64_t m, int origin)
{
  struct stats_adapt a;
  adapt_cfg (c, m, &a);
  for (int q = 0; q < Q_NQTY; q++)
    stats_samples_clear (&c->s[q]);
  int nq = c->o->expected ? 4 : 3;
  enum stats_stop stop = STATS_CONTINUE;
  double start = wtime ();
  size_t rep = 0;
  int first = 1;
  while (stop == STATS_CONTINUE)
    {
      size_t want = first ? a.min_reps : BATCH;
      if (rep + want > a.max_reps)
        want = a.max_reps - rep;
      if (want == 0)
        want = 1;
      /* One untimed warm-up iteration before the first batch.  */
      send_cmd (c, OP_SIZE, m, (int64_t) want + first, 0);
      for (size_t k = 0; k < want + (size_t) first; k++)
        {
          double os, rtt, orv, orexp;
          size_iteration (c, m, &os, &rtt, &orv, &orexp);
          if (first && k == 0)
            continue;
          push_sample (c, m, Q_OS, 1, rep, os);
          push_sample (c, m, Q_RTT, 1, rep, rtt);
          push_sample (c, m, Q_OR, 1, rep, orv);
          if (c->o->expected)
            push_sample (c, m, Q_OREXP, 1, rep, orexp);
          rep++;
        }
      first = 0;
      enum stats_stop st[4];
      double el = wtime () - start;
      st[0] = stats_adapt_check (&a, c->s[Q_OS].x, c->s[Q_OS].n, el);
      st[1] = stats_adapt_check (&a, c->s[Q_RTT].x, c->s[Q_RTT].n, el);
      st[2] = stats_adapt_check (&a, c->s[Q_OR].x, c->s[Q_OR].n, el);
      if (nq == 4)
        st[3] = stats_adapt_check (&a, c->s[Q_OREXP].x, c->s[Q_OREXP].n, el);
      stop = combine_stop (st, nq);
    }

  size_t i = new_row (c);
  double *row = row_at (c, i);
  struct stats_summary s;
  row[R_BYTES] = (double) m;
  row[R_ORIGIN] = origin;
  summarize (c, &c->s[Q_OS], &s);
  put_est (row, R_OS, &s);
  summarize (c, &c->s[Q_OR], &s);
  put_est (row, R_OR, &s);
  summarize (c, &c->s[Q_RTT], &s);
  put_est (row, R_RTT, &s);
  if (c->o->expected)
    {
      summarize (c, &c->s[Q_OREXP], &s);
      put_est (row, R_OREXP, &s);
    }
  row[R_REPS] = (double) rep;
  row[R_STOP] = stop;
  if (m > 0)
    {
      /* g(m) = RTT(m) - RTT(0) + g(0); its interval adds the intervals of
         the three terms (a conservative bound).  */
      row[R_G] = logp_gap (row[R_RTT], c->rtt0, c->g0);
      row[R_G_LO] = logp_gap (row[R_RTT_LO], c->rtt0_hi, c->g0_lo);
      row[R_G_HI] = logp_gap (row[R_RTT_HI], c->rtt0_lo, c->g0_hi);
    }
  progress (c, "sizes", m, 1, rep, stop);
  return i;
}

/* ----------------------------------------------------------- saturation */

static void
mirror_sat (int src, char *rbuf, int64_t m, int64_t count, int64_t n)
{
  MPI_Comm w = MPI_COMM_WORLD;
  for (int64_t r = 0; r < count; r++)
    {
      for (int64_t k = 0; k < n; k++)
        chk (MPI_Recv (rbuf, (int) m, MPI_BYTE, src, TAG_DATA, w,
                       MPI_STATUS_IGNORE), "MPI_Recv");
      chk (MPI_Send (NULL, 0, MPI_BYTE, src, TAG_DATA, w), "MPI_Send");
    }
}

/* RTT_n(m): N messages of M bytes in a row, one empty reply; median and
   interval over adaptive repetitions.  */
static void
sat_run (struct ctx *c, int64_t m, int64_t n, struct stats_summary *out,
         enum stats_stop *stop_out)
{
  struct stats_adapt a;
  adapt_cfg (c, m, &a);
  if (a.max_reps > (size_t) c->o->max_reps_large && n > 1)
    a.max_reps = (size_t) c->o->max_reps_large;
  if (a.min_reps > a.max_reps)
    a.min_reps = a.max_reps;
  stats_samples_clear (&c->s[Q_RTTN]);
  enum stats_stop stop = STATS_CONTINUE;
  double start = wtime ();
  size_t rep = 0;
  int first = 1;
  MPI_Comm w = MPI_COMM_WORLD;
  while (stop == STATS_CONTINUE)
    {
      size_t want = first ? a.min_reps : BATCH;
      if (rep + want > a.max_reps)
        want = a.max_reps - rep;
      if (want == 0)
        want = 1;
      send_cmd (c, OP_SAT, m, (int64_t) want + first, n);
      for (size_t k = 0; k < want + (size_t) first; k++)
        {
          double t0 = wtime ();
          for (int64_t j = 0; j < n; j++)
            chk (MPI_Send (c->sbuf, (int) m, MPI_BYTE, c->dst, TAG_DATA, w),
                 "MPI_Send");
          chk (MPI_Recv (NULL, 0, MPI_BYTE, c->dst, TAG_DATA, w,
                         MPI_STATUS_IGNORE), "MPI_Recv");
          double t = wtime () - t0 - c->o->timer_ovh;
          if (first && k == 0)
            continue;
          push_sample (c, m, Q_RTTN, n, rep, t);
          rep++;
        }
      first = 0;
      stop = stats_adapt_check (&a, c->s[Q_RTTN].x, c->s[Q_RTTN].n,
                                wtime () - start);
    }
  summarize (c, &c->s[Q_RTTN], out);
  *stop_out = stop;
}

/* g(m) by saturation (Section 3, used there for g(0) only): N = 10, 20,
   40, ... until the gap per message changes by at most epsilon and
   RTT_1 < epsilon * RTT_N.  */
static void
saturate (struct ctx *c, int64_t m, double *g, double *g_lo, double *g_hi,
          int64_t *n_used, enum stats_stop *stop_out)
{
  struct stats_summary s1, sn;
  enum stats_stop st;
  double start = wtime ();
  sat_run (c, m, 1, &s1, &st);
  double rtt1 = s1.median, prev = NAN, gap = NAN;
  int64_t n = SAT_N0;
  enum stats_stop stop = STATS_CONTINUE;
  for (;;)
    {
      sat_run (c, m, n, &sn, &st);
      gap = logp_sat_gap (sn.median, rtt1, n);
      *g_lo = logp_sat_gap (sn.ci_lo, rtt1, n);
      *g_hi = logp_sat_gap (sn.ci_hi, rtt1, n);
      progress (c, "saturation", m, n, sn.n, st);
      if (isfinite (prev) && logp_sat_done (prev, gap, rtt1, sn.median,
                                            c->o->eps))
        {
          stop = STATS_CONVERGED;
          break;
        }
      prev = gap;
      if (2 * n > SAT_MAX_N || (m > 0 && 2 * n * m > SAT_MAX_VOLUME))
        {
          stop = STATS_MAX_REPS;
          break;
        }
      if (wtime () - start > c->o->time_cap)
        {
          stop = STATS_TIME_CAP;
          break;
        }
      n *= 2;
    }
  *g = gap;
  *n_used = n;
  *stop_out = stop;
}

/* ------------------------------------------------------------ the pair */

static int
select_cb (int64_t bytes, struct logp_point *pt, void *vctx)
{
  struct ctx *c = vctx;
  c->size_budget = pt->budget;
  size_t i = measure_size (c, bytes, pt->origin);
  c->size_budget = INFINITY;
  const double *r = row_at (c, i);
  pt->v[LOGP_OS] = r[R_OS];
  pt->u[LOGP_OS] = fmax (r[R_OS] - r[R_OS_LO], r[R_OS_HI] - r[R_OS]);
  pt->v[LOGP_OR] = r[R_OR];
  pt->u[LOGP_OR] = fmax (r[R_OR] - r[R_OR_LO], r[R_OR_HI] - r[R_OR]);
  /* g = RTT + constant: the constant cancels in the extrapolation, so
     only RTT's interval matters.  */
  pt->v[LOGP_G] = r[R_G];
  pt->u[LOGP_G] = fmax (r[R_RTT] - r[R_RTT_LO], r[R_RTT_HI] - r[R_RTT]);
  pt->id = i;
  return 0;
}

static int
cmp_rows (const void *a, const void *b)
{
  double x = ((const double *) a)[R_BYTES], y = ((const double *) b)[R_BYTES];
  return x < y ? -1 : x > y;
}

/* The selection's clock (logp_select_cfg.clock).  */
static double
select_clock (void *vctx)
{
  (void) vctx;
  return wtime ();
}

static void
warm_up (struct ctx *c)
{
  double os, rtt, orv, orexp;
  send_cmd (c, OP_SIZE, 0, 100, 0);
  for (int k = 0; k < 100; k++)
    size_iteration (c, 0, &os, &rtt, &orv, &orexp);
  send_cmd (c, OP_SIZE, c->o->start_max, 2, 0);
  for (int k = 0; k < 2; k++)
    size_iteration (c, c->o->start_max, &os, &rtt, &orv, &orexp);
}

void
lm_measure (const struct lm_opts *o, int src, int dst, char *sbuf,
            char *rbuf, const struct lm_sizes *sizes,
            struct lm_sizes *chosen, struct lm_result *res)
{
  struct ctx c;
  memset (&c, 0, sizeof c);
  c.o = o;
  c.src = src;
  c.dst = dst;
  c.sbuf = sbuf;
  c.rbuf = rbuf;
  c.res = res;
  c.size_budget = INFINITY;
  memset (res->head, 0, sizeof res->head);

  warm_up (&c);

  /* Phase 1: g(0) by saturation, then RTT(0), L.  */
  double t = wtime ();
  int64_t g0n;
  enum stats_stop g0stop;
  saturate (&c, 0, &c.g0, &c.g0_lo, &c.g0_hi, &g0n, &g0stop);
  res->head[H_T_G0] = wtime () - t;
  res->head[H_G0_N] = (double) g0n;
  res->head[H_G0_STOP] = g0stop;

  /* Phase 2: the sizes.  */
  t = wtime ();
  size_t i0 = measure_size (&c, 0, LOGP_BASE);
  double *r0 = row_at (&c, i0);
  c.rtt0 = r0[R_RTT];
  c.rtt0_lo = r0[R_RTT_LO];
  c.rtt0_hi = r0[R_RTT_HI];
  r0[R_G] = c.g0;
  r0[R_G_LO] = c.g0_lo;
  r0[R_G_HI] = c.g0_hi;
  c.L = logp_latency (c.rtt0, c.g0);

  if (sizes == NULL)
    {
      struct logp_select_cfg cfg;
      memset (&cfg, 0, sizeof cfg);
      cfg.min_bytes = o->min_bytes;
      cfg.start_max = o->start_max;
      cfg.max_bytes = o->max_bytes;
      cfg.eps = o->eps;
      cfg.abs_tol = o->tick;
      cfg.min_step = 32;
      cfg.time_limit = o->time_limit;
      cfg.clock = select_clock;
      c.t_select0 = MPI_Wtime ();
      struct logp_curve curve;
      memset (&curve, 0, sizeof curve);
      if (logp_select (&cfg, select_cb, &c, &curve) == LOGP_SELECT_NOMEM)
        mpu_die (EXIT_DATA, "out of memory while choosing the message "
                 "sizes");
      res->head[H_NGROWN] = (double) curve.n_grown;
      res->head[H_NREFINED] = (double) curve.n_refined;
      res->head[H_LIMITED] = curve.limited;
      res->head[H_SKIPPED] = (double) curve.skipped;
      res->head[H_T_SELECT] = curve.elapsed;
      if (curve.limited != LOGP_STAGE_NONE && cli_progress_now (o->progress))
        progress_end (), fprintf (stderr, "%s: %d->%d: time limit: %.3g s of %.3g s used, "
                 "%s stopped before bytes %lld\n", err_program, src, dst,
                 curve.elapsed, o->time_limit,
                 logp_stage_name (curve.limited), (long long) curve.skipped);
      if (chosen != NULL)
        {
          chosen->n = curve.n;
          chosen->bytes = xrealloc (NULL, (curve.n + 1) * sizeof (int64_t));
          chosen->origin = xrealloc (NULL, (curve.n + 1) * sizeof (int));
          for (size_t k = 0; k < curve.n; k++)
            {
              chosen->bytes[k] = curve.p[k].bytes;
              chosen->origin[k] = curve.p[k].origin;
            }
        }
      logp_curve_free (&curve);
    }
  else
    for (size_t k = 0; k < sizes->n; k++)
      {
        measure_size (&c, sizes->bytes[k], sizes->origin[k]);
        if (sizes->origin[k] == LOGP_GROWN)
          res->head[H_NGROWN]++;
        else if (sizes->origin[k] == LOGP_REFINED)
          res->head[H_NREFINED]++;
      }
  res->head[H_T_SIZES] = wtime () - t;

  /* Phase 3 (--saturate): g(m) by saturation for every size.  */
  t = wtime ();
  for (size_t k = 0; k < res->nrows; k++)
    {
      double *row = row_at (&c, k);
      row[R_L] = c.L;
      row[R_G0] = c.g0;
      if (!o->saturate)
        continue;
      int64_t m = (int64_t) row[R_BYTES];
      double g, lo, hi;
      int64_t n;
      enum stats_stop st;
      if (m == 0)
        {
          g = c.g0, lo = c.g0_lo, hi = c.g0_hi, n = g0n, st = g0stop;
        }
      else
        saturate (&c, m, &g, &lo, &hi, &n, &st);
      row = row_at (&c, k);
      row[R_GSAT] = g;
      row[R_GSAT_LO] = lo;
      row[R_GSAT_HI] = hi;
      row[R_GSAT_N] = (double) n;
      row[R_GSAT_STOP] = st;
    }
  res->head[H_T_SAT] = o->saturate ? wtime () - t : 0;

  /* Phase 4: the eager limit S.  */
  res->head[H_S] = res->head[H_S_WAIT] = res->head[H_S_BUSY] = NAN;
  if (o->eager)
    eager_limit (&c, res);

  progress_end ();
  send_cmd (&c, OP_DONE, 0, 0, 0);
  qsort (res->rows, res->nrows, R_NF * sizeof (double), cmp_rows);
  res->head[H_NROWS] = (double) res->nrows;
  res->head[H_NSAMPLES] = (double) res->nsamples;
  for (int q = 0; q < Q_NQTY; q++)
    stats_samples_free (&c.s[q]);
  free (c.scratch);
}

void
lm_mirror (const struct lm_opts *o, int src, char *sbuf, char *rbuf)
{
  MPI_Comm w = MPI_COMM_WORLD;
  for (;;)
    {
      int64_t cmd[CMD_NF];
      chk (MPI_Recv (cmd, CMD_NF, MPI_INT64_T, src, TAG_CMD, w,
                     MPI_STATUS_IGNORE), "MPI_Recv (command)");
      if (cmd[CMD_OP] == OP_DONE)
        return;
      if (cmd[CMD_BYTES] < 0 || cmd[CMD_BYTES] > o->max_bytes
          || cmd[CMD_COUNT] < 0
          || (cmd[CMD_OP] != OP_SIZE && cmd[CMD_OP] != OP_SAT
              && cmd[CMD_OP] != OP_EAGER)
          || (cmd[CMD_OP] == OP_EAGER
              && (cmd[CMD_N] < 0 || cmd[CMD_N] > INT64_C (10000000000))))
        mpu_die (EXIT_DATA, "bad command from rank %d", src);
      chk (MPI_Send (NULL, 0, MPI_BYTE, src, TAG_DATA, w), "MPI_Send (ready)");
      if (cmd[CMD_OP] == OP_SIZE)
        mirror_size (src, sbuf, rbuf, cmd[CMD_BYTES], cmd[CMD_COUNT],
                     (int) cmd[CMD_EXPECTED]);
      else if (cmd[CMD_OP] == OP_EAGER)
        mirror_eager (src, rbuf, cmd[CMD_BYTES], cmd[CMD_COUNT],
                      (double) cmd[CMD_N] * 1e-9);
      else
        mirror_sat (src, rbuf, cmd[CMD_BYTES], cmd[CMD_COUNT], cmd[CMD_N]);
    }
}

void
lm_result_free (struct lm_result *res)
{
  free (res->rows);
  free (res->samples);
  memset (res, 0, sizeof *res);
}
