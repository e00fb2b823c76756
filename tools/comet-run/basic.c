/* SPDX-License-Identifier: GPL-3.0-or-later */
/* basic.c: the basic communication kernels of comet-benchmark.txt,
 * Section 2.2.1: echo (Figure 1), pairwise exchange (Figure 2), broadcast
 * (Figure 3), global reduction (Figure 4) and global synchronization.  */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "bandwidth.h"
#include "comet.h"
#include "grid2d.h"
#include "mpiutil.h"
#include "xalloc.h"

enum { TAG_ECHO = 11, TAG_PAIR = 12, TAG_ACK = 13 };

/* Largest value of a sweep.  */
static int64_t
sweep_max (const struct comet_sweep *s)
{
  int64_t m = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] > m)
      m = s->v[i];
  return m;
}

/* ------------------------------------------------------------ echo */

/* Two ranks of a pair communicator and the message they bounce.  */
struct pair_arg
{
  MPI_Comm comm;
  int me;
  struct comet_bufs bufs;   /* --buffers, --cache */
  int count;
};

/* Figure 1: the test node sends and waits for the reply; the other node
   receives and sends the message back.  With --buffers separate each
   side sends from its send buffer and receives into its receive buffer
   (the reply leaves from the partner's send buffer, as in OSU's and
   IMB's ping-pong); shared bounces one buffer.  */
static void
op_echo (void *arg)
{
  struct pair_arg *p = arg;
  char *s, *r;
  comet_bufs_next (&p->bufs, &s, &r);
  if (p->me == 0)
    {
      COMET_MPI (MPI_Send (s, p->count, MPI_BYTE, 1, TAG_ECHO, p->comm),
                 "MPI_Send");
      COMET_MPI (MPI_Recv (r, p->count, MPI_BYTE, 1, TAG_ECHO, p->comm,
                           MPI_STATUS_IGNORE), "MPI_Recv");
    }
  else
    {
      COMET_MPI (MPI_Recv (r, p->count, MPI_BYTE, 0, TAG_ECHO, p->comm,
                           MPI_STATUS_IGNORE), "MPI_Recv");
      mpu_slow_hook (p->count);   /* MSGPERF_MPI_SLOW, a testing aid */
      COMET_MPI (MPI_Send (s, p->count, MPI_BYTE, 0, TAG_ECHO, p->comm),
                 "MPI_Send");
    }
}

/* The rank in c->comm of the other member of PAIR.  */
static int
pair_peer (struct comet_ctx *c, MPI_Comm pair, int me)
{
  MPI_Group gp, gc;
  int other = 1 - me, peer;
  mpu_check (MPI_Comm_group (pair, &gp), "MPI_Comm_group");
  mpu_check (MPI_Comm_group (c->comm, &gc), "MPI_Comm_group");
  mpu_check (MPI_Group_translate_ranks (gp, 1, &other, gc, &peer),
             "MPI_Group_translate_ranks");
  MPI_Group_free (&gp);
  MPI_Group_free (&gc);
  return peer;
}

/* One untimed round trip of the echo with checked content (verify.c):
   the partner checks the test node's message, the test node the reply,
   which is the partner's own (a reply of the bytes received would pass a
   partner that sent back a stale buffer).  */
static void
echo_verify (struct comet_ctx *c, struct pair_arg *p, const char *kernel,
             int peer, int64_t seq, int64_t size)
{
  int skip = comet_broken (kernel);
  size_t n = (size_t) p->count;
  char *s = p->bufs.send, *r = p->bufs.recv;
  if (p->me == 0)
    {
      comet_fill (kernel, s, n, seq, c->rank, peer);
      if (!skip)
        mpu_check (MPI_Send (s, p->count, MPI_BYTE, 1, TAG_ECHO, p->comm),
                   "MPI_Send");
      comet_prefill (r, n, seq, peer, c->rank);
      if (!skip)
        mpu_check (MPI_Recv (r, p->count, MPI_BYTE, 1, TAG_ECHO, p->comm,
                             MPI_STATUS_IGNORE), "MPI_Recv");
      comet_check (kernel, size, c->rank, r, n, seq, peer, c->rank);
    }
  else
    {
      comet_prefill (r, n, seq, peer, c->rank);
      if (!skip)
        mpu_check (MPI_Recv (r, p->count, MPI_BYTE, 0, TAG_ECHO, p->comm,
                             MPI_STATUS_IGNORE), "MPI_Recv");
      comet_check (kernel, size, c->rank, r, n, seq, peer, c->rank);
      comet_fill (kernel, s, n, seq, c->rank, peer);
      if (!skip)
        mpu_check (MPI_Send (s, p->count, MPI_BYTE, 0, TAG_ECHO, p->comm),
                   "MPI_Send");
    }
}

void
comet_echo_sweep (struct comet_ctx *c, MPI_Comm pair, const char *kernel,
                  int hops, int64_t load, int emit, double *mbps)
{
  const struct comet_sweep *sizes = &c->opt->sizes;
  struct pair_arg p;
  p.comm = pair;
  MPI_Comm_rank (pair, &p.me);
  comet_bufs_init (c->opt, &p.bufs, (size_t) sweep_max (sizes));
  int peer = pair_peer (c, pair, p.me);
  for (size_t i = 0; i < sizes->n; i++)
    {
      p.count = comet_mpi_count (sizes->v[i], "message size");
      echo_verify (c, &p, kernel, peer, (int64_t) i, sizes->v[i]);
      /* One-way time: half the measured round trip (Section 2.2.1).  */
      struct comet_timing t = { pair, 0, 0, op_echo, &p, 2.0, 0, 0 };
      struct comet_result res;
      comet_measure (c, &t, &res);
      struct comet_row row;
      comet_row_init (&row, kernel);
      row.bytes = sizes->v[i];
      row.hops = hops;
      row.load = load;
      comet_row_result (&row, &res);
      row.mbps = bandwidth_mbps (sizes->v[i], res.s.median);
      if (mbps)
        mbps[i] = row.mbps;
      if (emit)
        comet_emit (c, &row);
    }
  comet_bufs_free (&p.bufs);
}

/* Every hop distance the grid offers from the test node: the partner is
   the lowest rank at that distance (grid2d_rank_at).  */
void
kernel_echo (struct comet_ctx *c)
{
  for (int h = 1;; h++)
    {
      int partner = grid2d_rank_at (c->test, h, c->rows, c->cols);
      if (partner < 0)
        break;
      MPI_Comm pair = comet_pair_comm (c, partner);
      if (pair != MPI_COMM_NULL)
        {
          comet_echo_sweep (c, pair, "echo", h, -1, 1, NULL);
          MPI_Comm_free (&pair);
        }
      comet_idle_barrier (c);
    }
}

/* ------------------------------------------------------------ pairwise */

/* Figure 2: both nodes send and receive at the same time.  The paper's
   send-then-receive relies on buffered sends and "can deadlock" without
   them; MPI_Sendrecv is the deadlock-free formulation of the same
   simultaneous exchange.  */
static void
pair_exchange (struct pair_arg *p, char *s, char *r)
{
  int other = 1 - p->me;
  /* --buffers shared: MPI_Sendrecv_replace, the one buffer both ways.  */
  if (s == r)
    {
      COMET_MPI (MPI_Sendrecv_replace (s, p->count, MPI_BYTE, other,
                                       TAG_PAIR, other, TAG_PAIR, p->comm,
                                       MPI_STATUS_IGNORE),
                 "MPI_Sendrecv_replace");
      return;
    }
  COMET_MPI (MPI_Sendrecv (s, p->count, MPI_BYTE, other, TAG_PAIR,
                           r, p->count, MPI_BYTE, other, TAG_PAIR,
                           p->comm, MPI_STATUS_IGNORE), "MPI_Sendrecv");
}

static void
op_pairwise (void *arg)
{
  struct pair_arg *p = arg;
  char *s, *r;
  comet_bufs_next (&p->bufs, &s, &r);
  pair_exchange (p, s, r);
}

/* One untimed exchange of the pairwise kernel with checked content: each
   side must receive the other's message (with --buffers shared, its own
   message stays in the buffer unless the exchange happened).  */
static void
pairwise_verify (struct comet_ctx *c, struct pair_arg *p, int peer,
                 int64_t seq, int64_t size)
{
  size_t n = (size_t) p->count;
  char *s = p->bufs.send, *r = p->bufs.recv;
  comet_fill ("pairwise", s, n, seq, c->rank, peer);
  if (r != s)
    comet_prefill (r, n, seq, peer, c->rank);
  if (!comet_broken ("pairwise"))
    pair_exchange (p, s, r);
  comet_check ("pairwise", size, c->rank, r, n, seq, peer, c->rank);
}

void
kernel_pairwise (struct comet_ctx *c)
{
  const struct comet_sweep *sizes = &c->opt->sizes;
  for (int h = 1;; h++)
    {
      int partner = grid2d_rank_at (c->test, h, c->rows, c->cols);
      if (partner < 0)
        break;
      MPI_Comm pair = comet_pair_comm (c, partner);
      if (pair != MPI_COMM_NULL)
        {
          struct pair_arg p;
          p.comm = pair;
          MPI_Comm_rank (pair, &p.me);
          comet_bufs_init (c->opt, &p.bufs, (size_t) sweep_max (sizes));
          int peer = pair_peer (c, pair, p.me);
          for (size_t i = 0; i < sizes->n; i++)
            {
              p.count = comet_mpi_count (sizes->v[i], "message size");
              pairwise_verify (c, &p, peer, (int64_t) i, sizes->v[i]);
              struct comet_timing t = { pair, 0, 0, op_pairwise, &p, 1.0,
                                        0, 0 };
              struct comet_result res;
              comet_measure (c, &t, &res);
              struct comet_row row;
              comet_row_init (&row, "pairwise");
              row.bytes = sizes->v[i];
              row.hops = h;
              comet_row_result (&row, &res);
              row.mbps = bandwidth_mbps (sizes->v[i], res.s.median);
              comet_emit (c, &row);
            }
          comet_bufs_free (&p.bufs);
          MPI_Comm_free (&pair);
        }
      comet_idle_barrier (c);
    }
}

/* ------------------------------------------------------------ broadcast */

struct coll_arg
{
  MPI_Comm comm;
  int root;
  void *buf, *rbuf;
  int count;
  struct comet_bufs *bufs;   /* broadcast: --cache cold cycles these */
};

/* Figure 3: the test node broadcasts and everyone receives.  The root's
   clock must see the last receiver get the message, not only its own
   part of the broadcast: every other rank acknowledges with an empty
   message, and the root waits for all of them.  (The paper closed the
   operation with a barrier, which adds a whole barrier's time: at 1 byte
   on 2 ranks about twice OSU's broadcast.)  The time therefore runs to
   the arrival of the last acknowledgement, one small message after the
   last receiver has the data.  */
static void
op_broadcast (void *arg)
{
  struct coll_arg *a = arg;
  char *s, *r;
  comet_bufs_next (a->bufs, &s, &r);
  /* The root sends from its send buffer, the others receive into their
     receive buffers (the same one under --buffers shared).  */
  int me;
  MPI_Comm_rank (a->comm, &me);
  COMET_MPI (MPI_Bcast (me == a->root ? s : r, a->count, MPI_BYTE, a->root,
                        a->comm), "MPI_Bcast");
  if (me != a->root)
    {
      COMET_MPI (MPI_Send (NULL, 0, MPI_BYTE, a->root, TAG_ACK, a->comm),
                 "MPI_Send");
      return;
    }
  int size;
  MPI_Comm_size (a->comm, &size);
  for (int k = 1; k < size; k++)
    COMET_MPI (MPI_Recv (NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_ACK, a->comm,
                         MPI_STATUS_IGNORE), "MPI_Recv");
}

/* One untimed broadcast with checked content, checked on every
   receiver.  */
static void
broadcast_verify (struct comet_ctx *c, struct coll_arg *a, int64_t seq,
                  int64_t size)
{
  size_t n = (size_t) a->count;
  char *buf = c->rank == a->root ? a->bufs->send : a->bufs->recv;
  if (c->rank == a->root)
    comet_fill ("broadcast", buf, n, seq, a->root, -1);
  else
    comet_prefill (buf, n, seq, a->root, -1);
  if (!comet_broken ("broadcast"))
    mpu_check (MPI_Bcast (buf, a->count, MPI_BYTE, a->root, a->comm),
               "MPI_Bcast");
  if (c->rank != a->root)
    comet_check ("broadcast", size, c->rank, buf, n, seq, a->root, -1);
}

void
kernel_broadcast (struct comet_ctx *c)
{
  const struct comet_sweep *sizes = &c->opt->sizes;
  struct comet_bufs bufs;
  comet_bufs_init (c->opt, &bufs, (size_t) sweep_max (sizes));
  struct coll_arg a = { c->comm, c->test, NULL, NULL, 0, &bufs };
  for (size_t i = 0; i < sizes->n; i++)
    {
      a.count = comet_mpi_count (sizes->v[i], "message size");
      broadcast_verify (c, &a, (int64_t) i, sizes->v[i]);
      struct comet_timing t = { c->comm, c->test, c->test, op_broadcast, &a,
                                1.0, 0, 0 };
      struct comet_result res;
      comet_measure (c, &t, &res);
      struct comet_row row;
      comet_row_init (&row, "broadcast");
      row.bytes = sizes->v[i];
      comet_row_result (&row, &res);
      row.mbps = bandwidth_mbps (sizes->v[i], res.s.median);
      comet_emit (c, &row);
    }
  comet_bufs_free (&bufs);
}

/* ------------------------------------------------------------ globalsum */

/* Figure 4: the global sum of a vector of doubles, the answer on every
   node.  */
static void
op_globalsum (void *arg)
{
  struct coll_arg *a = arg;
  COMET_MPI (MPI_Allreduce (a->buf, a->rbuf, a->count, MPI_DOUBLE, MPI_SUM,
                            a->comm), "MPI_Allreduce");
}

/* Element I of rank R's vector in the sum number SEQ of the sweep
   (SEQ 0: the timed sums): small whole numbers, so that every sum is
   exact and the check is an equality; (R + 1)^2 makes the sum tell a
   missing or doubled rank from a correct one.  */
static double
gs_value (int r, int64_t seq, int64_t i)
{
  return (double) (r + 1) * (r + 1) + (double) (i % 1024)
         + (double) (seq % 4096) * 4;
}

static double
gs_sum (int p, int64_t seq, int64_t i)
{
  double s = 0;
  for (int r = 0; r < p; r++)
    s += gs_value (r, seq, i);
  return s;
}

/* The first COUNT elements of OUT must be the sums of SEQ.  */
static void
gs_check (struct comet_ctx *c, const double *out, int count, int64_t seq)
{
  for (int i = 0; i < count; i++)
    {
      double want = gs_sum (c->size, seq, i);
      if (out[i] != want)
        mpu_die (EXIT_DATA, "globalsum: verification failed at veclen %d "
                 "on rank %d: element %d is %.17g, the sum is %.17g", count,
                 c->rank, i, out[i], want);
    }
}

/* One untimed sum with its own contributions (sequence number SEQ + 1)
   into a result filled with what is not due.  */
static void
gs_verify (struct comet_ctx *c, double *in, double *out, int count,
           int64_t seq)
{
  for (int i = 0; i < count; i++)
    {
      in[i] = gs_value (c->rank, seq + 1, i);
      out[i] = -gs_sum (c->size, seq + 1, i);
    }
  if (!comet_broken ("globalsum"))
    mpu_check (MPI_Allreduce (in, out, count, MPI_DOUBLE, MPI_SUM, c->comm),
               "MPI_Allreduce");
  gs_check (c, out, count, seq + 1);
  for (int i = 0; i < count; i++)
    in[i] = gs_value (c->rank, 0, i);
}

void
kernel_globalsum (struct comet_ctx *c)
{
  const struct comet_sweep *v = &c->opt->sums;
  int64_t maxn = sweep_max (v);
  double *in = xcalloc (1, (size_t) maxn * sizeof *in);
  double *out = xcalloc (1, (size_t) maxn * sizeof *out);
  for (size_t k = 0; k < v->n; k++)
    {
      int n = comet_mpi_count (v->v[k], "vector length");
      gs_verify (c, in, out, n, (int64_t) k);
      for (int i = 0; i < n; i++)
        out[i] = -1;
      struct coll_arg a = { c->comm, c->test, in, out, n, NULL };
      struct comet_timing t = { c->comm, c->test, c->test, op_globalsum, &a,
                                1.0, 0, 0 };
      struct comet_result res;
      comet_measure (c, &t, &res);
      /* The last timed sum, on every rank: a wrong sum is an error, not
         a time.  */
      gs_check (c, out, n, 0);
      struct comet_row row;
      comet_row_init (&row, "globalsum");
      row.veclen = v->v[k];
      row.bytes = v->v[k] * (int64_t) sizeof (double);
      comet_row_result (&row, &res);
      row.mbps = bandwidth_mbps (row.bytes, res.s.median);
      comet_emit (c, &row);
    }
  free (in);
  free (out);
}

/* ------------------------------------------------------------ barrier */

/* Global synchronization: "attempting to measure the best-case time ...
   makes more sense than measuring the worst-case time ... The time for
   the first barrier is not reported."  Each sample is one barrier (a
   repeat loop would average), the first ones are the warm-up, and t_min
   is the best case while t is the typical one.  */
static void
op_barrier (void *arg)
{
  struct coll_arg *a = arg;
  COMET_MPI (MPI_Barrier (a->comm), "MPI_Barrier");
}

void
kernel_barrier (struct comet_ctx *c)
{
  struct coll_arg a = { c->comm, c->test, NULL, NULL, 0, NULL };
  struct comet_timing t = { c->comm, c->test, c->test, op_barrier, &a, 1.0,
                            1, 0 };
  struct comet_result res;
  comet_measure (c, &t, &res);
  struct comet_row row;
  comet_row_init (&row, "barrier");
  row.bytes = 0;            /* no data: a barrier moves empty messages */
  comet_row_result (&row, &res);
  comet_emit (c, &row);
}
