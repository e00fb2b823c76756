/* SPDX-License-Identifier: GPL-3.0-or-later */
/* blockmat.h: one node's block of CoMet's block-decomposed matrix.
 *
 * comet-benchmark.txt, Section 2.2.2 and Figure 9: the global matrix is
 * split into square blocks, one per node of the adjacency matrix, and each
 * block is stored with a one-element guard wrapper that holds copies of the
 * neighbouring nodes' edge values.  A block of order n is an (n+2) x (n+2)
 * row-major array of doubles; interior element (x, y), 0 <= x, y < n, is at
 * BLOCKMAT_AT (n, x, y), and x or y = -1 or n address the guard.
 *
 * The setup module gives every element of the global matrix a distinct
 * value that tells where it came from and which point of the sweep it
 * belongs to, blockmat_value (gi, gj, gcols, seq); the verification
 * module checks what a kernel left against those values, so that a block
 * of another rank or of the previous sweep point (a stale buffer) fails
 * the check.
 * Pure code, no MPI: the checks return the number of wrong elements.  */
#ifndef MSGPERF_BLOCKMAT_H
#define MSGPERF_BLOCKMAT_H

#include <stddef.h>
#include <stdint.h>

#define BLOCKMAT_AT(n, x, y) ((size_t) ((x) + 1) * (size_t) ((n) + 2) \
                              + (size_t) ((y) + 1))

/* Elements of a block with its guard wrapper.  */
size_t blockmat_size (int n);

/* The value of global element (GI, GJ) of a matrix with GCOLS columns
   at point SEQ of a sweep: (GI * GCOLS + GJ) * BLOCKMAT_SEQS + SEQ mod
   BLOCKMAT_SEQS + 1, exact in a double (up to 2^46 elements) and never
   0; two consecutive points differ in every element.  */
#define BLOCKMAT_SEQS 64
double blockmat_value (int64_t gi, int64_t gj, int64_t gcols, int64_t seq);

/* The guard wrapper's initial value (no element has it).  */
#define BLOCKMAT_GUARD_INIT 0.0

/* Setup: the block whose first element is global (GI0, GJ0) at sweep
   point SEQ; the guard wrapper is set to BLOCKMAT_GUARD_INIT.  */
void blockmat_init (double *a, int n, int64_t gi0, int64_t gj0,
                    int64_t gcols, int64_t seq);
/* The interior alone (the guard wrapper is left as it is).  */
void blockmat_set_interior (double *a, int n, int64_t gi0, int64_t gj0,
                            int64_t gcols, int64_t seq);

/* Edges and guard strips, in the order of Figure 10: north is row 0 (the
   side of the "top" node), south row n-1 ("bottom"), west column 0
   ("pred"), east column n-1 ("succ").  */
enum blockmat_side { BLOCKMAT_NORTH, BLOCKMAT_SOUTH, BLOCKMAT_WEST,
                     BLOCKMAT_EAST };

/* Copy the interior edge SIDE into BUF (n values).  */
void blockmat_pack_edge (const double *a, int n, enum blockmat_side side,
                         double *buf);
/* Copy BUF (n values) into the guard strip on SIDE.  */
void blockmat_unpack_guard (double *a, int n, enum blockmat_side side,
                            const double *buf);

/* Interior column Y to BUF and back (column broadcast, Section 4.2: "the
   additional time required to assemble columns into a buffer").  */
void blockmat_pack_col (const double *a, int n, int y, double *buf);
void blockmat_unpack_col (double *a, int n, int y, const double *buf);

/* Transpose the interior in place (the local step of Figure 13).  */
void blockmat_transpose (double *a, int n);

/* ---- verification: the number of wrong interior or guard elements,
   against the values of sweep point SEQ.  */

/* Interior holds the block of the original matrix at (GI0, GJ0).  */
size_t blockmat_check (const double *a, int n, int64_t gi0, int64_t gj0,
                       int64_t gcols, int64_t seq);

/* Interior holds the transpose of the block at (GI0, GJ0) of the original
   matrix: element (x, y) is value (GI0 + y, GJ0 + x).  */
size_t blockmat_check_transposed (const double *a, int n, int64_t gi0,
                                  int64_t gj0, int64_t gcols, int64_t seq);

/* After update-guard on a GROWS x GCOLS matrix with periodic neighbours:
   the interior is unchanged and the four guard strips hold the
   neighbouring values (corners are not part of the exchange).  */
size_t blockmat_check_guard (const double *a, int n, int64_t gi0,
                             int64_t gj0, int64_t grows, int64_t gcols,
                             int64_t seq);

/* After a broadcast of global row GROW (rowbcast, Figure 14): local row
   GROW mod n holds that row's segment, every other row is unchanged.  */
size_t blockmat_check_row (const double *a, int n, int64_t gi0, int64_t gj0,
                           int64_t gcols, int64_t grow, int64_t seq);

/* Same for a broadcast of global column GCOL (colbcast).  */
size_t blockmat_check_col (const double *a, int n, int64_t gi0, int64_t gj0,
                           int64_t gcols, int64_t gcol, int64_t seq);

#endif
