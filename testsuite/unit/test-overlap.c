/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-overlap: the overlap percentage and the bandwidth helpers of the
   comet-run kernels (tools/comet-run/overlap.c, tools/comet-run/bandwidth.c).  */
#include <config.h>
#include <math.h>

#include "bandwidth.h"
#include "overlap.h"
#include "unit.h"

int
main (void)
{
  /* comm 10, comp 30: sync 40; perfect overlap 30 hides all of comm.  */
  CHECK_NEAR (overlap_percent (40, 30, 10, 30, 0), 100, 1e-12);
  CHECK_NEAR (overlap_percent (40, 35, 10, 30, 0), 50, 1e-12);
  CHECK_NEAR (overlap_percent (40, 40, 10, 30, 0), 0, 1e-12);
  /* Slower asynchronous version: no overlap, not a negative share.  */
  CHECK_NEAR (overlap_percent (40, 45, 10, 30, 0), 0, 1e-12);
  /* Faster than ideal (noise, or the paper's avoided copy): at most 100. */
  CHECK_NEAR (overlap_percent (40, 20, 10, 30, 0), 100, 1e-12);
  /* The shorter part is the denominator, whichever it is.  */
  CHECK_NEAR (overlap_percent (40, 38, 30, 10, 0), 20, 1e-12);
  /* Hideable time within the noise of t_sync - t_async: NA.  */
  CHECK (isnan (overlap_percent (40, 35, 10, 2, 2)));
  CHECK (isnan (overlap_percent (40, 35, 10, 2, 3)));
  CHECK_NEAR (overlap_percent (40, 39, 10, 2, 1.5), 50, 1e-12);
  CHECK (isnan (overlap_percent (40, 39, 10, 2, NAN)));
  /* Nothing to hide: NA.  */
  CHECK (isnan (overlap_percent (10, 9, 10, 0, 0)));
  CHECK (isnan (overlap_percent (10, 9, 10, -1e-3, 0)));
  CHECK (isnan (overlap_percent (NAN, 9, 10, 3, 0)));
  CHECK (isnan (overlap_percent (10, INFINITY, 10, 3, 0)));

  /* MBps = bytes / microseconds = 10^6 bytes/s.  */
  CHECK_NEAR (bandwidth_mbps (1000000, 1e6), 1, 1e-12);
  CHECK_NEAR (bandwidth_mbps (4096, 2), 2048, 1e-12);
  CHECK_NEAR (bandwidth_mbps (0, 2), 0, 0);
  CHECK (isnan (bandwidth_mbps (10, 0)));

  /* The paper's use: peak 2.5 MB/s, 50% and 90% sizes.  */
  int64_t b[] = { 0, 100, 486, 1000, 5000, 8000, 80000 };
  double m[] = { 0, 0.6, 1.25, 1.6, 2.25, 2.4, 2.5 };
  CHECK (bandwidth_fraction_size (b, m, 7, 0.5) == 486);
  CHECK (bandwidth_fraction_size (b, m, 7, 0.9) == 5000);
  CHECK (bandwidth_fraction_size (b, m, 7, 1.0) == 80000);
  /* Unsorted input, NaN ignored.  */
  int64_t b2[] = { 5000, 0, 486 };
  double m2[] = { 2.25, NAN, 1.25 };
  CHECK (bandwidth_fraction_size (b2, m2, 3, 0.5) == 486);
  CHECK (bandwidth_fraction_size (b2, m2, 3, 0.9) == 5000);
  double z[] = { 0, 0, NAN };
  CHECK (bandwidth_fraction_size (b2, z, 3, 0.5) == -1);
  CHECK (bandwidth_fraction_size (b2, z, 0, 0.5) == -1);
  return unit_done ();
}
