/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_report.c: logp-measure's stream at rank 0 (logp_report.h): the
   metadata of the run and the rows, raw samples, LogGP summary or link
   classes, every time printed to the digits it has (msgperf(7),
   NUMBERS).  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "logp_classes.h"
#include "logp_report.h"
#include "mpiutil.h"
#include "num.h"
#include "stats.h"

const char *const lm_class_param_name[CP_N] = { "L", "g0", "os", "or", "g",
                                                "rtt" };
static const int class_param_field[CP_N] = { R_L, R_G0, R_OS, R_OR, R_G,
                                             R_RTT };

static const double US = 1e6;

/* The value of pair result R that --classes groups by (microseconds), NaN
   when R has no row of the size asked for.  */
double
lm_class_value (const struct lm_config *c, const struct lm_result *r)
{
  int f = class_param_field[c->class_by];
  for (size_t k = 0; k < r->nrows; k++)
    {
      const double *x = r->rows + k * R_NF;
      if (c->class_by <= CP_G0 || (int64_t) x[R_BYTES] == c->class_bytes)
        return x[f] * US;
    }
  return NAN;
}

/* msgperf(7), NUMBERS: a time read from the timer (a median or an
   order statistic of single intervals: os, or, rtt and their intervals,
   a raw sample) is printed to the timer's resolution; a value derived
   from several (g = RTT(m) - RTT(0) + g(0), L, g(0) as a mean over n
   messages) to 6 significant digits.  --precision N rounds further.
   Both take microseconds; the summary's values are derived ones.  */
static void
format_time_us (double res, double us, char *buf)
{
  num_format_measured (us, res * US, tsv_precision, buf);
}

static void
format_derived_us (double us, char *buf)
{
  int sig = tsv_precision > 0 && tsv_precision < NUM_DERIVED_DIGITS
    ? tsv_precision : NUM_DERIVED_DIGITS;
  num_format_measured (us, 0, sig, buf);
}

static void
put_time_us (tsv_writer *w, double res, double us)
{
  char buf[NUM_BUFSIZE];
  format_time_us (res, us, buf);
  tsv_put_str (w, buf);
}

static void
put_derived_us (tsv_writer *w, double us)
{
  char buf[NUM_BUFSIZE];
  format_derived_us (us, buf);
  tsv_put_str (w, buf);
}

/* Is field F of a result row a value derived from several times?  */
static int
derived_field (int f)
{
  return (f >= R_G && f <= R_G_HI) || (f >= R_GSAT && f <= R_GSAT_HI)
         || f == R_L || f == R_G0;
}

/* Row R (seconds) with every time replaced by the value its printed
   text has, so that the row's check agrees with what a reader sees.  */
static void
shown_row (const double *r, double *out, double res)
{
  for (int f = 0; f < R_NF; f++)
    {
      out[f] = r[f];
      if (f < R_OS || f == R_REPS || f == R_STOP || f == R_GSAT_N
          || f == R_GSAT_STOP || !isfinite (r[f]))
        continue;
      char buf[NUM_BUFSIZE];
      double v;
      if (derived_field (f))
        format_derived_us (r[f] * US, buf);
      else
        format_time_us (res, r[f] * US, buf);
      if (num_parse_str (buf, &v) == NUM_OK)
        out[f] = v / US;
    }
}

static const char *
stop_name (double code)
{
  return stats_stop_name ((enum stats_stop) (int) code);
}

/* g(m) >= o_s(m) and g(m) >= o_r(m) within the intervals (Section 2);
   o_r > g is Section 3.1's unexpected-message effect.  L >= 0: a
   saturated g(0) above RTT(0)/2 contradicts the model.  g(m) >= 0: the
   derived g(m) = RTT(m) - RTT(0) + g(0) falls below 0 when a tiny size's
   round trip is measured faster than the empty one's (timer noise);
   dag-predict -m plogp holds such a gap as 0.  */
static const char *
row_check (const double *r, char *buf, size_t len)
{
  const char *fail[4];
  int n = 0;
  if (!(r[R_G_HI] >= r[R_OS_LO]))
    fail[n++] = "g_lt_os";
  if (!(r[R_G_HI] >= r[R_OR_LO]))
    fail[n++] = "g_lt_or";
  if (!(r[R_L] >= 0))
    fail[n++] = "L_neg";
  if (r[R_G] < 0)
    fail[n++] = "g_neg";
  if (!n)
    return "ok";
  buf[0] = '\0';
  for (int i = 0; i < n; i++)
    snprintf (buf + strlen (buf), len - strlen (buf), "%s%s", i ? "," : "",
              fail[i]);
  return buf;
}

static void
write_rows (tsv_writer *w, struct lm_result *res, size_t nres,
            const struct lm_config *c)
{
  const char *cols[40];
  size_t n = 0;
  const char *base[] = { "src", "dst", "bytes", "origin", "os", "os_ci_lo",
    "os_ci_hi", "or", "or_ci_lo", "or_ci_hi", "g", "g_ci_lo", "g_ci_hi",
    "rtt", "rtt_ci_lo", "rtt_ci_hi", "reps", "stop", "L", "g0", "check" };
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
    cols[n++] = base[i];
  if (c->o.expected)
    {
      cols[n++] = "or_exp";
      cols[n++] = "or_exp_ci_lo";
      cols[n++] = "or_exp_ci_hi";
    }
  if (c->o.saturate)
    {
      cols[n++] = "g_sat";
      cols[n++] = "g_sat_ci_lo";
      cols[n++] = "g_sat_ci_hi";
      cols[n++] = "g_sat_n";
      cols[n++] = "g_sat_stop";
    }
  tsv_write_header (w, n, cols);
  for (size_t p = 0; p < nres; p++)
    for (size_t k = 0; k < res[p].nrows; k++)
      {
        double r[R_NF];
        shown_row (res[p].rows + k * R_NF, r, c->timer_res);
        tsv_put_int (w, (int64_t) r[R_SRC]);
        tsv_put_int (w, (int64_t) r[R_DST]);
        tsv_put_int (w, (int64_t) r[R_BYTES]);
        tsv_put_str (w, logp_origin_name ((enum logp_origin) (int)
                                          r[R_ORIGIN]));
        for (int f = R_OS; f <= R_RTT_HI; f++)
          if (derived_field (f))
            put_derived_us (w, r[f] * US);
          else
            put_time_us (w, c->timer_res, r[f] * US);
        tsv_put_int (w, (int64_t) r[R_REPS]);
        tsv_put_str (w, stop_name (r[R_STOP]));
        put_derived_us (w, r[R_L] * US);
        put_derived_us (w, r[R_G0] * US);
        char check[64];
        tsv_put_str (w, row_check (r, check, sizeof check));
        if (r[R_L] < 0)
          warn_once ("L_neg", "pair %d->%d: L = (RTT(0) - 2 g(0))/2 < 0: "
                     "the saturated g(0) exceeds RTT(0)/2 (rows flagged "
                     "L_neg)", (int) r[R_SRC], (int) r[R_DST]);
        if (r[R_G] < 0)
          warn_once ("g_neg", "pair %d->%d: g(m) = RTT(m) - RTT(0) + g(0) "
                     "< 0 at some size: its round trip was measured below "
                     "the empty one's (rows flagged g_neg)",
                     (int) r[R_SRC], (int) r[R_DST]);
        if (c->o.expected)
          for (int f = R_OREXP; f <= R_OREXP_HI; f++)
            put_time_us (w, c->timer_res, r[f] * US);
        if (c->o.saturate)
          {
            for (int f = R_GSAT; f <= R_GSAT_HI; f++)
              put_derived_us (w, r[f] * US);
            tsv_put_int (w, (int64_t) r[R_GSAT_N]);
            tsv_put_str (w, stop_name (r[R_GSAT_STOP]));
          }
        tsv_end_row (w);
      }
}

static void
write_raw (tsv_writer *w, struct lm_result *res, size_t nres,
           const struct logp_pair *pairs, double timer_res)
{
  static const char *const qname[Q_NQTY] = { "os", "rtt", "or", "or_exp",
                                             "rtt_n" };
  const char *cols[] = { "src", "dst", "bytes", "quantity", "n", "rep", "t" };
  tsv_write_header (w, 7, cols);
  for (size_t p = 0; p < nres; p++)
    for (size_t k = 0; k < res[p].nsamples; k++)
      {
        const double *s = res[p].samples + k * S_NF;
        tsv_put_int (w, pairs[p].src);
        tsv_put_int (w, pairs[p].dst);
        tsv_put_int (w, (int64_t) s[S_BYTES]);
        tsv_put_str (w, qname[(int) s[S_QTY]]);
        tsv_put_int (w, (int64_t) s[S_N]);
        tsv_put_int (w, (int64_t) s[S_REP]);
        put_time_us (w, timer_res, s[S_T] * US);
        tsv_end_row (w);
      }
}

static void
to_logp_rows (const struct lm_result *r, struct logp_row *out)
{
  for (size_t k = 0; k < r->nrows; k++)
    {
      const double *x = r->rows + k * R_NF;
      out[k].bytes = (int64_t) x[R_BYTES];
#define EST(dst, at) \
      out[k].dst.med = x[at] * US, out[k].dst.lo = x[at + 1] * US, \
      out[k].dst.hi = x[at + 2] * US
      EST (os, R_OS);
      EST (o_r, R_OR);
      EST (g, R_G);
      EST (rtt, R_RTT);
      EST (or_exp, R_OREXP);
#undef EST
    }
}

/* The LogGP summary (Table 1 with the rules of logp_params.h) of one
   pair's result R, times in microseconds.  */
void
lm_summarize (const struct lm_result *r, const struct lm_config *c,
              struct loggp *out)
{
  struct logp_row *rows = calloc (r->nrows + 1, sizeof *rows);
  if (rows == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  to_logp_rows (r, rows);
  struct loggp_cfg cfg;
  memset (&cfg, 0, sizeof cfg);
  cfg.short_size = c->o.min_bytes;
  cfg.tick = c->o.tick * US;
  cfg.max_segments = 6;
  cfg.cpu_wait = r->head[H_CPU_WAIT];
  cfg.L_p.med = cfg.L_p.lo = cfg.L_p.hi = NAN;
  if (r->nrows)
    {
      /* L_p = (RTT(0) - 2 g(0))/2 (Section 3), its interval from those of
         RTT(0) and g(0) (the row of size 0).  */
      double L = r->rows[R_L] * US, hw = 0;
      for (size_t k = 0; k < r->nrows; k++)
        if (rows[k].bytes == 0)
          hw = (rows[k].rtt.hi - rows[k].rtt.lo) / 4
               + (rows[k].g.hi - rows[k].g.lo) / 2;
      if (!(hw >= 0) || !isfinite (hw))
        hw = 0;
      cfg.L_p.med = L;
      cfg.L_p.lo = L - hw;
      cfg.L_p.hi = L + hw;
    }
  if (loggp_derive (rows, r->nrows, &cfg, out) < 0)
    mpu_die (EXIT_DATA, "out of memory while deriving the LogGP parameters");
  out->S = r->head[H_S];
  free (rows);
}

/* V to 6 significant digits (a derived value: msgperf(7), NUMBERS), or to
   --precision when that is given.  */
static void
put_derived (tsv_writer *w, double v)
{
  if (!isfinite (v))
    {
      tsv_put_na (w);
      return;
    }
  char buf[NUM_BUFSIZE];
  num_format (v, tsv_precision >= 1 ? tsv_precision : 6, buf);
  tsv_put_str (w, buf);
}

static const char *
sig6 (double v, char *buf)
{
  if (!isfinite (v))
    return "NA";
  num_format (v, 6, buf);
  return buf;
}

/* What the checks of one summary found, by how much (metadata).  */
static void
summary_meta (tsv_writer *w, const struct loggp *s, const char *who)
{
  char a[NUM_BUFSIZE], b[NUM_BUFSIZE], d[NUM_BUFSIZE], e[NUM_BUFSIZE];
  char f[NUM_BUFSIZE], h[NUM_BUFSIZE];
  tsv_meta (w, "G_fit", "%s: bytes %lld..%lld (%zu sizes, last of %zu "
            "segments), G %s, intercept %s, halves %s and %s (tolerance "
            "%s), g(m)/m at %lld: %s", who, (long long) s->fit_from,
            (long long) s->fit_to, s->fit_n, s->segments, sig6 (s->G, a),
            sig6 (s->G_intercept, b), sig6 (s->G_lo, d), sig6 (s->G_hi, e),
            sig6 (s->G_tol, f), (long long) s->fit_to,
            sig6 (s->g_over_m, h));
  if (isfinite (s->cpu_wait))
    tsv_meta (w, "check_cpu", "%s: the ranks waited for a CPU %s of the "
              "time (limit %g): %s", who, sig6 (s->cpu_wait, a),
              LOGGP_CPU_WAIT_MAX, s->flags & LOGGP_CPU_SHARED
              ? "cores shared, every parameter may be off (cpu_shared)"
              : "ok");
  if (s->flags & LOGGP_NO_SMALL)
    return;
  tsv_meta (w, "check_g", "%s: max(os, or) - g(1) = %s (tolerance %s): %s",
            who, sig6 (s->g_excess, a), sig6 (s->g_tol, b),
            s->g_excess <= 0 ? "g >= os, or"
            : s->flags & LOGGP_G_RAISED ? "g raised (g_raised)"
            : "g raised within the tolerance");
  tsv_meta (w, "check_L", "%s: Table 1 L = %s (tolerance %s): %s", who,
            sig6 (s->L_table, a), sig6 (s->L_tol, b),
            s->L_table >= 0 ? "L >= 0"
            : s->flags & LOGGP_L_CLAMPED ? "clamped to 0 (L_clamped)"
            : "clamped to 0 within the tolerance");
  tsv_meta (w, "L_rtt", "%s: RTT(1)/2 - o = %s", who, sig6 (s->L_rtt, a));
}

/* The quantities of the summary with a spread column under --repeat.  */
enum { SP_L, SP_O, SP_G, SP_BIGG, SP_N };

static void
write_summary (tsv_writer *w, const struct loggp *sum, size_t nres,
               const struct logp_pair *pairs, const struct lm_config *c)
{
  const char *cols[32] = { "src", "dst", "P", "L", "o", "g", "G", "os",
                           "or", "g_raw", "L_table", "G_intercept", "S",
                           "check" };
  size_t ncol = 14;
  static const char *const spread[] = { "L_min", "L_max", "o_min", "o_max",
                                        "g_min", "g_max", "G_min", "G_max" };
  size_t nrep = (size_t) c->repeat;
  if (c->repeat_text)
    {
      cols[ncol++] = "runs";
      for (size_t k = 0; k < sizeof spread / sizeof spread[0]; k++)
        cols[ncol++] = spread[k];
      tsv_meta (w, "repeat", "%s", c->repeat_text);
    }
  for (size_t p = 0; p < nres; p++)
    for (size_t r = 0; r < nrep; r++)
      {
        char who[64];
        if (nrep > 1)
          snprintf (who, sizeof who, "pair %d->%d run %zu", pairs[p].src,
                    pairs[p].dst, r + 1);
        else
          snprintf (who, sizeof who, "pair %d->%d", pairs[p].src,
                    pairs[p].dst);
        summary_meta (w, &sum[r * nres + p], who);
      }
  tsv_write_header (w, ncol, cols);
  double *v = malloc ((nrep + 1) * sizeof *v);
  if (v == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  for (size_t p = 0; p < nres; p++)
    {
      /* One run: its values; several: the medians, the flags of any.  */
      double med[9], lo[SP_N], hi[SP_N];
      unsigned flags = 0;
      for (size_t r = 0; r < nrep; r++)
        flags |= sum[r * nres + p].flags;
      /* In column order; the first SP_N have spread columns.  */
      for (int q = 0; q < 9; q++)
        {
          for (size_t r = 0; r < nrep; r++)
            {
              const struct loggp *s = &sum[r * nres + p];
              const double x[9] = { s->L, s->o, s->g, s->G, s->os, s->o_r,
                                    s->g_raw, s->L_table, s->G_intercept };
              v[r] = x[q];
            }
          double mn, mx;
          loggp_spread (v, nrep, &med[q], &mn, &mx);
          if (q < SP_N)
            lo[q] = mn, hi[q] = mx;
        }
      /* S in bytes, the median of the runs to the byte below.  */
      double S, smin, smax;
      for (size_t r = 0; r < nrep; r++)
        v[r] = sum[r * nres + p].S;
      loggp_spread (v, nrep, &S, &smin, &smax);
      char check[128];
      loggp_check_text (flags, check, sizeof check);
      if (flags)
        warn ("pair %d->%d: LogGP summary flagged (%s): logp-measure(1) "
              "gives the rule behind each flagged value", pairs[p].src,
              pairs[p].dst, check);
      tsv_put_int (w, pairs[p].src);
      tsv_put_int (w, pairs[p].dst);
      tsv_put_int (w, mpu_size);
      for (int q = 0; q < 9; q++)
        put_derived (w, med[q]);
      if (isfinite (S))
        tsv_put_int (w, (int64_t) floor (S));
      else
        tsv_put_na (w);
      tsv_put_str (w, check);
      if (c->repeat_text)
        {
          tsv_put_int (w, (int64_t) nrep);
          for (int q = 0; q < SP_N; q++)
            {
              put_derived (w, lo[q]);
              put_derived (w, hi[q]);
            }
        }
      tsv_end_row (w);
    }
  free (v);
}

/* "#@KEY=V" with V in the shortest round-trip form.  */
static void
meta_num (tsv_writer *w, const char *key, double v)
{
  char buf[NUM_BUFSIZE];
  num_format (v, -1, buf);
  tsv_meta (w, key, "%s", buf);
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* A --classes value V (us) of parameter C->class_by: L, g0 and g are
   derived from several times (6 significant digits), os, or and rtt
   are timer readings (the timer's resolution); MEAN: a mean of two.  */
static void
put_class_value (tsv_writer *w, const struct lm_config *c, double v, int mean)
{
  int derived = c->class_by == CP_L || c->class_by == CP_G0
                || c->class_by == CP_G;
  if (derived || mean)
    put_derived_us (w, v);
  else
    put_time_us (w, c->timer_res, v);
}

/* --classes: one row per class of the bin packet CLASSES (rank 0's
   result of gather_classes), in key order (not measured, not positive,
   then the positive classes from the smallest value up).  */
static void
write_classes (tsv_writer *w, const struct lm_result *res, size_t nres,
               const struct logp_pair *pairs, const struct lm_config *c,
               const struct tf_buf *classes)
{
  const char *cols[] = { "class", "param", "bytes", "lo", "hi", "value",
                         "min", "max", "count", "members" };
  const char *param = lm_class_param_name[c->class_by];
  tsv_meta (w, "classes", "%zu (of %zu links, by %s; each [lo, hi) spans "
            "a factor 1+W)", tf_bin_nclasses (classes->v, classes->len),
            nres, param);
  meta_num (w, "class_width", c->class_width);
  tsv_write_header (w, sizeof cols / sizeof cols[0], cols);
  double *vals = malloc ((nres + 1) * sizeof (double));
  size_t mlen = 0, mcap = 64;
  char *members = malloc (mcap);
  if (vals == NULL || members == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  size_t nclass = 0;
  for (size_t i = 0; i + 2 <= classes->len; nclass++)
    {
      double key = classes->v[i];
      size_t count = (size_t) classes->v[i + 1], nv = 0;
      const double *ids = classes->v + i + 2;
      i += 2 + count;
      if (i > classes->len)
        mpu_die (EXIT_DATA, "classes: bad packet");
      mlen = 0;
      members[0] = '\0';
      for (size_t k = 0; k < count; k++)
        {
          int src = (int) ids[k] / mpu_size, dst = (int) ids[k] % mpu_size;
          for (size_t p = 0; p < nres; p++)
            if (pairs[p].src == src && pairs[p].dst == dst)
              {
                double v = lm_class_value (c, &res[p]);
                if (isfinite (v))
                  vals[nv++] = v;
              }
          char one[64];
          int n = snprintf (one, sizeof one, "%s%d-%d", k ? "," : "", src,
                            dst);
          while (mlen + (size_t) n + 1 > mcap)
            {
              char *m = realloc (members, mcap *= 2);
              if (m == NULL)
                mpu_die (EXIT_DATA, "out of memory");
              members = m;
            }
          memcpy (members + mlen, one, (size_t) n + 1);
          mlen += (size_t) n;
        }
      qsort (vals, nv, sizeof *vals, cmp_double);
      double lo = NAN, hi = NAN;
      if (key == LOGP_CLASS_NONPOS)
        hi = 0;
      else if (key != LOGP_CLASS_NA)
        logp_class_bounds (key, c->class_width, &lo, &hi);
      if (key == LOGP_CLASS_NA && c->class_by <= CP_G0)
        warn ("%zu link(s) have no %s: class %zu (value NA)", count, param,
              nclass + 1);
      else if (key == LOGP_CLASS_NA)
        warn ("%zu link(s) have no %s at %lld bytes (--class-bytes; not a "
              "measured size): class %zu (value NA)", count, param,
              (long long) c->class_bytes, nclass + 1);
      tsv_put_int (w, (int64_t) nclass + 1);
      tsv_put_str (w, param);
      if (c->class_by <= CP_G0)
        tsv_put_num (w, NAN);
      else
        tsv_put_int (w, c->class_bytes);
      tsv_put_num (w, lo);
      tsv_put_num (w, hi);
      /* The median, smallest and largest of the members' values, with
         the digits those have (timer readings or derived values);
         the median of an even count is a mean: 6 digits.  */
      double med = nv == 0 ? NAN : nv % 2 ? vals[nv / 2]
                   : (vals[nv / 2 - 1] + vals[nv / 2]) / 2;
      put_class_value (w, c, med, nv > 0 && nv % 2 == 0);
      put_class_value (w, c, nv ? vals[0] : NAN, 0);
      put_class_value (w, c, nv ? vals[nv - 1] : NAN, 0);
      tsv_put_int (w, (int64_t) count);
      tsv_put_str (w, members);
      tsv_end_row (w);
    }
  free (vals);
  free (members);
}

/* The time limit of the size selection, and each pair it stopped.  */
static void
meta_time_limit (tsv_writer *w, const struct lm_result *res, size_t nres,
                 const struct logp_pair *pairs, const struct lm_config *c)
{
  if (c->time_limit_text)
    tsv_meta (w, "time_limit_s", "%s", c->time_limit_text);
  else
    meta_num (w, "time_limit_s", c->o.time_limit);
  for (size_t p = 0; p < nres; p++)
    {
      const double *h = res[p].head;
      if ((int) h[H_LIMITED] == LOGP_STAGE_NONE)
        continue;
      char t[NUM_BUFSIZE];
      num_format_measured (h[H_T_SELECT], c->timer_res, NUM_DERIVED_DIGITS,
                           t);
      tsv_meta (w, "time_limit_reached", "pair %d %d: size selection "
                "stopped at the time limit after %s s (%s stage, before "
                "bytes %lld)%s", pairs[p].src, pairs[p].dst, t,
                logp_stage_name ((enum logp_stage) (int) h[H_LIMITED]),
                (long long) h[H_SKIPPED],
                (int) h[H_LIMITED] == LOGP_STAGE_GROWTH
                ? ": g(m)/m was still falling" : "");
    }
  if (c->limited_runs > 0 && c->repeat > 1)
    tsv_meta (w, "time_limit_runs", "%zu of %lld runs x %zu pairs stopped "
              "at the time limit", c->limited_runs, (long long) c->repeat,
              nres);
}

/* One line per pair (its hosts, L, g0, sizes), summing the phases' times
   into *T_G0, *T_SIZES, *T_SAT.  */
static void
meta_pairs (tsv_writer *w, const struct lm_result *res, size_t nres,
            const struct logp_pair *pairs, const char *hosts, double *t_g0,
            double *t_sizes, double *t_sat, double *t_eager)
{
  for (size_t p = 0; p < nres; p++)
    {
      const double *h = res[p].head;
      int s = pairs[p].src, d = pairs[p].dst;
      double L = res[p].nrows ? res[p].rows[R_L] : NAN;
      double g0 = res[p].nrows ? res[p].rows[R_G0] : NAN;
      char a[NUM_BUFSIZE], b[NUM_BUFSIZE], cw[NUM_BUFSIZE];
      num_format_measured (L * US, 0, NUM_DERIVED_DIGITS, a);
      num_format_measured (g0 * US, 0, NUM_DERIVED_DIGITS, b);
      num_format_measured (h[H_CPU_WAIT], 0, 3, cw);
      tsv_meta (w, "pair", "%d %d hosts=%s,%s L=%s g0=%s g0_messages=%lld "
                "g0_stop=%s sizes=%zu grown=%lld refined=%lld cpu_wait=%s",
                s, d,
                hosts + (size_t) s * MPI_MAX_PROCESSOR_NAME,
                hosts + (size_t) d * MPI_MAX_PROCESSOR_NAME, a, b,
                (long long) h[H_G0_N], stop_name (h[H_G0_STOP]),
                res[p].nrows, (long long) h[H_NGROWN],
                (long long) h[H_NREFINED], cw);
      if (isfinite (h[H_S]))
        {
          char bz[NUM_BUFSIZE];
          num_format_measured (h[H_S_BUSY] * US, 0, NUM_DERIVED_DIGITS,
                               bz);
          tsv_meta (w, "eager", "%d %d S=%lld first_wait=%lld busy=%s "
                    "probes=%lld disputed=%lld%s", s, d, (long long) h[H_S],
                    (long long) h[H_S_WAIT], bz, (long long) h[H_S_PROBES],
                    (long long) h[H_S_DISPUTED],
                    h[H_S_WAIT] < 0 ? " (no size up to --max-bytes waited: "
                    "S is a lower bound)" : "");
        }
      if (nres == 1)
        {
          tsv_meta (w, "L", "%s", a);
          tsv_meta (w, "g0", "%s", b);
          if (isfinite (h[H_S]))
            tsv_meta (w, "S", "%lld", (long long) h[H_S]);
        }
      *t_g0 += h[H_T_G0];
      *t_sizes += h[H_T_SIZES];
      *t_sat += h[H_T_SAT];
      *t_eager += h[H_T_EAGER];
    }
}

void
lm_write_output (struct lm_result *res, size_t nres,
                 const struct logp_pair *pairs, const struct lm_config *c,
                 const char *hosts, double total, double t_gather,
                 double load0, double load1, const struct tf_buf *classes,
                 const struct loggp *sum)
{
  tsv_writer *w = mpu_rank == 0 ? tsv_writer_open (NULL) : NULL;
  if (w)
    tsv_write_tool_meta (w, NULL);
  mpu_write_meta (w);   /* collective */
  if (mpu_rank != 0)
    return;
  tsv_meta_time_unit (w, "us");
  tsv_meta (w, "method", "Kielmann, Bal, Verstoep fast LogP measurement%s",
            c->o.saturate ? ", and g(m) by saturation" : "");
  meta_num (w, "epsilon", c->o.eps);
  tsv_meta (w, "buffers", "bytes=%zu page=%zu send_page_offset=%zu "
            "recv_page_offset=%zu cache_line=%zu shared_lines=%zu "
            "overlap=%d", c->buf_layout.bytes, c->buf_layout.page,
            c->buf_layout.send_page_offset, c->buf_layout.recv_page_offset,
            c->buf_layout.line, c->buf_layout.shared_lines,
            c->buf_layout.overlap);
  tsv_meta (w, "seed", "%llu", (unsigned long long) c->seed);
  tsv_meta (w, "sizes_bytes", "%lld..%lld (start %lld)",
            (long long) c->o.min_bytes, (long long) c->o.max_bytes,
            (long long) c->o.start_max);
  tsv_meta (w, "max_reps", "%lld small, %lld from %lld bytes",
            (long long) c->o.max_reps, (long long) c->o.max_reps_large,
            (long long) c->o.large_bytes);
  tsv_meta (w, "pairs", "%zu", nres);
  meta_time_limit (w, res, nres, pairs, c);
  double t_g0 = 0, t_sizes = 0, t_sat = 0, t_eager = 0;
  meta_pairs (w, res, nres, pairs, hosts, &t_g0, &t_sizes, &t_sat,
              &t_eager);
  meta_num (w, "phase_g0_s", t_g0);
  meta_num (w, "phase_sizes_s", t_sizes);
  if (c->o.saturate)
    meta_num (w, "phase_saturate_s", t_sat);
  if (c->o.eager)
    meta_num (w, "phase_eager_s", t_eager);
  meta_num (w, "time_total_s", total);
  tsv_meta (w, "gather", "overlay %s, concat filter%s", c->topology,
            c->classes ? ", bin filter" : "");
  meta_num (w, "phase_gather_s", t_gather);
  if (isfinite (load0) && isfinite (load1))
    {
      char a[NUM_BUFSIZE], b[NUM_BUFSIZE];
      num_format (load0, -1, a);
      num_format (load1, -1, b);
      tsv_meta (w, "load_average", "%s at start, %s at end (rank 0's host, "
                "1 minute)", a, b);
    }

  if (c->o.raw)
    write_raw (w, res, nres, pairs, c->timer_res);
  else if (c->summary)
    write_summary (w, sum, nres, pairs, c);
  else if (c->classes)
    write_classes (w, res, nres, pairs, c, classes);
  else
    write_rows (w, res, nres, c);
  tsv_writer_close (w);
}
