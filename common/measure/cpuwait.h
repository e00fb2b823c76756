/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpuwait.h: how long this thread waited for a CPU while it could run.
 *
 * A measurement that busy-polls (every MPI library by default) is right
 * only while its process has a core to itself.  When other work shares
 * the core, the scheduler takes the core away in time slices, and every
 * sample that spans a slice grows by a whole slice; medians and fits then
 * move by large factors while every consistency check, being computed
 * from the same disturbed samples, still passes.  Linux counts the time a
 * runnable thread spent on the run queue without a CPU ("run delay", the
 * second field of /proc/self/schedstat, in nanoseconds); its share of a
 * measurement's wall time says how much of the measurement was somebody
 * else's.  Quiet, the share is a few per cent; two busy-polling ranks on
 * one core give about 0.5 each.  */
#ifndef MSGPERF_CPUWAIT_H
#define MSGPERF_CPUWAIT_H

/* Parse the text of /proc/self/schedstat ("RUN_NS WAIT_NS SLICES") into
   seconds on the CPU and seconds waiting for one.  Returns 0, or -1 when
   TEXT does not start with two non-negative decimal integers (pure).  */
int cpuwait_parse (const char *text, double *run_s, double *wait_s);

/* The same, read from /proc/self/schedstat.  Returns -1 (and leaves NaN)
   where the kernel does not provide it (not Linux, or no
   CONFIG_SCHED_INFO).  */
int cpuwait_read (double *run_s, double *wait_s);

/* The share of the wall-clock interval WALL_S (> 0) that the thread spent
   waiting for a CPU, from two readings' waiting times; NaN when either
   reading is NaN or WALL_S is not positive (pure).  */
double cpuwait_share (double wait0_s, double wait1_s, double wall_s);

#endif
