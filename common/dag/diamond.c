/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diamond.c: eq. (15) of the LoGPC paper (computed by logpc_eq15) with
   the block size from the value size, and its optimal b.  */
#include <config.h>

#include <math.h>
#include <string.h>

#include "diamond.h"
#include "logpc.h"

void
diamond_eval (const struct diamond_in *in, struct diamond_out *o)
{
  o->B = in->value * (in->n / in->b);             /* n/b values per block */
  struct logpc_eq15 t;
  logpc_eq15 (in->n, in->P, in->b, in->work, in->alpha, o->B, in->L, in->os,
              in->G, in->a, &t);
  o->wa = t.wa;
  o->W = t.W;
  o->d = t.d;
  o->Os = t.Os;
  o->Or = t.Or;
  o->u = t.u;
  o->v = t.v;
  o->M = t.M;                                      /* eq. (15) */
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
