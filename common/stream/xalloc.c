/* SPDX-License-Identifier: GPL-3.0-or-later */
/* xalloc.c: allocation that dies on failure (see xalloc.h).  */
#include <config.h>
#include "xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
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

char *
xvasprintf (const char *fmt, va_list ap)
{
  va_list aq;
  va_copy (aq, ap);
  int n = vsnprintf (NULL, 0, fmt, aq);
  va_end (aq);
  if (n < 0)
    die ("out of memory");
  char *s = xrealloc (NULL, (size_t) n + 1);
  vsnprintf (s, (size_t) n + 1, fmt, ap);
  return s;
}

char *
xasprintf (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  char *s = xvasprintf (fmt, ap);
  va_end (ap);
  return s;
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
