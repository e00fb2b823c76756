/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trace-write: write hand-made traces with the format's own encoder, for
 * the tests of msgperf-trace goal (testsuite/msgperf-trace.at).
 *
 *   trace-write DIR < DESCRIPTION
 *
 * Lines of whitespace-separated fields; '#' starts a comment:
 *
 *   rank R SIZE complete|abort|signal N|unfinished
 *       starts DIR/trace.R (t0 = 0, wtick = 1 ns)
 *   CALL T_START T_END COMM PEER TAG BYTES ROOT REQUEST AUX FLAGS
 *       one record: CALL is the dump's name (send, irecv, member ...),
 *       times in microseconds, NA for -1, FLAGS letters d (done),
 *       s (any source), t (any tag) or '-'.  */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "traceformat.h"

struct file
{
  FILE *fp;
  struct trace_header h;
  unsigned char *recs;
  size_t n, cap;
};

static int
finish (struct file *f)
{
  if (!f->fp)
    return 0;
  unsigned char head[TRACE_HEADER_SIZE];
  f->h.nrecords = f->n;
  trace_encode_header (&f->h, head);
  int bad = fwrite (head, 1, sizeof head, f->fp) != sizeof head
            || fwrite (f->recs, TRACE_RECORD_SIZE, f->n, f->fp) != f->n;
  bad |= fclose (f->fp) != 0;
  f->fp = NULL;
  f->n = 0;
  return bad;
}

static long long
field (const char *s)
{
  return strcmp (s, "NA") == 0 ? -1 : strtoll (s, NULL, 10);
}

int
main (int argc, char **argv)
{
  if (argc != 2)
    {
      fprintf (stderr, "usage: trace-write DIR < DESCRIPTION\n");
      return 2;
    }
  struct file f = { 0 };
  char line[1024];
  long lineno = 0;
  while (fgets (line, sizeof line, stdin))
    {
      lineno++;
      char *hash = strchr (line, '#');
      if (hash)
        *hash = '\0';
      char *w[16];
      int n = 0;
      for (char *t = strtok (line, " \t\n"); t && n < 16;
           t = strtok (NULL, " \t\n"))
        w[n++] = t;
      if (n == 0)
        continue;
      if (strcmp (w[0], "rank") == 0 && n >= 4)
        {
          if (finish (&f))
            return 1;
          char path[4096];
          snprintf (path, sizeof path, "%s/trace.%s", argv[1], w[1]);
          f.fp = fopen (path, "wb");
          if (!f.fp)
            {
              perror (path);
              return 1;
            }
          f.h = (struct trace_header) { TRACE_VERSION, atoi (w[1]),
                                        atoi (w[2]), 0, 0, 0, 1e-9, 0, 0 };
          if (strcmp (w[3], "complete") == 0)
            f.h.flags = TRACE_F_COMPLETE;
          else if (strcmp (w[3], "abort") == 0)
            f.h.flags = TRACE_F_ABORT;
          else if (strcmp (w[3], "signal") == 0 && n >= 5)
            {
              f.h.flags = TRACE_F_SIGNAL;
              f.h.signal = atoi (w[4]);
            }
          continue;
        }
      if (n != 11 || !f.fp)
        {
          fprintf (stderr, "trace-write: line %ld: expected 11 fields after "
                   "a rank line\n", lineno);
          return 1;
        }
      unsigned call = 0;
      while (call < TRACE_NCALLS && strcmp (trace_call_name (call), w[0]))
        call++;
      if (call == TRACE_NCALLS)
        {
          fprintf (stderr, "trace-write: line %ld: unknown call '%s'\n",
                   lineno, w[0]);
          return 1;
        }
      struct trace_record r = {
        strtod (w[1], NULL) * 1e-6, strtod (w[2], NULL) * 1e-6,
        field (w[6]), field (w[8]), (uint32_t) f.n, (uint16_t) call,
        (uint16_t) ((strchr (w[10], 'd') ? TRACE_R_DONE : 0)
                    | (strchr (w[10], 's') ? TRACE_R_ANY_SOURCE : 0)
                    | (strchr (w[10], 't') ? TRACE_R_ANY_TAG : 0)),
        (int32_t) field (w[3]), (int32_t) field (w[4]),
        (int32_t) field (w[5]), (int32_t) field (w[7]),
        (int32_t) field (w[9]), 0
      };
      if (f.n == f.cap)
        {
          f.cap = f.cap ? 2 * f.cap : 64;
          f.recs = realloc (f.recs, f.cap * TRACE_RECORD_SIZE);
          if (!f.recs)
            return 1;
        }
      trace_encode_record (&r, f.recs + f.n * TRACE_RECORD_SIZE);
      f.n++;
    }
  int rc = finish (&f);
  free (f.recs);
  return rc;
}
