/* SPDX-License-Identifier: GPL-3.0-or-later */
/* load.c: the kernels of comet-benchmark.txt Section 2.2.1 that measure
 * communication under load: echo with contention (Figures 5 and 6) and
 * the overlap of communication and computation (Figures 7 and 8).  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth.h"
#include "comet.h"
#include "grid2d.h"
#include "mpiutil.h"
#include "xalloc.h"
#include "overlap.h"

enum { TAG_LOAD = 21, TAG_STOP = 22, TAG_END = 23, TAG_OVL = 24 };

/* ------------------------------------------------------------ contention */

/* The load pair (Figure 6, nodes 1 and 4): the sender sends messages of
   LOAD bytes to the receiver without pause until the test node tells it
   to stop.  MPI_Ssend keeps the sender from running ahead of the receiver
   (an unbounded queue of unexpected messages would measure memory, not
   contention); the stop message is checked between two sends, and the
   receiver learns the end from a message of its own tag, which MPI's
   ordering delivers after every load message.

   The load is verified too, without filling whole messages (which would
   change the load): load message K carries K in its first and its last
   8 bytes (as many of K's bytes as fit), the end message the number of
   load messages sent, and the receiver checks both, so that a stale
   buffer or a lost message fails.  The receiver tells the test node how
   many moved (#@contention_load_messages).
   MSGPERF_COMET_BREAK=contention:load sends every load message with the
   previous one's number.  */

/* Mark or read message K's number in BUF (COUNT bytes): K's low bytes
   at both ends.  */
static void
load_mark (unsigned char *buf, int count, int64_t k)
{
  uint64_t u = (uint64_t) k;
  int n = count < 8 ? count : 8;
  for (int i = 0; i < n; i++)
    {
      buf[i] = (unsigned char) (u >> (8 * i));
      buf[count - n + i] = (unsigned char) (u >> (8 * i));
    }
}

static int
load_marked (const unsigned char *buf, int count, int64_t k)
{
  unsigned char want[8];
  int n = count < 8 ? count : 8;
  for (int i = 0; i < n; i++)
    want[i] = (unsigned char) ((uint64_t) k >> (8 * i));
  return memcmp (buf, want, (size_t) n) == 0
         && memcmp (buf + count - n, want, (size_t) n) == 0;
}

static void
load_sender (struct comet_ctx *c, int receiver, unsigned char *buf,
             int count)
{
  int stale = comet_break_mode ("contention") == COMET_BREAK_LOAD;
  for (int64_t k = 0;; k++)
    {
      int flag = 0;
      mpu_check (MPI_Iprobe (c->test, TAG_STOP, c->comm, &flag,
                             MPI_STATUS_IGNORE), "MPI_Iprobe");
      if (flag)
        {
          mpu_check (MPI_Recv (NULL, 0, MPI_BYTE, c->test, TAG_STOP, c->comm,
                               MPI_STATUS_IGNORE), "MPI_Recv");
          mpu_check (MPI_Send (&k, 1, MPI_INT64_T, receiver, TAG_END,
                               c->comm), "MPI_Send");
          return;
        }
      load_mark (buf, count, k - stale);
      mpu_check (MPI_Ssend (buf, count, MPI_BYTE, receiver, TAG_LOAD,
                            c->comm), "MPI_Ssend");
    }
}

/* BUF has room for max (COUNT, 8) bytes (the end message's count).  */
static void
load_receiver (struct comet_ctx *c, int sender, unsigned char *buf,
               int count, int64_t load)
{
  for (int64_t k = 0;; k++)
    {
      MPI_Status st;
      mpu_check (MPI_Recv (buf, count > 8 ? count : 8, MPI_BYTE, sender,
                           MPI_ANY_TAG, c->comm, &st), "MPI_Recv");
      if (st.MPI_TAG == TAG_END)
        {
          int64_t sent;
          memcpy (&sent, buf, sizeof sent);
          if (sent != k)
            mpu_die (EXIT_DATA, "contention: load verification failed at "
                     "load %lld on rank %d: rank %d sent %lld load "
                     "messages, %lld arrived", (long long) load, c->rank,
                     sender, (long long) sent, (long long) k);
          mpu_check (MPI_Send (&k, 1, MPI_INT64_T, c->test, TAG_END,
                               c->comm), "MPI_Send");
          return;
        }
      if (!load_marked (buf, count, k))
        mpu_die (EXIT_DATA, "contention: load verification failed at load "
                 "%lld on rank %d: load message %lld from rank %d does not "
                 "carry its number (a stale or lost message)",
                 (long long) load, c->rank, (long long) k, sender);
    }
}

/* The four nodes of Figure 5: the echo pair is the test node and its
   lowest 1-hop neighbour, the load pair the two lowest other ranks (on a
   larger machine, the paper picks the load pair so that its traffic
   crosses the echo pair's links; MPI hides the links, and on a shared-
   memory node the contention is for memory bandwidth and cores).  Ranks
   beyond the four wait.  The loads are the sizes that reach 50% and 90%
   of the peak echo bandwidth of an unloaded sweep (Section 4.1), unless
   --loads gives them.  */
void
kernel_contention (struct comet_ctx *c)
{
  const struct comet_opts *o = c->opt;
  int echo_partner = grid2d_rank_at (c->test, 1, c->rows, c->cols);
  int sender = -1, receiver = -1;
  for (int r = 0; r < c->size && receiver < 0; r++)
    if (r != c->test && r != echo_partner)
      {
        if (sender < 0)
          sender = r;
        else
          receiver = r;
      }
  MPI_Comm pair = comet_pair_comm (c, echo_partner);

  int64_t *loads, found[2] = { -1, -1 };
  size_t nloads;
  if (o->loads.given)
    {
      loads = o->loads.v;
      nloads = o->loads.n;
    }
  else
    {
      if (pair != MPI_COMM_NULL)
        {
          double *mbps = xcalloc (1, o->sizes.n * sizeof *mbps);
          comet_echo_sweep (c, pair, "contention", 1, -1, 0, mbps);
          found[0] = bandwidth_fraction_size (o->sizes.v, mbps, o->sizes.n,
                                              0.5);
          found[1] = bandwidth_fraction_size (o->sizes.v, mbps, o->sizes.n,
                                              0.9);
          free (mbps);
          if (c->rank == c->test && found[0] < 0)
            mpu_die (EXIT_DATA, "contention: no positive echo bandwidth in "
                     "the --sizes sweep to take the 50%% and 90%% loads "
                     "from; give them with --loads");
        }
      comet_idle_barrier (c);
      mpu_check (MPI_Bcast (found, 2, MPI_INT64_T, c->test, c->comm),
                 "MPI_Bcast");
      loads = found;
      /* A sweep too coarse to tell them apart gives one load, once.  */
      nloads = found[1] == found[0] ? 1 : 2;
      if (c->rank == c->test)
        {
          tsv_meta (c->w, "contention_load50", "%lld", (long long) found[0]);
          tsv_meta (c->w, "contention_load90", "%lld", (long long) found[1]);
        }
    }

  int64_t maxload = 0;
  for (size_t i = 0; i < nloads; i++)
    if (loads[i] > maxload)
      maxload = loads[i];
  unsigned char *buf = NULL;
  if (c->rank == sender || c->rank == receiver)
    buf = xcalloc (1, (size_t) (maxload > 8 ? maxload : 8));
  char moved[400] = "";
  size_t len = 0;
  for (size_t i = 0; i < nloads; i++)
    {
      int count = comet_mpi_count (loads[i], "load size");
      mpu_check (MPI_Barrier (c->comm), "MPI_Barrier");
      if (c->rank == sender)
        load_sender (c, receiver, buf, count);
      else if (c->rank == receiver)
        load_receiver (c, sender, buf, count, loads[i]);
      else if (pair != MPI_COMM_NULL)
        {
          comet_echo_sweep (c, pair, "contention", 1, loads[i], 1, NULL);
          if (c->rank == c->test)
            {
              int64_t n;
              mpu_check (MPI_Send (NULL, 0, MPI_BYTE, sender, TAG_STOP,
                                   c->comm), "MPI_Send");
              mpu_check (MPI_Recv (&n, 1, MPI_INT64_T, receiver, TAG_END,
                                   c->comm, MPI_STATUS_IGNORE), "MPI_Recv");
              if (len < sizeof moved)
                len += (size_t) snprintf (moved + len, sizeof moved - len,
                                          "%s%lld:%lld", i ? "," : "",
                                          (long long) loads[i],
                                          (long long) n);
            }
        }
      comet_idle_barrier (c);
    }
  if (c->rank == c->test)
    tsv_meta (c->w, "contention_load_messages", "%s", moved);
  free (buf);
  if (pair != MPI_COMM_NULL)
    MPI_Comm_free (&pair);
}

/* ------------------------------------------------------------ overlap */

struct ovl_arg
{
  MPI_Comm comm;
  int other;
  char *sbuf, *rbuf;
  int count;
  double *x, *y;
  int n;
};

/* The computational part: DAXPY, y = a x + y (Dongarra and Sorensen).  */
static void
daxpy (int n, double a, const double *x, double *y)
{
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

#define DAXPY_A 1e-9

static void
op_comm (void *arg)
{
  struct ovl_arg *p = arg;
  COMET_MPI (MPI_Sendrecv (p->sbuf, p->count, MPI_BYTE, p->other, TAG_OVL,
                           p->rbuf, p->count, MPI_BYTE, p->other, TAG_OVL,
                           p->comm, MPI_STATUS_IGNORE), "MPI_Sendrecv");
}

static void
op_comp (void *arg)
{
  struct ovl_arg *p = arg;
  daxpy (p->n, DAXPY_A, p->x, p->y);
}

/* Figure 7: the exchange, then the DAXPY.  */
static void
op_sync (void *arg)
{
  op_comm (arg);
  op_comp (arg);
}

/* Figure 8: post the exchange, compute, then wait for it.  */
static void
op_async (void *arg)
{
  struct ovl_arg *p = arg;
  MPI_Request rq[2];
  COMET_MPI (MPI_Irecv (p->rbuf, p->count, MPI_BYTE, p->other, TAG_OVL,
                        p->comm, &rq[0]), "MPI_Irecv");
  COMET_MPI (MPI_Isend (p->sbuf, p->count, MPI_BYTE, p->other, TAG_OVL,
                        p->comm, &rq[1]), "MPI_Isend");
  daxpy (p->n, DAXPY_A, p->x, p->y);
  COMET_MPI (MPI_Waitall (2, rq, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

/* One untimed exchange of each form (Figures 7 and 8, without the
   DAXPY) with checked content: the partner's message must arrive.  */
static void
overlap_verify (struct comet_ctx *c, struct ovl_arg *p, int peer,
                int64_t seq, int64_t size)
{
  size_t n = (size_t) p->count;
  int skip = comet_broken ("overlap");
  int keep = p->n;
  p->n = 0;
  for (int form = 0; form < 2; form++)
    {
      comet_fill ("overlap", p->sbuf, n, 2 * seq + form, c->rank, peer);
      comet_prefill (p->rbuf, n, 2 * seq + form, peer, c->rank);
      if (!skip)
        (form ? op_async : op_sync) (p);
      comet_check ("overlap", size, c->rank, p->rbuf, n, 2 * seq + form,
                   peer, c->rank);
    }
  p->n = keep;
}

/* The message sizes overlap sweeps when --sizes is not given: the full
   default sweep times every vector length would take long; the paper
   plots 0, 2536 and 85000 bytes.  */
#define OVERLAP_SIZES_N 4
static const int64_t overlap_sizes[OVERLAP_SIZES_N] = { 0, 4096, 65536,
                                                        1048576 };

static double
measure_median (struct comet_ctx *c, MPI_Comm pair, comet_op op,
                struct ovl_arg *p, struct comet_result *res)
{
  struct comet_timing t = { pair, 0, 0, op, p, 1.0, 0, 0 };
  comet_measure (c, &t, res);
  return res->s.median;
}

void
kernel_overlap (struct comet_ctx *c)
{
  const struct comet_opts *o = c->opt;
  const int64_t *sizes = o->sizes.given ? o->sizes.v : overlap_sizes;
  size_t nsizes = o->sizes.given ? o->sizes.n : OVERLAP_SIZES_N;
  int partner = grid2d_rank_at (c->test, 1, c->rows, c->cols);
  MPI_Comm pair = comet_pair_comm (c, partner);
  if (pair == MPI_COMM_NULL)
    return;

  struct ovl_arg p;
  int me;
  MPI_Comm_rank (pair, &me);
  p.comm = pair;
  p.other = 1 - me;
  int64_t maxb = 0, maxn = 0;
  for (size_t i = 0; i < nsizes; i++)
    if (sizes[i] > maxb)
      maxb = sizes[i];
  for (size_t i = 0; i < o->veclens.n; i++)
    if (o->veclens.v[i] > maxn)
      maxn = o->veclens.v[i];
  p.sbuf = xcalloc (1, (size_t) maxb);
  p.rbuf = xcalloc (1, (size_t) maxb);
  p.x = xcalloc (1, (size_t) maxn * sizeof (double));
  p.y = xcalloc (1, (size_t) maxn * sizeof (double));
  for (int64_t i = 0; i < maxn; i++)
    p.x[i] = 1;

  /* The DAXPY alone, per vector length (both nodes compute).  */
  double *tcomp = xcalloc (1, o->veclens.n * sizeof *tcomp);
  struct comet_result res;
  p.count = 0;
  for (size_t j = 0; j < o->veclens.n; j++)
    {
      p.n = comet_mpi_count (o->veclens.v[j], "vector length");
      tcomp[j] = measure_median (c, pair, op_comp, &p, &res);
    }

  for (size_t i = 0; i < nsizes; i++)
    {
      p.count = comet_mpi_count (sizes[i], "message size");
      overlap_verify (c, &p, me == 0 ? partner : c->test, (int64_t) i,
                      sizes[i]);
      p.n = 0;
      double tcomm = measure_median (c, pair, op_comm, &p, &res);
      for (size_t j = 0; j < o->veclens.n; j++)
        {
          p.n = (int) o->veclens.v[j];
          struct comet_result rsync;
          double tsync = measure_median (c, pair, op_sync, &p, &rsync);
          measure_median (c, pair, op_async, &p, &res);
          double noise = (rsync.s.ci_hi - rsync.s.ci_lo) / 2
                         + (res.s.ci_hi - res.s.ci_lo) / 2;
          struct comet_row row;
          comet_row_init (&row, "overlap");
          row.bytes = sizes[i];
          row.veclen = o->veclens.v[j];
          row.hops = 1;
          comet_row_result (&row, &res);
          row.tsync = tsync;
          row.tcomm = tcomm;
          row.tcomp = tcomp[j];
          row.overlap = overlap_percent (tsync, res.s.median, tcomm,
                                         tcomp[j], noise);
          row.overlap_raw = overlap_raw_percent (tsync, res.s.median, tcomm,
                                                 tcomp[j], noise);
          if (c->rank == c->test && isnan (row.overlap))
            warn_once ("overlap-na", "overlap: NA where the shorter of the "
                       "exchange and the DAXPY is within the noise of the "
                       "two times (nothing measurable to hide, e.g. veclen "
                       "0)");
          comet_emit (c, &row);
        }
    }
  free (tcomp);
  free (p.sbuf);
  free (p.rbuf);
  free (p.x);
  free (p.y);
  MPI_Comm_free (&pair);
}
