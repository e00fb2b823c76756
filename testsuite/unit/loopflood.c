/* SPDX-License-Identifier: GPL-3.0-or-later */
/* loopflood: saturate the loopback interface, as a second program's
 * traffic would, while an MPI test runs over TCP.
 *
 *   loopflood SECONDS READY-FILE
 *
 * Listens on 127.0.0.1 (a port the kernel picks), forks a writer that
 * connects and sends 64 KiB blocks as fast as the socket takes them; the
 * parent reads them.  Once the connection is up it creates READY-FILE.
 * After SECONDS, or on SIGTERM/SIGINT, it stops the writer and prints
 * "loopflood: N bytes in S s" on stdout (N > 0: there was traffic).
 * Exit status 0, or 1 with a message on stderr.  */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { BLOCK = 65536 };

static volatile sig_atomic_t stop;

static void
on_signal (int sig)
{
  (void) sig;
  stop = 1;
}

static void
fail (const char *what)
{
  fprintf (stderr, "loopflood: %s: %s\n", what, strerror (errno));
  exit (1);
}

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* The writer: connect and send until the connection breaks or a signal
   ends the process.  */
static void
writer (const struct sockaddr_in *addr)
{
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || connect (fd, (const struct sockaddr *) addr,
                         sizeof *addr) != 0)
    _exit (1);
  static char buf[BLOCK];
  memset (buf, 'f', sizeof buf);
  for (;;)
    if (write (fd, buf, sizeof buf) < 0 && errno != EINTR)
      _exit (0);
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "usage: loopflood SECONDS READY-FILE\n");
      return 1;
    }
  char *end;
  double seconds = strtod (argv[1], &end);
  if (*end || !(seconds > 0) || seconds > 3600)
    {
      fprintf (stderr, "loopflood: '%s' is not 0 to 3600 seconds\n",
               argv[1]);
      return 1;
    }

  int ls = socket (AF_INET, SOCK_STREAM, 0);
  if (ls < 0)
    fail ("socket");
  struct sockaddr_in addr;
  memset (&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t alen = sizeof addr;
  if (bind (ls, (struct sockaddr *) &addr, sizeof addr) != 0)
    fail ("bind");
  if (listen (ls, 1) != 0)
    fail ("listen");
  if (getsockname (ls, (struct sockaddr *) &addr, &alen) != 0)
    fail ("getsockname");

  pid_t child = fork ();
  if (child < 0)
    fail ("fork");
  if (child == 0)
    {
      close (ls);
      writer (&addr);
    }
  int fd = accept (ls, NULL, NULL);
  if (fd < 0)
    {
      kill (child, SIGKILL);
      fail ("accept");
    }
  close (ls);

  /* Without SA_RESTART: the signal ends a blocked read.  */
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGALRM, &sa, NULL);
  struct itimerval it;
  memset (&it, 0, sizeof it);
  it.it_value.tv_sec = (time_t) seconds;
  it.it_value.tv_usec = (suseconds_t) ((seconds - (double) it.it_value.tv_sec)
                                       * 1e6);
  if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
    it.it_value.tv_usec = 1;
  setitimer (ITIMER_REAL, &it, NULL);

  FILE *ready = fopen (argv[2], "w");
  if (ready == NULL || fclose (ready) != 0)
    {
      kill (child, SIGKILL);
      fail (argv[2]);
    }

  static char buf[BLOCK];
  long long total = 0;
  double t0 = now ();
  while (!stop)
    {
      ssize_t n = read (fd, buf, sizeof buf);
      if (n > 0)
        total += n;
      else if (n == 0 || errno != EINTR)
        break;
    }
  double t = now () - t0;
  kill (child, SIGKILL);
  waitpid (child, NULL, 0);
  close (fd);
  printf ("loopflood: %lld bytes in %.1f s\n", total, t);
  return 0;
}
