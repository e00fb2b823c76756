/* SPDX-License-Identifier: GPL-3.0-or-later */
/* params.h: the one parameter layer of the model tools (msgperf(7),
 * PARAMETERS).
 *
 * One table of the parameter names every model tool knows (with their
 * aliases, units and ranges), one --set NAME=VALUE parser, one --params
 * FILE reader (several rows, selected by key), one precedence and one NA
 * policy:
 *
 *   built-in defaults < --params FILE < --set NAME=VALUE and named options
 *     < per-row columns of the input stream;
 *
 *   a parameter the chosen model needs that is NA or absent is an error
 *   naming the parameter and where it was looked for (file, line), never a
 *   silent default.
 *
 * loGPC-solve, hyper-reduce and dag-predict build on it.  */
#ifndef MSGPERF_PARAMS_H
#define MSGPERF_PARAMS_H

#include <stddef.h>

#include "err.h"
#include "num.h"
#include "tsv.h"

/* Every numeric parameter a model tool reads by name.  */
enum param_id
{
  /* LogP family (msgperf(7), NAMES AND UNITS) */
  PARAM_L, PARAM_OS, PARAM_OR, PARAM_g, PARAM_G, PARAM_O, PARAM_S,
  /* hyperbolic and Hockney */
  PARAM_A, PARAM_B, PARAM_ALPHA, PARAM_BETA,
  /* LoGPC network and workload */
  PARAM_N, PARAM_KD, PARAM_GC, PARAM_OSL, PARAM_ORL, PARAM_GM,
  PARAM_HDR_BYTES, PARAM_BYTES, PARAM_M, PARAM_T, PARAM_P, PARAM_CR,
  PARAM_DAG_N, PARAM_BLOCKS, PARAM_TASK, PARAM_AGG, PARAM_MSGS, PARAM_CS,
  PARAM_NPARAM
};

/* What a value may be.  */
enum param_range
{
  PRANGE_NONNEG,    /* >= 0 */
  PRANGE_POS,       /* > 0 */
  PRANGE_ONE,       /* >= 1 */
  PRANGE_COUNT      /* a whole number from 1 to 2^40 */
};

/* How a value changes with the time unit.  */
enum param_unit
{
  PUNIT_NONE,       /* sizes, counts, distances */
  PUNIT_TIME,       /* a time */
  PUNIT_PER_BYTE,   /* a time per byte */
  PUNIT_RATE,       /* per time (messages per time unit) */
  PUNIT_BYTES       /* a size in bytes (on the command line also with K,
                       M or G, powers of 1024) */
};

struct param_def
{
  const char *name;
  enum param_range range;
  enum param_unit unit;
  const char *help;
};

extern const struct param_def param_defs[PARAM_NPARAM];

/* The parameters NAME sets (up to 2: "o" sets os and or), in OUT.
   Returns their number, 0 when NAME is no parameter.  *ALIAS (may be
   NULL) is set when NAME is another spelling.  */
int param_lookup (const char *name, int out[2], int *alias);

int param_in_range (int k, double v);

/* Parse TEXT, the value of parameter K on the command line: a number in
   the C locale, and for a size in bytes also with K, M or G (64K =
   65536, msgperf(7)).  No range check.  */
enum num_status param_parse_text (int k, const char *text, double *v);

/* The value TEXT of option OPTION (its name without dashes) that sets
   parameter K: a whole number for a count, a number in K's range
   otherwise (a size also with K, M or G).  Dies (usage) naming the
   option and saying what is accepted.  */
double param_option_value (int k, const char *option, const char *text);

/* The unit of K for people: "time", "time/byte", "bytes", "1/time" or
   "1" (a count or a distance).  */
const char *param_unit_text (int k);

/* The parameter table for people and for the testsuite: a TSV stream
   (name, unit, range, meaning), one row a parameter, then a row per
   alias (unit "alias", meaning: what it sets).  */
void param_table_write (tsv_writer *w);
/* "a number >= 0" ...  */
const char *param_range_text (int k);

/* The known names (those flagged in USABLE, NULL: all), aliases
   explained, for messages: "L, o (= os and or), os (also o_s), ...".  */
const char *param_names_text (const unsigned char *usable);

/* ----------------------------------------------------------- values */

/* Where a value (or an NA) came from.  */
enum param_origin
{
  PORIGIN_NONE, PORIGIN_DEFAULT, PORIGIN_FILE, PORIGIN_OPTION, PORIGIN_ROW
};

struct param_set
{
  double v[PARAM_NPARAM];            /* NaN: not given (or NA) */
  unsigned char na[PARAM_NPARAM];    /* written NA where it came from */
  unsigned char origin[PARAM_NPARAM];
  const char *file[PARAM_NPARAM];    /* the file of an NA or a value */
  const char *column[PARAM_NPARAM];  /* its column there (an alias: "o") */
  long line[PARAM_NPARAM], col[PARAM_NPARAM];
};

void param_set_clear (struct param_set *ps);

/* Set K to V from ORIGIN (no range check).  */
void param_set_value (struct param_set *ps, int k, double v,
                      enum param_origin origin);

/* Layer SRC over DST: every value or NA of SRC replaces DST's.  */
void param_set_over (struct param_set *dst, const struct param_set *src);

/* --set NAME=VALUE[,NAME=VALUE...] into PS (origin option).  Dies (usage)
   naming OPTION, the name or the text, and what is accepted.  An alias
   sets each of its parameters.  USABLE (NULL: all) flags the parameters
   the tool uses: another one is refused, never silently ignored.  */
void param_set_parse (struct param_set *ps, const char *list,
                      const char *option, const unsigned char *usable);

/* Is parameter K given (a value, not NA)?  */
int param_given (const struct param_set *ps, int k);

/* The NA policy.  Returns K's value; when it is not given, dies:
   NA -> "FILE:LINE:COL: parameter 'K' is NA ..." (exit 1);
   absent while a parameter FILE was read -> "FILE:LINE: parameter 'K'
   ... is absent ..." (exit 1), LINE the row used;
   absent otherwise -> a usage error (exit 2);
   absent from the file after an empty input was noted
   (param_note_empty_input) -> a usage error naming the empty input
   first, then the file's row.
   HINT tells the user how to give it ("--set L=VALUE", "--L").  */
double param_need (const struct param_set *ps, int k, const char *hint);

/* The file and row used for PS (set by param_file_apply), for the
   "absent" message.  */
extern const char *param_last_file;
extern long param_last_line;

/* Standard input was read for rows because the command line and the
   parameter file left a parameter unset, and it was empty: a parameter
   still absent is then no longer the file's fault (param_need says the
   empty input first, as a usage error), since the rows were meant to
   give it.  WHAT names the stream ("standard input"); NULL forgets it.  */
void param_note_empty_input (const char *what);

/* ------------------------------------------------------------ files */

/* A --params FILE, read whole: the header, every row (as text), the line
   of each row, the metadata and the time unit.  */
struct param_file
{
  char *name;          /* display name (path or <stdin>) */
  size_t ncols, nrows;
  char **col;          /* ncols names */
  char **cell;         /* nrows x ncols fields */
  long *line;          /* nrows line numbers */
  long header_line;
  size_t nmeta;
  char **meta;         /* "key=value" without "#@" */
  char *time_unit;     /* NULL when the file has none */
};

/* Read PATH ("-": stdin).  Dies on a broken stream or a file with no row;
   a file with no known parameter column is an error that lists the known
   names (aliases included).  */
struct param_file *param_file_read (const char *path);
/* The same from an open reader R (left open).  */
struct param_file *param_file_from (tsv_reader *r);
void param_file_free (struct param_file *pf);
/* Free a file whose reading died (for harnesses that catch die).  */
void param_file_abandon (void);

/* Column index of NAME, or -1.  */
long param_file_col (const struct param_file *pf, const char *name);
/* Field of row R in column NAME, NULL when there is no such column.  */
const char *param_file_get (const struct param_file *pf, size_t r,
                            const char *name);

/* The rows to use: those matching WHERE ("KEY=VALUE[,KEY=VALUE...]",
   NULL: all).  One row is needed unless EACH; several matching rows
   without EACH is an error listing their keys (src, dst, bytes ... and
   the lines), and naming EACH_OPTION (the tool's option that uses every
   row; NULL: none); no matching row is an error too.  Returns the count;
   *ROWS is malloc'd.  */
size_t param_file_select (const struct param_file *pf, const char *where,
                          int each, const char *each_option, size_t **rows);

/* The key columns of the file (src, dst, pair, bytes, label, run, name,
   when present), -1 terminated, in KEYS (room for 8).  */
size_t param_file_keys (const struct param_file *pf, long keys[8]);

/* Row R's parameters into PS (origin file): aliases first, then the
   exact names, so that "os" beats "o" in one row.  NA is recorded as NA
   (not given).  Times are multiplied by SCALE (param_time_scale).  Only
   the parameters flagged in USABLE (NULL: all) are read: a column the
   tool does not use is no error.  Dies at FILE:LINE:COL on a bad number
   or an out-of-range value.  */
void param_file_apply (const struct param_file *pf, size_t r,
                       struct param_set *ps, double scale,
                       const unsigned char *usable);

/* The per-size table of parameterized LogP (Kielmann, Bal, Verstoep,
   Section 2; logp-measure's per-size rows): columns bytes, os, or, g and
   L of rows ROWS[0..N-1] of PF, 5 numbers a row in OUT (bytes, os, or,
   g, L), the times multiplied by SCALE.  USER names the option or model
   in messages ("--plogp").  Dies at FILE:LINE (the header) on a missing
   column, at FILE:LINE:COL on an NA or a value that is no number >= 0
   (g: no finite number; a g(m) below 0 is plogp_init's to judge):
   every size needs all of them, so nothing is defaulted.  */
void param_file_sizes (const struct param_file *pf, const size_t *rows,
                       size_t n, double scale, const char *user,
                       double *out);

/* The same, the one reader of a per-size table for every program:
   WITH_L 0 leaves column L out (the caller has L from elsewhere, such as
   --set) and writes NaN in its place.  */
void param_plogp_rows (const struct param_file *pf, const size_t *rows,
                       size_t n, double scale, const char *user, int with_L,
                       double *out);

/* The table of rows ROWS[0..N-1] of PF was refused by the model
   (plogp_init) at point WHICH for reason WHY: dies at FILE:LINE of that
   row (FILE alone when WHICH >= N), naming USER, with HINT (or NULL) in
   parentheses.  */
ERR_NORETURN void param_plogp_fail (const struct param_file *pf,
                                    const size_t *rows, size_t n,
                                    size_t which, const char *user,
                                    const char *why, const char *hint);

/* pLogP's L is the pair's (and the launch's): one value for a whole
   per-size table.  Dies at FILE:LINE naming both lines and both values
   when column COL of rows ROWS[0..N-1] of PF differs from the first
   row's (the rows are of several pairs or launches; HINT says how to
   select one), or at FILE:LINE:COL when a row's COL is no number.
   Nothing is checked when PF has no column COL (the caller's reader
   names what it misses).  USER names the option or model ("--plogp").  */
void param_file_same_value (const struct param_file *pf, const size_t *rows,
                            size_t n, const char *col, const char *user,
                            const char *hint);

/* Provenance: "#@params_file=NAME", then every metadata line of the file
   as "#@params_KEY=VALUE" (msgperf(7), PARAMETERS: never mixed with the
   output's own keys).  */
void param_file_write_meta (const struct param_file *pf, tsv_writer *w);
/* The same under another PREFIX ("plogp_": "#@plogp_file=NAME" ...).  */
void param_file_write_meta_as (const struct param_file *pf, tsv_writer *w,
                               const char *prefix);

/* Where the messages of a --plogp run fell in the per-size table, whose
   sizes go from LO to HI bytes (after the rows: the sizes are known once
   the model has run): "#@plogp_extrapolated" when the largest message
   BIG is above HI (the last segment's slope was used),
   "#@plogp_below" when the smallest SMALL (< 0: none) is below LO (that
   size's values were used), SMALL_WHY (or NULL) said after its size.  */
void param_plogp_range_meta (tsv_writer *w, double lo, double hi,
                             double small, double big,
                             const char *small_why);

/* ------------------------------------------------------------ units */

/* The factor that turns a time in unit FROM into unit TO (s, ms, us, ns;
   equal units, cycles included, give 1).  Returns 0, or -1 when the two
   differ and one of them is not convertible.  */
int param_time_scale (const char *from, const char *to, double *scale);

/* V times SCALE, exact for a power of 1000 below 1 (V / 1000, not
   V * 0.001).  */
double param_scale_value (double v, double scale);

/* Scale the times of PS (per unit kind) by SCALE.  */
void param_set_scale (struct param_set *ps, double scale);

#endif
