/* SPDX-License-Identifier: GPL-3.0-or-later */
/* err.h: the one error path of every msgperf program.
 *
 * Messages follow msgperf(7), MESSAGES AND EXIT STATUS:
 * "NAME: FILE:LINE:COL: message"
 * for data, "NAME: message" otherwise, plus a "Try 'NAME --help'" line after
 * usage errors.  Exit status: 1 for bad data and runtime failures, 2 for
 * bad usage.  */
#ifndef MSGPERF_ERR_H
#define MSGPERF_ERR_H

#include <stdarg.h>

enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

#if defined(__GNUC__)
# define ERR_PRINTF(f, a) __attribute__ ((format (printf, f, a)))
# define ERR_NORETURN __attribute__ ((noreturn))
#else
# define ERR_PRINTF(f, a)
# define ERR_NORETURN
#endif

/* The program name used as the message prefix (set by cli_init).  */
extern const char *err_program;

/* Exit hook: by default exit(3).  Unit tests and fuzz harnesses install a
   function that longjmps instead; it must not return.  */
extern void (*err_exit_hook) (int status);

/* "NAME: message" and exit 1.  */
ERR_NORETURN void die (const char *fmt, ...) ERR_PRINTF (1, 2);

/* "NAME: FILE:LINE:COL: message" and exit 1.  COL <= 0 omits the column;
   LINE <= 0 omits line and column.  COL is the 1-based TSV field.  */
ERR_NORETURN void die_at (const char *file, long line, long col,
                          const char *fmt, ...) ERR_PRINTF (4, 5);

/* "NAME: message", "Try 'NAME --help' for more information." and exit 2.  */
ERR_NORETURN void die_usage (const char *fmt, ...) ERR_PRINTF (1, 2);

/* "NAME: warning: message" on stderr unless --quiet; never exits.  */
void warn (const char *fmt, ...) ERR_PRINTF (1, 2);

/* Like warn, but only the first call with the same KEY (a static string,
   compared by address) prints: "a value that cannot be computed is NA, and
   the tool says why on stderr once".  */
void warn_once (const char *key, const char *fmt, ...) ERR_PRINTF (2, 3);

/* Silence warn() (set by --quiet).  */
extern int err_quiet;

/* Do not print usage errors (set on MPI ranks other than 0, which parse
   the same options and would repeat rank 0's message).  The exit status
   is unchanged.  */
extern int err_usage_silent;

/* Called before any message is printed, so that output buffered by the
   program (the TSV writer's) reaches stdout before the message does and
   nothing already produced is lost.  */
extern void (*err_flush_hook) (void);

/* Files to remove if the program dies (temporary outputs of -o FILE).  */
void err_cleanup_add (const char *path);
void err_cleanup_remove (const char *path);

/* Exit with STATUS through the hook, after removing cleanup files.  */
ERR_NORETURN void err_exit (int status);

#endif
