/* SPDX-License-Identifier: GPL-3.0-or-later */
/* grid2d.c: positions, distances and transposition on the adjacency
   matrix (see grid2d.h).  */
#include <config.h>
#include "grid2d.h"

#include <stdlib.h>
#include <string.h>

#include "num.h"

int
grid2d_parse (const char *text, int *rows, int *cols)
{
  const char *x = strchr (text, 'x');
  if (!x)
    return -1;
  int64_t r, c;
  if (num_parse_int64 (text, (size_t) (x - text), &r) != NUM_OK
      || num_parse_int64 (x + 1, strlen (x + 1), &c) != NUM_OK)
    return -1;
  if (r < 1 || c < 1 || r > 1000000 || c > 1000000)
    return -1;
  *rows = (int) r;
  *cols = (int) c;
  return 0;
}

int
grid2d_distance (int a, int b, int rows, int cols)
{
  (void) rows;
  return abs (a / cols - b / cols) + abs (a % cols - b % cols);
}

int
grid2d_max_hops (int rows, int cols)
{
  return rows - 1 + cols - 1;
}

int
grid2d_rank_at (int from, int hops, int rows, int cols)
{
  for (int r = 0; r < rows * cols; r++)
    if (grid2d_distance (from, r, rows, cols) == hops)
      return r;
  return -1;
}

int
grid2d_transpose_dest (int rank, int rows, int cols)
{
  int i = rank / cols, j = rank % cols;
  return j * rows + i;
}

int
grid2d_transpose_src (int rank, int rows, int cols)
{
  /* RANK is position (a, b) of the COLS x ROWS grid of A^T; its block is
     the transpose of block (b, a) of A.  */
  int a = rank / rows, b = rank % rows;
  return b * cols + a;
}

int64_t
grid2d_mod (int64_t a, int64_t m)
{
  int64_t r = a % m;
  return r < 0 ? r + m : r;
}
