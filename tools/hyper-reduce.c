/* SPDX-License-Identifier: GPL-3.0-or-later */
/* hyper-reduce: the hyperbolic communication model of Stoica, Sultan and
 * Keyes as a stream tool.
 *
 *   hyper-reduce eval    T(x; a, b) of eq. (2), or the sawtooth of eq. (1)
 *   hyper-reduce reduce  a communication graph to one block (Rules 1-4)
 *   hyper-reduce fit     (a, b) or Hockney (alpha, beta) from measurements
 *   hyper-reduce invert  component blocks from end-to-end patterns (Sec. 3)
 *
 * The model is in common/models/hyper/hyperbolic.c, hyperexpr.c, hyperfit.c and
 * hyperinvert.c; this file reads options and streams.  */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "hyperbolic.h"
#include "hyperexpr.h"
#include "hyperfit.h"
#include "hyperinvert.h"
#include "hyper_io.h"
#include "num.h"
#include "readfile.h"
#include "sizelist.h"
#include "params.h"
#include "plogp.h"
#include "tsv.h"
#include "xalloc.h"

/* ------------------------------------------------------------ helpers */

/* A list of values given on the command line (sizelist.h: items
   separated by commas, each V, FROM:TO, FROM:TO:xFACTOR, FROM:TO:+STEP or
   FROM:TO:STEP, with K, M or G).  Dies (usage) naming OPTION.  */
static void
parse_values (const char *option, const char *text, struct dvec *out)
{
  char err[SIZELIST_ERRSIZE];
  double *v;
  size_t n;
  if (numlist_parse (text, 0, 0, &v, &n, err) != 0)
    die_usage ("%s: bad list '%s': %s; expected %s", option, text, err,
               SIZELIST_FORMS);
  for (size_t i = 0; i < n; i++)
    dvec_push (out, v[i]);
  free (v);
}

/* The value of an option (named with its dashes) that must be a number
   >= 0; the messages have the form of cli_double's.  */
static double
opt_nonneg (const char *option, const char *text)
{
  double v;
  enum num_status st = num_parse_str (text, &v);
  if (st != NUM_OK)
    die_usage ("option '%s': invalid number '%s' (%s)", option, text,
               num_strerror (st));
  if (v < 0)
    die_usage ("option '%s': '%s' is out of range (a number >= 0 "
               "expected)", option, text);
  return v;
}

/* ------------------------------------------------------------ eval */

static char *opt_a, *opt_b, *opt_bytes, *opt_packet, *opt_fixed,
  *opt_per_byte;
static int opt_exact;
static char *opt_bytes_col = "bytes", *opt_time_col = "time";
static int time_col_given;     /* fit, invert: --time-col was given */
static char *opt_params, *opt_where, *opt_plogp;
static struct param_set p_set; /* --set */

enum { OPT_SET = 1 };

static void
eval_handler (int val, poptContext con)
{
  char *arg = poptGetOptArg (con);
  if (val == OPT_SET)
    {
      static const unsigned char ab[PARAM_NPARAM] = {
        [PARAM_A] = 1, [PARAM_B] = 1
      };
      param_set_parse (&p_set, arg, "--set", ab);
    }
  free (arg);
}

static const struct poptOption eval_options[] = {
  { NULL, 'a', POPT_ARG_STRING, &opt_a, 0,
    "fixed time a of every row (instead of an 'a' column)", "A" },
  { NULL, 'b', POPT_ARG_STRING, &opt_b, 0,
    "time per byte b of every row (instead of a 'b' column)", "B" },
  { "bytes", '\0', POPT_ARG_STRING, &opt_bytes, 0,
    "message sizes: X, X1,X2,..., FROM:TO (doubling), FROM:TO:xFACTOR, "
    "FROM:TO:+STEP or FROM:TO:STEP, with K, M or G (every row is repeated "
    "for each)", "LIST" },
  { "packet", '\0', POPT_ARG_STRING, &opt_packet, 0,
    "maximum packet size p of eq. (1), in bytes", "P" },
  { "fixed", '\0', POPT_ARG_STRING, &opt_fixed, 0,
    "fixed service time per packet a of eq. (1)", "A" },
  { "per-byte", '\0', POPT_ARG_STRING, &opt_per_byte, 0,
    "incremental service time per byte m of eq. (1)", "M" },
  { "exact", '\0', POPT_ARG_NONE, &opt_exact, 0,
    "time is the sawtooth t(x; a, m, p) of eq. (1); time_hyper is eq. (2) "
    "with b = a/p + m", NULL },
  { "bytes-col", '\0', POPT_ARG_STRING, &opt_bytes_col, 0,
    "name of the message size column (default: bytes)", "NAME" },
  { "time-col", '\0', POPT_ARG_STRING, &opt_time_col, 0,
    "name of the column written (default: time)", "NAME" },
  { "params", 'p', POPT_ARG_STRING, &opt_params, 0,
    "a and b from a row of a TSV file (e.g. hyper-reduce fit's output)",
    "FILE" },
  { "plogp", '\0', POPT_ARG_STRING, &opt_plogp, 0,
    "parameterized LogP: b of a message of x bytes is g(x) / x read from "
    "per-size rows (logp-measure's: bytes, os, or, g, L)", "FILE" },
  { "where", '\0', POPT_ARG_STRING, &opt_where, 0,
    "the rows of --params and --plogp to use, by key columns",
    "KEY=VALUE[,...]" },
  { "set", 's', POPT_ARG_STRING, NULL, OPT_SET,
    "a and b by name (repeatable; above --params)", "NAME=VALUE[,...]" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* --plogp FILE: the per-size table of parameterized LogP (Kielmann,
   Bal, Verstoep, Section 2), and the sizes it was read at.  */
static struct
{
  struct param_file *pf;
  size_t *rows;
  size_t n;
  struct plogp t;
  int valid;
  char conversion[128];
  double big, small;
} ptab = { .big = -1, .small = INFINITY };

/* The table in UNIT (the inputs' or NULL): the file's times converted
   (s, ms, us, ns); a file without #@time_unit beside inputs with one is
   an error.  Returns the unit of the output.  */
static const char *
plogp_load (const char *unit)
{
  double scale = 1;
  const char *pu = ptab.pf->time_unit;
  if (!pu && unit)
    die ("%s: no #@time_unit line, and the input's times are in %s: "
         "declare the file's unit with a '#@time_unit=UNIT' line (s, ms, "
         "us, ns)", ptab.pf->name, unit);
  char *conversion = ptab.conversion;
  if (pu && unit && strcmp (pu, unit) != 0)
    {
      if (param_time_scale (pu, unit, &scale) != 0)
        die ("%s: its times are in %s and the input's in %s: only s, ms, "
             "us and ns convert", ptab.pf->name, pu, unit);
      char f[NUM_BUFSIZE];
      num_format (scale, -1, f);
      snprintf (conversion, sizeof ptab.conversion, "%s to %s (x%s)", pu,
                unit, f);
    }
  double *v = xmalloc (ptab.n * 5 * sizeof *v);
  param_file_sizes (ptab.pf, ptab.rows, ptab.n, scale, "--plogp", v);
  struct plogp_point *pts = xmalloc (ptab.n * sizeof *pts);
  for (size_t i = 0; i < ptab.n; i++)
    pts[i] = (struct plogp_point) { v[5 * i], v[5 * i + 1], v[5 * i + 2],
                                    v[5 * i + 3] };
  param_file_same_value (ptab.pf, ptab.rows, ptab.n, "L", "--plogp",
                         "select one pair with --where src=I,dst=J");
  size_t which = 0;
  /* b needs g only; the table's L bounds how far below 0 a size's
     g may be (plogp_init: L + g(m) >= 0) */
  enum plogp_status st = plogp_init (&ptab.t, pts, ptab.n, v[4], &which);
  free (pts);
  free (v);
  if (st == PLOGP_NOMEM)
    die ("out of memory while reading the per-size table of %s",
         ptab.pf->name);
  if (st != PLOGP_OK)
    param_plogp_fail (ptab.pf, ptab.rows, ptab.n, which, "--plogp",
                      plogp_status_text (st), st == PLOGP_DUPLICATE
                      ? "one pair's rows: select them with --where "
                        "src=I,dst=J" : NULL);
  ptab.valid = 1;
  return unit ? unit : pu;
}

/* The table's provenance and range.  */
static void
plogp_meta (tsv_writer *w)
{
  if (!ptab.valid)
    return;
  param_file_write_meta_as (ptab.pf, w, "plogp_");
  if (opt_where)
    tsv_meta (w, "plogp_where", "%s", opt_where);
  if (ptab.conversion[0])
    tsv_meta (w, "plogp_time_conversion", "%s", ptab.conversion);
  char lo[NUM_BUFSIZE], hi[NUM_BUFSIZE];
  num_format (ptab.t.pt[0].bytes, -1, lo);
  num_format (ptab.t.pt[ptab.t.n - 1].bytes, -1, hi);
  tsv_meta (w, "plogp_sizes", "%zu sizes, %s to %s bytes", ptab.t.n, lo, hi);
}

/* b at X bytes: Table 1's G = g(m)/m read at m = X (g(1) below one
   byte), the hyperbola's large-message slope at that size, so that
   b x = g(x).  */
static double
plogp_b (double x)
{
  struct plogp_table1 t1;
  plogp_table1 (&ptab.t, x, &t1);
  ptab.big = x > ptab.big ? x : ptab.big;
  ptab.small = x < ptab.small ? x : ptab.small;
  return t1.G;
}

/* After the rows: the sizes read outside the table.  */
static void
plogp_range_meta (tsv_writer *w)
{
  if (!ptab.valid)
    return;
  const struct plogp *t = &ptab.t;
  /* sizes below 1 byte are read at 1 (Table 1's short message) */
  double small = ptab.small < 1 ? 1 : ptab.small;
  param_plogp_range_meta (w, t->pt[0].bytes, t->pt[t->n - 1].bytes,
                          ptab.big >= 0 ? small : -1, ptab.big, NULL);
}

/* --packet, --fixed, --per-byte (eq. (1)) against -a, -b, --exact.  */
static void
eval_packet_options (struct hr_eval_job *j)
{
  j->m = 0;
  j->p = 1;
  j->packet = opt_packet || opt_fixed || opt_per_byte;
  if (j->packet)
    {
      if (!opt_packet || !opt_fixed || !opt_per_byte)
        die_usage ("--packet, --fixed and --per-byte go together "
                   "(the p, a and m of eq. (1))");
      if (opt_a || opt_b)
        die_usage ("-a and -b cannot be combined with --fixed: b is "
                   "a/p + m");
      j->p = opt_nonneg ("--packet", opt_packet);
      if (j->p == 0)
        die_usage ("option '--packet': '%s' is out of range (a number > 0 "
                   "expected: the packet size)", opt_packet);
      j->m = opt_nonneg ("--per-byte", opt_per_byte);
    }
  else if (opt_exact)
    die_usage ("--exact needs --packet, --fixed and --per-byte");
  if (!tsv_valid_name (opt_bytes_col) || !tsv_valid_name (opt_time_col))
    die_usage ("--bytes-col and --time-col take column names "
               "([A-Za-z][A-Za-z0-9_]*)");
}

/* a, b and the sizes from the options, then --params FILE < --set (the
   input's a and b columns come later, above both; common/stream/params.h);
   -a and -b stay exclusive with the columns.  */
static void
eval_sources (struct hr_eval_job *j)
{
  /* Static: still reachable when a later error ends the program.  */
  static struct hr_eval_src src[3];
  static size_t *prow;
  j->src = src;
  src[0] = (struct hr_eval_src) { "a", -1, { 0 } };
  src[1] = (struct hr_eval_src) { "b", -1, { 0 } };
  src[2] = (struct hr_eval_src) { opt_bytes_col, -1, { 0 } };
  if (j->packet)
    {
      double a = opt_nonneg ("--fixed", opt_fixed);
      dvec_push (&src[0].vals, a);
      dvec_push (&src[1].vals, hyper_b_of_packet (a, j->m, j->p));
    }
  if (opt_a)
    dvec_push (&src[0].vals, opt_nonneg ("-a", opt_a));
  if (opt_b)
    dvec_push (&src[1].vals, opt_nonneg ("-b", opt_b));
  param_set_clear (&j->ps);
  if (opt_where && !opt_params && !opt_plogp)
    die_usage ("--where selects rows of --params FILE or --plogp FILE: "
               "give one");
  if (opt_params)
    {
      static struct param_file *pf;
      j->pf = pf = param_file_read (opt_params);
      param_file_select (pf, opt_where, 0,
                         "the file as the input stream (one row each)",
                         &prow);
      static const unsigned char ab[PARAM_NPARAM] = {
        [PARAM_A] = 1, [PARAM_B] = 1
      };
      param_file_apply (pf, prow[0], &j->ps, 1, ab);
    }
  param_set_over (&j->ps, &p_set);
  for (int k = 0; k < 2; k++)
    {
      int id = k ? PARAM_B : PARAM_A;
      if (src[k].vals.n || !(param_given (&j->ps, id) || j->ps.na[id]))
        continue;
      if (j->packet)
        die_usage ("--fixed gives a and b: not with %s %s",
                   j->ps.origin[id] == PORIGIN_FILE ? "--params" : "--set",
                   param_defs[id].name);
      j->layered[k] = 1;
      dvec_push (&src[k].vals, j->ps.v[id]);
    }
  if (opt_plogp)
    {
      /* b from the table, at the level of --params: the input's b
         column stays above it; another b would leave it unused */
      if (src[1].vals.n)
        die_usage ("--plogp gives b at every message size: not with %s",
                   j->packet ? "--fixed" : opt_b ? "-b"
                   : j->ps.origin[PARAM_B] == PORIGIN_FILE
                   ? "--params b" : "--set b");
      ptab.pf = param_file_read (opt_plogp);
      ptab.n = param_file_select (ptab.pf, opt_where, 1, NULL, &ptab.rows);
      j->plogp_b = j->layered[1] = 1;
      dvec_push (&src[1].vals, NAN);
    }
  if (opt_bytes)
    {
      parse_values ("--bytes", opt_bytes, &src[2].vals);
      for (size_t i = 0; i < src[2].vals.n; i++)
        if (!(src[2].vals.v[i] >= 0))
          die_usage ("--bytes: message sizes must be >= 0, not %g",
                     src[2].vals.v[i]);
    }
}

/* -a, -b and --bytes all given: one row per size, no input.  */
static void
eval_from_options (struct hr_eval_job *j, tsv_writer *w)
{
  struct hr_eval_src *src = j->src;
  const char *names[5];
  size_t nn = 0;
  for (int k = 0; k < 2; k++)
    if (j->layered[k] && !(k == 1 && j->plogp_b))
      hr_eval_need (j, k);
  const char *unit = j->pf ? j->pf->time_unit : NULL;
  if (ptab.pf)
    unit = plogp_load (unit);
  hr_write_common_meta (w, NULL, 0, "eval");
  tsv_meta_time_unit (w, unit);
  if (j->pf)
    param_file_write_meta (j->pf, w);
  plogp_meta (w);
  names[nn++] = opt_bytes_col;
  names[nn++] = "a";
  names[nn++] = "b";
  names[nn++] = opt_time_col;
  if (opt_exact)
    names[nn++] = j->time2;
  tsv_write_header (w, nn, names);
  double a = src[0].vals.v[0], b = src[1].vals.v[0];
  for (size_t i = 0; i < src[2].vals.n; i++)
    {
      hr_put_count (w, src[2].vals.v[i]);
      if (j->plogp_b)
        b = plogp_b (src[2].vals.v[i]);
      tsv_put_num (w, a);
      tsv_put_num (w, b);
      hr_eval_row (w, src[2].vals.v[i], a, b, j->m, j->p, opt_exact);
    }
  plogp_range_meta (w);
}

/* The metadata of a run over inputs: --params' a and b converted to the
   input's time unit (s, ms, us, ns), the conversion recorded.  */
static void
eval_params_meta (struct hr_eval_job *j, tsv_writer *w)
{
  struct param_file *pf = j->pf;
  const char *in_unit = tsv_time_unit (j->rs, j->nfiles);
  const char *u = ptab.pf ? plogp_load (in_unit) : NULL;
  hr_write_common_meta (w, j->rs, j->nfiles, "eval");
  plogp_meta (w);
  if (u && !in_unit)
    tsv_meta_time_unit (w, u);
  if (!pf)
    return;
  if (pf->time_unit && in_unit && strcmp (pf->time_unit, in_unit) != 0)
    {
      double scale;
      if (param_time_scale (pf->time_unit, in_unit, &scale) != 0)
        die ("%s: its times are in %s and the input's in %s: only s, "
             "ms, us and ns convert", pf->name, pf->time_unit, in_unit);
      for (int k = 0; k < 2; k++)
        if (j->layered[k] && j->src[k].vals.n)
          j->src[k].vals.v[0] = param_scale_value (j->src[k].vals.v[0],
                                                   scale);
      char f[NUM_BUFSIZE];
      num_format (scale, -1, f);
      tsv_meta (w, "params_time_conversion", "%s to %s (x%s)",
                pf->time_unit, in_unit, f);
    }
  else if (!in_unit)
    tsv_meta_time_unit (w, pf->time_unit);
  param_file_write_meta (pf, w);
}

static int
cmd_eval (int argc, const char **argv)
{
  cli.subcommand = "eval";
  param_set_clear (&p_set);
  poptContext con = cli_parse (argc, argv, eval_options,
                               "[OPTION...] [FILE...]", eval_handler);
  struct hr_eval_job j = { .time2 = "time_hyper", .time_col = opt_time_col,
                           .exact = opt_exact, .b_of_size = plogp_b };
  eval_packet_options (&j);
  eval_sources (&j);
  int need_input = !j.src[0].vals.n || !j.src[1].vals.n
                   || !j.src[2].vals.n;
  const char **files = poptGetArgs (con);
  if (!need_input && files)
    die_usage ("-a, -b (or --fixed) and --bytes are all given: there is "
               "no input to read, but '%s' was named", files[0]);
  tsv_writer *w = tsv_writer_open (NULL);
  if (!need_input)
    eval_from_options (&j, w);
  else
    {
      hr_eval_open_inputs (&j, files);
      hr_eval_columns (&j);
      eval_params_meta (&j, w);
      tsv_write_header (w, j.nn, j.names);
      hr_eval_rows (&j, w);
      plogp_range_meta (w);
    }
  tsv_writer_close (w);
  for (size_t f = 0; f < j.nfiles; f++)
    tsv_close (j.rs[f]);
  free (j.rs);
  free (j.names);
  for (int k = 0; k < 3; k++)
    free (j.src[k].vals.v);
  plogp_free (&ptab.t);
  free (ptab.rows);
  param_file_free (ptab.pf);
  poptFreeContext (con);
  return 0;
}

/* ------------------------------------------------------------ reduce */

static char *opt_expr, *opt_expr_file, *opt_let, *opt_name_col = "name";

static struct hr_letvar *lets;
static size_t nlets;

static void
reduce_handler (int val, poptContext con)
{
  (void) con;
  if (val != 'L')
    return;
  const char *eq = strchr (opt_let, '=');
  if (!eq || eq == opt_let)
    die_usage ("--let: expected NAME=VALUES (e.g. n=8, n=2:16, n=1,2,4), "
               "not '%s'", opt_let);
  char *name = xmalloc ((size_t) (eq - opt_let) + 1);
  memcpy (name, opt_let, (size_t) (eq - opt_let));
  name[eq - opt_let] = '\0';
  if (!tsv_valid_name (name))
    die_usage ("--let: invalid variable name '%s'", name);
  for (size_t i = 0; i < nlets; i++)
    if (strcmp (lets[i].name, name) == 0)
      die_usage ("--let: '%s' is bound twice", name);
  lets = xrealloc (lets, (nlets + 1) * sizeof *lets);
  memset (&lets[nlets], 0, sizeof *lets);
  lets[nlets].name = name;
  parse_values ("--let", eq + 1, &lets[nlets].vals);
  nlets++;
  free (opt_let);        /* popt allocates each value */
  opt_let = NULL;
}

static const struct poptOption reduce_options[] = {
  { "expression", 'e', POPT_ARG_STRING, &opt_expr, 0,
    "the communication graph (otherwise the first argument)", "EXPR" },
  { "file", 'f', POPT_ARG_STRING, &opt_expr_file, 0,
    "read the expression from FILE", "FILE" },
  { "let", 'l', POPT_ARG_STRING, &opt_let, 'L',
    "bind NAME to a value or sweep it: n=8, n=2:16, n=2:16:2, n=1:64:x2, "
    "n=1,3,5 (repeatable: one row per combination)", "NAME=VALUES" },
  { "name-col", '\0', POPT_ARG_STRING, &opt_name_col, 0,
    "column of the block names in the block tables (default: name)",
    "NAME" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* The expression: -e, -f FILE or the first argument (*FIRST_FILE then
   counts it); *WHERE names it in errors, *OWNED is what to free.  */
static const char *
reduce_expression (const char **args, size_t nargs, size_t *first_file,
                   const char **where, char **owned)
{
  if (opt_expr && opt_expr_file)
    die_usage ("give the expression with -e or -f, not both");
  *where = "<expression>";
  if (opt_expr)
    return opt_expr;
  if (opt_expr_file)
    {
      *where = opt_expr_file;
      return *owned = hr_read_expr_file (opt_expr_file);
    }
  if (!nargs)
    die_usage ("no expression (give it as the first argument, with -e or "
               "with -f FILE)");
  const char *text = args[(*first_file)++];
  /* A common slip: the block table before the expression.  */
  FILE *fp = strpbrk (text, "(,") ? NULL : fopen (text, "r");
  if (fp)
    {
      fclose (fp);
      die_usage ("'%s' is a file, but the first argument is the "
                 "expression (hyper-reduce reduce EXPR [BLOCKS...], "
                 "or -e EXPR)", text);
    }
  return text;
}

static int
cmd_reduce (int argc, const char **argv)
{
  cli.subcommand = "reduce";
  poptContext con = cli_parse (argc, argv, reduce_options,
                               "[OPTION...] [EXPR] [BLOCKS...]",
                               reduce_handler);
  const char **args = poptGetArgs (con);
  size_t nargs = 0;
  while (args && args[nargs])
    nargs++;
  const char *where;
  char *owned = NULL;
  size_t first_file = 0;
  const char *text = reduce_expression (args, nargs, &first_file, &where,
                                        &owned);
  if (!tsv_valid_name (opt_name_col))
    die_usage ("--name-col: invalid column name '%s'", opt_name_col);

  struct hexpr_error err;
  /* Static, so that the expression stays reachable when evaluating it
     dies (valgrind saw it definitely lost).  */
  static struct hexpr *e;
  e = hexpr_parse (text, &err);
  if (!e && err.nomem)
    die ("%s", err.msg);
  if (!e)
    die_at (where, err.line, err.col, "%s", err.msg);

  size_t nfiles = nargs - first_file;
  const char *stdin_only[] = { "-" };
  const char *const *files = args ? args + first_file : NULL;
  if (nfiles == 0 && hr_needs_blocks (e, lets, nlets))
    {
      files = stdin_only;
      nfiles = 1;
    }
  tsv_reader **rs = xmalloc (nfiles * sizeof *rs);
  struct hr_scope sc = { lets, nlets, NULL, 0 };
  for (size_t f = 0; f < nfiles; f++)
    hr_read_blocks (rs[f] = tsv_open (files[f]), &sc, opt_name_col);

  /* One row per combination of the --let values, the first varying
     slowest.  Every row is computed before any is written, so that an
     error leaves no partial output.  */
  size_t ncomb = 1;
  for (size_t i = 0; i < nlets; i++)
    {
      if (ncomb > 10000000 / lets[i].vals.n)
        die_usage ("--let: more than 10000000 combinations");
      ncomb *= lets[i].vals.n;
    }
  /* Static: still reachable when an error ends the program.  */
  static struct hyper_cb *outs;
  static size_t *pos;
  outs = xmalloc (ncomb * sizeof *outs);
  pos = xcalloc (nlets + 1, sizeof *pos);
  struct hexpr_env env = { hr_lookup, &sc };
  for (size_t row = 0; row < ncomb; row++)
    {
      hr_combination (&sc, row, pos);
      if (hexpr_eval (e, &env, &outs[row], &err) < 0)
        hr_eval_error (&sc, where, &err);
    }
  hr_reduce_warn (outs, ncomb);

  hr_reduce_write (&sc, rs, nfiles, text, outs, ncomb, pos);
  free (outs);
  for (size_t f = 0; f < nfiles; f++)
    tsv_close (rs[f]);
  free (rs);
  free (pos);
  for (size_t i = 0; i < sc.nblocks; i++)
    free (sc.blocks[i].name);
  free (sc.blocks);
  hexpr_free (e);
  free (owned);
  poptFreeContext (con);
  return 0;
}

/* ------------------------------------------------------------ fit data */

/* Read (bytes, time) rows from FILES into groups by BY (NULL: one group).
   Rows with NA in bytes or time are skipped (with a warning).  */
static void
read_points (const char **files, const char *by, int by_count,
             struct hr_groups *gs, tsv_reader ***rsp, size_t *nrp)
{
  const char *stdin_only[] = { "-", NULL };
  if (!files)
    files = stdin_only;
  size_t nf = 0;
  while (files[nf])
    nf++;
  tsv_reader **rs = xmalloc (nf * sizeof *rs);
  for (size_t f = 0; f < nf; f++)
    {
      tsv_reader *r = rs[f] = tsv_open (files[f]);
      size_t cx = tsv_col_required (r, opt_bytes_col);
      /* Measurement tools name the median time 't' (msgperf(7), NAMES
         AND UNITS); the default 'time' falls back to it.  */
      const char *tc = opt_time_col;
      if (!time_col_given && tsv_col (r, tc) < 0 && tsv_col (r, "t") >= 0)
        tc = "t";
      size_t ct = tsv_col_required (r, tc);
      long cg = by ? (long) tsv_col_required (r, by) : -1;
      while (tsv_next (r))
        {
          double x = tsv_num (r, cx, 1), t = tsv_num (r, ct, 1);
          if (isnan (x) || isnan (t))
            {
              warn_once ("na", "rows with NA in '%s' or '%s' are skipped",
                         opt_bytes_col, tc);
              continue;
            }
          if (x < 0)
            tsv_die_field (r, cx, "a message size must be >= 0, not '%s'",
                           tsv_field (r, cx));
          if (!(t > 0))
            tsv_die_field (r, ct, "a time must be > 0, not '%s'",
                           tsv_field (r, ct));
          /* BY_COUNT: the groups are whole numbers (invert's pattern
             size), checked where they are read and keyed by value.  */
          char count[32];
          if (cg >= 0 && by_count)
            snprintf (count, sizeof count, "%lld",
                      (long long) tsv_int (r, (size_t) cg));
          struct hr_group *g = hr_group_get (gs, cg < 0 ? ""
                                       : by_count ? count
                                       : tsv_field (r, (size_t) cg));
          dvec_push (&g->x, x);
          dvec_push (&g->t, t);
        }
    }
  *rsp = rs;
  *nrp = nf;
}

/* ------------------------------------------------------------ fit */

static char *opt_model = "hyperbolic", *opt_segments, *opt_by,
  *opt_weight, *opt_max_segments = "6";

static const struct poptOption fit_options[] = {
  { "model", 'm', POPT_ARG_STRING, &opt_model, 0,
    "hyperbolic (eq. (2), default) or linear (Hockney alpha + beta*x)",
    "MODEL" },
  { "segments", '\0', POPT_ARG_STRING, &opt_segments, 0,
    "piecewise fit: auto (find the number and places of the breakpoints), "
    "K (find K segments) or at=X1,X2,... (breakpoints given)", "SPEC" },
  { "max-segments", '\0', POPT_ARG_STRING, &opt_max_segments, 0,
    "largest number of segments --segments=auto tries (default: 6)", "K" },
  { "by", '\0', POPT_ARG_STRING, &opt_by, 0,
    "fit one model per value of column COL", "COL" },
  { "weight", 'w', POPT_ARG_STRING, &opt_weight, 0,
    "robust (relative errors, outliers set aside by bisquare reweighting; "
    "default), relative (default with --segments), sqrt (squared errors "
    "over the time) or none", "W" },
  { "bytes-col", '\0', POPT_ARG_STRING, &opt_bytes_col, 0,
    "name of the message size column (default: bytes)", "NAME" },
  { "time-col", '\0', POPT_ARG_STRING, &opt_time_col, 0,
    "name of the time column (default: time, or t when there is no time "
    "column)", "NAME" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

static void
fit_plan_options (struct hr_fit_plan *pl)
{
  if (strcmp (opt_model, "hyperbolic") == 0)
    pl->fo.model = HFIT_HYPERBOLIC;
  else if (strcmp (opt_model, "linear") == 0)
    pl->fo.model = HFIT_LINEAR;
  else
    die_usage ("--model: unknown model '%s' (expected hyperbolic or "
               "linear)", opt_model);
  /* The default: robust for one fit, relative for --segments (whose
     breakpoint search compares the segments' costs: robustness weights
     would let a segment set its protocol switch aside as outliers).  */
  const char *weight = opt_weight ? opt_weight
                       : opt_segments ? "relative" : "robust";
  if (strcmp (weight, "relative") == 0)
    pl->fo.weight = HFIT_WEIGHT_RELATIVE;
  else if (strcmp (weight, "none") == 0)
    pl->fo.weight = HFIT_WEIGHT_NONE;
  else if (strcmp (weight, "sqrt") == 0)
    pl->fo.weight = HFIT_WEIGHT_SQRT;
  else if (strcmp (weight, "robust") == 0)
    pl->fo.weight = HFIT_WEIGHT_ROBUST;
  else
    die_usage ("--weight: unknown weighting '%s' (expected robust, "
               "relative, sqrt or none)", weight);
  pl->weight_name = weight;
  pl->kmax = (size_t) cli_int ("max-segments", opt_max_segments, 1, 20);
  pl->segmented = opt_segments != NULL;
  if (!opt_segments)
    return;
  if (strcmp (opt_segments, "auto") == 0)
    pl->search = 1;
  else if (strncmp (opt_segments, "at=", 3) == 0)
    {
      parse_values ("--segments", opt_segments + 3, &pl->at);
      for (size_t i = 1; i < pl->at.n; i++)
        if (!(pl->at.v[i] > pl->at.v[i - 1]))
          die_usage ("--segments: the breakpoints must increase "
                     "('%s')", opt_segments);
    }
  else
    {
      double k;
      if (num_parse_str (opt_segments, &k) != NUM_OK || k != floor (k)
          || k < 1 || k > 20)
        die_usage ("--segments: expected auto, a number of segments "
                   "from 1 to 20, or at=X1,X2,..., not '%s'",
                   opt_segments);
      pl->search = 1;
      pl->kfixed = (size_t) k;
      if (pl->kmax < pl->kfixed)
        pl->kmax = pl->kfixed;
    }
}

static int
cmd_fit (int argc, const char **argv)
{
  cli.subcommand = "fit";
  poptContext con = cli_parse (argc, argv, fit_options,
                               "[OPTION...] [FILE...]", NULL);
  time_col_given = strcmp (opt_time_col, "time") != 0;
  struct hr_fit_plan pl = { .kfixed = 0, .by = opt_by,
                            .bytes_col = opt_bytes_col,
                            .time_col = opt_time_col };
  fit_plan_options (&pl);
  if (!tsv_valid_name (opt_bytes_col) || !tsv_valid_name (opt_time_col))
    die_usage ("--bytes-col and --time-col take column names "
               "([A-Za-z][A-Za-z0-9_]*)");
  struct hr_groups gs = { NULL, 0 };
  tsv_reader **rs;
  size_t nr;
  read_points (poptGetArgs (con), opt_by, 0, &gs, &rs, &nr);
  struct hfit_result *res = xmalloc ((pl.kmax + pl.at.n + 1) * sizeof *res);
  double *breaks = xmalloc ((pl.kmax + 1) * sizeof *breaks);
  for (size_t gi = 0; gi < gs.n; gi++)
    hr_fit_group (&pl, &gs.v[gi], res, breaks);
  hr_fit_write (&gs, rs, nr, opt_model, pl.weight_name, opt_by,
                pl.segmented, pl.fo.model == HFIT_LINEAR);
  for (size_t f = 0; f < nr; f++)
    tsv_close (rs[f]);
  free (rs);
  free (res);
  free (breaks);
  free (pl.at.v);
  hr_groups_free (&gs);
  poptFreeContext (con);
  return 0;
}

/* ------------------------------------------------------------ invert */

static char *opt_n_col = "n", *opt_rtt, *opt_channels, *opt_resolution = "0.05";

static const struct poptOption invert_options[] = {
  { "rtt", '\0', POPT_ARG_STRING, &opt_rtt, 0,
    "round-trip times (bytes, time) between two nodes: RTT/2 is the "
    "one-way block of eq. (3)", "FILE" },
  { "channels", '\0', POPT_ARG_STRING, &opt_channels, 0,
    "sp2: the pairs share K links (n b_c = n/min(n,K) b_l); the output "
    "then has block l instead of c", "K" },
  { "resolution", '\0', POPT_ARG_STRING, &opt_resolution, 0,
    "relative share under which a parameter is not resolved "
    "(default: 0.05)", "R" },
  { "n-col", '\0', POPT_ARG_STRING, &opt_n_col, 0,
    "name of the pattern size column (default: n)", "NAME" },
  { "bytes-col", '\0', POPT_ARG_STRING, &opt_bytes_col, 0,
    "name of the message size column (default: bytes)", "NAME" },
  { "time-col", '\0', POPT_ARG_STRING, &opt_time_col, 0,
    "name of the time column (default: time, or t when there is no time "
    "column)", "NAME" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* --rtt FILE: round trips of one message, whose halves are the one-way
   times of eq. (3), as observation *OBS.  Returns its reader.  */
static tsv_reader *
invert_rtt (struct hinv_obs *obs)
{
  struct hr_groups rg = { NULL, 0 };
  tsv_reader **rrs;
  size_t nrr;
  const char *rf[] = { opt_rtt, NULL };
  read_points (rf, NULL, 0, &rg, &rrs, &nrr);
  tsv_reader *rr = rrs[0];
  free (rrs);
  if (rg.n == 0)
    die ("%s: no round-trip times", tsv_name (rr));
  for (size_t j = 0; j < rg.v[0].t.n; j++)
    rg.v[0].t.v[j] /= 2;
  char what[300];
  snprintf (what, sizeof what, "%s (round trip): ", opt_rtt);
  *obs = hr_observe (what, 1, 1, &rg.v[0].x, &rg.v[0].t, opt_bytes_col,
                     opt_time_col);
  hr_groups_free (&rg);
  return rr;
}

static int
cmd_invert (int argc, const char **argv)
{
  cli.subcommand = "invert";
  poptContext con = cli_parse (argc, argv, invert_options,
                               "PATTERN [OPTION...] [FILE...]", NULL);
  time_col_given = strcmp (opt_time_col, "time") != 0;
  const char **args = poptGetArgs (con);
  if (!args || !args[0])
    die_usage ("no pattern (expected ethernet, sp2 or paragon)");
  int pat = hinv_pattern_parse (args[0]);
  if (pat < 0)
    die_usage ("unknown pattern '%s' (expected ethernet, sp2 or paragon)",
               args[0]);
  struct hinv_options io = { (enum hinv_pattern) pat, 0, 0.05 };
  if (opt_channels)
    {
      if (pat != HINV_SP2)
        die_usage ("--channels applies to the sp2 pattern only");
      io.channels = (double) cli_int ("channels", opt_channels, 1,
                                      1000000000);
    }
  io.resolution = cli_double ("resolution", opt_resolution, 0, 1);
  if (!tsv_valid_name (opt_n_col) || !tsv_valid_name (opt_bytes_col)
      || !tsv_valid_name (opt_time_col))
    die_usage ("--n-col, --bytes-col and --time-col take column names "
               "([A-Za-z][A-Za-z0-9_]*)");

  struct hr_groups gs = { NULL, 0 };
  tsv_reader **rs;
  size_t nr;
  read_points (args[1] ? args + 1 : NULL, opt_n_col, 1, &gs, &rs, &nr);
  size_t m = gs.n + (opt_rtt ? 1 : 0);
  struct hinv_obs *obs = xmalloc (m * sizeof *obs);
  for (size_t i = 0; i < gs.n; i++)
    {
      double n = strtod (gs.v[i].key, NULL);   /* a whole number */
      char what[300];
      snprintf (what, sizeof what, "%s=%s: ", opt_n_col, gs.v[i].key);
      obs[i] = hr_observe (what, n, 0, &gs.v[i].x, &gs.v[i].t,
                           opt_bytes_col, opt_time_col);
    }
  tsv_reader *rr = opt_rtt ? invert_rtt (&obs[gs.n]) : NULL;
  struct hinv_result res;
  if (hinv_solve (obs, m, &io, &res) < 0)
    die ("%s", res.note[0]);

  tsv_reader **all = xmalloc ((nr + 1) * sizeof *all);
  memcpy (all, rs, nr * sizeof *rs);
  if (rr)
    all[nr] = rr;
  hr_invert_write (&res, args[0], all, nr + (rr ? 1 : 0));
  for (size_t f = 0; f < nr; f++)
    tsv_close (rs[f]);
  if (rr)
    tsv_close (rr);
  free (all);
  free (rs);
  free (obs);
  hr_groups_free (&gs);
  poptFreeContext (con);
  return 0;
}

/* ------------------------------------------------------------ main */

static const struct cli_subcommand subcommands[] = {
  { "eval", cmd_eval, "evaluate T(x; a, b) (eq. (2)) or the sawtooth "
    "(eq. (1))" },
  { "reduce", cmd_reduce, "reduce a communication graph to one block "
    "(Rules 1 to 4)" },
  { "fit", cmd_fit, "fit (a, b), or the Hockney (alpha, beta), to "
    "measured times" },
  { "invert", cmd_invert, "component blocks from end-to-end patterns "
    "(Section 3)" },
  { NULL, NULL, NULL }
};

int
main (int argc, char **argv)
{
  cli_init ("hyper-reduce", argc, argv);
  return cli_dispatch (argc, argv, subcommands);
}
