/* SPDX-License-Identifier: GPL-3.0-or-later */
/* grid2d.h: the CoMet adjacency matrix, a 2-D grid of processes.
 *
 * Ganapati, Otto and Walpole (comet-benchmark.txt, Section 2.1) arrange the
 * nodes in a two-dimensional "adjacency matrix" so that neighbouring blocks
 * of a block-decomposed matrix sit on neighbouring nodes.  Positions are
 * numbered row-major, as MPI_Cart_create numbers the ranks of a Cartesian
 * communicator: rank = row * cols + col.  Pure code, no MPI.  */
#ifndef MSGPERF_GRID2D_H
#define MSGPERF_GRID2D_H

#include <stdint.h>

/* Parse "RxC" (two positive whole numbers).  0, or -1 on bad text.  */
int grid2d_parse (const char *text, int *rows, int *cols);

/* Hop distance between ranks A and B of a ROWS x COLS grid: the Manhattan
   distance |dr| + |dc| of a mesh without wrap-around, the number of links
   a message crosses in the adjacency matrix.  */
int grid2d_distance (int a, int b, int rows, int cols);

/* Largest hop distance from rank 0 (the corner): rows - 1 + cols - 1.  */
int grid2d_max_hops (int rows, int cols);

/* Lowest rank at hop distance HOPS from rank FROM, or -1.  */
int grid2d_rank_at (int from, int hops, int rows, int cols);

/* Transpose of a block matrix laid out on a ROWS x COLS grid: block (i, j)
   of A becomes block (j, i) of A^T, which lives on the COLS x ROWS grid at
   rank j * ROWS + i.  grid2d_transpose_dest gives where RANK's block goes;
   grid2d_transpose_src which rank's block RANK receives.  On a square grid
   both are the rank of the transposed position, the paper's "transpose
   node".  */
int grid2d_transpose_dest (int rank, int rows, int cols);
int grid2d_transpose_src (int rank, int rows, int cols);

/* Modulo that is never negative.  */
int64_t grid2d_mod (int64_t a, int64_t m);

#endif
