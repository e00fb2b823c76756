/* SPDX-License-Identifier: GPL-3.0-or-later */
/* run.c: msgperf-trace PROGRAM: find the tracing library, check the
   trace directory, preload the one and name the other, and run the
   program in its place.  */
#include <config.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "err.h"
#include "run.h"
#include "xalloc.h"

#ifndef TRACE_LIBDIR
# define TRACE_LIBDIR "/usr/local/lib"
#endif
#ifndef TRACE_BINDIR
# define TRACE_BINDIR "/usr/local/bin"
#endif
#ifndef TRACE_HAVE_MPI
# define TRACE_HAVE_MPI 1
#endif
#define TRACE_LIBNAME "libmsgperf-trace.so"

/* ---------------------------------------------------------------- run */

/* The directory of this program (with its final '/'), or NULL.  */
static char *
exe_dir (void)
{
  char exe[PATH_MAX];
  ssize_t n = readlink ("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0)
    return NULL;
  exe[n] = '\0';
  char *slash = strrchr (exe, '/');
  if (!slash)
    return NULL;
  slash[1] = '\0';
  return xstrdup (exe);
}

/* The path from configure's bindir to its libdir ("../lib" for
   PREFIX/bin and PREFIX/lib), into OUT; 0, or -1 when they do not
   share a parent.  */
static int
libdir_from_bindir (char *out, size_t n)
{
  const char *b = TRACE_BINDIR, *l = TRACE_LIBDIR;
  size_t common = 0;
  for (size_t i = 0; b[i] && b[i] == l[i]; i++)
    if (b[i] == '/')
      common = i + 1;
  if (common == 0)
    return -1;
  size_t k = 0;
  out[0] = '\0';
  for (const char *p = b + common; *p; p++)
    if (p == b + common || p[-1] == '/')
      k += (size_t) snprintf (out + k, k < n ? n - k : 0, "../");
  snprintf (out + k, k < n ? n - k : 0, "%s", l + common);
  return k < n ? 0 : -1;
}

/* DIR + REL + "/" + the library's name, if it is there; else NULL.  */
static char *
try_lib (const char *dir, const char *rel)
{
  size_t len = strlen (dir) + strlen (rel) + sizeof TRACE_LIBNAME + 2;
  char *p = xmalloc (len);
  snprintf (p, len, "%s%s%s%s", dir, rel, *rel ? "/" : "", TRACE_LIBNAME);
  if (access (p, R_OK) == 0)
    return p;
  free (p);
  return NULL;
}

/* The library: $MSGPERF_TRACE_LIB; else beside this program (the build
   tree); else where make install put it relative to this program (its
   bindir's path to libdir: the same under any prefix or DESTDIR);
   else in configure's libdir.  */
static char *
library_path (void)
{
  const char *env = getenv ("MSGPERF_TRACE_LIB");
  if (env && *env)
    {
      if (access (env, R_OK) != 0)
        die ("MSGPERF_TRACE_LIB='%s': %s", env, strerror (errno));
      return xstrdup (env);
    }
  char *dir = exe_dir (), rel[PATH_MAX] = "", *p = NULL;
  int have_rel = libdir_from_bindir (rel, sizeof rel) == 0;
  if (dir)
    p = try_lib (dir, "");
  if (dir && !p && have_rel)
    p = try_lib (dir, rel);
  if (!p)
    p = try_lib (TRACE_LIBDIR "/", "");
  if (p)
    {
      free (dir);
      return p;
    }
  if (!TRACE_HAVE_MPI)
    die ("this msgperf was configured without MPI (./configure "
         "--without-mpi, or no mpicc found), so it has no tracing "
         "library: configure with MPI, or name one with MSGPERF_TRACE_LIB");
  die ("cannot find the tracing library %s: not beside this program "
       "(%s)%s%s%s, nor in %s: install it with this program (make "
       "install), or name it with MSGPERF_TRACE_LIB", TRACE_LIBNAME,
       dir ? dir : "?", have_rel ? ", nor in " : "",
       have_rel && dir ? dir : "", have_rel ? rel : "", TRACE_LIBDIR);
}

/* Make the trace directory DIR, and see that a file can be made in it:
   the library would otherwise say so on every rank and trace nothing.  */
static void
check_dir (const char *dir)
{
  if (mkdir (dir, 0777) != 0 && errno != EEXIST)
    die ("cannot make the trace directory '%s': %s", dir, strerror (errno));
  struct stat st;
  if (stat (dir, &st) != 0)
    die ("trace directory '%s': %s", dir, strerror (errno));
  if (!S_ISDIR (st.st_mode))
    die ("trace directory '%s': %s", dir, strerror (ENOTDIR));
  if (access (dir, W_OK | X_OK) != 0)
    die ("cannot write to the trace directory '%s': %s", dir,
         strerror (errno));
}

static char *opt_dir;

static struct poptOption run_options[] = {
  { "dir", 'd', POPT_ARG_STRING, NULL, 'd',
    "write the traces to DIR/trace.RANK (default: $MSGPERF_TRACE_DIR, "
    "else msgperf-trace)", "DIR" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

static void
run_help (FILE *fp)
{
  fprintf (fp, "\nSubcommand:\n"
           "  dump DIR       print the traces of DIR as a msgperf stream "
           "('msgperf-trace dump --help')\n"
           "  goal DIR       write the traces of DIR as a GOAL schedule "
           "('msgperf-trace goal --help')\n"
           "  profile DIR    time in each MPI call kind and in compute, "
           "per rank\n"
           "  attribute MAP  name dag-predict --gantt/--critical-path rows "
           "by source call\n");
}

int
trace_run (int argc, char **argv)
{
  cli_help_hook = run_help;
  /* Options end at the program's name: its own options are its own.  */
  poptContext con = poptGetContext (cli.program, argc, (const char **) argv,
                                    run_options, POPT_CONTEXT_POSIXMEHARDER);
  cli_context = con;
  poptSetOtherOptionHelp (con, "[OPTION...] PROGRAM [ARG...]");
  int rc;
  while ((rc = poptGetNextOpt (con)) > 0)
    if (rc == 'd')
      {
        /* the last --dir counts; popt's copy is ours to free */
        free (opt_dir);
        opt_dir = poptGetOptArg (con);
      }
  if (rc < -1)
    die_usage ("%s: %s", poptBadOption (con, POPT_BADOPTION_NOALIAS),
               poptStrerror (rc));
  const char **args = poptGetArgs (con);
  if (!args || !args[0])
    die_usage ("no program to run (msgperf-trace [--dir DIR] PROGRAM "
               "[ARG...])");
  if (opt_dir && !*opt_dir)
    die_usage ("--dir: empty directory name");
  char *lib = library_path ();
  const char *tdir = opt_dir ? opt_dir : getenv ("MSGPERF_TRACE_DIR");
  check_dir (tdir && *tdir ? tdir : "msgperf-trace");
  const char *old = getenv ("LD_PRELOAD");
  size_t len = strlen (lib) + (old ? strlen (old) + 1 : 0) + 1;
  char *preload = xmalloc (len);
  /* After what is already preloaded: a sanitizer's runtime must stay
     first.  */
  if (old && *old)
    snprintf (preload, len, "%s %s", old, lib);
  else
    snprintf (preload, len, "%s", lib);
  if (setenv ("LD_PRELOAD", preload, 1) != 0
      || (opt_dir && setenv ("MSGPERF_TRACE_DIR", opt_dir, 1) != 0))
    die ("cannot set the environment: %s", strerror (errno));
  free (preload);
  free (lib);
  int nargs = 0;
  while (args[nargs])
    nargs++;
  char **av = xmalloc ((size_t) (nargs + 1) * sizeof *av);
  for (int i = 0; i < nargs; i++)
    av[i] = (char *) args[i];
  av[nargs] = NULL;
  fflush (NULL);
  execvp (av[0], av);
  int e = errno;
  free (av);
  die ("cannot run '%s': %s", args[0], strerror (e));
}
