/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sizelist.h: the one parser of lists of values (message sizes, vector
 * lengths, matrix orders, swept parameters), msgperf(7), OPTIONS.
 *
 * A list is one or more items separated by commas; an item is
 *   V                 one value
 *   FROM:TO           doubling: FROM, 2 FROM, 4 FROM ... up to TO
 *   FROM:TO:xFACTOR   geometric: FROM, FROM*FACTOR, ... up to TO
 *   FROM:TO:+STEP     arithmetic: FROM, FROM+STEP, ... up to TO
 *   FROM:TO:STEP      the same as FROM:TO:+STEP
 * A geometric range that starts at 0 goes 0, 1, FACTOR, FACTOR^2 ...
 * (0:4096 is 0 1 2 4 ... 4096).  A value may end in K, M or G, powers of
 * 1024 (64K = 65536).  Whole lists (sizes, counts) hold non-negative
 * 64-bit integers; a decimal FACTOR then rounds each value to an integer,
 * always at least one more than the last one.  Real lists (parameters)
 * hold any finite numbers.
 * Pure code: no I/O; errors come back as a message.  */
#ifndef MSGPERF_SIZELIST_H
#define MSGPERF_SIZELIST_H

#include <stddef.h>
#include <stdint.h>

/* Longest message the parsers write, NUL included.  */
#define SIZELIST_ERRSIZE 200

/* Most values one whole list may hold.  */
#define SIZELIST_MAX_COUNT 100000

/* Most values one real list may hold.  */
#define NUMLIST_MAX_COUNT 10000000

/* What the list forms are, for messages and --help.  */
#define SIZELIST_FORMS "A,B,C, FROM:TO, FROM:TO:xFACTOR, FROM:TO:+STEP " \
  "or FROM:TO:STEP; K, M, G: x1024"

/* Parse TEXT into a malloc'ed array *OUT of *N whole values, each in
   [0, MAX].  Returns 0 on success; otherwise -1 with a message in ERR
   (which names the bad text) and *OUT NULL.  */
int sizelist_parse (const char *text, int64_t max, int64_t **out, size_t *n,
                    char err[SIZELIST_ERRSIZE]);

/* The same for a list of real numbers (WHOLE = 0) or of whole numbers
   (WHOLE = 1, in [0, MAX]), as doubles.  */
int numlist_parse (const char *text, int whole, double max, double **out,
                   size_t *n, char err[SIZELIST_ERRSIZE]);

/* One size: a whole number in [0, MAX], maybe with K, M or G.  */
int size_parse (const char *text, int64_t max, int64_t *v,
                char err[SIZELIST_ERRSIZE]);

#endif
