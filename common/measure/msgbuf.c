/* SPDX-License-Identifier: GPL-3.0-or-later */
/* msgbuf.c: send and receive buffers on pages of their own (msgbuf.h). */
#include <config.h>
#include "msgbuf.h"

#include <string.h>
#include <unistd.h>

#include "xalloc.h"

void
msgbuf_pair (size_t n, char **sbuf, char **rbuf)
{
  *sbuf = xmalloc_pages (n);
  *rbuf = xmalloc_pages (n);
  memset (*sbuf, 'x', n);
  memset (*rbuf, 'x', n);
}

void
msgbuf_check (uintptr_t s, uintptr_t r, size_t n, size_t page, size_t line,
              struct msgbuf_layout *out)
{
  memset (out, 0, sizeof *out);
  out->bytes = n;
  out->page = page;
  out->line = line;
  out->send_page_offset = (size_t) (s & (page - 1));
  out->recv_page_offset = (size_t) (r & (page - 1));
  if (n == 0)
    return;
  uintptr_t s_end = s + n, r_end = r + n;     /* one past the last byte */
  out->overlap = s < r_end && r < s_end;
  /* Lines [first, last] of each buffer; the shared ones are the
     intersection of the two ranges.  */
  uintptr_t mask = ~(uintptr_t) (line - 1);
  uintptr_t s0 = s & mask, s1 = (s_end - 1) & mask;
  uintptr_t r0 = r & mask, r1 = (r_end - 1) & mask;
  uintptr_t lo = s0 > r0 ? s0 : r0, hi = s1 < r1 ? s1 : r1;
  out->shared_lines = lo <= hi ? (size_t) ((hi - lo) / line + 1) : 0;
}

size_t
msgbuf_page_size (void)
{
  long p = sysconf (_SC_PAGESIZE);
  return p > 0 ? (size_t) p : 4096;
}

size_t
msgbuf_line_size (void)
{
  long l = -1;
#ifdef _SC_LEVEL1_DCACHE_LINESIZE
  l = sysconf (_SC_LEVEL1_DCACHE_LINESIZE);
#endif
  /* A power of two, or the usual 64.  */
  return l > 0 && (l & (l - 1)) == 0 ? (size_t) l : 64;
}

int
msgbuf_ok (const struct msgbuf_layout *l)
{
  return l->send_page_offset == 0 && l->recv_page_offset == 0
         && l->shared_lines == 0 && !l->overlap;
}
