/* SPDX-License-Identifier: GPL-3.0-or-later */
/* togoal_spill.c: the operations msgperf-trace goal has converted but
 * not yet written, on disk (togoal.h's window).
 *
 * The tags of the GOAL text are numbered only once every rank has been
 * converted (togoal.c), so nothing can be written before that; a rank
 * of tens of millions of calls would hold as many operations in memory
 * (64 bytes each and their dependencies).  Instead, the operations that
 * nothing can change any more (all but those from a pending request on)
 * go to an unnamed temporary file as the conversion proceeds, rank
 * after rank, and are read back in the same order when the text is
 * written.  */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "togoal_int.h"

FILE *
spill_open (char *err, size_t errsize)
{
  const char *dir = getenv ("TMPDIR");
  if (!dir || !*dir)
    dir = "/tmp";
  size_t len = strlen (dir) + 32;
  char *path = xmalloc (len);
  snprintf (path, len, "%s/msgperf-goal.XXXXXX", dir);
  int fd = mkstemp (path);
  FILE *f = fd < 0 ? NULL : fdopen (fd, "w+b");
  if (!f)
    {
      snprintf (err, errsize, "cannot make a temporary file in %s (give "
                "another directory in TMPDIR, or --window 0): %s", dir,
                strerror (errno));
      if (fd >= 0)
        close (fd);
    }
  else
    unlink (path);
  free (path);
  return f;
}

int
spill_ops (FILE *f, struct rankops *r, size_t keep)
{
  for (size_t i = r->off; i < keep; i++)
    {
      const struct op *o = op_at (r, i);
      if (fwrite (o, sizeof *o, 1, f) != 1
          || (o->ndep && fwrite (&r->deps[o->dep0 - r->doff],
                                 sizeof *r->deps, o->ndep, f) != o->ndep))
        return -1;
    }
  size_t doff = keep < r->n ? op_at (r, keep)->dep0 : r->nd;
  memmove (r->ops, op_at (r, keep), (r->n - keep) * sizeof *r->ops);
  memmove (r->deps, r->deps + (doff - r->doff),
           (r->nd - doff) * sizeof *r->deps);
  r->off = keep;
  r->doff = doff;
  return 0;
}

int
spill_next (FILE *f, struct op *o, struct dep **deps, size_t *cap)
{
  if (fread (o, sizeof *o, 1, f) != 1)
    return -1;
  if (o->ndep > *cap)
    {
      *cap = o->ndep;
      *deps = xrealloc (*deps, *cap * sizeof **deps);
    }
  if (o->ndep && fread (*deps, sizeof **deps, o->ndep, f) != o->ndep)
    return -1;
  return 0;
}
