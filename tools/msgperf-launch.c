/* SPDX-License-Identifier: GPL-3.0-or-later */
/* msgperf-launch: the launch as the sampling unit.  Runs a measuring
   command N times (several alternatives interleaved in a seeded random
   order, each round holding every alternative once), reads each launch's
   stream, and writes one stream: per launch and key the median of each
   measured column, with the launch's load, the cores its ranks ran on and
   a cpu_shared flag (msgperf-launch(1) gives the rule).
   msgperf-compare summarises and compares what it writes.  */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "logp_pairs.h"
#include "num.h"
#include "stats.h"
#include "tsv.h"
#include "xalloc.h"

static char *opt_launches = "5";
static char *opt_seed = "1";
static char *opt_alt_name;
static char *opt_alt_file;
static char *opt_keys;
static char *opt_output;

static struct poptOption options[] = {
  { "launches", 'n', POPT_ARG_STRING, &opt_launches, 0,
    "launches of each alternative (default: 5)", "N" },
  { "alternative", 'a', POPT_ARG_STRING, &opt_alt_name, 0,
    "name the command after '--'; more follow as -a NAME -- COMMAND",
    "NAME" },
  { "alternatives", '\0', POPT_ARG_STRING, &opt_alt_file, 0,
    "alternatives from FILE, one a line: NAME, a TAB, a shell command",
    "FILE" },
  { "seed", '\0', POPT_ARG_STRING, &opt_seed, 0,
    "the seed of the order of the launches (default: 1)", "N" },
  { "keys", 'k', POPT_ARG_STRING, &opt_keys, 0,
    "the key columns of the measurement (default: those of kernel, "
    "nprocs, P, bytes, src, dst, origin, hops present)", "COL[,COL...]" },
  { "output", 'o', POPT_ARG_STRING, &opt_output, 0,
    "write to FILE (atomically) instead of standard output", "FILE" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

struct alternative
{
  char *name;
  char **argv;          /* NULL-terminated */
  int launches_done;
};

static struct alternative *alts;
static size_t nalts;
static int64_t nlaunches;

/* ---------------------------------------------------------------- setup */

static void
add_alternative (const char *name, char **argv)
{
  if (name[0] && !tsv_valid_name (name))
    die_usage ("invalid alternative name '%s' (a letter, then letters, "
               "digits or '_')", name);
  for (size_t i = 0; i < nalts; i++)
    if (strcmp (alts[i].name, name) == 0)
      die_usage ("alternative '%s' given twice", name);
  alts = xrealloc (alts, (nalts + 1) * sizeof *alts);
  alts[nalts].name = xstrdup (name);
  alts[nalts].argv = argv;
  alts[nalts++].launches_done = 0;
}

/* The words after '--': one command, or with -a several, each after
   "-a NAME --".  */
static void
alternatives_from_args (const char **args)
{
  size_t n = 0;
  while (args && args[n])
    n++;
  const char *name = opt_alt_name ? opt_alt_name : "";
  size_t start = 0;
  for (size_t i = 0; i <= n; i++)
    {
      int sep = opt_alt_name && i + 2 < n && strcmp (args[i], "-a") == 0
                && strcmp (args[i + 2], "--") == 0;
      if (!sep && i < n)
        continue;
      if (i == start)
        die_usage ("alternative '%s' has no command", name);
      char **argv = xcalloc (i - start + 1, sizeof *argv);
      for (size_t k = start; k < i; k++)
        argv[k - start] = xstrdup (args[k]);
      add_alternative (name, argv);
      if (sep)
        {
          name = args[i + 1];
          start = i + 3;
          i += 2;
        }
    }
}

/* --alternatives FILE: "NAME<TAB>COMMAND" lines, run by /bin/sh -c;
   empty lines and lines starting with '#' are skipped.  */
static void
alternatives_from_file (const char *path)
{
  FILE *fp = fopen (path, "r");
  if (!fp)
    die ("%s: %s", path, strerror (errno));
  char *line = NULL;
  size_t cap = 0;
  long lineno = 0;
  ssize_t len;
  while ((len = getline (&line, &cap, fp)) >= 0)
    {
      lineno++;
      while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
      if (!len || line[0] == '#')
        continue;
      char *tab = strchr (line, '\t');
      if (!tab || !tab[1])
        die_at (path, lineno, 0, "'%s': expected NAME, a TAB and a command",
                line);
      *tab = '\0';
      char **argv = xcalloc (4, sizeof *argv);
      argv[0] = xstrdup ("/bin/sh");
      argv[1] = xstrdup ("-c");
      argv[2] = xstrdup (tab + 1);
      add_alternative (line, argv);
    }
  free (line);
  fclose (fp);
  if (!nalts)
    die_at (path, 0, 0, "no alternatives");
}

/* The order of the launches: N rounds, each a seeded random permutation
   of the alternatives (every alternative once per round, so that a drift
   of the machine over time falls on all of them alike).  */
static size_t *
launch_order (uint64_t seed)
{
  size_t total = (size_t) nlaunches * nalts;
  size_t *order = xcalloc (total, sizeof *order);
  uint64_t state = seed;
  for (size_t r = 0; r < (size_t) nlaunches; r++)
    {
      size_t *round = order + r * nalts;
      for (size_t i = 0; i < nalts; i++)
        round[i] = i;
      for (size_t i = nalts; i > 1; i--)
        {
          size_t j = (size_t) logp_rand_below (&state, i);
          size_t t = round[i - 1];
          round[i - 1] = round[j];
          round[j] = t;
        }
    }
  return order;
}

/* ---------------------------------------------------------------- /proc
   Where the ranks ran and who else used the CPUs, sampled while a launch
   runs (Linux /proc; elsewhere the columns are NA and a warning says so).
   A rank is a process of the launch's tree whose environment names an
   MPI rank (OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK); a command with
   none (a plain program) counts its processes without children.  */

struct proc
{
  long pid, ppid, cpu;
  char state;
};

struct cpuwatch
{
  int ok;               /* /proc was readable */
  double busy0, wall0, tree0;
  unsigned char seen[1024];   /* CPUs a rank was seen on */
  long samples, crowded;      /* samples; those with two running ranks on
                                 one CPU */
  long ranks;                 /* most ranks seen in one sample */
};

/* Busy CPU seconds of the whole machine since boot (/proc/stat: every
   field of the "cpu" line but idle and iowait), NaN when unreadable.  */
static double
machine_busy (void)
{
  FILE *fp = fopen ("/proc/stat", "r");
  if (!fp)
    return NAN;
  unsigned long long f[10] = { 0 };
  int n = fscanf (fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0],
                  &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]);
  fclose (fp);
  if (n < 5)
    return NAN;
  double busy = 0;
  for (int i = 0; i < n; i++)
    if (i != 3 && i != 4)
      busy += (double) f[i];
  return busy / (double) sysconf (_SC_CLK_TCK);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* CPU seconds of the reaped children (the launch's whole tree, once
   waited for: a child's figure includes its own reaped children) and of
   this program.  */
static double
children_cpu (void)
{
  struct rusage ru, self;
  getrusage (RUSAGE_CHILDREN, &ru);
  /* This program's own sampling is not other work either.  */
  getrusage (RUSAGE_SELF, &self);
  ru.ru_utime.tv_sec += self.ru_utime.tv_sec;
  ru.ru_utime.tv_usec += self.ru_utime.tv_usec;
  ru.ru_stime.tv_sec += self.ru_stime.tv_sec;
  ru.ru_stime.tv_usec += self.ru_stime.tv_usec;
  return (double) ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6
         + (double) ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

/* /proc/PID/stat: the fields after the command name (which may hold
   spaces and parentheses: the last ')' ends it).  */
static int
read_proc (long pid, struct proc *p)
{
  char path[64], buf[1024];
  snprintf (path, sizeof path, "/proc/%ld/stat", pid);
  FILE *fp = fopen (path, "r");
  if (!fp)
    return -1;
  size_t n = fread (buf, 1, sizeof buf - 1, fp);
  fclose (fp);
  buf[n] = '\0';
  char *s = strrchr (buf, ')');
  if (!s)
    return -1;
  p->pid = pid;
  p->cpu = -1;
  /* Field 3 state, 4 ppid, ..., 39 processor (proc(5)).  */
  char *save = NULL, *tok = strtok_r (s + 1, " ", &save);
  for (int field = 3; tok; field++, tok = strtok_r (NULL, " ", &save))
    if (field == 3)
      p->state = tok[0];
    else if (field == 4)
      p->ppid = atol (tok);
    else if (field == 39)
      {
        p->cpu = atol (tok);
        break;
      }
  return 0;
}

static int
is_rank (long pid)
{
  static const char *const vars[] = { "OMPI_COMM_WORLD_RANK=", "PMI_RANK=",
                                      "PMIX_RANK=", NULL };
  char path[64];
  snprintf (path, sizeof path, "/proc/%ld/environ", pid);
  FILE *fp = fopen (path, "r");
  if (!fp)
    return 0;
  char *entry = NULL;
  size_t cap = 0;
  int found = 0;
  while (!found && getdelim (&entry, &cap, '\0', fp) > 0)
    for (size_t i = 0; vars[i]; i++)
      found |= strncmp (entry, vars[i], strlen (vars[i])) == 0;
  free (entry);
  fclose (fp);
  return found;
}

/* Every process of the machine into *ALL (a new array).  */
static size_t
all_procs (struct proc **all)
{
  DIR *d = opendir ("/proc");
  size_t n = 0, cap = 0;
  *all = NULL;
  if (!d)
    return 0;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      char *end;
      long pid = strtol (e->d_name, &end, 10);
      if (*end || pid <= 0)
        continue;
      if (n == cap)
        {
          cap = cap ? 2 * cap : 256;
          *all = xrealloc (*all, cap * sizeof **all);
        }
      if (read_proc (pid, &(*all)[n]) == 0)
        n++;
    }
  closedir (d);
  return n;
}

/* One look at the launch's tree below ROOT: the CPUs of its ranks, and
   whether two running ranks share one.  */
static void
sample_tree (long root, struct cpuwatch *cw)
{
  struct proc *all;
  size_t n = all_procs (&all);
  unsigned char *in = xcalloc (n + 1, 1), *rank = xcalloc (n + 1, 1);
  for (int grew = 1; grew;)
    {
      grew = 0;
      for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n && !in[i]; j++)
          if (all[i].pid == root || (in[j] && all[i].ppid == all[j].pid))
            in[i] = 1, grew = 1;
    }
  long nranks = 0;
  for (size_t i = 0; i < n; i++)
    if (in[i] && is_rank (all[i].pid))
      rank[i] = 1, nranks++;
  for (size_t i = 0; i < n && !nranks; i++)
    {
      int leaf = in[i];
      for (size_t j = 0; j < n && leaf; j++)
        leaf = !(in[j] && all[j].ppid == all[i].pid);
      rank[i] = (unsigned char) leaf;
    }
  nranks = 0;
  int crowded = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (!rank[i])
        continue;
      nranks++;
      if (all[i].cpu >= 0 && all[i].cpu < (long) sizeof cw->seen)
        cw->seen[all[i].cpu] = 1;
      for (size_t j = i + 1; j < n; j++)
        crowded |= rank[j] && all[i].state == 'R' && all[j].state == 'R'
                   && all[i].cpu == all[j].cpu;
    }
  if (nranks > cw->ranks)
    cw->ranks = nranks;
  cw->samples += nranks > 0;
  cw->crowded += crowded;
  free (in);
  free (rank);
  free (all);
}

/* ---------------------------------------------------------------- a launch */

struct launch
{
  char *out;            /* the command's standard output */
  size_t len;
  double load, others;  /* load average at the start; CPUs' worth of other
                           work during the launch */
  struct cpuwatch cw;
  int shared;
};

static double
loadavg (void)
{
  FILE *fp = fopen ("/proc/loadavg", "r");
  double v = NAN;
  if (fp)
    {
      if (fscanf (fp, "%lf", &v) != 1)
        v = NAN;
      fclose (fp);
    }
  return v;
}

static pid_t
start_command (char **argv, int *fd)
{
  int p[2];
  if (pipe (p) < 0)
    die ("cannot create a pipe: %s", strerror (errno));
  fflush (NULL);
  pid_t pid = fork ();
  if (pid < 0)
    die ("cannot start '%s': %s", argv[0], strerror (errno));
  if (pid == 0)
    {
      dup2 (p[1], STDOUT_FILENO);
      close (p[0]);
      close (p[1]);
      execvp (argv[0], argv);
      fprintf (stderr, "%s: cannot run '%s': %s\n", err_program, argv[0],
               strerror (errno));
      _exit (127);
    }
  close (p[1]);
  *fd = p[0];
  return pid;
}

/* Run ALT once: its output into L, its tree sampled every 50 ms.  */
static void
run_launch (const struct alternative *alt, long number, struct launch *L)
{
  memset (L, 0, sizeof *L);
  L->load = loadavg ();
  double busy0 = machine_busy (), tree0 = children_cpu (), t0 = now ();
  int fd;
  pid_t pid = start_command (alt->argv, &fd);
  size_t cap = 0;
  double last = 0;
  for (;;)
    {
      struct pollfd pfd = { fd, POLLIN, 0 };
      int rc = poll (&pfd, 1, 50);
      if (now () - last >= 0.05)
        {
          sample_tree ((long) pid, &L->cw);
          last = now ();
        }
      if (rc <= 0)
        continue;
      if (L->len + 65536 > cap)
        {
          cap = cap ? 2 * cap : 65536 * 2;
          L->out = xrealloc (L->out, cap);
        }
      ssize_t got = read (fd, L->out + L->len, cap - L->len - 1);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      L->len += (size_t) got;
    }
  close (fd);
  int status;
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    continue;
  if (!L->out)
    L->out = xcalloc (1, 1);
  L->out[L->len] = '\0';
  double wall = now () - t0, busy = machine_busy () - busy0;
  double own = children_cpu () - tree0;
  L->others = wall > 0 ? (busy - own) / wall : NAN;
  if (L->others < 0)
    L->others = 0;
  char what[64];
  snprintf (what, sizeof what, "launch %ld%s%s%s", number,
            alt->name[0] ? " of '" : "", alt->name, alt->name[0] ? "'" : "");
  if (WIFSIGNALED (status))
    die ("%s: killed by signal %d", what, WTERMSIG (status));
  if (WEXITSTATUS (status))
    die ("%s: the command exited with status %d", what,
         WEXITSTATUS (status));
  L->cw.ok = !isnan (busy) && L->cw.samples > 0;
}

/* msgperf-launch(1), CPU_SHARED: more runnable work than CPUs (the ranks
   plus the others' CPUs' worth, with half a CPU of slack for the
   launcher), or two running ranks seen on one CPU in a fifth of the
   samples or more.  */
static int
cpu_shared (const struct launch *L, long ncpus)
{
  if (!L->cw.ok)
    return -1;
  return (double) L->cw.ranks + L->others > (double) ncpus + 0.5
         || 5 * L->cw.crowded >= L->cw.samples;
}

/* ---------------------------------------------------------------- streams */

static struct
{
  char **keys, **values;
  size_t nk, nv;
  long ncpus;
} schema;

static const char *const known_keys[] = {
  "kernel", "nprocs", "P", "bytes", "src", "dst", "origin", "hops", NULL
};

/* Columns this program writes itself: a launch's stream must not have
   them.  */
static const char *const own_cols[] = {
  "launch", "order", "variant", "load", "others", "ranks", "cores",
  "cpu_shared", NULL
};

static int
listed (const char *const *list, const char *name)
{
  for (; *list; list++)
    if (strcmp (*list, name) == 0)
      return 1;
  return 0;
}

static tsv_reader *
open_output (const struct launch *L, long number, const struct alternative *a)
{
  /* (fmemopen refuses an empty buffer: an empty output reads as the
     empty file it is.)  */
  FILE *fp = L->len ? fmemopen (L->out, L->len, "r")
                    : fopen ("/dev/null", "r");
  if (!fp)
    die ("cannot read launch %ld's output: %s", number, strerror (errno));
  char name[64];
  snprintf (name, sizeof name, "launch %ld%s%s", number,
            a->name[0] ? " of " : "", a->name);
  return tsv_open_stream (fp, name);
}

/* TEXT[i] set when column i of R holds text (a field that is neither a
   number nor NA).  Reads R to its end.  */
static void
text_columns (tsv_reader *r, unsigned char *text)
{
  size_t n = tsv_ncols (r);
  while (tsv_next (r))
    for (size_t i = 0; i < n; i++)
      {
        double v;
        text[i] |= !tsv_is_na (r, i)
                   && num_parse (tsv_field (r, i), tsv_field_len (r, i), &v)
                      != NUM_OK;
      }
}

static int
is_key (const char *c)
{
  for (size_t k = 0; k < schema.nk; k++)
    if (strcmp (schema.keys[k], c) == 0)
      return 1;
  return 0;
}

/* From the first round (one launch of each alternative, R[0..NR-1]): the
   keys (--keys, in every one; else the known key names present in any)
   and the measured columns (every other column of any of them whose
   fields are all numbers or NA in all), so that alternatives measured by
   different programs share one stream, NA where one lacks a column.  */
static void
choose_schema (tsv_reader **rs, size_t nr)
{
  size_t cap = 1;
  for (size_t j = 0; j < nr; j++)
    {
      cap += tsv_ncols (rs[j]);
      for (size_t i = 0; i < tsv_ncols (rs[j]); i++)
        if (listed (own_cols, tsv_colname (rs[j], i)))
          die_at (tsv_name (rs[j]), tsv_lineno (rs[j]), (long) i + 1,
                  "column '%s' is one msgperf-launch writes itself",
                  tsv_colname (rs[j], i));
    }
  schema.keys = xcalloc (cap, sizeof *schema.keys);
  schema.values = xcalloc (cap, sizeof *schema.values);
  char **names = xcalloc (cap, sizeof *names);
  unsigned char *text = xcalloc (cap, 1);
  size_t nn = 0;
  if (opt_keys)
    {
      char *copy = xstrdup (opt_keys);
      for (char *save = NULL, *k = strtok_r (copy, ",", &save); k;
           k = strtok_r (NULL, ",", &save))
        {
          for (size_t j = 0; j < nr; j++)
            tsv_col_required (rs[j], k);
          schema.keys[schema.nk++] = xstrdup (k);
        }
      free (copy);
    }
  else
    for (size_t i = 0; known_keys[i]; i++)
      for (size_t j = 0; j < nr; j++)
        if (tsv_col (rs[j], known_keys[i]) >= 0)
          {
            schema.keys[schema.nk++] = xstrdup (known_keys[i]);
            break;
          }
  for (size_t j = 0; j < nr; j++)
    {
      size_t n = tsv_ncols (rs[j]);
      unsigned char *t = xcalloc (n + 1, 1);
      text_columns (rs[j], t);
      for (size_t i = 0; i < n; i++)
        {
          const char *c = tsv_colname (rs[j], i);
          size_t k = 0;
          while (k < nn && strcmp (names[k], c) != 0)
            k++;
          if (k == nn)
            names[nn++] = xstrdup (c);
          text[k] |= t[i];
        }
      free (t);
    }
  for (size_t k = 0; k < nn; k++)
    {
      if (!is_key (names[k]) && !text[k])
        schema.values[schema.nv++] = names[k];
      else
        free (names[k]);
    }
  free (names);
  free (text);
}

struct keyrows
{
  char *key;            /* the key fields joined by TABs, as written */
  double *v;            /* n rows of schema.nv values */
  size_t n, cap;
};

static void
write_header (tsv_writer *w)
{
  const char **names = xcalloc (schema.nk + schema.nv + 16, sizeof *names);
  size_t k = 0;
  names[k++] = "launch";
  if (nalts > 1)
    {
      names[k++] = "order";
      names[k++] = "variant";
    }
  for (size_t i = 0; i < schema.nk; i++)
    names[k++] = schema.keys[i];
  for (size_t i = 0; i < schema.nv; i++)
    names[k++] = schema.values[i];
  for (size_t i = 3; own_cols[i]; i++)
    names[k++] = own_cols[i];
  tsv_write_header (w, k, names);
  free (names);
}

/* The rows of one launch grouped by key, in order of first appearance;
   *SHARED set when a check column (logp-measure's) says cpu_shared.  */
static struct keyrows *
group_rows (tsv_reader *r, size_t *ng, int *shared)
{
  /* A column this launch's program does not write is NA (below).  */
  long *kc = xcalloc (schema.nk + 1, sizeof *kc);
  long *vc = xcalloc (schema.nv + 1, sizeof *vc);
  for (size_t i = 0; i < schema.nk; i++)
    kc[i] = tsv_col (r, schema.keys[i]);
  for (size_t i = 0; i < schema.nv; i++)
    vc[i] = tsv_col (r, schema.values[i]);
  long check = tsv_col (r, "check");
  struct keyrows *g = NULL;
  size_t cap = 0;
  *ng = 0;
  while (tsv_next (r))
    {
      size_t len = 1;
      for (size_t i = 0; i < schema.nk; i++)
        len += (kc[i] >= 0 ? tsv_field_len (r, (size_t) kc[i]) : 2) + 1;
      char *key = xcalloc (len, 1);
      for (size_t i = 0; i < schema.nk; i++)
        {
          if (i)
            strcat (key, "\t");
          strcat (key, kc[i] >= 0 ? tsv_field (r, (size_t) kc[i]) : "NA");
        }
      size_t k = 0;
      while (k < *ng && strcmp (g[k].key, key) != 0)
        k++;
      if (k == *ng)
        {
          if (*ng == cap)
            g = xrealloc (g, (cap = cap ? 2 * cap : 16) * sizeof *g);
          g[(*ng)++] = (struct keyrows) { key, NULL, 0, 0 };
        }
      else
        free (key);
      if (g[k].n == g[k].cap)
        {
          g[k].cap = g[k].cap ? 2 * g[k].cap : 4;
          g[k].v = xrealloc (g[k].v, g[k].cap * (schema.nv + 1) * sizeof *g[k].v);
        }
      for (size_t i = 0; i < schema.nv; i++)
        g[k].v[g[k].n * schema.nv + i]
          = vc[i] >= 0 ? tsv_num (r, (size_t) vc[i], 1) : NAN;
      g[k].n++;
      if (check >= 0 && strstr (tsv_field (r, (size_t) check), "cpu_shared"))
        *shared = 1;
    }
  free (kc);
  free (vc);
  return g;
}

/* The median of column I of G's rows, NA ignored.  */
static double
key_median (const struct keyrows *g, size_t i)
{
  double *x = xcalloc (g->n + 1, sizeof *x);
  size_t n = 0;
  for (size_t k = 0; k < g->n; k++)
    if (!isnan (g->v[k * schema.nv + i]))
      x[n++] = g->v[k * schema.nv + i];
  stats_sort (x, n);
  double m = n ? stats_median_sorted (x, n) : NAN;
  free (x);
  return m;
}

static void
put_cores (tsv_writer *w, const struct cpuwatch *cw)
{
  char buf[4096];
  size_t len = 0;
  for (size_t c = 0; c < sizeof cw->seen && len + 8 < sizeof buf; c++)
    if (cw->seen[c])
      len += (size_t) snprintf (buf + len, sizeof buf - len, "%s%zu",
                                len ? "," : "", c);
  if (cw->ok && len)
    tsv_put_str (w, buf);
  else
    tsv_put_na (w);
}

static void
write_launch (tsv_writer *w, tsv_reader *r, const struct alternative *a,
              long order, struct launch *L)
{
  size_t ng;
  int check_shared = 0;
  struct keyrows *g = group_rows (r, &ng, &check_shared);
  int shared = cpu_shared (L, schema.ncpus);
  if (check_shared)
    shared = 1;
  for (size_t k = 0; k < ng; k++)
    {
      tsv_put_int (w, a->launches_done);
      if (nalts > 1)
        {
          tsv_put_int (w, order);
          tsv_put_str (w, a->name);
        }
      const char *s = g[k].key;
      for (size_t i = 0; i < schema.nk; i++)
        {
          const char *tab = strchr (s, '\t');
          size_t len = tab ? (size_t) (tab - s) : strlen (s);
          tsv_put_strn (w, s, len);
          s += len + (tab != NULL);
        }
      for (size_t i = 0; i < schema.nv; i++)
        tsv_put_num (w, key_median (&g[k], i));
      tsv_put_num (w, L->load);
      tsv_put_num (w, L->cw.ok ? round (L->others * 100) / 100 : NAN);
      if (L->cw.ok)
        tsv_put_int (w, L->cw.ranks);
      else
        tsv_put_na (w);
      put_cores (w, &L->cw);
      if (shared < 0)
        tsv_put_na (w);
      else
        tsv_put_int (w, shared);
      tsv_end_row (w);
      free (g[k].key);
      free (g[k].v);
    }
  free (g);
  tsv_flush (w);
}

/* ---------------------------------------------------------------- main */

static void
write_meta (tsv_writer *w, tsv_reader *first, const char *first_name)
{
  tsv_copy_meta (w, first);
  /* The copied lines are the first launch's: with several alternatives
     they describe that one only (its MCA settings, say), so name it.  */
  if (nalts > 1)
    tsv_meta (w, "meta_variant", "%s", first_name);
  tsv_write_tool_meta (w, NULL);
  tsv_meta (w, "launches", "%s", opt_launches);
  tsv_meta (w, "seed", "%s", opt_seed);
  for (size_t i = 0; i < nalts && nalts > 1; i++)
    {
      size_t len = 1;
      for (char **a = alts[i].argv; *a; a++)
        len += strlen (*a) + 1;
      char *cmd = xcalloc (len, 1);
      for (char **a = alts[i].argv; *a; a++)
        strcat (strcat (cmd, a == alts[i].argv ? "" : " "), *a);
      tsv_meta (w, "alternative", "%s %s", alts[i].name, cmd);
      free (cmd);
    }
  char *keys = xcalloc (1, 1);
  for (size_t i = 0; i < schema.nk; i++)
    {
      keys = xrealloc (keys, strlen (keys) + strlen (schema.keys[i]) + 2);
      strcat (strcat (keys, i ? "," : ""), schema.keys[i]);
    }
  tsv_meta (w, "launch_keys", "%s", keys);
  free (keys);
  tsv_meta (w, "ncpus", "%ld", schema.ncpus);
}

/* The first round's launches are held until each alternative has run
   once: the stream's columns are theirs together (choose_schema).  */
static void
start_stream (tsv_writer *w, struct launch *held, const size_t *order,
              size_t nheld)
{
  tsv_reader **rs = xcalloc (nheld, sizeof *rs);
  for (size_t k = 0; k < nheld; k++)
    {
      struct alternative *a = &alts[order[k]];
      rs[k] = open_output (&held[k], 1, a);
    }
  choose_schema (rs, nheld);
  for (size_t k = 0; k < nheld; k++)
    tsv_close (rs[k]);
  free (rs);
  tsv_reader *r = open_output (&held[0], 1, &alts[order[0]]);
  write_meta (w, r, alts[order[0]].name);
  tsv_close (r);
  write_header (w);
  for (size_t k = 0; k < nheld; k++)
    {
      r = open_output (&held[k], 1, &alts[order[k]]);
      write_launch (w, r, &alts[order[k]], (long) k + 1, &held[k]);
      tsv_close (r);
      free (held[k].out);
    }
}

static void
run_all (tsv_writer *w, const size_t *order)
{
  size_t total = (size_t) nlaunches * nalts;
  struct launch *held = xcalloc (nalts, sizeof *held);
  int warned = 0;
  for (size_t k = 0; k < total; k++)
    {
      struct alternative *a = &alts[order[k]];
      a->launches_done++;
      struct launch L;
      run_launch (a, a->launches_done, &L);
      if (!L.cw.ok && !warned++)
        warn ("launch %d: could not see where the ranks ran (/proc/stat "
              "or the launch's processes unreadable): ranks, cores, others "
              "and cpu_shared are NA", a->launches_done);
      if (k < nalts)
        {
          /* (A failed launch ends the program in run_launch: the held
             ones are lost with it, as nothing was written yet.)  */
          held[k] = L;
          if (k + 1 == nalts)
            start_stream (w, held, order, nalts);
          continue;
        }
      tsv_reader *r = open_output (&L, a->launches_done, a);
      write_launch (w, r, a, (long) k + 1, &L);
      tsv_close (r);
      free (L.out);
    }
  free (held);
}

int
main (int argc, char **argv)
{
  cli_init ("msgperf-launch", argc, argv);
  poptContext con = cli_parse (argc, (const char **) argv, options,
                               "[OPTION...] -- COMMAND [ARG...]", NULL);
  nlaunches = cli_int ("launches", opt_launches, 1, 100000);
  uint64_t seed = (uint64_t) cli_int ("seed", opt_seed, 0, INT64_MAX);
  int dashes = 0;
  for (int i = 1; i < argc && !dashes; i++)
    dashes = strcmp (argv[i], "--") == 0;
  const char **args = poptGetArgs (con);
  if (opt_alt_file)
    {
      if (args && args[0])
        die_usage ("--alternatives and a command after '--' are exclusive");
      alternatives_from_file (opt_alt_file);
    }
  else if (!dashes || !args || !args[0])
    die_usage ("no command: give the measuring command after '--'");
  else
    alternatives_from_args (args);
  schema.ncpus = sysconf (_SC_NPROCESSORS_ONLN);
  size_t *order = launch_order (seed);
  tsv_writer *w = tsv_writer_open (opt_output);
  run_all (w, order);
  tsv_writer_close (w);
  free (order);
  poptFreeContext (con);
  return 0;
}
