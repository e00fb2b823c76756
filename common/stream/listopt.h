/* SPDX-License-Identifier: GPL-3.0-or-later */
/* listopt.h: options that take a size or a list (sizelist.h), with the
   usage error of every program: "option '--NAME': ...", exit 2.  */
#ifndef MSGPERF_LISTOPT_H
#define MSGPERF_LISTOPT_H

#include <stddef.h>
#include <stdint.h>

/* One size of option OPTION (its name without dashes): a whole number in
   [LO, HI], maybe with K, M or G.  */
int64_t opt_size (const char *option, const char *text, int64_t lo,
                  int64_t hi);

/* A list of option OPTION (sizelist.h forms) as doubles: whole numbers
   in [0, MAX] when WHOLE, else any finite numbers.  */
double *opt_list (const char *option, const char *text, int whole,
                  double max, size_t *n);

#endif
