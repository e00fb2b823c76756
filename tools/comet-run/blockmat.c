/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blockmat.c: setup, packing and verification of a guard-wrapped block
   (see blockmat.h).  */
#include <config.h>
#include "blockmat.h"

#include "grid2d.h"

size_t
blockmat_size (int n)
{
  return (size_t) (n + 2) * (size_t) (n + 2);
}

double
blockmat_value (int64_t gi, int64_t gj, int64_t gcols, int64_t seq)
{
  int64_t s = seq % BLOCKMAT_SEQS;
  if (s < 0)
    s += BLOCKMAT_SEQS;
  return (double) ((gi * gcols + gj) * BLOCKMAT_SEQS + s + 1);
}

void
blockmat_set_interior (double *a, int n, int64_t gi0, int64_t gj0,
                       int64_t gcols, int64_t seq)
{
  for (int x = 0; x < n; x++)
    for (int y = 0; y < n; y++)
      a[BLOCKMAT_AT (n, x, y)] = blockmat_value (gi0 + x, gj0 + y, gcols,
                                                 seq);
}

void
blockmat_init (double *a, int n, int64_t gi0, int64_t gj0, int64_t gcols,
               int64_t seq)
{
  for (int k = -1; k <= n; k++)
    {
      a[BLOCKMAT_AT (n, -1, k)] = BLOCKMAT_GUARD_INIT;
      a[BLOCKMAT_AT (n, n, k)] = BLOCKMAT_GUARD_INIT;
      a[BLOCKMAT_AT (n, k, -1)] = BLOCKMAT_GUARD_INIT;
      a[BLOCKMAT_AT (n, k, n)] = BLOCKMAT_GUARD_INIT;
    }
  blockmat_set_interior (a, n, gi0, gj0, gcols, seq);
}

/* Position of element K of the interior edge, or of the guard strip, on
   SIDE.  */
static size_t
side_at (int n, enum blockmat_side side, int k, int guard)
{
  int lo = guard ? -1 : 0, hi = guard ? n : n - 1;
  switch (side)
    {
    case BLOCKMAT_NORTH: return BLOCKMAT_AT (n, lo, k);
    case BLOCKMAT_SOUTH: return BLOCKMAT_AT (n, hi, k);
    case BLOCKMAT_WEST:  return BLOCKMAT_AT (n, k, lo);
    default:             return BLOCKMAT_AT (n, k, hi);
    }
}

void
blockmat_pack_edge (const double *a, int n, enum blockmat_side side,
                    double *buf)
{
  for (int k = 0; k < n; k++)
    buf[k] = a[side_at (n, side, k, 0)];
}

void
blockmat_unpack_guard (double *a, int n, enum blockmat_side side,
                       const double *buf)
{
  for (int k = 0; k < n; k++)
    a[side_at (n, side, k, 1)] = buf[k];
}

void
blockmat_pack_col (const double *a, int n, int y, double *buf)
{
  for (int x = 0; x < n; x++)
    buf[x] = a[BLOCKMAT_AT (n, x, y)];
}

void
blockmat_unpack_col (double *a, int n, int y, const double *buf)
{
  for (int x = 0; x < n; x++)
    a[BLOCKMAT_AT (n, x, y)] = buf[x];
}

void
blockmat_transpose (double *a, int n)
{
  for (int x = 0; x < n; x++)
    for (int y = x + 1; y < n; y++)
      {
        double t = a[BLOCKMAT_AT (n, x, y)];
        a[BLOCKMAT_AT (n, x, y)] = a[BLOCKMAT_AT (n, y, x)];
        a[BLOCKMAT_AT (n, y, x)] = t;
      }
}

size_t
blockmat_check (const double *a, int n, int64_t gi0, int64_t gj0,
                int64_t gcols, int64_t seq)
{
  size_t bad = 0;
  for (int x = 0; x < n; x++)
    for (int y = 0; y < n; y++)
      bad += a[BLOCKMAT_AT (n, x, y)]
             != blockmat_value (gi0 + x, gj0 + y, gcols, seq);
  return bad;
}

size_t
blockmat_check_transposed (const double *a, int n, int64_t gi0, int64_t gj0,
                           int64_t gcols, int64_t seq)
{
  size_t bad = 0;
  for (int x = 0; x < n; x++)
    for (int y = 0; y < n; y++)
      bad += a[BLOCKMAT_AT (n, x, y)]
             != blockmat_value (gi0 + y, gj0 + x, gcols, seq);
  return bad;
}

size_t
blockmat_check_guard (const double *a, int n, int64_t gi0, int64_t gj0,
                      int64_t grows, int64_t gcols, int64_t seq)
{
  size_t bad = blockmat_check (a, n, gi0, gj0, gcols, seq);
  int64_t north = grid2d_mod (gi0 - 1, grows), south = grid2d_mod (gi0 + n,
                                                                   grows);
  int64_t west = grid2d_mod (gj0 - 1, gcols), east = grid2d_mod (gj0 + n,
                                                                 gcols);
  for (int k = 0; k < n; k++)
    {
      bad += a[BLOCKMAT_AT (n, -1, k)] != blockmat_value (north, gj0 + k,
                                                          gcols, seq);
      bad += a[BLOCKMAT_AT (n, n, k)] != blockmat_value (south, gj0 + k,
                                                         gcols, seq);
      bad += a[BLOCKMAT_AT (n, k, -1)] != blockmat_value (gi0 + k, west,
                                                          gcols, seq);
      bad += a[BLOCKMAT_AT (n, k, n)] != blockmat_value (gi0 + k, east,
                                                         gcols, seq);
    }
  return bad;
}

size_t
blockmat_check_row (const double *a, int n, int64_t gi0, int64_t gj0,
                    int64_t gcols, int64_t grow, int64_t seq)
{
  int lr = (int) (grow % n);
  size_t bad = 0;
  for (int x = 0; x < n; x++)
    for (int y = 0; y < n; y++)
      bad += a[BLOCKMAT_AT (n, x, y)]
             != blockmat_value (x == lr ? grow : gi0 + x, gj0 + y, gcols,
                                seq);
  return bad;
}

size_t
blockmat_check_col (const double *a, int n, int64_t gi0, int64_t gj0,
                    int64_t gcols, int64_t gcol, int64_t seq)
{
  int lc = (int) (gcol % n);
  size_t bad = 0;
  for (int x = 0; x < n; x++)
    for (int y = 0; y < n; y++)
      bad += a[BLOCKMAT_AT (n, x, y)]
             != blockmat_value (gi0 + x, y == lc ? gcol : gj0 + y, gcols,
                                seq);
  return bad;
}
