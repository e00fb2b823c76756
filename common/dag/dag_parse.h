/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_parse.h: readers of schedules into the operation graph (dag.h).
 *
 * Both readers work on text or on a tsv.h stream and report every error
 * through err.h's die_at ("NAME: FILE:LINE:COL: message", exit 1), which
 * a test or fuzz harness can catch by replacing err_exit_hook.  */
#ifndef MSGPERF_DAG_PARSE_H
#define MSGPERF_DAG_PARSE_H

#include <stddef.h>

#include "dag.h"
#include "tsv.h"

/* GOAL, the text schedule format of LogGOPSim:
     num_ranks N
     rank R {
       [LABEL:] send Sb to R [tag T] [cpu C] [nic N]
       [LABEL:] recv Sb from R|-1 [tag T|-1] [cpu C] [nic N]
       [LABEL:] calc W [cpu C]
       LABEL requires LABEL
       LABEL irequires LABEL
     }
   with // and / * * / comments.  Labels are local to their rank and must
   be defined before a dependency names them.  NAME is the input's name
   for messages.  Adds to D (not finalized).  */
void goal_parse (const char *text, size_t len, const char *name,
                 struct dag *d);

/* The same from file descriptor FD (read to its end, not closed),
   after the NHEAD bytes at HEAD already read from it (a look at its
   start: NULL and 0 if none); SIZE bytes in all if known (else 0: the
   DAG's arrays are then not reserved ahead), read PIECE bytes at a time
   (0: 256 KiB; a longer line gets a bigger buffer).  A byte order mark
   at its start is skipped.  */
void goal_parse_fd (int fd, const char *head, size_t nhead, size_t size,
                    size_t piece, const char *name, struct dag *d);

/* The time unit ("us", ...) that the comment line "// #@time_unit=UNIT"
   before the first statement of the GOAL text TEXT (its first LEN bytes
   at least) declares, into UNIT (N bytes): 1, or 0 when there is none.
   msgperf-trace goal writes it; LogGOPSim skips it as a comment.  */
int goal_time_unit (const char *text, size_t len, char *unit, size_t n);

/* Native TSV: one stream with a `kind` column (rows `task`: id, proc,
   work; `msg`: from, to, bytes; `dep`: from, to; unused fields NA).  */
void dag_read_native (tsv_reader *r, struct dag *d);

/* Native TSV as two streams: TASKS (id, proc, work) and EDGES (from, to,
   and bytes; an edge whose bytes are NA, or a stream without a bytes
   column, is an ordering dependency).  */
void dag_read_native2 (tsv_reader *tasks, tsv_reader *edges, struct dag *d);

/* Native TSV from text (for tests and fuzzing).  */
void dag_parse_native_text (const char *text, size_t len, const char *name,
                            struct dag *d);

#endif
