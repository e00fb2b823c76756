/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsv.c: reader and writer of the msgperf stream (msgperf(7), THE STREAM).  */
#include <config.h>
#include "tsv.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "human.h"
#include "num.h"
#include "xalloc.h"

int tsv_precision = -1;
int tsv_human;

/* ================================================================ reader */

struct tsv_reader
{
  FILE *fp;
  int own_fp;
  char *name;
  char *line;          /* current line, tabs replaced by NULs */
  size_t line_cap;
  long lineno;         /* of the current line */
  size_t ncols;
  char **colnames;
  char **field;        /* pointers into line */
  size_t *flen;
  char **meta;         /* metadata lines without "#@" */
  size_t nmeta, meta_cap;
  struct tsv_reader *prev, *next;   /* the list of open readers */
};

static tsv_reader *open_readers;

/* Quote at most 60 bytes of TEXT for a message, marking a cut.  */
static const char *
excerpt (const char *text, size_t len, char *buf, size_t bufsize)
{
  size_t max = bufsize - 4;
  if (max > 60)
    max = 60;
  size_t n = len < max ? len : max;
  size_t j = 0;
  for (size_t i = 0; i < n; i++)
    buf[j++] = (text[i] == '\0' || text[i] == '\n') ? '?' : text[i];
  if (len > n)
    {
      memcpy (buf + j, "...", 3);
      j += 3;
    }
  buf[j] = '\0';
  return buf;
}

/* Read one physical line into r->line; return its length or -1 at EOF.
   Strips "\n" and a trailing "\r".  A NUL byte is an error.  */
static ssize_t
read_line (tsv_reader *r)
{
  errno = 0;
  ssize_t n = getline (&r->line, &r->line_cap, r->fp);
  if (n < 0)
    {
      if (ferror (r->fp))
        die_at (r->name, r->lineno + 1, 0, "read error: %s", strerror (errno));
      return -1;
    }
  r->lineno++;
  /* A UTF-8 byte order mark (editors on Windows write one) is not part of
     the first column's name.  */
  if (r->lineno == 1 && n >= 3 && memcmp (r->line, "\xEF\xBB\xBF", 3) == 0)
    {
      memmove (r->line, r->line + 3, (size_t) n - 2);
      n -= 3;
    }
  if (n > 0 && r->line[n - 1] == '\n')
    r->line[--n] = '\0';
  if (n > 0 && r->line[n - 1] == '\r')
    r->line[--n] = '\0';
  char *nul = memchr (r->line, '\0', (size_t) n);
  if (nul)
    {
      long col = 1;
      for (char *p = r->line; p < nul; p++)
        col += *p == '\t';
      die_at (r->name, r->lineno, col,
              "NUL byte at byte %ld of the line (a TSV stream is text)",
              (long) (nul - r->line) + 1);
    }
  return n;
}

static void
add_meta (tsv_reader *r, const char *text)
{
  if (r->nmeta == r->meta_cap)
    {
      r->meta_cap = r->meta_cap ? 2 * r->meta_cap : 16;
      r->meta = xrealloc (r->meta, r->meta_cap * sizeof *r->meta);
    }
  r->meta[r->nmeta++] = xstrdup (text);
}

/* A metadata line is "#@key=value" with a well-formed key.  */
static int
is_meta (const char *line)
{
  if (line[0] != '#' || line[1] != '@')
    return 0;
  const char *k = line + 2;
  if (!((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z')))
    return 0;
  while ((*k >= 'A' && *k <= 'Z') || (*k >= 'a' && *k <= 'z')
         || (*k >= '0' && *k <= '9') || *k == '_')
    k++;
  return *k == '=';
}

/* Read lines until a non-comment one; return its length or -1 at EOF.  */
static ssize_t
next_record_line (tsv_reader *r)
{
  for (;;)
    {
      ssize_t n = read_line (r);
      if (n < 0)
        return -1;
      if (r->line[0] != '#')
        return n;
      if (is_meta (r->line))
        add_meta (r, r->line + 2);
    }
}

/* Split r->line (length N) at tabs; return the number of fields, filling
   r->field/r->flen up to CAP entries.  */
static size_t
split (tsv_reader *r, size_t n, size_t cap)
{
  size_t count = 0;
  char *p = r->line, *end = r->line + n;
  for (;;)
    {
      char *tab = memchr (p, '\t', (size_t) (end - p));
      char *stop = tab ? tab : end;
      if (count < cap)
        {
          r->field[count] = p;
          r->flen[count] = (size_t) (stop - p);
        }
      count++;
      if (!tab)
        break;
      *tab = '\0';
      p = tab + 1;
    }
  return count;
}

void
tsv_same_header (const tsv_reader *first, const tsv_reader *r)
{
  size_t n = tsv_ncols (first);
  for (size_t i = 0; i < n || i < tsv_ncols (r); i++)
    if (i >= n || i >= tsv_ncols (r)
        || strcmp (tsv_colname (first, i), tsv_colname (r, i)) != 0)
      die_at (tsv_name (r), 0, 0,
              "header differs from the header of %s at column %zu (several "
              "inputs must have the same columns in the same order)",
              tsv_name (first), i + 1);
}

int
tsv_valid_name (const char *s)
{
  if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
    return 0;
  for (s++; *s; s++)
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')
          || (*s >= '0' && *s <= '9') || *s == '_'))
      return 0;
  return 1;
}

/* A header without a TAB whose text is split by commas or semicolons is
   CSV: say so, with a conversion, instead of refusing the odd name.  */
static void
refuse_csv (const tsv_reader *r, size_t n)
{
  const char *line = r->line;
  if (memchr (line, '\t', n))
    return;
  size_t commas = 0, semis = 0;
  for (size_t i = 0; i < n; i++)
    {
      commas += line[i] == ',';
      semis += line[i] == ';';
    }
  if (!commas && !semis)
    return;
  char sep = commas >= semis ? ',' : ';';
  size_t count = sep == ',' ? commas : semis;
  const char *in = strcmp (r->name, "<stdin>") == 0 ? "in.csv" : r->name;
  size_t stem = strlen (in);
  if (stem > 4 && strcmp (in + stem - 4, ".csv") == 0)
    stem -= 4;
  char ex[80];
  die_at (r->name, r->lineno, 1,
          "the header '%s' has no TAB but %zu '%c' separator%s: this looks "
          "like CSV, and a msgperf stream is TAB-separated; convert it "
          "with: tr '%c' '\\t' < %s > %.*s.tsv (fields must not contain "
          "'%c')", excerpt (line, n, ex, sizeof ex), count, sep,
          count == 1 ? "" : "s", sep, in, (int) stem, in, sep);
}

static void
read_header (tsv_reader *r)
{
  ssize_t n = next_record_line (r);
  if (n < 0)
    die_at (r->name, 0, 0,
            "empty input: no header line (a stream starts with a line of "
            "column names)");
  refuse_csv (r, (size_t) n);
  /* Count fields first, then split for real.  */
  size_t count = 1;
  for (ssize_t i = 0; i < n; i++)
    count += r->line[i] == '\t';
  r->field = xrealloc (NULL, count * sizeof *r->field);
  r->flen = xrealloc (NULL, count * sizeof *r->flen);
  split (r, (size_t) n, count);
  r->ncols = count;
  r->colnames = xrealloc (NULL, count * sizeof *r->colnames);
  memset (r->colnames, 0, count * sizeof *r->colnames);
  char ex[80];
  for (size_t i = 0; i < count; i++)
    {
      if (r->flen[i] == 0)
        die_at (r->name, r->lineno, (long) i + 1,
                "empty column name in the header");
      if (!tsv_valid_name (r->field[i]))
        die_at (r->name, r->lineno, (long) i + 1,
                "invalid column name '%s' (names are a letter followed by "
                "letters, digits or '_')",
                excerpt (r->field[i], r->flen[i], ex, sizeof ex));
      for (size_t j = 0; j < i; j++)
        if (strcmp (r->colnames[j], r->field[i]) == 0)
          die_at (r->name, r->lineno, (long) i + 1,
                  "duplicate column name '%s' (also column %zu)",
                  r->field[i], j + 1);
      r->colnames[i] = xstrdup (r->field[i]);
    }
}

tsv_reader *
tsv_open_stream (FILE *fp, const char *name)
{
  tsv_reader *r = xrealloc (NULL, sizeof *r);
  memset (r, 0, sizeof *r);
  r->fp = fp;
  r->next = open_readers;
  if (open_readers)
    open_readers->prev = r;
  open_readers = r;
  r->name = xstrdup (name);
  read_header (r);
  return r;
}

tsv_reader *
tsv_open (const char *path)
{
  if (!path || strcmp (path, "-") == 0)
    return tsv_open_stream (stdin, "<stdin>");
  FILE *fp = fopen (path, "r");
  if (!fp)
    die ("cannot open '%s': %s", path, strerror (errno));
  tsv_reader *r = tsv_open_stream (fp, path);
  r->own_fp = 1;
  return r;
}

void
tsv_close (tsv_reader *r)
{
  if (!r)
    return;
  if (r->prev)
    r->prev->next = r->next;
  else
    open_readers = r->next;
  if (r->next)
    r->next->prev = r->prev;
  if (r->own_fp)
    fclose (r->fp);
  /* colnames is filled in order: a header that died half-way has NULLs
     after the last name read.  */
  for (size_t i = 0; i < r->ncols && r->colnames; i++)
    free (r->colnames[i]);
  for (size_t i = 0; i < r->nmeta; i++)
    free (r->meta[i]);
  free (r->colnames);
  free (r->meta);
  free (r->field);
  free (r->flen);
  free (r->line);
  free (r->name);
  free (r);
}

const char *
tsv_name (const tsv_reader *r)
{
  return r->name;
}

size_t
tsv_ncols (const tsv_reader *r)
{
  return r->ncols;
}

const char *
tsv_colname (const tsv_reader *r, size_t i)
{
  return i < r->ncols ? r->colnames[i] : NULL;
}

long
tsv_col (const tsv_reader *r, const char *name)
{
  for (size_t i = 0; i < r->ncols; i++)
    if (strcmp (r->colnames[i], name) == 0)
      return (long) i;
  return -1;
}

size_t
tsv_col_required (const tsv_reader *r, const char *name)
{
  long c = tsv_col (r, name);
  if (c >= 0)
    return (size_t) c;
  /* List what is there, so the user sees the spelling at once.  */
  size_t need = 1;
  for (size_t i = 0; i < r->ncols; i++)
    need += strlen (r->colnames[i]) + 2;
  /* Static, so that the list stays reachable while the program dies.  */
  static char *list;
  list = xrealloc (list, need);
  list[0] = '\0';
  for (size_t i = 0; i < r->ncols; i++)
    {
      if (i)
        strcat (list, ", ");
      strcat (list, r->colnames[i]);
    }
  /* The header line is not known after rows were read; name the file.  */
  die_at (r->name, 0, 0, "no column '%s' (columns: %s)", name, list);
}

/* Is line N (not yet split) a header: every field a valid column name,
   one of them the name of the header's column at the same place?  Such a
   line starts the next of several concatenated streams (cat a.tsv b.tsv);
   a row of data does not look like that.  */
static int
header_again (const tsv_reader *r, size_t n)
{
  const char *p = r->line, *end = r->line + n;
  int same_place = 0;
  for (size_t i = 0;; i++)
    {
      const char *tab = memchr (p, '\t', (size_t) (end - p));
      size_t len = (size_t) ((tab ? tab : end) - p);
      if (len == 0 || num_is_na (p, len))
        return 0;
      if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
        return 0;
      for (size_t k = 1; k < len; k++)
        if (!((p[k] >= 'A' && p[k] <= 'Z') || (p[k] >= 'a' && p[k] <= 'z')
              || (p[k] >= '0' && p[k] <= '9') || p[k] == '_'))
          return 0;
      if (i < r->ncols && strlen (r->colnames[i]) == len
          && memcmp (r->colnames[i], p, len) == 0)
        same_place = 1;
      if (!tab)
        break;
      p = tab + 1;
    }
  return same_place;
}

/* Append TEXT (LEN bytes) to BUF for a message, a TAB shown as ", ",
   cut with "..." past SIZE.  */
static void
names_text (char *buf, size_t size, const char *text, size_t len)
{
  size_t j = strlen (buf);
  for (size_t i = 0; i < len; i++)
    {
      if (j + 6 >= size)
        {
          /* Past size - 5 the text was cut by an earlier call already.  */
          if (j + 4 <= size)
            strcpy (buf + j, "...");
          return;
        }
      if (text[i] == '\t')
        {
          buf[j++] = ',';
          buf[j++] = ' ';
        }
      else
        buf[j++] = text[i];
    }
  buf[j] = '\0';
}

int
tsv_next (tsv_reader *r)
{
  ssize_t n;
  size_t count;
  for (;;)
    {
      n = next_record_line (r);
      if (n < 0)
        return 0;
      if (!header_again (r, (size_t) n))
        break;
      /* The header of a concatenated stream: the same columns go on, any
         other columns are an error naming both headers.  */
      char first[240] = "", again[240] = "";
      for (size_t i = 0; i < r->ncols; i++)
        {
          if (i)
            names_text (first, sizeof first, "\t", 1);
          names_text (first, sizeof first, r->colnames[i],
                      strlen (r->colnames[i]));
        }
      names_text (again, sizeof again, r->line, (size_t) n);
      if (strcmp (first, again) == 0)
        continue;
      die_at (r->name, r->lineno, 1,
              "a second header (%s) differs from the first (%s): "
              "concatenated streams must have the same columns", again,
              first);
    }
  count = split (r, (size_t) n, r->ncols);
  if (count != r->ncols)
    die_at (r->name, r->lineno,
            (long) (count < r->ncols ? count : r->ncols) + 1,
            "%zu field%s, the header has %zu", count, count == 1 ? "" : "s",
            r->ncols);
  for (size_t i = 0; i < count; i++)
    if (r->flen[i] == 0)
      die_at (r->name, r->lineno, (long) i + 1,
              "column '%s': empty field (write NA for a missing value)",
              r->colnames[i]);
  return 1;
}

long
tsv_lineno (const tsv_reader *r)
{
  return r->lineno;
}

const char *
tsv_field (const tsv_reader *r, size_t i)
{
  return r->field[i];
}

size_t
tsv_field_len (const tsv_reader *r, size_t i)
{
  return r->flen[i];
}

int
tsv_is_na (const tsv_reader *r, size_t i)
{
  return num_is_na (r->field[i], r->flen[i]);
}

void
tsv_die_field (const tsv_reader *r, size_t i, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  die_at (r->name, r->lineno, (long) i + 1, "column '%s': %s",
          r->colnames[i], msg);
}

double
tsv_num (const tsv_reader *r, size_t i, int na_ok)
{
  double v;
  enum num_status s = num_parse (r->field[i], r->flen[i], &v);
  if (s == NUM_OK)
    return v;
  char ex[80];
  if (num_is_na (r->field[i], r->flen[i]))
    {
      if (na_ok)
        return NAN;
      tsv_die_field (r, i, "missing value 'NA' where a number is needed");
    }
  tsv_die_field (r, i, "invalid number '%s' (%s; expected a decimal number "
                 "such as 12, -3.5 or 1e-06)",
                 excerpt (r->field[i], r->flen[i], ex, sizeof ex),
                 num_strerror (s));
}

int64_t
tsv_int (const tsv_reader *r, size_t i)
{
  int64_t v;
  enum num_status s = num_parse_int64 (r->field[i], r->flen[i], &v);
  if (s == NUM_OK)
    return v;
  char ex[80];
  tsv_die_field (r, i, "invalid count '%s' (%s; expected a whole number "
                 "such as 0 or 4096)",
                 excerpt (r->field[i], r->flen[i], ex, sizeof ex),
                 num_strerror (s));
}

size_t
tsv_nmeta (const tsv_reader *r)
{
  return r->nmeta;
}

const char *
tsv_meta_line (const tsv_reader *r, size_t i)
{
  return i < r->nmeta ? r->meta[i] : NULL;
}

const char *
tsv_meta_get (const tsv_reader *r, const char *key)
{
  size_t klen = strlen (key);
  for (size_t i = r->nmeta; i-- > 0;)
    if (strncmp (r->meta[i], key, klen) == 0 && r->meta[i][klen] == '=')
      return r->meta[i] + klen + 1;
  return NULL;
}

/* ================================================================ units */

int
tsv_time_unit_valid (const char *u)
{
  static const char *const units[] = { "us", "ns", "ms", "s", "cycles", NULL };
  for (size_t i = 0; units[i]; i++)
    if (strcmp (u, units[i]) == 0)
      return 1;
  return 0;
}

const char *
tsv_time_unit (tsv_reader *const *readers, size_t n)
{
  const char *unit = NULL, *from = NULL;
  size_t from_k = 0;
  for (size_t k = 0; k < n; k++)
    for (size_t i = 0; i < readers[k]->nmeta; i++)
      {
        const char *m = readers[k]->meta[i];
        if (strncmp (m, "time_unit=", 10) != 0)
          continue;
        const char *u = m + 10;
        if (!tsv_time_unit_valid (u))
          die_at (readers[k]->name, 0, 0,
                  "unknown time unit '%s' in #@time_unit (known: us, ns, ms, "
                  "s, cycles)", u);
        if (!unit)
          {
            unit = u;
            from = readers[k]->name;
            from_k = k;
          }
        else if (strcmp (unit, u) != 0)
          {
            if (from_k == k)
              die_at (readers[k]->name, 0, 0,
                      "conflicting time units '%s' and '%s' in one stream",
                      unit, u);
            die_at (readers[k]->name, 0, 0,
                    "time unit '%s' conflicts with '%s' of %s (convert one "
                    "input first)", u, unit, from);
          }
      }
  return unit;
}

/* ================================================================ writer */

struct tsv_writer
{
  FILE *fp;
  char *path;          /* final name, or NULL for stdout */
  char *tmp;           /* temporary name */
  size_t ncols;        /* 0 before the header */
  size_t nfields;      /* in the current row */
  unsigned char *count;  /* per column: a count (tsv_is_count_name) */
  char *last_time_unit;
  /* How many metadata lines of each reader were copied already.  */
  const tsv_reader *copied_from[16];
  size_t copied_n[16];
  size_t ncopied;
  /* Output buffer: rows are many small pieces, and one memcpy each is much
     cheaper than one stdio call each.  */
  char *buf;
  size_t len;
  /* --human: the stream is written to memory (mem, memlen) and shown
     aligned on stdout at close (human.h).  */
  char *mem;
  size_t memlen;
  int human;
  struct tsv_writer *prev, *next;   /* the list of open writers */
};

static tsv_writer *open_writers;

enum { OUTBUF = 1 << 16 };

static void
flush_buf (tsv_writer *w)
{
  if (w->len && fwrite (w->buf, 1, w->len, w->fp) != w->len)
    {
      /* Reported by the close check; keep going quietly until then.  */
    }
  w->len = 0;
}

static void
out (tsv_writer *w, const char *s, size_t n)
{
  if (w->len + n > OUTBUF)
    {
      flush_buf (w);
      if (n > OUTBUF)
        {
          fwrite (s, 1, n, w->fp);
          return;
        }
    }
  memcpy (w->buf + w->len, s, n);
  w->len += n;
}

static void
out_c (tsv_writer *w, char c)
{
  if (w->len == OUTBUF)
    flush_buf (w);
  w->buf[w->len++] = c;
}

static void writer_free (tsv_writer *w);

/* The writer to stdout, flushed before any error message (err.h).  */
static tsv_writer *stdout_writer;

static void
flush_stdout_writer (void)
{
  if (stdout_writer)
    flush_buf (stdout_writer);
}

tsv_writer *
tsv_writer_open (const char *path)
{
  tsv_writer *w = xrealloc (NULL, sizeof *w);
  memset (w, 0, sizeof *w);
  w->next = open_writers;
  if (open_writers)
    open_writers->prev = w;
  open_writers = w;
  if ((!path || strcmp (path, "-") == 0) && tsv_human)
    {
      w->fp = open_memstream (&w->mem, &w->memlen);
      if (!w->fp)
        die ("out of memory");
      w->human = 1;
    }
  else if (!path || strcmp (path, "-") == 0)
    {
      w->fp = stdout;
      stdout_writer = w;
      err_flush_hook = flush_stdout_writer;
    }
  else
    {
      w->path = xstrdup (path);
      size_t n = strlen (path) + 32;
      w->tmp = xrealloc (NULL, n);
      snprintf (w->tmp, n, "%s.tmp.%ld", path, (long) getpid ());
      w->fp = fopen (w->tmp, "w");
      if (!w->fp)
        die ("cannot write '%s': %s", path, strerror (errno));
      err_cleanup_add (w->tmp);
    }
  w->buf = xrealloc (NULL, OUTBUF);
  return w;
}

static void
put_meta_text (tsv_writer *w, const char *text)
{
  out (w, "#@", 2);
  for (const char *p = text; *p; p++)
    out_c (w, *p == '\n' || *p == '\r' ? ' ' : *p);
  out_c (w, '\n');
  if (strncmp (text, "time_unit=", 10) == 0)
    {
      free (w->last_time_unit);
      w->last_time_unit = xstrdup (text + 10);
    }
}

void
tsv_copy_meta (tsv_writer *w, const tsv_reader *r)
{
  size_t k;
  for (k = 0; k < w->ncopied; k++)
    if (w->copied_from[k] == r)
      break;
  if (k == w->ncopied)
    {
      if (k == sizeof w->copied_from / sizeof w->copied_from[0])
        die ("too many inputs to copy metadata from");
      w->copied_from[k] = r;
      w->copied_n[k] = 0;
      w->ncopied++;
    }
  for (size_t i = w->copied_n[k]; i < r->nmeta; i++)
    put_meta_text (w, r->meta[i]);
  w->copied_n[k] = r->nmeta;
}

void
tsv_meta (tsv_writer *w, const char *key, const char *fmt, ...)
{
  char *value = NULL;
  va_list ap;
  va_start (ap, fmt);
  if (vasprintf (&value, fmt, ap) < 0)
    die ("out of memory");
  va_end (ap);
  size_t n = strlen (key) + strlen (value) + 2;
  char *text = xrealloc (NULL, n);
  snprintf (text, n, "%s=%s", key, value);
  put_meta_text (w, text);
  free (text);
  free (value);
}

void
tsv_meta_num (tsv_writer *w, const char *key, double v, int significant)
{
  char buf[NUM_BUFSIZE];
  if (significant > 0)
    num_format_measured (v, 0, significant, buf);
  else
    num_format (v, -1, buf);
  tsv_meta (w, key, "%s", buf);
}

void
tsv_write_tool_meta (tsv_writer *w, const char *subcommand)
{
  if (subcommand)
    tsv_meta (w, "tool", "%s %s", cli.program, subcommand);
  else
    tsv_meta (w, "tool", "%s", cli.program);
  tsv_meta (w, "version", "%s", PACKAGE_VERSION);
  tsv_meta (w, "argv", "%s", cli.argv_line ? cli.argv_line : cli.program);
}

void
tsv_meta_time_unit (tsv_writer *w, const char *unit)
{
  if (!unit)
    return;
  if (w->last_time_unit && strcmp (w->last_time_unit, unit) == 0)
    return;
  tsv_meta (w, "time_unit", "%s", unit);
}

void
tsv_write_header (tsv_writer *w, size_t n, const char *const *names)
{
  for (size_t i = 0; i < n; i++)
    {
      if (i)
        out_c (w, '\t');
      out (w, names[i], strlen (names[i]));
    }
  out_c (w, '\n');
  w->ncols = n;
  w->nfields = 0;
  free (w->count);
  w->count = xcalloc (n, 1);
  for (size_t i = 0; i < n; i++)
    w->count[i] = (unsigned char) tsv_is_count_name (names[i]);
}

int
tsv_is_count_name (const char *name)
{
  static const char *const counts[] = {
    "bytes", "P", "nprocs", "procs", "hops", "reps", "S", "src", "dst",
    "proc", "rank", "size", "n", "fanout", "depth", "seed", "nodes",
    "messages", "events", "ops", "pairs", "blocks", "rounds", NULL
  };
  for (size_t i = 0; counts[i]; i++)
    if (strcmp (name, counts[i]) == 0)
      return 1;
  return 0;
}

static void
sep (tsv_writer *w)
{
  if (w->nfields++)
    out_c (w, '\t');
}

void
tsv_put_strn (tsv_writer *w, const char *s, size_t len)
{
  sep (w);
  out (w, s, len);
}

void
tsv_put_str (tsv_writer *w, const char *s)
{
  tsv_put_strn (w, s, strlen (s));
}

void
tsv_put_num (tsv_writer *w, double v)
{
  char buf[NUM_BUFSIZE];
  /* --precision rounds measurements and model values, never a whole
     count (bytes, P, nodes ...): 64 stays 64, not 6e+01.  */
  int prec = tsv_precision;
  if (prec >= 0 && w->count && w->nfields < w->ncols && w->count[w->nfields]
      && v == nearbyint (v) && fabs (v) <= 9007199254740992.0)
    prec = -1;
  int n = num_format (v, prec, buf);
  sep (w);
  out (w, buf, (size_t) n);
}

void
tsv_put_int (tsv_writer *w, int64_t v)
{
  char buf[24];
  int n = snprintf (buf, sizeof buf, "%lld", (long long) v);
  sep (w);
  out (w, buf, (size_t) n);
}

void
tsv_put_na (tsv_writer *w)
{
  sep (w);
  out (w, "NA", 2);
}

void
tsv_put_fields (tsv_writer *w, const tsv_reader *r)
{
  if (r->ncols == 0)
    return;
  sep (w);
  /* The row's fields lie one after the other in the line buffer, each
     followed by the NUL that replaced its tab: copy the span once, then
     put the tabs back in the copy.  */
  const char *start = r->field[0];
  size_t n = (size_t) (r->field[r->ncols - 1] + r->flen[r->ncols - 1] - start);
  if (w->len + n > OUTBUF)
    flush_buf (w);
  if (n > OUTBUF)
    {
      for (size_t i = 0; i < r->ncols; i++)
        {
          if (i)
            out_c (w, '\t');
          out (w, r->field[i], r->flen[i]);
        }
    }
  else
    {
      char *dst = w->buf + w->len;
      memcpy (dst, start, n);
      for (size_t i = 0; i + 1 < r->ncols; i++)
        dst[r->field[i] + r->flen[i] - start] = '\t';
      w->len += n;
    }
  w->nfields += r->ncols - 1;
}

void
tsv_end_row (tsv_writer *w)
{
  if (w->nfields != w->ncols)
    die ("internal error: a row of %zu fields under a header of %zu",
         w->nfields, w->ncols);
  out_c (w, '\n');
  w->nfields = 0;
}

void
tsv_flush (tsv_writer *w)
{
  if (w->nfields != 0)
    die ("internal error: flush in the middle of a row");
  flush_buf (w);
  fflush (w->fp);
}

void
tsv_writer_close (tsv_writer *w)
{
  if (!w)
    return;
  flush_buf (w);
  if (w->path)
    {
      int bad = fflush (w->fp) != 0 || ferror (w->fp);
      int e = errno;
      if (fclose (w->fp) != 0 && !bad)
        {
          bad = 1;
          e = errno;
        }
      if (bad)
        die ("error writing '%s': %s", w->path, strerror (e));
      if (rename (w->tmp, w->path) != 0)
        die ("cannot rename '%s' to '%s': %s", w->tmp, w->path,
             strerror (errno));
      err_cleanup_remove (w->tmp);
    }
  else if (w->human)
    {
      fclose (w->fp);
      w->fp = NULL;
      human_render_text (w->mem, w->memlen, stdout);
      fflush (stdout);
    }
  else
    {
      /* stdout is closed and checked at exit (cli.c); flush now so that
         a write error is reported before anything else happens.  */
      fflush (w->fp);
    }
  writer_free (w);
}

static void
writer_free (tsv_writer *w)
{
  if (w->prev)
    w->prev->next = w->next;
  else
    open_writers = w->next;
  if (w->next)
    w->next->prev = w->prev;
  if (stdout_writer == w)
    stdout_writer = NULL;
  free (w->path);
  free (w->tmp);
  free (w->last_time_unit);
  free (w->count);
  free (w->buf);
  free (w->mem);
  free (w);
}

void
tsv_free_all (void)
{
  while (open_readers)
    tsv_close (open_readers);
  while (open_writers)
    {
      tsv_writer *w = open_writers;
      if (w->path)
        {
          fclose (w->fp);
          unlink (w->tmp);
          err_cleanup_remove (w->tmp);
        }
      else if (w->human)
        fclose (w->fp);   /* --human: the text in memory is discarded */
      else
        w->len = 0;   /* discarded, not written */
      writer_free (w);
    }
}
