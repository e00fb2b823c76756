/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_apps.h: the application patterns of LogGOPSim's Schedgen
 * (nway-dissemination, random-bisect, halo) as task graphs for
 * dag-predict's generators (dag_gen.h).  Pure: no I/O.  */
#ifndef MSGPERF_DAG_APPS_H
#define MSGPERF_DAG_APPS_H

#include "dag_gen.h"

/* Is NAME one of these patterns?  */
int dag_apps_is (const char *name);

/* Run the pattern named by G->pattern (one of dag_apps_is).  Returns
   NULL on success, or a static message naming the bad parameter (or
   that memory ran out).  */
const char *dag_apps_run (const struct dag_gen *g, const struct dag_sink *s);

#endif
