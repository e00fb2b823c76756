/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli.h: the command-line layer shared by every msgperf program.
 *
 * Options go through libpopt with a static table per program; the options
 * every program shares (--help, --usage, --version, --precision, --human,
 * --quiet)
 * come from cli_common_table via POPT_ARG_INCLUDE_TABLE.  ~/.popt is never
 * read.  Numeric option values are taken as strings and parsed with the
 * strict parser (num.h).  */
#ifndef MSGPERF_CLI_H
#define MSGPERF_CLI_H

#include <popt.h>
#include <stdio.h>
#include <stdint.h>

/* Include in every option table:
     { NULL, '\0', POPT_ARG_INCLUDE_TABLE, cli_common_table, 0,
       "Common options:", NULL },  */
extern struct poptOption cli_common_table[];
#define CLI_COMMON_OPTIONS \
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, cli_common_table, 0, \
    "Common options:", NULL }

/* State filled by cli_init and the common options.  */
struct cli_state
{
  const char *program;   /* e.g. "hyper-reduce" */
  const char *subcommand;/* set by the program, or NULL */
  char *argv_line;       /* the full command line, shell-quoted */
  int precision;         /* -1 unless --precision */
  int quiet;
};
extern struct cli_state cli;

/* Set the program name, the C locale for numbers, SIGPIPE handling (a
   closed pipe ends the program quietly with status 0... see cli.c), the
   stdout-close check at exit, and record argv for #@argv.  */
void cli_init (const char *program, int argc, char **argv);

/* Create a popt context for TABLE (no ~/.popt), run the option loop,
   handle the common options, die_usage on bad options.  For each option
   whose val is > 0 and that is not a common option, HANDLER (may be NULL)
   is called with the val and the context.  Returns the context, whose
   remaining arguments (files) the program reads with poptGetArgs;
   free it with poptFreeContext.  */
poptContext cli_parse (int argc, const char **argv,
                       const struct poptOption *table,
                       const char *other_help,
                       void (*handler) (int val, poptContext con));

/* Called by --help after the option list, when set: a program with
   operands to choose from (comet-run's kernels) lists them there.  */
extern void (*cli_help_hook) (FILE *fp);

/* The context of the last cli_parse (the program frees it).  */
extern poptContext cli_context;

/* Strict option value parsers: die_usage naming the option and the text
   when TEXT is not a number in [LO, HI].  */
double cli_double (const char *option, const char *text, double lo, double hi);
int64_t cli_int (const char *option, const char *text, int64_t lo, int64_t hi);

/* Subcommand dispatch: NAME, the function, a one-line description.  */
struct cli_subcommand
{
  const char *name;
  int (*run) (int argc, const char **argv);
  const char *summary;
};

/* Pick the subcommand named by argv[1] from TABLE (terminated by a NULL
   name) and run it with argv shifted by one (argv[0] stays the program).
   "--help"/"--version" before a subcommand are handled here; an unknown
   or missing subcommand is a usage error listing the valid ones.  */
int cli_dispatch (int argc, char **argv, const struct cli_subcommand *table);

/* Should progress lines go to stderr?  (stderr is a terminal, or FORCE.) */
int cli_progress_enabled (int force);

/* Progress of an MPI program, whose rank cannot see the launcher's
   terminal (Open MPI forwards rank 0's stderr through a pipe):
   CLI_PROGRESS_ON with --progress (FORCE) or a terminal,
   CLI_PROGRESS_OFF with --no-progress (SUPPRESS) or outside a launcher,
   and under a launcher (OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK in
   the environment) CLI_PROGRESS_LATE: on once the run has lasted
   CLI_PROGRESS_AFTER seconds (MSGPERF_PROGRESS_AFTER overrides it), so
   that a long run shows where it is and a short one stays quiet.  */
enum { CLI_PROGRESS_OFF, CLI_PROGRESS_ON, CLI_PROGRESS_LATE };
#define CLI_PROGRESS_AFTER 5.0
int cli_progress_mode (int force, int suppress);
/* Is a progress line due now under MODE?  */
int cli_progress_now (int mode);
/* Seconds since cli_init.  */
double cli_elapsed (void);

#endif
