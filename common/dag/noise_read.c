/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noise_read.c: the noise of dag-predict's options (noise_read.h): a
   --noise SPEC parsed, or a --noise-trace FILE read, into the model of
   noise.c, and the metadata that says which.  */
#define _POSIX_C_SOURCE 200809L
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "err.h"
#include "noise_read.h"
#include "num.h"
#include "xalloc.h"

/* One number of --noise SPEC: at least 0.  */
static double
noise_number (const struct dag_noise_opts *o, const char *part, size_t len)
{
  double v;
  enum num_status st = num_parse (part, len, &v);
  if (st != NUM_OK || v < 0)
    die_usage ("option '--noise': '%.*s' in '%s': %s", (int) len, part,
               o->spec, st != NUM_OK ? num_strerror (st)
                                       : "a time must be at least 0");
  return v;
}

/* --noise periodic:PERIOD:DETOUR[:PHASE] or exp:MEAN_INTERVAL:DETOUR.  */
static void
parse_noise_spec (struct dag_noise *noise, const struct dag_noise_opts *o)
{
  const char *p = strchr (o->spec, ':');
  size_t klen = p ? (size_t) (p - o->spec) : strlen (o->spec);
  double v[3];
  size_t n = 0;
  while (p && n < 3)
    {
      const char *q = strchr (p + 1, ':');
      size_t len = q ? (size_t) (q - p - 1) : strlen (p + 1);
      v[n++] = noise_number (o, p + 1, len);
      p = q;
    }
  int periodic = klen == 8 && strncmp (o->spec, "periodic", 8) == 0;
  int expo = klen == 3 && strncmp (o->spec, "exp", 3) == 0;
  if (p || !(periodic ? n == 2 || n == 3 : expo ? n == 2 : 0))
    die_usage ("option '--noise': '%s' (expected "
               "periodic:PERIOD:DETOUR[:PHASE] or exp:MEAN_INTERVAL:DETOUR)",
               o->spec);
  if (periodic)
    {
      noise->kind = DAG_NOISE_PERIODIC;
      noise->period = v[0];
      noise->detour = v[1];
      if (n == 3)
        {
          noise->phase_given = 1;
          noise->phase = v[2];
        }
    }
  else
    {
      noise->kind = DAG_NOISE_EXP;
      noise->mean = v[0];
      noise->detour = v[1];
    }
}

/* --noise-trace FILE: LogGOPSim's noise trace, a detour per line, its
   start and duration (in the schedule's time unit; LogGOPSim's are ns)
   separated by blanks; lines starting with '#' and blank lines are
   skipped.  */
static void
read_noise_trace (struct dag_noise *noise, struct dag_noise_opts *o,
                  const char *path)
{
  FILE *f = fopen (path, "r");
  if (!f)
    die ("%s: %s", path, strerror (errno));
  char *buf = NULL;
  size_t cap = 0, n = 0, ncap = 0;
  long line = 0;
  ssize_t got;
  while ((got = getline (&buf, &cap, f)) >= 0)
    {
      line++;
      if (memchr (buf, '\0', (size_t) got))
        die_at (path, line, 0, "a NUL byte");
      buf[strcspn (buf, "\r\n")] = '\0';
      const char *c = buf + strspn (buf, " \t");
      if (*c == '#' || *c == '\0')
        continue;
      double v[2];
      int k = 0;
      while (*c)
        {
          size_t len = strcspn (c, " \t");
          if (k == 2)
            die_at (path, line, 3, "'%s': a detour is START DURATION, two "
                    "numbers", buf);
          enum num_status st = num_parse (c, len, &v[k]);
          if (st != NUM_OK)
            die_at (path, line, k + 1, "'%.*s': %s", (int) len, c,
                    num_strerror (st));
          if (v[k] < 0)
            die_at (path, line, k + 1, "'%.*s': a time must be at least 0",
                    (int) len, c);
          k++;
          c += len;
          c += strspn (c, " \t");
        }
      if (k < 2)
        die_at (path, line, 0, "'%s': a detour is START DURATION, two "
                "numbers", buf);
      if (n == ncap)
        {
          ncap = ncap ? 2 * ncap : 256;
          o->start = xrealloc (o->start, ncap * sizeof *o->start);
          o->len = xrealloc (o->len, ncap * sizeof *o->len);
          o->line = xrealloc (o->line, ncap * sizeof *o->line);
        }
      o->start[n] = v[0];
      o->len[n] = v[1];
      o->line[n] = line;
      n++;
    }
  int bad_read = ferror (f);
  free (buf);
  fclose (f);
  if (bad_read)
    die ("%s: read error", path);
  if (!n)
    die ("%s: no detours (a line START DURATION each)", path);
  noise->kind = DAG_NOISE_TRACE;
  noise->start = o->start;
  noise->len = o->len;
  noise->n = n;
}

/* The noise of the options, its phases drawn for NRANKS ranks.  */
void
dag_noise_setup (struct dag_noise *noise, struct dag_noise_opts *o,
                 int64_t nranks)
{
  if (o->spec && o->trace)
    die_usage ("--noise and --noise-trace are exclusive: one source of "
               "noise");
  if (o->phase && !o->trace)
    die_usage ("--noise-phase sets the phase of --noise-trace (with "
               "--noise periodic it is the spec's PHASE)");
  if (o->cosched && !o->spec && !o->trace)
    die_usage ("--noise-cosched needs --noise or --noise-trace");
  if (!o->spec && !o->trace)
    return;
  if (o->spec)
    parse_noise_spec (noise, o);
  else
    {
      if (o->phase)
        {
          noise->phase_given = 1;
          noise->phase = cli_double ("noise-phase", o->phase, 0,
                                    HUGE_VAL);
        }
      read_noise_trace (noise, o, o->trace);
    }
  noise->cosched = o->cosched;
  noise->seed = o->seed;
  size_t bad;
  const char *e = dag_noise_init (noise, nranks, &bad);
  if (e && o->trace)
    die_at (o->trace, o->line[bad], 0, "%s", e);
  if (e)
    die_usage ("option '--noise': '%s': %s", o->spec, e);
}

/* The noise's metadata: the options as given, and what was drawn.  */
void
dag_noise_meta (tsv_writer *w, const struct dag_noise *noise,
                const struct dag_noise_opts *o)
{
  if (noise->kind == DAG_NOISE_NONE)
    return;
  if (o->spec)
    tsv_meta (w, "noise", "%s", o->spec);
  else
    {
      char sb[NUM_BUFSIZE];
      num_format (noise->span, -1, sb);
      tsv_meta (w, "noise_trace", "%s (%zu detours, repeated every %s)",
                o->trace, noise->n, sb);
    }
  if (o->phase)
    tsv_meta (w, "noise_phase", "%s", o->phase);
  if (noise->cosched)
    tsv_meta (w, "noise_cosched", "yes");
  if (!noise->phase_given)
    tsv_meta (w, "noise_seed", "%llu", (unsigned long long) noise->seed);
}
