/* SPDX-License-Identifier: GPL-3.0-or-later */
/* smpi_calib.c: SMPI's calibration from a pLogP table (smpi_calib.h).
 *
 * In pLogP the receiver has a message of m bytes at L + g(m) after its
 * send started, its sender's CPU busy o_s(m), its receiver's o_r(m)
 * (Kielmann, Bal, Verstoep, Section 2, Fig. 1).  SMPI charges o_s(m)
 * on the sender, then the network time N(m) = lat f_l(m) + m / (B
 * f_b(m)), then o_r(m) on the receiver; so N(m) is Table 1's L at size
 * m, L + g(m) - o_s(m) - o_r(m) (plogp.h's L', at least 0: a billionth
 * of the link's time at that size), and the
 * overheads are the measured ones, interpolated linearly between the
 * measured sizes as plogp_eval does.  The link: latency N(m_0) at the
 * smallest size, bandwidth the last two sizes' slope of N (else
 * m_n / g(m_n)); at each measured size m_k one factor f_k scales both
 * latency and bandwidth time (f_l = f_k, f_b = 1 / f_k) so that N(m_k)
 * is met exactly.  SMPI reads a segment for the sizes above its MIN up
 * to the next MIN, so the segment for (m_{k-1}, m_k] starts at m_{k-1}
 * and carries m_k's values.  */
#include <config.h>

#include <stdlib.h>

#include "smpi_calib.h"

/* Table 1's L at the K-th size, at least 0.  */
static double
net_at (const struct plogp *t, size_t k)
{
  const struct plogp_point *p = &t->pt[k];
  double n = t->L + p->g - p->os - p->or_;
  return n > 0 ? n : 0;
}

int
smpi_calib_make (const struct plogp *t, struct smpi_calib *c)
{
  size_t n = t->n;
  c->os = c->or_ = NULL;
  c->factor = NULL;
  if (n < 2)
    return -1;
  c->n = n - 1;
  c->os = malloc (c->n * sizeof *c->os);
  c->or_ = malloc (c->n * sizeof *c->or_);
  c->factor = malloc (c->n * sizeof *c->factor);
  if (!c->os || !c->or_ || !c->factor)
    {
      smpi_calib_free (c);
      return -1;
    }
  c->latency = net_at (t, 0);
  double dm = t->pt[n - 1].bytes - t->pt[n - 2].bytes;
  double dn = net_at (t, n - 1) - net_at (t, n - 2);
  c->bandwidth = dn > 0 ? dm / dn
                 : t->pt[n - 1].g > 0 ? t->pt[n - 1].bytes / t->pt[n - 1].g
                 : 1e300;
  for (size_t k = 1; k < n; k++)
    {
      const struct plogp_point *a = &t->pt[k - 1], *b = &t->pt[k];
      double w = b->bytes - a->bytes;
      struct smpi_seg *s = &c->os[k - 1], *r = &c->or_[k - 1];
      s->min = r->min = a->bytes;
      s->per_byte = (b->os - a->os) / w;
      s->offset = a->os - s->per_byte * a->bytes;
      r->per_byte = (b->or_ - a->or_) / w;
      r->offset = a->or_ - r->per_byte * a->bytes;
      double base = c->latency + b->bytes / c->bandwidth;
      double f = base > 0 ? net_at (t, k) / base : 1;
      /* a network time of 0 (the overheads overlap the transfer) as a
         billionth of the link's: SMPI divides by the bandwidth factor */
      if (f < 1e-9)
        f = 1e-9;
      c->factor[k - 1] = (struct smpi_factor) { a->bytes, f, 1 / f };
    }
  return 0;
}

void
smpi_calib_free (struct smpi_calib *c)
{
  free (c->os);
  free (c->or_);
  free (c->factor);
  c->os = c->or_ = NULL;
  c->factor = NULL;
}

double
smpi_calib_network (const struct smpi_calib *c, double m)
{
  double fl = 1, fb = 1;
  for (size_t k = 0; k < c->n && c->factor[k].min < m; k++)
    {
      fl = c->factor[k].lat;
      fb = c->factor[k].bw;
    }
  return c->latency * fl + m / (c->bandwidth * fb);
}
