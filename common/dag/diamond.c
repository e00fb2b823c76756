/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diamond.c: eq. (15) of the LoGPC paper and its optimal b.  */
#include <config.h>

#include <math.h>
#include <string.h>

#include "diamond.h"

void
diamond_eval (const struct diamond_in *in, struct diamond_out *o)
{
  double vals = in->n / in->b;                     /* n/b values per block */
  o->wa = in->n * in->n / (in->P * in->b) * in->work;
  o->W = o->wa + in->alpha * vals;                 /* W = w_a + alpha n/b */
  o->B = in->value * vals;
  o->d = in->L + in->a * in->G;                    /* d = L + a G */
  o->Os = in->os + (o->B - 1) * in->G;             /* O_s = o_s + (B-1) G */
  o->Or = (o->B - 1 - in->a) * in->G;              /* O_r = (B-1-a) G */
  o->u = o->Or + o->W + o->d;                      /* u = O_r + W + d */
  o->v = o->Os + o->W + o->Or;                     /* v = O_s + W + O_r */
  /* eq. (15): M = (W + d) + (P - 2) u + (b - 1) v + O_r + W */
  o->M = (o->W + o->d) + (in->P - 2) * o->u + (in->b - 1) * o->v + o->Or
         + o->W;
}

static double
m_at (const struct diamond_in *in, double b)
{
  struct diamond_in x = *in;
  struct diamond_out o;
  x.b = b;
  diamond_eval (&x, &o);
  return o.M;
}

void
diamond_optimal_b (const struct diamond_in *in, double *b_real,
                   int64_t *b_int, double *m_int)
{
  double c1 = in->n * in->n * in->work / in->P + in->alpha * in->n;
  double c2 = in->G * in->value * in->n;
  double A = (in->P - 1) * c1 + (in->P - 3) * c2;
  double k = in->os - (2 + in->a) * in->G;
  double bs;
  if (A <= 0)
    bs = 1;
  else if (k <= 0)
    bs = in->n;
  else
    bs = sqrt (A / k);                             /* dM/db = 0 */
  if (bs < 1)
    bs = 1;
  if (bs > in->n)
    bs = in->n;
  *b_real = bs;
  double lo = floor (bs), hi = ceil (bs);
  if (lo < 1)
    lo = 1;
  if (hi > in->n)
    hi = in->n;
  double mlo = m_at (in, lo), mhi = m_at (in, hi);
  if (mhi < mlo)
    {
      *b_int = (int64_t) hi;
      *m_int = mhi;
    }
  else
    {
      *b_int = (int64_t) lo;
      *m_int = mlo;
    }
}

void
diamond_cost (const struct diamond_out *o, struct dagsim_cost *c)
{
  memset (c, 0, sizeof *c);
  c->os = o->Os;
  c->or_ = o->Or;
  c->L = o->d - o->Os;
  c->S = INFINITY;
}
