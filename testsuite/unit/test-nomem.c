/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-nomem.c: the models report out of memory instead of ending the
 * process.
 *
 * Without interposing on malloc: the test lowers its own address-space
 * limit (RLIMIT_AS) to what it uses now plus a little, then asks a model
 * for more than that (a tree of 2^24 ranks, a 4-million-token
 * expression, a fit of 4 million points ...).  malloc then returns NULL
 * and the model must return its out-of-memory status with the documented
 * message, leave its outputs as documented, and let the test go on.
 * The same limit refuses the operation graph's reservation (dag_expect),
 * a guess from the size of a text, which must then cost nothing but
 * the arrays' growth as before.
 *
 * Exits 77 (skipped) where the limit cannot work: under AddressSanitizer
 * (its shadow memory needs terabytes of address space) and under valgrind
 * (its own allocator), or when /proc/self/statm or setrlimit is missing.
 * "test-nomem --probe" only makes that check.  */
#include <config.h>

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clockskew.h"
#include "dag.h"
#include "hyperexpr.h"
#include "hyperfit.h"
#include "hyperinvert.h"
#include "logp_params.h"
#include "treecost.h"
#include "treefilter.h"
#include "treespec.h"
#include "unit.h"

static struct rlimit saved;

/* Bytes of address space in use now.  */
static size_t
in_use (void)
{
  FILE *fp = fopen ("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (!fp)
    return 0;
  if (fscanf (fp, "%lu", &pages) != 1)
    pages = 0;
  fclose (fp);
  return (size_t) pages * (size_t) sysconf (_SC_PAGESIZE);
}

/* Allow only SLACK more bytes of address space than now.  */
static void
limit (size_t slack)
{
  struct rlimit r = saved;
  r.rlim_cur = in_use () + slack;
  if (setrlimit (RLIMIT_AS, &r) != 0)
    {
      perror ("test-nomem: setrlimit");
      exit (1);
    }
}

static void
unlimit (void)
{
  if (setrlimit (RLIMIT_AS, &saved) != 0)
    {
      perror ("test-nomem: setrlimit");
      exit (1);
    }
}

#define MB ((size_t) 1 << 20)

static void
test_treespec (void)
{
  struct tree t;
  struct treespec_error err;

  /* "flat" of 2^24 ranks: the parent array (64 MB) fits, the tree's
     arrays (four more) do not: build() frees what it got.  */
  limit (100 * MB);
  int rc = treespec_parse ("flat", TREE_MAX_RANKS, &t, &err);
  unlimit ();
  CHECK (rc == -1);
  CHECK (err.nomem == 1 && err.line == 0 && err.col == 0);
  CHECK_STR (err.msg, "out of memory while building a tree of 16777216 "
             "ranks");
  CHECK (t.n == 0 && t.parent == NULL && t.child == NULL);

  /* b:2^23 makes 2^24 - 1 ranks: not even the parent array fits.  */
  limit (16 * MB);
  rc = treespec_parse ("b:2^23", 0, &t, &err);
  unlimit ();
  CHECK (rc == -1 && err.nomem == 1);
  CHECK_STR (err.msg, "out of memory while building a tree of 16777215 "
             "ranks");

  /* k:2@N and a topology file naming a large rank.  */
  limit (16 * MB);
  rc = treespec_parse ("k:2@16777216", 0, &t, &err);
  unlimit ();
  CHECK (rc == -1 && err.nomem == 1);
  CHECK_STR (err.msg, "out of memory while building a tree of 16777216 "
             "ranks");
  limit (16 * MB);
  rc = treespec_parse_text ("0 => 1 16000000;\n", 0, &t, &err);
  unlimit ();
  CHECK (rc == -1 && err.nomem == 1 && err.line == 0);
  CHECK_STR (err.msg, "out of memory while reading a topology file with "
             "rank 16000000");

  /* A spec error is still a spec error, with nomem cleared.  */
  rc = treespec_parse ("b:2^x", 0, &t, &err);
  CHECK (rc == -1 && err.nomem == 0 && err.col == 5);

  /* And with the memory back, the same trees build.  */
  rc = treespec_parse ("k:2@1024", 0, &t, &err);
  CHECK (rc == 0 && t.n == 1024);
  tree_free (&t);
}

/* The walks of treecost and clockskew need a queue of the tree's size.  */
static void
test_tree_walks (void)
{
  struct tree t;
  struct treespec_error err;
  /* b:2^21: 4194303 ranks, 16 MB per array.  */
  CHECK (treespec_parse ("b:2^21", 0, &t, &err) == 0);
  if (t.n != 4194303)
    return;
  struct tree_cost c = { -1, -1, -1 };
  limit (2 * MB);
  int rc = tree_bcast_cost (&t, 1, 1, 1, &c, NULL);
  unlimit ();
  CHECK (rc == -1 && c.latency == -1 && c.last == -1);
  CHECK (tree_bcast_cost (&t, 1, 10, 100, &c, NULL) == 0);
  CHECK_NEAR (c.latency, 21 * (2 * 100 + 2 * 10 + 1), 0);

  double *local = calloc ((size_t) t.n, sizeof *local);
  double *global = malloc ((size_t) t.n * sizeof *global);
  CHECK (local && global);
  if (local && global)
    {
      global[0] = -1;
      limit (2 * MB);
      rc = cs_accumulate (&t, local, NULL, global, NULL);
      unlimit ();
      CHECK (rc == -1 && global[0] == -1);
      CHECK (cs_accumulate (&t, local, NULL, global, NULL) == 0
             && global[0] == 0 && global[t.n - 1] == 0);
    }
  free (local);
  free (global);
  tree_free (&t);
}

static void
test_treefilter (void)
{
  struct tf_buf b;
  tf_buf_init (&b);
  double one = 1;
  CHECK (tf_buf_append (&b, &one, 1) == 0);
  limit (8 * MB);
  int rc = tf_buf_reserve (&b, 64 * MB / sizeof (double));
  unlimit ();
  CHECK (rc == -1 && b.len == 1 && b.v[0] == 1 && b.cap == 16);

  /* tf_local and tf_concat_rows: 4 M values to copy (32 MB).  */
  size_t n = 4 * MB;
  double *vals = calloc (n, sizeof *vals);
  CHECK (vals != NULL);
  if (vals)
    {
      struct tf_params p;
      memset (&p, 0, sizeof p);
      p.m = n;
      limit (8 * MB);
      const char *e1 = tf_local (TF_SUM, &p, 0, vals, &b);
      const char *e2 = tf_concat_rows (&p, 0, vals, 1, &b);
      unlimit ();
      CHECK (e1 == tf_nomem && e2 == tf_nomem);
      CHECK_STR (tf_nomem, "out of memory while building a packet");

      /* tf_finish sorts a copy of the records: 2 M records {rank, v}
         (32 MB) need 64 MB more.  */
      struct tf_params q;
      memset (&q, 0, sizeof q);
      q.m = 1;
      CHECK (tf_concat_rows (&q, 3, vals, n / 2, &b) == NULL);
      size_t len = b.len;
      limit (8 * MB);
      const char *e3 = tf_finish (TF_CONCAT, &q, &b);
      unlimit ();
      CHECK (e3 == tf_nomem && b.len == len && b.v[0] == 3);
      CHECK (tf_finish (TF_CONCAT, &q, &b) == NULL && b.len == len);
    }
  free (vals);
  tf_buf_free (&b);

  /* A class list of one class with 4 M members (32 MB): adding a member
     builds a merged copy, which does not fit; the list is kept.  */
  struct tf_buf cl;
  tf_buf_init (&cl);
  size_t members = 4 * MB - 2;
  CHECK (tf_buf_reserve (&cl, members + 2) == 0);
  if (cl.cap >= members + 2)
    {
      cl.v[0] = 5;
      cl.v[1] = (double) members;
      for (size_t i = 0; i < members; i++)
        cl.v[2 + i] = (double) i;
      cl.len = members + 2;
      double *before = cl.v;
      limit (8 * MB);
      rc = tf_bin_add (&cl, 1, 0, 7);
      unlimit ();
      CHECK (rc == -1 && cl.v == before && cl.len == members + 2
             && cl.v[0] == 5);
      CHECK (tf_bin_add (&cl, 1, 0, 7) == 0 && cl.len == members + 5
             && cl.v[0] == 1 && cl.v[3] == 5);
    }
  tf_buf_free (&cl);

  /* An aligner of 2^26 inputs.  */
  struct tf_aligner a;
  limit (8 * MB);
  int ra = tf_aligner_init (&a, (size_t) 1 << 26, 0, 1);
  unlimit ();
  CHECK (ra == -1 && a.ninputs == 0 && a.in == NULL);
  tf_aligner_free (&a);
}

static void
test_hyperexpr (void)
{
  /* "1+1+...+1": 4 M tokens of some 40 bytes, far over the limit.  */
  size_t terms = 2 * MB;
  char *text = malloc (2 * terms + 1);
  CHECK (text != NULL);
  if (!text)
    return;
  for (size_t i = 0; i < terms; i++)
    {
      text[2 * i] = '1';
      text[2 * i + 1] = '+';
    }
  text[2 * terms - 1] = '\0';
  struct hexpr_error err;
  memset (&err, 0, sizeof err);
  limit (8 * MB);
  struct hexpr *e = hexpr_parse (text, &err);
  unlimit ();
  CHECK (e == NULL && err.nomem == 1 && err.line == 0 && err.col == 0);
  CHECK_STR (err.msg, "out of memory while parsing the expression");
  hexpr_free (e);
  free (text);

  /* A syntax error clears the flag.  */
  e = hexpr_parse ("cb(1,", &err);
  CHECK (e == NULL && err.nomem == 0 && err.line == 1);
}

static void
test_hyperfit (void)
{
  size_t n = 4 * MB;
  double *x = malloc (n * sizeof *x), *t = malloc (n * sizeof *t);
  CHECK (x && t);
  if (x && t)
    {
      for (size_t i = 0; i < n; i++)
        {
          x[i] = (double) i;
          t[i] = 5 + 2 * (double) i;
        }
      struct hfit_options o = { HFIT_LINEAR, HFIT_WEIGHT_NONE };
      struct hfit_result r[4];
      double breaks[4];
      size_t k = 0, bad = 9;
      limit (8 * MB);
      enum hfit_status s1 = hfit_fit (x, t, n, &o, &r[0]);
      enum hfit_status s2 = hfit_segments_search (x, t, n, 0, 3, &o, &k,
                                                  breaks, r);
      enum hfit_status s3 = hfit_segments_at (x, t, n, breaks, 0, &o, r,
                                              &bad);
      unlimit ();
      CHECK (s1 == HFIT_NO_MEMORY && s2 == HFIT_NO_MEMORY
             && s3 == HFIT_NO_MEMORY && bad == 0 && k == 0);
      CHECK_STR (hfit_strerror (HFIT_NO_MEMORY),
                 "out of memory while fitting");
    }
  free (x);
  free (t);
}

static void
test_hyperinvert (void)
{
  size_t m = MB;   /* 1 M observations of 48 bytes */
  struct hinv_obs *obs = malloc (m * sizeof *obs);
  CHECK (obs != NULL);
  if (!obs)
    return;
  for (size_t j = 0; j < m; j++)
    {
      memset (&obs[j], 0, sizeof obs[j]);
      obs[j].n = 2 + (double) (j % 64);
      obs[j].a = 1000;
      obs[j].b = 1;
    }
  struct hinv_options opt = { HINV_ETHERNET, 0, 0.05 };
  struct hinv_result res;
  limit (4 * MB);
  int rc = hinv_solve (obs, m, &opt, &res);
  unlimit ();
  CHECK (rc == -1 && res.nnotes == 1);
  CHECK_STR (res.note[0], "out of memory while solving for the blocks of "
             "1048576 observations");
  free (obs);
}

static void
test_logp (void)
{
  size_t n = MB / 4;   /* 256 K rows of 128 bytes */
  struct logp_row *rows = calloc (n, sizeof *rows);
  CHECK (rows != NULL);
  if (!rows)
    return;
  for (size_t i = 0; i < n; i++)
    {
      rows[i].bytes = (int64_t) i + 1;
      rows[i].g.med = 1 + (double) i;
      rows[i].rtt.med = 10 + (double) i;
    }
  size_t nseg = 7;
  limit (MB);
  int64_t from = logp_last_segment (rows, n, 6, &nseg);
  unlimit ();
  CHECK (from == -1 && nseg == 0);
  free (rows);
}

/* With --probe, only say whether the limit can work here (0) or not
   (77), for groups that lower it around a program.  */
/* Operations 0 .. N - 1 of D as test_dag_expect adds them: a
   computation of V on processor V % 7, named NAME, from line V + 1, and
   a dependency on the one before.  */
static void
add_ops (struct dag *d, int32_t n, int32_t name)
{
  for (int32_t v = (int32_t) d->n; v < n; v++)
    {
      dag_add_calc (d, v % 7, v, name, v + 1);
      if (v)
        dag_add_edge (d, v - 1, v, DAG_REQUIRES);
    }
}

static int
ops_ok (const struct dag *d, int32_t n, int32_t name)
{
  if (d->n != (size_t) n || d->ne != (size_t) (n - 1))
    return 0;
  for (int32_t v = 0; v < n; v++)
    if (d->node[v].op != DAG_CALC || d->node[v].proc != v % 7
        || d->node[v].u.work != v || dag_node_name (d, v) != name
        || dag_node_line (d, v) != v + 1
        || (v && (d->efrom[v - 1] != v - 1 || d->eto[v - 1] != v)))
      return 0;
  return 1;
}

/* The reservation of dag_expect is a guess: refused, it leaves the
   arrays to grow as they did without it.  */
static void
test_dag_expect (void)
{
  struct dag d;
  dag_init (&d, "test");
  int32_t x = dag_intern (&d, "x", 1);
  /* 2^28 operations and dependencies: 6 GB and 2.3 GB, refused */
  limit (64 * MB);
  dag_expect (&d, (size_t) 1 << 28, (size_t) 1 << 28);
  int refused = !d.expected && d.cap == 0 && d.ecap == 0;
  add_ops (&d, 200000, x);
  unlimit ();
  CHECK (refused);
  CHECK (ops_ok (&d, 200000, x));
  dag_free (&d);

  /* Room for 3 million operations (72 MB) but not then for their input
     lines (12 MB more): the arrays are brought down to the operations
     they hold and a little more (dag_node_room), and grow from there.  */
  dag_init (&d, "test");
  x = dag_intern (&d, "x", 1);
  limit (80 * MB);
  dag_expect (&d, 3000000, 0);
  int granted = d.expected && d.cap == 3000000;
  add_ops (&d, 300000, x);
  unlimit ();
  CHECK (granted);
  CHECK (!d.expected && d.cap >= 300000 && d.cap < 3000000);
  CHECK (ops_ok (&d, 300000, x));
  dag_free (&d);
}

int
main (int argc, char **argv)
{
  int probe = argc > 1 && strcmp (argv[1], "--probe") == 0;
#ifdef UNIT_LSAN
  puts ("test-nomem: skipped under AddressSanitizer");
  return 77;
#endif
  const char *pre = getenv ("LD_PRELOAD");
  if (pre && strstr (pre, "vgpreload"))
    {
      puts ("test-nomem: skipped under valgrind");
      return 77;
    }
  if (getrlimit (RLIMIT_AS, &saved) != 0 || in_use () == 0)
    {
      puts ("test-nomem: skipped: no RLIMIT_AS or /proc/self/statm");
      return 77;
    }
  if (probe)
    return 0;
#ifdef M_MMAP_THRESHOLD
  /* Large blocks from mmap, returned to the system on free: a freed
     block cannot satisfy the next large request within the limit.  */
  mallopt (M_MMAP_THRESHOLD, 64 * 1024);
#endif
  setvbuf (stdout, NULL, _IONBF, 0);
  setvbuf (stderr, NULL, _IONBF, 0);
  test_treespec ();
  test_tree_walks ();
  test_treefilter ();
  test_hyperexpr ();
  test_hyperfit ();
  test_hyperinvert ();
  test_logp ();
  test_dag_expect ();
  return unit_done ();
}
