/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plogp.c: parameterized LogP at any message size (plogp.h).  */
#include <config.h>

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "plogp.h"

static int
by_bytes (const void *a, const void *b)
{
  double x = ((const struct plogp_point *) a)->bytes;
  double y = ((const struct plogp_point *) b)->bytes;
  return (x > y) - (x < y);
}

static int
ok_value (double v)
{
  return isfinite (v) && v >= 0;
}

enum plogp_status
plogp_init (struct plogp *t, const struct plogp_point *pts, size_t n,
            double L, size_t *which)
{
  memset (t, 0, sizeof *t);
  if (n == 0)
    return PLOGP_EMPTY;
  /* L may be negative: pLogP's L = (RTT(0) - 2 g(0)) / 2 is below 0
     when g(0) > RTT(0)/2 (per-message costs of a transport like TCP),
     while the one-way time L + g(m) = RTT(m) - RTT(0)/2 (Section 3) is
     still the measured one; that must not be negative.  */
  if (!isfinite (L))
    {
      if (which)
        *which = n;
      return PLOGP_NEGATIVE;
    }
  for (size_t i = 0; i < n; i++)
    if (!ok_value (pts[i].bytes) || !ok_value (pts[i].os)
        || !ok_value (pts[i].or_) || !isfinite (pts[i].g))
      {
        if (which)
          *which = i;
        return PLOGP_NEGATIVE;
      }
  /* The one-way time L + g(m) = RTT(m) - RTT(0)/2 must not be negative;
     a g(m) < 0 above that bound is noise (plogp.h) and reads as 0.  */
  size_t nneg = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (L + pts[i].g < 0)
        {
          if (which)
            *which = i;
          return PLOGP_NEGATIVE_ONEWAY;
        }
      nneg += pts[i].g < 0;
    }
  t->pt = malloc (n * sizeof *t->pt);
  if (!t->pt)
    return PLOGP_NOMEM;
  memcpy (t->pt, pts, n * sizeof *pts);
  for (size_t i = 0; i < n; i++)
    if (t->pt[i].g < 0)
      t->pt[i].g = 0;
  qsort (t->pt, n, sizeof *t->pt, by_bytes);
  for (size_t i = 1; i < n; i++)
    if (t->pt[i].bytes == t->pt[i - 1].bytes)
      {
        if (which)
          {
            /* the second input row of that size */
            size_t seen = 0;
            for (size_t k = 0; k < n; k++)
              if (pts[k].bytes == t->pt[i].bytes && seen++)
                {
                  *which = k;
                  break;
                }
          }
        free (t->pt);
        t->pt = NULL;
        return PLOGP_DUPLICATE;
      }
  t->n = n;
  t->L = L;
  t->nneg_g = nneg;
  return PLOGP_OK;
}

void
plogp_free (struct plogp *t)
{
  free (t->pt);
  t->pt = NULL;
  t->n = 0;
}

const char *
plogp_status_text (enum plogp_status s)
{
  switch (s)
    {
    case PLOGP_OK:
      return "ok";
    case PLOGP_EMPTY:
      return "no message sizes";
    case PLOGP_DUPLICATE:
      return "two rows for the same message size";
    case PLOGP_NEGATIVE:
      return "a negative size, o_s or o_r, a non-finite value, or a "
             "non-finite latency";
    case PLOGP_NEGATIVE_ONEWAY:
      return "L + g(m) < 0: a negative one-way time RTT(m) - RTT(0)/2 "
             "(L, or this size's gap, is too negative)";
    case PLOGP_NOMEM:
      return "out of memory";
    }
  return "unknown status";
}

/* The value of field F at M on the line through points A and B.  */
static double
line (const struct plogp_point *a, const struct plogp_point *b, double m,
      size_t off)
{
  double ya = *(const double *) ((const char *) a + off);
  double yb = *(const double *) ((const char *) b + off);
  double f = (m - a->bytes) / (b->bytes - a->bytes);
  return ya + f * (yb - ya);
}

void
plogp_eval (const struct plogp *t, double m, struct plogp_at *out)
{
  const struct plogp_point *p = t->pt;
  size_t n = t->n;
  out->beyond = m > p[n - 1].bytes;
  out->below = m < p[0].bytes;
  const struct plogp_point *a, *b;
  if (n == 1 || out->below)
    {
      const struct plogp_point *q = out->below ? &p[0] : &p[n - 1];
      out->os = q->os;
      out->or_ = q->or_;
      out->g = q->g;
      return;
    }
  if (out->beyond)
    {
      a = &p[n - 2];
      b = &p[n - 1];
    }
  else
    {
      /* the segment [a, b] holding m: binary search */
      size_t lo = 0, hi = n - 1;
      while (hi - lo > 1)
        {
          size_t mid = lo + (hi - lo) / 2;
          if (p[mid].bytes <= m)
            lo = mid;
          else
            hi = mid;
        }
      a = &p[lo];
      b = &p[hi];
      if (m == a->bytes)
        {
          out->os = a->os;
          out->or_ = a->or_;
          out->g = a->g;
          return;
        }
    }
  out->os = line (a, b, m, offsetof (struct plogp_point, os));
  out->or_ = line (a, b, m, offsetof (struct plogp_point, or_));
  out->g = line (a, b, m, offsetof (struct plogp_point, g));
  /* a falling extrapolation cannot go below zero */
  if (out->os < 0)
    out->os = 0;
  if (out->or_ < 0)
    out->or_ = 0;
  if (out->g < 0)
    out->g = 0;
}

void
plogp_loggp (const struct plogp *t, double m, struct plogp_loggp *out)
{
  struct plogp_at v;
  plogp_eval (t, m, &v);
  out->os = v.os;
  out->or_ = v.or_;
  out->g = v.g;
  out->beyond = v.beyond;
  out->below = v.below;
  /* r(m) = L + g(m) = os + L' + or  (Section 2; Table 1 at m = 1).
     L' may be negative: "receiving may already start while the sender
     is still busy, so o_s and o_r may overlap" (Section 2), and the
     receiver still has the message at L + g(m).  An o_r(m) above
     L + g(m) breaks Section 2's g(m) >= o_r(m) (a rendezvous receive
     measured after the wait of Fig. 1 includes the transfer it only
     then starts): it is capped at L + g(m), so that the message is
     still complete at r(m) = L + g(m), and L' = -o_s(m).  */
  out->L = t->L + v.g - v.os - v.or_;
  out->clamped = v.or_ > t->L + v.g;
  if (out->clamped)
    {
      out->or_ = t->L + v.g;
      out->L = -v.os;
    }
}

void
plogp_table1 (const struct plogp *t, double m, struct plogp_table1 *out)
{
  struct plogp_at one, at;
  plogp_eval (t, 1, &one);
  double size = m >= 1 ? m : 1;
  plogp_eval (t, size, &at);
  /* Table 1: L = L + g(1) - o_s(1) - o_r(1), G = g(m)/m */
  out->L = t->L + one.g - one.os - one.or_;
  out->clamped = out->L < 0;
  if (out->clamped)
    out->L = 0;
  out->os = at.os;
  out->or_ = at.or_;
  out->g = at.g;
  out->G = at.g / size;
  out->beyond = at.beyond;
  out->below = at.below || one.below;
}
