/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_gather.c: logp-measure's results brought to rank 0 through the
   overlay tree (logp_report.h): the pairs' rows and samples by the
   concat filter, the link classes by the bin filter.  */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "logp_classes.h"
#include "logp_report.h"
#include "mpiutil.h"

enum part { PART_HEAD, PART_ROWS, PART_SAMPLES };

/* One upward wave of the concat filter that brings one part of every
   result to rank 0: each rank sends a record {pair, index, packed
   values} per head, row or sample of the pairs it measured (RES[p] on
   the pair's src rank), rank 0 puts each record back in its place.  This
   replaces a point-to-point gather: the overlay's internal ranks merge
   their subtrees' records, so rank 0 receives one packet per child.  */
static void
gather_part (struct overlay *ov, enum part part, struct lm_result *res,
             const struct logp_pair *pairs, size_t npairs)
{
  size_t nf = part == PART_HEAD ? H_NF : part == PART_ROWS ? R_NF : S_NF;
  struct tf_params tp;
  memset (&tp, 0, sizeof tp);
  tp.m = nf + 4;
  size_t nrec = 0;
  for (size_t p = 0; p < npairs; p++)
    if (pairs[p].src == mpu_rank)
      nrec += part == PART_HEAD ? 1 : part == PART_ROWS ? res[p].nrows
                                                         : res[p].nsamples;
  double *rec = malloc ((nrec * tp.m + 1) * sizeof (double));
  if (rec == NULL)
    mpu_die (EXIT_DATA, "out of memory");
  size_t r = 0;
  for (size_t p = 0; p < npairs; p++)
    if (pairs[p].src == mpu_rank)
      {
        size_t n = part == PART_HEAD ? 1 : part == PART_ROWS
          ? res[p].nrows : res[p].nsamples;
        for (size_t k = 0; k < n; k++, r++)
          {
            const double *v = part == PART_HEAD ? res[p].head
              : part == PART_ROWS ? res[p].rows + k * R_NF
              : res[p].samples + k * S_NF;
            rec[r * tp.m] = (double) p;
            rec[r * tp.m + 1] = (double) k;
            logp_pack (v, nf, rec + r * tp.m + 2);
          }
      }
  struct tf_buf mine, all;
  tf_buf_init (&mine);
  tf_buf_init (&all);
  const char *e = tf_concat_rows (&tp, mpu_rank, rec, nrec, &mine);
  if (e == tf_nomem)
    mpu_die (EXIT_DATA, "%s of the results", tf_nomem);
  if (e)
    mpu_die (EXIT_DATA, "gathering the results: %s", e);
  free (rec);
  ov_reduce_packet (ov, TF_CONCAT, &tp, &mine, NULL, &all, NULL);
  tf_buf_free (&mine);
  if (mpu_rank == 0)
    for (size_t i = 0; i + tp.m + 1 <= all.len; i += tp.m + 1)
      {
        const double *x = all.v + i + 1;
        size_t p = (size_t) x[0], k = (size_t) x[1];
        if (!(x[0] >= 0 && p < npairs && x[1] >= 0))
          mpu_die (EXIT_DATA, "gathering the results: bad record");
        struct lm_result *t = &res[p];
        double *dst;
        if (part == PART_HEAD)
          {
            dst = t->head;
            if (t->rows == NULL)  /* a pair measured elsewhere */
              {
                double h[H_NF];
                if (logp_unpack (x + 2, nf, h) != 0)
                  mpu_die (EXIT_DATA, "gathering the results: bad record");
                t->nrows = (size_t) h[H_NROWS];
                t->nsamples = (size_t) h[H_NSAMPLES];
                t->rows = malloc ((t->nrows * R_NF + 1) * sizeof (double));
                t->samples = malloc ((t->nsamples * S_NF + 1)
                                     * sizeof (double));
                if (t->rows == NULL || t->samples == NULL)
                  mpu_die (EXIT_DATA, "out of memory");
              }
          }
        else if (part == PART_ROWS && k < t->nrows)
          dst = t->rows + k * R_NF;
        else if (part == PART_SAMPLES && k < t->nsamples)
          dst = t->samples + k * S_NF;
        else
          mpu_die (EXIT_DATA, "gathering the results: bad record");
        if (logp_unpack (x + 2, nf, dst) != 0)
          mpu_die (EXIT_DATA, "gathering the results: bad record");
      }
  tf_buf_free (&all);
}

/* The results of every pair at rank 0 (heads first: they give the number
   of rows and samples).  Elsewhere RES is freed.  */
void
lm_gather_results (struct overlay *ov, struct lm_result *res,
                   const struct logp_pair *pairs, size_t npairs, int raw)
{
  gather_part (ov, PART_HEAD, res, pairs, npairs);
  gather_part (ov, PART_ROWS, res, pairs, npairs);
  if (raw)
    gather_part (ov, PART_SAMPLES, res, pairs, npairs);
  if (mpu_rank != 0)
    for (size_t p = 0; p < npairs; p++)
      lm_result_free (&res[p]);
}

/* --classes: every rank files the links it measured under their class
   (logp_class_key), one upward wave of the bin filter merges the class
   lists, rank 0 gets {key, count, members} per class, members being
   src * P + dst, sorted.  */
void
lm_gather_classes (struct overlay *ov, const struct lm_config *c,
                   const struct lm_result *res,
                   const struct logp_pair *pairs, size_t npairs,
                   struct tf_buf *classes)
{
  struct tf_buf mine;
  tf_buf_init (&mine);
  for (size_t p = 0; p < npairs; p++)
    if (pairs[p].src == mpu_rank
        && tf_bin_add (&mine, logp_class_key (lm_class_value (c, &res[p]),
                                              c->class_width), 0,
                       (double) pairs[p].src * mpu_size + pairs[p].dst) < 0)
      mpu_die (EXIT_DATA, "%s of the classes", tf_nomem);
  struct tf_params tp;
  memset (&tp, 0, sizeof tp);
  tp.m = 1;
  ov_reduce_packet (ov, TF_BIN, &tp, &mine, NULL, classes, NULL);
  tf_buf_free (&mine);
}
