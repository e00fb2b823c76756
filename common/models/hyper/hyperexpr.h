/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyperexpr.h: a one-line language for communication graphs, reduced to
 * one equivalent block by Rules 1 to 4 of the hyperbolic model.
 *
 *   expr    := term { ('+' | '-') term }
 *   term    := unary { ('*' | '/') unary }
 *   unary   := '-' unary | primary
 *   primary := NUMBER | NAME | NAME '(' [arg {',' arg}] ')'
 *            | '(' expr ')' | '[' expr {',' expr} ']'
 *   arg     := NAME '=' expr | expr
 *
 * Values are numbers, blocks (a, b) and lists of numbers.  A NAME is a
 * block or a number supplied by the caller (block table, --let).  The
 * functions:
 *   serial(B, ...)        Rule 1, independent blocks (serial_dep: dependent)
 *   parallel(B, ...)      Rule 2, independent blocks (parallel_dep: dependent)
 *   concurrent(K, B)      Rule 3, K messages of equal size
 *   concurrent(B, sizes=[x1, ...], msg=I)  Rule 3, message I (1-based)
 *   general(small=B, large=B)  Rule 4
 *   cb(a=A, b=B)          an inline block
 *   packet(a=A, m=M, p=P) the block approximating eq. (1): b = a/p + m
 * '#' starts a comment to the end of the line.  Errors carry the line and
 * column (1-based, in bytes) of the offending token.  Pure: no I/O.  */
#ifndef MSGPERF_HYPEREXPR_H
#define MSGPERF_HYPEREXPR_H

#include <stddef.h>

#include "hyperbolic.h"

struct hexpr;   /* a parsed expression */

struct hexpr_error
{
  int line, col;      /* of the offending token, 1-based */
  char msg[256];
  int nomem;          /* 1: out of memory ("out of memory while parsing
                         the expression"; line and col 0), a runtime
                         failure rather than a fault of the text */
};

/* Parse TEXT.  NULL on error, with ERR filled.  */
struct hexpr *hexpr_parse (const char *text, struct hexpr_error *err);
void hexpr_free (struct hexpr *e);

/* The distinct free names of E (identifiers that are not function names
   nor argument keys), in order of first appearance.  */
size_t hexpr_nnames (const struct hexpr *e);
const char *hexpr_name (const struct hexpr *e, size_t i);

/* What a name stands for.  */
enum hexpr_binding
{
  HEXPR_UNBOUND = 0,
  HEXPR_NUMBER,
  HEXPR_BLOCK
};

/* The caller's names: LOOKUP fills *NUM or *CB and says which.  */
struct hexpr_env
{
  enum hexpr_binding (*lookup) (void *ctx, const char *name, double *num,
                                struct hyper_cb *cb);
  void *ctx;
};

/* Evaluate E to one block.  0 on success; -1 with ERR filled.  */
int hexpr_eval (const struct hexpr *e, const struct hexpr_env *env,
                struct hyper_cb *out, struct hexpr_error *err);

#endif
