/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sizelist.h: sweeps of message sizes, vector lengths and matrix orders.
 *
 * A sweep is written either as a range or as a list:
 *   FROM:TO:xFACTOR   geometric: FROM, then FROM*FACTOR, ... up to TO; a
 *                     range that starts at 0 goes 0, 1, FACTOR, FACTOR^2 ...
 *                     (0:4096:x2 is 0 1 2 4 ... 4096); FACTOR may be a
 *                     decimal > 1, each value is then rounded to an integer
 *                     and always at least one more than the last one
 *   FROM:TO:+STEP     arithmetic: FROM, FROM+STEP, ... up to TO
 *   FROM:TO           same as FROM:TO:x2
 *   A,B,C...          exactly these values, in this order
 * Values are non-negative 64-bit integers no larger than a given maximum.
 * Pure code: no I/O; errors come back as a message.  */
#ifndef MSGPERF_SIZELIST_H
#define MSGPERF_SIZELIST_H

#include <stddef.h>
#include <stdint.h>

/* Longest message sizelist_parse writes, NUL included.  */
#define SIZELIST_ERRSIZE 160

/* Most values one sweep may hold.  */
#define SIZELIST_MAX_COUNT 100000

/* Parse TEXT into a malloc'ed array *OUT of *N values, each in [0, MAX].
   Returns 0 on success; otherwise -1 with a message in ERR (which says
   what would be accepted) and *OUT NULL.  */
int sizelist_parse (const char *text, int64_t max, int64_t **out, size_t *n,
                    char err[SIZELIST_ERRSIZE]);

#endif
