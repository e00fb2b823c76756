/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-blockmat: the guard-wrapped block of CoMet's matrix kernels and
   the adjacency-matrix grid (tools/comet-run/blockmat.c, tools/comet-run/grid2d.c).  */
#include <config.h>
#include <stdlib.h>

#include "blockmat.h"
#include "grid2d.h"
#include "unit.h"

/* A 3 x 2 grid of blocks of order N, as the matrix kernels see it.  */
enum { R = 3, C = 2, N = 4 };
/* The sweep point of the blocks (any one: the values carry it).  */
enum { S = 5 };

static double *
block (int rank, int n)
{
  double *a = malloc (blockmat_size (n) * sizeof *a);
  blockmat_init (a, n, (int64_t) (rank / C) * n, (int64_t) (rank % C) * n,
                 (int64_t) C * n, S);
  return a;
}

static void
test_grid (void)
{
  int r, c;
  CHECK (grid2d_parse ("3x2", &r, &c) == 0 && r == 3 && c == 2);
  CHECK (grid2d_parse ("1x1", &r, &c) == 0 && r == 1 && c == 1);
  CHECK (grid2d_parse ("3", &r, &c) == -1);
  CHECK (grid2d_parse ("0x2", &r, &c) == -1);
  CHECK (grid2d_parse ("2x", &r, &c) == -1);
  CHECK (grid2d_parse ("x2", &r, &c) == -1);
  CHECK (grid2d_parse ("2x2x2", &r, &c) == -1);
  CHECK (grid2d_parse ("-2x2", &r, &c) == -1);

  /* 3 x 2: ranks 0 1 / 2 3 / 4 5.  */
  CHECK (grid2d_distance (0, 1, 3, 2) == 1);
  CHECK (grid2d_distance (0, 2, 3, 2) == 1);
  CHECK (grid2d_distance (0, 3, 3, 2) == 2);
  CHECK (grid2d_distance (0, 5, 3, 2) == 3);
  CHECK (grid2d_distance (5, 0, 3, 2) == 3);
  CHECK (grid2d_distance (4, 4, 3, 2) == 0);
  CHECK (grid2d_max_hops (3, 2) == 3);
  CHECK (grid2d_max_hops (1, 1) == 0);
  CHECK (grid2d_rank_at (0, 1, 3, 2) == 1);
  CHECK (grid2d_rank_at (0, 2, 3, 2) == 3);
  CHECK (grid2d_rank_at (0, 3, 3, 2) == 5);
  CHECK (grid2d_rank_at (0, 4, 3, 2) == -1);
  CHECK (grid2d_rank_at (0, 1, 2, 1) == 1);

  /* Square grid: dest and src are the transposed position.  */
  for (int k = 0; k < 9; k++)
    {
      int t = (k % 3) * 3 + k / 3;
      CHECK (grid2d_transpose_dest (k, 3, 3) == t);
      CHECK (grid2d_transpose_src (k, 3, 3) == t);
    }
  /* 3 x 2 grid: a permutation, and src inverts dest.  */
  int seen[R * C] = { 0 };
  for (int k = 0; k < R * C; k++)
    {
      int d = grid2d_transpose_dest (k, R, C);
      CHECK (d >= 0 && d < R * C);
      seen[d]++;
      CHECK (grid2d_transpose_src (d, R, C) == k);
    }
  for (int k = 0; k < R * C; k++)
    CHECK (seen[k] == 1);
  CHECK (grid2d_transpose_dest (1, R, C) == 3); /* (0,1) -> (1,0) of 2x3 */
  CHECK (grid2d_mod (-1, 5) == 4);
  CHECK (grid2d_mod (7, 5) == 2);
}

static void
test_setup_and_edges (void)
{
  double *a = block (3, N);   /* grid (1,1): global rows 4..7, cols 4..7 */
  CHECK (blockmat_size (N) == 36);
  CHECK (a[BLOCKMAT_AT (N, 0, 0)] == blockmat_value (4, 4, 8, S));
  CHECK (blockmat_value (4, 4, 8, 0) == 36 * BLOCKMAT_SEQS + 1);
  CHECK (blockmat_value (4, 4, 8, S) == 36 * BLOCKMAT_SEQS + S + 1);
  /* The point wraps: -1 is the last of BLOCKMAT_SEQS, never a value of
     another element.  */
  CHECK (blockmat_value (0, 0, 8, -1) == BLOCKMAT_SEQS);
  CHECK (blockmat_value (0, 0, 8, BLOCKMAT_SEQS) == 1);
  /* The previous point's block (a stale buffer) and the next rank's
     block are wrong in every element.  */
  CHECK (blockmat_check (a, N, 4, 4, 8, S - 1) == 16);
  CHECK (blockmat_check (a, N, 4, 0, 8, S) == 16);
  CHECK (a[BLOCKMAT_AT (N, -1, 0)] == BLOCKMAT_GUARD_INIT);
  CHECK (a[BLOCKMAT_AT (N, N, N)] == BLOCKMAT_GUARD_INIT);
  CHECK (blockmat_check (a, N, 4, 4, 8, S) == 0);
  CHECK (blockmat_check (a, N, 0, 4, 8, S) == 16);

  double buf[N];
  blockmat_pack_edge (a, N, BLOCKMAT_NORTH, buf);
  CHECK (buf[2] == blockmat_value (4, 6, 8, S));
  blockmat_pack_edge (a, N, BLOCKMAT_SOUTH, buf);
  CHECK (buf[2] == blockmat_value (7, 6, 8, S));
  blockmat_pack_edge (a, N, BLOCKMAT_WEST, buf);
  CHECK (buf[1] == blockmat_value (5, 4, 8, S));
  blockmat_pack_edge (a, N, BLOCKMAT_EAST, buf);
  CHECK (buf[1] == blockmat_value (5, 7, 8, S));

  blockmat_pack_col (a, N, 2, buf);
  CHECK (buf[3] == blockmat_value (7, 6, 8, S));
  double col[N] = { -5, -6, -7, -8 };
  blockmat_unpack_col (a, N, 2, col);
  CHECK (a[BLOCKMAT_AT (N, 1, 2)] == -6);
  CHECK (blockmat_check (a, N, 4, 4, 8, S) == 4);
  /* set_interior makes the interior anew and leaves the guard.  */
  a[BLOCKMAT_AT (N, -1, 1)] = -9;
  blockmat_set_interior (a, N, 4, 4, 8, S + 1);
  CHECK (blockmat_check (a, N, 4, 4, 8, S + 1) == 0);
  CHECK (a[BLOCKMAT_AT (N, -1, 1)] == -9);
  free (a);
}

/* update-guard done by hand on the whole 3 x 2 grid, with periodic
   neighbours, then checked on every block.  */
static void
test_guard (void)
{
  double *b[R * C];
  for (int k = 0; k < R * C; k++)
    b[k] = block (k, N);
  CHECK (blockmat_check_guard (b[0], N, 0, 0, R * N, C * N, S) == 4 * N);
  double buf[N];
  for (int k = 0; k < R * C; k++)
    {
      int i = k / C, j = k % C;
      int top = ((i + R - 1) % R) * C + j, bottom = ((i + 1) % R) * C + j;
      int pred = i * C + (j + C - 1) % C, succ = i * C + (j + 1) % C;
      blockmat_pack_edge (b[top], N, BLOCKMAT_SOUTH, buf);
      blockmat_unpack_guard (b[k], N, BLOCKMAT_NORTH, buf);
      blockmat_pack_edge (b[bottom], N, BLOCKMAT_NORTH, buf);
      blockmat_unpack_guard (b[k], N, BLOCKMAT_SOUTH, buf);
      blockmat_pack_edge (b[pred], N, BLOCKMAT_EAST, buf);
      blockmat_unpack_guard (b[k], N, BLOCKMAT_WEST, buf);
      blockmat_pack_edge (b[succ], N, BLOCKMAT_WEST, buf);
      blockmat_unpack_guard (b[k], N, BLOCKMAT_EAST, buf);
    }
  for (int k = 0; k < R * C; k++)
    CHECK (blockmat_check_guard (b[k], N, (k / C) * N, (k % C) * N, R * N,
                                 C * N, S) == 0);
  /* A wrong guard value is found.  */
  b[2][BLOCKMAT_AT (N, N, 1)] += 1;
  CHECK (blockmat_check_guard (b[2], N, N, 0, R * N, C * N, S) == 1);
  for (int k = 0; k < R * C; k++)
    free (b[k]);
}

static void
test_transpose (void)
{
  double *a = block (1, N);   /* grid (0,1): rows 0..3, cols 4..7 */
  blockmat_transpose (a, N);
  CHECK (blockmat_check_transposed (a, N, 0, 4, 8, S) == 0);
  CHECK (blockmat_check (a, N, 0, 4, 8, S) == 12);   /* all but the diagonal */
  blockmat_transpose (a, N);
  CHECK (blockmat_check (a, N, 0, 4, 8, S) == 0);
  /* Order 1 and 2.  */
  double *s = block (0, 1);
  blockmat_transpose (s, 1);
  CHECK (blockmat_check (s, 1, 0, 0, 2, S) == 0);
  free (s);
  free (a);
}

static void
test_bcast_checks (void)
{
  /* Row broadcast of global row 1 down grid column 1: block (2,1) gets
     row 1's segment in its local row 1.  */
  double *src = block (1, N), *dst = block (5, N);
  CHECK (blockmat_check_row (src, N, 0, 4, 8, 1, S) == 0);
  CHECK (blockmat_check_row (dst, N, 8, 4, 8, 1, S) == N);
  for (int y = 0; y < N; y++)
    dst[BLOCKMAT_AT (N, 1, y)] = src[BLOCKMAT_AT (N, 1, y)];
  CHECK (blockmat_check_row (dst, N, 8, 4, 8, 1, S) == 0);
  free (dst);
  /* Column broadcast of global column 6 along grid row 0.  */
  double *left = block (0, N), col[N];
  blockmat_pack_col (src, N, 2, col);
  CHECK (blockmat_check_col (left, N, 0, 0, 8, 6, S) == N);
  blockmat_unpack_col (left, N, 2, col);
  CHECK (blockmat_check_col (left, N, 0, 0, 8, 6, S) == 0);
  CHECK (blockmat_check_col (src, N, 0, 4, 8, 6, S) == 0);
  free (left);
  free (src);
}

int
main (void)
{
  test_grid ();
  test_setup_and_edges ();
  test_guard ();
  test_transpose ();
  test_bcast_checks ();
  return unit_done ();
}
