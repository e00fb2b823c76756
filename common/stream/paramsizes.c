/* SPDX-License-Identifier: GPL-3.0-or-later */
/* paramsizes.c: a look at a parameter file's header before it is read,
 * so that a program can default to the per-size model (parameterized
 * LogP) when the file measured every size, and to one row's summary
 * otherwise.  */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "paramsizes.h"

/* Is NAME one of the tab-separated fields of LINE?  */
static int
has_field (const char *line, const char *name)
{
  size_t n = strlen (name);
  for (const char *p = line; p; p = strchr (p, '\t'))
    {
      if (*p == '\t')
        p++;
      if (strncmp (p, name, n) == 0
          && (p[n] == '\t' || p[n] == '\n' || p[n] == '\r' || !p[n]))
        return 1;
    }
  return 0;
}

int
param_file_per_size (const char *path)
{
  FILE *f = fopen (path, "r");
  if (!f)
    return 0;
  char line[4096];
  int header = 0, rows = 0;
  while (rows < 2 && fgets (line, sizeof line, f))
    {
      if (line[0] == '#')
        continue;
      if (!header)
        {
          if (!has_field (line, "bytes") || !has_field (line, "os")
              || !has_field (line, "or") || !has_field (line, "g"))
            break;
          header = 1;
        }
      else
        rows++;
    }
  fclose (f);
  return rows >= 2;
}
