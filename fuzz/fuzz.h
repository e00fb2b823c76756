/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz.h: what every libFuzzer harness of msgperf shares.
 *
 * A harness is one file fuzz/NAME.c defining LLVMFuzzerTestOneInput; the
 * build (make fuzz-build) links it with every common/ source, so the
 * harness of a new parser is that file plus its name in FUZZ_HARNESSES
 * (Makefile.am) and a seed corpus in fuzz/corpus/NAME/.  One harness
 * is the exception: fuzz/tool.c runs whole programs (FUZZ_TOOLS in
 * Makefile.am, built with the sanitizers into fuzz/bin/) as child
 * processes and uses nothing of this file.
 *
 * Dying.  The code under test reports bad input through err.h's die*,
 * which exit the process.  FUZZ_TRY (body) runs BODY with err_exit_hook
 * replaced by a longjmp back to the harness, so that a rejected input is
 * an ordinary outcome and the next input runs in the same process.
 *
 * Memory.  A real program that dies leaves its half-built structures to
 * exit(); a harness that longjmps out must free them, or LeakSanitizer
 * (libFuzzer checks leaks after every input) reports every rejected
 * input.  Two ways:
 *   FUZZ_TRY (body, cleanup): the library frees them itself when CLEANUP
 *     asks (common/stream/tsv.c keeps what a dying call was building reachable
 *     and tsv_free_all frees it).  A block left unreachable after CLEANUP
 *     is a leak the library's contract does not allow, and is reported.
 *   FUZZ_TRY_FREEING (body, cleanup): for code without such a function.
 *     While BODY runs, the sanitizer allocator hooks record every block
 *     the harness thread allocates; when BODY died, the blocks still live
 *     after CLEANUP are taken as abandoned and freed.  Only for code that
 *     keeps no block across calls in a static variable (it would be freed
 *     behind its back), and with no C library object (FILE) created
 *     inside BODY.  When BODY returned, nothing is freed: what it leaked
 *     is a real leak, and LeakSanitizer reports it.
 *
 * Messages.  The die* messages are formatted as usual (that code runs
 * too) but written to /dev/null; set FUZZ_VERBOSE=1 to see them.  */
#ifndef MSGPERF_FUZZ_H
#define MSGPERF_FUZZ_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sanitizer/allocator_interface.h>

#include "err.h"
#include "num.h"

/* ---------------------------------------------------------------- blocks */

/* Open-addressed set of the live blocks, plus the log of the slots used
   for this input, so that the end of an input costs what its allocations
   cost and not a scan of the table.  An input that allocates more than
   FUZZ_SLOTS / 2 times aborts loudly (raise the constant) rather than
   leak silently.  */
enum { FUZZ_SLOTS = 1 << 20, FUZZ_LOG = FUZZ_SLOTS / 2 };
static const volatile void *fuzz_slot[FUZZ_SLOTS];
static size_t fuzz_log[FUZZ_LOG];
static size_t fuzz_nlog;
static int fuzz_overflow;
static __thread int fuzz_tracking;
static FILE *fuzz_stderr;   /* the real stderr, for the harness's reports */
#define FUZZ_TOMB ((const volatile void *) 1)

__attribute__ ((unused)) static size_t
fuzz_hash (const volatile void *p)
{
  uint64_t x = (uint64_t) (uintptr_t) p;
  x ^= x >> 17;
  x *= 0x9E3779B97F4A7C15u;
  return (size_t) (x >> 29) & (FUZZ_SLOTS - 1);
}

__attribute__ ((unused)) static void
fuzz_malloc_hook (const volatile void *p, size_t size)
{
  (void) size;
  if (!fuzz_tracking || !p)
    return;
  if (fuzz_nlog == FUZZ_LOG)
    {
      fuzz_overflow = 1;
      return;
    }
  size_t h = fuzz_hash (p);
  while (fuzz_slot[h] && fuzz_slot[h] != FUZZ_TOMB)
    h = (h + 1) & (FUZZ_SLOTS - 1);
  fuzz_slot[h] = p;
  fuzz_log[fuzz_nlog++] = h;
}

__attribute__ ((unused)) static void
fuzz_free_hook (const volatile void *p)
{
  if (!fuzz_tracking || !p)
    return;
  size_t h = fuzz_hash (p);
  while (fuzz_slot[h])
    {
      if (fuzz_slot[h] == p)
        {
          fuzz_slot[h] = FUZZ_TOMB;
          return;
        }
      h = (h + 1) & (FUZZ_SLOTS - 1);
    }
  /* Not recorded: allocated before this input (a process-lifetime block
     being replaced); nothing to do.  */
}

/* Stop tracking; if FREE_THEM, free the blocks still recorded.  Either
   way the table is emptied for the next input.  */
__attribute__ ((unused)) static void
fuzz_release (int free_them)
{
  fuzz_tracking = 0;
  if (fuzz_overflow)
    {
      fprintf (fuzz_stderr, "fuzz.h: more than %d allocations in one input "
               "(raise FUZZ_SLOTS)\n", (int) FUZZ_LOG);
      abort ();
    }
  for (size_t k = 0; k < fuzz_nlog; k++)
    {
      size_t h = fuzz_log[k];
      const volatile void *p = fuzz_slot[h];
      fuzz_slot[h] = NULL;
      if (p && p != FUZZ_TOMB && free_them)
        free ((void *) p);
    }
  fuzz_nlog = 0;
}

/* ---------------------------------------------------------------- dying */

static jmp_buf fuzz_jmp;
static int fuzz_status;     /* exit status of the last die, -1 if none */

__attribute__ ((unused)) static void
fuzz_exit_hook (int status)
{
  fuzz_status = status;
  longjmp (fuzz_jmp, 1);
}

/* Run BODY, then CLEANUP (whether BODY returned or died).  In both,
   fuzz_status is -1 if BODY returned, else the status die* exited with.
   CLEANUP closes or frees what BODY made that the library still points
   to, so that nothing freed stays referenced; it must not die.  Locals
   modified in BODY and read after it must be volatile (setjmp rules).
   Not nestable.  FUZZ_TRY_FREEING also frees the blocks a dying BODY
   abandoned (see above).  */
#define FUZZ_TRY_MODE(freeing, body, cleanup) \
  do { \
    fuzz_status = -1; \
    fuzz_tracking = (freeing); \
    if (setjmp (fuzz_jmp) == 0) \
      { body; } \
    { cleanup; } \
    fuzz_release ((freeing) && fuzz_status != -1); \
  } while (0)
#define FUZZ_TRY(body, cleanup) FUZZ_TRY_MODE (0, body, cleanup)
#define FUZZ_TRY_FREEING(body, cleanup) FUZZ_TRY_MODE (1, body, cleanup)

/* A property the code under test must have: abort (a crash libFuzzer
   saves) with a message when it does not.  */
#define FUZZ_ASSERT(cond) \
  do { if (!(cond)) { \
    fprintf (fuzz_stderr, "%s:%d: property failed: %s\n", __FILE__, \
             __LINE__, #cond); abort (); } } while (0)

/* Set up once, on a harness's first input (later calls do nothing and
   return 0; the first returns 1, for a harness's own one-time set-up):
   exit hook, allocation hooks, quiet messages, and the lazily made
   process-lifetime objects (the C locale of num.c) made now, outside any
   FUZZ_TRY_FREEING, so that they are never taken for abandoned
   blocks.  */
__attribute__ ((unused)) static int
fuzz_setup (const char *program)
{
  static int done;
  if (done)
    return 0;
  done = 1;
  err_program = program;
  fuzz_stderr = stderr;
  err_exit_hook = fuzz_exit_hook;
  if (__sanitizer_install_malloc_and_free_hooks (fuzz_malloc_hook,
                                                  fuzz_free_hook) == 0)
    {
      fprintf (fuzz_stderr, "fuzz.h: cannot install the allocator hooks\n");
      abort ();
    }
  /* Messages and output go to /dev/null through buffers of our own, so
     that stdio allocates nothing while an input runs.  */
  static char errbuf[BUFSIZ], outbuf[BUFSIZ];
  const char *verbose = getenv ("FUZZ_VERBOSE");
  if (!verbose || strcmp (verbose, "1") != 0)
    {
      FILE *null = fopen ("/dev/null", "w");
      if (!null)
        abort ();
      setvbuf (null, errbuf, _IOFBF, sizeof errbuf);
      stderr = null;    /* libFuzzer keeps its own copy of the stream */
    }
  if (!freopen ("/dev/null", "w", stdout))
    abort ();
  setvbuf (stdout, outbuf, _IOFBF, sizeof outbuf);
  double d;
  num_parse_str ("1.00000000000000000000000001e-300", &d);
  return 1;
}

/* The input as a stream: a copy in a block of exactly SIZE bytes (so
   that ASan sees any read past it) read through a FILE with a buffer of
   its own, both made here, before any FUZZ_TRY.  Returns NULL (nothing
   to free) if either cannot be made; else the caller fcloses the FILE
   and frees *TEXT.  */
__attribute__ ((unused)) static FILE *
fuzz_stream (const uint8_t *data, size_t size, char **text)
{
  *text = malloc (size ? size : 1);
  if (!*text)
    return NULL;
  memcpy (*text, data, size);
  FILE *fp = fmemopen (*text, size, "r");
  if (!fp)
    {
      free (*text);
      return NULL;
    }
  static char fpbuf[512];
  setvbuf (fp, fpbuf, _IOFBF, sizeof fpbuf);
  return fp;
}

#endif
