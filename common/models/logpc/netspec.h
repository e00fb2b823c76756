/* SPDX-License-Identifier: GPL-3.0-or-later */
/* netspec.h: a LoGPC network from its description (topology, channels,
 * traffic, rank mapping, or a given k_d): the average distance n k_d of
 * eq. (11) (closed form or enumerated over the mapping, eq. (12) for
 * neighbour traffic) and the struct logpc_net the contention equations
 * take.  Pure: errors come back as a status and a message.  */
#ifndef MSGPERF_NETSPEC_H
#define MSGPERF_NETSPEC_H

#include <stddef.h>
#include <stdint.h>

#include "kcube.h"
#include "logpc.h"

struct logpc_netspec
{
  const char *dims;       /* "KxK...", or "" / NULL: none */
  const char *topology;   /* mesh or torus */
  const char *channels;   /* bi or uni */
  const char *traffic;    /* uniform, neighbor or span=l */
  double P;               /* ranks placed (NaN: one per node) */
  double kd;              /* k_d given instead of the topology's (NaN) */
  double n;               /* dimension n with a given k_d (NaN) */
  int need_cube;          /* the distance must come from the topology */
  int exclude_self;       /* uniform traffic: never to oneself */
  int enumerate;          /* enumerate even where a closed form exists */
  const char *mapping;    /* identity, random, or the name of MAP */
  const int64_t *map;     /* node of each rank when mapping is neither */
  int64_t map_n;          /* entries of MAP */
  uint64_t seed;          /* of the random mapping */
};

struct logpc_network
{
  int torus, bidir;
  enum kcube_traffic traffic;
  struct kcube cube;
  int have_cube;
  int64_t nodes;
  int64_t ranks;
  double dist;                   /* n k_d, eq. (11) */
  double per_dim[KCUBE_MAXDIM];  /* each dimension's share of dist */
  const char *method;            /* closed, enumerated or given */
  struct logpc_net net;
};

enum logpc_netspec_status
{
  LOGPC_NETSPEC_OK,
  LOGPC_NETSPEC_BAD,      /* a parameter is invalid (message) */
  LOGPC_NETSPEC_NONET,    /* no dims and no k_d: the network is unknown */
  LOGPC_NETSPEC_MAPPING,  /* the rank mapping does not fit (message) */
  LOGPC_NETSPEC_NOMEM     /* out of memory (message says while doing what) */
};

/* Build *OUT from *SPEC.  On an error the message (no program name, no
   period) is written to MSG (LEN bytes).  */
enum logpc_netspec_status logpc_network_build (const struct logpc_netspec
                                               *spec,
                                               struct logpc_network *out,
                                               char *msg, size_t len);

#endif
