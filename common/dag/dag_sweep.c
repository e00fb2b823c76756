/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_sweep: --sweep NAME=LIST (dag_sweep.h).  */
#include <config.h>

#include <string.h>

#include "dag_sweep.h"
#include "err.h"
#include "listopt.h"
#include "xalloc.h"

void
dag_sweep_parse (const char *text, struct dag_gen *gen, int generated,
                 const struct dag_bind *b, int model, char **name,
                 double **vals, size_t *n, int64_t **gfield)
{
  *name = xstrdup (text);
  char *eq = strchr (*name, '=');
  if (!eq || eq == *name || !eq[1])
    die_usage ("option '--sweep': expected NAME=V1,V2,... not '%s'", text);
  *eq = '\0';
  *gfield = dag_gen_field (gen, *name, generated);
  if (!*gfield)
    dag_bind_sweep_name (b, model, *name);
  if (*gfield && !generated)
    die_usage ("option '--sweep': '%s' changes the DAG: use --gen", *name);
  /* a generator's field is a whole number (a size may have K, M, G); a
     parameter is checked against the parameter table's range */
  *vals = opt_list ("sweep", eq + 1, *gfield != NULL,
                    (double) (INT64_C (1) << 50), n);
  if (!*gfield)
    dag_bind_sweep_range (*name, *vals, *n);
}
