/* SPDX-License-Identifier: GPL-3.0-or-later */
/* netspec.c: a LoGPC network from its description (netspec.h).  */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netspec.h"
#include "num.h"

static enum logpc_netspec_status
say (enum logpc_netspec_status s, char *msg, size_t len, const char *fmt,
     ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, len, fmt, ap);
  va_end (ap);
  return s;
}

/* Topology, channels and traffic by name.  */
static enum logpc_netspec_status
kinds (const struct logpc_netspec *s, struct logpc_network *c, int64_t *span,
       char *msg, size_t len)
{
  if (strcmp (s->topology, "mesh") == 0)
    c->torus = 0;
  else if (strcmp (s->topology, "torus") == 0)
    c->torus = 1;
  else
    return say (LOGPC_NETSPEC_BAD, msg, len,
                "unknown topology '%s' (mesh or torus)", s->topology);
  if (strcmp (s->channels, "bi") == 0)
    c->bidir = 1;
  else if (strcmp (s->channels, "uni") == 0)
    c->bidir = 0;
  else
    return say (LOGPC_NETSPEC_BAD, msg, len,
                "unknown channels '%s' (bi or uni)", s->channels);
  *span = 0;
  if (strcmp (s->traffic, "uniform") == 0)
    c->traffic = KCUBE_UNIFORM;
  else if (strcmp (s->traffic, "neighbor") == 0)
    c->traffic = KCUBE_NEIGHBOR;
  else if (strncmp (s->traffic, "span=", 5) == 0)
    {
      const char *t = s->traffic + 5;
      if (num_parse_int64 (t, strlen (t), span) != NUM_OK || *span < 1)
        return say (LOGPC_NETSPEC_BAD, msg, len, "traffic '%s': the span "
                    "must be a whole number of hops >= 1", s->traffic);
      c->traffic = KCUBE_SPAN;
    }
  else
    return say (LOGPC_NETSPEC_BAD, msg, len, "unknown traffic '%s' "
                "(uniform, neighbor or span=l)", s->traffic);
  return LOGPC_NETSPEC_OK;
}

/* The k-ary n-cube of --dims.  */
static enum logpc_netspec_status
cube (const struct logpc_netspec *s, struct logpc_network *c, char *msg,
      size_t len)
{
  c->cube.torus = c->torus;
  c->cube.bidir = c->bidir;
  int rc = kcube_parse_dims (s->dims, &c->cube);
  if (rc == -2)
    return say (LOGPC_NETSPEC_BAD, msg, len, "invalid dims '%s': more than "
                "2^40 = 1099511627776 nodes (the largest topology handled)",
                s->dims);
  if (rc != 0)
    return say (LOGPC_NETSPEC_BAD, msg, len, "invalid dims '%s' (radices "
                ">= 1 separated by 'x', e.g. 8x4; at most %d dimensions)",
                s->dims, KCUBE_MAXDIM);
  const char *why = kcube_invalid (&c->cube);
  if (why)
    return say (LOGPC_NETSPEC_BAD, msg, len, "%s", why);
  c->have_cube = 1;
  c->nodes = kcube_nodes (&c->cube);
  if (!isnan (s->n) && s->n != c->cube.n)
    return say (LOGPC_NETSPEC_BAD, msg, len, "n = %g contradicts dims '%s' "
                "(%d dimensions)", s->n, s->dims, c->cube.n);
  return LOGPC_NETSPEC_OK;
}

/* A given k_d (with n from --n or the cube).  */
static enum logpc_netspec_status
given_kd (const struct logpc_netspec *s, struct logpc_network *c, char *msg,
          size_t len)
{
  int n = c->have_cube ? c->cube.n : (int) (isnan (s->n) ? 0 : s->n);
  if (n < 1)
    return say (LOGPC_NETSPEC_BAD, msg, len,
                "--kd needs the network dimension: give --n or --dims");
  if (n > KCUBE_MAXDIM)
    return say (LOGPC_NETSPEC_BAD, msg, len,
                "n = %d is more than %d dimensions", n, KCUBE_MAXDIM);
  c->dist = n * s->kd;
  c->method = "given";
  c->ranks = isnan (s->P) ? (c->have_cube ? c->nodes : 0) : (int64_t) s->P;
  logpc_net_set (&c->net, n, s->kd, c->bidir);
  return LOGPC_NETSPEC_OK;
}

/* The average distance over the ranks' mapping, by enumeration.  */
static enum logpc_netspec_status
enumerated (const struct logpc_netspec *s, struct logpc_network *c,
            int64_t span, char *msg, size_t len)
{
  const char *mapping = s->mapping ? s->mapping : "identity";
  if (c->nodes > (INT64_C (1) << 26))
    return say (LOGPC_NETSPEC_BAD, msg, len, "%lld nodes are too many to "
                "enumerate (at most %lld)", (long long) c->nodes,
                (long long) (INT64_C (1) << 26));
  int64_t *map = malloc ((size_t) c->ranks * sizeof *map);
  unsigned char *seen = calloc ((size_t) c->nodes, 1);
  int64_t *work = NULL;
  enum logpc_netspec_status st = LOGPC_NETSPEC_OK;
  if (!map || !seen)
    {
      st = say (LOGPC_NETSPEC_NOMEM, msg, len, "out of memory while "
                "placing %lld ranks on %lld nodes", (long long) c->ranks,
                (long long) c->nodes);
      goto out;
    }
  if (strcmp (mapping, "identity") == 0)
    kcube_map_identity (map, c->ranks);
  else if (strcmp (mapping, "random") == 0)
    {
      work = malloc ((size_t) c->nodes * sizeof *work);
      if (!work)
        {
          st = say (LOGPC_NETSPEC_NOMEM, msg, len, "out of memory while "
                    "placing %lld ranks at random", (long long) c->ranks);
          goto out;
        }
      kcube_map_random (map, c->ranks, c->nodes, s->seed, work);
    }
  else
    {
      if (s->map_n < c->ranks)
        {
          st = say (LOGPC_NETSPEC_MAPPING, msg, len, "mapping '%s' places "
                    "%lld ranks, %lld needed", mapping, (long long) s->map_n,
                    (long long) c->ranks);
          goto out;
        }
      memcpy (map, s->map, (size_t) c->ranks * sizeof *map);
    }
  int64_t wrong = kcube_map_check (map, c->ranks, c->nodes, seen);
  if (wrong >= 0)
    {
      st = say (LOGPC_NETSPEC_MAPPING, msg, len, "mapping '%s': rank %lld "
                "is placed on node %lld, which is outside 0..%lld or "
                "already used", mapping, (long long) wrong,
                (long long) map[wrong], (long long) (c->nodes - 1));
      goto out;
    }
  c->dist = kcube_avg_dist_map (&c->cube, map, c->ranks, c->traffic, span,
                                s->exclude_self, c->per_dim);
  if (c->dist < 0)
    st = say (LOGPC_NETSPEC_BAD, msg, len, "traffic '%s' has no destination "
              "for some rank with P = %lld", s->traffic,
              (long long) c->ranks);
  c->method = "enumerated";
out:
  free (work);
  free (map);
  free (seen);
  return st;
}

enum logpc_netspec_status
logpc_network_build (const struct logpc_netspec *s, struct logpc_network *c,
                     char *msg, size_t len)
{
  memset (c, 0, sizeof *c);
  int64_t span;
  enum logpc_netspec_status st = kinds (s, c, &span, msg, len);
  if (st != LOGPC_NETSPEC_OK)
    return st;
  if (s->dims && s->dims[0] && (st = cube (s, c, msg, len)))
    return st;
  if (!c->have_cube && (s->need_cube || isnan (s->kd)))
    return say (LOGPC_NETSPEC_NONET, msg, len, "no network: give --dims "
                "(e.g. --dims 8x4) or a 'dims' column%s",
                s->need_cube ? "" : ", or --kd with --n");
  if (!isnan (s->kd))
    return given_kd (s, c, msg, len);

  c->ranks = isnan (s->P) ? c->nodes : (int64_t) s->P;
  if (c->ranks > c->nodes)
    return say (LOGPC_NETSPEC_BAD, msg, len, "P = %lld ranks do not fit on "
                "%lld nodes", (long long) c->ranks, (long long) c->nodes);
  if (c->traffic == KCUBE_UNIFORM && c->ranks == c->nodes && !s->enumerate)
    {
      /* Any one-to-one mapping of all nodes gives the same pairs.  */
      c->dist = kcube_avg_dist (&c->cube, s->exclude_self, c->per_dim);
      c->method = "closed";
    }
  else if ((st = enumerated (s, c, span, msg, len)))
    return st;
  logpc_net_set (&c->net, c->cube.n, c->dist / c->cube.n, c->bidir);
  return LOGPC_NETSPEC_OK;
}
