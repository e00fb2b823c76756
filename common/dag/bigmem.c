/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bigmem.c: big arrays in memory or in unlinked files (see bigmem.h).  */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __linux__
# include <sys/vfs.h>
#endif

#include "bigmem.h"
#include "err.h"
#include "xalloc.h"

/* An array in a file: its mapping (LEN bytes, whole pages) and the
   file, open until the array is freed.  A program has a few dozen at
   most, so a list searched from the end (the newest, the most often
   resized) is enough.  */
struct big_map
{
  void *p;
  size_t len;
  int fd;
};

static char *dir;
static struct big_map *maps;
static size_t nmaps, maps_cap;
static size_t bytes_now, bytes_peak;

const char *
big_dir (void)
{
  return dir;
}

size_t
big_file_peak (void)
{
  return bytes_peak;
}

static struct big_map *
find (const void *p)
{
  for (size_t i = nmaps; p && i-- > 0;)
    if (maps[i].p == p)
      return &maps[i];
  return NULL;
}

int
big_in_file (const void *p)
{
  return nmaps && find (p) != NULL;
}

/* A new file in D, already unlinked (so that no exit, not even a
   signal, leaves it behind), or -1 with errno set.  */
static int
file_create (const char *d)
{
  size_t n = strlen (d);
  char *path = xmalloc (n + sizeof "/msgperf-XXXXXX");
  memcpy (path, d, n);
  memcpy (path + n, "/msgperf-XXXXXX", sizeof "/msgperf-XXXXXX");
  int fd = mkstemp (path);
  int e = errno;
  if (fd >= 0)
    {
      unlink (path);
      (void) fcntl (fd, F_SETFD, FD_CLOEXEC);
    }
  free (path);
  errno = e;
  return fd;
}

int
big_use_dir (const char *d)
{
  if (!d)
    {
      free (dir);
      dir = NULL;
      return 0;
    }
  if (!*d)
    return ENOENT;
  int fd = file_create (d);
  if (fd < 0)
    return errno;
  close (fd);
  free (dir);
  dir = xstrdup (d);
  return 0;
}

int
big_dir_in_memory (const char *d)
{
#ifdef __linux__
  /* the magic numbers of linux/magic.h */
  struct statfs st;
  if (d && statfs (d, &st) == 0)
    return (unsigned long) st.f_type == 0x01021994UL     /* TMPFS_MAGIC */
           || (unsigned long) st.f_type == 0x858458f6UL; /* RAMFS_MAGIC */
#else
  (void) d;
#endif
  return 0;
}

/* N bytes in whole pages, at least one.  */
static size_t
page_len (size_t n)
{
  static size_t pg;
  if (!pg)
    {
      long s = sysconf (_SC_PAGESIZE);
      pg = s > 0 ? (size_t) s : 4096;
    }
  if (n > SIZE_MAX - pg)
    die ("out of memory (%zu bytes)", n);
  return n ? (n + pg - 1) / pg * pg : pg;
}

/* Grow file FD from FROM to TO bytes, its blocks reserved: a full disk
   fails here, rather than with SIGBUS at a later store into a hole of
   the mapping.  A file system without fallocate gets a sparse file.  */
static void
file_grow (int fd, size_t from, size_t to)
{
  if ((uintmax_t) to > (uintmax_t) INTMAX_MAX)
    die ("out of memory (%zu bytes)", to);
  int e = posix_fallocate (fd, (off_t) from, (off_t) (to - from));
  if (e == EOPNOTSUPP || e == EINVAL)
    e = ftruncate (fd, (off_t) to) == 0 ? 0 : errno;
  if (e)
    die ("cannot grow a temporary file in '%s' to %zu bytes: %s", dir,
         to, strerror (e));
}

static void
track (size_t grew, size_t shrank)
{
  bytes_now = bytes_now + grew - shrank;
  if (bytes_now > bytes_peak)
    bytes_peak = bytes_now;
}

/* A zeroed array of N bytes in a new file in DIR.  */
static void *
file_alloc (size_t n)
{
  size_t len = page_len (n);
  int fd = file_create (dir);
  if (fd < 0)
    die ("cannot create a temporary file in '%s': %s", dir,
         strerror (errno));
  file_grow (fd, 0, len);
  void *p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED)
    die ("cannot map a temporary file of %zu bytes in '%s': %s", len, dir,
         strerror (errno));
  if (nmaps == maps_cap)
    {
      maps_cap = maps_cap ? 2 * maps_cap : 32;
      maps = xrealloc (maps, maps_cap * sizeof *maps);
    }
  maps[nmaps++] = (struct big_map) { p, len, fd };
  track (len, 0);
  return p;
}

void *
big_alloc (size_t n)
{
  return dir ? file_alloc (n) : xmalloc (n);
}

void *
big_calloc (size_t n, size_t size)
{
  if (!dir)
    return xcalloc (n, size);
  if (n && size > SIZE_MAX / n)
    die ("out of memory (%zu x %zu bytes)", n, size);
  return file_alloc (n * size);   /* a new file reads as zeros */
}

/* Map M's file again at LEN bytes (its content is in the file).  */
static void
remap (struct big_map *m, size_t len)
{
  void *q;
#ifdef MREMAP_MAYMOVE
  q = mremap (m->p, m->len, len, MREMAP_MAYMOVE);
#else
  munmap (m->p, m->len);
  q = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, m->fd, 0);
#endif
  if (q == MAP_FAILED)
    die ("cannot map a temporary file of %zu bytes in '%s': %s", len,
         dir ? dir : "?", strerror (errno));
  m->p = q;
  m->len = len;
}

void *
big_realloc (void *p, size_t n)
{
  struct big_map *m = nmaps ? find (p) : NULL;
  if (!m)
    {
      /* an array made in memory stays there (its size is not known
         here to copy it to a file) */
      if (!p && dir)
        return file_alloc (n);
      return xrealloc (p, n);
    }
  size_t len = page_len (n), old = m->len;
  if (len > old)
    {
      file_grow (m->fd, old, len);
      remap (m, len);
      track (len - old, 0);
    }
  else if (len < old)
    {
      remap (m, len);
      (void) ftruncate (m->fd, (off_t) len);   /* gives the blocks back */
      track (0, old - len);
    }
  return m->p;
}

void *
big_try_realloc (void *p, size_t n)
{
  if (dir || (nmaps && find (p)))
    return NULL;
  return realloc (p, n ? n : 1);
}

void
big_free (void *p)
{
  struct big_map *m = nmaps ? find (p) : NULL;
  if (!m)
    {
      free (p);
      return;
    }
  munmap (m->p, m->len);
  close (m->fd);
  track (0, m->len);
  *m = maps[--nmaps];
}
