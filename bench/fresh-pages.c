/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench/fresh-pages.c: how fast the kernel hands this process memory it
 * has not touched before, for bench/dag-predict's GOAL part, whose
 * system seconds are mostly that.
 *
 *   fresh-pages MB 4k|huge
 *
 * Maps MB MiB of anonymous memory (with MADV_HUGEPAGE for huge), writes
 * a byte in each 4 KiB page, and prints the system seconds that took
 * and the rate, MiB per system second, as "SECONDS RATE".  On a virtual
 * machine whose kernel gives free memory back to the host (free page
 * reporting), the rate moves with how long ago the pages were freed;
 * see bench/dag-predict.  */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

static double
system_seconds (void)
{
  struct rusage ru;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    {
      perror ("fresh-pages: getrusage");
      exit (1);
    }
  return (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec * 1e-6;
}

int
main (int argc, char **argv)
{
  char *end;
  long mb = argc == 3 ? strtol (argv[1], &end, 10) : 0;
  if (argc != 3 || *end || mb <= 0 || mb > 1 << 20
      || (strcmp (argv[2], "4k") && strcmp (argv[2], "huge")))
    {
      fprintf (stderr, "usage: fresh-pages MB 4k|huge\n");
      return 2;
    }
  size_t len = (size_t) mb << 20;
  char *p = mmap (NULL, len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    {
      perror ("fresh-pages: mmap");
      return 1;
    }
  if (!strcmp (argv[2], "huge"))
    {
#ifdef MADV_HUGEPAGE
      if (madvise (p, len, MADV_HUGEPAGE) != 0)
        {
          perror ("fresh-pages: madvise MADV_HUGEPAGE");
          return 1;
        }
#else
      fprintf (stderr, "fresh-pages: no MADV_HUGEPAGE on this system\n");
      return 1;
#endif
    }
  double t0 = system_seconds ();
  /* volatile: stores never read again must still be made */
  volatile char *v = p;
  for (size_t i = 0; i < len; i += 4096)
    v[i] = 1;
  double t = system_seconds () - t0;
  printf ("%.3f %.0f\n", t, t > 0 ? (double) mb / t : 0);
  return 0;
}
