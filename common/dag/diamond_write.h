/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diamond_write.h: dag-predict diamond's row: eq. (15)'s terms (O, of
   diamond.h) for GEN's n, P and b, the best b (real and integer) and
   its makespan, and the simulated makespan unless CLOSED
   (--closed-form).  */
#ifndef MSGPERF_DIAMOND_WRITE_H
#define MSGPERF_DIAMOND_WRITE_H

#include <stdint.h>

#include "dag_gen.h"
#include "diamond.h"
#include "tsv.h"

void diamond_write_row (tsv_writer *w, const struct dag_gen *gen,
                        const struct diamond_out *o, double b_real,
                        int64_t b_best, double m_best, double m_sim,
                        int closed);

#endif
