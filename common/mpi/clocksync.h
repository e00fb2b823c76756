/* SPDX-License-Identifier: GPL-3.0-or-later */
/* clocksync.h: one global clock per launch, each rank's MPI_Wtime fitted
 * against the reference rank's by the linear model of clockmodel.h.
 *
 * The reference answers every other rank in turn (P - 1 rounds, a
 * simple linear-regression scheme rather than HCA's O(log P) rounds of
 * Hunold and Carpen-Amarie: the same model, fitted directly against
 * the reference, which is exact for the few ranks of one machine and
 * slower for many).  Each rank takes CLOCKSYNC_FITPOINTS points of its
 * offset (clockmodel.h, eq. (3)), each the shortest of
 * CLOCKSYNC_EXCHANGES ping-pongs (ReproMPI's defaults), the points
 * CLOCKSYNC_SPACING seconds apart so that a drift shows over the span,
 * and fits clock_model_fit_auto.  */
#ifndef MSGPERF_CLOCKSYNC_H
#define MSGPERF_CLOCKSYNC_H

#include <mpi.h>

#include "clockmodel.h"
#include "clocktree.h"

enum { CLOCKSYNC_FITPOINTS = 20, CLOCKSYNC_EXCHANGES = 10 };
#define CLOCKSYNC_SPACING 1e-3

/* Fit this rank's clock against rank ROOT of COMM into *M (the
   identity on ROOT).  Collective over COMM.  */
void mpu_clock_sync (MPI_Comm comm, int root, struct clock_model *m);

/* Re-anchor every rank's model M against rank ROOT of COMM
   (clock_model_anchor) with one point of CLOCKSYNC_EXCHANGES
   exchanges: a drift fitted over the short fit is extrapolated only
   from here on.  ROOT's model stays the identity.  Collective over
   COMM.  */
void mpu_clock_anchor (MPI_Comm comm, int root, struct clock_model *m);

/* As mpu_clock_sync, in the O(log P) rounds of a tree (clocktree.h,
   HCA): *TO_PARENT is this rank's model against its parent, fitted the
   same way, and *TO_ROOT the composition against ROOT.  Collective over
   COMM.  */
void mpu_clock_sync_tree (MPI_Comm comm, int root,
                          struct clock_model *to_root,
                          struct clock_model *to_parent);

/* As mpu_clock_anchor down the tree: each rank re-anchors *TO_PARENT
   against its parent, then *TO_ROOT is composed afresh.  Collective
   over COMM.  */
void mpu_clock_anchor_tree (MPI_Comm comm, int root,
                            struct clock_model *to_root,
                            struct clock_model *to_parent);

/* The global time now, by the model M.  */
double mpu_global_time (const struct clock_model *m);

#endif
