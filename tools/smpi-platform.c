/* SPDX-License-Identifier: GPL-3.0-or-later */
/* smpi-platform: a SimGrid platform file for SMPI (smpirun -platform),
   its network and SMPI's overheads, eager limit and network factors
   calibrated from one logp-measure stream of per-size rows (the table of
   parameterized LogP, smpi_calib.h).  */
#include <config.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "err.h"
#include "params.h"
#include "plogp.h"
#include "smpi_calib.h"
#include "xalloc.h"

static char *opt_where;      /* rows of one pair (param_file_select) */
static char *opt_eager;      /* the eager limit in bytes */
static char *opt_hosts;      /* hosts in the platform */
static char *opt_speed;      /* a host's speed, flops */
static char *opt_hostfile;   /* also write a hostfile there */

static struct poptOption options[] = {
  { "where", 'w', POPT_ARG_STRING, &opt_where, 0,
    "use the rows that match (e.g. src=0,dst=1; default: every row)",
    "KEY=VALUE[,...]" },
  { "eager", 'S', POPT_ARG_STRING, &opt_eager, 0,
    "eager limit in bytes (default: the stream's #@S)", "BYTES" },
  { "hosts", 'n', POPT_ARG_STRING, &opt_hosts, 0,
    "hosts of the platform (default: the stream's #@nprocs, at least 2)",
    "N" },
  { "speed", '\0', POPT_ARG_STRING, &opt_speed, 0,
    "speed of a host and smpi/host-speed, in flops (default 1e9: the "
    "computation takes the time it takes on the machine that runs "
    "smpirun)", "F" },
  { "hostfile", '\0', POPT_ARG_STRING, &opt_hostfile, 0,
    "also write a hostfile for smpirun -hostfile to FILE", "FILE" },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* The stream's metadata KEY, or NULL.  */
static const char *
meta (const struct param_file *pf, const char *key)
{
  size_t n = strlen (key);
  for (size_t i = 0; i < pf->nmeta; i++)
    if (strncmp (pf->meta[i], key, n) == 0 && pf->meta[i][n] == '=')
      return pf->meta[i] + n + 1;
  return NULL;
}

/* The per-size table of PF's rows (--where), its times in seconds.  */
static void
read_table (const struct param_file *pf, struct plogp *t)
{
  double scale;
  if (!pf->time_unit)
    die ("%s: no #@time_unit line: declare the unit of its times with "
         "'#@time_unit=UNIT' (s, ms, us, ns)", pf->name);
  if (param_time_scale (pf->time_unit, "s", &scale) != 0)
    die ("%s: its times are in %s: only s, ms, us and ns convert to "
         "SimGrid's seconds", pf->name, pf->time_unit);
  size_t *rows;
  size_t n = param_file_select (pf, opt_where, 1, NULL, &rows);
  double *v = xmalloc (n * 5 * sizeof *v);
  param_plogp_rows (pf, rows, n, scale, "smpi-platform", 0, v);
  /* pLogP's L may be below 0 (plogp.h): one value, the pair's */
  param_file_same_value (pf, rows, n, "L", "smpi-platform",
                         "select one pair with --where src=I,dst=J");
  const char *ltext = param_file_get (pf, rows[0], "L");
  if (!ltext)
    die ("%s: no column L (pLogP's latency)", pf->name);
  v[4] = strtod (ltext, NULL) * scale;
  struct plogp_point *pts = xmalloc (n * sizeof *pts);
  for (size_t k = 0; k < n; k++)
    pts[k] = (struct plogp_point) { v[5 * k], v[5 * k + 1], v[5 * k + 2],
                                    v[5 * k + 3] };
  size_t which = 0;
  enum plogp_status st = plogp_init (t, pts, n, v[4], &which);
  free (pts);
  free (v);
  if (st == PLOGP_NOMEM)
    die ("out of memory while reading %s", pf->name);
  if (st != PLOGP_OK)
    param_plogp_fail (pf, rows, n, which, "smpi-platform",
                      plogp_status_text (st), NULL);
  if (t->n < 2)
    die ("%s: %zu size: SMPI's per-size overheads need the per-size rows "
         "of logp-measure (not --summary), two sizes or more", pf->name,
         t->n);
  free (rows);
}

/* SMPI's list "MIN:OFFSET:PER_BYTE;..." of segments S[0..N-1].  */
static void
print_segs (const char *id, const struct smpi_seg *s, size_t n)
{
  printf ("    <prop id=\"%s\" value=\"", id);
  for (size_t k = 0; k < n; k++)
    printf ("%s%.0f:%.9g:%.9g", k ? ";" : "", s[k].min, s[k].offset,
            s[k].per_byte);
  printf ("\"/>\n");
}

static void
print_factors (const char *id, const struct smpi_factor *f, size_t n,
               int bw)
{
  printf ("    <prop id=\"%s\" value=\"", id);
  for (size_t k = 0; k < n; k++)
    printf ("%s%.0f:%.9g", k ? ";" : "", f[k].min, bw ? f[k].bw : f[k].lat);
  printf ("\"/>\n");
}

static void
print_platform (const struct smpi_calib *c, double eager, long hosts,
                double speed, const char *from)
{
  printf ("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
          "<!-- smpi-platform: calibrated from %s -->\n"
          "<platform version=\"4.1\">\n  <config>\n"
          "    <prop id=\"smpi/host-speed\" value=\"%.9gf\"/>\n"
          "    <prop id=\"smpi/send-is-detached-thresh\" value=\"%.0f\"/>\n"
          "    <prop id=\"smpi/async-small-thresh\" value=\"%.0f\"/>\n",
          from, speed, eager, eager);
  print_segs ("smpi/os", c->os, c->n);
  print_segs ("smpi/ois", c->os, c->n);
  print_segs ("smpi/or", c->or_, c->n);
  print_factors ("smpi/lat-factor", c->factor, c->n, 0);
  print_factors ("smpi/bw-factor", c->factor, c->n, 1);
  printf ("  </config>\n  <zone id=\"msgperf\" routing=\"Full\">\n");
  for (long h = 0; h < hosts; h++)
    printf ("    <host id=\"h%ld\" speed=\"%.9gf\"/>\n", h, speed);
  for (long a = 0; a < hosts; a++)
    for (long b = a + 1; b < hosts; b++)
      printf ("    <link id=\"l%ld_%ld\" bandwidth=\"%.9gBps\" "
              "latency=\"%.9gs\" sharing_policy=\"FATPIPE\"/>\n"
              "    <route src=\"h%ld\" dst=\"h%ld\"><link_ctn "
              "id=\"l%ld_%ld\"/></route>\n", a, b, c->bandwidth,
              c->latency, a, b, a, b);
  printf ("  </zone>\n</platform>\n");
}

int
main (int argc, char **argv)
{
  cli_init ("smpi-platform", argc, argv);
  poptContext con = cli_parse (argc, (const char **) argv, options,
                               "[OPTION...] [FILE]", NULL);
  const char **files = poptGetArgs (con);
  if (files && files[0] && files[1])
    die_usage ("one logp-measure stream at a time (got more files)");
  const char *path = files && files[0] ? files[0] : "-";
  double speed = opt_speed ? cli_double ("speed", opt_speed, 1, HUGE_VAL)
                 : 1e9;
  struct param_file *pf = param_file_read (path);
  const char *s = opt_eager ? opt_eager : meta (pf, "S");
  if (!s)
    die ("%s: no #@S line (logp-measure's eager limit): give --eager",
         pf->name);
  double eager = cli_double (opt_eager ? "eager" : "#@S", s, 0, 1e18);
  const char *np = opt_hosts ? opt_hosts : meta (pf, "nprocs");
  long hosts = np ? (long) cli_int (opt_hosts ? "hosts" : "#@nprocs", np,
                                    1, 4096) : 2;
  if (hosts < 2)
    hosts = 2;
  struct plogp t;
  read_table (pf, &t);
  struct smpi_calib c;
  if (smpi_calib_make (&t, &c) != 0)
    die ("out of memory");
  print_platform (&c, eager, hosts, speed, pf->name);
  if (opt_hostfile)
    {
      FILE *f = fopen (opt_hostfile, "w");
      if (!f)
        die ("%s: %s", opt_hostfile, strerror (errno));
      for (long h = 0; h < hosts; h++)
        fprintf (f, "h%ld\n", h);
      if (fclose (f) != 0)
        die ("%s: %s", opt_hostfile, strerror (errno));
    }
  smpi_calib_free (&c);
  plogp_free (&t);
  param_file_free (pf);
  poptFreeContext (con);
  return 0;
}
