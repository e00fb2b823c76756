/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xalloc.c: allocation that dies on failure (see xalloc.h).  */
#include <config.h>
#include "xalloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"

void *
xmalloc (size_t n)
{
  void *p = malloc (n ? n : 1);
  if (!p)
    die ("out of memory (%zu bytes)", n);
  return p;
}

void *
xcalloc (size_t n, size_t size)
{
  if (n && size > SIZE_MAX / n)
    die ("out of memory (%zu x %zu bytes)", n, size);
  void *p = calloc (n ? n : 1, size ? size : 1);
  if (!p)
    die ("out of memory (%zu bytes)", n * size);
  return p;
}

void *
xrealloc (void *p, size_t n)
{
  void *q = realloc (p, n ? n : 1);
  if (!q)
    die ("out of memory (%zu bytes)", n);
  return q;
}

char *
xstrdup (const char *s)
{
  size_t n = strlen (s) + 1;
  return memcpy (xmalloc (n), s, n);
}

void *
xmalloc_pages (size_t n)
{
  long page = sysconf (_SC_PAGESIZE);
  void *p = NULL;
  if (posix_memalign (&p, page > 0 ? (size_t) page : 4096, n ? n : 1) != 0)
    die ("out of memory (%zu bytes)", n);
  return p;
}
