/* SPDX-License-Identifier: GPL-3.0-or-later */
/* params.c: the parameter layer of the model tools (see params.h).  */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "num.h"
#include "params.h"
#include "xalloc.h"

const struct param_def param_defs[PARAM_NPARAM] = {
  [PARAM_L] = { "L", PRANGE_NONNEG, PUNIT_TIME, "network latency L" },
  [PARAM_OS] = { "os", PRANGE_NONNEG, PUNIT_TIME,
                 "send overhead o_s, short messages" },
  [PARAM_OR] = { "or", PRANGE_NONNEG, PUNIT_TIME,
                 "receive overhead o_r, short messages" },
  [PARAM_g] = { "g", PRANGE_NONNEG, PUNIT_TIME, "gap g between messages" },
  [PARAM_G] = { "G", PRANGE_NONNEG, PUNIT_PER_BYTE,
                "gap per byte G of the network" },
  [PARAM_O] = { "O", PRANGE_NONNEG, PUNIT_PER_BYTE, "overhead per byte O" },
  [PARAM_S] = { "S", PRANGE_NONNEG, PUNIT_BYTES,
                "eager/rendezvous threshold S in bytes" },
  [PARAM_A] = { "a", PRANGE_NONNEG, PUNIT_TIME,
                "small-message time a of the hyperbolic model" },
  [PARAM_B] = { "b", PRANGE_NONNEG, PUNIT_PER_BYTE,
                "time per byte b of the hyperbolic model" },
  [PARAM_ALPHA] = { "alpha", PRANGE_NONNEG, PUNIT_TIME,
                    "start-up time alpha of the Hockney model" },
  [PARAM_BETA] = { "beta", PRANGE_NONNEG, PUNIT_PER_BYTE,
                   "time per byte beta of the Hockney model" },
  [PARAM_N] = { "n", PRANGE_COUNT, PUNIT_NONE,
                "network dimension n (with --kd)" },
  [PARAM_KD] = { "kd", PRANGE_NONNEG, PUNIT_NONE,
                 "average distance per dimension k_d" },
  [PARAM_GC] = { "Gc", PRANGE_POS, PUNIT_PER_BYTE,
                 "channel time per byte Gc of the contention terms" },
  [PARAM_OSL] = { "osl", PRANGE_NONNEG, PUNIT_TIME,
                  "send overhead o_sl, long messages" },
  [PARAM_ORL] = { "orl", PRANGE_NONNEG, PUNIT_TIME,
                  "receive overhead o_rl, long messages (with the "
                  "interrupt)" },
  [PARAM_GM] = { "Gm", PRANGE_NONNEG, PUNIT_PER_BYTE,
                 "gap per byte G_m of the memory transfer" },
  [PARAM_HDR_BYTES] = { "hdr_bytes", PRANGE_NONNEG, PUNIT_BYTES,
                        "bytes a that arrive before the receive "
                        "interrupt" },
  [PARAM_BYTES] = { "bytes", PRANGE_ONE, PUNIT_BYTES,
                    "message size B in bytes" },
  [PARAM_M] = { "m", PRANGE_NONNEG, PUNIT_RATE,
                "injection rate m per node (messages per time unit)" },
  [PARAM_T] = { "T", PRANGE_POS, PUNIT_TIME,
                "contention-free inter-message time T" },
  [PARAM_P] = { "P", PRANGE_COUNT, PUNIT_NONE,
                "ranks (default: one per node)" },
  [PARAM_CR] = { "Cr", PRANGE_NONNEG, PUNIT_TIME,
                 "LoPC resource contention C_r (default: or + os)" },
  [PARAM_DAG_N] = { "dag_n", PRANGE_ONE, PUNIT_NONE,
                    "Diamond DAG of dag_n x dag_n tasks" },
  [PARAM_BLOCKS] = { "blocks", PRANGE_COUNT, PUNIT_NONE,
                     "Diamond DAG blocks per stripe b" },
  [PARAM_TASK] = { "task", PRANGE_NONNEG, PUNIT_TIME,
                   "time of one Diamond DAG task" },
  [PARAM_AGG] = { "agg", PRANGE_NONNEG, PUNIT_TIME,
                  "Diamond DAG aggregation cost per value (alpha)" },
  [PARAM_MSGS] = { "msgs", PRANGE_NONNEG, PUNIT_NONE,
                   "messages per processor (em3d)" },
  [PARAM_CS] = { "cs", PRANGE_NONNEG, PUNIT_TIME,
                 "context switch cs of a core shared by ranks" },
};

/* Other spellings: LogP's one overhead o (both overheads), and the
   paper's subscripts.  */
static const struct
{
  const char *name;
  int n, k[2];
} aliases[] = {
  { "o", 2, { PARAM_OS, PARAM_OR } },
  { "o_s", 1, { PARAM_OS, -1 } },
  { "o_r", 1, { PARAM_OR, -1 } },
};
#define NALIASES (sizeof aliases / sizeof aliases[0])

int
param_lookup (const char *name, int out[2], int *alias)
{
  if (alias)
    *alias = 0;
  for (int k = 0; k < PARAM_NPARAM; k++)
    if (strcmp (param_defs[k].name, name) == 0)
      {
        out[0] = k;
        return 1;
      }
  for (size_t i = 0; i < NALIASES; i++)
    if (strcmp (aliases[i].name, name) == 0)
      {
        if (alias)
          *alias = 1;
        out[0] = aliases[i].k[0];
        out[1] = aliases[i].k[1];
        return aliases[i].n;
      }
  return 0;
}

int
param_in_range (int k, double v)
{
  if (!isfinite (v))
    return 0;
  switch (param_defs[k].range)
    {
    case PRANGE_NONNEG:
      return v >= 0;
    case PRANGE_POS:
      return v > 0;
    case PRANGE_ONE:
      return v >= 1;
    case PRANGE_COUNT:
      return v >= 1 && v == floor (v) && v <= (double) (INT64_C (1) << 40);
    }
  return 0;
}

const char *
param_range_text (int k)
{
  switch (param_defs[k].range)
    {
    case PRANGE_NONNEG:
      return "a number >= 0";
    case PRANGE_POS:
      return "a number > 0";
    case PRANGE_ONE:
      return "a number >= 1";
    case PRANGE_COUNT:
      return "a whole number from 1 to 2^40 = 1099511627776";
    }
  return "";
}

enum num_status
param_parse_text (int k, const char *text, double *v)
{
  size_t len = strlen (text);
  char last = len > 1 ? text[len - 1] : '\0';
  if (param_defs[k].unit != PUNIT_BYTES
      || (last != 'K' && last != 'M' && last != 'G'))
    return num_parse_str (text, v);
  enum num_status st = num_parse (text, len - 1, v);
  *v *= last == 'K' ? 1024.0 : last == 'M' ? 1048576.0 : 1073741824.0;
  return st;
}

double
param_option_value (int k, const char *option, const char *text)
{
  const struct param_def *d = &param_defs[k];
  double v;
  enum num_status st;
  if (d->range == PRANGE_COUNT)
    return (double) cli_int (option, text, 1, INT64_C (1) << 40);
  if (d->unit != PUNIT_BYTES)
    v = cli_double (option, text, d->range == PRANGE_ONE ? 1 : 0, DBL_MAX);
  else if ((st = param_parse_text (k, text ? text : "", &v)) != NUM_OK)
    die_usage ("option '--%s': invalid number '%s' (%s)", option,
               text ? text : "", num_strerror (st));
  /* below cli_double's bound: 0 for Gc and T (> 0), or a size */
  if (!param_in_range (k, v))
    die_usage ("option '--%s': '%s' is out of range (%s expected)", option,
               text, param_range_text (k));
  return v;
}

const char *
param_unit_text (int k)
{
  switch (param_defs[k].unit)
    {
    case PUNIT_TIME:
      return "time";
    case PUNIT_PER_BYTE:
      return "time/byte";
    case PUNIT_RATE:
      return "1/time";
    case PUNIT_BYTES:
      return "bytes";
    case PUNIT_NONE:
      break;
    }
  return "1";
}

void
param_table_write (tsv_writer *w)
{
  static const char *const cols[] = { "name", "unit", "range", "meaning" };
  tsv_write_header (w, 4, cols);
  for (int k = 0; k < PARAM_NPARAM; k++)
    {
      tsv_put_str (w, param_defs[k].name);
      tsv_put_str (w, param_unit_text (k));
      tsv_put_str (w, param_range_text (k));
      tsv_put_str (w, param_defs[k].help);
      tsv_end_row (w);
    }
  for (size_t i = 0; i < NALIASES; i++)
    {
      char sets[64];
      snprintf (sets, sizeof sets, "the same as %s%s%s",
                param_defs[aliases[i].k[0]].name,
                aliases[i].n > 1 ? " and " : "",
                aliases[i].n > 1 ? param_defs[aliases[i].k[1]].name : "");
      tsv_put_str (w, aliases[i].name);
      tsv_put_str (w, "alias");
      tsv_put_str (w, "-");
      tsv_put_str (w, sets);
      tsv_end_row (w);
    }
}

const char *
param_names_text (const unsigned char *usable)
{
  static char buf[512];
  size_t n = 0;
  buf[0] = '\0';
  for (int k = 0; k < PARAM_NPARAM; k++)
    {
      if (usable && !usable[k])
        continue;
      n += (size_t) snprintf (buf + n, sizeof buf - n, "%s%s",
                              n ? ", " : "", param_defs[k].name);
      if (k == PARAM_L || (k == PARAM_OS && usable && !usable[PARAM_L]))
        n += (size_t) snprintf (buf + n, sizeof buf - n,
                                ", o (= os and or)");
      if (k == PARAM_OS || k == PARAM_OR)
        n += (size_t) snprintf (buf + n, sizeof buf - n, " (also %s)",
                                k == PARAM_OS ? "o_s" : "o_r");
    }
  return buf;
}

/* ----------------------------------------------------------- values */

const char *param_last_file;
long param_last_line;
/* The input stream read for rows that held none (param_note_empty_input).  */
static const char *empty_input;

void
param_set_clear (struct param_set *ps)
{
  memset (ps, 0, sizeof *ps);
  for (int k = 0; k < PARAM_NPARAM; k++)
    ps->v[k] = NAN;
}

void
param_set_value (struct param_set *ps, int k, double v,
                 enum param_origin origin)
{
  ps->v[k] = v;
  ps->na[k] = 0;
  ps->origin[k] = (unsigned char) origin;
  ps->file[k] = ps->column[k] = NULL;
  ps->line[k] = ps->col[k] = 0;
}

void
param_set_over (struct param_set *dst, const struct param_set *src)
{
  for (int k = 0; k < PARAM_NPARAM; k++)
    if (!isnan (src->v[k]) || src->na[k])
      {
        dst->v[k] = src->v[k];
        dst->na[k] = src->na[k];
        dst->origin[k] = src->origin[k];
        dst->file[k] = src->file[k];
        dst->column[k] = src->column[k];
        dst->line[k] = src->line[k];
        dst->col[k] = src->col[k];
      }
}

int
param_given (const struct param_set *ps, int k)
{
  return !isnan (ps->v[k]);
}

void
param_set_parse (struct param_set *ps, const char *list, const char *option,
                 const unsigned char *usable)
{
  if (!*list)
    die_usage ("option '%s': empty value (expected NAME=VALUE[,...])",
               option);
  char *copy = xstrdup (list);
  for (char *item = copy, *next; item; item = next)
    {
      next = strchr (item, ',');
      if (next)
        *next++ = '\0';
      char *eq = strchr (item, '=');
      if (!eq || eq == item)
        die_usage ("option '%s': '%s' is not NAME=VALUE", option, item);
      *eq = '\0';
      int ks[2];
      int n = param_lookup (item, ks, NULL);
      if (n > 0 && usable && !usable[ks[0]])
        n = 0;
      if (n == 0)
        die_usage ("option '%s': unknown parameter '%s' (known: %s)",
                   option, item, param_names_text (usable));
      double v;
      enum num_status st = param_parse_text (ks[0], eq + 1, &v);
      if (st != NUM_OK)
        die_usage ("option '%s': parameter '%s': invalid number '%s' (%s)",
                   option, item, eq + 1, num_strerror (st));
      for (int i = 0; i < n; i++)
        {
          if (!param_in_range (ks[i], v))
            die_usage ("option '%s': parameter '%s': '%s' is out of range "
                       "(%s expected for %s)", option, item, eq + 1,
                       param_range_text (ks[i]), param_defs[ks[i]].help);
          param_set_value (ps, ks[i], v, PORIGIN_OPTION);
        }
    }
  free (copy);
}

double
param_need (const struct param_set *ps, int k, const char *hint)
{
  if (!isnan (ps->v[k]))
    return ps->v[k];
  const char *name = param_defs[k].name;
  if (ps->na[k] && ps->column[k] && strcmp (ps->column[k], name) != 0)
    die_at (ps->file[k], ps->line[k], ps->col[k],
            "parameter '%s' (%s) is NA (column '%s'), and the model needs "
            "it: give it with %s", name, param_defs[k].help, ps->column[k],
            hint);
  if (ps->na[k])
    die_at (ps->file[k], ps->line[k], ps->col[k],
            "parameter '%s' (%s) is NA, and the model needs it: give it "
            "with %s", name, param_defs[k].help, hint);
  /* The rows were read for what the file lacks, and there were none:
     the cause the user can act on comes first.  */
  if (param_last_file && empty_input)
    die_usage ("%s is empty (no rows), and parameter '%s' (%s) is in "
               "neither the options nor %s:%ld: give it with %s, a '%s' "
               "column in %s or rows with a '%s' column on %s", empty_input,
               name, param_defs[k].help, param_last_file, param_last_line,
               hint, name, param_last_file, name, empty_input);
  if (param_last_file)
    die_at (param_last_file, param_last_line, 0,
            "parameter '%s' (%s) is absent from the parameter row, and the "
            "model needs it: give it with %s or a '%s' column", name,
            param_defs[k].help, hint, name);
  die_usage ("parameter '%s' (%s) is not set: give it with %s or "
             "--params FILE", name, param_defs[k].help, hint);
}

void
param_note_empty_input (const char *what)
{
  empty_input = what;
}

/* ------------------------------------------------------------ files */

static const char *const key_names[] = {
  "src", "dst", "pair", "bytes", "label", "run", "name", NULL
};

long
param_file_col (const struct param_file *pf, const char *name)
{
  for (size_t i = 0; i < pf->ncols; i++)
    if (strcmp (pf->col[i], name) == 0)
      return (long) i;
  return -1;
}

const char *
param_file_get (const struct param_file *pf, size_t r, const char *name)
{
  long c = param_file_col (pf, name);
  return c < 0 ? NULL : pf->cell[r * pf->ncols + (size_t) c];
}

size_t
param_file_keys (const struct param_file *pf, long keys[8])
{
  size_t n = 0;
  for (size_t i = 0; key_names[i]; i++)
    {
      long c = param_file_col (pf, key_names[i]);
      if (c >= 0)
        keys[n++] = c;
    }
  keys[n] = -1;
  return n;
}

struct param_file *
param_file_read (const char *path)
{
  tsv_reader *r = tsv_open (path);
  struct param_file *pf = param_file_from (r);
  tsv_close (r);
  return pf;
}

/* The file being read: freed by param_file_abandon when a harness
   catches the die that ended the read.  */
static struct param_file *reading;

void
param_file_abandon (void)
{
  struct param_file *pf = reading;
  reading = NULL;
  param_file_free (pf);
}

struct param_file *
param_file_from (tsv_reader *r)
{
  struct param_file *pf = xmalloc (sizeof *pf);
  memset (pf, 0, sizeof *pf);
  param_file_abandon ();
  reading = pf;
  pf->name = xstrdup (tsv_name (r));
  pf->ncols = tsv_ncols (r);
  pf->header_line = tsv_lineno (r);
  pf->col = xmalloc (pf->ncols * sizeof *pf->col);
  int any = 0;
  for (size_t i = 0; i < pf->ncols; i++)
    {
      int ks[2];
      pf->col[i] = xstrdup (tsv_colname (r, i));
      any |= param_lookup (pf->col[i], ks, NULL) > 0;
    }
  size_t cap = 0;
  while (tsv_next (r))
    {
      if (pf->nrows == cap)
        {
          cap = cap ? 2 * cap : 8;
          pf->cell = xrealloc (pf->cell, cap * pf->ncols * sizeof *pf->cell);
          pf->line = xrealloc (pf->line, cap * sizeof *pf->line);
        }
      for (size_t i = 0; i < pf->ncols; i++)
        pf->cell[pf->nrows * pf->ncols + i] = xstrdup (tsv_field (r, i));
      pf->line[pf->nrows++] = tsv_lineno (r);
    }
  if (pf->nrows == 0)
    die_at (pf->name, tsv_lineno (r), 0,
            "no parameter row (a header, then one row of parameters per "
            "line)");
  if (!any)
    {
      char cols[256];
      size_t n = 0;
      for (size_t i = 0; i < pf->ncols && n < sizeof cols - 8; i++)
        n += (size_t) snprintf (cols + n, sizeof cols - n, "%s%s",
                                i ? ", " : "", pf->col[i]);
      die_at (pf->name, pf->header_line, 0, "no parameter column (columns: "
              "%s; known parameters: %s)", cols, param_names_text (NULL));
    }
  pf->nmeta = tsv_nmeta (r);
  pf->meta = xmalloc ((pf->nmeta + 1) * sizeof *pf->meta);
  for (size_t i = 0; i < pf->nmeta; i++)
    pf->meta[i] = xstrdup (tsv_meta_line (r, i));
  tsv_reader *one[1] = { r };
  const char *unit = tsv_time_unit (one, 1);
  pf->time_unit = unit ? xstrdup (unit) : NULL;
  reading = NULL;
  return pf;
}

void
param_file_free (struct param_file *pf)
{
  if (!pf)
    return;
  for (size_t i = 0; i < pf->nrows * pf->ncols; i++)
    free (pf->cell[i]);
  for (size_t i = 0; pf->col && i < pf->ncols; i++)
    free (pf->col[i]);
  for (size_t i = 0; pf->meta && i < pf->nmeta; i++)
    free (pf->meta[i]);
  if (param_last_file == pf->name)
    param_last_file = NULL;
  free (pf->meta);
  free (pf->cell);
  free (pf->col);
  free (pf->line);
  free (pf->time_unit);
  free (pf->name);
  free (pf);
}

/* "src=0,dst=1 (line 5)" for row R, in BUF.  */
static void
row_keys (const struct param_file *pf, size_t r, char *buf, size_t len)
{
  long keys[8];
  size_t nk = param_file_keys (pf, keys), n = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < nk && n < len; i++)
    n += (size_t) snprintf (buf + n, len - n, "%s%s=%s", i ? "," : "",
                            pf->col[keys[i]],
                            pf->cell[r * pf->ncols + (size_t) keys[i]]);
  if (n < len)
    snprintf (buf + n, len - n, "%sline %ld", nk ? " at " : "",
              pf->line[r]);
}

size_t
param_file_select (const struct param_file *pf, const char *where, int each,
                   const char *each_option, size_t **rows)
{
  /* The conditions: column index and wanted text (static: reachable
     when a bad condition ends the program, freed by the next call).  */
  size_t ncond = 0;
  static long *ccol;
  static char **cval;
  static char *copy;
  free (ccol);
  free (cval);
  free (copy);
  ccol = NULL;
  cval = NULL;
  copy = NULL;
  if (where)
    {
      copy = xstrdup (where);
      size_t cap = 1;
      for (const char *p = copy; *p; p++)
        cap += *p == ',';
      ccol = xmalloc (cap * sizeof *ccol);
      cval = xmalloc (cap * sizeof *cval);
      for (char *item = copy, *next; item; item = next)
        {
          next = strchr (item, ',');
          if (next)
            *next++ = '\0';
          char *eq = strchr (item, '=');
          if (!eq || eq == item)
            die_usage ("option '--where': '%s' is not KEY=VALUE", item);
          *eq = '\0';
          long c = param_file_col (pf, item);
          if (c < 0)
            die_usage ("option '--where': %s has no column '%s'", pf->name,
                       item);
          ccol[ncond] = c;
          cval[ncond++] = eq + 1;
        }
    }
  size_t *out = xmalloc (pf->nrows * sizeof *out), n = 0;
  for (size_t r = 0; r < pf->nrows; r++)
    {
      int ok = 1;
      for (size_t i = 0; ok && i < ncond; i++)
        {
          const char *f = pf->cell[r * pf->ncols + (size_t) ccol[i]];
          double x, y;
          /* numbers compare as numbers: bytes=1024 matches 1.024e3 */
          if (num_parse_str (f, &x) == NUM_OK
              && num_parse_str (cval[i], &y) == NUM_OK)
            ok = x == y;
          else
            ok = strcmp (f, cval[i]) == 0;
        }
      if (ok)
        out[n++] = r;
    }
  if (n == 0)
    {
      free (out);
      die_at (pf->name, 0, 0, "no parameter row matches --where %s", where);
    }
  if (n > 1 && !each)
    {
      char list[1024], one[160];
      size_t len = 0, out0 = out[0], out1 = out[1];
      for (size_t i = 0; i < n && len < sizeof list - 1; i++)
        {
          if (i == 8)
            {
              snprintf (list + len, sizeof list - len, "; ...");
              break;
            }
          row_keys (pf, out[i], one, sizeof one);
          len += (size_t) snprintf (list + len, sizeof list - len, "%s%s",
                                    i ? "; " : "", one);
        }
      free (out);
      /* logp-measure's rows, one per message size, are a table (PLogP's
         g(m), os(m), or(m)), not a choice of rows: say what reads them.  */
      long bc = param_file_col (pf, "bytes");
      if (bc >= 0 && each_option && n > 1
          && strcmp (pf->cell[out0 * pf->ncols + (size_t) bc],
                     pf->cell[out1 * pf->ncols + (size_t) bc]) != 0)
        die_at (pf->name, 0, 0, "%zu parameter rows, one per message size "
                "(%s): use them all as one table with %s, or pick one size "
                "with --where bytes=B", n, list, each_option);
      die_at (pf->name, 0, 0, "%zu parameter rows %s (%s): select one with "
              "--where KEY=VALUE[,...]%s%s", n,
              where ? "match" : "and no selection", list,
              each_option ? ", or use them all with " : "",
              each_option ? each_option : "");
    }
  *rows = out;
  return n;
}

double
param_scale_value (double v, double scale)
{
  /* dividing by 1000 is exact where multiplying by 0.001 is not */
  if (scale > 0 && scale < 1 && 1 / scale == round (1 / scale))
    return v / (1 / scale);
  return v * scale;
}

static double
unit_scale (enum param_unit u, double scale)
{
  switch (u)
    {
    case PUNIT_TIME:
    case PUNIT_PER_BYTE:
      return scale;
    case PUNIT_RATE:
      return 1 / scale;
    case PUNIT_NONE:
    case PUNIT_BYTES:
      break;
    }
  return 1;
}

void
param_file_apply (const struct param_file *pf, size_t r,
                  struct param_set *ps, double scale,
                  const unsigned char *usable)
{
  param_last_file = pf->name;
  param_last_line = pf->line[r];
  /* pass 0: aliases, pass 1: exact names (they win) */
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < pf->ncols; i++)
      {
        int ks[2], alias;
        int n = param_lookup (pf->col[i], ks, &alias);
        if (n == 0 || alias != (pass == 0))
          continue;
        const char *f = pf->cell[r * pf->ncols + i];
        for (int j = 0; j < n; j++)
          {
            int k = ks[j];
            if (usable && !usable[k])
              continue;      /* another tool's column: not read */
            if (num_is_na (f, strlen (f)))
              {
                param_set_value (ps, k, NAN, PORIGIN_FILE);
                ps->na[k] = 1;
              }
            else
              {
                double v;
                enum num_status st = num_parse_str (f, &v);
                if (st != NUM_OK)
                  die_at (pf->name, pf->line[r], (long) i + 1,
                          "column '%s': invalid number '%.60s' (%s; expected "
                          "a decimal number such as 12, -3.5 or 1e-06)",
                          pf->col[i], f, num_strerror (st));
                if (!param_in_range (k, v))
                  die_at (pf->name, pf->line[r], (long) i + 1,
                          "column '%s': '%s' is out of range (%s expected "
                          "for %s)", pf->col[i], f, param_range_text (k),
                          param_defs[k].help);
                param_set_value (ps, k, param_scale_value
                                 (v, unit_scale (param_defs[k].unit, scale)),
                                 PORIGIN_FILE);
              }
            ps->file[k] = pf->name;
            ps->column[k] = pf->col[i];
            ps->line[k] = pf->line[r];
            ps->col[k] = (long) i + 1;
          }
      }
}

void
param_file_sizes (const struct param_file *pf, const size_t *rows, size_t n,
                  double scale, const char *user, double *out)
{
  param_plogp_rows (pf, rows, n, scale, user, 1, out);
}

void
param_plogp_rows (const struct param_file *pf, const size_t *rows, size_t n,
                  double scale, const char *user, int with_L, double *out)
{
  static const char *const names[5] = { "bytes", "os", "or", "g", "L" };
  long c[5];
  int ncol = with_L ? 5 : 4;
  if (!with_L)
    for (size_t i = 0; i < n; i++)
      out[i * 5 + 4] = NAN;
  for (int k = 0; k < ncol; k++)
    {
      c[k] = param_file_col (pf, names[k]);
      if (c[k] < 0)
        die_at (pf->name, pf->header_line, 0, "%s needs a '%s' column (the "
                "per-size rows of logp-measure: bytes, os, or, g, L)", user,
                names[k]);
    }
  for (size_t i = 0; i < n; i++)
    for (int k = 0; k < ncol; k++)
      {
        const char *f = pf->cell[rows[i] * pf->ncols + (size_t) c[k]];
        double v;
        if (num_is_na (f, strlen (f)))
          die_at (pf->name, pf->line[rows[i]], c[k] + 1, "column '%s' is "
                  "NA, and %s needs every size's %s (measure that size "
                  "again, or delete its row)", names[k],
                  user, names[k]);
        /* g may be below 0 (plogp_init: noise on a tiny size) */
        if (num_parse_str (f, &v) != NUM_OK || !isfinite (v)
            || (k != 3 && !(v >= 0)))
          die_at (pf->name, pf->line[rows[i]], c[k] + 1, "column '%s': "
                  "'%.60s' is not a number%s (%s needs every size's %s)",
                  names[k], f, k != 3 ? " >= 0" : "", user, names[k]);
        out[i * 5 + (size_t) k] = k ? param_scale_value (v, scale) : v;
      }
}

void
param_plogp_fail (const struct param_file *pf, const size_t *rows, size_t n,
                  size_t which, const char *user, const char *why,
                  const char *hint)
{
  die_at (pf->name, which < n ? pf->line[rows[which]] : 0, 0, "%s: %s%s%s%s",
          user, why, hint ? " (" : "", hint ? hint : "", hint ? ")" : "");
}

void
param_file_same_value (const struct param_file *pf, const size_t *rows,
                       size_t n, const char *col, const char *user,
                       const char *hint)
{
  long c = param_file_col (pf, col);
  if (c < 0 || n == 0)
    return;
  double first = 0;
  const char *first_text = NULL;
  for (size_t i = 0; i < n; i++)
    {
      const char *f = pf->cell[rows[i] * pf->ncols + (size_t) c];
      double v;
      if (num_parse_str (f, &v) != NUM_OK || !isfinite (v))
        die_at (pf->name, pf->line[rows[i]], c + 1, "column '%s': '%.60s' "
                "is not a number (%s needs one %s for the whole table)",
                col, f, user, col);
      if (i == 0)
        {
          first = v;
          first_text = f;
        }
      else if (v != first)
        die_at (pf->name, pf->line[rows[i]], 0, "%s: %s = %.60s here and "
                "%.60s at line %ld: the rows are of several pairs or "
                "measurements (%s)", user, col, f, first_text,
                pf->line[rows[0]], hint);
    }
}

void
param_file_write_meta_as (const struct param_file *pf, tsv_writer *w,
                          const char *prefix)
{
  size_t plen = strlen (prefix);
  char *key = xmalloc (plen + 8);
  snprintf (key, plen + 8, "%sfile", prefix);
  tsv_meta (w, key, "%s", pf->name);
  free (key);
  for (size_t i = 0; i < pf->nmeta; i++)
    {
      const char *m = pf->meta[i], *eq = strchr (m, '=');
      size_t klen = eq ? (size_t) (eq - m) : strlen (m);
      key = xmalloc (plen + klen + 1);
      snprintf (key, plen + klen + 1, "%s%.*s", prefix, (int) klen, m);
      tsv_meta (w, key, "%s", eq ? eq + 1 : "");
      free (key);
    }
}

void
param_file_write_meta (const struct param_file *pf, tsv_writer *w)
{
  param_file_write_meta_as (pf, w, "params_");
}

void
param_plogp_range_meta (tsv_writer *w, double lo, double hi, double small,
                        double big, const char *small_why)
{
  char l[NUM_BUFSIZE], h[NUM_BUFSIZE], m[NUM_BUFSIZE];
  num_format (lo, -1, l);
  num_format (hi, -1, h);
  if (big > hi)
    {
      num_format (big, -1, m);
      tsv_meta (w, "plogp_extrapolated", "messages up to %s bytes, above "
                "the largest measured size %s: the last segment's slope",
                m, h);
    }
  if (small >= 0 && small < lo)
    {
      num_format (small, -1, m);
      tsv_meta (w, "plogp_below", "messages of %s byte%s%s, below the "
                "smallest measured size %s: that size's values", m,
                small == 1 ? "" : "s", small_why ? small_why : "", l);
    }
}

/* ------------------------------------------------------------ units */

static double
seconds_of (const char *unit)
{
  static const struct { const char *name; double s; } u[] = {
    { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "ns", 1e-9 }
  };
  for (size_t i = 0; i < sizeof u / sizeof u[0]; i++)
    if (strcmp (unit, u[i].name) == 0)
      return u[i].s;
  return NAN;
}

int
param_time_scale (const char *from, const char *to, double *scale)
{
  *scale = 1;
  if (strcmp (from, to) == 0)
    return 0;
  double a = seconds_of (from), b = seconds_of (to);
  if (isnan (a) || isnan (b))
    return -1;
  /* exact for the powers of 1000 between the known units */
  *scale = a >= b ? round (a / b) : 1 / round (b / a);
  return 0;
}

void
param_set_scale (struct param_set *ps, double scale)
{
  for (int k = 0; k < PARAM_NPARAM; k++)
    if (!isnan (ps->v[k]))
      ps->v[k] = param_scale_value (ps->v[k],
                                    unit_scale (param_defs[k].unit, scale));
}
