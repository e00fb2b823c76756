/* SPDX-License-Identifier: GPL-3.0-or-later */
/* attribute.h: msgperf-trace attribute MAP [FILE], dag-predict's rows
 * per operation (--gantt, --critical-path) named by the MPI call each
 * operation comes from (the --map of msgperf-trace goal), or with --sum
 * the predicted time of each rank in each call kind and state.  */
#ifndef MSGPERF_ATTRIBUTE_H
#define MSGPERF_ATTRIBUTE_H

int attribute (int argc, const char **argv);

#endif
