/* SPDX-License-Identifier: GPL-3.0-or-later */
/* readfile.h: a whole (small) input file in memory: GOAL schedules,
 * expression files, tree topology files.  The one reader of the
 * programs; what an error means (usage or data) is the caller's.  */
#ifndef MSGPERF_READFILE_H
#define MSGPERF_READFILE_H

#include <stddef.h>

enum readfile_status
{
  READFILE_OK,
  READFILE_OPEN,     /* cannot open (errno set) */
  READFILE_READ,     /* read error (errno set) */
  READFILE_NUL,      /* a NUL byte in a text file (*LEN: its offset) */
  READFILE_NOMEM
};

/* Read PATH (NULL or "-": standard input, left open) into *TEXT, NUL-
   terminated, its length without the NUL in *LEN.  TEXT_ONLY: a NUL byte
   is an error.  On an error *TEXT is NULL.  */
enum readfile_status read_file (const char *path, int text_only, char **text,
                                size_t *len);

/* A text file named by option --OPTION (e.g. a file:PATH topology),
   NUL-terminated: unreadable, or holding a NUL byte, is a usage error
   ("option '--OPTION': cannot read 'PATH': REASON"); out of memory an
   error.  */
char *read_option_file (const char *option, const char *path);

/* Up to N bytes of file descriptor FD into BUF, read(2) again until
   they are all there or its end comes (a pipe or a terminal gives a
   little at a time), past interrupted calls.  Returns how many (fewer
   than N: the end was read), or -1 on a read error (errno set).  */
ptrdiff_t read_full (int fd, void *buf, size_t n);

/* "cannot open", "read error", "contains a NUL byte", "out of memory".  */
const char *readfile_strerror (enum readfile_status s);

#endif
