/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sizelist.c: parse FROM:TO:xFACTOR, FROM:TO:+STEP and A,B,C sweeps.  */
#include <config.h>
#include "sizelist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* Parse the LEN bytes at TEXT as a count in [0, MAX]; 0 or -1 with ERR.  */
static int
parse_count (const char *text, size_t len, int64_t max, int64_t *v,
             char *err)
{
  enum num_status st = num_parse_int64 (text, len, v);
  if (st != NUM_OK)
    {
      snprintf (err, SIZELIST_ERRSIZE, "'%.*s' is not a whole number (%s)",
                (int) (len > 40 ? 40 : len), text, num_strerror (st));
      return -1;
    }
  if (*v < 0)
    {
      snprintf (err, SIZELIST_ERRSIZE, "'%.*s' is negative",
                (int) (len > 40 ? 40 : len), text);
      return -1;
    }
  if (*v > max)
    {
      snprintf (err, SIZELIST_ERRSIZE, "'%.*s' is larger than %lld",
                (int) (len > 40 ? 40 : len), text, (long long) max);
      return -1;
    }
  return 0;
}

/* Append V to the growing array; -1 with ERR past SIZELIST_MAX_COUNT.  */
static int
push (int64_t **a, size_t *n, size_t *cap, int64_t v, char *err)
{
  if (*n >= SIZELIST_MAX_COUNT)
    {
      snprintf (err, SIZELIST_ERRSIZE, "more than %d values",
                SIZELIST_MAX_COUNT);
      return -1;
    }
  if (*n == *cap)
    {
      size_t nc = *cap ? 2 * *cap : 16;
      int64_t *na = realloc (*a, nc * sizeof *na);
      if (!na)
        {
          snprintf (err, SIZELIST_ERRSIZE, "out of memory");
          return -1;
        }
      *a = na;
      *cap = nc;
    }
  (*a)[(*n)++] = v;
  return 0;
}

static int
parse_list (const char *text, int64_t max, int64_t **a, size_t *n,
            size_t *cap, char *err)
{
  const char *p = text;
  for (;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      int64_t v;
      if (len == 0)
        {
          snprintf (err, SIZELIST_ERRSIZE, "empty value in the list");
          return -1;
        }
      if (parse_count (p, len, max, &v, err) != 0
          || push (a, n, cap, v, err) != 0)
        return -1;
      if (!comma)
        return 0;
      p = comma + 1;
    }
}

static int
parse_range (const char *text, const char *c1, int64_t max, int64_t **a,
             size_t *n, size_t *cap, char *err)
{
  const char *c2 = strchr (c1 + 1, ':');
  int64_t from, to;
  if (parse_count (text, (size_t) (c1 - text), max, &from, err) != 0)
    return -1;
  size_t tolen = c2 ? (size_t) (c2 - c1 - 1) : strlen (c1 + 1);
  if (parse_count (c1 + 1, tolen, max, &to, err) != 0)
    return -1;
  if (from > to)
    {
      snprintf (err, SIZELIST_ERRSIZE,
                "the range starts at %lld, after its end %lld",
                (long long) from, (long long) to);
      return -1;
    }
  const char *step = c2 ? c2 + 1 : "x2";
  if (step[0] == '+')
    {
      int64_t inc;
      if (parse_count (step + 1, strlen (step + 1), INT64_MAX, &inc, err)
          != 0)
        return -1;
      if (inc < 1)
        {
          snprintf (err, SIZELIST_ERRSIZE, "the step '%s' is not positive",
                    step);
          return -1;
        }
      for (int64_t v = from;; v += inc)
        {
          if (push (a, n, cap, v, err) != 0)
            return -1;
          if (to - v < inc)
            return 0;
        }
    }
  if (step[0] == 'x')
    {
      double f;
      enum num_status st = num_parse_str (step + 1, &f);
      if (st != NUM_OK)
        {
          snprintf (err, SIZELIST_ERRSIZE, "the factor '%.40s' is not a "
                    "number (%s)", step + 1, num_strerror (st));
          return -1;
        }
      if (!(f > 1))
        {
          snprintf (err, SIZELIST_ERRSIZE, "the factor '%.40s' is not "
                    "larger than 1", step + 1);
          return -1;
        }
      int64_t v = from;
      double x = (double) from;
      for (;;)
        {
          if (push (a, n, cap, v, err) != 0)
            return -1;
          double nx = v == 0 ? 1 : x * f;
          if (!(nx <= (double) to))
            return 0;
          int64_t nv = (int64_t) llround (nx);
          if (nv <= v)
            nv = v + 1;
          if (nv > to)
            return 0;
          v = nv;
          x = nx;
        }
    }
  snprintf (err, SIZELIST_ERRSIZE, "the step '%.40s' is neither xFACTOR "
            "nor +STEP", step);
  return -1;
}

int
sizelist_parse (const char *text, int64_t max, int64_t **out, size_t *n,
                char err[SIZELIST_ERRSIZE])
{
  int64_t *a = NULL;
  size_t cnt = 0, cap = 0;
  int rc;
  *out = NULL;
  *n = 0;
  err[0] = '\0';
  const char *colon = strchr (text, ':');
  if (text[0] == '\0')
    {
      snprintf (err, SIZELIST_ERRSIZE, "empty sweep");
      rc = -1;
    }
  else if (colon && strchr (text, ','))
    {
      snprintf (err, SIZELIST_ERRSIZE, "a sweep is either a range or a "
                "list, not both");
      rc = -1;
    }
  else if (colon)
    rc = parse_range (text, colon, max, &a, &cnt, &cap, err);
  else
    rc = parse_list (text, max, &a, &cnt, &cap, err);
  if (rc != 0)
    {
      free (a);
      return -1;
    }
  *out = a;
  *n = cnt;
  return 0;
}
