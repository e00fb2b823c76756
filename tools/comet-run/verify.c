/* SPDX-License-Identifier: GPL-3.0-or-later */
/* verify.c: the content the point-to-point kernels check (see comet.h).
 *
 * A verification exchange is one untimed execution of a kernel's
 * transfer, once per size before the size is timed.  Its bytes depend on
 * the exchange's number in the sweep (SEQ), the sending and receiving
 * ranks and the byte's index, and the receive buffer first holds the
 * complement of what is due: a transfer that did nothing, delivered an
 * earlier exchange's buffer or the wrong rank's data leaves bytes that
 * differ from the expected ones.  */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "comet.h"
#include "mpiutil.h"

int
comet_break_mode (const char *kernel)
{
  const char *v = getenv ("MSGPERF_COMET_BREAK");
  size_t k = strlen (kernel);
  if (!v || strncmp (v, kernel, k) != 0)
    return 0;
  if (v[k] == '\0')
    return COMET_BREAK_SKIP;
  if (strcmp (v + k, ":stale") == 0)
    return COMET_BREAK_STALE;
  if (strcmp (v + k, ":peer") == 0)
    return COMET_BREAK_PEER;
  if (strcmp (v + k, ":load") == 0)
    return COMET_BREAK_LOAD;
  return 0;
}

int
comet_broken (const char *kernel)
{
  return comet_break_mode (kernel) == COMET_BREAK_SKIP;
}

unsigned char
comet_pattern (int64_t seq, int src, int dst, int64_t i)
{
  /* Odd multipliers: a change of any one input by less than 256 changes
     the byte; the (i >> 8) term keeps blocks of 256 bytes apart.  */
  return (unsigned char) ((src + 1) * 53 + (dst + 2) * 29 + seq * 71
                          + i * 11 + (i >> 8) * 7);
}

void
comet_fill (const char *kernel, void *buf, size_t len, int64_t seq,
            int src, int dst)
{
  int mode = comet_break_mode (kernel);
  seq -= mode == COMET_BREAK_STALE;
  src += mode == COMET_BREAK_PEER;
  unsigned char *b = buf;
  for (size_t i = 0; i < len; i++)
    b[i] = comet_pattern (seq, src, dst, (int64_t) i);
}

void
comet_prefill (void *buf, size_t len, int64_t seq, int src, int dst)
{
  unsigned char *b = buf;
  for (size_t i = 0; i < len; i++)
    b[i] = (unsigned char) ~comet_pattern (seq, src, dst, (int64_t) i);
}

void
comet_check (const char *kernel, int64_t size, int rank, const void *buf,
             size_t len, int64_t seq, int src, int dst)
{
  const unsigned char *b = buf;
  for (size_t i = 0; i < len; i++)
    {
      unsigned char want = comet_pattern (seq, src, dst, (int64_t) i);
      if (b[i] != want)
        mpu_die (EXIT_DATA, "%s: verification failed at size %lld on rank "
                 "%d: byte %zu from rank %d is %u, expected %u", kernel,
                 (long long) size, rank, i, src, (unsigned) b[i],
                 (unsigned) want);
    }
}
