/* SPDX-License-Identifier: GPL-3.0-or-later */
/* overlay.h: an MRNet-style multicast/reduction tree over MPI ranks.
 *
 * Roth, Arnold, Miller, "MRNet: A Software-Based Multicast/Reduction
 * Network for Scalable Tools", SC'03.  The tree is made from a topology
 * spec (treespec.h) over the ranks of a communicator, rooted at rank 0.
 * Rank 0 parses the spec and sends every child the part of the topology
 * below it, which the child forwards in turn; each subtree reports back
 * when it is established (section 2.5), so building the overlay is also
 * the start-up measurement (Figure 7a).  Then:
 *
 *   ov_multicast   a packet from the root to every rank, down the tree;
 *   ov_reduce      one upward wave: every rank contributes its values,
 *                  every internal rank applies the filter (treefilter.h)
 *                  to its own packet and its children's, the root gets
 *                  the result; wait for all children, or wait with a
 *                  timeout and count the ranks whose data did not arrive
 *                  (the synchronisation filters of section 2.4);
 *   ov_clockskew   the hierarchical clock-skew detection of section 3.1.
 *
 * Only MPI point-to-point calls are used (no MPI collectives), on tags
 * OV_TAG_BASE..OV_TAG_BASE+7 of the communicator, so the overlay measures
 * itself and not the MPI library's collectives.  Unlike MRNet, every rank
 * is a data source, internal ranks included.  Calls are collective over
 * the communicator in the sense that every rank must make the same
 * sequence of overlay calls.  Several overlays may share a communicator
 * when every rank uses them in the same order (MPI does not let a message
 * between two ranks overtake another); timed waves on interleaved
 * overlays could take the other overlay's late packet, so give each its
 * own communicator then.  Errors end the job through mpu_die.  */
#ifndef MSGPERF_OVERLAY_H
#define MSGPERF_OVERLAY_H

#include <mpi.h>

#include "treefilter.h"
#include "treespec.h"

#define OV_TAG_BASE 30700

struct overlay
{
  MPI_Comm comm;
  int rank, size;
  int parent;           /* -1 at the root */
  int nchildren;
  int *children;        /* in send order */
  int *child_subtree;   /* ranks below each child, the child included */
  int subtree;          /* ranks in this rank's subtree */
  int height;           /* levels below this rank (0 for a leaf) */
  int level;            /* this rank's level (0 at the root) */
  int depth;            /* depth of the whole tree */
  struct tree tree;     /* the whole tree, at the root only (n == 0
                           elsewhere) */
  double startup;       /* seconds from entering ov_build until this rank's
                           subtree was established */
  double (*clock) (void); /* the clock ov_clockskew reads; MPI_Wtime
                           (ov_clock_mpi) unless the caller changes it */
  double wave;          /* number of the next upward wave */
  double down;          /* number of the next multicast */
};

/* Build the overlay described by SPEC over COMM.  Only rank 0 reads
   SPEC, and TEXT, the contents of the topology file when SPEC is
   "file:PATH" (may be NULL elsewhere).  When rank 0 cannot make the tree
   every rank returns -1 with *ERR filled (rank 0's message), so that all
   can report a usage error alike; otherwise 0.  */
int ov_build (struct overlay *ov, const char *spec, const char *text,
              MPI_Comm comm, struct treespec_error *err);

void ov_free (struct overlay *ov);

/* Option --topology SPEC checked against NRANKS before MPI_Init, on every
   rank, so that a bad spec is the same usage error everywhere
   (msgperf-trees(7)): a file:PATH spec is read (its text returned, to be
   freed; NULL for the other specs) and parsed.  Errors name the option,
   and the file's line and column or the spec's column.  */
char *ov_check_topology (const char *spec, int nranks);

/* Multicast: the root's B reaches every rank (B is replaced by it on the
   other ranks).  */
void ov_multicast (struct overlay *ov, struct tf_buf *b);

/* Section 2.4's three synchronisation modes: wait for every child's
   packet; wait at most a time; do not wait (every rank's packet goes up
   on its own as soon as it is made or arrives, and only the root
   combines).  */
enum ov_sync_mode { OV_WAIT_ALL, OV_TIMEOUT, OV_DO_NOT_WAIT };

struct ov_sync
{
  enum ov_sync_mode mode;
  double timeout;   /* seconds per level below a rank: a rank with h
                       levels below it waits at most h * timeout */
};

struct ov_wave
{
  long contributed; /* ranks whose values are in the result */
  long missing;     /* ranks whose values did not arrive in time */
  long packets;     /* reduction packets the root received: one per child
                       that answered, or with OV_DO_NOT_WAIT one per
                       other rank */
  int *order;       /* NULL, or room for ORDER_CAP ranks: the rank that
                       made each packet, in the order of arrival (a
                       child, or with OV_DO_NOT_WAIT any rank) */
  long order_cap;
};

/* One upward wave.  Every rank passes its P->m values VALS; at the root
   OUT receives the filtered and finished result (treefilter.h) and WAVE
   (may be NULL) the counts; elsewhere OUT is left empty.  With
   OV_TIMEOUT, packets of an earlier wave that arrive late are dropped.
   With OV_DO_NOT_WAIT the root's result is the same for the filters
   whose combination does not depend on the order (sum, min, max ...),
   but it is made from one packet per rank instead of one per child.  */
void ov_reduce (struct overlay *ov, enum tf_kind kind,
                const struct tf_params *p, const double *vals,
                const struct ov_sync *sync, struct tf_buf *out,
                struct ov_wave *wave);

/* Clocks for ov->clock, in seconds.  MPI_Wtime need not be one clock
   across the ranks of even one machine (Open MPI counts it from each
   process's MPI_Init), CLOCK_MONOTONIC is one clock per machine.  */
double ov_clock_mpi (void);
double ov_clock_monotonic (void);

/* The same wave with this rank's packet MINE already made (tf_local,
   tf_concat_rows, tf_bin_add...), for ranks that contribute several
   rows, classes or none.  MINE is consumed (left empty).  */
void ov_reduce_packet (struct overlay *ov, enum tf_kind kind,
                       const struct tf_params *p, struct tf_buf *mine,
                       const struct ov_sync *sync, struct tf_buf *out,
                       struct ov_wave *wave);

/* Hierarchical clock-skew detection.  Every parent sends PROBES round
   trips to each child and keeps the smallest (clockskew.h); then one
   upward wave accumulates the offsets.  At the root OFFSET and BOUND
   (size entries each, seconds, may be NULL elsewhere) receive every
   rank's clock minus the root's clock and the bound on its error.  The
   clock read is ov->clock.  */
void ov_clockskew (struct overlay *ov, int probes, double *offset,
                   double *bound);

/* The direct scheme the paper compares with (section 4.2.1): the root
   makes PROBES round trips with every rank itself.  Same results.  */
void ov_clockskew_direct (struct overlay *ov, int probes, double *offset,
                          double *bound);

#endif
