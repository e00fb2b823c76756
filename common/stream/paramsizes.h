/* SPDX-License-Identifier: GPL-3.0-or-later */
/* paramsizes.h: does a parameter file hold per-size rows?  */
#ifndef MSGPERF_PARAMSIZES_H
#define MSGPERF_PARAMSIZES_H

/* 1 when the stream in PATH (a regular file) has the columns of
   logp-measure's per-size rows (bytes, os, or and g) and more than one
   row, else 0 (also when it cannot be read: its reader says why).  */
int param_file_per_size (const char *path);

#endif
