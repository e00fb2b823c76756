/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_params.c: parameterized LogP equations and the LogGP summary
   (Kielmann, Bal, Verstoep, Section 3 and Table 1).  See logp_params.h.  */
#include <config.h>

#include "logp_params.h"
#include "hyperfit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double
logp_gap (double rtt_m, double rtt_0, double g0)
{
  return rtt_m - rtt_0 + g0;            /* Section 3: g(m) */
}

double
logp_latency (double rtt_0, double g0)
{
  return (rtt_0 - 2.0 * g0) / 2.0;      /* Section 3: L */
}

double
logp_sat_gap (double rtt_n, double rtt_1, int64_t n)
{
  return (rtt_n - rtt_1) / (double) (n - 1);
}

int
logp_sat_done (double gap_prev, double gap_cur, double rtt_1, double rtt_n,
               double eps)
{
  if (!(gap_cur > 0) || !(gap_prev > 0))
    return 0;
  return fabs (gap_cur - gap_prev) <= eps * gap_cur && rtt_1 < eps * rtt_n;
}

/* Half-width of the 95% interval of a median (0 when unknown).  */
static double
half_width (const struct logp_est *e)
{
  double h = (e->hi - e->lo) / 2.0;
  return isfinite (h) && h > 0 ? h : 0.0;
}

size_t
logp_fit_line (const struct logp_row *rows, size_t n, int64_t from,
               int64_t to, double tol_abs, double *slope, double *icept,
               double *u)
{
  double sx = 0, sy = 0;
  size_t k = 0;
#define IN_FIT(r) ((r)->bytes >= from && (r)->bytes <= to \
                   && isfinite ((r)->g.med))
  for (size_t i = 0; i < n; i++)
    if (IN_FIT (rows + i))
      {
        sx += (double) rows[i].bytes;
        sy += rows[i].g.med;
        k++;
      }
  *slope = *icept = NAN;
  if (u)
    *u = NAN;
  if (k < 2)
    return k;
  double mx = sx / (double) k, my = sy / (double) k, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++)
    if (IN_FIT (rows + i))
      {
        double dx = (double) rows[i].bytes - mx;
        sxx += dx * dx;
        sxy += dx * (rows[i].g.med - my);
      }
  if (!(sxx > 0))
    return k;
  *slope = sxy / sxx;
  *icept = my - *slope * mx;
  if (u)
    {
      /* slope = sum (m_i - mx) g_i / Sxx: each g_i moves it by
         |m_i - mx| / Sxx per unit.  */
      double su = 0;
      for (size_t i = 0; i < n; i++)
        if (IN_FIT (rows + i))
          su += fabs ((double) rows[i].bytes - mx) / sxx
                * fmax (half_width (&rows[i].g), tol_abs);
      *u = su;
    }
#undef IN_FIT
  return k;
}

int64_t
logp_last_segment (const struct logp_row *rows, size_t n, size_t kmax,
                   size_t *nseg)
{
  double *x = malloc ((n + 1) * sizeof *x), *t = malloc ((n + 1) * sizeof *t);
  double *breaks = malloc ((kmax + 1) * sizeof *breaks);
  struct hfit_result *res = malloc ((kmax + 1) * sizeof *res);
  int64_t first = -1, from = -1;
  size_t m = 0;
  *nseg = 0;
  if (x == NULL || t == NULL || breaks == NULL || res == NULL)
    goto out;
  /* RTT(m) = g(m) + RTT(0) - g(0) (Section 3): the same segments and
     slopes as g(m), and positive (as the fit needs) even when a disturbed
     saturation run makes g(0), hence every g(m), wrong by a constant.  */
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes >= 1 && isfinite (rows[i].g.med)
        && isfinite (rows[i].rtt.med) && rows[i].rtt.med > 0)
      {
        if (first < 0)
          first = rows[i].bytes;
        x[m] = (double) rows[i].bytes;
        t[m++] = rows[i].rtt.med;
      }
  /* The piecewise linear (Hockney) fit of hyper-reduce --segments auto:
     breakpoints where the protocol changes, times relative.  */
  struct hfit_options opt = { HFIT_LINEAR, HFIT_WEIGHT_RELATIVE };
  size_t k = 0;
  enum hfit_status st = m >= HFIT_MIN_DISTINCT && kmax >= 1
    ? hfit_segments_search (x, t, m, 0, kmax, &opt, &k, breaks, res)
    : HFIT_TOO_FEW;
  if (st == HFIT_NO_MEMORY)
    goto out;
  from = first < 0 ? 0 : first;
  if (st == HFIT_OK && k >= 1)
    {
      *nseg = k;
      if (k >= 2)
        from = (int64_t) breaks[k - 2];
    }
out:
  free (x);
  free (t);
  free (breaks);
  free (res);
  return from;
}

int
loggp_derive (const struct logp_row *rows, size_t n,
              const struct loggp_cfg *cfg, struct loggp *out)
{
  memset (out, 0, sizeof *out);
  out->L = out->o = out->g = out->G = NAN;
  out->os = out->o_r = out->g_raw = out->L_table = out->L_rtt = NAN;
  out->G_intercept = out->g_excess = out->g_tol = out->L_tol = NAN;
  out->G_lo = out->G_hi = out->G_tol = out->g_over_m = NAN;
  out->S = NAN;
  double step = LOGGP_TICKS * (cfg->tick > 0 ? cfg->tick : 0.0);
  /* Not a check of the numbers but of the conditions: a measurement that
     shared its cores is disturbed by whole time slices, consistently
     enough that the checks below can all pass.  */
  out->cpu_wait = cfg->cpu_wait;
  if (cfg->cpu_wait > LOGGP_CPU_WAIT_MAX)
    out->flags |= LOGGP_CPU_SHARED;

  const struct logp_row *s = NULL;
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes == cfg->short_size)
      s = rows + i;

  if (s == NULL || !isfinite (s->g.med) || !isfinite (s->os.med)
      || !isfinite (s->o_r.med))
    out->flags |= LOGGP_NO_SMALL;
  else
    {
      out->os = s->os.med;
      out->o_r = s->o_r.med;
      out->g_raw = s->g.med;
      out->o = (s->os.med + s->o_r.med) / 2.0;            /* Table 1: o */

      /* LogP's g >= o_s, g >= o_r (Section 2).  o_r(1) above g(1) is
         real (Section 3.1: o_r of an unexpected message, g of expected
         ones), so g is raised to the larger overhead; the flag says
         whether the excess is more than noise.  */
      const struct logp_est *big = s->os.med >= s->o_r.med ? &s->os
                                                           : &s->o_r;
      out->g = fmax (s->g.med, big->med);                  /* Table 1: g */
      out->g_excess = big->med - s->g.med;
      out->g_tol = fmax (half_width (&s->g) + half_width (big), step);
      if (out->g_excess > out->g_tol)
        out->flags |= LOGGP_G_RAISED;

      /* Table 1: L = L_p + g(1) - o_s(1) - o_r(1); a latency below 0 is
         not one (on loopback TCP the system calls are nearly all of it),
         so it is clamped at 0.  */
      out->L_table = cfg->L_p.med + s->g.med - s->os.med - s->o_r.med;
      out->L = fmax (out->L_table, 0.0);
      out->L_tol = fmax (half_width (&cfg->L_p) + half_width (&s->g)
                         + half_width (&s->os) + half_width (&s->o_r), step);
      if (out->L_table < -out->L_tol)
        out->flags |= LOGGP_L_CLAMPED;
      /* LogP's r = o + L + o (Section 2) on a round trip of two short
         messages: a second estimate of L.  */
      if (isfinite (s->rtt.med))
        out->L_rtt = s->rtt.med / 2.0 - out->o;
    }

  /* G: Table 1's g(m)/m for large m is G + c/m on the line g(m) = c + G m
     that LogGP predicts, so the slope of that line over the last protocol
     segment is G itself.  */
  int64_t mmax = 0;
  const struct logp_row *top = NULL;
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes >= 1 && rows[i].bytes > mmax && isfinite (rows[i].g.med))
      {
        mmax = rows[i].bytes;
        top = rows + i;
      }
  if (top == NULL)
    {
      out->flags |= LOGGP_G_FEW | LOGGP_G_FALLBACK;
      return 0;
    }
  out->g_over_m = top->g.med / (double) mmax;
  out->fit_from = logp_last_segment (rows, n, cfg->max_segments,
                                     &out->segments);
  if (out->fit_from < 0)
    return -1;
  out->fit_to = mmax;
  double G, c;
  out->fit_n = logp_fit_line (rows, n, out->fit_from, mmax, step, &G, &c,
                              NULL);
  if (out->fit_n < 3)
    out->flags |= LOGGP_G_FEW;
  else
    {
      /* The two halves of the segment (sharing the middle size when the
         count is odd): a straight line has one slope.  */
      int64_t *b = malloc (out->fit_n * sizeof *b);
      size_t k = 0;
      if (b == NULL)
        return -1;
      for (size_t i = 0; i < n; i++)
        if (rows[i].bytes >= out->fit_from && rows[i].bytes <= mmax
            && isfinite (rows[i].g.med))
          b[k++] = rows[i].bytes;
      size_t h = (k + 1) / 2;
      double c1, c2, u1, u2;
      logp_fit_line (rows, n, b[0], b[h - 1], step, &out->G_lo, &c1, &u1);
      logp_fit_line (rows, n, b[k - h], b[k - 1], step, &out->G_hi, &c2,
                     &u2);
      free (b);
      out->G_tol = u1 + u2;
      if (fabs (out->G_lo - out->G_hi) > out->G_tol)
        out->flags |= LOGGP_G_NONLINEAR;
    }
  if (isfinite (G) && !(G > 0))
    out->flags |= LOGGP_G_NONPOS;
  /* A line whose intercept is most of the gap at the largest size
     (TCP over loopback, busy: g(m) = 61.5 us + 6.5e-9 us/B m over
     160-256 KiB, its halves' slopes 2.5e-4 and -1.0e-4) has a slope
     that leaves out more than half of every large message's time:
     Table 1's g(m_max)/m_max is the better G.  */
  if (isfinite (G) && G > 0 && c > 0.5 * top->g.med)
    out->flags |= LOGGP_G_OFFSET;
  if (isfinite (G) && G > 0 && !(out->flags & LOGGP_G_OFFSET))
    {
      out->G = G;
      out->G_intercept = c;
    }
  else
    {
      out->flags |= LOGGP_G_FALLBACK;
      /* Table 1's g(m)/m at the largest size; when a disturbed g(0) made
         it <= 0, the size-dependent part of the round trip,
         (RTT(m) - RTT(0))/m = (g(m) - g(0))/m (Section 3).  */
      double alt = NAN;
      for (size_t i = 0; i < n; i++)
        if (rows[i].bytes == 0 && isfinite (rows[i].rtt.med))
          alt = (top->rtt.med - rows[i].rtt.med) / (double) mmax;
      double fb = out->g_over_m > 0 ? out->g_over_m : alt;
      if (fb > 0)
        {
          out->G = fb;
          out->G_intercept = 0.0;
        }
    }
  return 0;
}

const char *
loggp_check_text (unsigned flags, char *buf, size_t len)
{
  static const struct { unsigned flag; const char *text; } names[] = {
    { LOGGP_NO_SMALL, "no_short_size" },
    { LOGGP_G_RAISED, "g_raised" },
    { LOGGP_L_CLAMPED, "L_clamped" },
    { LOGGP_G_NONLINEAR, "G_nonlinear" },
    { LOGGP_G_NONPOS, "G_nonpos" },
    { LOGGP_G_FEW, "G_few" },
    { LOGGP_G_FALLBACK, "G_fallback" },
    { LOGGP_CPU_SHARED, "cpu_shared" },
    { LOGGP_G_OFFSET, "G_offset" },
  };
  if (len == 0)
    return buf;
  buf[0] = '\0';
  if (flags == 0)
    {
      snprintf (buf, len, "ok");
      return buf;
    }
  size_t used = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (flags & names[i].flag)
      {
        int k = snprintf (buf + used, len - used, "%s%s", used ? "," : "",
                          names[i].text);
        if (k < 0 || (size_t) k >= len - used)
          break;
        used += (size_t) k;
      }
  return buf;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

void
loggp_spread (double *v, size_t n, double *med, double *min, double *max)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (isfinite (v[i]))
      v[k++] = v[i];
  *med = *min = *max = NAN;
  if (k == 0)
    return;
  qsort (v, k, sizeof *v, cmp_double);
  *min = v[0];
  *max = v[k - 1];
  *med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2.0;
}
