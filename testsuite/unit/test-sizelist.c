/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-sizelist: sweeps FROM:TO:xFACTOR, FROM:TO:+STEP and lists
   (common/stream/sizelist.c).  */
#include <config.h>
#include <stdlib.h>
#include <string.h>

#include "sizelist.h"
#include "unit.h"

/* Does TEXT parse to exactly the N values WANT?  */
static int
gives (const char *text, const int64_t *want, size_t n)
{
  int64_t *v;
  size_t cnt;
  char err[SIZELIST_ERRSIZE];
  if (sizelist_parse (text, INT64_C (1) << 40, &v, &cnt, err) != 0)
    {
      fprintf (stderr, "'%s': %s\n", text, err);
      return 0;
    }
  int ok = cnt == n && (n == 0 || memcmp (v, want, n * sizeof *v) == 0);
  free (v);
  return ok;
}

/* Is TEXT refused, with a message containing WHAT?  */
static int
refused (const char *text, int64_t max, const char *what)
{
  int64_t *v = (int64_t *) 1;
  size_t cnt = 7;
  char err[SIZELIST_ERRSIZE];
  int rc = sizelist_parse (text, max, &v, &cnt, err);
  if (rc == 0)
    free (v);
  if (rc == 0 || v != NULL || cnt != 0 || !strstr (err, what))
    {
      fprintf (stderr, "'%s': rc %d, message '%s'\n", text, rc, err);
      return 0;
    }
  return 1;
}

int
main (void)
{
  {
    int64_t w[] = { 0, 1, 2, 4, 8, 16 };
    CHECK (gives ("0:16:x2", w, 6));
    CHECK (gives ("0:16", w, 6));
    CHECK (gives ("0:31:x2", w, 6));
  }
  {
    int64_t w[] = { 0, 1, 4, 16, 64 };
    CHECK (gives ("0:64:x4", w, 5));
  }
  {
    int64_t w[] = { 3, 6, 12 };
    CHECK (gives ("3:12:x2", w, 3));
  }
  {
    /* A decimal factor: rounded, and always increasing.  */
    int64_t w[] = { 1, 2, 3, 4, 5, 8, 11, 17 };
    CHECK (gives ("1:20:x1.5", w, 8));
  }
  {
    int64_t w[] = { 0, 100, 200, 300 };
    CHECK (gives ("0:350:+100", w, 4));
    CHECK (gives ("0:300:+100", w, 4));
  }
  {
    int64_t w[] = { 5 };
    CHECK (gives ("5:5:x2", w, 1));
    CHECK (gives ("5", w, 1));
  }
  {
    int64_t w[] = { 8, 0, 4096 };
    CHECK (gives ("8,0,4096", w, 3));
  }
  {
    /* The default sweep of comet-run: 0, then powers of two to 4 MiB.  */
    int64_t *v;
    size_t n;
    char err[SIZELIST_ERRSIZE];
    CHECK (sizelist_parse ("0:4194304:x2", 4194304, &v, &n, err) == 0);
    CHECK (n == 24);
    CHECK (v[0] == 0 && v[1] == 1 && v[23] == 4194304);
    free (v);
  }
  {
    /* The forms of msgperf(7): sizes in powers of 1024, FROM:TO:STEP
       adds, FROM:TO doubles, items mixed in one list.  */
    int64_t k[] = { 1024, 65536 };
    CHECK (gives ("1K,64K", k, 2));
    int64_t m[] = { 1048576, 2097152, 1073741824 };
    CHECK (gives ("1M,2M,1G", m, 3));
    int64_t a[] = { 0, 16, 32, 48, 64 };
    CHECK (gives ("0:64:16", a, 5));
    CHECK (gives ("0:64:+16", a, 5));
    int64_t d[] = { 1, 2, 4, 8 };
    CHECK (gives ("1:8", d, 4));
    int64_t x[] = { 4, 16, 64 };
    CHECK (gives ("4:64:x4", x, 3));
    int64_t r[] = { 1024, 2048, 4096, 3 };
    CHECK (gives ("1K:4K,3", r, 4));
    int64_t h[] = { 1536 };
    CHECK (gives ("1.5K", h, 1));
  }
  {
    /* One size, and real lists.  */
    int64_t v;
    char err[SIZELIST_ERRSIZE];
    CHECK (size_parse ("1M", INT64_C (1) << 40, &v, err) == 0
           && v == 1048576);
    CHECK (size_parse ("1Q", 100, &v, err) != 0
           && strstr (err, "unknown suffix 'Q'"));
    CHECK (size_parse ("2K", 100, &v, err) != 0
           && strstr (err, "larger than 100"));
    double *d;
    size_t n;
    CHECK (numlist_parse ("0.5:2:0.5", 0, 0, &d, &n, err) == 0 && n == 4
           && d[0] == 0.5 && d[3] == 2);
    free (d);
    CHECK (numlist_parse ("1:8", 0, 0, &d, &n, err) == 0 && n == 4
           && d[3] == 8);
    free (d);
    CHECK (numlist_parse ("-2,1e-3", 0, 0, &d, &n, err) == 0 && n == 2
           && d[0] == -2 && d[1] == 1e-3);
    free (d);
    CHECK (numlist_parse ("-2:8", 0, 0, &d, &n, err) != 0
           && strstr (err, "negative FROM"));
  }
  CHECK (refused ("16:8:x2", 100, "starts after its end (FROM > TO)"));
  CHECK (refused ("1K:4", 10000, "FROM > TO"));
  CHECK (refused ("4Q", 100, "unknown suffix 'Q'"));
  CHECK (refused ("K", 100, "no digits"));
  CHECK (refused ("0:8:", 100, "no step"));
  CHECK (refused ("0:8:0", 100, "step of '0:8:0' is not larger than 0"));
  CHECK (refused ("0:8:x1", 100, "not larger than 1"));
  CHECK (refused ("0:8:x0.5", 100, "not larger than 1"));
  CHECK (refused ("0:8:xnan", 100, "invalid number 'nan'"));
  CHECK (refused ("0:8:+0", 100, "not larger than 0"));
  CHECK (refused ("0:8:*2", 100, "xFACTOR, +STEP or STEP"));
  CHECK (refused ("-1:8", 100, "negative"));
  CHECK (refused ("0:200", 100, "larger than 100"));
  CHECK (refused ("0:1e3", 10000, "invalid whole number"));
  CHECK (refused ("a:8", 100, "invalid whole number"));
  CHECK (refused ("1,,2", 100, "empty value"));
  CHECK (refused ("1,2,", 100, "empty value"));
  CHECK (refused ("", 100, "empty list"));
  CHECK (refused ("0:1000000:+1", 2000000, "more than"));
  return unit_done ();
}
