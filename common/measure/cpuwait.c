/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cpuwait.c: run-queue delay of the calling thread (see cpuwait.h).  */
#include <config.h>

#include "cpuwait.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* One non-negative decimal integer at *P, skipping leading blanks.  */
static int
parse_count (const char **p, double *out)
{
  const char *s = *p;
  while (*s == ' ' || *s == '\t')
    s++;
  if (!isdigit ((unsigned char) *s))
    return -1;
  char *end;
  errno = 0;
  unsigned long long v = strtoull (s, &end, 10);
  if (errno != 0)
    return -1;
  *out = (double) v;
  *p = end;
  return 0;
}

int
cpuwait_parse (const char *text, double *run_s, double *wait_s)
{
  double run, wait;
  *run_s = *wait_s = NAN;
  if (text == NULL || parse_count (&text, &run) < 0
      || (*text != ' ' && *text != '\t') || parse_count (&text, &wait) < 0
      || (*text != '\0' && !isspace ((unsigned char) *text)))
    return -1;
  *run_s = run * 1e-9;
  *wait_s = wait * 1e-9;
  return 0;
}

int
cpuwait_read (double *run_s, double *wait_s)
{
  *run_s = *wait_s = NAN;
  /* The thread's own file: the measuring thread is the one that asks.  */
  FILE *f = fopen ("/proc/thread-self/schedstat", "r");
  if (f == NULL)
    f = fopen ("/proc/self/schedstat", "r");
  if (f == NULL)
    return -1;
  char buf[128];
  int ok = fgets (buf, sizeof buf, f) != NULL;
  fclose (f);
  return ok ? cpuwait_parse (buf, run_s, wait_s) : -1;
}

double
cpuwait_share (double wait0_s, double wait1_s, double wall_s)
{
  if (!isfinite (wait0_s) || !isfinite (wait1_s) || !(wall_s > 0))
    return NAN;
  double s = (wait1_s - wait0_s) / wall_s;
  return s < 0 ? 0.0 : s;
}
