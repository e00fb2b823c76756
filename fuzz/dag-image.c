/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag-image.c (fuzz): dag-predict's binary schedules (common/dag/
 * dag_image.c, --save-binary).
 *
 * The input is the file, opened twice: as it is, and with its header's
 * checksum recomputed over the arrays the header names, so that
 * mutations get past the checksum to the checks behind it (what a
 * program with a bug could have written).  Properties: the opener
 * returns a reason or a graph whose every index is in range (checked
 * here independently), and the simulator runs such a graph to its end
 * or to a data error (a schedule that cannot complete), never out of
 * bounds.  Seeds: fuzz/corpus/dag-image/, --save-binary files of the
 * testsuite's GOAL schedules.  */
#include <config.h>

#include "dag.h"
#include "dag_image.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Every index of the graph in range.  */
static void
in_range (const struct dag *d)
{
  FUZZ_ASSERT (d->mapped);
  for (size_t v = 0; v < d->n; v++)
    {
      const struct dag_node *x = &d->node[v];
      FUZZ_ASSERT (x->op <= DAG_RECV);
      FUZZ_ASSERT (x->proc >= 0 && x->proc < d->nprocs);
      FUZZ_ASSERT (x->cpu <= d->maxcpu && x->nic <= d->maxnic);
      if (x->op == DAG_SEND)
        FUZZ_ASSERT (x->peer >= 0 && x->peer < d->nprocs);
      if (x->op == DAG_RECV)
        FUZZ_ASSERT (x->peer == DAG_ANY
                     || (x->peer >= 0 && x->peer < d->nprocs));
      for (uint32_t i = d->succ_off[v]; i < d->succ_off[v + 1]; i++)
        FUZZ_ASSERT ((d->succ[i] >> 1) < d->n);
      int32_t nm = dag_node_name (d, v);
      FUZZ_ASSERT (nm == -1 || (nm >= 0 && (size_t) nm < d->pool_len));
      FUZZ_ASSERT (dag_node_line (d, v) >= 0);
    }
}

/* Open the image B (SIZE bytes); when it opens, check it and simulate
   it (small ones: a header may claim 2^28 processors).  */
static void
try_open (unsigned char *b, size_t size)
{
  static struct dag d;
  int goal = 0;
  const char *why = dag_image_open (&d, b, size, &goal);
  if (why)
    return;
  in_range (&d);
  if (d.nprocs > 4096 || d.n > 100000)
    return;
  struct dag_params p;
  dag_params_default (&p);
  FUZZ_TRY ({
      struct dagsim_result r;
      int it;
      dag_predict (&d, MODEL_LOGGOPS, &p, NULL, 1e-12, 4, &r, &it);
      dagsim_result_free (&r);
    }, {
      dag_free (&d);
    });
  FUZZ_ASSERT (fuzz_status == -1 || fuzz_status == EXIT_DATA);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  fuzz_setup ("dag-image-fuzz");
  /* 8-byte aligned, as a file read into memory is.  */
  unsigned char *b = malloc (size ? size : 1);
  if (!b)
    abort ();
  memcpy (b, data, size);
  try_open (b, size);
  struct dag_image_header h;
  if (size >= sizeof h)
    {
      memcpy (&h, b, sizeof h);
      uint64_t sum = 0;
      int whole = 1;
      for (int k = 0; k < DAG_IMAGE_NARRAYS && whole; k++)
        if (h.len[k])
          {
            whole = h.off[k] <= size && h.len[k] <= size - h.off[k];
            if (whole)
              sum = dag_image_sum (b + h.off[k], h.len[k], sum);
          }
      if (whole && sum != h.checksum)
        {
          h.checksum = sum;
          memcpy (b, &h, sizeof h);
          try_open (b, size);
        }
    }
  free (b);
  return 0;
}
