/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topo_infer.h: which hosts share a switch, how the switches connect and
   the rate of every link, inferred from the rates of pairs of hosts
   measured alone and two pairs at a time (pair-measure(1)).

   The network is taken to be a tree of switches, each host on one
   switch, every link with a rate each way.  Two pairs with four
   distinct hosts slow each other down only when their routes cross one
   link between switches in the same direction (a host's own link is
   used by its pair alone).  A link between switches with hosts A on one
   side and B on the other is seen when A and B both hold at least two
   hosts; a switch whose hosts no measured pair can tell apart from a
   neighbour's is merged with it.  */
#ifndef MSGPERF_TOPO_INFER_H
#define MSGPERF_TOPO_INFER_H

#include <stddef.h>

/* Two pairs measured at the same time: a -> b at r_ab, c -> d at r_cd
   (any unit of rate, the same as the pairs alone).  */
struct topo_conc
{
  int a, b, c, d;
  double r_ab, r_cd;
};

/* A directed link: nodes 0 .. nhosts - 1 are the hosts, nhosts + s the
   switch s.  RATE in the unit of the input; NOBS the measurements it
   comes from; BOUND 1 when no measurement filled the link, so RATE is
   only a lower bound (the most that was seen crossing it).  */
struct topo_link
{
  int from, to;
  double rate;
  size_t nobs;
  int bound;
};

struct topo_inferred
{
  int nhosts, nswitch;
  int *sw;                 /* per host: its switch, 0 .. nswitch - 1 */
  int hidden;              /* 1: switch nswitch - 1 has no host (a core
                              every other switch hangs from) */
  struct topo_link *link;
  size_t nlinks;
};

struct topo_infer_opts
{
  double slow;       /* a test whose pairs got on average less than this
                        share of their rates alone was slowed (0.75) */
  double min_share;  /* a pair crosses a shared link when at least this
                        share of its tests, and one at least, were
                        slowed (0.1: 3 of 30 tests) */
};

/* Infer the tree from N hosts' rates alone SOLO[a * N + b] (NaN: not
   measured; the diagonal is not read) and the NC two-pair tests CONC.
   Returns 0 and fills OUT (free it with topo_inferred_free), or -1 with
   *WHY saying why (the layout is no tree of switches the measurements
   can tell, or memory ran out); OUT is then empty.  */
int topo_infer (int n, const double *solo, const struct topo_conc *conc,
                size_t nc, const struct topo_infer_opts *opt,
                struct topo_inferred *out, const char **why);

void topo_inferred_free (struct topo_inferred *t);

/* The duplex of each of N hosts' links from the NE exchanges EX (a
   pair's two directions measured at once: c = b, d = a) and the rates
   alone SOLO as for topo_infer: HALF[h] = 1 when the median, over the
   exchanges of host h, of each direction's rate over its rate alone is
   below SLOW (the two directions take turns: about 0.5 each), else 0
   (full duplex: about 1 each; no exchange: 0).  The median, not the
   mean: one half-duplex host slows its exchanges with every other
   host, whose other exchanges outvote it.  Returns 1 when some host is
   half duplex, 0 when none, -1 when memory ran out.  */
int topo_duplex (int n, const double *solo, const struct topo_conc *ex,
                 size_t ne, double slow, int *half);

#endif
