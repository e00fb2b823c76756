/* SPDX-License-Identifier: GPL-3.0-or-later */
/* buffers.c: the message buffers of the point-to-point and broadcast
 * kernels (--buffers, --cache).
 *
 * separate (the default, as OSU Micro-Benchmarks and IMB do): a send
 * buffer and a receive buffer, each on its own pages; shared: one
 * buffer that every message leaves from and arrives in (the paper's
 * Figure 1 bounces one message).  On shared memory the two differ from
 * 16 KiB up: a received message overwrites the buffer the next send
 * reads, and the library's copies contend for the same cache lines.
 *
 * warm (the default): every iteration uses the same buffers, cache-hot
 * after the warm-up.  cold: the buffers are slots of a pool larger than
 * the last-level cache, and every iteration takes the next slot, so a
 * message is read from and written to memory that the previous
 * iterations have pushed out of the cache.  */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "comet.h"
#include "mpiutil.h"
#include "xalloc.h"

/* The largest cache of this machine (sysconf's level 3, else level 2),
   or 32 MiB when the system does not say.  */
size_t
comet_llc_bytes (void)
{
  long l3 = -1, l2 = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
  l3 = sysconf (_SC_LEVEL3_CACHE_SIZE);
#endif
#ifdef _SC_LEVEL2_CACHE_SIZE
  l2 = sysconf (_SC_LEVEL2_CACHE_SIZE);
#endif
  if (l3 > 0)
    return (size_t) l3;
  if (l2 > 0)
    return (size_t) l2;
  return (size_t) 32 << 20;
}

void
comet_bufs_init (const struct comet_opts *o, struct comet_bufs *b,
                 size_t max_bytes)
{
  memset (b, 0, sizeof *b);
  long pg = sysconf (_SC_PAGESIZE);
  size_t page = pg > 0 ? (size_t) pg : 4096;
  /* Slots start on page boundaries: a cold slot is as aligned as a warm
     buffer.  */
  b->slot = (max_bytes + page - 1) / page * page;
  if (b->slot == 0)
    b->slot = page;
  b->nslots = 1;
  if (o->cache_cold)
    {
      /* Send and receive slots together twice the last-level cache.  */
      size_t per = o->buffers_shared ? b->slot : 2 * b->slot;
      b->nslots = 2 * comet_llc_bytes () / per + 2;
    }
  size_t bytes = b->slot * b->nslots;
  b->send = xmalloc_pages (bytes);
  memset (b->send, 0, bytes);
  if (o->buffers_shared)
    b->recv = b->send;
  else
    {
      b->recv = xmalloc_pages (bytes);
      memset (b->recv, 0, bytes);
    }
  b->next = 0;
}

void
comet_bufs_next (struct comet_bufs *b, char **send, char **recv)
{
  size_t off = b->next * b->slot;
  *send = b->send + off;
  *recv = b->recv + off;
  if (++b->next == b->nslots)
    b->next = 0;
}

void
comet_bufs_free (struct comet_bufs *b)
{
  if (b->recv != b->send)
    free (b->recv);
  free (b->send);
  memset (b, 0, sizeof *b);
}
