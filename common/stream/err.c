/* SPDX-License-Identifier: GPL-3.0-or-later */
/* err.c: the one error path (see err.h).  */
#include <config.h>
#include "err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *err_program = "msgperf";
int err_quiet = 0;
int err_usage_silent = 0;
void (*err_flush_hook) (void) = NULL;

static void
default_exit (int status)
{
  exit (status);
}

void (*err_exit_hook) (int status) = default_exit;

/* Temporary output files to remove when dying.  A handful at most.  */
#define MAX_CLEANUP 8
static char *cleanup[MAX_CLEANUP];

void
err_cleanup_add (const char *path)
{
  for (int i = 0; i < MAX_CLEANUP; i++)
    if (!cleanup[i])
      {
        cleanup[i] = strdup (path);
        if (!cleanup[i])
          die ("out of memory");
        return;
      }
  die ("too many temporary output files");
}

void
err_cleanup_remove (const char *path)
{
  for (int i = 0; i < MAX_CLEANUP; i++)
    if (cleanup[i] && strcmp (cleanup[i], path) == 0)
      {
        free (cleanup[i]);
        cleanup[i] = NULL;
      }
}

void
err_exit (int status)
{
  for (int i = 0; i < MAX_CLEANUP; i++)
    if (cleanup[i])
      {
        unlink (cleanup[i]);
        free (cleanup[i]);
        cleanup[i] = NULL;
      }
  err_exit_hook (status);
  /* The hook must not return; make sure of it.  */
  _exit (status);
}

static void
vmessage (const char *where, const char *fmt, va_list ap)
{
  /* stdout first, so that already written rows appear before the error
     when both go to one terminal.  */
  if (err_flush_hook)
    err_flush_hook ();
  fflush (stdout);
  fprintf (stderr, "%s: ", err_program);
  if (where)
    fputs (where, stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
}

void
die (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vmessage (NULL, fmt, ap);
  va_end (ap);
  err_exit (EXIT_DATA);
}

void
die_at (const char *file, long line, long col, const char *fmt, ...)
{
  char where[4096];
  if (line <= 0)
    snprintf (where, sizeof where, "%s: ", file);
  else if (col <= 0)
    snprintf (where, sizeof where, "%s:%ld: ", file, line);
  else
    snprintf (where, sizeof where, "%s:%ld:%ld: ", file, line, col);
  va_list ap;
  va_start (ap, fmt);
  vmessage (where, fmt, ap);
  va_end (ap);
  err_exit (EXIT_DATA);
}

void
die_usage (const char *fmt, ...)
{
  if (!err_usage_silent)
    {
      va_list ap;
      va_start (ap, fmt);
      vmessage (NULL, fmt, ap);
      va_end (ap);
      fprintf (stderr, "Try '%s --help' for more information.\n",
               err_program);
    }
  err_exit (EXIT_USAGE);
}

void
warn (const char *fmt, ...)
{
  if (err_quiet)
    return;
  va_list ap;
  va_start (ap, fmt);
  vmessage ("warning: ", fmt, ap);
  va_end (ap);
}

#define MAX_ONCE 64
static const char *once_keys[MAX_ONCE];

void
warn_once (const char *key, const char *fmt, ...)
{
  int i;
  for (i = 0; i < MAX_ONCE && once_keys[i]; i++)
    if (once_keys[i] == key)
      return;
  if (i < MAX_ONCE)
    once_keys[i] = key;
  if (err_quiet)
    return;
  va_list ap;
  va_start (ap, fmt);
  vmessage ("warning: ", fmt, ap);
  va_end (ap);
}
