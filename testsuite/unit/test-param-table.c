/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-param-table: print the parameter table of common/stream/params.c
   (name, unit, range, meaning; then the aliases) as a TSV stream, for
   the testsuite to compare with msgperf(7)'s table of the parameters, and
   check that every name is found by param_lookup.  */
#include <config.h>
#include <stdio.h>
#include <string.h>

#include "params.h"
#include "tsv.h"
#include "unit.h"

int
main (void)
{
  for (int k = 0; k < PARAM_NPARAM; k++)
    {
      int ks[2], alias;
      CHECK (param_lookup (param_defs[k].name, ks, &alias) == 1
             && ks[0] == k && !alias);
      CHECK (param_defs[k].help && *param_defs[k].help);
    }
  if (unit_failures)
    return unit_done ();
  tsv_writer *w = tsv_writer_open (NULL);
  param_table_write (w);
  tsv_writer_close (w);
  return 0;
}
