/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numfast.h: a fast path for num_format's shortest round-trip form.
 *
 * num_format (num.h) prints a double with the fewest of 15, 16 or 17
 * significant digits that reads back to the same double, in printf's %g
 * style, trying the three lengths one after the other.  A model tool
 * printing ten numbers a row spends most of its time there.  This fast
 * path settles the three candidates in one pass of exact 128-bit integer
 * arithmetic for the magnitudes where it fits (about 1e-17 to 1e35) and
 * declines the rest; the text is the same.
 */
#ifndef MSGPERF_NUMFAST_H
#define MSGPERF_NUMFAST_H

/* Write the text num_format (V, -1, BUF) writes (BUF has NUM_BUFSIZE
   bytes) and return its length, or return 0 without writing when V is
   outside the fast path's range (zero, non-finite, subnormal, very small
   or very large magnitudes, or a compiler without 128-bit integers).  */
int num_format_fast (double v, char *buf);

#endif
