/* SPDX-License-Identifier: GPL-3.0-or-later */
/* predict_meta: the metadata of dag-predict's output, written before
   its table: the schedule's own, then the model's, the network's, the
   noise's, the time unit, and the parameters' (msgperf(7): an input's
   metadata is copied, and what the tool adds has keys of its own).  */
#ifndef MSGPERF_PREDICT_META_H
#define MSGPERF_PREDICT_META_H

#include <stddef.h>

#include "dag.h"
#include "dag_bind.h"
#include "dag_input.h"
#include "noise_read.h"
#include "topo_read.h"
#include "tsv.h"

/* What one run of dag-predict used.  */
struct dag_predict_meta
{
  const struct dag_input *in;   /* the schedule's file, its streams */
  const struct dag *d;          /* the schedule */
  const struct dag *ds;         /* a generator's sweep: its schedules */
  size_t nds;                   /* (ND; 0: D only) */
  int model;                    /* enum dag_model */
  int tie;                      /* enum dagsim_tie */
  const char *network;          /* --network as given, or NULL */
  const struct dag_topo_file *topo;
  const struct dag_noise *noise;
  const struct dag_noise_opts *noise_opts;
  const struct dag_units *u;    /* the time unit, --params' conversion */
  const char *save_binary;      /* --save-binary FILE, or NULL */
  const struct dag_bind *b;     /* the parameters */
  const char *where;            /* --where, or NULL */
  const struct plogp *plogp;    /* -m plogp's table */
};

void dag_predict_write_meta (tsv_writer *w, const struct dag_predict_meta *m);

#endif
