/* SPDX-License-Identifier: GPL-3.0-or-later */
/* treecost.h: LogP cost of a broadcast down a tree (MRNet, SC'03,
 * Section 2.6).
 *
 * The paper's convention: a rank that has the message sends it to its
 * children one after another, the i-th send (1-based) leaving i gaps g
 * after the rank got the message; a message costs an overhead o to send,
 * a latency L in flight and an overhead o to receive.  So child i of a
 * rank that has the message at time T has it at T + i g + 2 o + L, and
 * a balanced tree of fan-out F and depth D finishes at D (F g + 2 o + L):
 * 8g + 4o + 2L for b:4^2 (Figure 4a, 16 back-ends).  A rank can start
 * the next broadcast once its sends of the previous one are done, so
 * broadcasts can follow each other every (largest fan-out) x g: 4g for
 * Figure 4a, 6g for the unbalanced tree of Figure 4b.  A reduction up the
 * same tree costs the same by symmetry (a parent receives its children's
 * messages one gap apart).  Pure, for dag-predict and the tests.  */
#ifndef MSGPERF_TREECOST_H
#define MSGPERF_TREECOST_H

#include "treespec.h"

struct tree_cost
{
  double latency;    /* time until the last rank has the message */
  double interval;   /* least time between successive broadcasts */
  int last;          /* a rank that gets the message last */
};

/* Cost of one broadcast from the root of T under LogP (L, o, g); when
   ARRIVAL is not NULL it receives every rank's arrival time (T->n
   values, 0 at the root).  Returns 0, or -1 out of memory (C and ARRIVAL
   untouched).  */
int tree_bcast_cost (const struct tree *t, double L, double o, double g,
                      struct tree_cost *c, double *arrival);

#endif
