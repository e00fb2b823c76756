/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_input.h: a schedule file read in the format it is in: GOAL (its
   first statement num_ranks N), native TSV, or a binary schedule
   (dag_image.h) -- the file peeked at, standard input or a pipe read
   once -- and a schedule saved as a binary one (LogGOPSim's txt2bin).
   Errors end the program (err.h) naming the file.  */
#ifndef MSGPERF_DAG_INPUT_H
#define MSGPERF_DAG_INPUT_H

#include <stdint.h>

#include "dag.h"
#include "tsv.h"

struct dag_input
{
  int goal;                   /* the schedule is GOAL */
  char goal_unit[16];         /* its "// #@time_unit=" line's unit, or "" */
  int binary;                 /* a binary schedule */
  void *image;                /* the binary schedule read, or NULL */
  char *image_text;           /* or the one read from standard input */
  const char *image_name;     /* its file's name */
  uint64_t saved_bytes;       /* dag_input_save: the file's size */
  tsv_reader *rd[3];          /* the schedule's streams (metadata) */
  size_t nrd;
};

/* Read the schedule PATH (NULL or "-": standard input) into D (which
   this initializes).  When FORMAT_GIVEN, J->goal and J->binary say the
   format; otherwise the file's start decides, and sets them.  A native
   stream's reader is added to J->rd.  */
void dag_input_read (struct dag_input *j, struct dag *d, const char *path,
                     int format_given);

/* D (GOAL, read and indexed) as a binary schedule in FILE: written
   beside it and renamed, so that FILE is whole or untouched; sets
   J->saved_bytes.  Native TSV is a usage error.  */
void dag_input_save (struct dag_input *j, const struct dag *d,
                     const char *file);

/* A native schedule of two files: TASKS (id, proc, work) and EDGES
   (from, to, bytes; NULL for none) into D, their readers added to
   J->rd.  */
void dag_input_native (struct dag_input *j, struct dag *d, const char *tasks,
                       const char *edges);

/* --format FORMAT (native, goal or binary) into J: -1 for another
   name.  */
int dag_input_format (struct dag_input *j, const char *format);

#endif
