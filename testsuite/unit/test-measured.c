/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-measured: measured values printed with the digits they have
   (num_format_measured), the step of a clock from its intervals
   (timerstep.c), and the layout of the message buffers (msgbuf.c).  */
#include <config.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "cpuwait.h"
#include "msgbuf.h"
#include "num.h"
#include "timerstep.h"
#include "unit.h"

static const char *
fmt (double v, double q, int sig)
{
  static char buf[NUM_BUFSIZE];
  int n = num_format_measured (v, q, sig, buf);
  double back;
  CHECK ((size_t) n == strlen (buf));
  CHECK (num_is_na (buf, (size_t) n)
         || num_parse (buf, (size_t) n, &back) == NUM_OK);
  return buf;
}

static void
check_format (void)
{
  /* Float noise of timer differences, to the 0.01 us resolution.  */
  CHECK_STR (fmt (0.029999999999659206, 0.01, -1), "0.03");
  CHECK_STR (fmt (0.021000000667060776, 0.01, -1), "0.02");
  CHECK_STR (fmt (0.29999999977080694, 0.01, -1), "0.3");
  CHECK_STR (fmt (78.41234567, 0.001, -1), "78.412");
  CHECK_STR (fmt (12, 0.01, -1), "12");
  /* A resolution that is not a power of ten: its decade.  */
  CHECK_STR (fmt (0.037, 0.02, -1), "0.04");
  CHECK_STR (fmt (0.0374, 0.0004, -1), "0.0374");
  /* Coarse timers: whole microseconds, tens.  */
  CHECK_STR (fmt (12345.6, 1, -1), "12346");
  CHECK_STR (fmt (12345.6, 10, -1), "12350");
  CHECK_STR (fmt (12344.9, 10, -1), "12340");
  /* Nothing left is zero, never -0.  */
  CHECK_STR (fmt (0.004, 0.01, -1), "0");
  CHECK_STR (fmt (-0.004, 0.01, -1), "0");
  CHECK_STR (fmt (-0.238, 0.01, -1), "-0.24");
  /* Derived values: 6 significant digits.  */
  CHECK_STR (fmt (0.05778403755868515, 0, NUM_DERIVED_DIGITS), "0.057784");
  CHECK_STR (fmt (0.601223606029071, 0, 6), "0.601224");
  CHECK_STR (fmt (-0.23822360606149223, 0, 6), "-0.238224");
  CHECK_STR (fmt (1234567.89, 0, 6), "1234570");
  CHECK_STR (fmt (3.6e-4, 0, 6), "0.00036");
  CHECK_STR (fmt (1.23456789e-9, 0, 6), "0.00000000123457");
  /* The coarser of the two bounds wins.  */
  CHECK_STR (fmt (78412.3456, 0.001, 6), "78412.3");
  CHECK_STR (fmt (0.123456, 0.01, 6), "0.12");
  /* Out of plain notation's reach, NA, no bound at all.  */
  CHECK_STR (fmt (1e20, 0.01, -1), "1e+20");
  CHECK_STR (fmt (1.23456789e-40, 0, 6), "1.23457e-40");
  CHECK_STR (fmt (NAN, 0.01, -1), "NA");
  /* Zero with a digit count only (comet-run's MBps of 0 bytes).  */
  CHECK_STR (fmt (0, 0, 6), "0");
  CHECK_STR (fmt (-0.0, 0, 6), "0");
  /* comet-run: a sample is one timer step / (repeat * divisor).  */
  CHECK_STR (fmt (0.3608337948905105, 0.01 / (137 * 2), -1), "0.36083");
  CHECK_STR (fmt (0.42456007226277437, 0.01 / 137, -1), "0.42456");
  CHECK_STR (fmt (INFINITY, 0, 6), "NA");
  CHECK_STR (fmt (0.1 + 0.2, 0, -1), "0.30000000000000004");
  CHECK_STR (fmt (0, 0.01, 6), "0");
}

/* A clock whose readings count in UNIT_NS nanoseconds but move in steps
   of STEP_NS (floor conversion, as a TSC read through clock_gettime);
   N intervals: consecutive calls costing 20..35 ns, and spins of up to 8
   such calls, as mpiutil.c takes them.  */
static double
simulate (double step_ns, double unit_ns, size_t n, unsigned seed,
          double *min_diff)
{
  double *d = malloc (n * sizeof *d);
  double t = 1000.0;
  srand (seed);
  for (size_t i = 0; i < n; i++)
    {
      double span = 20 + rand () % 16;
      if (i % 2)
        span *= 1 + (double) (i / 2 % 9);
      double a = floor (floor (t / step_ns) * step_ns / unit_ns) * unit_ns;
      t += span;
      double b = floor (floor (t / step_ns) * step_ns / unit_ns) * unit_ns;
      d[i] = (b - a) * 1e-9;
    }
  double s = timer_step (d, n, unit_ns * 1e-9, min_diff);
  free (d);
  return s;
}

static void
check_step (void)
{
  double md;
  /* A 2.596 GHz TSC that advances 26 counts at a time: 10.015 ns
     steps read in whole nanoseconds.  */
  CHECK_NEAR (simulate (10.015, 1, 6000, 1, &md), 10e-9, 0.6e-9);
  CHECK (md >= 9e-9 && md <= 31e-9);
  /* A clock that really moves every nanosecond: the unit.  */
  CHECK_NEAR (simulate (1, 1, 6000, 2, &md), 1e-9, 1e-15);
  /* gettimeofday behind a nanosecond unit: 1 us.  */
  CHECK_NEAR (simulate (1000, 1, 6000, 3, &md), 1e-6, 1e-9);
  CHECK_NEAR (md, 1e-6, 1e-9);
  /* A 1 us clock with a 1 us unit.  */
  CHECK_NEAR (simulate (1000, 1000, 6000, 4, &md), 1e-6, 1e-12);
  /* 40 ns steps.  */
  CHECK_NEAR (simulate (40, 1, 6000, 5, &md), 40e-9, 1e-9);
  /* No interval: the unit, or NaN without one.  */
  double zero[3] = { 0, 0, -1 };
  CHECK (timer_step (zero, 3, 1e-9, &md) == 1e-9);
  CHECK (isnan (md));
  CHECK (isnan (timer_step (zero, 3, 0, &md)));
  /* No unit: the smallest interval.  */
  double two[2] = { 3e-8, 2e-8 };
  CHECK (timer_step (two, 2, 0, &md) == 2e-8);
  CHECK (md == 2e-8);
}

static void
check_buffers (void)
{
  size_t page = msgbuf_page_size (), line = msgbuf_line_size ();
  CHECK (page >= 512 && (page & (page - 1)) == 0);
  CHECK (line >= 8 && (line & (line - 1)) == 0);
  /* What logp-measure measures with.  */
  size_t sizes[] = { 0, 1, 63, 64, 4097, 1 << 20 };
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    {
      char *s, *r;
      msgbuf_pair (sizes[i], &s, &r);
      struct msgbuf_layout l;
      msgbuf_check ((uintptr_t) s, (uintptr_t) r, sizes[i], page, line, &l);
      CHECK (l.send_page_offset == 0 && l.recv_page_offset == 0);
      CHECK (l.shared_lines == 0 && !l.overlap);
      CHECK (msgbuf_ok (&l));
      CHECK (sizes[i] == 0 || (s[sizes[i] - 1] == 'x' && r[0] == 'x'));
      free (s);
      free (r);
    }
  /* The old layout: one malloc'd block (16-byte aligned), the receive
     buffer at buf + max_bytes + 1.  */
  size_t n = 1 << 20;
  struct msgbuf_layout l;
  msgbuf_check (0x7f0000001010u, 0x7f0000001010u + n + 1, n, 4096, 64, &l);
  CHECK (l.send_page_offset == 16 && l.recv_page_offset == 17);
  CHECK (l.shared_lines == 1 && !l.overlap && !msgbuf_ok (&l));
  /* The same on a page-aligned block: still misaligned.  */
  msgbuf_check (0x10000, 0x10000 + n + 1, n, 4096, 64, &l);
  CHECK (l.send_page_offset == 0 && l.recv_page_offset == 1);
  CHECK (l.shared_lines == 0 && !msgbuf_ok (&l));
  /* Adjacent pages: fine; one byte more overlaps.  */
  msgbuf_check (0x10000, 0x11000, 4096, 4096, 64, &l);
  CHECK (msgbuf_ok (&l));
  msgbuf_check (0x10000, 0x11000, 4097, 4096, 64, &l);
  CHECK (l.overlap && l.shared_lines == 1 && !msgbuf_ok (&l));
  /* Two buffers in one cache line.  */
  msgbuf_check (0x10000, 0x10020, 16, 4096, 64, &l);
  CHECK (!l.overlap && l.shared_lines == 1 && l.recv_page_offset == 32);
}

/* /proc/self/schedstat's text: nanoseconds on the CPU, nanoseconds
   waiting on the run queue, time slices.  */
static void
check_cpuwait (void)
{
  double run, wait;
  CHECK (cpuwait_parse ("2000000000 500000000 17\n", &run, &wait) == 0);
  CHECK_NEAR (run, 2.0, 1e-12);
  CHECK_NEAR (wait, 0.5, 1e-12);
  CHECK (cpuwait_parse ("0 3384948 1", &run, &wait) == 0);
  CHECK_NEAR (wait, 0.003384948, 1e-15);
  /* Not two counts: refused, and NaN left.  */
  CHECK (cpuwait_parse ("", &run, &wait) < 0 && isnan (run) && isnan (wait));
  CHECK (cpuwait_parse ("12", &run, &wait) < 0);
  CHECK (cpuwait_parse ("-1 2 3", &run, &wait) < 0);
  CHECK (cpuwait_parse ("1 x 3", &run, &wait) < 0);
  CHECK (cpuwait_parse ("1 2x 3", &run, &wait) < 0);
  CHECK (cpuwait_parse (NULL, &run, &wait) < 0);
  /* 0.26 s of waiting over 0.52 s of wall time: half.  */
  CHECK_NEAR (cpuwait_share (1.0, 1.26, 0.52), 0.5, 1e-12);
  CHECK (cpuwait_share (1.0, 1.0, 2.0) == 0.0);
  CHECK (isnan (cpuwait_share (NAN, 1.0, 2.0)));
  CHECK (isnan (cpuwait_share (1.0, 2.0, 0.0)));
  /* The live reading, where the kernel has it: the share of a thread
     that ran is in [0, 1] of a wall time that includes it.  */
  double run0, wait0;
  if (cpuwait_read (&run0, &wait0) == 0)
    CHECK (run0 >= 0 && wait0 >= 0);
  else
    CHECK (isnan (run0) && isnan (wait0));
}

int
main (void)
{
  check_cpuwait ();
  check_format ();
  check_step ();
  check_buffers ();
  return unit_done ();
}
