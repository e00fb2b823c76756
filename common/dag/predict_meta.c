/* SPDX-License-Identifier: GPL-3.0-or-later */
/* predict_meta: the metadata of dag-predict's output.  */
#include <config.h>

#include "dagmodel.h"
#include "dagsim.h"
#include "predict_meta.h"

void
dag_predict_write_meta (tsv_writer *w, const struct dag_predict_meta *m)
{
  for (size_t i = 0; i < m->in->nrd; i++)
    tsv_copy_meta (w, m->in->rd[i]);
  tsv_write_tool_meta (w, "predict");
  tsv_meta (w, "model", "%s", dag_model_name (m->model));
  tsv_meta (w, "tie_order", "%s", m->tie == DAGSIM_TIE_CLASS ? "class"
                                                            : "creation");
  if (m->network)
    tsv_meta (w, "network", "%s", m->network);
  dag_topo_write_meta (w, m->topo);
  if (m->b->cores)
    tsv_meta (w, "cores", "%ld", (long) m->b->cores);
  dag_noise_meta (w, m->noise, m->noise_opts);
  tsv_meta_time_unit (w, m->u->unit);
  if (m->d->mapped)
    tsv_meta (w, "binary_schedule", "%s (of %s)", m->in->image_name,
              m->d->source);
  if (m->save_binary)
    tsv_meta (w, "saved_binary", "%s (%llu bytes)", m->save_binary,
              (unsigned long long) m->in->saved_bytes);
  if (m->u->goal_default_unit)
    tsv_meta (w, "goal_time_unit", "ns (LogGOPSim's; the default of "
              "--time-unit)");
  dag_bind_write_meta (w, m->b, m->where, m->u->conversion);
  if (m->model == MODEL_PLOGP)
    dag_bind_plogp_meta (w, m->b, m->plogp, m->nds ? m->ds : m->d,
                         m->nds ? m->nds : 1);
}
