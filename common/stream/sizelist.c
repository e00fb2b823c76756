/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sizelist.c: the one list parser: A,B,C, FROM:TO, FROM:TO:xFACTOR,
   FROM:TO:+STEP and FROM:TO:STEP, with K, M and G (see sizelist.h).  */
#include <config.h>
#include "sizelist.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* How a list is read.  */
struct spec
{
  int whole;          /* whole numbers in [0, max] */
  double max;
  size_t maxcount;
};

/* The growing list.  */
struct acc
{
  double *v;
  size_t n, cap;
};

#define SHOW(len) (int) ((len) > 40 ? 40 : (len))

/* Parse the LEN bytes at TEXT as one value of SP: a number, maybe with
   K, M or G (powers of 1024).  0, or -1 with ERR.  */
static int
parse_value (const struct spec *sp, const char *text, size_t len, double *v,
             char *err)
{
  double mult = 1;
  size_t mlen = len;
  char last = len ? text[len - 1] : '\0';
  double m;
  if (last == 'K' || last == 'M' || last == 'G')
    {
      mult = last == 'K' ? 1024.0 : last == 'M' ? 1048576.0 : 1073741824.0;
      mlen--;
    }
  else if (len > 1 && isalpha ((unsigned char) last)
           && num_parse (text, len - 1, &m) == NUM_OK)
    {
      snprintf (err, SIZELIST_ERRSIZE, "'%.*s' has an unknown suffix '%c' "
                "(K, M or G, powers of 1024)", SHOW (len), text, last);
      return -1;
    }
  enum num_status st;
  if (sp->whole && mult == 1)
    {
      int64_t i;
      st = num_parse_int64 (text, mlen, &i);
      *v = (double) i;
    }
  else
    st = num_parse (text, mlen, v);
  if (st != NUM_OK || mlen == 0)
    {
      snprintf (err, SIZELIST_ERRSIZE, "invalid %s '%.*s' (%s)",
                sp->whole ? "whole number" : "number", SHOW (len), text,
                mlen == 0 && mult != 1 ? "no digits" : num_strerror (st));
      return -1;
    }
  *v *= mult;
  if (sp->whole && *v < 0)
    {
      snprintf (err, SIZELIST_ERRSIZE, "'%.*s' is negative", SHOW (len),
                text);
      return -1;
    }
  if (sp->whole && *v != floor (*v))
    {
      snprintf (err, SIZELIST_ERRSIZE, "'%.*s' is not a whole number",
                SHOW (len), text);
      return -1;
    }
  if (sp->whole && *v > sp->max)
    {
      snprintf (err, SIZELIST_ERRSIZE, "'%.*s' is larger than %.0f",
                SHOW (len), text, sp->max);
      return -1;
    }
  return 0;
}

/* Append V; -1 with ERR past the spec's count.  */
static int
push (const struct spec *sp, struct acc *a, double v, char *err)
{
  if (a->n >= sp->maxcount)
    {
      snprintf (err, SIZELIST_ERRSIZE, "more than %zu values", sp->maxcount);
      return -1;
    }
  if (a->n == a->cap)
    {
      size_t nc = a->cap ? 2 * a->cap : 16;
      double *na = realloc (a->v, nc * sizeof *na);
      if (!na)
        {
          snprintf (err, SIZELIST_ERRSIZE, "out of memory");
          return -1;
        }
      a->v = na;
      a->cap = nc;
    }
  a->v[a->n++] = v;
  return 0;
}

/* FROM, FROM*F, ... up to TO (0 goes on with 1).  A whole list rounds
   each value and always grows by at least one; a real one is FROM F^i,
   TO included up to rounding.  */
static int
geometric (const struct spec *sp, double from, double to, double f,
           struct acc *a, char *err)
{
  if (sp->whole)
    {
      double v = from, x = from;
      for (;;)
        {
          if (push (sp, a, v, err) != 0)
            return -1;
          double nx = v == 0 ? 1 : x * f;
          if (!(nx <= to))
            return 0;
          double nv = (double) llround (nx);
          if (nv <= v)
            nv = v + 1;
          if (nv > to)
            return 0;
          v = nv;
          x = nx;
        }
    }
  if (from == 0 && push (sp, a, 0, err) != 0)
    return -1;
  double lo = from == 0 ? 1 : from;
  for (size_t i = 0; !(from == 0 && lo > to); i++)
    {
      double v = lo * pow (f, (double) i);
      if (v > to * (1 + 1e-12))
        break;
      if (push (sp, a, v, err) != 0)
        return -1;
    }
  return 0;
}

/* FROM, FROM+STEP, ... up to TO (a real list: up to rounding).  */
static int
arithmetic (const struct spec *sp, double from, double to, double step,
            struct acc *a, char *err)
{
  double top = sp->whole ? to : to * (1 + 1e-12);
  for (size_t i = 0;; i++)
    {
      double v = from + step * (double) i;
      if (v > top)
        return 0;
      if (push (sp, a, v, err) != 0)
        return -1;
    }
}

/* The step of a range ITEM (LEN bytes): xFACTOR, +STEP or STEP.  */
static int
parse_step (const struct spec *sp, const char *item, size_t len,
            const char *s, const char *end, int *mul, double *step,
            char *err)
{
  *mul = *s == 'x';
  const char *num = *s == 'x' || *s == '+' ? s + 1 : s;
  struct spec real = *sp;
  real.whole = sp->whole && !*mul;   /* a factor may be a decimal */
  real.max = HUGE_VAL;
  if (num == end || parse_value (&real, num, (size_t) (end - num), step,
                                 err) != 0)
    {
      if (num == end)
        snprintf (err, SIZELIST_ERRSIZE, "'%.*s' has no step",
                  SHOW (len), item);
      else
        {
          char why[SIZELIST_ERRSIZE];
          memcpy (why, err, sizeof why);
          snprintf (err, SIZELIST_ERRSIZE, "the step of '%.*s': %.100s "
                    "(xFACTOR, +STEP or STEP)", SHOW (len), item, why);
        }
      return -1;
    }
  if (*mul ? !(*step > 1) : !(*step > 0))
    {
      snprintf (err, SIZELIST_ERRSIZE, "the %s of '%.*s' is not larger "
                "than %d", *mul ? "factor" : "step", SHOW (len), item,
                *mul ? 1 : 0);
      return -1;
    }
  return 0;
}

/* One item of LEN bytes: a value or a range.  */
static int
parse_item (const struct spec *sp, const char *item, size_t len,
            struct acc *a, char *err)
{
  const char *end = item + len;
  const char *c1 = memchr (item, ':', len);
  double from, to, step = 2;
  int mul = 1;
  if (len == 0)
    {
      snprintf (err, SIZELIST_ERRSIZE, "empty value in the list");
      return -1;
    }
  if (!c1)
    return parse_value (sp, item, len, &from, err) != 0 ? -1
           : push (sp, a, from, err);
  const char *c2 = memchr (c1 + 1, ':', (size_t) (end - c1 - 1));
  if (parse_value (sp, item, (size_t) (c1 - item), &from, err) != 0
      || parse_value (sp, c1 + 1, (size_t) ((c2 ? c2 : end) - c1 - 1), &to,
                      err) != 0)
    return -1;
  if (c2 && parse_step (sp, item, len, c2 + 1, end, &mul, &step, err) != 0)
    return -1;
  if (from > to)
    {
      snprintf (err, SIZELIST_ERRSIZE, "the range '%.*s' starts after its "
                "end (FROM > TO)", SHOW (len), item);
      return -1;
    }
  if (mul && from < 0)
    {
      snprintf (err, SIZELIST_ERRSIZE, "the range '%.*s' multiplies from "
                "a negative FROM", SHOW (len), item);
      return -1;
    }
  return mul ? geometric (sp, from, to, step, a, err)
             : arithmetic (sp, from, to, step, a, err);
}

static int
parse_all (const struct spec *sp, const char *text, double **out, size_t *n,
           char *err)
{
  struct acc a = { NULL, 0, 0 };
  *out = NULL;
  *n = 0;
  err[0] = '\0';
  if (text[0] == '\0')
    {
      snprintf (err, SIZELIST_ERRSIZE, "empty list");
      return -1;
    }
  for (const char *p = text;;)
    {
      const char *comma = strchr (p, ',');
      size_t len = comma ? (size_t) (comma - p) : strlen (p);
      if (parse_item (sp, p, len, &a, err) != 0)
        {
          free (a.v);
          return -1;
        }
      if (!comma)
        break;
      p = comma + 1;
    }
  *out = a.v;
  *n = a.n;
  return 0;
}

int
numlist_parse (const char *text, int whole, double max, double **out,
               size_t *n, char err[SIZELIST_ERRSIZE])
{
  struct spec sp = { whole, whole ? max : HUGE_VAL,
                     whole ? SIZELIST_MAX_COUNT : NUMLIST_MAX_COUNT };
  return parse_all (&sp, text, out, n, err);
}

int
sizelist_parse (const char *text, int64_t max, int64_t **out, size_t *n,
                char err[SIZELIST_ERRSIZE])
{
  double *d;
  *out = NULL;
  if (numlist_parse (text, 1, (double) max, &d, n, err) != 0)
    return -1;
  int64_t *v = malloc ((*n ? *n : 1) * sizeof *v);
  if (!v)
    {
      free (d);
      *n = 0;
      snprintf (err, SIZELIST_ERRSIZE, "out of memory");
      return -1;
    }
  for (size_t i = 0; i < *n; i++)
    v[i] = (int64_t) d[i];
  free (d);
  *out = v;
  return 0;
}

int
size_parse (const char *text, int64_t max, int64_t *v,
            char err[SIZELIST_ERRSIZE])
{
  struct spec sp = { 1, (double) max, 1 };
  double d;
  if (parse_value (&sp, text, strlen (text), &d, err) != 0)
    return -1;
  *v = (int64_t) d;
  return 0;
}
