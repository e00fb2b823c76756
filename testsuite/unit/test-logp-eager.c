/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-logp-eager: the search for the eager limit S (logp_eager.h) on
   synthetic receivers whose limit is known, and the wait decision.  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "logp_eager.h"
#include "unit.h"

/* A receiver with limit S: sizes above it wait; sizes in [gap_lo,
   gap_hi] wait too (a pool that runs dry); ERROR_AT: the probe fails
   there.  */
struct fake
{
  int64_t S, gap_lo, gap_hi, error_at;
  size_t calls;
  int64_t largest;   /* largest size probed */
  int64_t lie_at;    /* at this size, the first LIES calls answer */
  int lies;          /* wrongly (a descheduled sender) */
};

static int
probe (int64_t bytes, void *vctx)
{
  struct fake *f = vctx;
  f->calls++;
  if (bytes > f->largest)
    f->largest = bytes;
  if (bytes == f->error_at)
    return -7;
  int w = bytes > f->S || (bytes >= f->gap_lo && bytes <= f->gap_hi);
  if (bytes == f->lie_at && f->lies > 0)
    {
      f->lies--;
      return !w;
    }
  return w;
}

static struct logp_eager
run (int64_t S, int64_t min, int64_t max, struct fake *f)
{
  *f = (struct fake) { S, -1, -2, -1, 0, 0, -1, 0 };
  struct logp_eager e;
  CHECK (logp_eager_search (min, max, probe, f, &e) == 0);
  /* two probes a size when they agree */
  CHECK (2 * e.probes == f->calls && e.disputed == 0);
  return e;
}

int
main (void)
{
  struct fake f;
  struct logp_eager e;

  /* Open MPI's TCP limit 4096 with a 96-byte header: S = 4000.  Doubling
     1, 2, ..., 4096 (13 probes), halving 2048..4096 (11).  */
  e = run (4000, 1, 1 << 20, &f);
  CHECK (e.S == 4000 && e.first_wait == 4001);
  CHECK (e.probes == 24);
  CHECK (f.largest == 4096);   /* never beyond the first size that waits */

  /* Every power of two at the limit.  */
  for (int k = 0; k < 20; k++)
    {
      e = run ((int64_t) 1 << k, 1, 1 << 20, &f);
      CHECK (e.S == (int64_t) 1 << k && e.first_wait == e.S + 1);
      e = run (((int64_t) 1 << k) - 1, 1, 1 << 20, &f);
      CHECK (e.S == ((int64_t) 1 << k) - 1 && e.first_wait == e.S + 1);
    }

  /* Nothing waits up to the largest size: S is that size, a lower
     bound; a largest size that is no power of two is probed too.  */
  e = run (1 << 30, 1, 100000, &f);
  CHECK (e.S == 100000 && e.first_wait == -1);
  CHECK (f.largest == 100000 && e.probes == 18);
  e = run (99999, 1, 100000, &f);
  CHECK (e.S == 99999 && e.first_wait == 100000);

  /* Even the smallest size waits.  */
  e = run (0, 1, 1 << 20, &f);
  CHECK (e.S == 0 && e.first_wait == 1 && e.probes == 1);
  e = run (10, 64, 1 << 20, &f);
  CHECK (e.S == 63 && e.first_wait == 64 && e.probes == 1);

  /* One size only.  */
  e = run (5, 8, 8, &f);
  CHECK (e.S == 7 && e.first_wait == 8);
  e = run (8, 8, 8, &f);
  CHECK (e.S == 8 && e.first_wait == -1 && e.probes == 1);

  /* A band that waits below the limit (shared memory: 2048 to 4000 wait
     on a busy receiver, 4001 on for good): the doubling meets the band
     first, and S is the last eager size below it.  */
  f = (struct fake) { 65535, 2048, 4000, -1, 0, 0, -1, 0 };
  CHECK (logp_eager_search (1, 1 << 20, probe, &f, &e) == 0);
  CHECK (e.S == 2047 && e.first_wait == 2048);

  /* A failing probe ends the search with its value.  */
  f = (struct fake) { 4000, -1, -2, 3072, 0, 0, -1, 0 };
  CHECK (logp_eager_search (1, 1 << 20, probe, &f, &e) == -7);
  f = (struct fake) { 4000, -1, -2, 64, 0, 0, -1, 0 };
  CHECK (logp_eager_search (1, 1 << 20, probe, &f, &e) == -7);
  CHECK (f.calls == 13);   /* 1, 2, ..., 32 twice each, 64 once */

  /* One wrong answer is outvoted.  S = 4000: halving from 2048..4096,
     3072 is probed first; it once looks like a wait, and S is still
     found, with a third probe there.  The same for the first size that
     waits looking eager once.  */
  f = (struct fake) { 4000, -1, -2, -1, 0, 0, 3072, 1 };
  CHECK (logp_eager_search (1, 1 << 20, probe, &f, &e) == 0);
  CHECK (e.S == 4000 && e.first_wait == 4001 && e.probes == 24);
  CHECK (e.disputed == 1 && f.calls == 49);
  f = (struct fake) { 4000, -1, -2, -1, 0, 0, 4096, 1 };
  CHECK (logp_eager_search (1, 1 << 20, probe, &f, &e) == 0);
  CHECK (e.S == 4000 && e.disputed == 1 && f.calls == 49);
  /* Two wrong answers in a row are not: 3072 then waits, and S is the
     size below it (the limit of the vote).  */
  f = (struct fake) { 4000, -1, -2, -1, 0, 0, 3072, 2 };
  CHECK (logp_eager_search (1, 1 << 20, probe, &f, &e) == 0);
  CHECK (e.S == 3071 && e.first_wait == 3072 && e.disputed == 0);

  /* The decision: about B more with 2B of busy receiver waits.  */
  CHECK (logp_eager_waited (5.0, 5.2, 200) == 0);
  CHECK (logp_eager_waited (205.0, 404.0, 200) == 1);
  CHECK (logp_eager_waited (112.0, 312.0, 200) == 1);   /* partly */
  CHECK (logp_eager_waited (8.0, 107.0, 200) == 0);     /* below half */
  CHECK (logp_eager_waited (8.0, 109.0, 200) == 1);
  CHECK (logp_eager_waited (NAN, 400.0, 200) == 0);
  CHECK (logp_eager_waited (4.0, NAN, 200) == 0);

  return unit_done ();
}
