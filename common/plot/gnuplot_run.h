/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gnuplot_run.h: plotgen's files and its gnuplot.  Every file is
   written beside its name and renamed to it, so that it is whole or
   untouched, and temporary files are removed when the program dies or
   an interrupt ends it.  Failures end the program (err.h).  */
#ifndef MSGPERF_GNUPLOT_RUN_H
#define MSGPERF_GNUPLOT_RUN_H

#include <stddef.h>

/* A new temporary file beside PATH ("DIR/.NAME.XXXXXX"), registered for
   removal; its name is the caller's to free.  Dies naming PATH when the
   directory does not exist or is not writable.  */
char *plot_temp_beside (const char *path);
/* Give TMP the usual permissions of a new file and rename it to PATH.  */
void plot_commit_temp (char *tmp, const char *path);
/* The N bytes of S as the file PATH.  */
void plot_write_file (const char *path, const char *s, size_t n);

/* Run gnuplot ($GNUPLOT, else the one configure found) on SCRIPT, from
   a temporary file (gnuplot reads a file much faster than a pipe);
   gnuplot's standard output is ours.  Dies when gnuplot cannot be run
   or fails.  */
void plot_run_gnuplot (const char *script, size_t len);

#endif
