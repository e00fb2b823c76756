/* SPDX-License-Identifier: GPL-3.0-or-later */
/* treefilter.c: the transformation filters of a reduction tree
 * (treefilter.h; MRNet, SC'03, sections 2.4, 3.1 and 3.2).  */
#include <config.h>

#include "treefilter.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct tf_info tf_table[] = {
  { "sum", TF_SUM, "element-wise sum" },
  { "min", TF_MIN, "element-wise minimum" },
  { "max", TF_MAX, "element-wise maximum" },
  { "avg", TF_AVG, "element-wise average, carried as {sum, count}" },
  { "concat", TF_CONCAT, "every rank's values, as rows sorted by rank" },
  { "bin", TF_BIN, "equivalence classes {key, count, members}" },
  { "align", TF_ALIGN, "time-aligned sum of {value, start, end} samples" },
  { NULL, TF_SUM, NULL }
};

const struct tf_info *
tf_lookup (const char *name)
{
  for (const struct tf_info *f = tf_table; f->name; f++)
    if (strcmp (f->name, name) == 0)
      return f;
  return NULL;
}

const char tf_nomem[] = "out of memory while building a packet";

const char *
tf_names (void)
{
  return "sum, min, max, avg, concat, bin, align";
}

/* ---------------------------------------------------------------- buffers */

void
tf_buf_init (struct tf_buf *b)
{
  b->v = NULL;
  b->len = b->cap = 0;
}

void
tf_buf_free (struct tf_buf *b)
{
  free (b->v);
  tf_buf_init (b);
}

int
tf_buf_reserve (struct tf_buf *b, size_t cap)
{
  if (cap <= b->cap)
    return 0;
  size_t c = b->cap ? b->cap : 16;
  while (c < cap)
    {
      if (c > SIZE_MAX / 2 / sizeof (double))
        return -1;
      c *= 2;
    }
  double *v = realloc (b->v, c * sizeof (double));
  if (!v)
    return -1;
  b->v = v;
  b->cap = c;
  return 0;
}

int
tf_buf_append (struct tf_buf *b, const double *v, size_t n)
{
  if (n > SIZE_MAX - b->len || tf_buf_reserve (b, b->len + n) < 0)
    return -1;
  if (n)
    memcpy (b->v + b->len, v, n * sizeof (double));
  b->len += n;
  return 0;
}

/* ---------------------------------------------------------------- bin */

double
tf_bin_key (double v, double w)
{
  if (w > 0)
    return floor (v / w) * w;
  return v;
}

/* Walk a class list: the index after the class starting at I, or N+1
   when the class is malformed.  */
static size_t
bin_next (const double *v, size_t n, size_t i)
{
  if (i + 2 > n)
    return n + 1;
  double c = v[i + 1];
  if (!(c >= 1) || c != floor (c) || c > (double) (n - i - 2))
    return n + 1;
  return i + 2 + (size_t) c;
}

size_t
tf_bin_nclasses (const double *v, size_t n)
{
  size_t k = 0;
  for (size_t i = 0; i < n; i = bin_next (v, n, i))
    k++;
  return k;
}

static const char *
bin_check (const double *v, size_t n)
{
  double last = -INFINITY;
  for (size_t i = 0; i < n;)
    {
      size_t j = bin_next (v, n, i);
      if (j > n)
        return "malformed class list";
      if (!(v[i] > last))
        return "class keys not in increasing order";
      last = v[i];
      i = j;
    }
  return NULL;
}

/* Merge two sorted class lists A and B into OUT.  Returns 0, or -1 out of
   memory (OUT is then the caller's to free).  */
static int
bin_merge (const double *a, size_t na, const double *b, size_t nb,
           struct tf_buf *out)
{
  size_t i = 0, j = 0;
  out->len = 0;
  while (i < na || j < nb)
    {
      if (j >= nb || (i < na && a[i] < b[j]))
        {
          size_t e = bin_next (a, na, i);
          if (tf_buf_append (out, a + i, e - i) < 0)
            return -1;
          i = e;
        }
      else if (i >= na || b[j] < a[i])
        {
          size_t e = bin_next (b, nb, j);
          if (tf_buf_append (out, b + j, e - j) < 0)
            return -1;
          j = e;
        }
      else
        {
          /* Same key: add the counts, merge the sorted members.  */
          size_t ca = (size_t) a[i + 1], cb = (size_t) b[j + 1];
          double head[2] = { a[i], (double) (ca + cb) };
          const double *ma = a + i + 2, *mb = b + j + 2;
          size_t x = 0, y = 0;
          if (tf_buf_append (out, head, 2) < 0
              || tf_buf_reserve (out, out->len + ca + cb) < 0)
            return -1;
          while (x < ca || y < cb)
            {
              if (y >= cb || (x < ca && ma[x] <= mb[y]))
                out->v[out->len++] = ma[x++];
              else
                out->v[out->len++] = mb[y++];
            }
          i += 2 + ca;
          j += 2 + cb;
        }
    }
  return 0;
}

int
tf_bin_add (struct tf_buf *acc, double v, double w, double id)
{
  double one[3] = { tf_bin_key (v, w), 1, id };
  struct tf_buf out;
  tf_buf_init (&out);
  if (bin_merge (acc->v, acc->len, one, 3, &out) < 0)
    {
      tf_buf_free (&out);
      return -1;
    }
  free (acc->v);
  *acc = out;
  return 0;
}

/* ---------------------------------------------------------------- align */

const char *
tf_align_bins (const struct tf_sample *s, size_t n, double t0, double dt,
               size_t nbins, double *bins, double *outside)
{
  if (!(dt > 0) || !isfinite (t0) || !isfinite (dt))
    return "the interval length must be a positive number";
  for (size_t k = 0; k < n; k++)
    if (!isfinite (s[k].value) || !isfinite (s[k].start)
        || !isfinite (s[k].end) || !(s[k].end > s[k].start))
      return "a sample needs finite values and end > start";
  double t1 = t0 + dt * (double) nbins;
  for (size_t k = 0; k < n; k++)
    {
      double v = s[k].value, a = s[k].start, b = s[k].end;
      double len = b - a, given = 0;
      /* Overlap with each interval; the last interval touched gets what
         is left, so the parts add up to the value.  */
      double lo = a > t0 ? a : t0, hi = b < t1 ? b : t1;
      if (hi > lo && nbins > 0)
        {
          size_t i0 = (size_t) floor ((lo - t0) / dt);
          if (i0 >= nbins)
            i0 = nbins - 1;
          for (size_t i = i0; i < nbins; i++)
            {
              double ia = t0 + dt * (double) i, ib = ia + dt;
              if (ia >= hi)
                break;
              double oa = lo > ia ? lo : ia, ob = hi < ib ? hi : ib;
              if (ob > oa)
                {
                  double part = v * ((ob - oa) / len);
                  bins[i] += part;
                  given += part;
                }
            }
        }
      *outside += v - given;
    }
  return NULL;
}

void
tf_samples_free (struct tf_samples *s)
{
  free (s->v);
  s->v = NULL;
  s->len = s->cap = 0;
}

/* Room for one more sample in S: 0, or -1 out of memory (S unchanged).  */
static int
samples_room (struct tf_samples *s)
{
  if (s->len < s->cap)
    return 0;
  size_t cap = s->cap ? 2 * s->cap : 16;
  struct tf_sample *v = cap > SIZE_MAX / sizeof *v ? NULL
    : realloc (s->v, cap * sizeof *v);
  if (!v)
    return -1;
  s->v = v;
  s->cap = cap;
  return 0;
}

int
tf_aligner_init (struct tf_aligner *a, size_t ninputs, double t0, double dt)
{
  a->ninputs = 0;
  a->t0 = t0;
  a->dt = dt;
  a->cur = t0;
  a->in = calloc (ninputs ? ninputs : 1, sizeof *a->in);
  if (!a->in)
    return -1;
  a->ninputs = ninputs;
  for (size_t i = 0; i < ninputs; i++)
    a->in[i].covered = t0;
  return 0;
}

void
tf_aligner_free (struct tf_aligner *a)
{
  for (size_t i = 0; i < a->ninputs; i++)
    tf_samples_free (&a->in[i].q);
  free (a->in);
  a->in = NULL;
  a->ninputs = 0;
}

/* Take from input IN what falls in [cur, cur + dt): Figure 6c.  */
static double
attribute (struct tf_align_input *in, double lo, double hi)
{
  double got = 0;
  while (in->head < in->q.len)
    {
      struct tf_sample *s = &in->q.v[in->head];
      if (s->start >= hi)
        break;
      if (s->end <= hi)
        {
          got += s->value;      /* all that is left: nothing lost */
          in->head++;
          continue;
        }
      double part = s->value * ((hi - s->start) / (s->end - s->start));
      got += part;
      s->value -= part;
      s->start = hi;
      break;
    }
  (void) lo;
  if (in->head == in->q.len)
    in->head = in->q.len = 0;
  return got;
}

/* Emit the current output interval to OUT.  Room is made first, so that
   out of memory (-1) leaves the aligner as it was.  */
static int
emit (struct tf_aligner *a, struct tf_samples *out)
{
  if (samples_room (out) < 0)
    return -1;
  double lo = a->cur, hi = a->t0 + a->dt * (floor ((a->cur - a->t0)
                                                   / a->dt + 0.5) + 1);
  double sum = 0;
  for (size_t i = 0; i < a->ninputs; i++)
    sum += attribute (&a->in[i], lo, hi);
  struct tf_sample o = { sum, lo, hi };
  out->v[out->len++] = o;
  a->cur = hi;
  return 0;
}

static double
next_end (const struct tf_aligner *a)
{
  return a->t0 + a->dt * (floor ((a->cur - a->t0) / a->dt + 0.5) + 1);
}

const char *
tf_aligner_push (struct tf_aligner *a, size_t input, struct tf_sample s,
                 struct tf_samples *out)
{
  if (input >= a->ninputs)
    return "no such input";
  if (!isfinite (s.value) || !isfinite (s.start) || !isfinite (s.end)
      || !(s.end > s.start))
    return "a sample needs finite values and end > start";
  if (s.start < a->in[input].covered)
    return "sample starts before the end of the previous one on its input";
  if (s.start < a->cur)
    return "sample starts before the current output interval";
  if (samples_room (&a->in[input].q) < 0)
    return tf_nomem;
  a->in[input].q.v[a->in[input].q.len++] = s;
  a->in[input].covered = s.end;
  for (;;)
    {
      double hi = next_end (a);
      for (size_t i = 0; i < a->ninputs; i++)
        if (a->in[i].covered < hi)
          return NULL;
      if (emit (a, out) < 0)
        return tf_nomem;
    }
}

const char *
tf_aligner_flush (struct tf_aligner *a, struct tf_samples *out)
{
  for (;;)
    {
      int pending = 0;
      for (size_t i = 0; i < a->ninputs; i++)
        if (a->in[i].head < a->in[i].q.len)
          pending = 1;
      if (!pending)
        return NULL;
      if (emit (a, out) < 0)
        return tf_nomem;
    }
}

double
tf_aligner_pending (const struct tf_aligner *a)
{
  double sum = 0;
  for (size_t i = 0; i < a->ninputs; i++)
    for (size_t k = a->in[i].head; k < a->in[i].q.len; k++)
      sum += a->in[i].q.v[k].value;
  return sum;
}

/* ---------------------------------------------------------------- filters */

const char *
tf_local (enum tf_kind kind, const struct tf_params *p, int rank,
          const double *vals, struct tf_buf *out)
{
  size_t m = p->m;
  out->len = 0;
  for (size_t i = 0; i < m; i++)
    if (!isfinite (vals[i]))
      return "values must be finite";
  switch (kind)
    {
    case TF_SUM:
    case TF_MIN:
    case TF_MAX:
      return tf_buf_append (out, vals, m) < 0 ? tf_nomem : NULL;
    case TF_AVG:
      if (tf_buf_reserve (out, 2 * m) < 0)
        return tf_nomem;
      for (size_t i = 0; i < m; i++)
        {
          out->v[2 * i] = vals[i];
          out->v[2 * i + 1] = 1;
        }
      out->len = 2 * m;
      return NULL;
    case TF_CONCAT:
      {
        double r = rank;
        if (tf_buf_append (out, &r, 1) < 0
            || tf_buf_append (out, vals, m) < 0)
          return tf_nomem;
        return NULL;
      }
    case TF_BIN:
      if (!(p->bin_width >= 0))
        return "the bin width must be >= 0";
      for (size_t i = 0; i < m; i++)
        if (tf_bin_add (out, vals[i], p->bin_width, rank) < 0)
          return tf_nomem;
      return NULL;
    case TF_ALIGN:
      {
        if (m % 3 != 0)
          return "align needs {value, start, end} triples";
        struct tf_sample *s = malloc ((m / 3 + 1) * sizeof *s);
        if (!s || tf_buf_reserve (out, p->nbins + 1) < 0)
          {
            free (s);
            return tf_nomem;
          }
        memset (out->v, 0, (p->nbins + 1) * sizeof (double));
        out->len = p->nbins + 1;
        for (size_t i = 0; i < m / 3; i++)
          {
            s[i].value = vals[3 * i];
            s[i].start = vals[3 * i + 1];
            s[i].end = vals[3 * i + 2];
          }
        const char *e = tf_align_bins (s, m / 3, p->t0, p->dt, p->nbins,
                                       out->v, &out->v[p->nbins]);
        free (s);
        if (e)
          out->len = 0;
        return e;
      }
    }
  return "unknown filter";
}

const char *
tf_concat_rows (const struct tf_params *p, int rank, const double *rows,
                size_t nrows, struct tf_buf *out)
{
  out->len = 0;
  for (size_t i = 0; i < nrows * p->m; i++)
    if (!isfinite (rows[i]))
      return "values must be finite";
  if (tf_buf_reserve (out, nrows * (p->m + 1)) < 0)
    return tf_nomem;
  for (size_t i = 0; i < nrows; i++)
    {
      double r = rank;
      if (tf_buf_append (out, &r, 1) < 0
          || tf_buf_append (out, rows + i * p->m, p->m) < 0)
        return tf_nomem;
    }
  return NULL;
}

const char *
tf_combine (enum tf_kind kind, const struct tf_params *p, struct tf_buf *acc,
            const double *in, size_t n)
{
  switch (kind)
    {
    case TF_SUM:
    case TF_ALIGN:
      if (n != acc->len)
        return "packet length differs";
      for (size_t i = 0; i < n; i++)
        acc->v[i] += in[i];
      return NULL;
    case TF_MIN:
      if (n != acc->len)
        return "packet length differs";
      for (size_t i = 0; i < n; i++)
        if (in[i] < acc->v[i])
          acc->v[i] = in[i];
      return NULL;
    case TF_MAX:
      if (n != acc->len)
        return "packet length differs";
      for (size_t i = 0; i < n; i++)
        if (in[i] > acc->v[i])
          acc->v[i] = in[i];
      return NULL;
    case TF_AVG:
      if (n != acc->len || n % 2)
        return "packet length differs";
      for (size_t i = 0; i < n; i++)
        acc->v[i] += in[i];
      return NULL;
    case TF_CONCAT:
      if (n % (p->m + 1))
        return "packet is not a whole number of records";
      return tf_buf_append (acc, in, n) < 0 ? tf_nomem : NULL;
    case TF_BIN:
      {
        const char *e = bin_check (in, n);
        if (e)
          return e;
        struct tf_buf out;
        tf_buf_init (&out);
        if (bin_merge (acc->v, acc->len, in, n, &out) < 0)
          {
            tf_buf_free (&out);
            return tf_nomem;
          }
        free (acc->v);
        *acc = out;
        return NULL;
      }
    }
  return "unknown filter";
}

/* Order of {rank, index} pairs: by rank, then by arrival (stable).  */
static int
cmp_record (const void *a, const void *b)
{
  const double *x = a, *y = b;
  if (x[0] != y[0])
    return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

const char *
tf_finish (enum tf_kind kind, const struct tf_params *p, struct tf_buf *acc)
{
  if (kind == TF_AVG)
    {
      size_t m = acc->len / 2;
      for (size_t i = 0; i < m; i++)
        acc->v[i] = acc->v[2 * i] / acc->v[2 * i + 1];
      acc->len = m;
    }
  else if (kind == TF_CONCAT)
    {
      size_t w = p->m + 1, nrec = acc->len / w;
      /* Sort an index by rank, then permute.  */
      double *key = malloc ((nrec + 1) * 2 * sizeof (double));
      double *copy = malloc ((acc->len + 1) * sizeof (double));
      if (!key || !copy)
        {
          free (key);
          free (copy);
          return tf_nomem;
        }
      for (size_t i = 0; i < nrec; i++)
        {
          key[2 * i] = acc->v[i * w];
          key[2 * i + 1] = (double) i;
        }
      qsort (key, nrec, 2 * sizeof (double), cmp_record);
      memcpy (copy, acc->v, acc->len * sizeof (double));
      for (size_t i = 0; i < nrec; i++)
        memcpy (acc->v + i * w, copy + (size_t) key[2 * i + 1] * w,
                w * sizeof (double));
      free (key);
      free (copy);
    }
  return NULL;
}
