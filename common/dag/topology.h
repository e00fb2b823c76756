/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topology.h: a network of directed links between ranks and switches
 * (dag-predict --network topology:FILE), and the routes of messages
 * through it.
 *
 * Nodes are named; a name that is a whole number written without
 * leading zeros is a rank (a host of the schedule), any other name a
 * switch.  A route is a shortest path in hops from one rank to another,
 * found by a breadth-first search that follows each node's links in the
 * order they were added, so that equal-length paths are chosen the
 * same way on every run.  Every node forwards, ranks too: a ring or a
 * torus of hosts is links between ranks.  Routes are computed on
 * demand and kept (one per pair of ranks that communicates), so a
 * schedule of many ranks that talk to few peers needs little memory;
 * the routes from the hosts of one switch (ranks with one link) come
 * from one search, from the switch.
 * No I/O: the caller reads the file and reports the errors.  */
#ifndef MSGPERF_TOPOLOGY_H
#define MSGPERF_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"

struct dag_topo_link
{
  int32_t from, to;     /* nodes */
  double G;             /* time per byte; NaN: the model's */
  double L;             /* extra latency, >= 0 */
  /* half duplex: the link's two directions are one medium, so the
     reverse link's messages take from its capacity too (the index of
     the reverse link); -1: full duplex, each direction its own */
  int32_t twin;
};

struct dag_topo_route;  /* topology.c: the cache of routes */

struct dag_topo
{
  /* how its links carry messages that meet on them: 0, shared max-min
     fair (--network topology:FILE); 1, one after another, first come
     first served (topology-fifo:FILE) */
  int fifo;
  /* nodes: their ids by name, names and ranks (-1: a switch) by id,
     and the link that named each first */
  struct strmap ids;
  char **name;
  int64_t *rank;
  size_t *first_link;
  size_t nnodes, node_cap;
  struct dag_topo_link *link;
  size_t nlinks, link_cap;
  struct strmap pairs;  /* link index by (from, to) */
  /* rank -> node (-1: the rank has no node), nrank entries */
  int32_t *rank_node;
  int64_t nrank;
  /* after dag_topo_finish: the links leaving node u are
     out[out_off[u] .. out_off[u+1]-1], in the order they were added */
  size_t *out_off;
  int32_t *out;
  /* the breadth-first search of the last source: the link each node
     was reached by (-1: the source, -2: unreached) */
  int32_t *via, *queue;
  int32_t tree_src;     /* its source node; -1: none yet */
  uint64_t searches;    /* searches run */
  struct dag_topo_route *cache;
  int32_t *path;        /* the cached routes' links, end to end */
  size_t npath, path_cap;
};

enum dag_topo_status
{
  DAG_TOPO_OK = 0,
  DAG_TOPO_SELF,        /* a link from a node to itself */
  DAG_TOPO_DUPLICATE,   /* the same directed link twice */
  DAG_TOPO_BADRANK,     /* a number with leading zeros or above 2^31 - 2 */
  DAG_TOPO_NOROUTE      /* no path from one rank to the other */
};

void dag_topo_init (struct dag_topo *t);
void dag_topo_free (struct dag_topo *t);

/* Classify the node name S: 1 and *RANK for a rank, 0 for a switch, -1
   for a whole number that is not a rank name (leading zeros, or above
   2^31 - 2).  */
int dag_topo_rank_name (const char *s, int64_t *rank);

/* Add the directed link FROM -> TO with time per byte G (NaN: the
   model's) and extra latency L >= 0.  DAG_TOPO_SELF, DAG_TOPO_BADRANK
   (*WHICH: 0 FROM, 1 TO) and DAG_TOPO_DUPLICATE (*WHICH: the index of
   the earlier link) add no link (a duplicate's nodes are known
   already).  At most 2^31 - 1 links.  */
enum dag_topo_status dag_topo_add (struct dag_topo *t, const char *from,
                                   const char *to, double G, double L,
                                   size_t *which);

/* The index of the link FROM -> TO (node ids), or -1.  */
int32_t dag_topo_find (const struct dag_topo *t, int32_t from, int32_t to);

/* Make link I half duplex: it and its reverse link share one
   capacity.  -1 (and no change) when there is no reverse link.  */
int dag_topo_half (struct dag_topo *t, size_t i);

/* Index the links for routing (after the last dag_topo_add).  */
void dag_topo_finish (struct dag_topo *t);

/* The first node, in the order the links named them, whose rank is P
   or more (the schedule of P ranks has no such rank), else -1.  */
int32_t dag_topo_rank_over (const struct dag_topo *t, int64_t P);

/* Name of node U.  */
const char *dag_topo_name (const struct dag_topo *t, int32_t u);

/* The route from rank SRC to rank DST: *LINKS receives its *K link
   indices in order (valid until the next call; none from a rank to
   itself, named in the topology or not).  DAG_TOPO_NOROUTE when there
   is no path (or a rank has no node).  */
enum dag_topo_status dag_topo_route (struct dag_topo *t, int32_t src,
                                     int32_t dst, const int32_t **links,
                                     size_t *k);

/* How many routes are cached (pairs of different ranks routed).  */
size_t dag_topo_nroutes (const struct dag_topo *t);

/* Route every message of D (so that a simulation finds each route
   cached), the pairs grouped by the node their search starts from so
   that each search runs once.  DAG_TOPO_NOROUTE with *SRC, *DST the
   first pair, in operation order, that has no path.  */
enum dag_topo_status dag_topo_route_dag (struct dag_topo *t,
                                         const struct dag *d, int32_t *src,
                                         int32_t *dst);

#endif
