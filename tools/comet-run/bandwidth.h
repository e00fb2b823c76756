/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bandwidth.h: bandwidth of a measured transfer and the message sizes
 * that reach a share of the peak (comet-benchmark.txt Section 4.1: "Half
 * of the peak bandwidth is achieved with message sizes of 486 bytes and
 * ninety percent ... around 5000 bytes.  The message sizes that produce
 * 50% and 90% peak bandwidth utilization will be used later to generate
 * load in the contention kernel").  Pure code.  */
#ifndef MSGPERF_BANDWIDTH_H
#define MSGPERF_BANDWIDTH_H

#include <stddef.h>
#include <stdint.h>

/* MBps (10^6 bytes per second) of BYTES moved in T_US microseconds:
   bytes / t.  NaN when T_US is not positive.  */
double bandwidth_mbps (int64_t bytes, double t_us);

/* The smallest size in BYTES[0..N) whose bandwidth MBPS[i] reaches
   FRACTION of the largest one (NaN entries ignored); -1 when there is no
   positive bandwidth.  The arrays need not be sorted.  */
int64_t bandwidth_fraction_size (const int64_t *bytes, const double *mbps,
                                 size_t n, double fraction);

#endif
