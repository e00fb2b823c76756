/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-bigmem.c: the allocator of the big arrays (common/dag/bigmem.h),
 * in memory and in files: contents kept across growth and shrinking,
 * zeroed arrays, the files in the directory asked for (seen in
 * /proc/self/maps where there is one) and never visible in it, and the
 * errors: a missing directory, a regular file, a file that cannot grow
 * (a file size limit, RLIMIT_FSIZE, standing for a full disk).  */
#include <config.h>

#include <errno.h>
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bigmem.h"
#include "unit.h"

/* Entries of directory D other than . and .., or -1.  */
static int
dir_entries (const char *d)
{
  DIR *dp = opendir (d);
  if (!dp)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir (dp)))
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      n++;
  closedir (dp);
  return n;
}

/* Lines of /proc/self/maps naming a deleted file of D, or -1 when there
   is no /proc.  */
static int
mapped_files (const char *d)
{
  FILE *fp = fopen ("/proc/self/maps", "r");
  if (!fp)
    return -1;
  char prefix[4200], line[4400];
  snprintf (prefix, sizeof prefix, "%s/msgperf-", d);
  int n = 0;
  while (fgets (line, sizeof line, fp))
    if (strstr (line, prefix) && strstr (line, "(deleted)"))
      n++;
  fclose (fp);
  return n;
}

/* Is A[0 .. N-1] the pattern i * 2654435761 + SEED?  */
static int
pattern_ok (const uint32_t *a, size_t n, uint32_t seed)
{
  for (size_t i = 0; i < n; i++)
    if (a[i] != (uint32_t) i * 2654435761u + seed)
      return 0;
  return 1;
}

static void
pattern_fill (uint32_t *a, size_t from, size_t to, uint32_t seed)
{
  for (size_t i = from; i < to; i++)
    a[i] = (uint32_t) i * 2654435761u + seed;
}

/* Grow an array from 1000 to 2^21 elements by doubling, then shrink it:
   its first elements survive every step.  */
static void
grow_shrink (void)
{
  size_t n = 1000;
  uint32_t *a = big_alloc (n * sizeof *a);
  pattern_fill (a, 0, n, 7);
  int ok = 1;
  while (n < ((size_t) 1 << 21))
    {
      a = big_realloc (a, 2 * n * sizeof *a);
      ok &= pattern_ok (a, n, 7);
      pattern_fill (a, n, 2 * n, 7);
      n *= 2;
    }
  CHECK (ok);
  CHECK (pattern_ok (a, n, 7));
  a = big_realloc (a, 3000 * sizeof *a);
  CHECK (pattern_ok (a, 3000, 7));
  big_free (a);
}

/* In memory: the x* allocation.  */
static void
test_memory (void)
{
  CHECK (big_dir () == NULL);
  grow_shrink ();
  /* big_try_realloc: the same growth, or NULL without an end */
  uint32_t *t = big_try_realloc (NULL, 1000 * sizeof *t);
  CHECK (t != NULL && !big_in_file (t));
  if (t)
    {
      pattern_fill (t, 0, 1000, 5);
      uint32_t *u = big_try_realloc (t, (size_t) 1 << 22);
      CHECK (u != NULL);
      if (u)
        t = u;
      CHECK (pattern_ok (t, 1000, 5));
      big_free (t);
    }
  uint8_t *z = big_calloc (1 << 16, 4);
  size_t nz = 0;
  for (size_t i = 0; i < (1 << 18); i++)
    nz += z[i] != 0;
  CHECK (nz == 0);
  CHECK (!big_in_file (z));
  big_free (z);
  big_free (NULL);
}

static void
test_bad_dirs (const char *scratch)
{
  char path[4300];
  snprintf (path, sizeof path, "%s/missing", scratch);
  CHECK (big_use_dir (path) == ENOENT);
  snprintf (path, sizeof path, "%s/plain", scratch);
  FILE *fp = fopen (path, "w");
  CHECK (fp != NULL);
  if (fp)
    fclose (fp);
  CHECK (big_use_dir (path) == ENOTDIR);
  CHECK (big_use_dir ("") == ENOENT);
  CHECK (big_dir () == NULL);
  unlink (path);
}

/* A file that cannot grow: the error ends the program (here, the
   test's exit hook), and the array is as it was.  */
static void
test_no_space (void)
{
  struct rlimit saved, r;
  if (getrlimit (RLIMIT_FSIZE, &saved) != 0)
    return;
  signal (SIGXFSZ, SIG_IGN);   /* EFBIG, not the signal's default end */
  uint32_t *a = big_alloc (4096);
  pattern_fill (a, 0, 1024, 3);
  r = saved;
  r.rlim_cur = 65536;
  CHECK (setrlimit (RLIMIT_FSIZE, &r) == 0);
  EXPECT_DIE (a = big_realloc (a, (size_t) 1 << 20), 1);
  EXPECT_DIE ((void) big_alloc ((size_t) 1 << 20), 1);
  CHECK (setrlimit (RLIMIT_FSIZE, &saved) == 0);
  CHECK (pattern_ok (a, 1024, 3));
  a = big_realloc (a, (size_t) 1 << 20);
  CHECK (pattern_ok (a, 1024, 3));
  big_free (a);
}

static void
test_files (const char *d)
{
  CHECK (big_use_dir (d) == 0);
  CHECK_STR (big_dir (), d);
  CHECK (dir_entries (d) == 0);          /* the probe file is gone */

  int before = mapped_files (d);
  uint32_t *a = big_alloc (100);
  CHECK (big_in_file (a));
  int maps = mapped_files (d);
  CHECK (maps < 0 || maps == before + 1);
  CHECK (dir_entries (d) == 0);          /* unlinked at once */
  big_free (a);
  CHECK (mapped_files (d) == (before < 0 ? -1 : before));

  grow_shrink ();
  CHECK (big_file_peak () >= ((size_t) 4 << 21));

  uint8_t *z = big_calloc (1 << 16, 4);
  size_t nz = 0;
  for (size_t i = 0; i < (1 << 18); i++)
    nz += z[i] != 0;
  CHECK (nz == 0);
  CHECK (big_in_file (z));
  big_free (z);

  /* big_try_realloc never makes or grows a file (it would take the
     disk space of a guess) */
  CHECK (big_try_realloc (NULL, 4000) == NULL);
  uint32_t *f = big_alloc (4000);
  pattern_fill (f, 0, 1000, 9);
  CHECK (big_try_realloc (f, 8000) == NULL);
  CHECK (big_in_file (f) && pattern_ok (f, 1000, 9));
  big_free (f);

  /* NULL grows into a file; an array made in memory stays there */
  uint32_t *b = big_realloc (NULL, 4000);
  CHECK (big_in_file (b));
  uint32_t *m = malloc (40);
  m[9] = 42;
  m = big_realloc (m, 80);
  CHECK (!big_in_file (m) && m[9] == 42);
  free (m);
  big_free (b);

  test_no_space ();
  CHECK (mapped_files (d) == (before < 0 ? -1 : before));
  CHECK (big_use_dir (NULL) == 0);
  CHECK (big_dir () == NULL);
  uint32_t *c = big_alloc (100);
  CHECK (!big_in_file (c));
  big_free (c);
  CHECK (dir_entries (d) == 0);
}

int
main (void)
{
  err_program = "test-bigmem";
  char scratch[] = "bigmem-XXXXXX";
  if (!mkdtemp (scratch))
    {
      perror ("test-bigmem: mkdtemp");
      return 1;
    }
  char cwd[2048], d[4200];
  if (!getcwd (cwd, sizeof cwd))
    return 1;
  snprintf (d, sizeof d, "%s/%s", cwd, scratch);
  test_memory ();
  test_bad_dirs (d);
  test_files (d);
  CHECK (rmdir (d) == 0);
  return unit_done ();
}
