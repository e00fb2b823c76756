/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gnuplot_run.c: plotgen's files and its gnuplot (gnuplot_run.h).  */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "gnuplot_run.h"
#include "plotdata.h"
#include "xalloc.h"

extern char **environ;

/* Temporary files also go when an interrupt (^C, a kill) ends the
   program while gnuplot draws: err.h's cleanup runs only on die().  */
#define MAX_TEMPS 4
static const char *volatile temps[MAX_TEMPS];

static void
on_signal (int sig)
{
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (temps[i])
      unlink (temps[i]);
  signal (sig, SIG_DFL);
  raise (sig);
}

static void
temp_add (const char *path)
{
  static int installed;
  if (!installed)
    {
      static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
      for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        {
          struct sigaction sa;
          memset (&sa, 0, sizeof sa);
          sa.sa_handler = on_signal;
          sigemptyset (&sa.sa_mask);
          sigaction (sigs[i], &sa, NULL);
        }
      installed = 1;
    }
  err_cleanup_add (path);
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (!temps[i])
      {
        temps[i] = path;
        return;
      }
}

static void
temp_remove (const char *path)
{
  for (size_t i = 0; i < MAX_TEMPS; i++)
    if (temps[i] == path)
      temps[i] = NULL;
  err_cleanup_remove (path);
}

/* A temporary file beside PATH ("DIR/.NAME.XXXXXX"), registered for
   removal if the program dies.  Dies naming PATH when the directory does
   not exist or is not writable.  */
char *
plot_temp_beside (const char *path)
{
  const char *base = plot_base_name (path);
  size_t dirlen = (size_t) (base - path);
  char *tmp = xasprintf ("%.*s.%s.XXXXXX", (int) dirlen, path, base);
  int fd = mkstemp (tmp);
  if (fd < 0)
    {
      int e = errno;
      free (tmp);
      die ("cannot create '%s': %s", path, strerror (e));
    }
  close (fd);
  temp_add (tmp);
  return tmp;
}

/* Give TMP the usual permissions of a new file and rename it to PATH.  */
void
plot_commit_temp (char *tmp, const char *path)
{
  mode_t mask = umask (0);
  umask (mask);
  if (chmod (tmp, 0666 & ~mask) != 0 || rename (tmp, path) != 0)
    die ("cannot write '%s': %s", path, strerror (errno));
  temp_remove (tmp);
}

static void
write_all (int fd, const char *s, size_t n, const char *what)
{
  while (n > 0)
    {
      ssize_t w = write (fd, s, n);
      if (w < 0)
        {
          if (errno == EINTR)
            continue;
          die ("cannot write %s: %s", what, strerror (errno));
        }
      s += w;
      n -= (size_t) w;
    }
}

void
plot_write_file (const char *path, const char *s, size_t n)
{
  char *tmp = plot_temp_beside (path);
  int fd = open (tmp, O_WRONLY | O_TRUNC);
  if (fd < 0)
    die ("cannot write '%s': %s", path, strerror (errno));
  write_all (fd, s, n, path);
  if (close (fd) != 0)
    die ("cannot write '%s': %s", path, strerror (errno));
  plot_commit_temp (tmp, path);
  free (tmp);
}

/* The gnuplot program: $GNUPLOT, else the one configure found.  */
static const char *
gnuplot_program (void)
{
  const char *gp = getenv ("GNUPLOT");
  return gp && *gp ? gp : GNUPLOT_PATH;
}

/* Why PROGRAM cannot be executed, as posix_spawnp would say (an errno
   value), or 0 when it looks executable.  Some posix_spawnp
   implementations (a fork-based fallback, or under valgrind) report a
   failed exec only as the child's exit status 127, without the reason.  */
static int
exec_failure (const char *program)
{
  if (strchr (program, '/'))
    return access (program, X_OK) == 0 ? 0 : errno;
  const char *path = getenv ("PATH");
  if (!path || !*path)
    path = "/bin:/usr/bin";
  int why = ENOENT;
  while (*path)
    {
      size_t n = strcspn (path, ":");
      /* An empty element is the current directory.  */
      char *full = n ? xasprintf ("%.*s/%s", (int) n, path, program)
                     : xasprintf ("./%s", program);
      int ok = access (full, X_OK) == 0;
      if (!ok && errno == EACCES)
        why = EACCES;
      free (full);
      if (ok)
        return 0;
      path += n + (path[n] == ':');
    }
  return why;
}

void
plot_run_gnuplot (const char *script, size_t len)
{
  const char *gp = gnuplot_program ();
  const char *dir = getenv ("TMPDIR");
  char *path = xasprintf ("%s/plotgen.XXXXXX.gp", dir && *dir ? dir : "/tmp");
  int fd = mkstemps (path, 3);
  if (fd < 0)
    {
      int e = errno;
      free (path);
      die ("cannot create a temporary file in '%s': %s",
           dir && *dir ? dir : "/tmp", strerror (e));
    }
  temp_add (path);
  write_all (fd, script, len, "the gnuplot script");
  if (close (fd) != 0)
    die ("cannot write the gnuplot script: %s", strerror (errno));

  posix_spawnattr_t attr;
  sigset_t def;
  posix_spawnattr_init (&attr);
  sigemptyset (&def);
  sigaddset (&def, SIGPIPE);
  posix_spawnattr_setsigdefault (&attr, &def);
  posix_spawnattr_setflags (&attr, POSIX_SPAWN_SETSIGDEF);
  /* -d: ignore the user's ~/.gnuplot, so that it cannot change a result */
  char *argv[] = { (char *) gp, (char *) "-d", path, NULL };
  fflush (stdout);
  pid_t pid;
  int rc = posix_spawnp (&pid, gp, NULL, &attr, argv, environ);
  posix_spawnattr_destroy (&attr);
  if (rc != 0)
    {
      if (rc == ENOENT || rc == EACCES || rc == ENOTDIR)
        die ("cannot run gnuplot '%s': %s; install it (Debian/Ubuntu: "
             "apt-get install gnuplot-nox) or set GNUPLOT to its path",
             gp, strerror (rc));
      die ("cannot run gnuplot '%s': %s", gp, strerror (rc));
    }
  int status;
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      die ("cannot wait for gnuplot: %s", strerror (errno));
  unlink (path);
  temp_remove (path);
  free (path);
  if (WIFEXITED (status) && WEXITSTATUS (status) == 127)
    {
      int why = exec_failure (gp);
      if (why)
        die ("cannot run gnuplot '%s': %s; install it (Debian/Ubuntu: "
             "apt-get install gnuplot-nox) or set GNUPLOT to its path",
             gp, strerror (why));
      die ("cannot run gnuplot '%s'; install it (Debian/Ubuntu: "
           "apt-get install gnuplot-nox) or set GNUPLOT to its path", gp);
    }
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    die ("gnuplot failed (%s %d); nothing was written (plotgen --script "
         "shows the script)",
         WIFEXITED (status) ? "exit status" : "signal",
         WIFEXITED (status) ? WEXITSTATUS (status) : WTERMSIG (status));
}
