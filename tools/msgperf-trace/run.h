/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run.h: msgperf-trace PROGRAM [ARG...] (run.c).  */
#ifndef MSGPERF_TRACE_RUN_H
#define MSGPERF_TRACE_RUN_H

/* Run ARGV's program under the tracing library; returns only on a
   usage error's exit path (it execs the program or dies).  */
int trace_run (int argc, char **argv);

#endif
