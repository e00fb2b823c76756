/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cli.c: options, program identity and the stdout check (see cli.h).  */
#include <config.h>
#include "cli.h"

#include <errno.h>
#include <float.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "xalloc.h"
#include "num.h"
#include "tsv.h"

/* When cli_init ran: the start of the run (cli_elapsed).  */
static struct timespec cli_start;

struct cli_state cli = { "msgperf", NULL, NULL, -1, 0 };
poptContext cli_context;
void (*cli_help_hook) (FILE *fp);

enum { OPT_VERSION = 1, OPT_PRECISION, OPT_QUIET, OPT_HELP, OPT_USAGE,
       OPT_HUMAN };

static void
print_version (void)
{
  printf ("%s (%s) %s\n", cli.program, PACKAGE_NAME, PACKAGE_VERSION);
}

static void
common_callback (poptContext con, enum poptCallbackReason reason,
                 const struct poptOption *opt, const char *arg,
                 const void *data)
{
  (void) data;
  if (reason != POPT_CALLBACK_REASON_OPTION)
    return;
  switch (opt->val)
    {
    case OPT_VERSION:
      print_version ();
      err_exit (0);
    case OPT_PRECISION:
      cli.precision = (int) cli_int ("precision", arg, 1, 17);
      tsv_precision = cli.precision;
      break;
    case OPT_HUMAN:
      tsv_human = 1;
      break;
    case OPT_QUIET:
      cli.quiet = 1;
      err_quiet = 1;
      break;
    /* popt's own --help exits the process directly; here the exit goes
       through err_exit, so an MPI program finalizes (mpiutil.h) and
       mpirun does not report a failed job.  */
    case OPT_HELP:
      poptPrintHelp (con, stdout, 0);
      if (cli_help_hook)
        cli_help_hook (stdout);
      err_exit (0);
    case OPT_USAGE:
      poptPrintUsage (con, stdout, 0);
      err_exit (0);
    }
}

static struct poptOption help_table[] = {
  { NULL, '\0', POPT_ARG_CALLBACK, (void *) common_callback, 0, NULL, NULL },
  { "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP,
    "show this help message (also -?)", NULL },
  /* -? is popt's own letter for help: kept, and not listed twice.  */
  { NULL, '?', POPT_ARG_NONE | POPT_ARGFLAG_DOC_HIDDEN, NULL, OPT_HELP,
    NULL, NULL },
  { "usage", '\0', POPT_ARG_NONE, NULL, OPT_USAGE,
    "display a brief usage message", NULL },
  POPT_TABLEEND
};

struct poptOption cli_common_table[] = {
  { NULL, '\0', POPT_ARG_CALLBACK, (void *) common_callback, 0, NULL, NULL },
  { "precision", '\0', POPT_ARG_STRING, NULL, OPT_PRECISION,
    "round printed numbers to N significant digits (1-17; default: the "
    "shortest text that reads back exactly)", "N" },
  { "human", '\0', POPT_ARG_NONE, NULL, OPT_HUMAN,
    "show the result to a person: aligned, units on every time column, "
    "bandwidth in GB/s, 4 significant digits, no metadata (msgperf(7): "
    "The human view)", NULL },
  { "quiet", 'q', POPT_ARG_NONE, NULL, OPT_QUIET,
    "do not print warnings", NULL },
  { "version", '\0', POPT_ARG_NONE, NULL, OPT_VERSION,
    "print the version and exit", NULL },
  { NULL, '\0', POPT_ARG_INCLUDE_TABLE, help_table, 0, "Help options:",
    NULL },
  POPT_TABLEEND
};

/* Exit-time check that everything written to stdout arrived: a full disk
   is an error, not a silent truncation.  A reader that went away (EPIPE
   while SIGPIPE is ignored) ends the program without a message, like the
   default SIGPIPE action would.  */
static void
close_stdout (void)
{
  int bad = fflush (stdout) != 0 || ferror (stdout);
  int e = errno;
  if (fclose (stdout) != 0 && !bad)
    {
      bad = 1;
      e = errno;
    }
  if (bad)
    {
      if (e != EPIPE)
        fprintf (stderr, "%s: write error: %s\n", cli.program,
                 e ? strerror (e) : "unknown error");
      _exit (EXIT_DATA);
    }
}

/* Append S to the command line, quoted for a POSIX shell when needed.  */
static void
append_word (char **line, size_t *len, size_t *cap, const char *s)
{
  int plain = *s != '\0';
  for (const char *p = s; *p; p++)
    if (!strchr ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                 "0123456789_./:=,+@%-", *p))
      plain = 0;
  size_t need = *len + 4 * strlen (s) + 4;
  if (need > *cap)
    {
      *cap = 2 * need;
      char *n = xrealloc (*line, *cap);
      *line = n;
    }
  char *o = *line + *len;
  if (*len)
    *o++ = ' ';
  if (plain)
    o = stpcpy (o, s);
  else
    {
      *o++ = '\'';
      for (const char *p = s; *p; p++)
        if (*p == '\'')
          o = stpcpy (o, "'\\''");
        else
          *o++ = (*p == '\n' || *p == '\r') ? ' ' : *p;
      *o++ = '\'';
      *o = '\0';
    }
  *len = (size_t) (o - *line);
}

void
cli_init (const char *program, int argc, char **argv)
{
  cli.program = program;
  err_program = program;
  clock_gettime (CLOCK_MONOTONIC, &cli_start);
  /* Numbers are read and written in the C locale whatever the user's
     locale is (msgperf(7), NUMBERS), and messages are English: the locale is
     never taken from the environment.  */
  setlocale (LC_ALL, "C");
  /* A closed pipe (| head -1) ends the program quietly.  */
  signal (SIGPIPE, SIG_DFL);
  if (!isatty (STDOUT_FILENO))
    setvbuf (stdout, NULL, _IOFBF, 1 << 16);
  atexit (close_stdout);
  size_t len = 0, cap = 0;
  char *line = NULL;
  for (int i = 0; i < argc; i++)
    append_word (&line, &len, &cap, argv[i]);
  free (cli.argv_line);
  cli.argv_line = line;
}

/* Repeated string options.  Each time a POPT_ARG_STRING option with a
   variable appears, popt stores a fresh copy of its text there and
   forgets the one it replaces, so "--x a --x b" lost "a".  cli_parse
   gives every such option without a value of its own a value from
   STRING_VAL up, so that popt returns after each one, and frees a copy
   popt made once the next one replaces it.  A default the program put
   in the variable, and whatever a handler leaves there, is not popt's
   and is never freed here.  */
enum { STRING_VAL = 0x40000000 };

struct string_slot
{
  char **var;
  char *prev;           /* the value the variable had when last seen */
  int owned;            /* prev is a copy popt made */
};

static struct string_slot *string_slots;
static size_t nstring_slots;
/* The tables copied for slots (kept for the program's life).  */
static struct poptOption **slot_tables;
static size_t nslot_tables;

static int
option_end (const struct poptOption *o)
{
  return !o->longName && !o->shortName && !o->arg;
}

static int
option_is_string (const struct poptOption *o)
{
  return (o->argInfo & POPT_ARG_MASK) == POPT_ARG_STRING && o->arg;
}

static int
option_is_table (const struct poptOption *o)
{
  return (o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE && o->arg;
}

static int
table_has_strings (const struct poptOption *t)
{
  for (; !option_end (t); t++)
    if (option_is_string (t)
        || (option_is_table (t) && table_has_strings (t->arg)))
      return 1;
  return 0;
}

/* TABLE, or a copy of it (and of the tables it includes) in which the
   string options have slots.  The copies stay for the program's life:
   popt reads its table again for --help.  */
static const struct poptOption *
table_with_slots (const struct poptOption *table)
{
  if (!table_has_strings (table))
    return table;
  size_t n = 0;
  while (!option_end (&table[n]))
    n++;
  struct poptOption *t = xmalloc ((n + 1) * sizeof *t);
  memcpy (t, table, (n + 1) * sizeof *t);
  /* popt hands a table's options to its callback, if it has one, and
     does not return their values: no slot value there.  */
  slot_tables = xrealloc (slot_tables, (nslot_tables + 1)
                         * sizeof *slot_tables);
  slot_tables[nslot_tables++] = t;
  int callback = 0;
  for (size_t i = 0; i < n; i++)
    callback |= (t[i].argInfo & POPT_ARG_MASK) == POPT_ARG_CALLBACK;
  for (size_t i = 0; i < n; i++)
    if (option_is_table (&t[i]))
      t[i].arg = (void *) table_with_slots (t[i].arg);
    else if (option_is_string (&t[i]))
      {
        string_slots = xrealloc (string_slots, (nstring_slots + 1)
                                 * sizeof *string_slots);
        struct string_slot *sl = &string_slots[nstring_slots];
        sl->var = t[i].arg;
        sl->prev = *sl->var;
        sl->owned = 0;
        if (t[i].val == 0 && !callback)
          t[i].val = STRING_VAL + (int) nstring_slots;
        nstring_slots++;
      }
  return t;
}

/* After popt returned: a slot whose variable changed holds popt's
   copy; the one it replaced is freed if popt made it.  */
static void
string_slots_take (void)
{
  for (size_t i = 0; i < nstring_slots; i++)
    {
      struct string_slot *sl = &string_slots[i];
      if (*sl->var != sl->prev)
        {
          if (sl->owned)
            free (sl->prev);
          sl->prev = *sl->var;
          sl->owned = 1;
        }
    }
}

/* After a handler ran: what it left in a variable is its own.  */
static void
string_slots_release (void)
{
  for (size_t i = 0; i < nstring_slots; i++)
    if (*string_slots[i].var != string_slots[i].prev)
      {
        string_slots[i].prev = *string_slots[i].var;
        string_slots[i].owned = 0;
      }
}

poptContext
cli_parse (int argc, const char **argv, const struct poptOption *table,
           const char *other_help, void (*handler) (int, poptContext))
{
  size_t first_slot = nstring_slots;
  table = table_with_slots (table);
  /* No poptReadDefaultConfig: a user's ~/.popt alias must not change a
     result.  */
  poptContext con = poptGetContext (cli.program, argc, argv, table, 0);
  /* Kept reachable: a usage error exits from inside the loop below, and
     the context must not look leaked then.  */
  cli_context = con;
  if (other_help)
    poptSetOtherOptionHelp (con, other_help);
  int rc;
  while ((rc = poptGetNextOpt (con)) > 0)
    {
      string_slots_take ();
      if (rc >= STRING_VAL
          && (size_t) (rc - STRING_VAL) < nstring_slots
          && (size_t) (rc - STRING_VAL) >= first_slot)
        continue;
      if (handler)
        {
          handler (rc, con);
          string_slots_release ();
        }
    }
  if (rc < -1)
    die_usage ("%s: %s", poptBadOption (con, POPT_BADOPTION_NOALIAS),
               poptStrerror (rc));
  return con;
}

double
cli_double (const char *option, const char *text, double lo, double hi)
{
  double v;
  enum num_status s = num_parse_str (text ? text : "", &v);
  if (s != NUM_OK)
    die_usage ("option '--%s': invalid number '%s' (%s)", option,
               text ? text : "", num_strerror (s));
  if (v < lo || v > hi)
    {
      char a[NUM_BUFSIZE], b[NUM_BUFSIZE];
      num_format (lo, -1, a);
      num_format (hi, -1, b);
      /* No upper bound (HUGE_VAL or DBL_MAX): say only the lower one
         (HUGE_VAL printed "0 to NA").  */
      if (hi >= DBL_MAX)
        die_usage ("option '--%s': '%s' is out of range (a number >= %s "
                   "expected)", option, text, a);
      die_usage ("option '--%s': '%s' is out of range (%s to %s)", option,
                 text, a, b);
    }
  return v;
}

int64_t
cli_int (const char *option, const char *text, int64_t lo, int64_t hi)
{
  int64_t v;
  const char *t = text ? text : "";
  enum num_status s = num_parse_int64 (t, strlen (t), &v);
  if (s != NUM_OK)
    die_usage ("option '--%s': invalid whole number '%s' (%s)", option, t,
               num_strerror (s));
  if (v < lo || v > hi)
    die_usage ("option '--%s': '%s' is out of range (%lld to %lld)", option,
               t, (long long) lo, (long long) hi);
  return v;
}

static void
list_subcommands (FILE *fp, const struct cli_subcommand *table)
{
  for (size_t i = 0; table[i].name; i++)
    fprintf (fp, "  %-14s %s\n", table[i].name, table[i].summary);
}

int
cli_dispatch (int argc, char **argv, const struct cli_subcommand *table)
{
  char names[512] = "";
  for (size_t i = 0; table[i].name; i++)
    {
      if (i)
        strncat (names, ", ", sizeof names - strlen (names) - 1);
      strncat (names, table[i].name, sizeof names - strlen (names) - 1);
    }
  if (argc < 2)
    die_usage ("missing subcommand (one of: %s)", names);
  const char *sub = argv[1];
  if (strcmp (sub, "--help") == 0 || strcmp (sub, "-h") == 0
      || strcmp (sub, "-?") == 0
      || strcmp (sub, "--usage") == 0)
    {
      printf ("Usage: %s SUBCOMMAND [OPTION...] [FILE...]\n\n"
              "Subcommands:\n", cli.program);
      list_subcommands (stdout, table);
      printf ("\n'%s SUBCOMMAND --help' lists the options of one.\n",
              cli.program);
      err_exit (0);
    }
  if (strcmp (sub, "--version") == 0)
    {
      print_version ();
      err_exit (0);
    }
  for (size_t i = 0; table[i].name; i++)
    if (strcmp (sub, table[i].name) == 0)
      {
        cli.subcommand = table[i].name;
        static char label[256];
        snprintf (label, sizeof label, "%s %s", cli.program, sub);
        const char **av = xmalloc ((size_t) argc * sizeof *av);
        av[0] = label;
        for (int k = 2; k < argc; k++)
          av[k - 1] = argv[k];
        av[argc - 1] = NULL;
        int rc = table[i].run (argc - 1, av);
        free (av);
        return rc;
      }
  die_usage ("unknown subcommand '%s' (one of: %s)", sub, names);
}

int
cli_progress_enabled (int force)
{
  return force || isatty (STDERR_FILENO);
}

double
cli_elapsed (void)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return (double) (now.tv_sec - cli_start.tv_sec)
         + 1e-9 * (double) (now.tv_nsec - cli_start.tv_nsec);
}

int
cli_progress_mode (int force, int suppress)
{
  if (suppress)
    return CLI_PROGRESS_OFF;
  if (force || isatty (STDERR_FILENO))
    return CLI_PROGRESS_ON;
  if (getenv ("OMPI_COMM_WORLD_SIZE") || getenv ("PMI_SIZE")
      || getenv ("PMIX_RANK"))
    return CLI_PROGRESS_LATE;
  return CLI_PROGRESS_OFF;
}

int
cli_progress_now (int mode)
{
  if (mode != CLI_PROGRESS_LATE)
    return mode == CLI_PROGRESS_ON;
  static double after = -1;
  if (after < 0)
    {
      const char *e = getenv ("MSGPERF_PROGRESS_AFTER");
      double v;
      after = e && num_parse_str (e, &v) == NUM_OK && v >= 0
              ? v : CLI_PROGRESS_AFTER;
    }
  return cli_elapsed () >= after;
}
