/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_apps.c: the application patterns of LogGOPSim's Schedgen as task
 * graphs for dag-predict (see dag_apps.h and dag-predict(1),
 * GENERATORS).
 *
 * nway-dissemination  ceil(log_{n+1} P) rounds; in round r a rank sends
 *                     to r + w (n+1)^r, w = 1 .. n, and its sends of the
 *                     next round wait for all the receives of this one.
 * random-bisect       a random permutation of the ranks; the first half
 *                     sends to the second (rank perm[i] to perm[i+P/2]).
 * halo                ROUNDS halo exchanges on a periodic 2-D or 3-D
 *                     grid: every rank sends to its face neighbours, and
 *                     its next round waits for all it received.
 *
 * A rank's steps are tasks chained one after the other (work --work
 * each); a message leaves from the sender's task of one round and enters
 * the receiver's task of the next.  Pure: no I/O, errors (including
 * running out of memory) are returned as a message.  */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "dag_apps.h"
#include "num.h"

/* The same limit as the other generators.  */
#define APPS_MAX (INT64_C (1) << 26)

/* A task of rank P named pP_K (its K-th step).  */
static int32_t
app_task (const struct dag_sink *s, int64_t p, int64_t k, double work)
{
  char id[48];
  snprintf (id, sizeof id, "p%" PRId64 "_%" PRId64, p, k);
  return s->task (s->ctx, id, (int32_t) p, work);
}

/* ROUNDS + 1 tasks per rank, chained, in CUR (rank-major: task k of rank
   p at k * P + p); then for each round k and rank p the messages of
   PEERS (p, k, out) from task k of p to task k+1 of each peer.  */
typedef int64_t (*peers_fn) (const void *arg, int64_t p, int64_t k,
                             int64_t *out);

static const char *
rounds_run (const struct dag_gen *g, const struct dag_sink *s, int64_t P,
            int64_t R, int64_t per, peers_fn peers, const void *arg)
{
  if ((double) (R + 1) * (double) P > (double) APPS_MAX
      || (double) R * (double) P * (double) per > (double) APPS_MAX)
    return "too many tasks or messages (over 2^26)";
  int32_t *prev = malloc ((size_t) P * sizeof *prev);
  int32_t *cur = malloc ((size_t) P * sizeof *cur);
  int64_t *out = malloc ((size_t) (per > 0 ? per : 1) * sizeof *out);
  if (!prev || !cur || !out)
    {
      free (prev);
      free (cur);
      free (out);
      return "out of memory";
    }
  if (s->reserve)
    s->reserve (s->ctx, (size_t) ((R + 1) * P), (size_t) (R * P * per),
                (size_t) (R * P));
  for (int64_t p = 0; p < P; p++)
    prev[p] = app_task (s, p, 0, g->work);
  for (int64_t k = 0; k < R; k++)
    {
      for (int64_t p = 0; p < P; p++)
        {
          cur[p] = app_task (s, p, k + 1, g->work);
          s->dep (s->ctx, prev[p], cur[p]);
        }
      for (int64_t p = 0; p < P; p++)
        {
          int64_t n = peers (arg, p, k, out);
          for (int64_t i = 0; i < n; i++)
            s->msg (s->ctx, prev[p], cur[out[i]], g->bytes);
        }
      int32_t *t = prev;
      prev = cur;
      cur = t;
    }
  free (prev);
  free (cur);
  free (out);
  return NULL;
}

/* ------------------------------------------------- n-way dissemination */

struct nway
{
  int64_t P, n;
  int64_t *dist;   /* (n+1)^k per round */
};

static int64_t
nway_peers (const void *arg, int64_t p, int64_t k, int64_t *out)
{
  const struct nway *a = arg;
  /* Schedgen's peers, a rank itself included when w (n+1)^k is a
     multiple of P (its schedule then sends to itself) */
  for (int64_t w = 1; w <= a->n; w++)
    out[w - 1] = (p + w * (a->dist[k] % a->P)) % a->P;
  return a->n;
}

static const char *
gen_nway (const struct dag_gen *g, const struct dag_sink *s)
{
  int64_t P = g->procs, n = g->nway;
  if (P < 2)
    return "nway-dissemination needs --procs of at least 2";
  if (n < 1 || n >= P)
    {
      static char msg[120];
      snprintf (msg, sizeof msg, "--nway %" PRId64 " is not below --procs %"
                PRId64 " (peers per round: 1 to P-1)", n, P);
      return msg;
    }
  /* the rounds: the smallest R with (n+1)^R >= P, exactly (Schedgen's
     ceil of a floating-point logarithm gives one more for some powers,
     e.g. P = 125, n = 4) */
  int64_t R = 0, d = 1, dist[64];
  while (d < P)
    {
      dist[R++] = d;
      d = d > P / (n + 1) ? P : d * (n + 1);
    }
  struct nway a = { P, n, dist };
  return rounds_run (g, s, P, R, n, nway_peers, &a);
}

/* ------------------------------------------------------- random bisect */

static const char *
gen_bisect (const struct dag_gen *g, const struct dag_sink *s)
{
  int64_t P = g->procs;
  if (P < 2)
    return "random-bisect needs --procs of at least 2";
  if (P > APPS_MAX)
    return "too many processes (over 2^26)";
  /* Schedgen pairs an even number of ranks: with P odd the last one is
     left out (it keeps an empty task) */
  int64_t n = P - P % 2;
  int64_t *perm = malloc ((size_t) n * sizeof *perm);
  int32_t *t = malloc ((size_t) P * sizeof *t);
  gsl_error_handler_t *old = gsl_set_error_handler_off ();
  gsl_rng *r = gsl_rng_alloc (gsl_rng_mt19937);
  gsl_set_error_handler (old);
  if (!perm || !t || !r)
    {
      free (perm);
      free (t);
      if (r)
        gsl_rng_free (r);
      return "out of memory";
    }
  /* GSL's MT19937 seeded with --seed, then gsl_ran_shuffle (Knuth's
     shuffle with gsl_rng_uniform_int): the same pairing for the same
     seed on every machine */
  gsl_rng_set (r, (unsigned long) g->seed);
  for (int64_t i = 0; i < n; i++)
    perm[i] = i;
  gsl_ran_shuffle (r, perm, (size_t) n, sizeof *perm);
  gsl_rng_free (r);
  if (s->reserve)
    s->reserve (s->ctx, (size_t) P, (size_t) (n / 2), 0);
  for (int64_t p = 0; p < P; p++)
    t[p] = app_task (s, p, 0, g->work);
  for (int64_t i = 0; i < n / 2; i++)
    s->msg (s->ctx, t[perm[i]], t[perm[i + n / 2]], g->bytes);
  free (perm);
  free (t);
  return NULL;
}

/* ---------------------------------------------------------------- halo */

struct halo
{
  int nd;
  int64_t dim[3];
};

/* Rank p is at (x, y, z) with x fastest.  Per dimension of more than
   one rank, the neighbour below, then the one above (the same rank
   twice in a dimension of 2, as MPI_Cart_shift gives).  */
static int64_t
halo_peers (const void *arg, int64_t p, int64_t k, int64_t *out)
{
  (void) k;
  const struct halo *h = arg;
  int64_t n = 0, stride = 1;
  for (int i = 0; i < h->nd; i++)
    {
      int64_t D = h->dim[i], c = p / stride % D;
      if (D > 1)
        {
          out[n++] = p + (((c + D - 1) % D) - c) * stride;
          out[n++] = p + (((c + 1) % D) - c) * stride;
        }
      stride *= D;
    }
  return n;
}

/* "XxY" or "XxYxZ" into H; NULL or a message.  */
static const char *
halo_dims (const char *text, struct halo *h)
{
  static char msg[160];
  if (!text || !*text)
    return "halo needs --dims XxY or XxYxZ (ranks per dimension)";
  h->nd = 0;
  const char *p = text;
  for (;;)
    {
      const char *x = strchr (p, 'x');
      size_t len = x ? (size_t) (x - p) : strlen (p);
      int64_t v;
      if (h->nd == 3 || num_parse_int64 (p, len, &v) != NUM_OK || v < 1
          || v > APPS_MAX)
        {
          snprintf (msg, sizeof msg, "--dims '%s', column %d: want 2 or 3 "
                    "rank counts from 1 to 2^26 separated by 'x'", text,
                    (int) (p - text) + 1);
          return msg;
        }
      h->dim[h->nd++] = v;
      if (!x)
        break;
      p = x + 1;
    }
  if (h->nd < 2)
    {
      snprintf (msg, sizeof msg, "--dims '%s': want 2 or 3 rank counts "
                "(XxY or XxYxZ)", text);
      return msg;
    }
  return NULL;
}

static const char *
gen_halo (const struct dag_gen *g, const struct dag_sink *s)
{
  static char msg[160];
  struct halo h;
  const char *err = halo_dims (g->dims, &h);
  if (err)
    return err;
  double P = 1;
  for (int i = 0; i < h.nd; i++)
    P *= (double) h.dim[i];
  if (P > (double) APPS_MAX)
    return "--dims: too many ranks (over 2^26)";
  if (g->procs_given && (double) g->procs != P)
    {
      snprintf (msg, sizeof msg, "--procs %" PRId64 " disagrees with --dims "
                "%s (%.0f ranks)", g->procs, g->dims, P);
      return msg;
    }
  if (g->rounds < 1)
    return "halo needs --rounds of at least 1";
  return rounds_run (g, s, (int64_t) P, g->rounds, 2 * h.nd, halo_peers,
                     &h);
}

const char *
dag_apps_run (const struct dag_gen *g, const struct dag_sink *s)
{
  const char *p = g->pattern ? g->pattern : "";
  if (strcmp (p, "nway-dissemination") == 0)
    return gen_nway (g, s);
  if (strcmp (p, "random-bisect") == 0)
    return gen_bisect (g, s);
  if (strcmp (p, "halo") == 0)
    return gen_halo (g, s);
  return NULL;
}

int
dag_apps_is (const char *name)
{
  return name && (strcmp (name, "nway-dissemination") == 0
                  || strcmp (name, "random-bisect") == 0
                  || strcmp (name, "halo") == 0);
}
