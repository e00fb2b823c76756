/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_progress.c: what dag-predict says about its own run: progress
   lines on standard error, its clocks, and where --save-mem puts the
   big arrays (dag_progress.h).  */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#include "bigmem.h"
#include "dag_progress.h"
#include "err.h"
#include "num.h"

static int progress_open_line;   /* a \r-ended line waits on the tty */

static double
clock_s (clockid_t id)
{
  struct timespec ts;
  clock_gettime (id, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

double
dag_clock_wall (void)
{
  return clock_s (CLOCK_MONOTONIC);
}

double
dag_clock_cpu (void)
{
  return clock_s (CLOCK_PROCESS_CPUTIME_ID);
}

/* CPU seconds spent in the kernel for the process (page faults, mostly:
   the simulator's state is written once and the kernel zeroes each new
   page first).  Tick-based on most kernels: meaningful above ~0.1 s.  */
double
dag_clock_system (void)
{
  struct rusage ru;
  if (getrusage (RUSAGE_SELF, &ru) != 0)
    return 0.0;
  return (double) ru.ru_stime.tv_sec + 1e-6 * (double) ru.ru_stime.tv_usec;
}

/* --save-mem: the big arrays in files in its directory from now on
   (checked first: a directory where no file can be created is a usage
   error, found before the schedule is read).  A file size limit
   (ulimit -f) then fails as a file that cannot grow, with a message,
   rather than ending the program with SIGXFSZ.  */
void
dag_save_mem_setup (const char *dir)
{
  if (!dir)
    {
      /* /tmp is a tmpfs on many systems (memory, what --save-mem is to
         spare): then /var/tmp, on a disk by convention */
      dir = getenv ("TMPDIR");
      if (!dir || !*dir)
        dir = big_dir_in_memory ("/tmp") && !big_dir_in_memory ("/var/tmp")
              && access ("/var/tmp", W_OK) == 0 ? "/var/tmp" : "/tmp";
    }
  if (!*dir)
    die_usage ("option '--save-mem': empty directory name (expected "
               "--save-mem or --save-mem=DIR)");
  int e = big_use_dir (dir);
  if (e)
    die_usage ("option '--save-mem': cannot create a file in '%s': %s%s",
               dir, strerror (e),
               e == ENOTDIR ? " (the directory is given as --save-mem=DIR)"
                            : "");
  if (big_dir_in_memory (dir))
    warn ("option '--save-mem': '%s' is on a file system in memory "
          "(tmpfs, ramfs): the schedule stays in memory (give "
          "--save-mem=DIR on a disk)", dir);
  signal (SIGXFSZ, SIG_IGN);
}

/* --progress: a sweep's point I (value V) done, and the time the rest
   will take at the mean so far (an estimate: a point's cost grows with
   its DAG).  */
void
dag_progress_sweep (const char *name, const char *v, size_t i, size_t n,
                    double since)
{
  double spent = dag_clock_wall () - since;
  double left = spent / (double) (i + 1) * (double) (n - i - 1);
  char a[NUM_BUFSIZE], b[NUM_BUFSIZE];
  num_format (spent, 3, a);
  num_format (left, 2, b);
  int tty = isatty (STDERR_FILENO);
  fprintf (stderr, "%s: --sweep %s=%s: %zu of %zu done in %s s, about %s s "
           "left%s", err_program, name, v, i + 1, n, a, b,
           tty && i + 1 < n ? "\r" : "\n");
  progress_open_line = tty && i + 1 < n;
}

/* --progress: at most one line a second, on a terminal rewritten in
   place (the simulator calls about every 2^20 events).  */
void
dag_progress_show (void *ctx, uint64_t events, double t)
{
  (void) ctx;
  static double last;
  double w = dag_clock_wall ();
  if (w - last < 1.0)
    return;
  last = w;
  char tb[NUM_BUFSIZE];
  num_format (t, 6, tb);
  int tty = isatty (STDERR_FILENO);
  fprintf (stderr, "%s: %.1f M events, simulated time %s%s", err_program,
           (double) events / 1e6, tb, tty ? "\r" : "\n");
  progress_open_line |= tty;
}

void
dag_progress_end (void)
{
  if (progress_open_line)
    fputc ('\n', stderr);
}
