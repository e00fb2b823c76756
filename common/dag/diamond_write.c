/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diamond_write.c: dag-predict diamond's row (diamond_write.h).  */
#include <config.h>

#include "diamond_write.h"

/* The row of eq. (15)'s terms, the best b, and the simulation.  */
void
diamond_write_row (tsv_writer *w, const struct dag_gen *gen,
                   const struct diamond_out *o, double b_real, int64_t b_best,
                   double m_best, double m_sim, int closed)
{
  const char *cols[20] = { "n", "P", "b", "W", "B", "d", "Os", "Or", "u",
                           "v", "makespan", "b_opt", "b_best",
                           "makespan_best", "makespan_sim" };
  tsv_write_header (w, closed ? 14 : 15, cols);
  tsv_put_int (w, gen->n);
  tsv_put_int (w, gen->procs);
  tsv_put_int (w, gen->blocks);
  tsv_put_num (w, o->W);
  tsv_put_num (w, o->B);
  tsv_put_num (w, o->d);
  tsv_put_num (w, o->Os);
  tsv_put_num (w, o->Or);
  tsv_put_num (w, o->u);
  tsv_put_num (w, o->v);
  tsv_put_num (w, o->M);
  tsv_put_num (w, b_real);
  tsv_put_int (w, b_best);
  tsv_put_num (w, m_best);
  if (!closed)
    tsv_put_num (w, m_sim);
  tsv_end_row (w);
}
