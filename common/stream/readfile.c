/* SPDX-License-Identifier: GPL-3.0-or-later */
/* readfile.c: a whole input file in memory (readfile.h).  */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "readfile.h"

enum readfile_status
read_file (const char *path, int text_only, char **text, size_t *len)
{
  *text = NULL;
  *len = 0;
  int std = !path || strcmp (path, "-") == 0;
  FILE *fp = std ? stdin : fopen (path, "rb");
  if (!fp)
    return READFILE_OPEN;
  size_t cap = 1 << 16, n = 0, got;
  char *buf = malloc (cap);
  enum readfile_status st = READFILE_OK;
  while (buf && (got = fread (buf + n, 1, cap - n - 1, fp)) > 0)
    if ((n += got) + 1 == cap)
      {
        char *more = realloc (buf, cap *= 2);
        if (!more)
          free (buf);
        buf = more;
      }
  int saved = errno;
  if (!buf)
    st = READFILE_NOMEM;
  else if (ferror (fp))
    st = READFILE_READ;
  if (!std)
    fclose (fp);
  errno = saved;
  if (st != READFILE_OK)
    {
      free (buf);
      return st;
    }
  buf[n] = '\0';
  if (text_only && memchr (buf, '\0', n))
    {
      *len = (size_t) ((char *) memchr (buf, '\0', n) - buf);
      free (buf);
      return READFILE_NUL;
    }
  *text = buf;
  *len = n;
  return READFILE_OK;
}

const char *
readfile_strerror (enum readfile_status s)
{
  switch (s)
    {
    case READFILE_OK:
      return "ok";
    case READFILE_OPEN:
      return "cannot open";
    case READFILE_READ:
      return "read error";
    case READFILE_NUL:
      return "contains a NUL byte";
    case READFILE_NOMEM:
      return "out of memory";
    }
  return "unknown error";
}

char *
read_option_file (const char *option, const char *path)
{
  char *text;
  size_t len;
  switch (read_file (path, 1, &text, &len))
    {
    case READFILE_OK:
      return text;
    case READFILE_NUL:
      die_usage ("option '--%s': '%s' holds a NUL byte", option, path);
    case READFILE_NOMEM:
      die ("option '--%s': out of memory while reading '%s'", option, path);
    case READFILE_OPEN:
    case READFILE_READ:
      break;
    }
  die_usage ("option '--%s': cannot read '%s': %s", option, path,
             strerror (errno));
}

ptrdiff_t
read_full (int fd, void *buf, size_t n)
{
  size_t got = 0;
  while (got < n)
    {
      ssize_t k = read (fd, (char *) buf + got, n - got);
      if (k < 0 && errno == EINTR)
        continue;
      if (k < 0)
        return -1;
      if (k == 0)
        break;
      got += (size_t) k;
    }
  return (ptrdiff_t) got;
}
