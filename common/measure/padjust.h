/* SPDX-License-Identifier: GPL-3.0-or-later */
/* padjust.h: p-values adjusted for the many points of one comparison.
 *
 * A comparison of two configurations tests every key (kernel, size, ...)
 * at once; at 5% each, twenty equal points give one false alarm on
 * average.  The adjusted p-values are compared with the level instead.
 * Pure: no I/O, no exit.  */
#ifndef MSGPERF_PADJUST_H
#define MSGPERF_PADJUST_H

#include <stddef.h>

enum padjust_method
{
  PADJUST_NONE,     /* each point at the level: no control */
  PADJUST_HOLM,     /* the family-wise error rate (any dependence) */
  PADJUST_BH        /* the false discovery rate (independent or
                       positively dependent tests) */
};

/* "none", "holm", "bh" to the method; -1 when NAME is none of them.  */
int padjust_parse (const char *name);

/* Adjust the N p-values P into OUT (may be P itself).  NaN entries (points
   that were not tested) stay NaN and do not count.  Holm (1979), "A
   simple sequentially rejective multiple test procedure", Scand. J.
   Statist. 6, 65-70; Benjamini and Hochberg (1995), "Controlling the
   false discovery rate", J. R. Statist. Soc. B 57, 289-300.  Returns 0,
   or -1 when out of memory.  */
int padjust (const double *p, size_t n, enum padjust_method method,
             double *out);

#endif
