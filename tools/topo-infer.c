/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topo-infer: the switches, their hosts and the links' rates of a
 * cluster, inferred from pair-measure's stream (the pairs alone and two
 * at a time), written as the topology file of dag-predict --network
 * topology:FILE.  The inference is common/models/topo/topo_infer.c;
 * here: read the stream, pair the rows of each two-pair test, write.
 * A pair's two directions measured at once (an exchange: with_src =
 * dst, with_dst = src) say whether a host's link carries both at once
 * (common/models/topo/topo_duplex.c): the topology file then has a
 * duplex column.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "num.h"
#include "topo_infer.h"
#include "tsv.h"
#include "xalloc.h"

#define PROGRAM "topo-infer"

static char *opt_slow, *opt_min_share;
static int opt_rates;

static struct poptOption options[] = {
  { "slow", '\0', POPT_ARG_STRING, &opt_slow, 0,
    "a two-pair test was slowed when its pairs got less than this share "
    "of their rates alone (default 0.75)", "X" },
  { "min-share", '\0', POPT_ARG_STRING, &opt_min_share, 0,
    "a pair crosses a shared link when this share of its tests, and one "
    "at least, were slowed (default 0.1)", "X" },
  { "rates", '\0', POPT_ARG_NONE, &opt_rates, 0,
    "write each link's rate in Mbit/s and its evidence instead of the "
    "topology file", NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* One row of a two-pair test, keyed by its pairs in a fixed order.  */
struct half
{
  int p[4];      /* the test's pairs, the lower (src, dst) first */
  int first;     /* 1: this row is the lower pair's */
  double rate;
  long line;
};

static int
cmp_half (const void *x, const void *y)
{
  const struct half *a = x, *b = y;
  for (int i = 0; i < 4; i++)
    if (a->p[i] != b->p[i])
      return (a->p[i] > b->p[i]) - (a->p[i] < b->p[i]);
  return b->first - a->first;
}

struct input
{
  int n;
  double *solo;       /* n * n sums, then means */
  int *nsolo;
  struct half *h;
  size_t nh, caph;
  struct topo_conc *ex;  /* the exchanges: a -> b at r_ab, b -> a r_cd */
  size_t nex, capex;
};

/* The row a -> b of the exchange of a and b at rate V.  */
static void
add_exchange (struct input *in, int a, int b, double v)
{
  int lo = a < b ? a : b, hi = a < b ? b : a;
  for (size_t i = 0; i < in->nex; i++)
    if (in->ex[i].a == lo && in->ex[i].b == hi)
      {
        if (a == lo)
          in->ex[i].r_ab = v;
        else
          in->ex[i].r_cd = v;
        return;
      }
  if (in->nex == in->capex)
    {
      in->capex = in->capex ? 2 * in->capex : 64;
      in->ex = xrealloc (in->ex, in->capex * sizeof *in->ex);
    }
  in->ex[in->nex++] = (struct topo_conc) { lo, hi, hi, lo,
                                           a == lo ? v : NAN,
                                           a == lo ? NAN : v };
}

static int
rank_field (tsv_reader *r, size_t col)
{
  int64_t v = tsv_int (r, col);
  if (v < 0 || v > 65535)
    tsv_die_field (r, col, "rank '%s' out of range (0 to 65535)",
                   tsv_field (r, col));
  return (int) v;
}

/* Grow the matrices to hold rank K.  */
static void
grow (struct input *in, int k)
{
  if (k < in->n)
    return;
  int n = k + 1;
  double *s = xcalloc ((size_t) n * n, sizeof *s);
  int *c = xcalloc ((size_t) n * n, sizeof *c);
  for (int a = 0; a < in->n; a++)
    for (int b = 0; b < in->n; b++)
      {
        s[a * n + b] = in->solo[a * in->n + b];
        c[a * n + b] = in->nsolo[a * in->n + b];
      }
  free (in->solo);
  free (in->nsolo);
  in->solo = s;
  in->nsolo = c;
  in->n = n;
}

static void
read_rows (tsv_reader *r, struct input *in)
{
  size_t cs = tsv_col_required (r, "src"), cd = tsv_col_required (r, "dst");
  size_t ws = tsv_col_required (r, "with_src");
  size_t wd = tsv_col_required (r, "with_dst");
  size_t cr = tsv_col_required (r, "mbit_s");
  while (tsv_next (r))
    {
      int a = rank_field (r, cs), b = rank_field (r, cd);
      if (a == b)
        tsv_die_field (r, cd, "a pair from rank %d to itself", a);
      double v = tsv_num (r, cr, 1);
      if (v <= 0)
        tsv_die_field (r, cr, "rate '%s' is not positive", tsv_field (r, cr));
      grow (in, a > b ? a : b);
      if (tsv_is_na (r, ws) != tsv_is_na (r, wd))
        tsv_die_field (r, tsv_is_na (r, ws) ? ws : wd,
                       "with_src and with_dst must both be NA or ranks");
      if (tsv_is_na (r, ws))
        {
          if (!isnan (v))
            {
              in->solo[a * in->n + b] += v;
              in->nsolo[a * in->n + b]++;
            }
          continue;
        }
      int c = rank_field (r, ws), d = rank_field (r, wd);
      if (c == b && d == a)
        {
          if (!isnan (v))
            add_exchange (in, a, b, v);
          continue;
        }
      if (c == a || c == b || d == a || d == b || c == d)
        tsv_die_field (r, ws, "the pairs %d -> %d and %d -> %d of a test "
                       "must have four distinct ranks, or be a pair's two "
                       "directions", a, b, c, d);
      grow (in, c > d ? c : d);
      if (in->nh == in->caph)
        {
          in->caph = in->caph ? 2 * in->caph : 1024;
          in->h = xrealloc (in->h, in->caph * sizeof *in->h);
        }
      int lo = a < c || (a == c && b < d);
      struct half *h = &in->h[in->nh++];
      int q[4] = { a, b, c, d }, p[4] = { c, d, a, b };
      memcpy (h->p, lo ? q : p, sizeof h->p);
      h->first = lo;
      h->rate = v;
      h->line = tsv_lineno (r);
    }
}

/* The tests: the two rows of each, matched.  */
static struct topo_conc *
pair_rows (struct input *in, const char *name, size_t *nc)
{
  if (in->nh > 0)   /* (h is NULL without two-pair tests) */
    qsort (in->h, in->nh, sizeof *in->h, cmp_half);
  struct topo_conc *c = xmalloc ((in->nh / 2 + 1) * sizeof *c);
  size_t k = 0;
  /* the rows come in pairs: a test's two halves, one after the other */
  for (size_t i = 0; i < in->nh; i += 2)
    {
      struct half *x = &in->h[i], *y = i + 1 < in->nh ? &in->h[i + 1] : NULL;
      if (!x->first || !y || y->first || cmp_half (x, &(struct half)
          { { y->p[0], y->p[1], y->p[2], y->p[3] }, 1, 0, 0 }) != 0)
        die ("%s:%ld: the test of %d -> %d with %d -> %d has no row for "
             "its other pair (or several)", name, x->line,
             x->first ? x->p[0] : x->p[2], x->first ? x->p[1] : x->p[3],
             x->first ? x->p[2] : x->p[0], x->first ? x->p[3] : x->p[1]);
      c[k++] = (struct topo_conc) { x->p[0], x->p[1], x->p[2], x->p[3],
                                    x->rate, y->rate };
    }
  *nc = k;
  return c;
}

/* A value derived from measurements, to 6 digits (msgperf(7)).  */
static void
put_derived (tsv_writer *w, double v)
{
  char buf[NUM_BUFSIZE];
  num_format_measured (v, 0, NUM_DERIVED_DIGITS, buf);
  tsv_put_str (w, buf);
}

static const char *
node_name (const struct topo_inferred *t, int v, char *buf, size_t len)
{
  if (v < t->nhosts)
    snprintf (buf, len, "%d", v);
  else if (t->hidden && v == t->nhosts + t->nswitch - 1)
    snprintf (buf, len, "core");
  else
    snprintf (buf, len, "s%d", v - t->nhosts + 1);
  return buf;
}

/* HALF: per host, 1 when its link is half duplex; NULL: no duplex
   column (no exchange measured).  */
static void
write_topology (tsv_writer *w, const struct topo_inferred *t,
                const int *half)
{
  char buf[32], list[16];
  for (int s = 0; s < t->nswitch; s++)
    {
      size_t len = 0, cap = 64;
      char *hosts = xmalloc (cap);
      hosts[0] = '\0';
      for (int a = 0; a < t->nhosts; a++)
        if (t->sw[a] == s)
          {
            int k = snprintf (list, sizeof list, "%s%d", len ? " " : "", a);
            if (len + (size_t) k + 1 > cap)
              hosts = xrealloc (hosts, cap *= 2);
            memcpy (hosts + len, list, (size_t) k + 1);
            len += (size_t) k;
          }
      char key[48];
      snprintf (key, sizeof key, "switch_%s",
                node_name (t, t->nhosts + s, buf, sizeof buf));
      tsv_meta (w, key, "%s", len ? hosts : "(no host)");
      free (hosts);
    }
  static const char *const topo_cols[] = { "from", "to", "G", "L",
                                           "duplex" };
  static const char *const rate_cols[] = { "from", "to", "mbit_s", "obs",
                                           "bound" };
  if (!opt_rates)
    tsv_meta_time_unit (w, "us");
  tsv_write_header (w, opt_rates ? 5 : half ? 5 : 4,
                    opt_rates ? rate_cols : topo_cols);
  for (size_t i = 0; i < t->nlinks; i++)
    {
      const struct topo_link *l = &t->link[i];
      tsv_put_str (w, node_name (t, l->from, buf, sizeof buf));
      tsv_put_str (w, node_name (t, l->to, buf, sizeof buf));
      if (opt_rates)
        {
          put_derived (w, l->rate);
          tsv_put_int (w, (int64_t) l->nobs);
          tsv_put_str (w, l->bound ? "yes" : "no");
        }
      else
        {
          /* Mbit/s is bits per us: 8 / rate us per byte of payload */
          put_derived (w, 8 / l->rate);
          tsv_put_num (w, 0);
          if (half)
            tsv_put_str (w, (l->from < t->nhosts && half[l->from])
                            || (l->to < t->nhosts && half[l->to])
                            ? "half" : "full");
        }
      tsv_end_row (w);
    }
}

int
main (int argc, char **argv)
{
  cli_init (PROGRAM, argc, argv);
  poptContext con = cli_parse (argc, (const char **) argv, options,
                               "[FILE]", NULL);
  struct topo_infer_opts o = { 0.75, 0.1 };
  if (opt_slow)
    o.slow = cli_double ("slow", opt_slow, 0.01, 0.99);
  if (opt_min_share)
    o.min_share = cli_double ("min-share", opt_min_share, 0, 1);
  const char **args = poptGetArgs (con);
  if (args && args[0] && args[1])
    die_usage ("one input at most, got '%s' and '%s'", args[0], args[1]);
  tsv_reader *r = tsv_open (args ? args[0] : NULL);
  struct input in = { 0 };
  read_rows (r, &in);
  if (in.n < 2)
    die ("%s: no pair of ranks in the stream", tsv_name (r));
  for (int a = 0; a < in.n * in.n; a++)
    in.solo[a] = in.nsolo[a] ? in.solo[a] / in.nsolo[a] : NAN;
  size_t nc;
  struct topo_conc *c = pair_rows (&in, tsv_name (r), &nc);
  struct topo_inferred t;
  const char *why;
  if (topo_infer (in.n, in.solo, c, nc, &o, &t, &why) < 0)
    die ("%s: %s", tsv_name (r), why);
  for (size_t i = 0; i < t.nlinks; i++)
    if (isnan (t.link[i].rate))
      die ("%s: no measurement crosses the link %d -> %d (a rank with no "
           "pair alone?)", tsv_name (r), t.link[i].from, t.link[i].to);
  tsv_writer *w = tsv_writer_open (NULL);
  tsv_copy_meta (w, r);
  tsv_write_tool_meta (w, NULL);
  tsv_meta (w, "switches", "%d", t.nswitch);
  int *half = NULL;
  if (in.nex)
    {
      half = xmalloc ((size_t) in.n * sizeof *half);
      if (topo_duplex (in.n, in.solo, in.ex, in.nex, o.slow, half) < 0)
        die ("out of memory");
    }
  write_topology (w, &t, half);
  free (half);
  free (in.ex);
  tsv_writer_close (w);
  tsv_close (r);
  topo_inferred_free (&t);
  free (c);
  free (in.solo);
  free (in.nsolo);
  free (in.h);
  poptFreeContext (con);
  return 0;
}
