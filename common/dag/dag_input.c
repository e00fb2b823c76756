/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_input.c: a schedule read from a file or standard input in the
   format it is in -- GOAL, native TSV or a binary schedule -- and a
   binary schedule saved (dag_input.h).  */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "bigmem.h"
#include "dag_image.h"
#include "dag_input.h"
#include "dag_parse.h"
#include "err.h"
#include "readfile.h"
#include "xalloc.h"

/* The schedule PATH (NULL or "-": standard input) whole; NUL bytes are
   the readers' to report, with their line.  */
static char *
slurp (const char *path, size_t *len)
{
  char *text;
  const char *name = path && strcmp (path, "-") != 0 ? path : "<stdin>";
  enum readfile_status st = read_file (path, 0, &text, len);
  if (st == READFILE_OPEN)
    die ("%s: cannot open: %s", name, strerror (errno));
  if (st == READFILE_NOMEM)
    die ("%s: out of memory while reading the schedule", name);
  if (st != READFILE_OK)
    die ("%s: read error: %s", name, strerror (errno));
  return text;
}

/* Does PATH name a regular file (or one that cannot be looked at, left
   to the open that reports it)?  */
static int
is_regular (const char *path)
{
  struct stat st;
  return stat (path, &st) != 0 || S_ISREG (st.st_mode);
}

/* Is TEXT (LEN bytes, the start of a schedule) GOAL?  GOAL's first
   statement, after a byte order mark, blank lines and comments, is
   "num_ranks N"; a native stream starts with '#' or a header of column
   names (a column named num_ranks is followed by a TAB and a name).  */
static int
looks_like_goal (const char *text, size_t len)
{
  size_t i = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  for (;;)
    {
      while (i < len && strchr (" \t\r\n", text[i]))
        i++;
      if (i + 1 < len && text[i] == '/' && text[i + 1] == '/')
        while (i < len && text[i] != '\n')
          i++;
      else if (i + 1 < len && text[i] == '/' && text[i + 1] == '*')
        {
          const char *end = NULL;
          for (size_t k = i + 2; k + 1 < len && !end; k++)
            if (text[k] == '*' && text[k + 1] == '/')
              end = text + k + 2;
          i = end ? (size_t) (end - text) : len;
        }
      else
        break;
    }
  static const char kw[] = "num_ranks";
  if (len - i < sizeof kw || memcmp (text + i, kw, sizeof kw - 1) != 0)
    return 0;
  for (i += sizeof kw - 1; i < len && (text[i] == ' ' || text[i] == '\t'); )
    i++;
  return i < len && text[i] >= '0' && text[i] <= '9';
}

/* The size of the file open as FD, if it is a regular one, else 0 (for
   goal_parse_fd: a hint).  */
static size_t
regular_size (int fd)
{
  struct stat st;
  return fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
         && (uintmax_t) st.st_size <= SIZE_MAX ? (size_t) st.st_size : 0;
}

/* Up to N bytes of FD (NAME) into BUF, fewer only at its end; returns
   how many.  */
static size_t
read_or_die (int fd, const char *name, char *buf, size_t n)
{
  ptrdiff_t k = read_full (fd, buf, n);
  if (k < 0)
    die ("%s: read error: %s", name, strerror (errno));
  return (size_t) k;
}

/* The N bytes of HEAD and, if MORE (its end not yet read: a terminal
   would wait for more after a Ctrl-D), the rest of FD (NAME),
   NUL-terminated, in memory of their own; *LEN their length.  */
static char *
read_rest (int fd, const char *name, const char *head, size_t n, int more,
           size_t *len)
{
  size_t cap = n < 65536 ? 65536 : 2 * n;
  char *t = xmalloc (cap + 1);
  memcpy (t, head, n);
  while (more)
    {
      if (n == cap)
        {
          if (cap > SIZE_MAX / 4)
            die ("%s: out of memory while reading the schedule", name);
          cap *= 2;
          t = xrealloc (t, cap + 1);
        }
      size_t k = read_or_die (fd, name, t + n, cap - n);
      n += k;
      if (n < cap)
        break;
    }
  t[n] = '\0';
  *len = n;
  return t;
}

/* A binary schedule (--save-binary): FILE read, or TEXT (LEN bytes,
   standard input's, kept until the end), pointed at by DG.  */
static void
open_image (struct dag_input *j, struct dag *dg, const char *path,
            int from_stdin, const char *name, char *text, size_t len)
{
  if (!text && !from_stdin)
    {
      struct stat st;
      int fd = open (path, O_RDONLY);
      if (fd < 0 || fstat (fd, &st) != 0)
        die ("%s: %s", name, strerror (errno));
      if (!S_ISREG (st.st_mode) || st.st_size <= 0
          || (uintmax_t) st.st_size > SIZE_MAX)
        die ("%s: a binary schedule must be a regular file, not empty",
             name);
      len = (size_t) st.st_size;
      /* Read into memory of its own rather than mapped: the simulator
         reads these arrays at random, and on huge pages (dag_populate)
         it misses the TLB far less than on a file's small pages (the
         2^20-rank broadcast simulated in 0.71 s from its text's arrays
         against 0.88 s from the mapped file).  */
      char *buf = dag_populate (big_alloc (len), len);
      size_t got = 0;
      while (got < len)
        {
          ssize_t k = read (fd, buf + got, len - got);
          if (k < 0 && errno == EINTR)
            continue;
          if (k <= 0)
            die ("%s: cannot read the binary schedule: %s", name,
                 k < 0 ? strerror (errno) : "it became shorter");
          got += (size_t) k;
        }
      close (fd);
      j->image = buf;
    }
  else
    {
      if (!text)
        text = slurp (path, &len);
      j->image_text = text;
    }
  j->image_name = name;
  int goal = 0;
  const char *why = dag_image_open (dg, j->image ? j->image : text, len,
                                    &goal);
  if (why)
    die ("%s: binary schedule: %s (write it again with --save-binary)",
         name, why);
  j->goal = goal;
}

/* The schedule of a FILE or standard input: GOAL when --format says so,
   or (without --format) when its first statement does.  A regular file
   is peeked at.  Standard input and anything else (a named pipe, a
   shell's <(...)), which a peek would take bytes from, have their first
   HEAD bytes read and looked at: GOAL is then read on from there in
   pieces (goal_parse_fd), any other format whole, and read as a stream
   from memory when it is native.  An input whose end came within HEAD
   is not read again (a terminal would wait for more after its
   Ctrl-D).  */
enum { HEAD = 4096 };

void
dag_input_read (struct dag_input *j, struct dag *d, const char *path,
                int format_given)
{
  int from_stdin = !path || strcmp (path, "-") == 0;
  const char *name = from_stdin ? "<stdin>" : path;
  size_t len = 0, nhead = 0;
  char *text = NULL, head[HEAD];
  int fd = -1;              /* open, its first NHEAD bytes in HEAD */
  int ended = 0;            /* and its end read */
  if (!format_given && (from_stdin || !is_regular (path)))
    {
      fd = from_stdin ? STDIN_FILENO : open (path, O_RDONLY);
      if (fd < 0)
        die ("%s: cannot open: %s", name, strerror (errno));
      nhead = read_or_die (fd, name, head, sizeof head);
      ended = nhead < sizeof head;
      j->binary = dag_image_is (head, nhead);
      j->goal = !j->binary && looks_like_goal (head, nhead);
      if (j->goal)
        goal_time_unit (head, nhead, j->goal_unit, sizeof j->goal_unit);
      if (!j->goal || ended)
        {
          text = read_rest (fd, name, head, nhead, !ended, &len);
          if (!from_stdin)
            close (fd);
          fd = -1;
        }
    }
  else if (!format_given)
    {
      FILE *fp = fopen (path, "rb");
      if (fp)
        {
          char peek[HEAD];
          size_t n = fread (peek, 1, sizeof peek, fp);
          j->binary = dag_image_is (peek, n);
          j->goal = !j->binary && looks_like_goal (peek, n);
          if (j->goal)
            goal_time_unit (peek, n, j->goal_unit, sizeof j->goal_unit);
          fclose (fp);
        }
    }
  dag_init (d, name);
  if (j->binary)
    {
      open_image (j, d, path, from_stdin, name, text, len);
      return;
    }
  if (j->goal && text)
    {
      /* A byte order mark is no part of the first statement.  */
      size_t bom = len >= 3 && memcmp (text, "\xEF\xBB\xBF", 3) == 0
                   ? 3 : 0;
      goal_parse (text + bom, len - bom, name, d);
    }
  else if (j->goal)
    {
      if (fd < 0)
        fd = from_stdin ? STDIN_FILENO : open (path, O_RDONLY);
      if (fd < 0)
        die ("%s: cannot open: %s", name, strerror (errno));
      if (!nhead && !j->goal_unit[0])   /* --format goal: its unit line */
        {
          ssize_t n = pread (fd, head, sizeof head, 0);
          if (n > 0)
            goal_time_unit (head, (size_t) n, j->goal_unit,
                            sizeof j->goal_unit);
        }
      goal_parse_fd (fd, head, nhead, regular_size (fd), 0, name, d);
      if (!from_stdin)
        close (fd);
    }
  else
    {
      /* (an empty text read whole: a stream with nothing in it, for
         the reader's own error) */
      FILE *mem = !text ? NULL : len ? fmemopen (text, len, "r")
                                     : fopen ("/dev/null", "r");
      if (text && !mem)
        die ("%s: cannot read the schedule from memory: %s", name,
             strerror (errno));
      tsv_reader *r = mem ? tsv_open_stream (mem, name)
                          : tsv_open (text ? "-" : path);
      dag_read_native (r, d);
      j->rd[j->nrd++] = r;
      if (mem)
        fclose (mem);
    }
  free (text);
}

/* --save-binary FILE: the schedule just read and indexed, written to a
   new file beside FILE and renamed to FILE, so that FILE is whole or
   untouched.  */
void
dag_input_save (struct dag_input *j, const struct dag *d, const char *file)
{
  if (!j->goal)
    die_usage ("--save-binary saves a GOAL schedule: %s is native TSV",
               d->source);
  struct dag_image_header hdr;
  struct dag_image_part parts[1 + DAG_IMAGE_NARRAYS];
  size_t np = dag_image_layout (d, d->source, 1, &hdr, parts);
  size_t plen = strlen (file);
  char *tmp = xmalloc (plen + 8);
  memcpy (tmp, file, plen);
  memcpy (tmp + plen, ".XXXXXX", 8);
  int fd = mkstemp (tmp);
  if (fd < 0)
    die ("--save-binary: cannot create a file beside '%s': %s",
         file, strerror (errno));
  /* mkstemp makes it private (0600): give it what a new file gets.  */
  mode_t mask = umask (0);
  umask (mask);
  (void) fchmod (fd, 0666 & ~mask);
  FILE *f = fdopen (fd, "wb");
  static const char zeros[8];
  uint64_t at = 0;
  int ok = f != NULL;
  for (size_t k = 0; ok && k < np; k++)
    {
      ok = fwrite (zeros, 1, parts[k].off - at, f) == parts[k].off - at
           && fwrite (parts[k].p, 1, parts[k].len, f) == parts[k].len;
      at = parts[k].off + parts[k].len;
    }
  if (ok)
    ok = fwrite (zeros, 1, hdr.total - at, f) == hdr.total - at;
  /* The first failure's reason: writing, closing, renaming.  */
  int e = ok ? 0 : errno;
  if ((f ? fclose (f) : close (fd)) != 0 && ok)
    e = errno, ok = 0;
  if (ok && rename (tmp, file) != 0)
    e = errno, ok = 0;
  if (!ok)
    {
      unlink (tmp);
      die ("--save-binary: cannot write '%s': %s", file,
           strerror (e));
    }
  free (tmp);
  j->saved_bytes = hdr.total;
}

void
dag_input_native (struct dag_input *j, struct dag *d, const char *tasks,
                  const char *edges)
{
  tsv_reader *t = tsv_open (tasks);
  tsv_reader *e = edges ? tsv_open (edges) : NULL;
  dag_init (d, tsv_name (t));
  dag_read_native2 (t, e, d);
  j->rd[j->nrd++] = t;
  if (e)
    j->rd[j->nrd++] = e;
}

int
dag_input_format (struct dag_input *j, const char *format)
{
  if (strcmp (format, "goal") == 0)
    j->goal = 1;
  else if (strcmp (format, "binary") == 0)
    j->binary = 1;
  else if (strcmp (format, "native") != 0)
    return -1;
  return 0;
}
