/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clocktree.h: a global clock in O(log P) rounds, the way of the
 * hierarchical clock synchronisation (HCA) of Hunold and Carpen-Amarie
 * ("Reproducible MPI Benchmarking Is Still Not As Easy As You Think",
 * IEEE TPDS 27 (2016)): every rank fits the linear model of
 * clockmodel.h against one partner, its parent in a binomial tree over
 * the ranks (relative to the reference, rank 0 here), all pairs of a
 * round at once; the models are then composed down the tree into each
 * rank's model against the reference (pure; common/mpi/clocksync.c
 * runs the exchanges).
 *
 * Rank r's parent is r with its lowest set bit cleared, and r fits
 * against it in round k, k the position of that bit: the pairs of a
 * round are disjoint (a parent in round k has no set bit below k + 1),
 * and ceil (log2 P) rounds cover every rank.
 *
 * Composition.  With the child's offset against its parent
 * offset_c(t) = s_c t + i_c (clockmodel.h, eq. (1)), the parent's time
 * of the child's reading t is t_p = (1 - s_c) t - i_c (eq. (2)); with
 * the parent's against the reference offset_p(t_p) = s_p t_p + i_p, the
 * reference's time is t_0 = (1 - s_p) t_p - i_p, so that
 *
 *   t - t_0 = [s_p + s_c - s_p s_c] t + [i_p + i_c - s_p i_c],    (6)
 *
 * again a line in the child's local time: the child's model against the
 * reference.  */
#ifndef MSGPERF_CLOCKTREE_H
#define MSGPERF_CLOCKTREE_H

#include <stddef.h>

#include "clockmodel.h"

/* The parent of REL (a rank relative to the reference), -1 for 0.  */
int clock_tree_parent (int rel);

/* The round (0, 1, ...) in which REL > 0 fits against its parent.  */
int clock_tree_round (int rel);

/* Rounds of a tree over SIZE ranks: ceil (log2 SIZE), 0 for one.  */
int clock_tree_rounds (int size);

/* The child that REL serves in round ROUND, or -1 when none (REL has a
   set bit at or below ROUND, or the child would be SIZE or more).  */
int clock_tree_child (int rel, int round, int size);

/* Into *OUT the model of a child against the reference, from its model
   CHILD against its parent and the parent's PARENT against the
   reference (eq. (6)).  The residuals and the drifts' standard errors
   add in squares (independent errors of the two fits); n is the
   child's.  OUT may be CHILD or PARENT.  */
void clock_model_compose (const struct clock_model *parent,
                          const struct clock_model *child,
                          struct clock_model *out);

/* Into *OUT rank REL's model against the reference, from TO_PARENT[r],
   each rank r's model against its parent (indexed by relative rank;
   TO_PARENT[0] is not read), composed from the top of REL's chain
   down.  */
void clock_tree_to_root (const struct clock_model *to_parent, int rel,
                         struct clock_model *out);

#endif
