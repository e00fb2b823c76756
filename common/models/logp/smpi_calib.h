/* SPDX-License-Identifier: GPL-3.0-or-later */
/* smpi_calib.h: SimGrid SMPI's network and overheads from a table of
 * parameterized LogP (plogp.h), so that an SMPI simulation and
 * dag-predict -m plogp start from the same measurement.  Pure: no I/O,
 * no exit.  */
#ifndef MSGPERF_SMPI_CALIB_H
#define MSGPERF_SMPI_CALIB_H

#include <stddef.h>

#include "plogp.h"

/* One segment of SMPI's smpi/os or smpi/or ("MIN:OFFSET:PER_BYTE"): a
   message of s > MIN bytes (and at most the next segment's MIN) costs
   OFFSET + PER_BYTE s.  */
struct smpi_seg
{
  double min, offset, per_byte;
};

/* One segment of smpi/lat-factor and smpi/bw-factor ("MIN:FACTOR").  */
struct smpi_factor
{
  double min, lat, bw;
};

struct smpi_calib
{
  double latency;     /* the link's latency (the table's time unit) */
  double bandwidth;   /* bytes per time unit */
  size_t n;           /* segments in os, or_, factor */
  struct smpi_seg *os, *or_;
  struct smpi_factor *factor;
};

/* The calibration of table T (two sizes or more): 0, or -1 when out
   of memory or T has fewer than two sizes.  */
int smpi_calib_make (const struct plogp *t, struct smpi_calib *c);
void smpi_calib_free (struct smpi_calib *c);

/* The time SMPI spends on the network for a message of M bytes under C
   (latency times the factor, plus M over the bandwidth times its factor,
   with SMPI's rule: the segment of largest MIN below M, 1 below all).  */
double smpi_calib_network (const struct smpi_calib *c, double m);

#endif
