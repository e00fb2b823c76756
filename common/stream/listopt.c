/* SPDX-License-Identifier: GPL-3.0-or-later */
/* listopt.c: sizes and lists of options, one message for every program
   (see listopt.h).  */
#include <config.h>
#include "listopt.h"

#include <string.h>

#include "err.h"
#include "num.h"
#include "sizelist.h"

int64_t
opt_size (const char *option, const char *text, int64_t lo, int64_t hi)
{
  char err[SIZELIST_ERRSIZE];
  int64_t v;
  const char *t = text ? text : "";
  /* the messages of cli_int, which took the sizes before K, M, G */
  if (num_parse_int64 (t, strlen (t), &v) != NUM_OK
      && size_parse (t, INT64_C (1) << 62, &v, err) != 0)
    die_usage ("option '--%s': %s", option, err);
  if (v < lo || v > hi)
    die_usage ("option '--%s': '%s' is out of range (%lld to %lld)", option,
               t, (long long) lo, (long long) hi);
  return v;
}

double *
opt_list (const char *option, const char *text, int whole, double max,
          size_t *n)
{
  char err[SIZELIST_ERRSIZE];
  double *v;
  const char *t = text ? text : "";
  if (numlist_parse (t, whole, max, &v, n, err) != 0)
    die_usage ("option '--%s': bad list '%s': %s; expected %s", option, t,
               err, SIZELIST_FORMS);
  return v;
}
