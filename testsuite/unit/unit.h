/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unit.h: a minimal harness for the unit tests of common/.
 *
 * CHECK(cond) records a failure with file and line and goes on; a test
 * program ends with "return unit_done ();", which prints the failures and
 * the count and exits 1 if any check failed.  EXPECT_DIE(stmt, status)
 * runs STMT, which must end through err.h's die* with STATUS.  */
#ifndef MSGPERF_UNIT_H
#define MSGPERF_UNIT_H

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

/* What a statement abandons when it dies is not a leak: a program ends
   there.  In sanitizer builds, allocations made inside EXPECT_DIE are
   therefore left out of LeakSanitizer's report.  */
#if defined(__SANITIZE_ADDRESS__)
# define UNIT_LSAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define UNIT_LSAN 1
# endif
#endif
#ifdef UNIT_LSAN
# include <sanitizer/lsan_interface.h>
# define UNIT_LSAN_DISABLE() __lsan_disable ()
# define UNIT_LSAN_ENABLE() __lsan_enable ()
#else
# define UNIT_LSAN_DISABLE() ((void) 0)
# define UNIT_LSAN_ENABLE() ((void) 0)
#endif

static int unit_checks, unit_failures;
static jmp_buf unit_jmp;
static int unit_status;

#define CHECK(cond) \
  do { unit_checks++; \
       if (!(cond)) { unit_failures++; \
         fprintf (stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
                  #cond); } } while (0)

#define CHECK_NEAR(a, b, tol) \
  do { double unit_a = (a), unit_b = (b); unit_checks++; \
       if (!(fabs (unit_a - unit_b) <= (tol))) { unit_failures++; \
         fprintf (stderr, "%s:%d: %s = %.17g, expected %.17g (+- %g)\n", \
                  __FILE__, __LINE__, #a, unit_a, unit_b, (double) (tol)); } \
  } while (0)

#define CHECK_STR(a, b) \
  do { const char *unit_a = (a), *unit_b = (b); unit_checks++; \
       if (!unit_a || strcmp (unit_a, unit_b) != 0) { unit_failures++; \
         fprintf (stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", \
                  __FILE__, __LINE__, #a, unit_a ? unit_a : "(null)", \
                  unit_b); } } while (0)

__attribute__ ((unused)) static void
unit_exit_hook (int status)
{
  unit_status = status;
  longjmp (unit_jmp, 1);
}

/* Run STMT expecting it to die with STATUS (its message goes to stderr).  */
#define EXPECT_DIE(stmt, status) \
  do { void (*unit_saved) (int) = err_exit_hook; \
       err_exit_hook = unit_exit_hook; unit_checks++; \
       UNIT_LSAN_DISABLE (); \
       if (setjmp (unit_jmp) == 0) { stmt; unit_failures++; \
         fprintf (stderr, "%s:%d: did not die: %s\n", __FILE__, __LINE__, \
                  #stmt); } \
       else if (unit_status != (status)) { unit_failures++; \
         fprintf (stderr, "%s:%d: died with %d, expected %d: %s\n", \
                  __FILE__, __LINE__, unit_status, (status), #stmt); } \
       UNIT_LSAN_ENABLE (); \
       err_exit_hook = unit_saved; } while (0)

static int
unit_done (void)
{
  printf ("%d checks, %d failed\n", unit_checks, unit_failures);
  return unit_failures ? 1 : 0;
}

#endif
