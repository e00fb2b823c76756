/* SPDX-License-Identifier: GPL-3.0-or-later */
/* collectives.c: the MPI collectives as users call them, one kernel per
 * call: alltoall, allgather, allreduce, reduce, scatter, gather and bcast;
 * and reduce_local, the reduction's arithmetic alone (MPI_Reduce_local,
 * every rank on its own buffers), whose time per byte is the cost
 * dag-predict's --reduce-cost charges the collectives' combines; and
 * combine, the step of a reduction tree as a collective runs it: receive
 * a vector, sum it into one's own and send the result on.  A result sent
 * right after it was computed can cost more to move than a buffer that
 * was not written (on shared memory its cache lines are dirty in the
 * summing core: a 1 MiB vector took some 80 us to send after the sum
 * against 45 us before it), which neither the echo nor reduce_local
 * sees; combine's round trip less two one-way echo times is the sum's
 * whole cost to a reduction.
 *
 * Each sweeps --sizes as MPI's count of MPI_BYTE (MPI_UNSIGNED_CHAR for
 * the reductions): the bytes one rank sends to one other rank, so an
 * alltoall of size N moves N bytes from every rank to every rank, and its
 * buffers hold N times the number of ranks.  The root is the test node.
 *
 * Once per size, before the size is timed, the kernel runs the call once
 * with content that depends on the sending rank, the receiving rank and
 * the size, into a receive buffer filled with the complement of what is
 * due: a call that moved nothing, moved a stale buffer or took a block
 * from the wrong rank fails the check, which ends the run with status 1
 * naming the kernel, the size and the rank.  */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bandwidth.h"
#include "comet.h"
#include "mpiutil.h"

enum { TAG_COLL_ACK = 14, TAG_COMBINE = 15 };

enum coll_kind
{
  K_ALLTOALL, K_ALLGATHER, K_ALLREDUCE, K_REDUCE, K_SCATTER, K_GATHER,
  K_BCAST, K_REDUCE_LOCAL, K_COMBINE
};

/* One kernel's call on the adjacency matrix.  */
struct cc_arg
{
  enum coll_kind kind;
  MPI_Comm comm;
  int me, nprocs, root;
  int count;                /* bytes per rank pair */
  int ack;                  /* the root waits for every receiver's
                               acknowledgement (cc_acked, not under
                               --stat osu: OSU's bcast times the call) */
  struct comet_bufs bufs;   /* always separate send and receive buffers */
};

/* Byte I of the block rank SRC sends to rank DST at size N (DST is the
   number of ranks for a block meant for everyone).  37 and 101 are odd,
   so that two different ranks give different bytes.  */
static unsigned char
cc_pattern (int src, int dst, int64_t n, int64_t i)
{
  return (unsigned char) ((src + 1) * 37 + (dst + 1) * 101 + n * 7
                          + i * 13 + (i >> 8) * 3);
}

/* A reduction's contribution of rank SRC: a pattern kept below 256 / P,
   so that the sum of P of them never wraps.  Open MPI 4.1.4's op/avx
   adds MPI_UNSIGNED_CHAR with saturation (a wrapped sum came back as
   255), and the check is of the call, not of that.  */
static unsigned char
cc_addend (int src, int p, int64_t n, int64_t i)
{
  int cap = 256 / p;
  return cap > 1 ? (unsigned char) (cc_pattern (src, p, n, i) % cap) : 0;
}

/* combine's partner of the test node ROOT: the next rank.  */
static int
cc_partner (const struct cc_arg *a)
{
  return (a->root + 1) % a->nprocs;
}

/* The collective itself, on buffers S and R.  */
static void
cc_call (const struct cc_arg *a, char *s, char *r)
{
  int n = a->count;
  switch (a->kind)
    {
    case K_ALLTOALL:
      COMET_MPI (MPI_Alltoall (s, n, MPI_BYTE, r, n, MPI_BYTE, a->comm),
                 "MPI_Alltoall");
      break;
    case K_ALLGATHER:
      COMET_MPI (MPI_Allgather (s, n, MPI_BYTE, r, n, MPI_BYTE, a->comm),
                 "MPI_Allgather");
      break;
    case K_ALLREDUCE:
      COMET_MPI (MPI_Allreduce (s, r, n, MPI_UNSIGNED_CHAR, MPI_SUM,
                                a->comm), "MPI_Allreduce");
      break;
    case K_REDUCE:
      COMET_MPI (MPI_Reduce (s, r, n, MPI_UNSIGNED_CHAR, MPI_SUM, a->root,
                             a->comm), "MPI_Reduce");
      break;
    case K_SCATTER:
      COMET_MPI (MPI_Scatter (s, n, MPI_BYTE, r, n, MPI_BYTE, a->root,
                              a->comm), "MPI_Scatter");
      break;
    case K_GATHER:
      COMET_MPI (MPI_Gather (s, n, MPI_BYTE, r, n, MPI_BYTE, a->root,
                             a->comm), "MPI_Gather");
      break;
    case K_BCAST:
      /* The root sends from its send buffer, the others receive into
         their receive buffers.  */
      COMET_MPI (MPI_Bcast (a->me == a->root ? s : r, n, MPI_BYTE, a->root,
                            a->comm), "MPI_Bcast");
      break;
    case K_REDUCE_LOCAL:
      /* r = s + r, as a reduction combines a received vector into its
         own (the same datatype and operation as allreduce).  */
      COMET_MPI (MPI_Reduce_local (s, r, n, MPI_UNSIGNED_CHAR, MPI_SUM),
                 "MPI_Reduce_local");
      break;
    case K_COMBINE:
      /* The partner sends its vector; the root receives it, adds its
         own (r = s + r, as a reduction's inner rank does) and sends the
         sum straight back.  The other ranks take no part.  */
      if (a->me == a->root)
        {
          int to = cc_partner (a);
          COMET_MPI (MPI_Recv (r, n, MPI_UNSIGNED_CHAR, to, TAG_COMBINE,
                               a->comm, MPI_STATUS_IGNORE), "MPI_Recv");
          COMET_MPI (MPI_Reduce_local (s, r, n, MPI_UNSIGNED_CHAR, MPI_SUM),
                     "MPI_Reduce_local");
          COMET_MPI (MPI_Send (r, n, MPI_UNSIGNED_CHAR, to, TAG_COMBINE,
                               a->comm), "MPI_Send");
        }
      else if (a->me == cc_partner (a))
        {
          COMET_MPI (MPI_Send (s, n, MPI_UNSIGNED_CHAR, a->root, TAG_COMBINE,
                               a->comm), "MPI_Send");
          COMET_MPI (MPI_Recv (r, n, MPI_UNSIGNED_CHAR, a->root, TAG_COMBINE,
                               a->comm, MPI_STATUS_IGNORE), "MPI_Recv");
        }
      break;
    }
}

/* reduce_local's operands for the check: S in 1..127 (never 0, so that a
   call that did nothing changes the result) and R's start in 0..127, so
   that their sum stays below 256.  */
static unsigned char
rl_s (int me, int64_t n, int64_t i)
{
  return (unsigned char) (1 + cc_pattern (me, 0, n, i) % 127);
}

static unsigned char
rl_r0 (int me, int64_t n, int64_t i)
{
  return (unsigned char) (cc_pattern (me, 1, n, i) % 128);
}

/* Does the kernel's time need the receivers' acknowledgement?  The root
   of a scatter or a broadcast may return before the last receiver has
   its data; the root of a gather or a reduction cannot (its result needs
   everyone's), nor can anyone in the all-to-all calls.  */
static int
cc_acked (enum coll_kind k)
{
  return k == K_SCATTER || k == K_BCAST;
}

/* One timed iteration: the call, then for scatter and bcast an empty
   message from every other rank that the root waits for, as the
   broadcast kernel does.  */
static void
op_collective (void *arg)
{
  struct cc_arg *a = arg;
  char *s, *r;
  comet_bufs_next (&a->bufs, &s, &r);
  cc_call (a, s, r);
  if (!a->ack)
    return;
  if (a->me != a->root)
    {
      COMET_MPI (MPI_Send (NULL, 0, MPI_BYTE, a->root, TAG_COLL_ACK,
                           a->comm), "MPI_Send");
      return;
    }
  for (int k = 1; k < a->nprocs; k++)
    COMET_MPI (MPI_Recv (NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_COLL_ACK,
                         a->comm, MPI_STATUS_IGNORE), "MPI_Recv");
}

/* What this rank's receive buffer must hold after the call: byte I of
   block B (B counts blocks of COUNT bytes).  Returns 0 when this rank
   receives nothing (the non-roots of reduce and gather, the root of
   bcast), else the number of bytes due.  */
static size_t
cc_due_bytes (const struct cc_arg *a)
{
  size_t n = (size_t) a->count, p = (size_t) a->nprocs;
  switch (a->kind)
    {
    case K_ALLTOALL:
    case K_ALLGATHER:
      return n * p;
    case K_ALLREDUCE:
    case K_SCATTER:
    case K_REDUCE_LOCAL:
      return n;
    case K_REDUCE:
      return a->me == a->root ? n : 0;
    case K_COMBINE:
      return a->me == a->root || a->me == cc_partner (a) ? n : 0;
    case K_GATHER:
      return a->me == a->root ? n * p : 0;
    case K_BCAST:
      return a->me == a->root ? 0 : n;
    }
  return 0;
}

static unsigned char
cc_due (const struct cc_arg *a, size_t b, int64_t i)
{
  int64_t n = a->count;
  int p = a->nprocs;
  switch (a->kind)
    {
    case K_ALLTOALL:
      return cc_pattern ((int) b, a->me, n, i);
    case K_ALLGATHER:
      return cc_pattern ((int) b, p, n, i);
    case K_ALLREDUCE:
    case K_REDUCE:
      {
        unsigned sum = 0;
        for (int s = 0; s < p; s++)
          sum += cc_addend (s, p, n, i);
        return (unsigned char) sum;
      }
    case K_COMBINE:
      return (unsigned char) (cc_addend (a->root, p, n, i)
                              + cc_addend (cc_partner (a), p, n, i));
    case K_SCATTER:
      return cc_pattern (a->root, a->me, n, i);
    case K_GATHER:
      return cc_pattern ((int) b, a->root, n, i);
    case K_BCAST:
      return cc_pattern (a->root, p, n, i);
    case K_REDUCE_LOCAL:
      return (unsigned char) (rl_s (a->me, n, i) + rl_r0 (a->me, n, i));
    }
  return 0;
}

/* Fill this rank's send buffer S with what it sends.  */
static void
cc_fill_send (const struct cc_arg *a, unsigned char *s)
{
  int64_t n = a->count;
  int p = a->nprocs;
  switch (a->kind)
    {
    case K_ALLTOALL:
      for (int d = 0; d < p; d++)
        for (int64_t i = 0; i < n; i++)
          s[(size_t) d * (size_t) n + (size_t) i] = cc_pattern (a->me, d, n, i);
      break;
    case K_SCATTER:
      if (a->me == a->root)
        for (int d = 0; d < p; d++)
          for (int64_t i = 0; i < n; i++)
            s[(size_t) d * (size_t) n + (size_t) i]
              = cc_pattern (a->root, d, n, i);
      break;
    case K_GATHER:
      for (int64_t i = 0; i < n; i++)
        s[i] = cc_pattern (a->me, a->root, n, i);
      break;
    case K_BCAST:
      if (a->me == a->root)
        for (int64_t i = 0; i < n; i++)
          s[i] = cc_pattern (a->root, p, n, i);
      break;
    case K_ALLGATHER:
      for (int64_t i = 0; i < n; i++)
        s[i] = cc_pattern (a->me, p, n, i);
      break;
    case K_ALLREDUCE:
    case K_REDUCE:
    case K_COMBINE:
      for (int64_t i = 0; i < n; i++)
        s[i] = cc_addend (a->me, p, n, i);
      break;
    case K_REDUCE_LOCAL:
      for (int64_t i = 0; i < n; i++)
        s[i] = rl_s (a->me, n, i);
      break;
    }
}

/* The verification call of one size, outside any timed region.  */
static void
cc_verify (const struct cc_arg *a, const char *kernel)
{
  unsigned char *s = (unsigned char *) a->bufs.send;
  unsigned char *r = (unsigned char *) a->bufs.recv;
  size_t due = cc_due_bytes (a);
  size_t n = (size_t) a->count;
  /* MSGPERF_COMET_BREAK=KERNEL:stale sends the buffer as the last size
     or the timed loop left it; KERNEL:peer what the next rank would
     send (and a scatter's or bcast's next rank as the root), which a
     sum cannot tell from the right content.  */
  int mode = comet_break_mode (kernel);
  struct cc_arg f = *a;
  if (mode == COMET_BREAK_PEER)
    {
      f.me = (a->me + 1) % a->nprocs;
      f.root = (a->root + 1) % a->nprocs;
    }
  if (mode != COMET_BREAK_STALE)
    cc_fill_send (&f, s);
  /* The complement of the due content: a no-op leaves every byte
     wrong.  reduce_local's receive buffer is an operand: its start,
     which differs from the due sum in every byte.  */
  for (size_t k = 0; k < due; k++)
    r[k] = a->kind == K_REDUCE_LOCAL
           ? rl_r0 (a->me, (int64_t) n, (int64_t) k)
           : (unsigned char) ~cc_due (a, k / n, (int64_t) (k % n));
  if (!comet_broken (kernel))   /* MSGPERF_COMET_BREAK */
    cc_call (a, (char *) s, (char *) r);
  for (size_t k = 0; k < due; k++)
    {
      unsigned char want = cc_due (a, k / n, (int64_t) (k % n));
      if (r[k] != want)
        mpu_die (EXIT_DATA, "%s: verification failed at size %d on rank "
                 "%d: byte %zu of block %zu is %u, expected %u", kernel,
                 a->count, a->me, k % n, k / n, (unsigned) r[k],
                 (unsigned) want);
    }
}

static int64_t
sweep_largest (const struct comet_sweep *s)
{
  int64_t m = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] > m)
      m = s->v[i];
  return m;
}

/* Sweep KIND over --sizes on the adjacency matrix and write one row per
   size.  */
static void
collective_sweep (struct comet_ctx *c, enum coll_kind kind,
                  const char *kernel)
{
  const struct comet_sweep *sizes = &c->opt->sizes;
  struct cc_arg a;
  a.kind = kind;
  a.comm = c->comm;
  a.me = c->rank;
  a.nprocs = c->size;
  a.root = c->test;
  /* --rep-sync times every rank's call: no acknowledgement.  */
  a.ack = cc_acked (kind) && !c->opt->stat_osu
          && c->opt->rep_sync == COMET_SYNC_NONE;
  /* Send and receive buffers must not overlap in a collective: separate
     whatever --buffers says; --cache cold is obeyed.  Every buffer holds
     one block per rank, the most any call here needs.  */
  struct comet_opts o = *c->opt;
  o.buffers_shared = 0;
  int64_t largest = sweep_largest (sizes);
  comet_mpi_count (largest * c->size, "message size times ranks");
  comet_bufs_init (&o, &a.bufs, (size_t) largest * (size_t) c->size);
  for (size_t i = 0; i < sizes->n; i++)
    {
      a.count = comet_mpi_count (sizes->v[i], "message size");
      cc_verify (&a, kernel);
      struct comet_timing t = { c->comm, c->test, c->test, op_collective,
                                &a, 1.0, 0, 1 };
      struct comet_result res;
      comet_measure (c, &t, &res);
      struct comet_row row;
      comet_row_init (&row, kernel);
      row.bytes = sizes->v[i];
      comet_row_result (&row, &res);
      row.mbps = bandwidth_mbps (sizes->v[i], res.s.median);
      comet_emit (c, &row);
    }
  comet_bufs_free (&a.bufs);
}

void
kernel_alltoall (struct comet_ctx *c)
{
  collective_sweep (c, K_ALLTOALL, "alltoall");
}

void
kernel_allgather (struct comet_ctx *c)
{
  collective_sweep (c, K_ALLGATHER, "allgather");
}

void
kernel_allreduce (struct comet_ctx *c)
{
  collective_sweep (c, K_ALLREDUCE, "allreduce");
}

void
kernel_reduce (struct comet_ctx *c)
{
  collective_sweep (c, K_REDUCE, "reduce");
}

void
kernel_scatter (struct comet_ctx *c)
{
  collective_sweep (c, K_SCATTER, "scatter");
}

void
kernel_gather (struct comet_ctx *c)
{
  collective_sweep (c, K_GATHER, "gather");
}

void
kernel_bcast (struct comet_ctx *c)
{
  collective_sweep (c, K_BCAST, "bcast");
}

void
kernel_reduce_local (struct comet_ctx *c)
{
  collective_sweep (c, K_REDUCE_LOCAL, "reduce_local");
}

void
kernel_combine (struct comet_ctx *c)
{
  collective_sweep (c, K_COMBINE, "combine");
}
