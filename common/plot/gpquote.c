/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpquote.c: text from the input made inert for gnuplot (see gpquote.h).  */
#include <config.h>
#include "gpquote.h"

#include <string.h>

static int
is_control (unsigned char c)
{
  return c < 0x20 || c == 0x7f;
}

size_t
gp_quote_size (const char *s)
{
  return 2 * strlen (s) + 3;
}

static size_t
quote_body (char *dst, const char *s)
{
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      if (*p == '\'')
        {
          dst[n++] = '\'';
          dst[n++] = '\'';
        }
      else if (is_control (*p))
        dst[n++] = ' ';
      else
        dst[n++] = (char) *p;
    }
  return n;
}

size_t
gp_quote (char *dst, const char *s)
{
  size_t n = 0;
  dst[n++] = '\'';
  n += quote_body (dst + n, s);
  dst[n++] = '\'';
  dst[n] = '\0';
  return n;
}

size_t
gp_quote_path_size (const char *path)
{
  return gp_quote_size (path) + 2;
}

size_t
gp_quote_path (char *dst, const char *path)
{
  size_t n = 0;
  dst[n++] = '\'';
  if (path[0] != '/')
    {
      dst[n++] = '.';
      dst[n++] = '/';
    }
  n += quote_body (dst + n, path);
  dst[n++] = '\'';
  dst[n] = '\0';
  return n;
}

size_t
gp_comment_size (const char *s)
{
  return strlen (s) + 3;
}

size_t
gp_comment (char *dst, const char *s)
{
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    dst[n++] = is_control (*p) ? ' ' : (char) *p;
  if (n > 0 && dst[n - 1] == '\\')
    {
      dst[n++] = ' ';
      dst[n++] = '#';
    }
  dst[n] = '\0';
  return n;
}
