/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_progress.h: what dag-predict says about its own run: progress
   lines on standard error (--progress), the clocks of --timing, and the
   directory of --save-mem.  */
#ifndef MSGPERF_DAG_PROGRESS_H
#define MSGPERF_DAG_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/* Seconds of the monotonic clock, of the process's CPU time, and of
   its CPU time in the kernel (page faults, mostly; tick-based on most
   kernels: meaningful above ~0.1 s).  */
double dag_clock_wall (void);
double dag_clock_cpu (void);
double dag_clock_system (void);

/* The simulator's progress callback (struct dagsim_opts): at most a
   line a second, rewritten in place on a terminal.  */
void dag_progress_show (void *ctx, uint64_t events, double t);
/* --sweep NAME: point I of N (value V) done, the wall clock at SINCE
   when the sweep began, and an estimate of the time left.  */
void dag_progress_sweep (const char *name, const char *v, size_t i, size_t n,
                         double since);
/* End a line left open on a terminal.  */
void dag_progress_end (void);

/* --save-mem[=DIR]: the big arrays (bigmem.h) in files in DIR from now
   on; DIR NULL: $TMPDIR, else /tmp, or /var/tmp when /tmp is in memory.
   A directory where no file can be created is a usage error; a file
   size limit then fails with a message rather than SIGXFSZ.  */
void dag_save_mem_setup (const char *dir);

#endif
