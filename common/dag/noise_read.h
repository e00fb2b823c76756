/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise_read.h: the noise a user asks for (dag-predict --noise SPEC,
   --noise-trace FILE, --noise-phase, --noise-cosched) turned into the
   model of noise.h; errors end the program (err.h) naming the option,
   or the trace's file, line and column.  */
#ifndef MSGPERF_NOISE_READ_H
#define MSGPERF_NOISE_READ_H

#include <stdint.h>

#include "noise.h"
#include "tsv.h"

struct dag_noise_opts
{
  const char *spec;    /* --noise periodic:PERIOD:DETOUR[:PHASE] or
                          exp:MEAN_INTERVAL:DETOUR, or NULL */
  const char *trace;   /* --noise-trace FILE: LogGOPSim's trace, or NULL */
  const char *phase;   /* --noise-phase T (with a trace), or NULL */
  int cosched;         /* --noise-cosched */
  uint64_t seed;       /* of the phases and exponential detours */
  /* set by dag_noise_setup: the trace's detours, and their lines */
  double *start, *len;
  long *line;
};

/* Check the options O together, read or parse the noise into Z and
   draw its phases for NRANKS ranks (dag_noise_init).  Z stays
   DAG_NOISE_NONE when O asks for no noise.  */
void dag_noise_setup (struct dag_noise *z, struct dag_noise_opts *o,
                      int64_t nranks);

/* Z's metadata: the options as given, and what was drawn.  */
void dag_noise_meta (tsv_writer *w, const struct dag_noise *z,
                     const struct dag_noise_opts *o);

#endif
