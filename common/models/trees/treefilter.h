/* SPDX-License-Identifier: GPL-3.0-or-later */
/* treefilter.h: the transformation filters of a reduction tree.
 *
 * MRNet (Roth, Arnold, Miller, SC'03) applies a filter at every internal
 * node of its tree to the packets of one upward wave (section 2.4): the
 * basic scalar operations (min, max, sum, average), concatenation, the
 * equivalence-class binning Paradyn uses at start-up (section 3.1) and
 * the time-aligned aggregation of {value, interval} samples (section 3.2,
 * Figures 5b and 6).  Here each filter is a pure function on packets,
 * arrays of doubles, so that it can be tested without MPI and the
 * overlay (common/mpi/overlay.h) can move packets as MPI_DOUBLE.
 *
 * Packet layouts (m = values per rank):
 *   sum, min, max   m values, combined element by element
 *   avg             m pairs {sum, count}: averages combine exactly up the
 *                   tree; tf_finish turns them into m means
 *   concat          records {rank, v1..vm}, appended; tf_finish sorts
 *                   them by rank
 *   bin             classes {key, count, member1..member_count} sorted by
 *                   key, members sorted; a value v falls in the class
 *                   key = floor(v / w) * w for a bin width w > 0, or
 *                   key = v for w = 0
 *   align           nbins + 1 values: the value of every output interval
 *                   [t0 + i dt, t0 + (i+1) dt) and, last, the value that
 *                   fell outside the grid (so that nothing is lost);
 *                   a rank's own samples are triples {value, start, end}
 *
 * Within a packet every number is a double: ranks and counts are exact up
 * to 2^53.  Sums are associative only up to rounding, so a sum through a
 * tree equals the flat sum exactly when the values are integers (or
 * otherwise exactly representable partial sums); min, max, concat and bin
 * are exact whatever the values.  */
#ifndef MSGPERF_TREEFILTER_H
#define MSGPERF_TREEFILTER_H

#include <stddef.h>

enum tf_kind
{
  TF_SUM, TF_MIN, TF_MAX, TF_AVG, TF_CONCAT, TF_BIN, TF_ALIGN
};

struct tf_info
{
  const char *name;
  enum tf_kind kind;
  const char *summary;
};

/* The filters, ending in a NULL name.  */
extern const struct tf_info tf_table[];

/* The filter named NAME, or NULL.  */
const struct tf_info *tf_lookup (const char *name);

/* Comma-separated names of all filters (for error messages).  */
const char *tf_names (void);

/* Parameters of a stream's filter.  */
struct tf_params
{
  size_t m;          /* values per rank (sum..concat); samples are m/3 */
  double bin_width;  /* bin: class width, 0 for exact keys */
  double t0, dt;     /* align: grid origin and interval length */
  size_t nbins;      /* align: intervals in the grid */
};

/* A growable packet.  */
struct tf_buf
{
  double *v;
  size_t len, cap;
};

/* Out of memory: the functions below that return a message return this
   one (compare the pointer: it is a runtime failure, not bad values);
   those that return an int return -1 and leave their packet as it was.  */
extern const char tf_nomem[];

void tf_buf_init (struct tf_buf *b);
void tf_buf_free (struct tf_buf *b);
int tf_buf_reserve (struct tf_buf *b, size_t cap);
int tf_buf_append (struct tf_buf *b, const double *v, size_t n);

/* The packet of one rank RANK holding VALS (P->m of them; for align, m/3
   samples {value, start, end}), written to OUT (replacing its contents).
   Returns NULL, or a message saying what is wrong with the values.  */
const char *tf_local (enum tf_kind kind, const struct tf_params *p, int rank,
                      const double *vals, struct tf_buf *out);

/* A concat packet of NROWS records {rank, row} from ROWS (NROWS rows
   of P->m values), for ranks that contribute several rows (or none),
   written to OUT.  Returns NULL, or a message for non-finite values.  */
const char *tf_concat_rows (const struct tf_params *p, int rank,
                            const double *rows, size_t nrows,
                            struct tf_buf *out);

/* Combine the packet IN (N doubles) of one child into ACC.  Returns NULL,
   or a message when IN is not a packet of this filter.  */
const char *tf_combine (enum tf_kind kind, const struct tf_params *p,
                        struct tf_buf *acc, const double *in, size_t n);

/* Turn the root's packet into the result: avg pairs become means, concat
   records are sorted by rank; the others are left as they are.  Returns
   NULL, or tf_nomem (ACC unchanged).  */
const char *tf_finish (enum tf_kind kind, const struct tf_params *p,
                struct tf_buf *acc);

/* ---------------------------------------------------------------- bin */

/* The class of V for a bin width W (W = 0: V itself).  */
double tf_bin_key (double v, double w);

/* Add member ID with value V to the class list ACC: 0, or -1 out of
   memory (ACC unchanged).  */
int tf_bin_add (struct tf_buf *acc, double v, double w, double id);

/* Number of classes in a bin packet.  */
size_t tf_bin_nclasses (const double *v, size_t n);

/* ---------------------------------------------------------------- align */

struct tf_sample
{
  double value, start, end;
};

/* Batch form: attribute every sample's value to the grid intervals
   [t0 + i dt, t0 + (i+1) dt), i < NBINS, in proportion to the overlap of
   its [start, end) with each (section 3.2).  BINS (NBINS values) are
   added to, not cleared; the part of the value outside the grid is added
   to *OUTSIDE.  The sum of what is added to BINS and *OUTSIDE is the sum
   of the values (up to rounding).  Returns NULL, or a message for a
   sample with end <= start or non-finite fields.  */
const char *tf_align_bins (const struct tf_sample *s, size_t n, double t0,
                           double dt, size_t nbins, double *bins,
                           double *outside);

/* Streaming form, the filter of Figure 6: samples arrive one at a time on
   NINPUTS inputs, each input in time order; an output sample for the
   current output interval is produced when every input has data up to its
   end.  A sample overlapping the interval gives it the overlapping
   fraction of its value and keeps the rest, its start moved to the
   interval's end; a sample that ends inside the interval gives all it has
   left, so no value is lost to rounding.  */
struct tf_samples
{
  struct tf_sample *v;
  size_t len, cap;
};

struct tf_align_input
{
  struct tf_samples q;  /* pending samples (from head) */
  size_t head;
  double covered;       /* end of the last sample received */
};

struct tf_aligner
{
  size_t ninputs;
  double t0, dt, cur;   /* cur: start of the current output interval */
  struct tf_align_input *in;
};

/* 0, or -1 out of memory (A then has no inputs; tf_aligner_free is
   harmless).  */
int tf_aligner_init (struct tf_aligner *a, size_t ninputs, double t0,
                     double dt);
void tf_aligner_free (struct tf_aligner *a);

/* Receive sample S on INPUT; append the output samples it completes to
   OUT.  Returns NULL, or a message (sample out of order, before t0, empty
   interval, bad input number), in which case nothing changed, or
   tf_nomem: nothing changed if memory ran out storing S; otherwise S is
   stored, OUT holds the intervals completed before, and the next push or
   flush emits the rest.  */
const char *tf_aligner_push (struct tf_aligner *a, size_t input,
                             struct tf_sample s, struct tf_samples *out);

/* End of the streams: emit the remaining intervals up to the last time
   any input covered, inputs without data counting zero.  Returns NULL,
   or tf_nomem.  */
const char *tf_aligner_flush (struct tf_aligner *a, struct tf_samples *out);

/* Sum of the values still waiting in the queues.  */
double tf_aligner_pending (const struct tf_aligner *a);

void tf_samples_free (struct tf_samples *s);

#endif
