/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-overlay.c: the MPI overlay checked against the flat reduction.
 *
 * Run under mpiexec with any number of ranks.  For every topology that
 * fits the number of ranks (flat, chains, k-nomial, balanced, generic,
 * topology files) and every filter, the reduction through the tree must
 * equal, exactly, both the reduction through the flat overlay and the
 * reduction computed at rank 0 from every rank's values (which are a
 * function of the rank), and so must the reduction in the do-not-wait
 * mode.  Then the do-not-wait packet order on a chain, multicast, the
 * timeout mode and the clock skew.  Rank 0 prints one line per check ("ok" or what differed) and
 * exits 1 if any failed.
 *
 * Usage: test-overlay [SKEW_LIMIT_US]   (default 5; 0 for no limit: in an
 * oversubscribed run a rank descheduled in the middle of the exchanges
 * makes any limit on the estimates a matter of chance, and only their
 * bounds are checked) */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "mpiutil.h"
#include "overlay.h"
#include "treefilter.h"
#include "treespec.h"

static int failures;

/* The values of rank R for filter KIND (m = 6: two align samples).  */
static void
values_of (int r, enum tf_kind kind, double *v)
{
  for (int j = 0; j < 6; j++)
    v[j] = (double) ((r * 7919 + j * 104729) % 1000) - 250;
  if (kind == TF_BIN)
    for (int j = 0; j < 6; j++)
      v[j] = (double) ((r + j) % 3) * 0.1;
  if (kind == TF_ALIGN)
    {
      /* {value, start, end}: binary fractions, so sums are exact.  */
      v[0] = r + 1;
      v[1] = (r % 4) * 0.5;
      v[2] = v[1] + 0.25 * (1 << (r % 3));
      v[3] = 2 * r;
      v[4] = 4;
      v[5] = 6;
    }
}

static void
report (const char *what, int ok)
{
  if (mpu_rank != 0)
    return;
  printf ("%s: %s\n", what, ok ? "ok" : "FAILED");
  if (!ok)
    failures++;
}

static int
same (const struct tf_buf *a, const struct tf_buf *b)
{
  if (a->len != b->len)
    return 0;
  for (size_t i = 0; i < a->len; i++)
    if (a->v[i] != b->v[i])
      return 0;
  return 1;
}

static const char *
read_all (const char *spec)
{
  /* Topology files of the tests are given inline after "file:".  */
  return treespec_file_path (spec);
}

static void
check_topology (const char *spec, struct overlay *flat)
{
  struct overlay ov;
  struct treespec_error err;
  /* "file:TEXT" here carries the file's text itself (no file needed).  */
  if (ov_build (&ov, spec, read_all (spec), MPI_COMM_WORLD, &err))
    {
      report (spec, 0);
      if (mpu_rank == 0)
        fprintf (stderr, "%s: %s\n", spec, err.msg);
      return;
    }
  for (const struct tf_info *f = tf_table; f->name; f++)
    {
      struct tf_params p = { 6, 0.1, 0, 1, 8 };
      double v[6];
      values_of (mpu_rank, f->kind, v);
      struct tf_buf a, b, d, want;
      tf_buf_init (&a);
      tf_buf_init (&b);
      tf_buf_init (&d);
      tf_buf_init (&want);
      struct ov_wave w = { 0, 0, 0, NULL, 0 }, wd = { 0, 0, 0, NULL, 0 };
      struct ov_sync nowait = { OV_DO_NOT_WAIT, 0 };
      ov_reduce (&ov, f->kind, &p, v, NULL, &a, &w);
      ov_reduce (flat, f->kind, &p, v, NULL, &b, NULL);
      /* Do Not Wait: the same result (every filter here combines
         exactly in any order), from one packet per other rank.  */
      ov_reduce (&ov, f->kind, &p, v, &nowait, &d, &wd);
      if (mpu_rank == 0)
        {
          /* The same reduction done at rank 0 alone, in rank order.  */
          struct tf_buf one;
          tf_buf_init (&one);
          for (int r = 0; r < mpu_size; r++)
            {
              values_of (r, f->kind, v);
              if (r == 0)
                tf_local (f->kind, &p, r, v, &want);
              else
                {
                  tf_local (f->kind, &p, r, v, &one);
                  tf_combine (f->kind, &p, &want, one.v, one.len);
                }
            }
          tf_finish (f->kind, &p, &want);
          tf_buf_free (&one);
        }
      char what[300];
      snprintf (what, sizeof what, "%.200s %s: tree = flat = direct = "
                "do-not-wait", spec, f->name);
      for (char *c = what; *c; c++)
        if (*c == '\n')
          *c = ' ';
      report (what, same (&a, &b) && same (&a, &want)
              && w.contributed == mpu_size && w.missing == 0
              && same (&d, &a) && wd.contributed == mpu_size
              && wd.missing == 0 && wd.packets == mpu_size - 1
              && w.packets == ov.nchildren);
      tf_buf_free (&a);
      tf_buf_free (&b);
      tf_buf_free (&d);
      tf_buf_free (&want);
    }
  ov_free (&ov);
}

int
main (int argc, char **argv)
{
  cli_init ("test-overlay", argc, argv);
  mpu_init (&argc, &argv);
  mpu_timeout (120);
  double skew_limit = argc > 1 ? atof (argv[1]) * 1e-6 : 5e-6;
  int n = mpu_size;

  struct overlay flat;
  struct treespec_error err;
  if (ov_build (&flat, "flat", NULL, MPI_COMM_WORLD, &err))
    mpu_die (1, "flat: %s", err.msg);

  /* Topologies that fit N ranks.  */
  char specs[16][200];
  int ns = 0;
  snprintf (specs[ns++], 200, "flat");
  snprintf (specs[ns++], 200, "k:2");
  snprintf (specs[ns++], 200, "k:3@%d", n);
  snprintf (specs[ns++], 200, "b:1^%d", n - 1 > 0 ? n - 1 : 1);
  if (n == 4)
    {
      snprintf (specs[ns++], 200, "b:3^1");
      snprintf (specs[ns++], 200, "g:1:2");
      snprintf (specs[ns++], 200, "g:2:1,0");
      snprintf (specs[ns++], 200, "file:0 => 3 ;\n3 => 1 2 ;");
    }
  if (n == 2)
    snprintf (specs[ns++], 200, "file:0 => 1 ;");
  for (int i = 0; i < ns; i++)
    if (n > 1 || strncmp (specs[i], "b:1^", 4) != 0)
      check_topology (specs[i], &flat);

  /* Ranks with several rows or none (the all-pairs shape): rank r gives
     r rows {r, j}; and links r -> d binned by distance |r - d| into
     equivalence classes (members r n + d), as logp-measure --classes
     would; through the chain, the deepest tree.  */
  {
    struct overlay ov;
    char chain[40];
    snprintf (chain, sizeof chain, n > 1 ? "b:1^%d" : "flat", n - 1);
    if (ov_build (&ov, chain, NULL, MPI_COMM_WORLD, &err))
      mpu_die (1, "%s: %s", chain, err.msg);
    struct tf_params p = { 2, 0, 0, 1, 0 };
    double *rows = calloc ((size_t) n * 2 + 1, sizeof (double));
    for (int j = 0; j < mpu_rank; j++)
      {
        rows[2 * j] = mpu_rank;
        rows[2 * j + 1] = j;
      }
    struct tf_buf mine, all, cls;
    tf_buf_init (&mine);
    tf_buf_init (&all);
    tf_buf_init (&cls);
    tf_concat_rows (&p, mpu_rank, rows, (size_t) mpu_rank, &mine);
    ov_reduce_packet (&ov, TF_CONCAT, &p, &mine, NULL, &all, NULL);
    for (int d = 0; d < n; d++)
      if (d != mpu_rank)
        tf_bin_add (&mine, abs (mpu_rank - d), 0, mpu_rank * n + d);
    struct tf_params q = { 1, 0, 0, 1, 0 };
    ov_reduce_packet (&ov, TF_BIN, &q, &mine, NULL, &cls, NULL);
    int ok = 1;
    if (mpu_rank == 0)
      {
        size_t k = 0;
        ok = all.len == (size_t) (n * (n - 1) / 2) * 3;
        for (int r = 0; r < n && ok; r++)
          for (int j = 0; j < r; j++, k += 3)
            if (all.v[k] != r || all.v[k + 1] != r || all.v[k + 2] != j)
              ok = 0;
        ok = ok && tf_bin_nclasses (cls.v, cls.len) == (size_t) (n - 1);
        size_t i = 0;
        for (int dist = 1; dist < n && ok; dist++)
          {
            ok = cls.v[i] == dist && cls.v[i + 1] == 2 * (n - dist);
            for (int m = 1; m < 2 * (n - dist) && ok; m++)
              ok = cls.v[i + 2 + m] > cls.v[i + 1 + m];
            i += 2 + (size_t) (2 * (n - dist));
          }
      }
    report ("rows per rank (concat) and link classes (bin)", ok);
    free (rows);
    tf_buf_free (&all);
    tf_buf_free (&cls);
    ov_free (&ov);
  }

  /* A spec that does not fit: every rank gets rank 0's error.  */
  {
    struct overlay ov;
    int rc = ov_build (&ov, "b:2^3", NULL, MPI_COMM_WORLD, &err);
    report ("b:2^3 refused on every rank",
            rc == -1 && strstr (err.msg, "makes a tree of 15 ranks") != NULL);
    if (mpu_rank == 0)
      printf ("  %s\n", err.msg);
  }

  /* The order of the packets at the root on a chain 0 - 1 - ... - n-1.
     Wait for all: one packet, from rank 1, that holds every rank.  Do
     Not Wait: n - 1 packets, in the order 1, 2, ..., n - 1, whatever the
     timing: every rank sends its own packet before it forwards any from
     below, and MPI keeps the order of one sender's messages.  Then a
     wait-for-all wave works after it.  */
  {
    char spec[32];
    snprintf (spec, sizeof spec, "b:1^%d", n > 1 ? n - 1 : 1);
    struct overlay ov;
    if (n > 1 && ov_build (&ov, spec, NULL, MPI_COMM_WORLD, &err) == 0)
      {
        struct tf_params q = { 1, 0, 0, 1, 0 };
        double one = 1;
        int *o1 = calloc ((size_t) n, sizeof *o1);
        int *o2 = calloc ((size_t) n, sizeof *o2);
        int *o3 = calloc ((size_t) n, sizeof *o3);
        struct ov_wave w1 = { 0, 0, 0, o1, n }, w2 = { 0, 0, 0, o2, n };
        struct ov_wave w3 = { 0, 0, 0, o3, n };
        struct ov_sync nowait = { OV_DO_NOT_WAIT, 0 };
        struct tf_buf s1, s2, s3;
        tf_buf_init (&s1);
        tf_buf_init (&s2);
        tf_buf_init (&s3);
        ov_reduce (&ov, TF_SUM, &q, &one, NULL, &s1, &w1);
        ov_reduce (&ov, TF_SUM, &q, &one, &nowait, &s2, &w2);
        ov_reduce (&ov, TF_SUM, &q, &one, NULL, &s3, &w3);
        int ordered = w2.packets == n - 1;
        for (int k = 0; k < n - 1 && ordered; k++)
          ordered = o2[k] == k + 1;
        if (mpu_rank == 0)
          {
            fprintf (stderr, "chain %s: wait-for-all %ld packet(s), "
                     "do-not-wait %ld, from", spec, w1.packets, w2.packets);
            for (long k = 0; k < w2.packets && k < n; k++)
              fprintf (stderr, " %d", o2[k]);
            fputc ('\n', stderr);
          }
        report ("chain: do-not-wait passes every rank's packet up alone, "
                "in rank order",
                mpu_rank != 0
                || (w1.packets == 1 && o1[0] == 1 && s1.v[0] == n
                    && ordered && s2.v[0] == n && w2.contributed == n
                    && w3.packets == 1 && s3.v[0] == n));
        free (o1);
        free (o2);
        free (o3);
        tf_buf_free (&s1);
        tf_buf_free (&s2);
        tf_buf_free (&s3);
        ov_free (&ov);
      }
    else
      report ("chain: do-not-wait passes every rank's packet up alone, "
              "in rank order", n == 1);
  }

  /* Multicast down a tree: every rank gets the root's packet; the
     reduction of what arrived proves it.  */
  {
    struct overlay ov;
    const char *spec = n == 4 ? "g:1:2" : "k:2";
    if (ov_build (&ov, spec, NULL, MPI_COMM_WORLD, &err))
      mpu_die (1, "%s: %s", spec, err.msg);
    struct tf_buf b;
    tf_buf_init (&b);
    if (mpu_rank == 0)
      for (int i = 0; i < 1000; i++)
        {
          double x = i * 0.5;
          tf_buf_append (&b, &x, 1);
        }
    ov_multicast (&ov, &b);
    double sum = 0;
    for (size_t i = 0; i < b.len; i++)
      sum += b.v[i];
    double v[2] = { sum, (double) b.len };
    struct tf_params p = { 2, 0, 0, 1, 0 };
    struct tf_buf mn, mx;
    tf_buf_init (&mn);
    tf_buf_init (&mx);
    ov_reduce (&ov, TF_MIN, &p, v, NULL, &mn, NULL);
    ov_reduce (&ov, TF_MAX, &p, v, NULL, &mx, NULL);
    report ("multicast reaches every rank",
            mpu_rank != 0 || (mn.len == 2 && mn.v[0] == 249750
                              && mx.v[0] == 249750 && mn.v[1] == 1000
                              && mx.v[1] == 1000));
    tf_buf_free (&b);
    tf_buf_free (&mn);
    tf_buf_free (&mx);

    /* Timeout mode: the last rank is late by 0.3 s, the others wait
       0.05 s per level; its value is counted missing, and its late packet
       is dropped by the next wave (which waits for all).  Late after a
       barrier: a rank that reached the wave more than 0.3 s after the
       last one started its sleep (descheduled, oversubscribed, under a
       sanitizer) would find its packet there.  */
    struct ov_sync sync = { OV_TIMEOUT, 0.05 }, all = { OV_WAIT_ALL, 0 };
    struct tf_params q = { 1, 0, 0, 1, 0 };
    double one = 1;
    struct tf_buf s1, s2;
    tf_buf_init (&s1);
    tf_buf_init (&s2);
    struct ov_wave w1 = { 0, 0, 0, NULL, 0 }, w2 = { 0, 0, 0, NULL, 0 };
    MPI_Barrier (MPI_COMM_WORLD);
    if (n > 1 && mpu_rank == n - 1)
      {
        struct timespec ts = { 0, 300000000L };
        nanosleep (&ts, NULL);
      }
    ov_reduce (&ov, TF_SUM, &q, &one, &sync, &s1, &w1);
    ov_reduce (&ov, TF_SUM, &q, &one, &all, &s2, &w2);
    if (mpu_rank == 0)
      fprintf (stderr, "timeout wave: sum %g, contributed %ld, missing %ld\n",
              s1.v[0], w1.contributed, w1.missing);
    report ("timeout counts the missing, next wave complete",
            mpu_rank != 0
            || (n == 1 ? s1.v[0] == 1 && w1.missing == 0
                : (w1.missing >= 1 && w1.contributed + w1.missing == n
                   && s1.v[0] == w1.contributed && s2.v[0] == n
                   && w2.missing == 0)));
    tf_buf_free (&s1);
    tf_buf_free (&s2);
    ov_free (&ov);
  }

  /* Clock skew.  With CLOCK_MONOTONIC, one clock on one machine, the
     estimates must be zero within their bounds and within a few
     microseconds.  MPI_Wtime is not one clock here (Open MPI counts from
     each process's start): its true offsets are known on this machine
     (MPI_Wtime minus CLOCK_MONOTONIC, read together on every rank and
     gathered with concat), and the estimates must match them within the
     bounds.  */
  {
    const char *spec = n == 4 ? "g:1:2" : "k:2";
    struct overlay ov;
    if (ov_build (&ov, spec, NULL, MPI_COMM_WORLD, &err))
      mpu_die (1, "%s: %s", spec, err.msg);
    for (int which = 0; which < 2; which++)
      {
        double *off = calloc ((size_t) n, sizeof (double));
        double *bd = calloc ((size_t) n, sizeof (double));
        double *doff = calloc ((size_t) n, sizeof (double));
        double *dbd = calloc ((size_t) n, sizeof (double));
        double *truth = calloc ((size_t) n, sizeof (double));
        ov.clock = which ? ov_clock_mpi : ov_clock_monotonic;
        ov_clockskew (&ov, 50, off, bd);
        ov_clockskew_direct (&ov, 50, doff, dbd);
        /* True offset of this rank's clock against CLOCK_MONOTONIC.  */
        double a = ov.clock (), m = ov_clock_monotonic (), b = ov.clock ();
        double mine = (a + b) / 2 - m;
        struct tf_params p = { 1, 0, 0, 1, 0 };
        struct tf_buf all;
        tf_buf_init (&all);
        ov_reduce (&flat, TF_CONCAT, &p, &mine, NULL, &all, NULL);
        if (mpu_rank == 0)
          {
            const char *name = which ? "MPI_Wtime" : "CLOCK_MONOTONIC";
            double worst = 0;
            int within = 1;
            for (int r = 0; r < n; r++)
              {
                truth[r] = all.v[2 * r + 1] - all.v[1];
                fprintf (stderr, "%s skew rank %d: tree %.3f us (bound "
                         "%.3f), direct %.3f us (bound %.3f), true %.3f us\n",
                         name, r, off[r] * 1e6, bd[r] * 1e6, doff[r] * 1e6,
                         dbd[r] * 1e6, truth[r] * 1e6);
                if (fabs (off[r] - truth[r]) > bd[r] + 0.2e-6
                    || fabs (doff[r] - truth[r]) > dbd[r] + 0.2e-6)
                  within = 0;
                if (fabs (off[r]) > worst)
                  worst = fabs (off[r]);
              }
            char what[100];
            snprintf (what, sizeof what, "%s skew estimates within their "
                      "bounds of the truth", name);
            report (what, within);
            if (!which && skew_limit > 0)
              report ("CLOCK_MONOTONIC skew within the limit of zero",
                      worst <= skew_limit);
          }
        tf_buf_free (&all);
        free (off);
        free (bd);
        free (doff);
        free (dbd);
        free (truth);
      }
    ov_free (&ov);
  }

  ov_free (&flat);
  int status = failures ? 1 : 0;
  mpu_finalize ();
  return status;
}
