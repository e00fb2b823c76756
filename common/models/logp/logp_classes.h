/* SPDX-License-Identifier: GPL-3.0-or-later */
/* logp_classes.h: moving logp-measure's result records through the
 * overlay's filters (treefilter.h), and the equivalence classes of links.
 *
 * The concat filter carries finite doubles only, while a result row holds
 * NaN for what was not measured; logp_pack/logp_unpack encode a record of
 * up to LOGP_PACK_MAXN values as finite doubles and back, bit for bit.
 *
 * Classes: Paradyn groups its daemons into equivalence classes with the
 * binning filter of MRNet (Roth, Arnold, Miller, SC'03, section 3.1);
 * logp-measure --classes groups links the same way by one parameter.  A
 * class has a relative width W: a positive value v falls in class
 *   k = floor(log(v) / log(1 + W)),  bounds [(1+W)^k, (1+W)^(k+1)),
 * so every class spans a factor 1 + W whatever the unit.  The key given
 * to the bin filter is k itself (an exact integer, bin width 0), so that
 * every rank files a value under the same key.  */
#ifndef MSGPERF_LOGP_CLASSES_H
#define MSGPERF_LOGP_CLASSES_H

#include <stddef.h>

/* Values per record at most (bits of a double's significand).  */
#define LOGP_PACK_MAXN 52

/* OUT (N + 2 values) gets IN (N values) as finite doubles: OUT[0] and
   OUT[1] are bit masks of the NaN and the infinite values, whose places
   hold 0 and +-1.  Returns N + 2.  */
size_t logp_pack (const double *in, size_t n, double *out);

/* The inverse: OUT (N values) from IN (N + 2).  Returns 0, or -1 when
   IN is not a packed record (bad masks).  */
int logp_unpack (const double *in, size_t n, double *out);

/* Keys of the values that have no class of their own.  */
#define LOGP_CLASS_NA (-2e300)      /* NaN or infinite (not measured) */
#define LOGP_CLASS_NONPOS (-1e300)  /* zero or negative */

/* The class key of V for the relative width W > 0.  */
double logp_class_key (double v, double w);

/* The bounds of class KEY (a key of a positive value): [*LO, *HI),
   powers of 1 + W; a value V of key KEY has *LO <= V < *HI exactly.  */
void logp_class_bounds (double key, double w, double *lo, double *hi);

#endif
