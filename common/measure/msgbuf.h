/* SPDX-License-Identifier: GPL-3.0-or-later */
/* msgbuf.h: the send and receive buffers of an MPI measurement.
 *
 * An MPI library's copy paths (Open MPI's shared-memory single copy, a
 * NIC's DMA) can be several times slower into a misaligned buffer, and a
 * send buffer whose last cache line is the receive buffer's first makes
 * two cores fight over that line.  logp-measure once kept both in one
 * block, the receive buffer at buf + max_bytes + 1: g(64 KiB) came out
 * 24.4 us against 6.4 us.  Here each buffer has pages of its own, and
 * msgbuf_check says whether a pair of buffers is laid out so.  */
#ifndef MSGPERF_MSGBUF_H
#define MSGPERF_MSGBUF_H

#include <stddef.h>
#include <stdint.h>

/* Allocate a send and a receive buffer of N bytes each, each starting on
   a page boundary (xmalloc_pages: dies when out of memory), and write
   every byte once so that each page is real memory, not the shared zero
   page.  Free each with free().  */
void msgbuf_pair (size_t n, char **sbuf, char **rbuf);

/* The layout of two buffers of N bytes at addresses S and R.  */
struct msgbuf_layout
{
  size_t bytes, page, line;
  size_t send_page_offset, recv_page_offset;   /* address mod page */
  size_t shared_lines;  /* cache lines holding bytes of both buffers */
  int overlap;          /* the buffers share bytes */
};

/* Fill OUT for buffers of N bytes at S and R, with PAGE-byte pages and
   LINE-byte cache lines (both powers of two).  Pure.  */
void msgbuf_check (uintptr_t s, uintptr_t r, size_t n, size_t page,
                   size_t line, struct msgbuf_layout *out);

/* This machine's page size and first-level data cache line (64 when the
   system does not say).  */
size_t msgbuf_page_size (void);
size_t msgbuf_line_size (void);

/* Is the layout what msgbuf_pair gives: both page-aligned, no shared
   cache line, no overlap?  */
int msgbuf_ok (const struct msgbuf_layout *l);

#endif
