/* SPDX-License-Identifier: GPL-3.0-or-later */
/* plogp.h: parameterized LogP (Kielmann, Bal, Verstoep, Section 2) as a
 * cost model: the measured o_s(m), o_r(m) and g(m) of a table of message
 * sizes, read at any size m, and the per-message LogGP costs that give a
 * simulator pLogP's timing.
 *
 * Between two measured sizes a value is interpolated linearly in bytes;
 * beyond the largest size it follows the last segment's slope (flagged:
 * the table does not say what happens there); below the smallest it is
 * the smallest size's value (flagged).  Pure: no I/O, no exit.  */
#ifndef MSGPERF_PLOGP_H
#define MSGPERF_PLOGP_H

#include <stddef.h>

/* One measured size.  */
struct plogp_point
{
  double bytes;
  double os, or_, g;
};

struct plogp
{
  struct plogp_point *pt;  /* sorted by bytes, sizes distinct */
  size_t n;
  double L;                /* pLogP's end-to-end latency (may be < 0;
                              L + g(m) >= 0 at every size) */
  size_t nneg_g;           /* sizes whose g(m) is below 0 (read as 0) */
};

enum plogp_status
{
  PLOGP_OK,
  PLOGP_EMPTY,       /* no sizes */
  PLOGP_DUPLICATE,   /* two rows of the same size (*WHICH: the second) */
  PLOGP_NEGATIVE,    /* a size, o_s or o_r below zero, a value not
                        finite, or L not finite */
  PLOGP_NEGATIVE_ONEWAY, /* L + g(m) < 0 at a size (*WHICH) */
  PLOGP_NOMEM
};

/* Copy N points (any order) into *T, sorted by size.  A g(m) below 0 is
   accepted while L + g(m) >= 0, i.e. RTT(m) >= RTT(0)/2: Section 3's
   g(m) = RTT(m) - RTT(0) + g(0) comes out slightly negative when a tiny
   size's round trip is measured a little faster than the empty one's
   (timer noise); a gap cannot be negative, so the table holds 0 there
   (T->nneg_g counts such sizes).  On an error other
   than PLOGP_NOMEM, *WHICH (if not NULL) is the index in PTS of the
   offending point (N for L).  */
enum plogp_status plogp_init (struct plogp *t, const struct plogp_point *pts,
                              size_t n, double L, size_t *which);
void plogp_free (struct plogp *t);
const char *plogp_status_text (enum plogp_status s);

/* The values at M bytes.  */
struct plogp_at
{
  double os, or_, g;
  int beyond;        /* M is above the largest measured size */
  int below;         /* M is below the smallest measured size */
};
void plogp_eval (const struct plogp *t, double m, struct plogp_at *out);

/* The LogGP costs under which a message of M bytes follows pLogP: the
   sender's CPU is busy o_s(m); the next send waits g(m); the receiver has
   the message at r(m) = L + g(m) after the send started (Section 2, Fig. 1)
   and its CPU is busy o_r(m) up to then.  In LogGP terms (G = 0): o_s,
   o_r, g as measured and L' = L + g(m) - o_s(m) - o_r(m), Table 1's L at
   size m.  L' is negative where o_s and o_r overlap (long messages,
   Section 2): the receiver's overhead then starts before the sender's
   ends.  An o_r(m) > L + g(m) (against Section 2's g(m) >= o_r(m)) is
   capped at L + g(m), with L' = -o_s(m) (*CLAMPED set): the message is
   complete at r(m) = L + g(m) in every case.  */
struct plogp_loggp
{
  double L, os, or_, g;
  int clamped;
  int beyond, below;
};
void plogp_loggp (const struct plogp *t, double m, struct plogp_loggp *out);

/* LogGP's parameters expressed in pLogP's, Table 1, for a message of M
   bytes, for the models that charge a message a gap per byte G (LoGPC's
   (B - 1) G, eqs. (1), (10)) or a time per byte b (the hyperbolic
   model's large-message slope):
     L  = L + g(1) - o_s(1) - o_r(1)  (Table 1, short messages of 1 byte;
                                       clamped to 0, *CLAMPED set),
     os, or_, g  = o_s(M), o_r(M), g(M)  (the overheads and gap measured
                                       at the message's own size),
     G  = g(M) / M                     (Table 1's G = g(m)/m, read at M
                                       rather than at one large m; for
                                       M < 1, g(1) / 1).
   BEYOND and BELOW flag a read outside the table (at M or at 1 byte).  */
struct plogp_table1
{
  double L, os, or_, g, G;
  int clamped;
  int beyond, below;
};
void plogp_table1 (const struct plogp *t, double m,
                   struct plogp_table1 *out);

#endif
