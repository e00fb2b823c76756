/* SPDX-License-Identifier: GPL-3.0-or-later */
/* overlap.h: how much communication a computation hid (CoMet's overlap
 * kernel, comet-benchmark.txt Section 2.2.1, Figures 7 and 8).
 *
 * The kernel times a pairwise exchange followed by a DAXPY (t_sync, no
 * overlap possible), the same with the exchange posted asynchronously
 * around the DAXPY (t_async), and each part alone (t_comm, t_comp).  An
 * ideal overlap brings t_async down to max(t_comm, t_comp), i.e. saves
 * min(t_comm, t_comp) over t_sync = t_comm + t_comp, so the share of the
 * hideable time that was actually hidden is
 *
 *   overlap = 100 * (t_sync - t_async) / min(t_comm, t_comp)
 *
 * clamped to [0, 100]: 0 when the asynchronous version is no faster (the
 * paper's small messages, where posting costs more than it saves), 100
 * when the shorter part disappeared entirely.  When the hideable time is
 * no larger than the uncertainty of t_sync - t_async (NOISE: the kernel
 * passes the sum of the half-widths of their 95% intervals), the share
 * would be noise divided by almost nothing, and is not computed.
 * Pure code.  */
#ifndef MSGPERF_OVERLAP_H
#define MSGPERF_OVERLAP_H

/* The overlap percentage above, or NaN (printed NA) when min(t_comm,
   t_comp) is not larger than NOISE (>= 0) or an input is not finite:
   nothing measurable could be hidden, so no share can be computed.  */
double overlap_percent (double t_sync, double t_async, double t_comm,
                        double t_comp, double noise);

/* The same share before the clamp to [0, 100] (NaN where
   overlap_percent is): below 0 the asynchronous version was slower than
   the synchronous one, above 100 it beat the ideal overlap, which only a
   measurement that went wrong (or a machine that changed between the
   four timings) can do.  */
double overlap_raw_percent (double t_sync, double t_async, double t_comm,
                            double t_comp, double noise);

#endif
