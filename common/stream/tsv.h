/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tsv.h: the msgperf stream (msgperf(7), THE STREAM).
 *
 * Reader: streams one record at a time from a file or stdin, any line
 * length, constant memory in the number of rows.  Metadata lines
 * ("#@key=value") before and between rows are kept, in order, for the
 * writer to copy; other comments are skipped.  A UTF-8 byte order mark
 * before the header is skipped; a header split by commas or semicolons
 * instead of TABs dies naming the separator and a conversion; a later
 * copy of the header (concatenated streams) is skipped, another header
 * dies naming both.  Every structural error
 * (empty stream, bad header, wrong field count, empty field, NUL byte) dies
 * with "NAME: FILE:LINE:COL: message" and exit 1.
 *
 * Writer: numbers in round-trip form (num.h), metadata copied from the
 * readers then the tool's own, optional atomic output file.  */
#ifndef MSGPERF_TSV_H
#define MSGPERF_TSV_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---------------------------------------------------------------- reader */

struct tsv_reader;
typedef struct tsv_reader tsv_reader;

/* Open PATH ("-" or NULL: stdin) and read up to and including the header.
   Dies (exit 1) when the file cannot be opened, the stream is empty (no
   header; msgperf(7): an error for a tool that needs input) or the
   header is invalid.  */
tsv_reader *tsv_open (const char *path);

/* Same, on an already open FILE named NAME (not closed by tsv_close).  */
tsv_reader *tsv_open_stream (FILE *fp, const char *name);

void tsv_close (tsv_reader *r);

/* Display name: the path, or "<stdin>".  */
const char *tsv_name (const tsv_reader *r);

/* Header.  */
size_t tsv_ncols (const tsv_reader *r);
const char *tsv_colname (const tsv_reader *r, size_t i);
/* Index of column NAME, or -1.  */
long tsv_col (const tsv_reader *r, const char *name);
/* Index of column NAME; dies listing the available columns if absent.  */
size_t tsv_col_required (const tsv_reader *r, const char *name);

/* Read the next data row: 1 read, 0 end of stream.  Dies on bad rows.  */
int tsv_next (tsv_reader *r);

/* Line number of the current row (or of the header before any row).  */
long tsv_lineno (const tsv_reader *r);

/* Fields of the current row (NUL-terminated, valid until tsv_next).  */
const char *tsv_field (const tsv_reader *r, size_t i);
size_t tsv_field_len (const tsv_reader *r, size_t i);
int tsv_is_na (const tsv_reader *r, size_t i);

/* Field I of the current row as a number; dies naming file, line, column
   and text when it is not one.  NA dies too unless NA_OK, in which case
   NaN is returned for NA.  */
double tsv_num (const tsv_reader *r, size_t i, int na_ok);
/* Same for a 64-bit integer count.  */
int64_t tsv_int (const tsv_reader *r, size_t i);

/* Die with a data error pointing at field I of the current row.  */
void tsv_die_field (const tsv_reader *r, size_t i, const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 3, 4)));

/* Metadata lines read so far (without the leading "#@"), in order.  Lines
   met between rows are appended as the rows are read.  */
size_t tsv_nmeta (const tsv_reader *r);
const char *tsv_meta_line (const tsv_reader *r, size_t i);
/* Value of the LAST metadata line with KEY, or NULL.  */
const char *tsv_meta_get (const tsv_reader *r, const char *key);

/* Several inputs read as one stream must have the same columns in the
   same order: dies naming R's file and the first column where R's header
   differs from FIRST's.  */
void tsv_same_header (const tsv_reader *first, const tsv_reader *r);

/* Is S a valid column name (a letter, then letters, digits or '_';
   msgperf(7))?  Every program that takes a column name checks it here.  */
int tsv_valid_name (const char *s);

/* ---------------------------------------------------------------- units */

/* Is UNIT a known time unit (us, ns, ms, s, cycles)?  */
int tsv_time_unit_valid (const char *unit);

/* The time unit shared by the N readers (NULL if none of them has one).
   Dies when two inputs, or two lines in one input, disagree, or when a
   unit is unknown.  */
const char *tsv_time_unit (tsv_reader *const *readers, size_t n);

/* ---------------------------------------------------------------- writer */

struct tsv_writer;
typedef struct tsv_writer tsv_writer;

/* Write to PATH (NULL or "-": stdout).  A real path is written to a
   temporary file beside it and renamed over it by tsv_writer_close.  */
tsv_writer *tsv_writer_open (const char *path);

/* Copy the metadata lines of R, in order (call before tsv_write_header,
   and again if more metadata were read later: lines already copied are not
   repeated).  */
void tsv_copy_meta (tsv_writer *w, const tsv_reader *r);

/* "#@KEY=V": V in the shortest form that reads back as the same double
   (msgperf(7), NUMBERS: 0.05, not 0.050000000000000003), or a measured
   or fitted V at SIGNIFICANT digits when SIGNIFICANT > 0.  */
void tsv_meta_num (tsv_writer *w, const char *key, double v,
                   int significant);

/* "#@tool=NAME SUB", "#@version=", "#@argv=" from cli.h's state.  */
void tsv_write_tool_meta (tsv_writer *w, const char *subcommand);

/* One "#@key=value" line.  Newlines in the value are replaced by spaces.  */
void tsv_meta (tsv_writer *w, const char *key, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* Write "#@time_unit=UNIT" unless UNIT is NULL or the copied metadata
   already end with the same unit.  */
void tsv_meta_time_unit (tsv_writer *w, const char *unit);

/* Header: N names; the writer then checks that every row has N fields.  */
void tsv_write_header (tsv_writer *w, size_t n, const char *const *names);

/* Fields of one row, then tsv_end_row.  */
void tsv_put_str (tsv_writer *w, const char *s);
void tsv_put_strn (tsv_writer *w, const char *s, size_t len);
void tsv_put_num (tsv_writer *w, double v);      /* NA if not finite */
void tsv_put_int (tsv_writer *w, int64_t v);
void tsv_put_na (tsv_writer *w);
/* All fields of R's current row, unchanged, as that many fields (the
   pass-through of msgperf(7), THE STREAM, in one copy).  */
void tsv_put_fields (tsv_writer *w, const tsv_reader *r);
void tsv_end_row (tsv_writer *w);

/* Hand every complete row written so far to the operating system (the
   writer's buffer and stdio's).  A program that measures for a long time
   calls it after each row, so a reader sees rows as they come and a
   process ended abruptly (a --timeout, a signal) leaves only whole rows.
   Between rows only: a partly written row dies as an internal error.  */
void tsv_flush (tsv_writer *w);

/* Flush, check for write errors (dies on them), rename a temporary file
   into place.  */
void tsv_writer_close (tsv_writer *w);

/* Close every reader and discard every writer still open (temporary
   files are removed, nothing is renamed).  For harnesses that catch die()
   with err_exit_hook and go on: the objects a dying call was building are
   freed here.  Open readers and writers stay reachable until then, so a
   program that dies does not show up as leaking them.  */
void tsv_free_all (void);

/* Is NAME a column of whole counts (bytes, P, nprocs, hops, reps, src,
   dst, nodes ...; msgperf(7))?  tsv_put_num prints a whole value of such
   a column exactly whatever the precision, and plotgen gives its axis no
   time unit.  */
int tsv_is_count_name (const char *name);

/* --human (cli.h): a writer to stdout keeps the stream in memory and
   shows it aligned, with units, at tsv_writer_close (human.h).  */
extern int tsv_human;

/* Precision used by tsv_put_num (-1: round trip; set from --precision).  */
extern int tsv_precision;

#endif
