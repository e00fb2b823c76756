/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xalloc.h: allocation that cannot fail silently.  Out of memory is a
   runtime failure like any other: die() names it and the program exits 1
   (MPI programs abort the job through err.h's exit hook).  */
#ifndef MSGPERF_XALLOC_H
#define MSGPERF_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc (size_t n);
/* N elements of SIZE bytes, zeroed; the product is checked for overflow. */
void *xcalloc (size_t n, size_t size);
void *xrealloc (void *p, size_t n);
char *xstrdup (const char *s);
/* A new string printed from FMT (free with free()).  */
char *xasprintf (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
char *xvasprintf (const char *fmt, va_list ap)
  __attribute__ ((format (printf, 1, 0)));
/* N bytes starting on a page boundary, for message buffers: an MPI
   library's copy paths (shared-memory single copy, NIC DMA) can be several
   times slower into a misaligned buffer.  Free with free().  */
void *xmalloc_pages (size_t n);

#endif
