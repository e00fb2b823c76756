/* SPDX-License-Identifier: GPL-3.0-or-later */
/* linkshare.c: flows sharing links by max-min fairness (linkshare.h).  */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "linkshare.h"
#include "xalloc.h"

void
lshare_init (struct lshare *s, size_t nlinks, int busy)
{
  memset (s, 0, sizeof *s);
  size_t n = nlinks ? nlinks : 1;
  s->nlinks = nlinks;
  s->lcap = xmalloc (n * sizeof *s->lcap);
  for (size_t i = 0; i < n; i++)
    s->lcap[i] = INFINITY;
  s->rc = xcalloc (n, sizeof *s->rc);
  s->cnt = xcalloc (n, sizeof *s->cnt);
  s->used = xcalloc (n, sizeof *s->used);
  if (busy)
    s->busy = xcalloc (n, sizeof *s->busy);
}

void
lshare_free (struct lshare *s)
{
  free (s->lcap);
  free (s->f);
  free (s->lnk);
  free (s->open);
  free (s->rc);
  free (s->cnt);
  free (s->used);
  free (s->busy);
  free (s->pf);
  free (s->pidx);
  memset (s, 0, sizeof *s);
}

size_t
lshare_add (struct lshare *s, double start, double work,
            const int32_t *links, int32_t nl, double cap)
{
  if (s->nf == s->fcap)
    {
      s->fcap = s->fcap ? 2 * s->fcap : 64;
      s->f = xrealloc (s->f, s->fcap * sizeof *s->f);
    }
  while (s->nlnk + (size_t) nl > s->lnkcap)
    {
      s->lnkcap = s->lnkcap ? 2 * s->lnkcap : 256;
      s->lnk = xrealloc (s->lnk, s->lnkcap * sizeof *s->lnk);
    }
  if (s->nopen == s->opencap)
    {
      s->opencap = s->opencap ? 2 * s->opencap : 64;
      s->open = xrealloc (s->open, s->opencap * sizeof *s->open);
    }
  struct lshare_flow *f = &s->f[s->nf];
  f->start = start;
  f->work = f->rem = work;
  f->cap = cap;
  f->rate = 0;
  f->end = NAN;
  f->off = s->nlnk;
  f->nl = nl;
  f->bott = -1;
  f->proj = NAN;
  if (nl > 0)
    memcpy (s->lnk + s->nlnk, links, (size_t) nl * sizeof *links);
  s->nlnk += (size_t) nl;
  s->open[s->nopen++] = s->nf;
  return s->nf++;
}

/* Fix flow F's rate at R, set by link B (-1: its own cap): what it
   takes leaves its links.  */
static void
fix_rate (struct lshare *s, struct lshare_flow *f, double r, int32_t b)
{
  f->rate = r;
  f->bott = b;
  for (int32_t j = 0; j < f->nl; j++)
    {
      int32_t l = s->lnk[f->off + (size_t) j];
      s->rc[l] = s->rc[l] > r ? s->rc[l] - r : 0;
      s->cnt[l]--;
    }
}

static int
crosses (const struct lshare *s, const struct lshare_flow *f, int32_t l)
{
  for (int32_t j = 0; j < f->nl; j++)
    if (s->lnk[f->off + (size_t) j] == l)
      return 1;
  return 0;
}

/* The max-min fair rates at NOW of the flows IDX[0..N) of F (those not
   started yet get 0), by progressive filling (Bertsekas and Gallager,
   section 6.5.2): the tightest constraint, a link's remaining capacity
   split evenly among its unfixed flows or a flow's own cap, fixes the
   rates of the flows it binds; repeat.  Leaves in used the links that
   carry a flow.  */
static void
rates (struct lshare *s, struct lshare_flow *F, const size_t *idx, size_t n,
       double now)
{
  size_t nu = 0, unfixed = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct lshare_flow *f = &F[idx[i]];
      f->rate = 0;
      if (f->start > now)
        continue;
      f->rate = NAN;   /* not fixed yet */
      unfixed++;
      for (int32_t j = 0; j < f->nl; j++)
        {
          int32_t l = s->lnk[f->off + (size_t) j];
          if (s->cnt[l]++ == 0)
            {
              s->used[nu++] = l;
              s->rc[l] = s->lcap[l];
            }
        }
    }
  s->nused = nu;
  while (unfixed > 0)
    {
      double best = INFINITY;
      int32_t bl = -1;
      size_t bf = 0;
      for (size_t u = 0; u < nu; u++)
        {
          int32_t l = s->used[u];
          if (s->cnt[l] > 0 && s->rc[l] / s->cnt[l] < best)
            {
              best = s->rc[l] / s->cnt[l];
              bl = l;
            }
        }
      for (size_t i = 0; i < n; i++)
        if (isnan (F[idx[i]].rate) && F[idx[i]].cap < best)
          {
            best = F[idx[i]].cap;
            bl = -1;
            bf = idx[i];
          }
      for (size_t i = 0; i < n; i++)
        {
          struct lshare_flow *f = &F[idx[i]];
          if (isnan (f->rate)
              && (best == INFINITY || (bl >= 0 ? crosses (s, f, bl)
                                                : idx[i] == bf)))
            {
              fix_rate (s, f, best, bl);
              unfixed--;
            }
        }
    }
  for (size_t u = 0; u < nu; u++)
    s->cnt[s->used[u]] = 0;
}

/* When flow F, moving at its rate from NOW, ends.  */
static double
end_of (const struct lshare_flow *f, double now)
{
  if (f->rem <= 0)
    return now;
  return f->rate > 0 ? now + f->rem / f->rate : INFINITY;
}

/* Run the flows IDX[0..N) of F from *NOW to T (INFINITY: until they
   all end): each step lasts until the next start or end, at the rates
   of its beginning.  BUSY: add each step to the links that carried a
   flow.  Returns how many flows are still open, first in IDX.  */
static size_t
run (struct lshare *s, struct lshare_flow *F, size_t *idx, size_t n,
     double *now, double t, double *busy)
{
  while (n > 0)
    {
      rates (s, F, idx, n, *now);
      double next = t;
      for (size_t i = 0; i < n; i++)
        {
          const struct lshare_flow *f = &F[idx[i]];
          double e = f->start > *now ? f->start : end_of (f, *now);
          next = e < next ? e : next;
        }
      if (next == INFINITY)
        break;   /* nothing can move (no flow has a rate) */
      double dt = next - *now;
      if (busy && dt > 0)
        for (size_t u = 0; u < s->nused; u++)
          busy[s->used[u]] += dt;
      size_t k = 0;
      for (size_t i = 0; i < n; i++)
        {
          struct lshare_flow *f = &F[idx[i]];
          if (f->start <= *now)
            {
              if (end_of (f, *now) <= next)
                {
                  f->rem = 0;
                  f->end = next;
                }
              else if (dt > 0)
                f->rem = f->rem > f->rate * dt ? f->rem - f->rate * dt : 0;
            }
          if (isnan (f->end))
            idx[k++] = idx[i];
        }
      n = k;
      *now = next;
      if (next >= t)
        break;
    }
  if (t < INFINITY && *now < t)
    *now = t;
  return n;
}

void
lshare_advance (struct lshare *s, double t)
{
  if (t <= s->now)
    return;
  s->nopen = run (s, s->f, s->open, s->nopen, &s->now, t, s->busy);
}

void
lshare_project (struct lshare *s)
{
  size_t n = s->nopen;
  if (n > s->pcap)
    {
      s->pcap = 2 * n;
      s->pf = xrealloc (s->pf, s->pcap * sizeof *s->pf);
      s->pidx = xrealloc (s->pidx, s->pcap * sizeof *s->pidx);
    }
  for (size_t i = 0; i < n; i++)
    {
      s->pf[i] = s->f[s->open[i]];
      s->pidx[i] = i;
    }
  double now = s->now;
  run (s, s->pf, s->pidx, n, &now, INFINITY, NULL);
  for (size_t i = 0; i < n; i++)
    s->f[s->open[i]].proj = s->pf[i].end;
}
