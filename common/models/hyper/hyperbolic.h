/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperbolic.h: the hyperbolic communication model of Stoica, Sultan and
 * Keyes ("Evaluating the Hyperbolic Model on a Variety of Architectures").
 *
 * A communication block CB(a, b) takes T(x; a, b) = a^2/(a + b x) + b x
 * to process a message of x bytes (eq. (2)): a is the small-message time
 * (T(0) = a), b the time per byte of the large-message asymptote.  Rules 1
 * to 4 reduce a graph of blocks to one equivalent block.  Pure functions:
 * no I/O, no allocation, no global state.  A parameter that is NaN (not
 * known) makes every parameter computed from it NaN.  */
#ifndef MSGPERF_HYPERBOLIC_H
#define MSGPERF_HYPERBOLIC_H

#include <stddef.h>

/* One communication block: fixed time a, time per byte b (any one time
   unit, the same for both).  */
struct hyper_cb
{
  double a;
  double b;
};

/* Do the blocks share a resource (dependent) or not (independent)?  */
enum hyper_link
{
  HYPER_INDEPENDENT = 0,
  HYPER_DEPENDENT = 1
};

/* eq. (2): T(x; a, b) = a^2/(a + b x) + b x.  T(x; 0, b) = b x.  */
double hyper_time (double x, double a, double b);
double hyper_time_cb (struct hyper_cb cb, double x);

/* eq. (1): the packetized service time t(x; a, m, p) = a ceil(x/p) + m x
   of a block with packets of at most P bytes, fixed time A per packet and
   M per byte.  */
double hyper_sawtooth (double x, double a, double m, double p);

/* The b of the hyperbola that approximates eq. (1): b = a/p + m.  */
double hyper_b_of_packet (double a, double m, double p);

/* The Hockney (linear) model: alpha + beta x.  */
double hyper_linear_time (double x, double alpha, double beta);

/* Is CB physically meaningful (a and b finite and >= 0)?  */
int hyper_cb_valid (struct hyper_cb cb);

/* Rule 1, serial interconnection of N >= 1 blocks:
   a = sum a_i; b = max b_i (independent) or sum b_i (dependent).  */
struct hyper_cb hyper_serial (const struct hyper_cb *cbs, size_t n,
                              enum hyper_link link);

/* Rule 2, parallel interconnection of N >= 1 blocks:
   a = min a_i; b = (sum 1/b_i)^-1 (independent) or min b_i (dependent).
   A block with b_i = 0 makes the independent b zero.  */
struct hyper_cb hyper_parallel (const struct hyper_cb *cbs, size_t n,
                                enum hyper_link link);

/* Two-block forms of Rules 1 and 2.  */
struct hyper_cb hyper_serial2 (struct hyper_cb x, struct hyper_cb y,
                               enum hyper_link link);
struct hyper_cb hyper_parallel2 (struct hyper_cb x, struct hyper_cb y,
                                 enum hyper_link link);

/* Rule 3 with K messages of equal size: each message sees
   CB(k a, k b).  K >= 1 (a count, not necessarily an integer here).  */
struct hyper_cb hyper_concurrent (struct hyper_cb cb, double k);

/* Rule 3 with N messages of sizes SIZES[0..N-1] (all > 0): message I
   (0-based) sees CB(n a, b * sum(sizes) / sizes[i]).  */
struct hyper_cb hyper_concurrent_sized (struct hyper_cb cb,
                                        const double *sizes, size_t n,
                                        size_t i);

/* Rule 4, the general rule: when the small-message and the large-message
   graphs differ, a comes from the reduction of the first (x -> 0) and b
   from the reduction of the second (x -> infinity).  */
struct hyper_cb hyper_general (struct hyper_cb small, struct hyper_cb large);

#endif
