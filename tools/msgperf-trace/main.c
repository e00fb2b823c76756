/* SPDX-License-Identifier: GPL-3.0-or-later */
/* msgperf-trace: run an MPI program with libmsgperf-trace preloaded
 *
 *   mpiexec -np 8 msgperf-trace [--dir DIR] ./app args
 *
 * (every rank runs this wrapper, which sets LD_PRELOAD and
 * MSGPERF_TRACE_DIR and execs the program), and read what it wrote:
 *
 *   msgperf-trace dump DIR
 *
 * prints the records of DIR/trace.RANK as a msgperf stream.  The byte
 * layout is common/trace/traceformat.h's, shared with the library.  */
#define _GNU_SOURCE 1
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "dag_coll.h"
#include "err.h"
#include "num.h"
#include "readfile.h"
#include "attribute.h"
#include "togoal.h"
#include "traceformat.h"
#include "tsv.h"
#include "xalloc.h"

#include "run.h"

/* ---------------------------------------------------------------- dump */

struct rank_trace
{
  char *path;
  unsigned char *data;
  size_t len;
  struct trace_header h;
  int mapped;            /* data is the file mapped, else read */
};

/* "DIR/trace.RANK" names: the rank, or -1.  */
static long
trace_rank_of (const char *name)
{
  if (strncmp (name, "trace.", 6) != 0 || !name[6])
    return -1;
  long r = 0;
  for (const char *p = name + 6; *p; p++)
    {
      if (*p < '0' || *p > '9' || r > 100000000)
        return -1;
      r = 10 * r + (*p - '0');
    }
  return r;
}

static void
put_opt (tsv_writer *w, int64_t v)
{
  if (v == -1)
    tsv_put_na (w);
  else
    tsv_put_int (w, v);
}

/* A time read from MPI_Wtime, in microseconds, to the timer's
   resolution.  */
static void
put_time (tsv_writer *w, double us, double tick_us)
{
  char buf[NUM_BUFSIZE];
  num_format_measured (us, tick_us, -1, buf);
  tsv_put_str (w, buf);
}

/* The call column: "untraced:MPI_Bsend" for a count of untraced calls
   (traceformat.h: its number in aux, the count in bytes).  */
static void
put_call (tsv_writer *w, const struct trace_record *r)
{
  if (r->call != TRACE_UNTRACED)
    {
      tsv_put_str (w, trace_call_name (r->call));
      return;
    }
  char buf[64];
  const char *n = trace_untraced_name ((unsigned) r->aux);
  if (n)
    snprintf (buf, sizeof buf, "untraced:%s", n);
  else
    snprintf (buf, sizeof buf, "untraced:#%d", (int) r->aux);
  tsv_put_str (w, buf);
}

/* The untraced calls of the NT traces T, "MPI_Bsend (rank 0: 3, rank 1:
   3), MPI_Put (rank 1: 2)", into BUF (N bytes; cut with "..." where it
   is too short); 0 when there are none.  */
static int
untraced_list (const struct rank_trace *t, size_t nt, char *buf, size_t n)
{
  size_t l = 0;
  buf[0] = '\0';
  for (unsigned u = 0; u <= TRACE_NUNTRACED; u++)
    {
      int first = 1;
      for (size_t i = 0; i < nt; i++)
        for (uint64_t k = t[i].h.nrecords; k-- > 0;)
          {
            struct trace_record r;
            size_t off;
            trace_decode_record (t[i].data, k, &r, &off);
            if (r.call == TRACE_FINALIZE || r.call == TRACE_ABORT)
              continue;
            if (r.call != TRACE_UNTRACED)
              break;   /* they stand just before the last record */
            unsigned ru = r.aux >= 0 && r.aux < TRACE_NUNTRACED
                          ? (unsigned) r.aux : TRACE_NUNTRACED;
            if (ru != u || l + 64 >= n)
              continue;
            const char *name = trace_untraced_name (u);
            if (first)
              l += (size_t) snprintf (buf + l, n - l, "%s%s (", l ? "), "
                                      : "", name ? name : "unknown call");
            l += (size_t) snprintf (buf + l, n - l, "%srank %d: %lld",
                                    first ? "" : ", ", (int) t[i].h.rank,
                                    (long long) r.bytes);
            first = 0;
          }
    }
  if (l && l + 5 < n)
    snprintf (buf + l, n - l, ")");
  else if (l)
    snprintf (buf + n - 5, 5, "...");
  return l > 0;
}

static const char *
wild_name (unsigned flags)
{
  switch (flags & (TRACE_R_ANY_SOURCE | TRACE_R_ANY_TAG))
    {
    case TRACE_R_ANY_SOURCE: return "source";
    case TRACE_R_ANY_TAG: return "tag";
    case TRACE_R_ANY_SOURCE | TRACE_R_ANY_TAG: return "both";
    default: return "none";
    }
}

static const char *
why_incomplete (const struct trace_header *h, char *buf, size_t n)
{
  if (h->flags & TRACE_F_ABORT)
    snprintf (buf, n, "abort");
  else if (h->flags & TRACE_F_SIGNAL)
    snprintf (buf, n, "signal %d", (int) h->signal);
  else if (h->flags & TRACE_F_WRITE_ERROR)
    snprintf (buf, n, "write error");
  else if (h->flags & TRACE_F_OVERFLOW)
    snprintf (buf, n, "overflow");
  else if (!(h->flags & TRACE_F_COMPLETE))
    snprintf (buf, n, "unfinished");
  else
    return NULL;
  return buf;
}

/* The file of T in T's data: mapped (read only, private) when it is a
   regular file that is not empty, so that its pages can be let go once
   read (a trace of tens of millions of records is gigabytes), else read
   whole.  */
static void
map_trace (struct rank_trace *t)
{
  struct stat st;
  int fd = open (t->path, O_RDONLY);
  if (fd >= 0 && fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
      && st.st_size > 0 && (uintmax_t) st.st_size <= SIZE_MAX)
    {
      void *p = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd,
                      0);
      if (p != MAP_FAILED)
        {
          close (fd);
          t->data = p;
          t->len = (size_t) st.st_size;
          t->mapped = 1;
          return;
        }
    }
  if (fd >= 0)
    close (fd);
  char *text;
  enum readfile_status rs = read_file (t->path, 0, &text, &t->len);
  if (rs != READFILE_OK)
    die ("%s: %s%s%s", t->path, readfile_strerror (rs),
         rs == READFILE_OPEN || rs == READFILE_READ ? ": " : "",
         rs == READFILE_OPEN || rs == READFILE_READ
         ? strerror (errno) : "");
  t->data = (unsigned char *) text;
  t->mapped = 0;
}

/* Records of a mapped trace checked at a time, whose pages are then let
   go (they come back from the file when read again): checking a trace
   does not hold it whole in memory.  */
enum { CHECKED = 1 << 16 };

/* The whole pages of T's records FROM .. TO-1 let go, T being mapped.  */
static void
let_go (const struct rank_trace *t, uint64_t from, uint64_t to)
{
  long page = sysconf (_SC_PAGESIZE);
  if (!t->mapped || page <= 0)
    return;
  uintptr_t base = (uintptr_t) t->data;
  uintptr_t lo = base + TRACE_HEADER_SIZE + from * TRACE_RECORD_SIZE;
  uintptr_t hi = base + TRACE_HEADER_SIZE + to * TRACE_RECORD_SIZE;
  lo = (lo + (uintptr_t) page - 1) / (uintptr_t) page * (uintptr_t) page;
  hi = hi / (uintptr_t) page * (uintptr_t) page;
  if (hi > lo)
    madvise ((void *) lo, hi - lo, MADV_DONTNEED);
}

/* Read and check every DIR/trace.N before anything is printed: the
   files by rank in *NT, the world size in *SIZE.  */
static struct rank_trace *
load_traces (const char *dir, size_t *ntp, int32_t *sizep)
{
  DIR *d = opendir (dir);
  if (!d)
    die ("%s: cannot open the trace directory: %s", dir, strerror (errno));
  struct rank_trace *t = NULL;
  size_t nt = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir (d)))
    {
      long r = trace_rank_of (e->d_name);
      if (r < 0)
        continue;
      if (nt == cap)
        {
          cap = cap ? 2 * cap : 16;
          t = xrealloc (t, cap * sizeof *t);
        }
      size_t len = strlen (dir) + strlen (e->d_name) + 2;
      t[nt].path = xmalloc (len);
      snprintf (t[nt].path, len, "%s/%s", dir, e->d_name);
      t[nt].h.rank = (int32_t) r;
      nt++;
    }
  closedir (d);
  if (nt == 0)
    die ("%s: no trace files (trace.RANK) in the directory", dir);

  /* By rank.  */
  for (size_t i = 1; i < nt; i++)
    for (size_t j = i; j > 0 && t[j - 1].h.rank > t[j].h.rank; j--)
      {
        struct rank_trace tmp = t[j];
        t[j] = t[j - 1];
        t[j - 1] = tmp;
      }

  /* Read and check every file before printing anything.  */
  int32_t size = -1;
  for (size_t i = 0; i < nt; i++)
    {
      int32_t named = t[i].h.rank;
      map_trace (&t[i]);
      size_t off;
      enum trace_status ts = trace_decode_header (t[i].data, t[i].len,
                                                  &t[i].h, &off);
      if (ts != TRACE_OK)
        die ("%s:%zu: %s", t[i].path, off, trace_strerror (ts));
      if (t[i].h.rank != named)
        die ("%s:16: the header's rank %d is not the file name's %d",
             t[i].path, (int) t[i].h.rank, (int) named);
      if (size < 0)
        size = t[i].h.size;
      else if (t[i].h.size != size)
        die ("%s:20: world size %d, other files of '%s' say %d", t[i].path,
             (int) t[i].h.size, dir, (int) size);
      for (uint64_t k = 0; k < t[i].h.nrecords; k++)
        {
          struct trace_record r;
          ts = trace_decode_record (t[i].data, k, &r, &off);
          if (ts != TRACE_OK)
            die ("%s:%zu: %s %u", t[i].path, off, trace_strerror (ts),
                 (unsigned) r.call);
          if (k % CHECKED == CHECKED - 1)
            let_go (&t[i], k + 1 - CHECKED, k + 1);
        }
      let_go (&t[i], t[i].h.nrecords / CHECKED * CHECKED,
              t[i].h.nrecords);
    }
  *ntp = nt;
  *sizep = size;
  return t;
}

static struct poptOption dump_options[] = {
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* Ranks without a trace and incomplete traces, as metadata and
   warnings.  Returns whether the run's trace is complete.  */
static int
dump_completeness (tsv_writer *w, const char *dir,
                   const struct rank_trace *t, size_t nt, int32_t size)
{
  int complete = (int32_t) nt == size;
  char missing[256] = "";
  for (int32_t r = 0, i = 0; r < size; r++)
    {
      if ((size_t) i < nt && t[i].h.rank == r)
        {
          i++;
          continue;
        }
      size_t l = strlen (missing);
      if (l < sizeof missing - 16)
        snprintf (missing + l, sizeof missing - l, "%s%d", l ? " " : "",
                  (int) r);
    }
  if (*missing)
    {
      tsv_meta (w, "trace_missing_ranks", "%s", missing);
      warn ("%s: no trace of rank(s) %s of %d", dir, missing, (int) size);
    }
  for (size_t i = 0; i < nt; i++)
    {
      char why[64];
      if (why_incomplete (&t[i].h, why, sizeof why))
        {
          complete = 0;
          char key[64];
          snprintf (key, sizeof key, "trace_rank_%d", (int) t[i].h.rank);
          tsv_meta (w, key, "incomplete (%s)", why);
          warn ("%s: incomplete (%s)", t[i].path, why);
        }
    }
  return complete;
}

/* The rows of one rank's trace.  */
static void
dump_rank (tsv_writer *w, const struct rank_trace *t)
{
  const struct trace_header *h = &t->h;
  double tick = h->wtick > 0 ? h->wtick * 1e6 : 0;
  double prev_end = 0;
  for (uint64_t k = 0; k < h->nrecords; k++)
    {
      struct trace_record r;
      size_t off;
      trace_decode_record (t->data, k, &r, &off);
      double ts = (r.t_start - h->t0) * 1e6, te = (r.t_end - h->t0) * 1e6;
      tsv_put_int (w, h->rank);
      tsv_put_int (w, r.seq);
      put_call (w, &r);
      put_time (w, ts, tick);
      put_time (w, te, tick);
      put_opt (w, r.comm);
      put_opt (w, r.peer);
      put_opt (w, r.tag);
      put_opt (w, r.bytes);
      put_opt (w, r.root);
      put_opt (w, r.request);
      tsv_put_int (w, (r.flags & TRACE_R_DONE) != 0);
      tsv_put_str (w, wild_name (r.flags));
      put_opt (w, r.aux);
      /* The time the rank spent outside MPI before this call (0 for
         the second record of one call: waitall, sendrecv_recv ...).  */
      if (k == 0)
        tsv_put_na (w);
      else
        put_time (w, ts > prev_end ? ts - prev_end : 0, tick);
      if (te > prev_end || k == 0)
        prev_end = te;
      tsv_end_row (w);
    }
}

/* The one DIR argument of subcommand WHAT (the --dir of a traced run).  */
static const char *
one_dir (poptContext con, const char *what)
{
  const char **args = poptGetArgs (con);
  if (!args || !args[0])
    die_usage ("%s: missing DIR (the --dir of the traced run)", what);
  if (args[1])
    die_usage ("%s: one DIR only, got also '%s'", what, args[1]);
  return args[0];
}

/* The standard output of a listing (dump, profile) of the NT traces T of
   DIR, SIZE ranks, with its metadata up to whether the traces are
   complete.  */
static tsv_writer *
open_listing (const char *what, const char *dir,
              const struct rank_trace *t, size_t nt, int32_t size)
{
  tsv_writer *w = tsv_writer_open (NULL);
  tsv_write_tool_meta (w, what);
  tsv_meta (w, "nprocs", "%d", (int) size);
  tsv_meta (w, "trace_dir", "%s", dir);
  int complete = dump_completeness (w, dir, t, nt, size);
  tsv_meta (w, "trace_complete", "%s", complete ? "yes" : "no");
  char untraced[1024];
  if (untraced_list (t, nt, untraced, sizeof untraced))
    {
      tsv_meta (w, "untraced_calls", "%s", untraced);
      warn ("%s: calls that are not traced: %s", dir, untraced);
    }
  return w;
}

static void
free_traces (struct rank_trace *t, size_t nt)
{
  for (size_t i = 0; i < nt; i++)
    {
      free (t[i].path);
      if (t[i].mapped)
        munmap (t[i].data, t[i].len);
      else
        free (t[i].data);
    }
  free (t);
}

/* The seconds the tracing library spent writing, per rank.  */
static void
write_time_meta (tsv_writer *w, const struct rank_trace *t, size_t nt)
{
  char list[512] = "";
  size_t l = 0;
  for (size_t i = 0; i < nt && l < sizeof list - 32; i++)
    l += (size_t) snprintf (list + l, sizeof list - l, "%s%.6g",
                            i ? " " : "", t[i].h.write_s);
  tsv_meta (w, "tracer_write_s", "%s", list);
}

static int
dump (int argc, const char **argv)
{
  poptContext con = cli_parse (argc, argv, dump_options, "DIR", NULL);
  const char *dir = one_dir (con, "dump");

  size_t nt;
  int32_t size;
  struct rank_trace *t = load_traces (dir, &nt, &size);
  tsv_writer *w = open_listing ("dump", dir, t, nt, size);
  tsv_meta (w, "wtick", "%g", nt ? t[0].h.wtick : 0.0);
  write_time_meta (w, t, nt);
  tsv_meta_time_unit (w, "us");
  static const char *const cols[] = {
    "rank", "seq", "call", "t_start", "t_end", "comm", "peer", "tag",
    "bytes", "root", "request", "complete", "wild", "aux", "compute"
  };
  tsv_write_header (w, sizeof cols / sizeof cols[0], cols);
  for (size_t i = 0; i < nt; i++)
    dump_rank (w, &t[i]);
  tsv_writer_close (w);
  free_traces (t, nt);
  poptFreeContext (con);
  return 0;
}

/* ------------------------------------------------------------- profile */

static struct poptOption profile_options[] = {
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

/* Is record K the second or later record of one call (a member row after
   its communicator's creation, the receive half of a Sendrecv, the next
   request of one Waitall, Testall, Waitsome, Testsome or unsuccessful
   Testany)?  */
static int
continues_call (const struct trace_record *r, const struct trace_record *prev)
{
  if (r->call == TRACE_MEMBER || r->call == TRACE_SENDRECV_RECV
      || r->call == TRACE_SENDCOUNT || r->call == TRACE_RECVCOUNT)
    return 1;
  return prev && r->call == prev->call
         && (r->call == TRACE_WAITALL || r->call == TRACE_TESTALL
             || r->call == TRACE_WAITSOME || r->call == TRACE_TESTSOME
             || r->call == TRACE_TESTANY)
         && r->t_start == prev->t_start && r->t_end == prev->t_end;
}

struct callsum
{
  unsigned call;      /* TRACE_NCALLS: compute */
  int64_t count;
  double us;
};

/* The measured breakdown of one rank: time outside MPI (compute), then
   each call kind in the order of its first call.  */
static void
profile_rank (tsv_writer *w, const struct rank_trace *t)
{
  const struct trace_header *h = &t->h;
  double tick = h->wtick > 0 ? h->wtick * 1e6 : 0;
  struct callsum *s = xcalloc (1, sizeof *s);
  size_t ns = 1;
  s[0].call = UINT_MAX;
  struct trace_record prev = { 0 };
  double prev_end = 0;
  for (uint64_t k = 0; k < h->nrecords; k++)
    {
      struct trace_record r;
      size_t off;
      trace_decode_record (t->data, k, &r, &off);
      if (r.call == TRACE_UNTRACED)   /* counts, in #@untraced_calls */
        continue;
      double ts = (r.t_start - h->t0) * 1e6, te = (r.t_end - h->t0) * 1e6;
      if (!continues_call (&r, k ? &prev : NULL))
        {
          if (k > 0)
            {
              s[0].count++;
              s[0].us += ts > prev_end ? ts - prev_end : 0;
            }
          size_t i = 1;
          while (i < ns && s[i].call != r.call)
            i++;
          if (i == ns)
            {
              s = xrealloc (s, ++ns * sizeof *s);
              s[i] = (struct callsum) { r.call, 0, 0 };
            }
          s[i].count++;
          s[i].us += te > ts ? te - ts : 0;
        }
      if (k == 0 || te > prev_end)
        prev_end = te;
      prev = r;
    }
  for (size_t i = 0; i < ns; i++)
    {
      tsv_put_int (w, h->rank);
      tsv_put_str (w, i ? trace_call_name (s[i].call) : "compute");
      tsv_put_int (w, s[i].count);
      put_time (w, s[i].us, tick);
      tsv_end_row (w);
    }
  free (s);
}

static int
profile (int argc, const char **argv)
{
  poptContext con = cli_parse (argc, argv, profile_options, "DIR", NULL);
  const char *dir = one_dir (con, "profile");
  size_t nt;
  int32_t size;
  struct rank_trace *t = load_traces (dir, &nt, &size);
  tsv_writer *w = open_listing ("profile", dir, t, nt, size);
  tsv_meta_time_unit (w, "us");
  static const char *const cols[] = { "rank", "call", "count", "time" };
  tsv_write_header (w, 4, cols);
  for (size_t i = 0; i < nt; i++)
    profile_rank (w, &t[i]);
  tsv_writer_close (w);
  free_traces (t, nt);
  poptFreeContext (con);
  return 0;
}

/* ---------------------------------------------------------------- goal */

static const char *opt_algo[TOGOAL_NCOLL];
static char *opt_coll_arg[TOGOAL_NCOLL];  /* popt's copies, freed at the end */
static int opt_partial;
static char *opt_scale_compute, *opt_map, *opt_window;
static int opt_verbose;

enum { OPT_COLL = 1 };

static struct poptOption goal_options[] = {
  { "coll", '\0', POPT_ARG_STRING, NULL, OPT_COLL,
    "expand collective OP with algorithm ALGO (dag-predict gen coll:list); "
    "repeatable", "OP=ALGO" },
  { "partial", '\0', POPT_ARG_NONE, &opt_partial, 0,
    "convert an incomplete trace (a rank that aborted, or a missing rank) "
    "up to each rank's last recorded call", NULL },
  { "scale-compute", '\0', POPT_ARG_STRING, &opt_scale_compute, 0,
    "multiply every compute time by F (what-if: a CPU F times as slow; "
    "default 1)", "F" },
  { "map", '\0', POPT_ARG_STRING, &opt_map, 0,
    "write each operation's source call to FILE (rank task op seq call), "
    "for msgperf-trace attribute", "FILE" },
  { "window", '\0', POPT_ARG_STRING, &opt_window, 0,
    "operations per rank kept in memory while converting, the others in "
    "a temporary file in TMPDIR (0: all in memory; default 65536)", "N" },
  { "verbose", 'v', POPT_ARG_NONE, &opt_verbose, 0,
    "say on stderr the records converted, the time and the peak memory",
    NULL },
  CLI_COMMON_OPTIONS,
  POPT_TABLEEND
};

static void
goal_option (int val, poptContext con)
{
  if (val != OPT_COLL)
    return;
  char *a = poptGetOptArg (con);
  const char *eq = a ? strchr (a, '=') : NULL;
  if (!eq)
    die_usage ("--coll '%s': expected OP=ALGO (e.g. bcast=binomial)",
               a ? a : "");
  int op = -1;
  for (int i = 0; i < TOGOAL_NCOLL; i++)
    if (strlen (togoal_coll_op (i)) == (size_t) (eq - a)
        && strncmp (a, togoal_coll_op (i), (size_t) (eq - a)) == 0)
      op = i;
  if (op < 0)
    die_usage ("--coll '%s': unknown operation '%.*s' (barrier, bcast, "
               "reduce, allreduce, allgather, alltoall, gather, scatter, "
               "gatherv, scatterv, allgatherv, alltoallv, reduce_scatter, "
               "reduce_scatter_block, scan, exscan)",
               a, (int) (eq - a), a);
  char known[512] = "";
  int found = 0;
  size_t ol = (size_t) (eq - a);
  const char *const *own = togoal_coll_algos (op);
  for (size_t i = 0; own ? own[i] != NULL : dag_coll_algorithms[i][0] != NULL;
       i++)
    {
      /* togoal's own names, or the generators' "OP:ALGO" */
      const char *n = own ? own[i] : dag_coll_algorithms[i][0];
      if (!own && (strncmp (n, a, ol) != 0 || n[ol] != ':'))
        continue;
      if (!own)
        n += ol + 1;
      if (strcmp (n, eq + 1) == 0)
        found = 1;
      size_t l = strlen (known);
      snprintf (known + l, sizeof known - l, "%s%s", l ? ", " : "", n);
    }
  if (!found)
    die_usage ("--coll '%s': unknown %.*s algorithm '%s' (%s)", a,
               (int) (eq - a), a, eq + 1, known);
  free (opt_coll_arg[op]);
  opt_coll_arg[op] = a;
  opt_algo[op] = eq + 1;
}

/* One row of --map: the operation LABEL of RANK comes from record SEQ,
   call CALL.  */
static void
map_row (void *ctx, int32_t rank, const char *label, uint64_t seq,
         const char *call)
{
  tsv_writer *w = ctx;
  tsv_put_int (w, rank);
  tsv_put_str (w, label);
  tsv_put_str (w, label[0] == 'c' ? "calc" : label[0] == 's' ? "send"
                  : "recv");
  tsv_put_int (w, (int64_t) seq);
  tsv_put_str (w, call);
  tsv_end_row (w);
}

/* T's records where the file holds them in the struct's layout
   (traceformat.h's TRACE_RECORD_NATIVE, the mapping page-aligned and
   the header a multiple of 8 bytes), all of them in *N; NULL when they
   must be decoded.  Read in place, a mapped trace is never copied.  */
static const struct trace_record *
records_in_place (const struct rank_trace *t, uint64_t *n)
{
#ifdef TRACE_RECORD_NATIVE
  if (!t->mapped || TRACE_HEADER_SIZE % 8 != 0
      || sizeof (struct trace_record) != TRACE_RECORD_SIZE)
    return NULL;
  const struct trace_record *rec
    = (const struct trace_record *) (t->data + TRACE_HEADER_SIZE);
  *n = t->h.nrecords;       /* the counts too, which goal skips */
  return rec;
#else
  (void) t;
  (void) n;
  return NULL;
#endif
}

/* The records of the NT traces T of DIR (SIZE ranks) into RANKS, their
   arrays in RECS[i] (the caller frees them), without the counts of
   untraced calls (said apart); whether the run's trace is incomplete
   (which needs --partial).  */
static int
goal_records (const char *dir, const struct rank_trace *t, size_t nt,
              int32_t size, struct togoal_rank *ranks,
              struct trace_record **recs)
{
  int incomplete = 0;
  for (size_t i = 0; i < nt; i++)
    {
      char why[64];
      if (why_incomplete (&t[i].h, why, sizeof why))
        {
          if (!opt_partial)
            die ("%s: incomplete trace (%s): give --partial to convert it "
                 "up to its last recorded call", t[i].path, why);
          warn ("%s: incomplete (%s): its schedule ends at its last "
                "recorded call", t[i].path, why);
          incomplete = 1;
        }
      uint64_t n = 0;
      const struct trace_record *in_place = records_in_place (&t[i], &n);
      if (!in_place)
        {
          recs[i] = xmalloc ((t[i].h.nrecords ? t[i].h.nrecords : 1)
                             * sizeof *recs[i]);
          for (uint64_t k = 0; k < t[i].h.nrecords; k++)
            {
              size_t off;
              trace_decode_record (t[i].data, k, &recs[i][n], &off);
              /* the counts of untraced calls: said below, not
                 converted */
              n += recs[i][n].call != TRACE_UNTRACED;
            }
        }
      ranks[t[i].h.rank] = (struct togoal_rank) {
        &t[i].h, in_place ? in_place : recs[i], n, in_place != NULL };
    }
  if ((int32_t) nt != size)
    {
      if (!opt_partial)
        die ("%s: %zu trace files for %d ranks: give --partial to convert "
             "the others (the missing ranks get empty blocks)", dir, nt,
             (int) size);
      warn ("%s: %zu trace files for %d ranks: the missing ranks get empty "
            "blocks", dir, nt, (int) size);
      incomplete = 1;
    }
  return incomplete;
}

/* The comment lines before the schedule (togoal_input's before).  */
struct goal_head
{
  const char *dir;
  int32_t size;
  int incomplete;
  const char *used, *untraced;
  const uint64_t *cut;
};

static void
goal_head (void *ctx)
{
  const struct goal_head *g = ctx;
  for (int32_t r = 0; g->cut && r < g->size; r++)
    if (g->cut[r])
      warn ("%s: rank %d: the last %" PRIu64 " operations cut (from its "
            "first message without a partner on)", g->dir, (int) r,
            g->cut[r]);
  printf ("// msgperf-trace goal %s: %d ranks%s\n", g->dir, (int) g->size,
          g->incomplete ? " (incomplete trace)" : "");
  printf ("// collectives: %s\n", *g->used ? g->used : "none");
  if (*g->untraced)
    printf ("// untraced calls, not in this schedule: %s\n", g->untraced);
  /* The unit of the times, which dag-predict reads (LogGOPSim's
     default is ns).  */
  printf ("// #@time_unit=us\n");
  if (opt_scale_compute)
    printf ("// compute times multiplied by %s\n", opt_scale_compute);
}

/* --verbose: the records converted, the peak memory and the time.  */
static void
goal_verbose (const struct rank_trace *t, size_t nt)
{
  uint64_t n = 0;
  for (size_t i = 0; i < nt; i++)
    n += t[i].h.nrecords;
  struct rusage ru;
  double peak = getrusage (RUSAGE_SELF, &ru) == 0
                ? (double) ru.ru_maxrss / 1024 : -1;
  fprintf (stderr, "%s: %" PRIu64 " records of %zu ranks converted in "
           "%.1f s; peak memory (resident) %.0f MiB\n", cli.program, n,
           nt, cli_elapsed (), peak);
}

static int
goal (int argc, const char **argv)
{
  poptContext con = cli_parse (argc, argv, goal_options, "DIR", goal_option);
  const char *dir = one_dir (con, "goal");
  double scale = 1;
  if (opt_scale_compute)
    scale = cli_double ("scale-compute", opt_scale_compute, 0, HUGE_VAL);
  if (opt_map && !*opt_map)
    die_usage ("--map: empty file name");
  size_t nt;
  int32_t size;
  struct rank_trace *t = load_traces (dir, &nt, &size);
  struct togoal_rank *ranks = xcalloc ((size_t) size, sizeof *ranks);
  struct trace_record **recs = xcalloc (nt, sizeof *recs);
  int incomplete = goal_records (dir, t, nt, size, ranks, recs);
  uint64_t *cut = incomplete ? xcalloc ((size_t) size, sizeof *cut) : NULL;
  struct togoal_input in = { size, ranks, { NULL }, cli.precision, cut,
                             scale, NULL, NULL, NULL, 0, 0, NULL, NULL, NULL };
  char used[1024];
  in.used = used;
  in.usedsize = sizeof used;
  memcpy (in.algo, opt_algo, sizeof in.algo);
  tsv_writer *mw = NULL;
  if (opt_map)
    {
      mw = tsv_writer_open (opt_map);
      tsv_write_tool_meta (mw, "goal");
      tsv_meta (mw, "nprocs", "%d", (int) size);
      tsv_meta (mw, "trace_dir", "%s", dir);
      static const char *const mcols[] = { "rank", "task", "op", "seq",
                                           "call" };
      tsv_write_header (mw, 5, mcols);
      in.map = map_row;
      in.map_ctx = mw;
    }
  char untraced[1024];
  if (untraced_list (t, nt, untraced, sizeof untraced))
    warn ("%s: calls that are not traced, which this schedule leaves "
          "out: %s", dir, untraced);
  /* nothing is written before the conversion has succeeded (the
     comment lines come from togoal_write's before) */
  struct goal_head head = { dir, size, incomplete, used, untraced, cut };
  in.before = goal_head;
  in.before_ctx = &head;
  in.window = opt_window ? (uint64_t) cli_int ("window", opt_window, 0,
                                               INT64_MAX) : 65536;
  uint64_t cancelled = 0;
  in.cancelled = &cancelled;
  char err[512];
  int rc = togoal_write (stdout, &in, err, sizeof err);
  if (rc != 0)
    die ("%s: %s", dir, err);
  if (cancelled)
    warn ("%s: receives for any source cancelled (MPI_Cancel), left out "
          "of the schedule: %" PRIu64, dir, cancelled);
  free (cut);
  if (opt_verbose)
    goal_verbose (t, nt);
  if (mw)
    tsv_writer_close (mw);
  for (size_t i = 0; i < nt; i++)
    free (recs[i]);
  free (recs);
  free (ranks);
  free_traces (t, nt);
  for (int i = 0; i < TOGOAL_NCOLL; i++)
    free (opt_coll_arg[i]);
  poptFreeContext (con);
  return 0;
}

int
main (int argc, char **argv)
{
  cli_init ("msgperf-trace", argc, argv);
  if (argc >= 2 && strcmp (argv[1], "goal") == 0)
    {
      cli.subcommand = "goal";
      argv[1] = (char *) "msgperf-trace goal";
      return goal (argc - 1, (const char **) argv + 1);
    }
  if (argc >= 2 && strcmp (argv[1], "profile") == 0)
    {
      cli.subcommand = "profile";
      argv[1] = (char *) "msgperf-trace profile";
      return profile (argc - 1, (const char **) argv + 1);
    }
  if (argc >= 2 && strcmp (argv[1], "attribute") == 0)
    {
      cli.subcommand = "attribute";
      argv[1] = (char *) "msgperf-trace attribute";
      return attribute (argc - 1, (const char **) argv + 1);
    }
  if (argc >= 2 && strcmp (argv[1], "dump") == 0)
    {
      cli.subcommand = "dump";
      argv[1] = (char *) "msgperf-trace dump";
      return dump (argc - 1, (const char **) argv + 1);
    }
  return trace_run (argc, argv);
}
