/* SPDX-License-Identifier: GPL-3.0-or-later */
/* human.h: the stream shown to a person (msgperf(7), The human view).
 *
 * One implementation behind every program's --human and tsv-check
 * --table: the rows aligned (numbers right, text left), no metadata, the
 * unit of every time column in its header ("t_mean [us]", "G [us/B]"),
 * real numbers at 4 significant digits (or --precision), whole counts
 * exact, and a derived bandwidth column "GB/s" = bytes / time when the
 * stream has bytes, a time column and a unit of seconds.  */
#ifndef MSGPERF_HUMAN_H
#define MSGPERF_HUMAN_H

#include <stddef.h>
#include <stdio.h>

#include "tsv.h"

/* Significant digits of a real number in the view without --precision:
   a measured time or a fitted value holds no more (msgperf(7), NUMBERS).  */
#define HUMAN_DIGITS 4

/* What a column holds, from its name (the one table of time columns).  */
enum human_kind { HUMAN_PLAIN, HUMAN_TIME, HUMAN_PER_BYTE };
enum human_kind human_column_kind (const char *name);

/* The header text of column NAME under time unit UNIT (NULL: none) into
   BUF: "NAME [UNIT]", "NAME [UNIT/B]" or NAME.  */
void human_column_label (const char *name, const char *unit, char *buf,
                         size_t size);

struct human_view;
typedef struct human_view human_view;

/* A view of the columns of R, whose times are in UNIT (may be NULL).  */
human_view *human_new (const tsv_reader *r, const char *unit);
/* Keep R's current row (same columns as the one given to human_new).  */
void human_add_row (human_view *h, const tsv_reader *r);
/* Print the view to FP and free it.  */
void human_print (human_view *h, FILE *fp);

/* Render the stream held in TEXT (LEN bytes, as a writer wrote it) to FP;
   a text without a header prints nothing.  */
void human_render_text (const char *text, size_t len, FILE *fp);

#endif
