/* SPDX-License-Identifier: GPL-3.0-or-later */
/* untraced.h: the counts of the MPI calls libmsgperf-trace does not
   trace (untraced.c).  */
#ifndef MSGPERF_UNTRACED_H
#define MSGPERF_UNTRACED_H

/* One TRACE_UNTRACED record per call made at least once (at
   MPI_Finalize, before its own record).  */
void untraced_records (void);

/* Count a call of untraced call U (enum trace_untraced): the C
   wrappers' and the Fortran ones' (funtraced.c).  */
void untraced_count (unsigned u);

#endif
