/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyper_io.h: hyper-reduce's streams bound to the hyperbolic model of
   Stoica, Sultan and Keyes (hyperbolic.h, hyperexpr.h): the blocks an
   expression names read from TSV, the --let variables it is evaluated
   over, and the rows written.  Bad input ends the program (err.h)
   naming file, line, column and text.  */
#ifndef MSGPERF_HYPER_IO_H
#define MSGPERF_HYPER_IO_H

#include <stddef.h>

#include "hyperbolic.h"
#include "hyperexpr.h"
#include "hyperfit.h"
#include "hyperinvert.h"
#include "params.h"
#include "tsv.h"

/* A growable array of doubles.  */
struct dvec
{
  double *v;
  size_t n, cap;
};
void dvec_push (struct dvec *d, double x);

/* A --let variable: its values, and the one of the combination being
   evaluated.  */
struct hr_letvar
{
  char *name;
  struct dvec vals;
  double cur;
};

/* A block of the input: its name and its (a, b).  */
struct hr_block
{
  char *name;
  struct hyper_cb cb;
};

/* The names an expression binds: the --let variables, then the blocks
   (hexpr_env's context for hr_lookup).  */
struct hr_scope
{
  struct hr_letvar *lets;
  size_t nlets;
  struct hr_block *blocks;
  size_t nblocks;
};

/* hexpr_env's lookup in the scope CTX (a struct hr_scope).  */
enum hexpr_binding hr_lookup (void *ctx, const char *name, double *num,
                              struct hyper_cb *cb);
/* The expression file PATH, as text.  */
char *hr_read_expr_file (const char *path);
/* Does E use a name that none of the NLETS LETS binds (a block)?  */
int hr_needs_blocks (const struct hexpr *e, const struct hr_letvar *lets,
                     size_t nlets);
/* R's blocks (columns NAME_COL, a, b) added to SC; a name given twice,
   or a --let variable's, is an error.  */
void hr_read_blocks (tsv_reader *r, struct hr_scope *sc,
                     const char *name_col);
/* The --let values of combination ROW (the first varying slowest) into
   POS, and into each variable's current value.  */
void hr_combination (const struct hr_scope *sc, size_t row, size_t *pos);
/* An evaluation error at WHERE, with the --let values it happened at.  */
void hr_eval_error (const struct hr_scope *sc, const char *where,
                    const struct hexpr_error *err);
/* Warnings about NA and overflowing results (written NA).  */
void hr_reduce_warn (const struct hyper_cb *outs, size_t ncomb);
/* reduce's output: one row per --let combination, the variables, then
   a and b of OUTS; POS is scratch of NLETS + 1.  */
void hr_reduce_write (const struct hr_scope *sc, tsv_reader **rs,
                      size_t nfiles, const char *text,
                      const struct hyper_cb *outs, size_t ncomb, size_t *pos);

/* Rows grouped by the text of one column (in order of appearance).  */
struct hr_group
{
  char *key;
  struct dvec x, t;
  struct hfit_result *fits;   /* fit: one per segment */
  size_t nfits;
};

struct hr_groups
{
  struct hr_group *v;
  size_t n;
};
struct hr_group *hr_group_get (struct hr_groups *gs, const char *key);
void hr_groups_free (struct hr_groups *gs);

/* The explanation of a refused or failed fit, ending the program:
   WHAT, then why (the columns BYTES_COL and TIME_COL named).  */
void hr_die_fit (const char *what, enum hfit_status st,
                 const struct hfit_result *r, const char *bytes_col,
                 const char *time_col);
/* fit's output, every fit having succeeded: a row per group (its key
   in column BY, unless NULL) and segment (when SEGMENTED), MODEL's
   parameters (alpha and beta when LINEAR, else a and b), their
   errors and the fit's quality; warnings about poor fits.  */
void hr_fit_write (const struct hr_groups *gs, tsv_reader **rs, size_t nr,
                   const char *model, const char *weight, const char *by,
                   int segmented, int linear);

/* How fit fits: the model, the weighting, the segments (--segments auto,
   K, or at=X1,...).  */
struct hr_fit_plan
{
  struct hfit_options fo;
  size_t kmax, kfixed;
  struct dvec at;
  int search;
  int segmented;
  const char *weight_name;
  const char *by;               /* --by COL, or NULL */
  const char *bytes_col, *time_col;
};

/* Fit group G by PL into G->fits (RES and BREAKS: room for the fits);
   a refused or failed fit ends the program (hr_die_fit).  */
void hr_fit_group (const struct hr_fit_plan *pl, struct hr_group *g,
                   struct hfit_result *res, double *breaks);

/* invert: eq. (2) fitted to one group (X, T) as an observation of
   pattern size N (RTT: a round trip's halves).  */
struct hinv_obs hr_observe (const char *what, double n, int rtt,
                            const struct dvec *x, const struct dvec *t,
                            const char *bytes_col, const char *time_col);
/* invert's output: the two rows of the solution, its notes as metadata
   and warnings.  */
void hr_invert_write (const struct hinv_result *res, const char *pattern,
                      tsv_reader **inputs, size_t ninputs);

/* eval: one row's times, eq. (2) and, when EXACT, eq. (1)'s sawtooth
   (M, P) before it; a time above the largest double is a warning.  */
void hr_eval_row (tsv_writer *w, double x, double a, double b, double m,
                  double p, int exact);

/* Where each of a, b, bytes comes from.  */
struct hr_eval_src
{
  const char *name;
  long col;           /* input column, or -1 */
  struct dvec vals;   /* option values (a, b: one value) */
};

/* One run of eval: eq. (1)'s packet parameters, the sources of a, b
   and the sizes, the parameter layers, the inputs.  */
struct hr_eval_job
{
  double m, p;                  /* eq. (1): per-byte cost, packet size */
  int packet;                   /* --packet, --fixed, --per-byte */
  struct hr_eval_src *src;         /* a, b, bytes */
  int layered[2];               /* a, b from --params or --set */
  int plogp_b;                  /* b from --plogp at every size */
  struct param_set ps;
  struct param_file *pf;
  const char *time2;            /* --exact's second time column */
  const char *time_col;         /* --time-col */
  int exact;                    /* --exact: eq. (1) beside eq. (2) */
  /* with plogp_b: b of a message of X bytes (--plogp) */
  double (*b_of_size) (double x);
  tsv_reader **rs;
  size_t nfiles;
  const char **names;           /* output header */
  size_t nn;
};

/* A parameter (K: 0 a, 1 b) from --params or --set that is NA: the
   layer's error.  */
void hr_eval_need (struct hr_eval_job *j, int k);
/* The input FILEs (standard input without one), which must share one
   header: the output has one.  */
void hr_eval_open_inputs (struct hr_eval_job *j, const char **files);
/* Where a, b and the size of each row come from (a column, or a value
   given), and the output header: the input's columns, the given ones,
   the time.  */
void hr_eval_columns (struct hr_eval_job *j);
/* Every row of every input, crossed with the --bytes sizes if given.  */
void hr_eval_rows (struct hr_eval_job *j, tsv_writer *w);

/* A size or a count: an integer when it is one (whatever --precision).  */
void hr_put_count (tsv_writer *w, double v);
/* The inputs' metadata, the tool's (subcommand SUB), and the time unit
   the N readers RS share, if any.  */
void hr_write_common_meta (tsv_writer *w, tsv_reader *const *rs, size_t n,
                           const char *sub);

#endif
