/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tool.c (fuzz): one non-MPI program of tools/, run whole, with random
 * command lines and random input files.
 *
 * Built once per program (make fuzz-build compiles this file with
 * -DFUZZ_TOOL='"NAME"' into fuzz/tool-NAME-fuzzer, and the program itself,
 * with AddressSanitizer and UndefinedBehaviorSanitizer, into
 * fuzz/bin/NAME).  The programs keep their options in static variables and
 * end through exit(), so they are run as they are run by a user: each
 * input spawns fuzz/bin/NAME in a scratch folder, with stdout to
 * /dev/null and stderr read back.
 *
 * What the program accepts is learnt from it: at start-up the harness
 * runs `NAME --help` (and `NAME SUB --help` for each subcommand listed
 * there) and keeps the option names, whether each takes a value, the
 * subcommands, and every lower-case word of the help texts (column names,
 * models, patterns) as a vocabulary of values.
 *
 * Input: byte 0 picks the subcommand (or none); then, up to a 0xFF byte,
 * tokens: an option (by index), its value by kind (NA, empty, huge,
 * negative, tiny, non-finite, lists, NAME=VALUE, a vocabulary word, text
 * from the input, the input file's path ...) or a positional argument;
 * after the 0xFF, one byte of mode and the input file: the rest of the
 * input as is, or a TSV built from it (metadata lines, a header of known
 * names, rows of the same value kinds).  The file is given as FILE or
 * --params / --tasks ... values (the value kind "input file"), and as
 * stdin when the mode says so (else stdin is /dev/null).
 *
 * Failure (a crash libFuzzer saves, with the command line and the
 * program's stderr on the harness's stderr): death by a signal other than
 * the harness's own time-out kill, exit status 134, 136, 139 or the
 * sanitizers' (99), or a sanitizer report on stderr.  A run over
 * FUZZ_TOOL_TIMEOUT seconds (default 4) is killed and counted as slow,
 * not failed (a huge --n is allowed to take long); one past the
 * sanitizers' memory limits is counted likewise.  Coverage: the program
 * is not instrumented for libFuzzer, so the harness feeds libFuzzer's
 * extra counters with what it can see: the subcommand, each option used,
 * the exit status and the shape of the first line of stderr.  The
 * figures (runs, exit statuses, slow runs) are printed at exit;
 * FUZZ_TOOL_SHOW=1 prints every command, its status and stderr.  */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FUZZ_TOOL
# error "compile with -DFUZZ_TOOL='\"NAME\"'"
#endif

extern char **environ;

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* ---------------------------------------------------------------- feedback */

enum { NCOUNTERS = 1 << 14 };
__attribute__ ((used, section ("__libfuzzer_extra_counters")))
static uint8_t counters[NCOUNTERS];

static void
feature (uint32_t a, uint32_t b)
{
  uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u + (a << 6) + (a >> 2));
  uint8_t *c = &counters[h % NCOUNTERS];
  if (*c < 255)
    ++*c;
}

static uint32_t
hash_str (const char *s, size_t n)
{
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ (uint8_t) s[i]) * 16777619u;
  return h;
}

/* ---------------------------------------------------------------- tables */

enum { MAX_OPTS = 96, MAX_SUBS = 16, MAX_WORDS = 512, MAX_ARGS = 40 };

enum { OPT_WORDS = 24 };

struct opt
{
  char name[40];        /* "--name" or "-x" */
  int takes_value;
  int file_arg;         /* its ARG says FILE or PATH */
  short word[OPT_WORDS];/* the vocabulary words of its description */
  int nword;
};

struct command
{
  char name[32];        /* "" for the program without a subcommand */
  struct opt opt[MAX_OPTS];
  int nopt;
  short word[OPT_WORDS];/* the words of its usage line (gen's patterns) */
  int nword;
};

static struct command cmd[MAX_SUBS + 1];
static int ncmd;
static char *word[MAX_WORDS];
static int nword;
static char bin[4096], dir[64], infile[128];
static FILE *report;    /* the harness's stderr */
static unsigned timeout_s = 4;
static int show_all;    /* FUZZ_TOOL_SHOW=1: print every command */
static char **child_env[2];   /* [1]: with the leak check */

/* The program's environment: the harness's, with the sanitizers set to
   exit with status 99 on a report (so that it is told from the exit
   statuses 1 and 2 of bad input), malloc to return NULL past 2 GiB (the
   program's own "out of memory" error then runs), and a cap on the
   resident memory.  The leak check at exit doubles the cost of a run, so
   it is made on one input in four (chosen by a hash of the input, so that
   a saved input reproduces); LeakSanitizer skips what fuzz/tool-lsan.supp
   names (libpopt's own copies of repeated options).  */
static char **
make_child_env (int leaks)
{
  static char *const ours[] = {
    (char *) "ASAN_OPTIONS=exitcode=99:detect_leaks=0:abort_on_error=0:"
    "allocator_may_return_null=1:max_allocation_size_mb=2048:"
    "hard_rss_limit_mb=3072",
    (char *) "ASAN_OPTIONS=exitcode=99:detect_leaks=1:abort_on_error=0:"
    "allocator_may_return_null=1:max_allocation_size_mb=2048:"
    "hard_rss_limit_mb=3072",
    (char *) "UBSAN_OPTIONS=halt_on_error=1:exitcode=99:print_stacktrace=1",
    (char *) "LSAN_OPTIONS=exitcode=99:print_suppressions=0"
#ifdef FUZZ_LSAN_SUPP
    ":suppressions=" FUZZ_LSAN_SUPP
#endif
    ,
  };
  size_t n = 0;
  while (environ[n])
    n++;
  char **env = calloc (n + 4, sizeof *env);
  if (!env)
    abort ();
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp (environ[i], "ASAN_OPTIONS=", 13)
        && strncmp (environ[i], "UBSAN_OPTIONS=", 14)
        && strncmp (environ[i], "LSAN_OPTIONS=", 13))
      env[m++] = environ[i];
  env[m++] = ours[leaks != 0];
  env[m++] = ours[2];
  env[m++] = ours[3];
  env[m] = NULL;
  return env;
}

/* What the runs gave, printed at exit.  */
static unsigned long runs, slow, limited, status_count[256];

static void
print_figures (void)
{
  fprintf (report, "tool-fuzz %s: %lu runs, %lu slow (killed after %u s), "
           "%lu over the memory limit; exit statuses:", FUZZ_TOOL, runs,
           slow, timeout_s, limited);
  for (int s = 0; s < 256; s++)
    if (status_count[s])
      fprintf (report, " %d:%lu", s, status_count[s]);
  fputc ('\n', report);
}

/* The output of BIN ARGS... (stdout and stderr), at most CAP - 1 bytes,
   NUL-terminated, in BUF.  */
static void
capture (char *const argv[], char *buf, size_t cap)
{
  int fd[2];
  buf[0] = '\0';
  if (pipe (fd) != 0)
    return;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_adddup2 (&fa, fd[1], 1);
  posix_spawn_file_actions_adddup2 (&fa, fd[1], 2);
  posix_spawn_file_actions_addclose (&fa, fd[0]);
  posix_spawn_file_actions_addclose (&fa, fd[1]);
  pid_t pid;
  int rc = posix_spawn (&pid, bin, &fa, NULL, argv, child_env[0]);
  posix_spawn_file_actions_destroy (&fa);
  close (fd[1]);
  size_t len = 0;
  ssize_t r;
  while (rc == 0 && (r = read (fd[0], buf + len, cap - 1 - len)) > 0)
    len += (size_t) r;
  buf[len] = '\0';
  close (fd[0]);
  if (rc == 0)
    waitpid (pid, NULL, 0);
}

/* The index of the word S[0..N-1] in the vocabulary (added if new), or
   -1.  */
static int
add_word (const char *s, size_t n)
{
  if (n < 1 || n > 24)
    return -1;
  for (int i = 0; i < nword; i++)
    if (strlen (word[i]) == n && memcmp (word[i], s, n) == 0)
      return i;
  if (nword == MAX_WORDS)
    return -1;
  word[nword] = strndup (s, n);
  return word[nword] ? nword++ : -1;
}

static int
is_alpha (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Options of one --help text: lines "  -x, --name=ARG  text",
   "      --name  text", "  -x ARG  text".  Words of the whole text go to
   the vocabulary; those of an option's description (its line and the
   more indented lines after it) are also the option's own.  */
static void
learn (struct command *c, const char *help)
{
  struct opt *cur = NULL;
  for (const char *p = help; *p;)
    {
      const char *eol = strchr (p, '\n');
      size_t n = eol ? (size_t) (eol - p) : strlen (p);
      const char *q = p, *end = p + n;
      while (q < end && *q == ' ')
        q++;
      if (q - p < 8)
        cur = NULL;     /* not a continuation of a description */
      if (q > p && q + 1 < end && q[0] == '-' && c->nopt < MAX_OPTS)
        {
          struct opt *o = &c->opt[c->nopt];
          const char *name = q;
          if (q[1] != '-')
            {
              q += 2;
              if (q + 2 < end && q[0] == ',' && q[1] == ' ' && q[2] == '-')
                name = q += 2;
            }
          if (name[1] == '-')
            while (q < end && (q[0] == '-' || (q[0] >= 'a' && q[0] <= 'z')
                               || (q[0] >= '0' && q[0] <= '9')))
              q++;
          size_t len = (size_t) (q - name);
          o->takes_value = q < end && (q[0] == '='
                                        || (q[0] == ' ' && q + 1 < end
                                            && q[1] != ' '));
          if (o->takes_value)
            {
              size_t alen = strcspn (q + 1, " \n");
              o->file_arg = alen < (size_t) (end - q)
                            && (memmem (q + 1, alen, "FILE", 4)
                                || memmem (q + 1, alen, "PATH", 4));
            }
          if (len > 1 && len < sizeof o->name
              && strncmp (name, "--help", len) && strncmp (name, "--usage", len)
              && strncmp (name, "--version", len) && strncmp (name, "-?", len))
            {
              memcpy (o->name, name, len);
              o->name[len] = '\0';
              c->nopt++;
              cur = o;
            }
          else
            cur = NULL;
        }
      for (q = p; q < end;)
        {
          if (is_alpha (*q))
            {
              const char *w = q;
              while (q < end && (is_alpha (*q) || *q == '-' || *q == '_'
                                 || (*q >= '0' && *q <= '9')))
                q++;
              int k = -1;
              if (w == p || (w[-1] != '-' && w[-1] != '<'))
                k = add_word (w, (size_t) (q - w));
              if (k >= 0 && cur && cur->nword < OPT_WORDS)
                cur->word[cur->nword++] = (short) k;
              if (k >= 0 && p == help && c->nword < OPT_WORDS)
                c->word[c->nword++] = (short) k;
            }
          else
            q++;
        }
      p = eol ? eol + 1 : end;
    }
}

/* Subcommands: the lines under "Subcommands:" up to a blank line, and the
   words after "(or: " and each ", " in the usage line.  */
static void
find_subcommands (const char *help)
{
  const char *s = strstr (help, "\nSubcommands:\n");
  if (s)
    for (s += 14; *s == ' ' && ncmd <= MAX_SUBS; s = strchr (s, '\n') + 1)
      {
        while (*s == ' ')
          s++;
        size_t n = strcspn (s, " \n");
        if (n && n < sizeof cmd[0].name)
          memcpy (cmd[ncmd++].name, s, n);
        if (!strchr (s, '\n'))
          break;
      }
  const char *u = strstr (help, "(or: ");
  const char *close = u ? strchr (u, ')') : NULL;
  if (u && close)
    for (u += 5; u < close && ncmd <= MAX_SUBS;)
      {
        size_t n = strcspn (u, " ,)\n");
        if (n && n < sizeof cmd[0].name)
          memcpy (cmd[ncmd++].name, u, n);
        u = strstr (u, ", ");
        if (!u || u > close)
          break;
        u += 2;
      }
}

static void
remove_scratch (void)
{
  DIR *d = opendir (dir);
  if (!d)
    return;
  struct dirent *e;
  char path[512];
  while ((e = readdir (d)))
    if (strcmp (e->d_name, ".") && strcmp (e->d_name, ".."))
      {
        snprintf (path, sizeof path, "%s/%s", dir, e->d_name);
        if (unlink (path) != 0)
          rmdir (path);
      }
  closedir (d);
}

static void
at_exit (void)
{
  print_figures ();
  remove_scratch ();
  rmdir (dir);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  report = stderr;
  const char *b = getenv ("FUZZ_TOOL_BIN");
  if (b)
    snprintf (bin, sizeof bin, "%s", b);
  else if (!getcwd (bin, sizeof bin - 64))
    abort ();
  else
    strcat (strcat (bin, "/fuzz/bin/"), FUZZ_TOOL);
  if (access (bin, X_OK) != 0)
    {
      fprintf (report, "tool-fuzz: %s is not built (make fuzz-build)\n", bin);
      exit (1);
    }
  const char *show = getenv ("FUZZ_TOOL_SHOW");
  show_all = show && strcmp (show, "1") == 0;
  const char *t = getenv ("FUZZ_TOOL_TIMEOUT");
  if (t && atoi (t) > 0)
    timeout_s = (unsigned) atoi (t);
  child_env[0] = make_child_env (0);
  child_env[1] = make_child_env (1);
  strcpy (dir, "/tmp/msgperf-tool-fuzz-XXXXXX");
  if (!mkdtemp (dir))
    abort ();
  snprintf (infile, sizeof infile, "%s/in.tsv", dir);

  static char help[1 << 16];
  char *av[4] = { bin, (char *) "--help", NULL, NULL };
  capture (av, help, sizeof help);
  ncmd = 1;             /* cmd[0]: no subcommand */
  learn (&cmd[0], help);
  find_subcommands (help);
  for (int i = 1; i < ncmd; i++)
    {
      av[1] = cmd[i].name;
      av[2] = (char *) "--help";
      capture (av, help, sizeof help);
      learn (&cmd[i], help);
    }
  static const char *const names[] = {
    "bytes", "time", "t", "os", "or", "o", "g", "G", "L", "O", "S", "a",
    "b", "alpha", "beta", "n", "kd", "Gc", "P", "src", "dst", "name", "id",
    "proc", "work", "from", "to", "start", "end", "kind", "time_unit",
    "nprocs", "tool", "x", "y", "t_ci_lo", "t_ci_hi"
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    add_word (names[i], strlen (names[i]));
  int nopt = 0;
  for (int i = 0; i < ncmd; i++)
    nopt += cmd[i].nopt;
  fprintf (report, "tool-fuzz %s: %d subcommands, %d options, %d words\n",
           FUZZ_TOOL, ncmd - 1, nopt, nword);
  if (nopt == 0)
    {
      fprintf (report, "tool-fuzz: no option learnt from %s --help\n", bin);
      exit (1);
    }
  atexit (at_exit);
  return 0;
}

/* ---------------------------------------------------------------- decoding */

struct in
{
  const uint8_t *p;
  size_t n;
};

static unsigned
next (struct in *in)
{
  if (in->n == 0)
    return 0;
  in->n--;
  return *in->p++;
}

/* A growing text for the values and the file.  */
struct buf
{
  char *s;
  size_t len, cap;
};

static void
put (struct buf *b, const char *s, size_t n)
{
  if (b->len + n + 1 > b->cap)
    {
      b->cap = 2 * (b->len + n + 1);
      b->s = realloc (b->s, b->cap);
      if (!b->s)
        abort ();
    }
  memcpy (b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

static void
puts_ (struct buf *b, const char *s)
{
  put (b, s, strlen (s));
}

static const char *const fixed[] = {
  "NA", "", "1e308", "-1", "0", "1", "2", "-0", "1e-320", "inf", "-inf",
  "nan", "NaN", "9223372036854775807", "-9223372036854775808",
  "18446744073709551616", "2147483648", "4294967296", "1e9", "0.5",
  "-1e308", "1e+400", "1,2,3", "0,NA", ",", "1,,2", "-", "0x10", " 1",
  "1 ", "3.", ".5", "1e", "NA,NA", "us", "ns", "ms", "s", "cycles",
  "/nonexistent/file", "1000000", "65536", "-2147483649", "1e-300",
  "4.9e-324", "1.7976931348623157e308", "k:2", "b:2^3", "flat", "k:0",
  "file:", "at=1,2", "auto", "100x100", "0x0", "1x1", "99999x99999"
};
enum { NFIXED = sizeof fixed / sizeof *fixed };

/* One value, appended to B.  DEPTH bounds lists and NAME=VALUE.  */
static void
value (struct in *in, struct buf *b, int depth)
{
  char num[32];
  unsigned k = next (in);
  switch (k % 12)
    {
    case 0: case 1: case 2: case 3:
      puts_ (b, fixed[next (in) % NFIXED]);
      break;
    case 4:
      snprintf (num, sizeof num, "%u", next (in));
      puts_ (b, num);
      break;
    case 5:
      snprintf (num, sizeof num, "-%u", next (in) * 257u + next (in));
      puts_ (b, num);
      break;
    case 6:
      puts_ (b, infile);
      break;
    case 7:
      puts_ (b, nword ? word[next (in) % (unsigned) nword] : "x");
      break;
    case 8:
      if (depth < 2)
        {
          puts_ (b, nword ? word[next (in) % (unsigned) nword] : "x");
          puts_ (b, "=");
          value (in, b, depth + 1);
        }
      break;
    case 9:
      if (depth < 2)
        {
          value (in, b, depth + 1);
          puts_ (b, ",");
          value (in, b, depth + 1);
        }
      break;
    case 10:
      {
        /* Text from the input, without NUL (a command line cannot hold
           one) nor the token separator.  */
        unsigned n = next (in) % 48;
        for (unsigned i = 0; i < n && in->n; i++)
          {
            char c = (char) next (in);
            if (c == '\0' || (uint8_t) c == 0xFF)
              break;
            put (b, &c, 1);
          }
      }
      break;
    default:
      snprintf (num, sizeof num, "%.17g",
                (double) (int) (next (in) << 8 | next (in))
                * 1e-3 * (k & 16 ? -1 : 1));
      puts_ (b, num);
      break;
    }
}

/* The input file: the rest as is, or a TSV built from it.  */
static void
make_file (struct in *in, struct buf *f)
{
  unsigned mode = next (in);
  if (mode % 4 == 0)
    {
      put (f, (const char *) in->p, in->n);
      return;
    }
  unsigned nmeta = next (in) % 4, ncols = next (in) % 7 + 1,
    nrows = next (in) % 6;
  for (unsigned i = 0; i < nmeta; i++)
    {
      puts_ (f, "#@");
      puts_ (f, nword ? word[next (in) % (unsigned) nword] : "x");
      puts_ (f, "=");
      value (in, f, 1);
      puts_ (f, "\n");
    }
  for (unsigned j = 0; j < ncols; j++)
    {
      if (j)
        puts_ (f, "\t");
      puts_ (f, nword ? word[next (in) % (unsigned) nword] : "x");
    }
  puts_ (f, "\n");
  for (unsigned i = 0; i < nrows; i++)
    {
      for (unsigned j = 0; j < ncols; j++)
        {
          if (j)
            puts_ (f, "\t");
          value (in, f, 1);
        }
      puts_ (f, "\n");
    }
}

/* ---------------------------------------------------------------- running */

static int
sanitizer_report (const char *err)
{
  return strstr (err, "AddressSanitizer") || strstr (err, "LeakSanitizer")
         || strstr (err, "UndefinedBehaviorSanitizer")
         || strstr (err, "runtime error:");
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void
show_command (char *const argv[], const char *file, size_t flen, int stdin_file)
{
  fprintf (report, "tool-fuzz: command (in %s):", dir);
  for (int i = 0; argv[i]; i++)
    {
      fputs (" '", report);
      for (const char *c = argv[i]; *c; c++)
        if (*c == '\'')
          fputs ("'\\''", report);
        else
          fputc (*c, report);
      fputc ('\'', report);
    }
  fprintf (report, "%s\ntool-fuzz: %s holds %zu bytes:\n", stdin_file
           ? " < in.tsv" : " < /dev/null", infile, flen);
  fwrite (file, 1, flen, report);
  fputs ("\ntool-fuzz: (end of file)\n", report);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  struct in in = { data, size };
  const uint8_t *sep = memchr (data, 0xFF, size);
  struct in tail = { data + size, 0 };
  if (sep)
    {
      in.n = (size_t) (sep - data);
      tail.p = sep + 1;
      tail.n = size - in.n - 1;
    }

  struct buf vals = { NULL, 0, 0 };
  size_t start[MAX_ARGS];
  int nargs = 0;
  unsigned c = ncmd > 1 ? next (&in) % (unsigned) ncmd : 0;
  feature (1, c);
  if (c)
    {
      start[nargs++] = vals.len;
      put (&vals, cmd[c].name, strlen (cmd[c].name) + 1);
    }
  struct command *k = &cmd[c];
  if (c && k->nword && next (&in) % 2)
    {
      /* gen PATTERN: a word of the subcommand's usage line */
      start[nargs++] = vals.len;
      const char *w = word[k->word[next (&in) % (unsigned) k->nword]];
      put (&vals, w, strlen (w) + 1);
    }
  while (in.n && nargs < MAX_ARGS - 3)
    {
      unsigned t = next (&in) | next (&in) << 8;
      unsigned pick = t % (unsigned) (k->nopt + 3);
      if (pick < (unsigned) k->nopt)
        {
          struct opt *o = &k->opt[pick];
          feature (2 + c, pick);
          start[nargs++] = vals.len;
          puts_ (&vals, o->name);
          if (o->takes_value)
            {
              if (o->name[1] == '-' && (t & 0x8000))
                puts_ (&vals, "=");
              else
                {
                  put (&vals, "", 1);
                  start[nargs++] = vals.len;
                }
              /* A FILE option mostly gets the input file; any other
                 often a word of its own description (a model, a
                 pattern, a parameter name), else any value.  */
              unsigned sel = next (&in);
              if (o->file_arg && sel % 4 != 0)
                puts_ (&vals, infile);
              else if (o->nword && sel % 4 == 1)
                {
                  puts_ (&vals, word[o->word[next (&in) % (unsigned) o->nword]]);
                  if (next (&in) % 3 == 0)
                    {
                      /* NAME=VALUE, as --set and --sweep take */
                      puts_ (&vals, "=");
                      value (&in, &vals, 1);
                    }
                }
              else
                value (&in, &vals, 0);
            }
          put (&vals, "", 1);
        }
      else
        {
          /* A positional argument: the input file, "-", or a value.  */
          start[nargs++] = vals.len;
          if (pick == (unsigned) k->nopt)
            puts_ (&vals, infile);
          else if (pick == (unsigned) k->nopt + 1)
            puts_ (&vals, "-");
          else
            value (&in, &vals, 0);
          put (&vals, "", 1);
        }
    }
  struct buf file = { NULL, 0, 0 };
  make_file (&tail, &file);
  int stdin_file = sep && (sep[0] & 1) == 0 ? 0 : (size & 1);

  char *argv[MAX_ARGS + 1];
  argv[0] = bin;
  for (int i = 0; i < nargs; i++)
    argv[i + 1] = vals.s + start[i];
  argv[nargs + 1] = NULL;

  FILE *fp = fopen (infile, "w");
  if (!fp)
    abort ();
  if (file.len)
    fwrite (file.s, 1, file.len, fp);
  fclose (fp);

  int errpipe[2];
  if (pipe (errpipe) != 0)
    abort ();
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init (&fa);
  posix_spawn_file_actions_addopen (&fa, 0, stdin_file ? infile : "/dev/null",
                                    O_RDONLY, 0);
  posix_spawn_file_actions_addopen (&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2 (&fa, errpipe[1], 2);
  posix_spawn_file_actions_addclose (&fa, errpipe[0]);
  posix_spawn_file_actions_addclose (&fa, errpipe[1]);
  posix_spawn_file_actions_addchdir_np (&fa, dir);
  posix_spawnattr_t attr;
  posix_spawnattr_init (&attr);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup (&attr, 0);
  pid_t pid;
  int leaks = hash_str ((const char *) data, size) % 4 == 0;
  int rc = posix_spawn (&pid, bin, &fa, &attr, argv, child_env[leaks]);
  posix_spawn_file_actions_destroy (&fa);
  posix_spawnattr_destroy (&attr);
  close (errpipe[1]);
  if (rc != 0)
    {
      fprintf (report, "tool-fuzz: cannot run %s: %s\n", bin, strerror (rc));
      abort ();
    }

  /* Read stderr (the first 64 KiB are kept) until EOF or the time-out.  */
  static char err[1 << 16];
  size_t elen = 0;
  int killed = 0;
  double deadline = now () + timeout_s;
  for (;;)
    {
      double left = deadline - now ();
      struct pollfd pfd = { errpipe[0], POLLIN, 0 };
      if (left <= 0 || poll (&pfd, 1, (int) (left * 1000) + 1) == 0)
        {
          if (now () < deadline)
            continue;
          kill (-pid, SIGKILL);
          killed = 1;
          break;
        }
      char chunk[4096];
      ssize_t r = read (errpipe[0], chunk, sizeof chunk);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        break;
      size_t keep = (size_t) r < sizeof err - 1 - elen
                    ? (size_t) r : sizeof err - 1 - elen;
      memcpy (err + elen, chunk, keep);
      elen += keep;
    }
  err[elen] = '\0';
  close (errpipe[0]);
  int ws;
  while (waitpid (pid, &ws, 0) < 0 && errno == EINTR)
    ;
  kill (-pid, SIGKILL);     /* what it left running (gnuplot) */
  runs++;
  if (show_all)
    {
      show_command (argv, file.s ? file.s : "", file.len, stdin_file);
      fprintf (report, "tool-fuzz: status %d, stderr: %.200s\n",
               WIFEXITED (ws) ? WEXITSTATUS (ws) : -1, err);
    }

  int failed = 0;
  if (killed)
    slow++;
  else if (strstr (err, "hard rss limit") || strstr (err, "out of memory: "
                                                     "allocator is trying"))
    limited++;
  else if (WIFSIGNALED (ws))
    failed = 1;
  else
    {
      int s = WEXITSTATUS (ws);
      status_count[s]++;
      failed = s == 134 || s == 136 || s == 139 || s == 99
               || sanitizer_report (err);
      feature (100 + c, (uint32_t) s);
      feature (200 + (uint32_t) s,
               hash_str (err, strcspn (err, "0123456789\n")) % 4096);
    }
  if (failed)
    {
      fprintf (report, "tool-fuzz: %s ", FUZZ_TOOL);
      if (WIFSIGNALED (ws))
        fprintf (report, "died by signal %d\n", WTERMSIG (ws));
      else
        fprintf (report, "exited with status %d\n", WEXITSTATUS (ws));
      fprintf (report, "tool-fuzz: leak check %s\n", leaks ? "on" : "off");
      show_command (argv, file.s ? file.s : "", file.len, stdin_file);
      fprintf (report, "tool-fuzz: its stderr:\n%s\n", err);
      print_figures ();
      abort ();
    }
  remove_scratch ();
  free (vals.s);
  free (file.s);
  return 0;
}
