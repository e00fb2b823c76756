/* logp_params.c: parameterized LogP equations and the LogGP summary
   (Kielmann, Bal, Verstoep, Section 3 and Table 1).  See logp_params.h.  */
#include <config.h>

#include "logp_params.h"

#include <math.h>
#include <stdio.h>
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

size_t
logp_fit_slope (const struct logp_row *rows, size_t n, int64_t from,
                int64_t to, double *slope)
{
  double sx = 0, sy = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes >= from && rows[i].bytes <= to
        && isfinite (rows[i].g.med))
      {
        sx += (double) rows[i].bytes;
        sy += rows[i].g.med;
        k++;
      }
  *slope = NAN;
  if (k < 2)
    return k;
  double mx = sx / (double) k, my = sy / (double) k, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes >= from && rows[i].bytes <= to
        && isfinite (rows[i].g.med))
      {
        double dx = (double) rows[i].bytes - mx;
        sxx += dx * dx;
        sxy += dx * (rows[i].g.med - my);
      }
  if (sxx > 0)
    *slope = sxy / sxx;
  return k;
}

/* Is A >= B possible within the intervals (A's upper end reaches B's
   lower end)?  */
static int
ge_within (const struct logp_est *a, const struct logp_est *b)
{
  return a->hi >= b->lo;
}

void
loggp_derive (const struct logp_row *rows, size_t n, int64_t short_size,
              double L_p, double tol, struct loggp *out)
{
  memset (out, 0, sizeof *out);
  out->L = out->o = out->g = out->G = NAN;
  out->os = out->o_r = out->g_over_m = NAN;

  const struct logp_row *s = NULL;
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes == short_size)
      s = rows + i;

  if (s == NULL)
    out->flags |= LOGGP_NO_SMALL;
  else
    {
      struct logp_est o_r = s->o_r;
      out->os = s->os.med;
      if (!ge_within (&s->g, &s->os))
        out->flags |= LOGGP_G_LT_OS;
      if (!ge_within (&s->g, &o_r))
        {
          /* Section 3.1: o_r is measured with unexpected messages, g with
             expected ones; g(m) bounds the expected receive overhead.  Use
             the measured expected-message o_r when it is consistent.  */
          if (isfinite (s->or_exp.med) && ge_within (&s->g, &s->or_exp))
            {
              o_r = s->or_exp;
              out->used_expected = 1;
            }
          else
            out->flags |= LOGGP_G_LT_OR;
        }
      out->o_r = o_r.med;
      if (!(out->flags & (LOGGP_G_LT_OS | LOGGP_G_LT_OR)))
        {
          out->g = s->g.med;                          /* Table 1: g */
          out->o = (s->os.med + o_r.med) / 2.0;       /* Table 1: o */
          double L = L_p + s->g.med - s->os.med - o_r.med; /* Table 1: L */
          if (L >= 0)
            out->L = L;
          else
            out->flags |= LOGGP_L_NEG;
        }
    }

  /* Table 1: G = g(m)/m for a sufficiently large m, fitted.  */
  int64_t mmax = 0;
  const struct logp_row *top = NULL;
  for (size_t i = 0; i < n; i++)
    if (rows[i].bytes > mmax && isfinite (rows[i].g.med))
      {
        mmax = rows[i].bytes;
        top = rows + i;
      }
  out->fit_from = mmax / 4;
  out->fit_to = mmax;
  if (top != NULL && mmax > 0)
    out->g_over_m = top->g.med / (double) mmax;
  double G;
  out->fit_n = logp_fit_slope (rows, n, out->fit_from, mmax, &G);
  if (out->fit_n < 2 || !isfinite (G) || out->fit_from < 1)
    out->flags |= LOGGP_BIG_G_UNFIT;
  else if (!(G > 0))
    out->flags |= LOGGP_BIG_G_NONPOS;
  else if (!(fabs (out->g_over_m - G) <= tol * G))
    out->flags |= LOGGP_BIG_G_MISMATCH;
  else
    out->G = G;
}

const char *
loggp_check_text (unsigned flags, char *buf, size_t len)
{
  static const struct { unsigned flag; const char *text; } names[] = {
    { LOGGP_NO_SMALL, "no_short_size" },
    { LOGGP_G_LT_OS, "g_lt_os" },
    { LOGGP_G_LT_OR, "g_lt_or" },
    { LOGGP_L_NEG, "L_neg" },
    { LOGGP_BIG_G_UNFIT, "G_unfit" },
    { LOGGP_BIG_G_NONPOS, "G_nonpos" },
    { LOGGP_BIG_G_MISMATCH, "G_mismatch" },
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
