/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gpquote.h: text from the input made inert for gnuplot.
 *
 * Everything plotgen takes from a stream or the command line (column
 * names, --by values, titles, labels, file names, #@argv) reaches the
 * gnuplot script only through these functions.  They rely on three facts
 * of gnuplot's language (gnuplot 5 manual, "quotes" and "substitution"):
 *   - in a single-quoted string a backslash is an ordinary character and
 *     the only special character is the quote itself, written twice;
 *   - backquote command substitution is not done inside single quotes;
 *   - '@' macro expansion is not done inside quotes.
 * A string cannot span lines, so control characters (newline, carriage
 * return, tab, escape...) become spaces.  Enhanced-text markup (^ _ @ & {
 * } ~) is switched off by the script itself ("noenhanced"), not here.
 * A file name also gets a "./" prefix when it is relative, so that it can
 * never be read as a pipe ('<cmd', '|cmd') or a special file ('-', '+').
 *
 * Pure functions, no I/O, no allocation.  */
#ifndef MSGPERF_GPQUOTE_H
#define MSGPERF_GPQUOTE_H

#include <stddef.h>

/* Bytes gp_quote needs for S, NUL included (worst case, every byte a
   quote): 2 * strlen (S) + 3.  */
size_t gp_quote_size (const char *s);

/* Write S as a single-quoted gnuplot string literal into DST (at least
   gp_quote_size (S) bytes).  Returns the length written (NUL excluded).  */
size_t gp_quote (char *dst, const char *s);

/* Bytes gp_quote_path needs for PATH, NUL included.  */
size_t gp_quote_path_size (const char *path);

/* Same for a file name: a relative PATH is written as './PATH'.  */
size_t gp_quote_path (char *dst, const char *path);

/* Bytes gp_comment needs for S, NUL included: strlen (S) + 3.  */
size_t gp_comment_size (const char *s);

/* Copy S into DST so that it can follow "# " on a comment line: control
   characters become spaces, and a final backslash (which would continue
   the comment onto the next line) is followed by " #".  */
size_t gp_comment (char *dst, const char *s);

#endif
