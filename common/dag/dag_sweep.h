/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_sweep: dag-predict --sweep NAME=LIST read: a model parameter, or a
   generator's field when the DAG is generated.  */
#ifndef MSGPERF_DAG_SWEEP_H
#define MSGPERF_DAG_SWEEP_H

#include <stddef.h>
#include <stdint.h>

#include "dag_bind.h"
#include "dag_gen.h"

/* TEXT (--sweep's value) into *NAME and the values *VALS[0..*N) (both
   malloc'd), *GFIELD the field of GEN it sets (NULL: a parameter of
   MODEL, checked against B's and the parameter table's ranges).
   GENERATED: the DAG comes from --gen.  Dies (usage) on a bad list, a
   name that is neither, or a generator's field without --gen.  */
void dag_sweep_parse (const char *text, struct dag_gen *gen, int generated,
                      const struct dag_bind *b, int model, char **name,
                      double **vals, size_t *n, int64_t **gfield);

#endif
