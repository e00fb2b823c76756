/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tracebuf.c: the record buffers of libmsgperf-trace and their writing.
 *
 * Records are filled where they lie (on a little-endian host, where the
 * struct is the record's bytes) or encoded as they are committed
 * (traceformat.h) into one of two buffers reserved with mmap at
 * MPI_Init.  When the one being filled is full, it is handed to a
 * writer thread, which converts its times to seconds and writes it at
 * its place in DIR/trace.RANK, while the program goes on filling the
 * other: a trace is complete whatever the program's length, and the
 * program waits only when it fills a buffer before the writer has
 * written the previous one (the disk slower than the calls).  The file
 * is opened at MPI_Init, so that an unwritable directory is said then;
 * its header is written last, with the count of records, the flags and
 * the seconds spent writing.  A failed write (a full disk ...) is said
 * on stderr when it is seen and flagged in the header
 * (TRACE_F_WRITE_ERROR), with the records written before it.
 *
 * A fatal signal's handler waits for the writer, then converts and
 * writes the buffer being filled and the header: the clock, pwrite,
 * close and nanosleep on prepared memory, all async-signal-safe.  The
 * writer thread blocks every signal.  The buffers are reserved, not
 * touched: pages are used only as records fill them, and once filled
 * they are reused, so that a long run faults each page once.  */
#define _GNU_SOURCE 1
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "tracebuf.h"

/* Room for this many records in each of the two buffers (1 Mi records,
   64 MiB of address space each; MSGPERF_TRACE_RECORDS changes it).  */
#define DEFAULT_MAX_RECORDS (1u << 20)

int tracebuf_on;

static unsigned char *bufs[2], *buf;   /* buf: bufs[cur], being filled */
static int cur;
static uint64_t max_records;
/* committed in buf; read by the signal handler */
static volatile uint64_t nrecords;
static uint64_t base;                /* records handed to the writer before */
static struct trace_header header;
static volatile sig_atomic_t written;
static char path[4096];
static int fd = -1;

/* The writer: the buffer it writes (job_*), whether it is busy, the
   first error it met (errno) and where.  */
static pthread_t writer;
static int writer_started;
static sem_t job_sem;
static atomic_int busy, quit;
static const unsigned char *job_buf;
static uint64_t job_n, job_first;
/* A piece of the run: units U0 are S0 seconds after the origin, and a
   unit is SCALE seconds in it.  */
struct piece
{
  double u0, s0, scale;
  double before;   /* the previous piece's scale, for units before U0 */
};
static struct piece job_piece;
static double piece_u0, piece_s0;   /* where the buffer being filled began */
static double piece_before;         /* the scale of the piece before it */
static atomic_int write_errno;
static uint64_t written_ok;   /* records on disk, the writer's count */
static double write_s;        /* seconds in pwrite, both threads */
static int failed;            /* a write failed: no more records */

static const int fatal_signals[] = { SIGSEGV, SIGABRT, SIGTERM, SIGBUS,
                                     SIGFPE };
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction old_actions[NFATAL];

static double
mono (void)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec;
}

/* The piece of the run from where the buffer being filled began to
   now, and now the start of the next.  A unit is the clock's scale
   measured from the origin to now (the longer the run, the better
   measured); a piece starts at the time the previous one gave its end,
   so that the pieces meet where they join and times stay in order
   across buffers.  (Pieces whose scales were measured over their own
   lengths between readings of both clocks also met, but a buffer's first
   call, which began before the buffer was handed over, was put up to
   0.1 us before the previous call, its time carried back over the wait
   for the writer at a scale measured over 60 us.)  A buffer's first
   call may have begun before the buffer did (before the hand-over):
   its times before the piece's start are on the previous piece's
   scale, where the previous call's are.  */
static struct piece
end_piece (void)
{
  struct piece p = { piece_u0, piece_s0, trace_clock_scale (),
                     piece_before };
  double u = trace_clock_now ();
  piece_s0 += (u - piece_u0) * p.scale;
  piece_u0 = u;
  piece_before = p.scale;
  return p;
}

/* The times of N records at P from clock units to seconds on t0's base
   (clock.h) over the piece PC, where they were filled in place;
   elsewhere tracebuf_commit converted them.  */
static void
times_to_seconds (unsigned char *p, uint64_t n, struct piece pc)
{
#ifdef TRACE_RECORD_NATIVE
  double at = header.t0 + pc.s0;
  for (uint64_t i = 0; i < n; i++)
    {
      struct trace_record *r =
        (struct trace_record *) (p + (size_t) i * TRACE_RECORD_SIZE);
      r->t_start = at + (r->t_start - pc.u0) * (r->t_start < pc.u0
                                                ? pc.before : pc.scale);
      r->t_end = at + (r->t_end - pc.u0) * (r->t_end < pc.u0 ? pc.before
                                                              : pc.scale);
    }
#else
  (void) p, (void) n, (void) pc;
#endif
}

/* Write LEN bytes at P to the trace at OFF; 0, or the errno.  */
static int
put (const unsigned char *p, size_t len, off_t off)
{
  double t = mono ();
  int e = 0;
  for (size_t done = 0; done < len;)
    {
      ssize_t w = pwrite (fd, p + done, len - done, off + (off_t) done);
      if (w < 0 && errno == EINTR)
        continue;
      if (w <= 0)
        {
          e = w < 0 ? errno : ENOSPC;
          break;
        }
      done += (size_t) w;
    }
  write_s += mono () - t;
  return e;
}

/* Records FIRST .. FIRST + N - 1, N at P, in place in the file.  */
static int
put_records (unsigned char *p, uint64_t n, uint64_t first, struct piece pc)
{
  times_to_seconds (p, n, pc);
  return put (p, (size_t) n * TRACE_RECORD_SIZE,
              TRACE_HEADER_SIZE + (off_t) first * TRACE_RECORD_SIZE);
}

static void *
writer_main (void *arg)
{
  (void) arg;
  for (;;)
    {
      while (sem_wait (&job_sem) != 0)
        ;
      if (atomic_load (&quit))
        return NULL;
      int e = put_records ((unsigned char *) job_buf, job_n, job_first,
                           job_piece);
      if (e)
        atomic_store (&write_errno, e);
      else
        written_ok = job_first + job_n;
      atomic_store (&busy, 0);
    }
}

/* Wait until the writer is idle (async-signal-safe: a sleep in a loop). */
static void
wait_writer (void)
{
  struct timespec ms = { 0, 100000 };
  while (atomic_load (&busy))
    nanosleep (&ms, NULL);
}

/* Start the writer thread with every signal blocked in it.  */
static int
start_writer (void)
{
  sigset_t all, old;
  sigfillset (&all);
  if (sem_init (&job_sem, 0, 0) != 0)
    return -1;
  pthread_sigmask (SIG_SETMASK, &all, &old);
  int rc = pthread_create (&writer, NULL, writer_main, NULL);
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  if (rc != 0)
    return -1;
  writer_started = 1;
  return 0;
}

static void
say_write_error (int e)
{
  fprintf (stderr, "libmsgperf-trace: rank %d: cannot write '%s': %s: the "
           "trace keeps its first %llu records only (flagged 'write "
           "error')\n",
           header.rank, path, strerror (e), (unsigned long long) written_ok);
}

/* The buffer being filled is full: to the writer, and fill the other.
   Returns -1 (no more records) when a write failed.  */
static int
hand_over (void)
{
  if (!writer_started && start_writer () != 0)
    {
      atomic_store (&write_errno, EAGAIN);
      fprintf (stderr, "libmsgperf-trace: rank %d: cannot start the trace "
               "writer thread\n", header.rank);
    }
  wait_writer ();
  int e = atomic_load (&write_errno);
  if (e)
    {
      if (!failed)
        say_write_error (e);
      failed = 1;
      header.flags |= TRACE_F_WRITE_ERROR;
      return -1;
    }
  job_buf = buf;
  job_n = nrecords;
  job_first = base;
  job_piece = end_piece ();
  atomic_store (&busy, 1);
  sem_post (&job_sem);
  base += nrecords;
  cur ^= 1;
  buf = bufs[cur];
  nrecords = 0;
  return 0;
}

/* The rest and the header with FLAGS and SIG, once the writer is idle.
   Async-signal-safe.  Returns 0 or the errno.  */
static int
write_trace (uint32_t flags, int sig)
{
  wait_writer ();
  int e = atomic_load (&write_errno);
  uint64_t n = base;
  if (!e && !failed)
    {
      e = put_records (buf, nrecords, base, end_piece ());
      n = base + nrecords;
    }
  if (e || failed)
    {
      n = written_ok;
      flags |= TRACE_F_WRITE_ERROR;
      if (ftruncate (fd, TRACE_HEADER_SIZE + (off_t) n * TRACE_RECORD_SIZE))
        {
          /* the header says how many records are good */
        }
    }
  unsigned char head[TRACE_HEADER_SIZE];
  struct trace_header h = header;
  h.flags |= flags;
  h.signal = sig;
  h.nrecords = n;
  h.write_s = write_s;
  trace_encode_header (&h, head);
  int eh = put (head, sizeof head, 0);
  if (close (fd) != 0 && !eh)
    eh = errno;
  fd = -1;
  return e ? e : eh;
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

/* MSGPERF_TRACE_RECORDS into max_records; -1 when it is not a count.  */
static int
read_max_records (int rank)
{
  max_records = DEFAULT_MAX_RECORDS;
  const char *env = getenv ("MSGPERF_TRACE_RECORDS");
  if (!env || !*env)
    return 0;
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
  return 0;
}

/* Make DIR, open DIR/trace.RANK and write its header, unfinished.  */
static int
open_trace (const char *dir, int rank)
{
  if (mkdir (dir, 0777) != 0 && errno != EEXIST)
    {
      fprintf (stderr, "libmsgperf-trace: rank %d: cannot make the trace "
               "directory '%s': %s: not tracing\n", rank, dir,
               strerror (errno));
      return -1;
    }
  int n = snprintf (path, sizeof path, "%s/trace.%d", dir, rank);
  if (n < 0 || (size_t) n >= sizeof path)
    {
      fprintf (stderr, "libmsgperf-trace: rank %d: trace directory name too "
               "long: not tracing\n", rank);
      return -1;
    }
  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  unsigned char head[TRACE_HEADER_SIZE];
  trace_encode_header (&header, head);
  int e = fd < 0 ? errno : put (head, sizeof head, 0);
  if (e)
    {
      fprintf (stderr, "libmsgperf-trace: rank %d: cannot write the trace "
               "'%s': %s: not tracing\n", rank, path, strerror (e));
      if (fd >= 0)
        close (fd);
      fd = -1;
      return -1;
    }
  return 0;
}

/* The two buffers, reserved, not touched.  */
static int
reserve (int rank)
{
  size_t len = (size_t) max_records * TRACE_RECORD_SIZE;
  for (int k = 0; k < 2; k++)
    {
      void *p = mmap (NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED)
        {
          fprintf (stderr, "libmsgperf-trace: rank %d: cannot reserve the "
                   "trace buffer: %s: not tracing\n", rank, strerror (errno));
          return -1;
        }
      bufs[k] = p;
#ifdef MADV_HUGEPAGE
      /* One page fault per 2 MiB instead of per 4 KiB where transparent
         huge pages are on request: the faults were most of a call's
         overhead.  */
      madvise (p, len, MADV_HUGEPAGE);
#endif
    }
  buf = bufs[0];
  /* The first page touched now, in the tracer's start-up: the kernel
     zeroes it (a huge page: some 0.5 ms), which the first record's
     commit would otherwise add to the program's first compute gap.  */
  *(volatile unsigned char *) buf = 0;
  return 0;
}

int
tracebuf_start (int rank, int size, double t0, double wtick,
                int wtime_global)
{
  const char *dir = getenv ("MSGPERF_TRACE_DIR");
  if (!dir || !*dir)
    dir = "msgperf-trace";
  header.version = TRACE_VERSION;
  header.rank = rank;
  header.size = size;
  header.t0 = t0;
  header.wtick = wtick;
  header.flags = wtime_global ? TRACE_F_WTIME_GLOBAL : 0;
  if (read_max_records (rank) != 0 || open_trace (dir, rank) != 0)
    return -1;
  if (reserve (rank) != 0)
    {
      close (fd);
      fd = -1;
      return -1;
    }
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
  piece_u0 = piece_s0 = piece_before = 0;
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

/* Room for one more record in buf: 0, or -1 when none can be had.  */
static inline int
room (void)
{
  if (__builtin_expect (nrecords < max_records, 1))
    return 0;
  if (failed || hand_over () != 0)
    return -1;
  return 0;
}

#ifdef TRACE_RECORD_NATIVE
/* The struct is the record's bytes (traceformat.h): it is filled where it
   lies in the buffer, and committing it is counting it.  */
struct trace_record *
tracebuf_next (void)
{
  if (room () != 0)
    return NULL;
  uint64_t n = nrecords;
  struct trace_record *r =
    (struct trace_record *) (buf + (size_t) n * TRACE_RECORD_SIZE);
  record_defaults (r, (uint32_t) (base + n));
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
static struct trace_record cur_rec;

struct trace_record *
tracebuf_next (void)
{
  if (room () != 0)
    return NULL;
  record_defaults (&cur_rec, (uint32_t) (base + nrecords));
  return &cur_rec;
}

void
tracebuf_commit (void)
{
  double scale = trace_clock_scale ();
  cur_rec.t_start = header.t0 + cur_rec.t_start * scale;
  cur_rec.t_end = header.t0 + cur_rec.t_end * scale;
  trace_encode_record (&cur_rec,
                       buf + (size_t) nrecords * TRACE_RECORD_SIZE);
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
  int e = write_trace (flags, 0);
  if (e && !failed)   /* else said when it was seen */
    say_write_error (e);
  if (writer_started)
    {
      atomic_store (&quit, 1);
      sem_post (&job_sem);
      pthread_join (writer, NULL);
      writer_started = 0;
    }
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
