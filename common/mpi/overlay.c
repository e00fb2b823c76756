/* SPDX-License-Identifier: GPL-3.0-or-later */
/* overlay.c: an MRNet-style multicast/reduction tree over MPI ranks
 * (overlay.h; Roth, Arnold, Miller, SC'03).  MPI point-to-point only.  */
#include <config.h>

#include "overlay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clockskew.h"
#include "mpiutil.h"
#include "readfile.h"
#include "xalloc.h"

enum
{
  TAG_CONFIG = OV_TAG_BASE,  /* topology of a subtree, or an error */
  TAG_READY,                 /* a subtree is established */
  TAG_DOWN,                  /* multicast packets */
  TAG_UP,                    /* reduction packets */
  TAG_PROBE,                 /* clock-skew probe (parent to child) */
  TAG_STAMP,                 /* clock-skew answer */
  TAG_SKEW                   /* clock-skew upward wave */
};

/* ---------------------------------------------------------------- build */

/* Receive a message of unknown length from SRC (or MPI_ANY_SOURCE) with
   TAG; returns its element count, the buffer in *BUF (malloc'd) and the
   source in *FROM.  */
static int
recv_any (MPI_Comm comm, int src, int tag, MPI_Datatype type, size_t size,
          void **buf, int *from)
{
  MPI_Status st;
  int count;
  mpu_check (MPI_Probe (src, tag, comm, &st), "MPI_Probe");
  mpu_check (MPI_Get_count (&st, type, &count), "MPI_Get_count");
  *buf = xmalloc ((size_t) count * size);
  mpu_check (MPI_Recv (*buf, count, type, st.MPI_SOURCE, tag, comm,
                       MPI_STATUS_IGNORE), "MPI_Recv");
  if (from)
    *from = st.MPI_SOURCE;
  return count;
}

/* Take this rank's place from ENTRIES: NE (rank, parent) pairs of its
   subtree in preorder, itself first; forward each child its segment.  */
static void
settle (struct overlay *ov, const int *entries, int ne)
{
  int me = ov->rank;
  ov->subtree = ne;
  ov->nchildren = 0;
  for (int i = 1; i < ne; i++)
    if (entries[2 * i + 1] == me)
      ov->nchildren++;
  ov->children = xcalloc ((size_t) ov->nchildren, sizeof (int));
  ov->child_subtree = xcalloc ((size_t) ov->nchildren, sizeof (int));
  int *start = xcalloc ((size_t) ov->nchildren + 1, sizeof (int));
  int k = 0;
  for (int i = 1; i < ne; i++)
    if (entries[2 * i + 1] == me)
      {
        ov->children[k] = entries[2 * i];
        start[k++] = i;
      }
  start[k] = ne;

  /* Height: the deepest entry below this rank.  */
  int *lvl = xcalloc ((size_t) ov->size, sizeof (int));
  ov->height = 0;
  for (int i = 1; i < ne; i++)
    {
      int r = entries[2 * i], p = entries[2 * i + 1];
      if (r < 0 || r >= ov->size || p < 0 || p >= ov->size)
        mpu_die (EXIT_DATA, "overlay: bad topology message");
      lvl[r] = (p == me ? 0 : lvl[p]) + 1;
      if (lvl[r] > ov->height)
        ov->height = lvl[r];
    }
  free (lvl);

  /* Forward: header {1, depth, level of the child, count}, then pairs.  */
  MPI_Request *rq = xcalloc ((size_t) ov->nchildren, sizeof *rq);
  int **msg = xcalloc ((size_t) ov->nchildren, sizeof (int *));
  for (int c = 0; c < ov->nchildren; c++)
    {
      int n = start[c + 1] - start[c];
      ov->child_subtree[c] = n;
      msg[c] = xmalloc ((size_t) (4 + 2 * n) * sizeof (int));
      msg[c][0] = 1;
      msg[c][1] = ov->depth;
      msg[c][2] = ov->level + 1;
      msg[c][3] = n;
      memcpy (msg[c] + 4, entries + 2 * start[c], (size_t) (2 * n)
              * sizeof (int));
      mpu_check (MPI_Isend (msg[c], 4 + 2 * n, MPI_INT, ov->children[c],
                            TAG_CONFIG, ov->comm, &rq[c]), "MPI_Isend");
    }
  mpu_check (MPI_Waitall (ov->nchildren, rq, MPI_STATUSES_IGNORE),
             "MPI_Waitall");
  for (int c = 0; c < ov->nchildren; c++)
    free (msg[c]);
  free (msg);
  free (rq);
  free (start);
}

/* Wait for every child's report, then report this subtree upward.  */
static void
establish (struct overlay *ov, double t0)
{
  int total = 1;
  for (int c = 0; c < ov->nchildren; c++)
    {
      int n;
      mpu_check (MPI_Recv (&n, 1, MPI_INT, ov->children[c], TAG_READY,
                           ov->comm, MPI_STATUS_IGNORE), "MPI_Recv");
      if (n != ov->child_subtree[c])
        mpu_die (EXIT_DATA, "overlay: rank %d reports %d ranks, expected %d",
                 ov->children[c], n, ov->child_subtree[c]);
      total += n;
    }
  if (ov->parent >= 0)
    mpu_check (MPI_Send (&total, 1, MPI_INT, ov->parent, TAG_READY,
                         ov->comm), "MPI_Send");
  ov->startup = MPI_Wtime () - t0;
}

/* Preorder of T from the root, children in send order: (rank, parent)
   pairs.  */
static int *
preorder (const struct tree *t)
{
  int *out = xmalloc ((size_t) t->n * 2 * sizeof (int));
  int *stack = xmalloc ((size_t) t->n * sizeof (int));
  int sp = 0, k = 0;
  stack[sp++] = 0;
  while (sp > 0)
    {
      int r = stack[--sp];
      out[2 * k] = r;
      out[2 * k + 1] = t->parent[r];
      k++;
      for (int i = tree_nchildren (t, r) - 1; i >= 0; i--)
        stack[sp++] = tree_children (t, r)[i];
    }
  free (stack);
  return out;
}

int
ov_build (struct overlay *ov, const char *spec, const char *text,
          MPI_Comm comm, struct treespec_error *err)
{
  memset (ov, 0, sizeof *ov);
  ov->comm = comm;
  MPI_Comm_rank (comm, &ov->rank);
  MPI_Comm_size (comm, &ov->size);
  ov->parent = -1;
  ov->clock = ov_clock_mpi;
  double t0 = MPI_Wtime ();

  if (ov->rank == 0)
    {
      int rc;
      struct treespec_error e;
      if (treespec_file_path (spec))
        rc = treespec_parse_text (text ? text : "", ov->size, &ov->tree, &e);
      else
        rc = treespec_parse (spec, ov->size, &ov->tree, &e);
      if (rc)
        {
          /* Tell every rank, so that all report the error alike.  */
          size_t len = strlen (e.msg);
          int *msg = xmalloc ((4 + len) * sizeof (int));
          msg[0] = 0;
          msg[1] = e.line;
          msg[2] = e.col;
          msg[3] = (int) len;
          for (size_t i = 0; i < len; i++)
            msg[4 + i] = (unsigned char) e.msg[i];
          for (int r = 1; r < ov->size; r++)
            mpu_check (MPI_Send (msg, (int) (4 + len), MPI_INT, r,
                                 TAG_CONFIG, comm), "MPI_Send");
          free (msg);
          if (err)
            *err = e;
          return -1;
        }
      ov->depth = ov->tree.depth;
      ov->level = 0;
      int *entries = preorder (&ov->tree);
      settle (ov, entries, ov->size);
      free (entries);
    }
  else
    {
      int *msg, from;
      int count = recv_any (comm, MPI_ANY_SOURCE, TAG_CONFIG, MPI_INT,
                            sizeof (int), (void **) &msg, &from);
      if (count < 4)
        mpu_die (EXIT_DATA, "overlay: short topology message");
      if (msg[0] == 0)
        {
          if (err)
            {
              memset (err, 0, sizeof *err);
              err->line = msg[1];
              err->col = msg[2];
              int len = msg[3];
              if (len > (int) sizeof err->msg - 1)
                len = (int) sizeof err->msg - 1;
              for (int i = 0; i < len && 4 + i < count; i++)
                err->msg[i] = (char) msg[4 + i];
            }
          free (msg);
          return -1;
        }
      ov->parent = from;
      ov->depth = msg[1];
      ov->level = msg[2];
      int ne = msg[3];
      if (count != 4 + 2 * ne || ne < 1 || msg[4] != ov->rank)
        mpu_die (EXIT_DATA, "overlay: bad topology message from rank %d",
                 from);
      settle (ov, msg + 4, ne);
      free (msg);
    }
  establish (ov, t0);
  return 0;
}

void
ov_free (struct overlay *ov)
{
  free (ov->children);
  free (ov->child_subtree);
  tree_free (&ov->tree);
  memset (ov, 0, sizeof *ov);
}

/* ---------------------------------------------------------------- down */

/* Send N doubles to every child (all sends posted, then completed: the
   children are served one after another by the network, Figure 4).  */
static void
send_children (struct overlay *ov, const double *v, int n, int tag)
{
  if (ov->nchildren == 0)
    return;
  MPI_Request stack[16];
  MPI_Request *rq = ov->nchildren <= 16 ? stack
    : xcalloc ((size_t) ov->nchildren, sizeof *rq);
  for (int c = 0; c < ov->nchildren; c++)
    mpu_check (MPI_Isend (v, n, MPI_DOUBLE, ov->children[c], tag, ov->comm,
                          &rq[c]), "MPI_Isend");
  mpu_check (MPI_Waitall (ov->nchildren, rq, MPI_STATUSES_IGNORE),
             "MPI_Waitall");
  if (rq != stack)
    free (rq);
}

void
ov_multicast (struct overlay *ov, struct tf_buf *b)
{
  if (ov->parent >= 0)
    {
      double *v;
      int n = recv_any (ov->comm, ov->parent, TAG_DOWN, MPI_DOUBLE,
                        sizeof (double), (void **) &v, NULL);
      free (b->v);
      b->v = v;
      b->len = b->cap = (size_t) n;
    }
  send_children (ov, b->v, (int) b->len, TAG_DOWN);
  ov->down++;
}

/* ---------------------------------------------------------------- up */

enum { HDR = 4 };   /* wave, contributed, missing, origin (the rank that
                       made the packet) */

/* Send this rank's packet of the wave up: the header, then PAY.  */
static void
send_up (struct overlay *ov, double contributed, double missing,
         const struct tf_buf *pay)
{
  struct tf_buf msg;
  double head[HDR] = { ov->wave, contributed, missing, ov->rank };
  tf_buf_init (&msg);
  if (tf_buf_append (&msg, head, HDR) < 0
      || tf_buf_append (&msg, pay->v, pay->len) < 0)
    mpu_die (EXIT_DATA, "overlay: %s", tf_nomem);
  mpu_check (MPI_Send (msg.v, (int) msg.len, MPI_DOUBLE, ov->parent,
                       TAG_UP, ov->comm), "MPI_Send");
  tf_buf_free (&msg);
}

/* The index of child SRC; dies for a rank that is not a child.  */
static int
child_index (const struct overlay *ov, int src, int n)
{
  int c = 0;
  while (c < ov->nchildren && ov->children[c] != src)
    c++;
  if (c == ov->nchildren || n < HDR)
    mpu_die (EXIT_DATA, "overlay: unexpected reduction packet from "
             "rank %d", src);
  return c;
}

/* At the root: count packet IN (from the child SRC) in WAVE.  */
static void
note_packet (struct ov_wave *wave, const double *in)
{
  if (!wave)
    return;
  if (wave->order && wave->packets < wave->order_cap)
    wave->order[wave->packets] = (int) in[3];
  wave->packets++;
}

/* Do Not Wait, the third mode of section 2.4 ("output packets
   immediately"): a rank sends its own packet up at once, then forwards
   every packet from below unchanged, one by one, as it arrives; no rank
   but the root aggregates, and the root combines the packets in the
   order they arrive.  Child c owes child_subtree[c] packets per wave,
   which MPI delivers in the order the child sent them; only the children
   that still owe packets are polled, so that a child's packet of the
   next wave stays queued.  */
static void
reduce_no_wait (struct overlay *ov, enum tf_kind kind,
                const struct tf_params *p, struct tf_buf *pay,
                struct tf_buf *out, struct ov_wave *wave)
{
  int root = ov->parent < 0;
  if (!root)
    {
      send_up (ov, 1, 0, pay);
      tf_buf_free (pay);
    }
  int *owed = xcalloc ((size_t) ov->nchildren + 1, sizeof *owed);
  int left = 0, owing = 0;
  for (int c = 0; c < ov->nchildren; c++)
    {
      owed[c] = ov->child_subtree[c];
      left += owed[c];
      owing += owed[c] > 0;
    }
  double contributed = 1;
  while (left > 0)
    {
      int src = -1;
      if (owing == 1)
        for (int c = 0; c < ov->nchildren; c++)
          if (owed[c])
            src = ov->children[c];
      while (src < 0)
        for (int c = 0; c < ov->nchildren && src < 0; c++)
          if (owed[c])
            {
              int flag = 0;
              mpu_check (MPI_Iprobe (ov->children[c], TAG_UP, ov->comm,
                                     &flag, MPI_STATUS_IGNORE),
                         "MPI_Iprobe");
              if (flag)
                src = ov->children[c];
            }
      double *in;
      int n = recv_any (ov->comm, src, TAG_UP, MPI_DOUBLE, sizeof (double),
                        (void **) &in, NULL);
      int c = child_index (ov, src, n);
      if (in[0] < ov->wave)
        {
          free (in);        /* late packet of an earlier timed-out wave */
          continue;
        }
      if (in[0] != ov->wave || in[1] != 1)
        mpu_die (EXIT_DATA, "overlay: rank %d sent wave %.0f (%.0f ranks) "
                 "during wave %.0f without waiting", src, in[0], in[1],
                 ov->wave);
      if (root)
        {
          const char *e = tf_combine (kind, p, pay, in + HDR,
                                      (size_t) n - HDR);
          if (e == tf_nomem)
            mpu_die (EXIT_DATA, "overlay: %s", e);
          if (e)
            mpu_die (EXIT_DATA, "overlay: packet from rank %.0f: %s", in[3],
                     e);
          contributed++;
          note_packet (wave, in);
        }
      else
        mpu_check (MPI_Send (in, n, MPI_DOUBLE, ov->parent, TAG_UP,
                             ov->comm), "MPI_Send");
      free (in);
      left--;
      if (--owed[c] == 0)
        owing--;
    }
  free (owed);
  if (root)
    {
      if (tf_finish (kind, p, pay))
        mpu_die (EXIT_DATA, "overlay: %s", tf_nomem);
      if (out)
        {
          tf_buf_free (out);
          *out = *pay;
        }
      else
        tf_buf_free (pay);
      if (wave)
        {
          wave->contributed = (long) contributed;
          wave->missing = 0;
        }
    }
  else if (out)
    out->len = 0;
  ov->wave++;
}

void
ov_reduce (struct overlay *ov, enum tf_kind kind, const struct tf_params *p,
           const double *vals, const struct ov_sync *sync,
           struct tf_buf *out, struct ov_wave *wave)
{
  struct tf_buf mine;
  tf_buf_init (&mine);
  const char *e = tf_local (kind, p, ov->rank, vals, &mine);
  if (e)
    mpu_die (EXIT_DATA, "overlay: %s", e);
  ov_reduce_packet (ov, kind, p, &mine, sync, out, wave);
}

void
ov_reduce_packet (struct overlay *ov, enum tf_kind kind,
                  const struct tf_params *p, struct tf_buf *mine,
                  const struct ov_sync *sync, struct tf_buf *out,
                  struct ov_wave *wave)
{
  struct tf_buf pay = *mine;
  const char *e;
  tf_buf_init (mine);
  if (wave)
    wave->packets = 0;
  if (sync && sync->mode == OV_DO_NOT_WAIT)
    {
      reduce_no_wait (ov, kind, p, &pay, out, wave);
      return;
    }

  int timed = sync && sync->mode == OV_TIMEOUT;
  double deadline = MPI_Wtime () + (timed ? sync->timeout * ov->height : 0);
  char *got = xcalloc ((size_t) ov->nchildren + 1, 1);
  int ngot = 0;
  double contributed = 1, missing = 0;

  while (ngot < ov->nchildren)
    {
      int src;
      if (!timed)
        src = ov->children[ngot];
      else
        {
          /* Poll only the children not heard from in this wave: a
             child that already answered may have sent its packet of the
             next wave, which must stay queued.  */
          int flag = 0;
          src = -1;
          for (;;)
            {
              for (int c = 0; c < ov->nchildren && !flag; c++)
                if (!got[c])
                  {
                    mpu_check (MPI_Iprobe (ov->children[c], TAG_UP, ov->comm,
                                           &flag, MPI_STATUS_IGNORE),
                               "MPI_Iprobe");
                    if (flag)
                      src = ov->children[c];
                  }
              if (flag || MPI_Wtime () > deadline)
                break;
            }
          if (!flag)
            break;
        }
      double *in;
      int n = recv_any (ov->comm, src, TAG_UP, MPI_DOUBLE, sizeof (double),
                        (void **) &in, NULL);
      int c = child_index (ov, src, n);
      if (in[0] < ov->wave)
        {
          free (in);        /* late packet of an earlier wave */
          continue;
        }
      if (in[0] != ov->wave)
        mpu_die (EXIT_DATA, "overlay: rank %d sent wave %.0f during wave "
                 "%.0f", src, in[0], ov->wave);
      e = tf_combine (kind, p, &pay, in + HDR, (size_t) n - HDR);
      if (e == tf_nomem)
        mpu_die (EXIT_DATA, "overlay: %s", e);
      if (e)
        mpu_die (EXIT_DATA, "overlay: packet from rank %d: %s", src, e);
      contributed += in[1];
      missing += in[2];
      got[c] = 1;
      ngot++;
      if (ov->parent < 0)
        note_packet (wave, in);
      free (in);
    }
  for (int c = 0; c < ov->nchildren; c++)
    if (!got[c])
      missing += ov->child_subtree[c];
  free (got);

  if (ov->parent >= 0)
    {
      send_up (ov, contributed, missing, &pay);
      tf_buf_free (&pay);
      if (out)
        out->len = 0;
    }
  else
    {
      if (tf_finish (kind, p, &pay))
        mpu_die (EXIT_DATA, "overlay: %s", tf_nomem);
      if (out)
        {
          tf_buf_free (out);
          *out = pay;
        }
      else
        tf_buf_free (&pay);
      if (wave)
        {
          wave->contributed = (long) contributed;
          wave->missing = (long) missing;
        }
    }
  ov->wave++;
}

/* ---------------------------------------------------------------- skew */

double
ov_clock_mpi (void)
{
  return MPI_Wtime ();
}

double
ov_clock_monotonic (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* Answer PROBES probes from PEER: stamp each with this rank's clock.  */
static void
answer_probes (struct overlay *ov, int peer, int probes)
{
  for (int i = 0; i < probes; i++)
    {
      double x;
      mpu_check (MPI_Recv (&x, 1, MPI_DOUBLE, peer, TAG_PROBE, ov->comm,
                           MPI_STATUS_IGNORE), "MPI_Recv");
      double t = ov->clock ();
      mpu_check (MPI_Send (&t, 1, MPI_DOUBLE, peer, TAG_STAMP, ov->comm),
                 "MPI_Send");
    }
}

/* Make PROBES round trips with PEER (plus two warm-up ones) and estimate
   its offset.  */
static void
probe_peer (struct overlay *ov, int peer, int probes, double *offset,
            double *bound)
{
  struct cs_probe *pr = xcalloc ((size_t) probes + 2, sizeof *pr);
  for (int i = 0; i < probes + 2; i++)
    {
      double x = i;
      pr[i].t_send = ov->clock ();
      mpu_check (MPI_Send (&x, 1, MPI_DOUBLE, peer, TAG_PROBE, ov->comm),
                 "MPI_Send");
      mpu_check (MPI_Recv (&pr[i].t_remote, 1, MPI_DOUBLE, peer, TAG_STAMP,
                           ov->comm, MPI_STATUS_IGNORE), "MPI_Recv");
      pr[i].t_recv = ov->clock ();
    }
  struct cs_estimate e;
  if (cs_estimate (pr + 2, (size_t) probes, &e))
    mpu_die (EXIT_DATA, "clock skew: no usable round trip with rank %d",
             peer);
  *offset = e.offset;
  *bound = e.bound;
  free (pr);
}

void
ov_clockskew (struct overlay *ov, int probes, double *offset, double *bound)
{
  if (probes < 1)
    probes = 1;
  /* Phase 1: local skews, parent against each child (section 3.1).  */
  if (ov->parent >= 0)
    answer_probes (ov, ov->parent, probes + 2);
  double *local = xcalloc ((size_t) ov->nchildren, sizeof (double));
  double *lbound = xcalloc ((size_t) ov->nchildren, sizeof (double));
  for (int c = 0; c < ov->nchildren; c++)
    probe_peer (ov, ov->children[c], probes, &local[c], &lbound[c]);

  /* Phase 2: cumulative skews up the tree, records {rank, offset,
     bound}, each child's lifted by this rank's local estimate.  */
  struct tf_buf acc;
  tf_buf_init (&acc);
  double self[3] = { ov->rank, 0, 0 };
  if (tf_buf_append (&acc, self, 3) < 0)
    mpu_die (EXIT_DATA, "clock skew: %s", tf_nomem);
  for (int c = 0; c < ov->nchildren; c++)
    {
      double *in;
      int n = recv_any (ov->comm, ov->children[c], TAG_SKEW, MPI_DOUBLE,
                        sizeof (double), (void **) &in, NULL);
      if (n != 3 * ov->child_subtree[c])
        mpu_die (EXIT_DATA, "clock skew: rank %d sent %d values, expected %d",
                 ov->children[c], n, 3 * ov->child_subtree[c]);
      for (int i = 0; i < n; i += 3)
        {
          cs_lift (&in[i + 1], 1, local[c]);
          cs_lift (&in[i + 2], 1, lbound[c]);
        }
      if (tf_buf_append (&acc, in, (size_t) n) < 0)
        mpu_die (EXIT_DATA, "clock skew: %s", tf_nomem);
      free (in);
    }
  free (local);
  free (lbound);
  if (ov->parent >= 0)
    mpu_check (MPI_Send (acc.v, (int) acc.len, MPI_DOUBLE, ov->parent,
                         TAG_SKEW, ov->comm), "MPI_Send");
  else
    for (size_t i = 0; i < acc.len; i += 3)
      {
        int r = (int) acc.v[i];
        if (offset)
          offset[r] = acc.v[i + 1];
        if (bound)
          bound[r] = acc.v[i + 2];
      }
  tf_buf_free (&acc);
}

void
ov_clockskew_direct (struct overlay *ov, int probes, double *offset,
                     double *bound)
{
  if (probes < 1)
    probes = 1;
  if (ov->rank != 0)
    {
      answer_probes (ov, 0, probes + 2);
      return;
    }
  if (offset)
    offset[0] = 0;
  if (bound)
    bound[0] = 0;
  for (int r = 1; r < ov->size; r++)
    {
      double o, b;
      probe_peer (ov, r, probes, &o, &b);
      if (offset)
        offset[r] = o;
      if (bound)
        bound[r] = b;
    }
}

char *
ov_check_topology (const char *spec, int nranks)
{
  const char *path = treespec_file_path (spec);
  char *text = path ? read_option_file ("topology", path) : NULL;
  struct tree t;
  struct treespec_error err;
  int rc = path ? treespec_parse_text (text, nranks, &t, &err)
                : treespec_parse (spec, nranks, &t, &err);
  if (rc == 0)
    {
      tree_free (&t);
      return text;
    }
  if (err.nomem)
    mpu_die (EXIT_DATA, "option '--topology': %s", err.msg);
  if (path && err.line > 0)
    die_usage ("option '--topology': %s:%d:%d: %s", path, err.line, err.col,
               err.msg);
  if (err.col > 0)
    die_usage ("option '--topology': '%s': column %d: %s", spec, err.col,
               err.msg);
  die_usage ("option '--topology': %s", err.msg);
}
