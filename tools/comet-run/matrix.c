/* SPDX-License-Identifier: GPL-3.0-or-later */
/* matrix.c: the matrix-related kernels of comet-benchmark.txt Section
 * 2.2.2 (update guard, shift, transpose, row and column broadcast) on a
 * block-decomposed matrix with a one-element guard wrapper (blockmat.h).
 *
 * Each rank of the R x C adjacency matrix holds one square block of order
 * n (the --orders sweep), so the global matrix is (R n) x (C n).  For
 * every order the setup module initialises the blocks, the kernel is
 * timed, and the verification module checks every element on every rank;
 * a wrong result ends the run with an error instead of a time.  The
 * kernels count their calls (warm-up included) so that the state after
 * any number of shifts or transposes is known.
 *
 * The values tell every global element apart and carry the number of the
 * sweep point (blockmat.h): a block that another rank should have sent,
 * or one left from the previous point (a stale buffer), fails the check
 * as a transfer that did nothing does.  They are written by the setup,
 * outside the timed region, as the other kernels fill their buffers.  */
#include <config.h>

#include <math.h>
#include <string.h>

#include <stdlib.h>

#include "bandwidth.h"
#include "blockmat.h"
#include "comet.h"
#include "err.h"
#include "grid2d.h"
#include "mpiutil.h"
#include "xalloc.h"

enum { TAG_N = 31, TAG_S, TAG_E, TAG_W, TAG_SHIFT, TAG_TRANSPOSE };

struct mat
{
  struct comet_ctx *c;
  int n;
  int64_t seq;                   /* sweep point: the blocks' values */
  double *a;
  int64_t gi0, gj0, grows, gcols;
  int64_t calls;
  int top, bottom, pred, succ;   /* Figure 10 */
  double *sbuf[4], *rbuf[4];
  MPI_Comm line;                 /* column or row communicator */
  int line_root;
  int line_index;                /* local row or column broadcast */
  int64_t global_index;          /* its global row or column */
  int owner;                     /* this rank is the line's root */
  int timer;                     /* the rank that takes the times */
};

static void
mat_setup (struct mat *m, struct comet_ctx *c, int n, int64_t seq)
{
  m->c = c;
  m->n = n;
  m->seq = seq;
  m->gi0 = (int64_t) c->row * n;
  m->gj0 = (int64_t) c->col * n;
  m->grows = (int64_t) c->rows * n;
  m->gcols = (int64_t) c->cols * n;
  m->calls = 0;
  m->a = xcalloc (1, blockmat_size (n) * sizeof *m->a);
  blockmat_init (m->a, n, m->gi0, m->gj0, m->gcols, seq);
  mpu_check (MPI_Cart_shift (c->comm, 0, 1, &m->top, &m->bottom),
             "MPI_Cart_shift");
  mpu_check (MPI_Cart_shift (c->comm, 1, 1, &m->pred, &m->succ),
             "MPI_Cart_shift");
  for (int k = 0; k < 4; k++)
    m->sbuf[k] = m->rbuf[k] = NULL;
  m->line = MPI_COMM_NULL;
  m->timer = c->test;
}

static void
mat_free (struct mat *m)
{
  free (m->a);
  for (int k = 0; k < 4; k++)
    {
      free (m->sbuf[k]);
      free (m->rbuf[k]);
    }
  if (m->line != MPI_COMM_NULL)
    MPI_Comm_free (&m->line);
}

/* The verification module: BAD wrong elements on this rank; the sum
   over all ranks must be 0, else the lowest rank with wrong elements ends
   the run (status 1) naming itself.  Collective, outside the timed
   region.  */
static void
mat_verify (struct mat *m, const char *kernel, size_t bad)
{
  struct comet_ctx *c = m->c;
  long long mine = (long long) bad, all = 0;
  int first = bad ? c->rank : c->size, lowest = c->size;
  mpu_check (MPI_Allreduce (&mine, &all, 1, MPI_LONG_LONG, MPI_SUM,
                            c->comm), "MPI_Allreduce");
  mpu_check (MPI_Allreduce (&first, &lowest, 1, MPI_INT, MPI_MIN, c->comm),
             "MPI_Allreduce");
  if (all != 0 && c->rank == lowest)
    mpu_die (EXIT_DATA, "%s: verification failed at order %d on rank %d: "
             "%lld wrong matrix elements there, %lld on all ranks", kernel,
             m->n, c->rank, mine, all);
  mpu_check (MPI_Barrier (c->comm), "MPI_Barrier");
}

/* MSGPERF_COMET_BREAK=KERNEL:stale or KERNEL:peer: this rank's
   interior becomes what it must not send, the block of the previous
   sweep point or the block of the next rank of the grid.  */
static void
mat_wrong_content (struct mat *m, int mode)
{
  struct comet_ctx *c = m->c;
  int64_t gi0 = m->gi0, gj0 = m->gj0, seq = m->seq;
  if (mode == COMET_BREAK_STALE)
    seq--;
  else
    {
      int coords[2];
      mpu_check (MPI_Cart_coords (c->comm, (c->rank + 1) % c->size, 2,
                                  coords), "MPI_Cart_coords");
      gi0 = (int64_t) coords[0] * m->n;
      gj0 = (int64_t) coords[1] * m->n;
    }
  blockmat_set_interior (m->a, m->n, gi0, gj0, m->gcols, seq);
}

/* The untimed call before the timed ones: OP once on the fresh blocks,
   whose result the caller checks as it checks the timed calls' (the
   blocks' values tell every global element apart, and the expected state
   follows from the number of calls).  MSGPERF_COMET_BREAK=KERNEL skips
   the call but counts it, as a kernel that moved nothing; KERNEL:stale
   and KERNEL:peer make the senders send the wrong block
   (mat_wrong_content).  The senders are every rank, or with a line
   communicator (rowbcast, colbcast) the line's root.  KEEP: the kernel
   sends from a block it keeps (update-guard's edges, a broadcast root's
   line), which gets its right values back after the call, so that only
   what arrived can fail the check.  */
static void
mat_once (struct mat *m, comet_op op, const char *kernel, int keep)
{
  int mode = comet_break_mode (kernel);
  if (mode == COMET_BREAK_SKIP)
    {
      m->calls++;
      return;
    }
  int sender = m->line == MPI_COMM_NULL || m->owner;
  if (mode && sender)
    mat_wrong_content (m, mode);
  op (m);
  if (mode && sender && keep)
    blockmat_set_interior (m->a, m->n, m->gi0, m->gj0, m->gcols, m->seq);
}

const char *
comet_self_exchange (const struct comet_ctx *c, const char *kernel,
                     const char *direction)
{
  int north = direction && strcmp (direction, "north") == 0;
  if ((strcmp (kernel, "shift") == 0 && (north ? c->rows : c->cols) == 1)
      || (strcmp (kernel, "transpose") == 0
          && (c->rows == 1 || c->cols == 1))
      || (strcmp (kernel, "rowbcast") == 0 && c->rows == 1)
      || (strcmp (kernel, "colbcast") == 0 && c->cols == 1))
    return "every rank exchanges with itself on this grid: no byte leaves "
           "a rank";
  return NULL;
}

/* Time OP on every rank (the test node's clock) and fill ROW; the caller
   verifies before it writes the row.  A rank that only exchanges with
   itself moves no byte between ranks: no bandwidth (NA, and the reason
   in #@MBps_na).  */
static void
mat_measure (struct mat *m, comet_op op, const char *kernel,
             const char *direction, int64_t bytes, struct comet_row *row)
{
  struct comet_ctx *c = m->c;
  struct comet_timing t = { c->comm, m->timer, c->test, op, m, 1.0, 0, 0 };
  struct comet_result res;
  comet_measure (c, &t, &res);
  comet_row_init (row, kernel);
  row->order = m->n;
  row->direction = direction;
  row->bytes = bytes;
  comet_row_result (row, &res);
  row->mbps = comet_self_exchange (c, kernel, direction)
              ? NAN : bandwidth_mbps (bytes, res.s.median);
}

/* update-guard sends its four edges, a broadcast one line, shift and
   transpose the whole block with its guard wrapper.  */
int64_t
comet_matrix_bytes (const char *kernel, int64_t n)
{
  int64_t d = (int64_t) sizeof (double);
  if (strcmp (kernel, "update-guard") == 0)
    return 4 * n * d;
  if (strcmp (kernel, "rowbcast") == 0 || strcmp (kernel, "colbcast") == 0)
    return n * d;
  return (int64_t) blockmat_size ((int) n) * d;
}

int64_t
comet_matrix_orders (const struct comet_opts *o, const char *kernel,
                     struct comet_sweep *out)
{
  const struct comet_sweep *from = o->orders.given || !o->sizes.given
                                   ? &o->orders : &o->sizes;
  out->v = xcalloc (from->n ? from->n : 1, sizeof *out->v);
  out->n = 0;
  out->given = from->given;
  if (from == &o->orders)
    {
      memcpy (out->v, o->orders.v, o->orders.n * sizeof *out->v);
      out->n = o->orders.n;
      return 0;
    }
  for (size_t i = 0; i < o->sizes.n; i++)
    {
      /* The bytes grow with the order: start from the previous one.  */
      int64_t n = out->n ? out->v[out->n - 1] : 1;
      if (o->sizes.v[i] < comet_matrix_bytes (kernel, n))
        n = 1;
      while (n <= COMET_MAX_ORDER
             && comet_matrix_bytes (kernel, n) < o->sizes.v[i])
        n++;
      if (n > COMET_MAX_ORDER)
        return o->sizes.v[i];
      if (out->n == 0 || out->v[out->n - 1] != n)
        out->v[out->n++] = n;
    }
  return 0;
}

void
comet_matrix_check (const struct comet_opts *o, const char *kernel)
{
  struct comet_sweep s;
  int64_t bad = comet_matrix_orders (o, kernel, &s);
  free (s.v);
  if (bad)
    die_usage ("option '--sizes': %s sends at most %lld bytes (block "
               "order %lld), not %lld; give its block orders with "
               "--orders", kernel,
               (long long) comet_matrix_bytes (kernel, COMET_MAX_ORDER),
               (long long) COMET_MAX_ORDER, (long long) bad);
}

/* ------------------------------------------------------------ update guard */

/* Figures 11 and 15: receives are posted first, each edge is assembled
   and sent while the others travel, then the four guard strips are
   filled.  The northern strip holds the top node's southern edge, and so
   on around (Figure 10); the grid is periodic.  */
static void
op_update_guard (void *arg)
{
  struct mat *m = arg;
  int n = m->n;
  MPI_Comm comm = m->c->comm;
  MPI_Request rq[8];
  COMET_MPI (MPI_Irecv (m->rbuf[BLOCKMAT_NORTH], n, MPI_DOUBLE, m->top,
                        TAG_S, comm, &rq[0]), "MPI_Irecv");
  COMET_MPI (MPI_Irecv (m->rbuf[BLOCKMAT_SOUTH], n, MPI_DOUBLE, m->bottom,
                        TAG_N, comm, &rq[1]), "MPI_Irecv");
  COMET_MPI (MPI_Irecv (m->rbuf[BLOCKMAT_WEST], n, MPI_DOUBLE, m->pred,
                        TAG_E, comm, &rq[2]), "MPI_Irecv");
  COMET_MPI (MPI_Irecv (m->rbuf[BLOCKMAT_EAST], n, MPI_DOUBLE, m->succ,
                        TAG_W, comm, &rq[3]), "MPI_Irecv");
  static const int dest_tag[4] = { TAG_N, TAG_S, TAG_W, TAG_E };
  int dest[4] = { m->top, m->bottom, m->pred, m->succ };
  for (int k = 0; k < 4; k++)
    {
      blockmat_pack_edge (m->a, n, (enum blockmat_side) k, m->sbuf[k]);
      COMET_MPI (MPI_Isend (m->sbuf[k], n, MPI_DOUBLE, dest[k], dest_tag[k],
                            comm, &rq[4 + k]), "MPI_Isend");
    }
  COMET_MPI (MPI_Waitall (8, rq, MPI_STATUSES_IGNORE), "MPI_Waitall");
  for (int k = 0; k < 4; k++)
    blockmat_unpack_guard (m->a, n, (enum blockmat_side) k, m->rbuf[k]);
  m->calls++;
}

void
kernel_update_guard (struct comet_ctx *c)
{
  struct comet_sweep sweep;
  comet_matrix_orders (c->opt, "update-guard", &sweep);
  const struct comet_sweep *orders = &sweep;
  for (size_t i = 0; i < orders->n; i++)
    {
      struct mat m;
      int n = (int) orders->v[i];
      mat_setup (&m, c, n, (int64_t) i);
      for (int k = 0; k < 4; k++)
        {
          m.sbuf[k] = xcalloc (1, (size_t) n * sizeof (double));
          m.rbuf[k] = xcalloc (1, (size_t) n * sizeof (double));
        }
      mat_once (&m, op_update_guard, "update-guard", 1);
      mat_verify (&m, "update-guard",
                  blockmat_check_guard (m.a, n, m.gi0, m.gj0, m.grows,
                                        m.gcols, m.seq));
      struct comet_row row;
      mat_measure (&m, op_update_guard, "update-guard", NULL,
                   comet_matrix_bytes ("update-guard", n), &row);
      mat_verify (&m, "update-guard",
                  blockmat_check_guard (m.a, n, m.gi0, m.gj0, m.grows,
                                        m.gcols, m.seq));
      comet_emit (c, &row);
      mat_free (&m);
    }
  free (sweep.v);
}

/* ------------------------------------------------------------ shift */

/* Figure 12: the whole local matrix, guard wrapper included, goes to the
   top node (NORTH) or the succ node (EAST), and the neighbour's arrives in
   the same buffer (MPI_Sendrecv_replace), a shift by one block: N/P
   elements in the direction of the shift.  */
static void
op_shift_north (void *arg)
{
  struct mat *m = arg;
  COMET_MPI (MPI_Sendrecv_replace (m->a, (int) blockmat_size (m->n),
                                   MPI_DOUBLE, m->top, TAG_SHIFT, m->bottom,
                                   TAG_SHIFT, m->c->comm, MPI_STATUS_IGNORE),
             "MPI_Sendrecv_replace");
  m->calls++;
}

static void
op_shift_east (void *arg)
{
  struct mat *m = arg;
  COMET_MPI (MPI_Sendrecv_replace (m->a, (int) blockmat_size (m->n),
                                   MPI_DOUBLE, m->succ, TAG_SHIFT, m->pred,
                                   TAG_SHIFT, m->c->comm, MPI_STATUS_IGNORE),
             "MPI_Sendrecv_replace");
  m->calls++;
}

/* Wrong elements after M's calls in direction D (0 north, 1 east):
   after s shifts north, block (i, j) holds the original block (i + s, j);
   after s shifts east, block (i, j - s).  */
static size_t
shift_bad (const struct mat *m, int d)
{
  const struct comet_ctx *c = m->c;
  int64_t src_row = c->row, src_col = c->col;
  if (d == 0)
    src_row = grid2d_mod (c->row + m->calls, c->rows);
  else
    src_col = grid2d_mod (c->col - m->calls, c->cols);
  return blockmat_check (m->a, m->n, src_row * m->n, src_col * m->n,
                         m->gcols, m->seq);
}

void
kernel_shift (struct comet_ctx *c)
{
  struct comet_sweep sweep;
  comet_matrix_orders (c->opt, "shift", &sweep);
  const struct comet_sweep *orders = &sweep;
  for (size_t i = 0; i < orders->n; i++)
    for (int d = 0; d < 2; d++)
      {
        struct mat m;
        int n = (int) orders->v[i];
        comet_op op = d == 0 ? op_shift_north : op_shift_east;
        mat_setup (&m, c, n, 2 * (int64_t) i + d);
        mat_once (&m, op, "shift", 0);
        mat_verify (&m, "shift", shift_bad (&m, d));
        struct comet_row row;
        mat_measure (&m, op, "shift", d == 0 ? "north" : "east",
                     comet_matrix_bytes ("shift", n), &row);
        mat_verify (&m, "shift", shift_bad (&m, d));
        comet_emit (c, &row);
        mat_free (&m);
      }
  free (sweep.v);
}

/* ------------------------------------------------------------ transpose */

/* Figure 13: send the local matrix to the transpose node, receive the
   one that belongs here, transpose it locally.  On a square grid the
   transpose node of (i, j) is (j, i), a pairwise exchange; on an R x C
   grid with R != C block (i, j) moves to position (j, i) of the C x R
   grid that holds A^T (grid2d.h), and the next call transposes back.  */
static void
op_transpose (void *arg)
{
  struct mat *m = arg;
  struct comet_ctx *c = m->c;
  int r = c->rows, q = c->cols;
  if (m->calls % 2)
    {
      r = c->cols;
      q = c->rows;
    }
  int dest = grid2d_transpose_dest (c->rank, r, q);
  int src = grid2d_transpose_src (c->rank, r, q);
  COMET_MPI (MPI_Sendrecv_replace (m->a, (int) blockmat_size (m->n),
                                   MPI_DOUBLE, dest, TAG_TRANSPOSE, src,
                                   TAG_TRANSPOSE, c->comm, MPI_STATUS_IGNORE),
             "MPI_Sendrecv_replace");
  blockmat_transpose (m->a, m->n);
  m->calls++;
}

/* Wrong elements after M's calls: an even number leaves A, an odd one
   A^T, where this rank is position (p, q) of the C x R grid and holds
   the transpose of A's block (q, p).  */
static size_t
transpose_bad (const struct mat *m)
{
  const struct comet_ctx *c = m->c;
  int n = m->n;
  if (m->calls % 2 == 0)
    return blockmat_check (m->a, n, m->gi0, m->gj0, m->gcols, m->seq);
  int64_t p = c->rank / c->rows, q = c->rank % c->rows;
  return blockmat_check_transposed (m->a, n, q * n, p * n, m->gcols,
                                    m->seq);
}

void
kernel_transpose (struct comet_ctx *c)
{
  struct comet_sweep sweep;
  comet_matrix_orders (c->opt, "transpose", &sweep);
  const struct comet_sweep *orders = &sweep;
  for (size_t i = 0; i < orders->n; i++)
    {
      struct mat m;
      int n = (int) orders->v[i];
      mat_setup (&m, c, n, (int64_t) i);
      /* The test node may sit on the diagonal and exchange with itself:
         the times are then taken on the lowest rank that moves its block
         (on an R x 1 or 1 x R grid no block moves: the transpose is only
         local, and the times say so).  */
      for (int r = c->size - 1; r >= 0; r--)
        if (grid2d_transpose_dest (r, c->rows, c->cols) != r)
          m.timer = r;
      if (grid2d_transpose_dest (c->test, c->rows, c->cols) != c->test)
        m.timer = c->test;
      mat_once (&m, op_transpose, "transpose", 0);
      mat_verify (&m, "transpose", transpose_bad (&m));
      struct comet_row row;
      mat_measure (&m, op_transpose, "transpose", NULL,
                   comet_matrix_bytes ("transpose", n), &row);
      mat_verify (&m, "transpose", transpose_bad (&m));
      comet_emit (c, &row);
      mat_free (&m);
    }
  free (sweep.v);
}

/* ------------------------------------------------------------ broadcasts */

/* Figures 14 and 16: the nodes that hold part of the global row multicast
   it vertically, down their grid column; every other node of the column
   receives it into the same local row.  The row is the middle row of the
   test node's block, so the test node is a root and its time is, as in
   the paper, "the rate at which broadcasts can be initiated".  The
   paper's sends and acknowledgements are one MPI_Bcast on the column.  */
static void
op_rowbcast (void *arg)
{
  struct mat *m = arg;
  COMET_MPI (MPI_Bcast (&m->a[BLOCKMAT_AT (m->n, m->line_index, 0)], m->n,
                        MPI_DOUBLE, m->line_root, m->line), "MPI_Bcast");
  m->calls++;
}

/* The column is not contiguous in C: its root assembles it into a buffer
   and the receivers scatter it back (Section 4.2 explains the column
   broadcast's extra time by this).  */
static void
op_colbcast (void *arg)
{
  struct mat *m = arg;
  if (m->owner)
    blockmat_pack_col (m->a, m->n, m->line_index, m->sbuf[0]);
  COMET_MPI (MPI_Bcast (m->sbuf[0], m->n, MPI_DOUBLE, m->line_root, m->line),
             "MPI_Bcast");
  if (!m->owner)
    blockmat_unpack_col (m->a, m->n, m->line_index, m->sbuf[0]);
  m->calls++;
}

/* The test node's position, known to every rank.  */
static void
test_position (struct comet_ctx *c, int *row, int *col)
{
  int coords[2];
  mpu_check (MPI_Cart_coords (c->comm, c->test, 2, coords),
             "MPI_Cart_coords");
  *row = coords[0];
  *col = coords[1];
}

/* Wrong elements after a row (ROWS) or column broadcast: the broadcast
   line holds the root's segment, every other element is this block's.  */
static size_t
line_bad (const struct mat *m, int rows)
{
  return rows
    ? blockmat_check_row (m->a, m->n, m->gi0, m->gj0, m->gcols,
                          m->global_index, m->seq)
    : blockmat_check_col (m->a, m->n, m->gi0, m->gj0, m->gcols,
                          m->global_index, m->seq);
}

static void
line_bcast (struct comet_ctx *c, int rows)
{
  const char *kernel = rows ? "rowbcast" : "colbcast";
  struct comet_sweep sweep;
  comet_matrix_orders (c->opt, kernel, &sweep);
  const struct comet_sweep *orders = &sweep;
  int trow, tcol;
  test_position (c, &trow, &tcol);
  /* A column communicator keeps dimension 0 (the grid rows), a row
     communicator dimension 1; in it, a rank's number is its coordinate.  */
  int remain[2] = { rows, !rows };
  for (size_t i = 0; i < orders->n; i++)
    {
      struct mat m;
      int n = (int) orders->v[i];
      mat_setup (&m, c, n, (int64_t) i);
      mpu_check (MPI_Cart_sub (c->comm, remain, &m.line), "MPI_Cart_sub");
      MPI_Comm_set_errhandler (m.line, MPI_ERRORS_RETURN);
      m.line_root = rows ? trow : tcol;
      m.owner = (rows ? c->row : c->col) == m.line_root;
      m.line_index = n / 2;
      m.global_index = (int64_t) m.line_root * n + m.line_index;
      m.sbuf[0] = xcalloc (1, (size_t) n * sizeof (double));
      comet_op op = rows ? op_rowbcast : op_colbcast;
      mat_once (&m, op, kernel, 1);
      mat_verify (&m, kernel, line_bad (&m, rows));
      struct comet_row row;
      mat_measure (&m, op, kernel, NULL, comet_matrix_bytes (kernel, n),
                   &row);
      mat_verify (&m, kernel, line_bad (&m, rows));
      comet_emit (c, &row);
      mat_free (&m);
    }
  free (sweep.v);
}

void
kernel_rowbcast (struct comet_ctx *c)
{
  line_bcast (c, 1);
}

void
kernel_colbcast (struct comet_ctx *c)
{
  line_bcast (c, 0);
}
