/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tracebuf.c: the record buffer of libmsgperf-trace and its writing.
 *
 * Records are filled where they lie (on a little-endian host, where the
 * struct is the record's bytes) or encoded as they are committed
 * (traceformat.h) into one region reserved with mmap at MPI_Init, so
 * that a fatal signal's handler has nothing to do but read the clock,
 * scale the times, open, write and close: all async-signal-safe, and
 * the path was made at MPI_Init.  The region is reserved, not touched:
 * pages are used only as records fill them.  */
#define _GNU_SOURCE 1
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "tracebuf.h"

/* Room for this many records (4 Mi records, 256 MiB of address space;
   MSGPERF_TRACE_RECORDS changes it).  */
#define DEFAULT_MAX_RECORDS (1u << 22)

int tracebuf_on;

static unsigned char *buf;
static uint64_t max_records;
static volatile uint64_t nrecords;   /* committed; read by the handler */
static struct trace_header header;
static volatile sig_atomic_t written;
static char path[4096];

static const int fatal_signals[] = { SIGSEGV, SIGABRT, SIGTERM, SIGBUS,
                                     SIGFPE };
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction old_actions[NFATAL];

/* The times of the first N records from clock units to seconds on
   t0's base (clock.h), where they were filled in place; elsewhere
   tracebuf_commit converted them.  Once, at the writing, so that the
   TSC's scale is measured over the whole run.  */
static void
times_to_seconds (uint64_t n)
{
#ifdef TRACE_RECORD_NATIVE
  double scale = trace_clock_scale ();
  for (uint64_t i = 0; i < n; i++)
    {
      struct trace_record *r =
        (struct trace_record *) (buf + (size_t) i * TRACE_RECORD_SIZE);
      r->t_start = header.t0 + r->t_start * scale;
      r->t_end = header.t0 + r->t_end * scale;
    }
#else
  (void) n;
#endif
}

/* Write the header with FLAGS and the committed records to PATH.
   Async-signal-safe: the clock, open, write, close on prepared memory.  */
static int
write_trace (uint32_t flags, int sig)
{
  unsigned char head[TRACE_HEADER_SIZE];
  uint64_t n = nrecords;
  times_to_seconds (n);
  struct trace_header h = header;
  h.flags |= flags;
  h.signal = sig;
  h.nrecords = n;
  trace_encode_header (&h, head);
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0)
    return -1;
  int ok = 1;
  const unsigned char *parts[2] = { head, buf };
  size_t lens[2] = { sizeof head, (size_t) n * TRACE_RECORD_SIZE };
  for (int k = 0; k < 2 && ok; k++)
    for (size_t done = 0; done < lens[k];)
      {
        ssize_t w = write (fd, parts[k] + done, lens[k] - done);
        if (w < 0 && errno == EINTR)
          continue;
        if (w <= 0)
          {
            ok = 0;
            break;
          }
        done += (size_t) w;
      }
  if (close (fd) != 0)
    ok = 0;
  return ok ? 0 : -1;
}

static void
on_fatal (int sig)
{
  if (!written && tracebuf_on)
    {
      written = 1;
      tracebuf_on = 0;
      write_trace (TRACE_F_SIGNAL, sig);
    }
  /* Then what would have happened without us: the previous handler
     (OpenMPI's backtrace printer, say) or the default action.  */
  for (size_t i = 0; i < NFATAL; i++)
    if (fatal_signals[i] == sig)
      sigaction (sig, &old_actions[i], NULL);
  raise (sig);
}

int
tracebuf_start (int rank, int size, double t0, double wtick,
                int wtime_global)
{
  const char *dir = getenv ("MSGPERF_TRACE_DIR");
  if (!dir || !*dir)
    dir = "msgperf-trace";
  max_records = DEFAULT_MAX_RECORDS;
  const char *env = getenv ("MSGPERF_TRACE_RECORDS");
  if (env && *env)
    {
      char *end;
      errno = 0;
      unsigned long long v = strtoull (env, &end, 10);
      if (errno || *end || v < 1 || v > (1ull << 32))
        {
          fprintf (stderr, "libmsgperf-trace: rank %d: MSGPERF_TRACE_RECORDS="
                   "'%s' is not a count in [1, 4294967296]: not tracing\n",
                   rank, env);
          return -1;
        }
      max_records = v;
    }
  if (mkdir (dir, 0777) != 0 && errno != EEXIST)
    {
      fprintf (stderr, "libmsgperf-trace: rank %d: cannot make '%s': %s: "
               "not tracing\n", rank, dir, strerror (errno));
      return -1;
    }
  int n = snprintf (path, sizeof path, "%s/trace.%d", dir, rank);
  if (n < 0 || (size_t) n >= sizeof path)
    {
      fprintf (stderr, "libmsgperf-trace: rank %d: trace directory name too "
               "long: not tracing\n", rank);
      return -1;
    }
  void *p = mmap (NULL, (size_t) max_records * TRACE_RECORD_SIZE,
                  PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED)
    {
      fprintf (stderr, "libmsgperf-trace: rank %d: cannot reserve the trace "
               "buffer: %s: not tracing\n", rank, strerror (errno));
      return -1;
    }
  buf = p;
#ifdef MADV_HUGEPAGE
  /* One page fault per 2 MiB instead of per 4 KiB where transparent huge
     pages are on request: the faults were most of a call's overhead.  */
  madvise (p, (size_t) max_records * TRACE_RECORD_SIZE, MADV_HUGEPAGE);
#endif
  /* The first page touched now, in the tracer's start-up: the kernel
     zeroes it (a huge page: some 0.5 ms), which the first record's
     commit would otherwise add to the program's first compute gap.  */
  *(volatile unsigned char *) p = 0;
  header.version = TRACE_VERSION;
  header.rank = rank;
  header.size = size;
  header.t0 = t0;
  header.wtick = wtick;
  header.flags = wtime_global ? TRACE_F_WTIME_GLOBAL : 0;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal;
  sigemptyset (&sa.sa_mask);
  for (size_t i = 0; i < NFATAL; i++)
    sigaction (fatal_signals[i], &sa, &old_actions[i]);
  tracebuf_on = 1;
  return 0;
}

void
tracebuf_origin (double t0)
{
  header.t0 = t0;
}

/* The record to fill next, its defaults set: no data, no request, no
   communicator, peer, tag, root or aux.  */
static void
record_defaults (struct trace_record *r, uint32_t seq)
{
  r->t_start = r->t_end = 0;
  r->bytes = r->request = -1;
  r->seq = seq;
  r->call = r->flags = 0;
  r->comm = r->peer = r->tag = r->root = r->aux = -1;
  r->spare = 0;
}

#ifdef TRACE_RECORD_NATIVE
/* The struct is the record's bytes (traceformat.h): it is filled where it
   lies in the buffer, and committing it is counting it.  */
struct trace_record *
tracebuf_next (void)
{
  if (nrecords >= max_records)
    {
      header.flags |= TRACE_F_OVERFLOW;
      return NULL;
    }
  uint64_t n = nrecords;
  struct trace_record *r =
    (struct trace_record *) (buf + (size_t) n * TRACE_RECORD_SIZE);
  record_defaults (r, (uint32_t) n);
  return r;
}

void
tracebuf_commit (void)
{
  /* The record's stores before the count's: a signal handler writing
     the committed records then never sees a half-filled one.  */
  atomic_signal_fence (memory_order_release);
  nrecords = nrecords + 1;
}
#else
/* A staging record, encoded into the buffer at commit.  */
static struct trace_record cur;

struct trace_record *
tracebuf_next (void)
{
  if (nrecords >= max_records)
    {
      header.flags |= TRACE_F_OVERFLOW;
      return NULL;
    }
  record_defaults (&cur, (uint32_t) nrecords);
  return &cur;
}

void
tracebuf_commit (void)
{
  double scale = trace_clock_scale ();
  cur.t_start = header.t0 + cur.t_start * scale;
  cur.t_end = header.t0 + cur.t_end * scale;
  trace_encode_record (&cur, buf + (size_t) nrecords * TRACE_RECORD_SIZE);
  atomic_signal_fence (memory_order_release);
  nrecords = nrecords + 1;
}
#endif

void
tracebuf_write (uint32_t flags)
{
  if (written || !tracebuf_on)
    return;
  written = 1;
  tracebuf_on = 0;
  if (write_trace (flags, 0) != 0)
    fprintf (stderr, "libmsgperf-trace: rank %d: cannot write '%s': %s\n",
             header.rank, path, strerror (errno));
  /* Back to what the program had: the trace is written.  */
  for (size_t i = 0; i < NFATAL; i++)
    sigaction (fatal_signals[i], &old_actions[i], NULL);
}

/* ---------------------------------------------------------------- requests
   Open addressing on the handle's bits; a freed slot is a tombstone.  */
struct slot
{
  uintptr_t key;      /* 0 empty, TOMB deleted */
  struct tracebuf_req req;
};
#define TOMB UINTPTR_MAX
static struct slot *slots;
static size_t nslots, nused;
static int64_t next_request = 1;

static size_t
hash (uintptr_t key)
{
  uint64_t h = (uint64_t) key * 0x9E3779B97F4A7C15ull;
  return (size_t) (h >> 17);
}

static int
grow (void)
{
  /* Rehash without the tombstones, to four times the live entries.  */
  size_t live = 0, ncap = 1024;
  for (size_t i = 0; i < nslots; i++)
    live += slots[i].key != 0 && slots[i].key != TOMB;
  while (ncap < 4 * (live + 1))
    ncap *= 2;
  struct slot *ns = calloc (ncap, sizeof *ns);
  if (!ns)
    return -1;
  for (size_t i = 0; i < nslots; i++)
    if (slots[i].key != 0 && slots[i].key != TOMB)
      {
        size_t j = hash (slots[i].key) & (ncap - 1);
        while (ns[j].key != 0)
          j = (j + 1) & (ncap - 1);
        ns[j] = slots[i];
      }
  free (slots);
  slots = ns;
  nslots = ncap;
  nused = 0;
  for (size_t i = 0; i < nslots; i++)
    nused += slots[i].key != 0;
  return 0;
}

int64_t
tracebuf_request_new (uintptr_t key, const struct tracebuf_req *posted)
{
  int64_t id = next_request++;
  if (key == 0 || key == TOMB)
    return id;
  /* A handle still in the table was freed without a wait (or reused):
     the new request takes its place.  */
  struct tracebuf_req old;
  tracebuf_request_take (key, &old);
  if (2 * (nused + 1) > nslots && grow () != 0)
    return id;
  size_t j = hash (key) & (nslots - 1);
  while (slots[j].key != 0 && slots[j].key != TOMB)
    j = (j + 1) & (nslots - 1);
  if (slots[j].key == 0)
    nused++;
  slots[j].key = key;
  slots[j].req = *posted;
  slots[j].req.id = id;
  return id;
}

static struct slot *
find (uintptr_t key)
{
  if (nslots == 0 || key == 0 || key == TOMB)
    return NULL;
  size_t j = hash (key) & (nslots - 1);
  while (slots[j].key != 0)
    {
      if (slots[j].key == key)
        return &slots[j];
      j = (j + 1) & (nslots - 1);
    }
  return NULL;
}

int
tracebuf_request_peek (uintptr_t key, struct tracebuf_req *out)
{
  struct slot *s = find (key);
  if (!s)
    {
      memset (out, 0, sizeof *out);
      out->id = out->bytes = -1;
      out->comm = out->peer = out->tag = -1;
      return -1;
    }
  *out = s->req;
  return 0;
}

int
tracebuf_request_take (uintptr_t key, struct tracebuf_req *out)
{
  struct slot *s = find (key);
  int rc = tracebuf_request_peek (key, out);
  if (s)
    s->key = TOMB;
  return rc;
}
/* ---------------------------------------------------------------- comms
   Few communicators: a list searched from the end, behind a cache of the
   last one looked up (most calls are on the same communicator as the
   previous one, often MPI_COMM_WORLD).  */
static uintptr_t *comm_keys;
static size_t ncomms, comms_cap;
static int32_t next_comm;
static uintptr_t last_key;
static int32_t last_id = -1;   /* -1: nothing cached */

int32_t
tracebuf_comm_id (uintptr_t key)
{
  if (key == last_key && last_id >= 0)
    return last_id;
  for (size_t i = ncomms; i-- > 0;)
    if (comm_keys[i] == key)
      {
        last_key = key;
        last_id = (int32_t) i;
        return last_id;
      }
  return -1;
}

int32_t
tracebuf_comm_add (uintptr_t key)
{
  /* Ids are never reused: a freed communicator's slot keeps key 0.  */
  if (ncomms == comms_cap)
    {
      size_t ncap = comms_cap ? 2 * comms_cap : 16;
      uintptr_t *nk = realloc (comm_keys, ncap * sizeof *nk);
      if (!nk)
        return -1;
      comm_keys = nk;
      comms_cap = ncap;
    }
  /* The newest entry of KEY is the one a search from the end finds.  */
  last_key = key;
  last_id = (int32_t) ncomms;
  comm_keys[ncomms++] = key;
  return next_comm++;
}

void
tracebuf_comm_forget (uintptr_t key)
{
  /* The handle may come back for a new communicator: not the old id.  */
  if (key == last_key)
    last_id = -1;
  for (size_t i = ncomms; i-- > 0;)
    if (comm_keys[i] == key)
      {
        comm_keys[i] = 0;
        return;
      }
}
