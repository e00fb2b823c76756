/* SPDX-License-Identifier: GPL-3.0-or-later */
/* kcube.h: k-ary n-cube topologies and average message distances, as
 * pure functions (the k_d of the LoGPC model, Sections 3.3 and 4 of
 * Moritz and Frank).
 *
 * A node is numbered by its coordinates, dimension 0 varying fastest:
 *   node = c_0 + k_0 (c_1 + k_1 (c_2 + ...)).
 * Dimension-order routing is minimal, so the hop count between two nodes
 * is the sum over dimensions of the distance along each dimension.  */
#ifndef MSGPERF_KCUBE_H
#define MSGPERF_KCUBE_H

#include <stddef.h>
#include <stdint.h>

#define KCUBE_MAXDIM 16
#define KCUBE_MAXNODES ((int64_t) 1 << 40)

struct kcube
{
  int n;                     /* dimensions */
  int64_t k[KCUBE_MAXDIM];   /* radix of each dimension, k[0] first */
  int torus;                 /* end-around connections */
  int bidir;                 /* bidirectional channels */
};

/* Parse "8x4" (or "8,4", "8X4") into T->n and T->k; radices >= 1, at
   most KCUBE_MAXDIM of them.  Returns 0; -1 when TEXT is not such a
   list; -2 when it is but the radices multiply to more than
   KCUBE_MAXNODES nodes (T untouched on both).  */
int kcube_parse_dims (const char *text, struct kcube *t);

/* Is the topology meaningful?  A mesh needs bidirectional channels.
   Returns NULL when valid, else a phrase saying why not.  */
const char *kcube_invalid (const struct kcube *t);

int64_t kcube_nodes (const struct kcube *t);

/* Distance along one dimension of radix K between coordinates A and B.  */
int64_t kcube_hops1 (int64_t k, int torus, int bidir, int64_t a, int64_t b);

/* Hops between nodes A and B; PER_DIM (may be NULL) receives each
   dimension's share.  */
int64_t kcube_hops (const struct kcube *t, int64_t a, int64_t b,
                    int64_t *per_dim);

/* Closed form of the average distance along one dimension of radix K,
   destinations uniform over the K positions (the source included):
     mesh, bidirectional:   (k^2 - 1) / (3k)                    (eq. 11)
     torus, unidirectional: (k - 1) / 2                         (Sec. 4)
     torus, bidirectional:  k / 4 (k even), (k^2 - 1) / (4k) (k odd).  */
double kcube_avg_dist1 (int64_t k, int torus, int bidir);

/* Closed form for uniform traffic on the whole network: PER_DIM[d] the
   average distance along dimension d; returns the sum (n k_d; 3.875 on
   the Alewife 8x4 mesh).  EXCLUDE_SELF: destinations other than the
   source (every average times N / (N - 1)).  */
double kcube_avg_dist (const struct kcube *t, int exclude_self,
                       double *per_dim);

/* Traffic patterns over ranks (Section 3.3).  */
enum kcube_traffic
{
  KCUBE_UNIFORM,    /* destination uniform over the ranks */
  KCUBE_NEIGHBOR,   /* rank i sends to i - 1 or i + 1 (mod P), eq. (12) */
  KCUBE_SPAN        /* destination uniform over the ranks on nodes within
                       SPAN hops of the source (the source excluded) */
};

/* Exact average distance by enumeration for P ranks placed on nodes
   MAP[0..P-1] (distinct, each < kcube_nodes).  PER_DIM[d] receives the
   average along dimension d; the return value is their sum.  Returns a
   negative value when the pattern has no destination (P < 2 for NEIGHBOR
   or SPAN, no rank within SPAN hops of some source, P < 2 with
   EXCLUDE_SELF).  Cost: O(n k^2 + P) for UNIFORM (per-dimension
   histograms), O(n P) for NEIGHBOR, O(n P^2) for SPAN.  */
double kcube_avg_dist_map (const struct kcube *t, const int64_t *map,
                           int64_t P, enum kcube_traffic traffic,
                           int64_t span, int exclude_self, double *per_dim);

/* Mappings of ranks to nodes.  */
void kcube_map_identity (int64_t *map, int64_t P);

/* P distinct nodes out of NODES chosen uniformly by a seeded generator
   (splitmix64 and a partial Fisher-Yates shuffle).  WORK has NODES
   entries.  */
void kcube_map_random (int64_t *map, int64_t P, int64_t nodes,
                       uint64_t seed, int64_t *work);

/* Check a mapping: returns -1 when valid, else the first rank whose node
   is out of range or already used.  SEEN has NODES bytes, zeroed.  */
int64_t kcube_map_check (const int64_t *map, int64_t P, int64_t nodes,
                         unsigned char *seen);

#endif
