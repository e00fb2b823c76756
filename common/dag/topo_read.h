/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topo_read: the reader of a topology file (--network topology:FILE of
   dag-predict): TSV rows from, to, G, L into a struct dag_topo
   (topology.h), with the input line of each link kept for the errors
   found once the schedule is known.  */
#ifndef MSGPERF_TOPO_READ_H
#define MSGPERF_TOPO_READ_H

#include <stddef.h>

#include "dag.h"
#include "topology.h"
#include "tsv.h"

struct dag_topo_file
{
  struct dag_topo topo;
  long *line;                 /* the input line of each link */
  size_t line_cap;
  char *name;                 /* the file's name, NULL before a read */
  size_t cfrom, cto;          /* the columns of a link's ends */
  char conversion[128];       /* "us to ns (x1000)", or empty */
  char **meta;                /* its metadata lines, without "#@" */
  size_t nmeta;
};

/* Read FILE into T, its times converted to UNIT (the schedule's, NULL
   for none); dies on a bad row with its file, line and column.  */
void dag_topo_read (struct dag_topo_file *t, const char *file,
                    const char *unit);

/* T against the schedule D: every rank it names is one of D's, and every
   message has a route; dies otherwise.  */
void dag_topo_check (struct dag_topo_file *t, const struct dag *d);

/* T's metadata under the prefix network_ (an input's metadata never
   mixes with the output's keys), and its time conversion.  */
void dag_topo_write_meta (tsv_writer *w, const struct dag_topo_file *t);

/* Frees what dag_topo_read allocated (nothing if it never ran).  */
void dag_topo_file_free (struct dag_topo_file *t);

#endif
