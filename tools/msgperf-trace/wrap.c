/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wrap.c: the MPI calls libmsgperf-trace interposes (MPI profiling
   interface: each MPI_X times and calls PMPI_X, then records it).  What
   each record holds is listed in msgperf-trace(1), RECORDS.  */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "clock.h"
#include "tracebuf.h"
#include "untraced.h"

/* Clock units since MPI_Init (clock.h): seconds when written.  */
static double
now (void)
{
  return trace_clock_now ();
}

/* The sizes of the predefined datatypes, whose handles stay valid and
   keep their size for the whole run, in a table filled at MPI_Init;
   other types (derived ones, which may be freed and their handle
   reused) are asked of PMPI_Type_size at each call.  */
#define NTYPES 128   /* a power of two, more than twice the types */
static MPI_Datatype type_keys[NTYPES];
static int type_sizes[NTYPES];

static size_t
type_slot (MPI_Datatype type)
{
  uint64_t h = (uint64_t) (uintptr_t) type * 0x9E3779B97F4A7C15ull;
  return (size_t) (h >> 40) & (NTYPES - 1);
}

static void
types_start (void)
{
  const MPI_Datatype predefined[] = {
    MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_WCHAR,
    MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT, MPI_UNSIGNED, MPI_LONG,
    MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG,
    MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_C_BOOL, MPI_INT8_T,
    MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T, MPI_UINT16_T,
    MPI_UINT32_T, MPI_UINT64_T, MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
    MPI_C_LONG_DOUBLE_COMPLEX, MPI_AINT, MPI_OFFSET, MPI_COUNT,
    MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT, MPI_SHORT_INT,
    MPI_LONG_DOUBLE_INT, MPI_PACKED
  };
  for (size_t i = 0; i < NTYPES; i++)
    type_keys[i] = MPI_DATATYPE_NULL;
  for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
    {
      MPI_Datatype t = predefined[i];
      int size;
      /* A type this MPI does not provide is MPI_DATATYPE_NULL.  */
      if (t == MPI_DATATYPE_NULL || PMPI_Type_size (t, &size) != MPI_SUCCESS)
        continue;
      size_t j = type_slot (t);
      while (type_keys[j] != MPI_DATATYPE_NULL && type_keys[j] != t)
        j = (j + 1) & (NTYPES - 1);
      type_keys[j] = t;
      type_sizes[j] = size;
    }
}

static int64_t
nbytes (int count, MPI_Datatype type)
{
  if (type == MPI_DATATYPE_NULL)
    return -1;
  for (size_t j = type_slot (type); type_keys[j] != MPI_DATATYPE_NULL;
       j = (j + 1) & (NTYPES - 1))
    if (type_keys[j] == type)
      return (int64_t) count * type_sizes[j];
  int size = 0;
  if (PMPI_Type_size (type, &size) != MPI_SUCCESS)
    return -1;
  return (int64_t) count * size;
}

/* Bytes a receive got, from its status.  */
static int64_t
got_bytes (const MPI_Status *st)
{
  int n = 0;
  if (PMPI_Get_count (st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
    return -1;
  return n;
}

static int32_t
comm_id (MPI_Comm comm)
{
  if (comm == MPI_COMM_NULL)
    return -1;
  int32_t id = tracebuf_comm_id ((uintptr_t) comm);
  /* Made by a call the library does not trace (MPI_Comm_create_group,
     MPI_Intercomm_create ...): an
     id at its first use, without member records.  */
  return id >= 0 ? id : tracebuf_comm_add ((uintptr_t) comm);
}

/* A new record of CALL on COMM from T0 to T1, or NULL (buffer full).  */
static struct trace_record *
rec (enum trace_call call, double t0, double t1, MPI_Comm comm)
{
  struct trace_record *r = tracebuf_next ();
  if (!r)
    return NULL;
  r->call = (uint16_t) call;
  r->t_start = t0;
  r->t_end = t1;
  r->comm = comm == MPI_COMM_NULL ? -1 : comm_id (comm);
  r->flags = TRACE_R_DONE;
  return r;
}

static uint16_t
wild (int source, int tag)
{
  return (uint16_t) ((source == MPI_ANY_SOURCE ? TRACE_R_ANY_SOURCE : 0)
                     | (tag == MPI_ANY_TAG ? TRACE_R_ANY_TAG : 0));
}

/* ---------------------------------------------------------------- init */
static void
start (void)
{
  int rank = 0, size = 1, flag = 0, *global = NULL;
  PMPI_Comm_rank (MPI_COMM_WORLD, &rank);
  PMPI_Comm_size (MPI_COMM_WORLD, &size);
  PMPI_Comm_get_attr (MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &global, &flag);
  types_start ();
  /* The clock's origin next to MPI_Wtime's reading: the records' times
     are on its base.  */
  double t0 = PMPI_Wtime ();
  char why[256];
  if (trace_clock_start (getenv ("MSGPERF_TRACE_CLOCK"), why, sizeof why)
      != 0)
    {
      fprintf (stderr, "libmsgperf-trace: rank %d: MSGPERF_TRACE_CLOCK: %s: "
               "not tracing\n", rank, why);
      return;
    }
  if (tracebuf_start (rank, size, t0, PMPI_Wtick (),
                      flag && global && *global) != 0)
    return;
  tracebuf_comm_add ((uintptr_t) MPI_COMM_WORLD);
  tracebuf_comm_add ((uintptr_t) MPI_COMM_SELF);
  /* The origin again, now that the buffer is made: the tracer's start-up
     (0.6 ms, measured as a first compute gap before this) is not the
     program's.  The same clock: it was usable a moment ago.  */
  t0 = PMPI_Wtime ();
  trace_clock_start (getenv ("MSGPERF_TRACE_CLOCK"), why, sizeof why);
  tracebuf_origin (t0);
  /* At the origin: 0 units, t0.  */
  if (rec (TRACE_INIT, 0, 0, MPI_COMM_WORLD))
    tracebuf_commit ();
}

int
MPI_Init (int *argc, char ***argv)
{
  int rc = PMPI_Init (argc, argv);
  if (rc == MPI_SUCCESS)
    start ();
  return rc;
}

int
MPI_Init_thread (int *argc, char ***argv, int required, int *provided)
{
  int rc = PMPI_Init_thread (argc, argv, required, provided);
  if (rc == MPI_SUCCESS)
    start ();
  return rc;
}

int
MPI_Finalize (void)
{
  if (tracebuf_on)
    {
      untraced_records ();
      double t = now ();
      if (rec (TRACE_FINALIZE, t, t, MPI_COMM_WORLD))
        tracebuf_commit ();
      tracebuf_write (TRACE_F_COMPLETE);
    }
  return PMPI_Finalize ();
}

int
MPI_Abort (MPI_Comm comm, int errorcode)
{
  if (tracebuf_on)
    {
      untraced_records ();
      double t = now ();
      struct trace_record *r = rec (TRACE_ABORT, t, t, comm);
      if (r)
        {
          r->tag = errorcode;
          tracebuf_commit ();
        }
      tracebuf_write (TRACE_F_ABORT);
    }
  return PMPI_Abort (comm, errorcode);
}

/* ---------------------------------------------------------------- sends */
static int
send_like (enum trace_call call, double t0, int rc, int count,
           MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  double t1 = now ();
  struct trace_record *r = rec (call, t0, t1, comm);
  if (r)
    {
      r->peer = dest;
      r->tag = tag;
      r->bytes = nbytes (count, type);
      tracebuf_commit ();
    }
  return rc;
}

int
MPI_Send (const void *buf, int count, MPI_Datatype type, int dest, int tag,
          MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Send (buf, count, type, dest, tag, comm);
  double t0 = now ();
  int rc = PMPI_Send (buf, count, type, dest, tag, comm);
  return send_like (TRACE_SEND, t0, rc, count, type, dest, tag, comm);
}

int
MPI_Ssend (const void *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Ssend (buf, count, type, dest, tag, comm);
  double t0 = now ();
  int rc = PMPI_Ssend (buf, count, type, dest, tag, comm);
  return send_like (TRACE_SSEND, t0, rc, count, type, dest, tag, comm);
}

/* A non-blocking send or receive just posted: its record and request.  */
static int
post (enum trace_call call, double t0, int rc, int count, MPI_Datatype type,
      int peer, int tag, MPI_Comm comm, MPI_Request *req)
{
  double t1 = now ();
  struct tracebuf_req p;
  memset (&p, 0, sizeof p);
  p.bytes = nbytes (count, type);
  p.comm = comm_id (comm);
  p.peer = peer == MPI_ANY_SOURCE ? -1 : peer;
  p.tag = tag == MPI_ANY_TAG ? -1 : tag;
  p.call = (uint16_t) call;
  p.flags = call == TRACE_IRECV ? wild (peer, tag) : 0;
  int64_t id = rc == MPI_SUCCESS
               ? tracebuf_request_new ((uintptr_t) *req, &p) : -1;
  struct trace_record *r = rec (call, t0, t1, comm);
  if (r)
    {
      r->peer = p.peer;
      r->tag = p.tag;
      r->bytes = p.bytes;
      r->request = id;
      r->flags = p.flags;   /* posted, not done */
      tracebuf_commit ();
    }
  return rc;
}

int
MPI_Isend (const void *buf, int count, MPI_Datatype type, int dest, int tag,
           MPI_Comm comm, MPI_Request *req)
{
  if (!tracebuf_on)
    return PMPI_Isend (buf, count, type, dest, tag, comm, req);
  double t0 = now ();
  int rc = PMPI_Isend (buf, count, type, dest, tag, comm, req);
  return post (TRACE_ISEND, t0, rc, count, type, dest, tag, comm, req);
}

int
MPI_Issend (const void *buf, int count, MPI_Datatype type, int dest, int tag,
            MPI_Comm comm, MPI_Request *req)
{
  if (!tracebuf_on)
    return PMPI_Issend (buf, count, type, dest, tag, comm, req);
  double t0 = now ();
  int rc = PMPI_Issend (buf, count, type, dest, tag, comm, req);
  return post (TRACE_ISSEND, t0, rc, count, type, dest, tag, comm, req);
}

int
MPI_Irecv (void *buf, int count, MPI_Datatype type, int source, int tag,
           MPI_Comm comm, MPI_Request *req)
{
  if (!tracebuf_on)
    return PMPI_Irecv (buf, count, type, source, tag, comm, req);
  double t0 = now ();
  int rc = PMPI_Irecv (buf, count, type, source, tag, comm, req);
  return post (TRACE_IRECV, t0, rc, count, type, source, tag, comm, req);
}

/* ---------------------------------------------------------------- receives
   The record of a completed receive (or probe): the matched source and
   tag from the status, the bytes it holds.  */
static void
matched (enum trace_call call, double t0, double t1, MPI_Comm comm,
         int source, int tag, const MPI_Status *st, int done)
{
  struct trace_record *r = rec (call, t0, t1, comm);
  if (!r)
    return;
  r->flags = wild (source, tag);
  if (done)
    {
      r->flags |= TRACE_R_DONE;
      r->peer = st->MPI_SOURCE;
      r->tag = st->MPI_TAG;
      r->bytes = got_bytes (st);
    }
  else
    {
      r->peer = source == MPI_ANY_SOURCE ? -1 : source;
      r->tag = tag == MPI_ANY_TAG ? -1 : tag;
    }
  tracebuf_commit ();
}

int
MPI_Recv (void *buf, int count, MPI_Datatype type, int source, int tag,
          MPI_Comm comm, MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Recv (buf, count, type, source, tag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  double t0 = now ();
  int rc = PMPI_Recv (buf, count, type, source, tag, comm, st);
  matched (TRACE_RECV, t0, now (), comm, source, tag, st, 1);
  return rc;
}

int
MPI_Probe (int source, int tag, MPI_Comm comm, MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Probe (source, tag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  double t0 = now ();
  int rc = PMPI_Probe (source, tag, comm, st);
  matched (TRACE_PROBE, t0, now (), comm, source, tag, st, 1);
  return rc;
}

int
MPI_Iprobe (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Iprobe (source, tag, comm, flag, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  double t0 = now ();
  int rc = PMPI_Iprobe (source, tag, comm, flag, st);
  matched (TRACE_IPROBE, t0, now (), comm, source, tag, st, *flag);
  return rc;
}

/* The send half ("sendrecv") and the receive half ("sendrecv_recv") of
   one call, with the same times.  */
int
MPI_Sendrecv (const void *sbuf, int scount, MPI_Datatype stype, int dest,
              int stag, void *rbuf, int rcount, MPI_Datatype rtype,
              int source, int rtag, MPI_Comm comm, MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Sendrecv (sbuf, scount, stype, dest, stag, rbuf, rcount,
                          rtype, source, rtag, comm, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  double t0 = now ();
  int rc = PMPI_Sendrecv (sbuf, scount, stype, dest, stag, rbuf, rcount,
                          rtype, source, rtag, comm, st);
  double t1 = now ();
  struct trace_record *r = rec (TRACE_SENDRECV, t0, t1, comm);
  if (r)
    {
      r->peer = dest;
      r->tag = stag;
      r->bytes = nbytes (scount, stype);
      tracebuf_commit ();
    }
  matched (TRACE_SENDRECV_RECV, t0, t1, comm, source, rtag, st, 1);
  return rc;
}

/* ---------------------------------------------------------------- persistent
   MPI_Send_init, MPI_Ssend_init and MPI_Recv_init are recorded with what
   they set up (no request id: nothing is posted yet); each MPI_Start of
   the request is a start_send or start_recv record with those values and
   a new request id, which its wait or test completes like an Isend's or
   Irecv's.  */
struct persistent
{
  uintptr_t key;
  struct tracebuf_req p;
};

static struct persistent *pers;
static size_t npers, cappers;

static struct persistent *
pers_find (uintptr_t key)
{
  for (size_t i = 0; i < npers; i++)
    if (pers[i].key == key)
      return &pers[i];
  return NULL;
}

static int
init_like (enum trace_call call, double t0, int rc, int count,
           MPI_Datatype type, int peer, int tag, MPI_Comm comm,
           MPI_Request *req)
{
  double t1 = now ();
  struct tracebuf_req p;
  memset (&p, 0, sizeof p);
  p.bytes = nbytes (count, type);
  p.comm = comm_id (comm);
  p.peer = peer == MPI_ANY_SOURCE ? -1 : peer;
  p.tag = tag == MPI_ANY_TAG ? -1 : tag;
  p.call = (uint16_t) (call == TRACE_RECV_INIT ? TRACE_START_RECV
                                               : TRACE_START_SEND);
  p.flags = call == TRACE_RECV_INIT ? wild (peer, tag) : 0;
  if (rc == MPI_SUCCESS && *req != MPI_REQUEST_NULL)
    {
      struct persistent *e = pers_find ((uintptr_t) *req);
      if (!e && npers == cappers)
        {
          size_t n = cappers ? 2 * cappers : 16;
          struct persistent *q = realloc (pers, n * sizeof *q);
          if (q)
            {
              pers = q;
              cappers = n;
            }
        }
      if (!e && npers < cappers)
        e = &pers[npers++];
      if (e)
        *e = (struct persistent) { (uintptr_t) *req, p };
    }
  struct trace_record *r = rec (call, t0, t1, comm);
  if (r)
    {
      r->peer = p.peer;
      r->tag = p.tag;
      r->bytes = p.bytes;
      r->flags = (uint16_t) (TRACE_R_DONE | p.flags);
      tracebuf_commit ();
    }
  return rc;
}

int
MPI_Send_init (const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *req)
{
  if (!tracebuf_on)
    return PMPI_Send_init (buf, count, type, dest, tag, comm, req);
  double t0 = now ();
  int rc = PMPI_Send_init (buf, count, type, dest, tag, comm, req);
  return init_like (TRACE_SEND_INIT, t0, rc, count, type, dest, tag, comm,
                    req);
}

int
MPI_Ssend_init (const void *buf, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm, MPI_Request *req)
{
  if (!tracebuf_on)
    return PMPI_Ssend_init (buf, count, type, dest, tag, comm, req);
  double t0 = now ();
  int rc = PMPI_Ssend_init (buf, count, type, dest, tag, comm, req);
  return init_like (TRACE_SEND_INIT, t0, rc, count, type, dest, tag, comm,
                    req);
}

int
MPI_Recv_init (void *buf, int count, MPI_Datatype type, int source, int tag,
               MPI_Comm comm, MPI_Request *req)
{
  if (!tracebuf_on)
    return PMPI_Recv_init (buf, count, type, source, tag, comm, req);
  double t0 = now ();
  int rc = PMPI_Recv_init (buf, count, type, source, tag, comm, req);
  return init_like (TRACE_RECV_INIT, t0, rc, count, type, source, tag, comm,
                    req);
}

/* One started persistent request: a new id, and its record.  */
static void
started (double t0, double t1, MPI_Request req)
{
  struct persistent *e = pers_find ((uintptr_t) req);
  if (!e)
    return;            /* not made by a traced call */
  struct tracebuf_req p = e->p;
  int64_t id = tracebuf_request_new ((uintptr_t) req, &p);
  struct trace_record *r = tracebuf_next ();
  if (!r)
    return;
  r->call = p.call;
  r->t_start = t0;
  r->t_end = t1;
  r->comm = p.comm;
  r->peer = p.peer;
  r->tag = p.tag;
  r->bytes = p.bytes;
  r->request = id;
  r->flags = p.flags;
  tracebuf_commit ();
}

int
MPI_Start (MPI_Request *req)
{
  if (!tracebuf_on)
    return PMPI_Start (req);
  double t0 = now ();
  int rc = PMPI_Start (req);
  if (rc == MPI_SUCCESS)
    started (t0, now (), *req);
  return rc;
}

int
MPI_Startall (int count, MPI_Request reqs[])
{
  if (!tracebuf_on)
    return PMPI_Startall (count, reqs);
  double t0 = now ();
  int rc = PMPI_Startall (count, reqs);
  double t1 = now ();
  for (int i = 0; rc == MPI_SUCCESS && i < count; i++)
    started (t0, t1, reqs[i]);
  return rc;
}

/* A freed persistent request's handle may come back for another.  */
int
MPI_Request_free (MPI_Request *req)
{
  if (tracebuf_on && *req != MPI_REQUEST_NULL)
    {
      struct persistent *e = pers_find ((uintptr_t) *req);
      if (e)
        *e = pers[--npers];
    }
  return PMPI_Request_free (req);
}

/* ---------------------------------------------------------------- waits
   One record per request a call completes (or, for an unsuccessful test,
   per request it looked at), with what the request posted; a receive's
   peer, tag and bytes come from its status.  */
static void
completion (enum trace_call call, double t0, double t1, uintptr_t key,
            const MPI_Status *st, int done, int index)
{
  struct tracebuf_req p;
  if (done)
    tracebuf_request_take (key, &p);
  else
    tracebuf_request_peek (key, &p);
  struct trace_record *r = tracebuf_next ();
  if (!r)
    return;
  r->call = (uint16_t) call;
  r->t_start = t0;
  r->t_end = t1;
  r->comm = p.comm;
  r->request = p.id;
  r->peer = p.peer;
  r->tag = p.tag;
  r->bytes = p.bytes;
  r->aux = index;
  r->flags = (uint16_t) (p.flags | (done ? TRACE_R_DONE : 0));
  if (done && st && (p.call == TRACE_IRECV || p.call == TRACE_START_RECV))
    {
      r->peer = st->MPI_SOURCE;
      r->tag = st->MPI_TAG;
      r->bytes = got_bytes (st);
    }
  tracebuf_commit ();
}

/* The handles of COUNT requests before a call replaces them.  */
static uintptr_t *
keys_of (int count, const MPI_Request *reqs, uintptr_t *small, size_t nsmall)
{
  uintptr_t *k = count > 0 && (size_t) count <= nsmall
                 ? small : malloc ((count > 0 ? (size_t) count : 1) * sizeof *k);
  if (!k)
    return NULL;
  for (int i = 0; i < count; i++)
    k[i] = reqs[i] == MPI_REQUEST_NULL ? 0 : (uintptr_t) reqs[i];
  return k;
}

int
MPI_Wait (MPI_Request *req, MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Wait (req, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  uintptr_t key = *req == MPI_REQUEST_NULL ? 0 : (uintptr_t) *req;
  double t0 = now ();
  int rc = PMPI_Wait (req, st);
  completion (TRACE_WAIT, t0, now (), key, st, 1, -1);
  return rc;
}

int
MPI_Test (MPI_Request *req, int *flag, MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Test (req, flag, status);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  uintptr_t key = *req == MPI_REQUEST_NULL ? 0 : (uintptr_t) *req;
  double t0 = now ();
  int rc = PMPI_Test (req, flag, st);
  completion (TRACE_TEST, t0, now (), key, st, *flag, -1);
  return rc;
}

/* A completion call that completed no traced request: one record of
   the call alone, so that its time is not taken for computation.  */
static void
bare (enum trace_call call, double t0, double t1)
{
  struct trace_record *r = rec (call, t0, t1, MPI_COMM_NULL);
  if (r)
    tracebuf_commit ();
}

/* A test that completed nothing: one unsuccessful record per traced
   request it looked at (KEYS[0..COUNT-1], 0 for none).  Returns whether
   there was one.  */
static int
unsuccessful (enum trace_call call, double t0, double t1,
              const uintptr_t *keys, int count)
{
  int any = 0;
  for (int i = 0; i < count; i++)
    if (keys[i])
      {
        completion (call, t0, t1, keys[i], NULL, 0, i);
        any = 1;
      }
  return any;
}

/* The statuses of a multiple completion: the caller's, or, when it
   ignores them, COUNT of our own (OWN_SMALL, or *OWN allocated; when
   that fails, none).  */
static MPI_Status *
statuses_of (int count, MPI_Status *statuses, MPI_Status *own_small,
             MPI_Status **own)
{
  if (statuses != MPI_STATUSES_IGNORE)
    return statuses;
  *own = count <= 16 ? own_small
         : malloc ((size_t) (count > 0 ? count : 1) * sizeof **own);
  return *own ? *own : MPI_STATUSES_IGNORE;
}

/* Waitall and Testall: COUNT statuses of our own when the caller
   ignores them.  */
static int
all (enum trace_call call, int count, MPI_Request reqs[], int *flag,
     MPI_Status statuses[])
{
  uintptr_t small[64];
  uintptr_t *keys = keys_of (count, reqs, small, 64);
  MPI_Status own_small[16], *own = NULL;
  MPI_Status *st = statuses_of (count, statuses, own_small, &own);
  double t0 = now ();
  int rc = call == TRACE_WAITALL ? PMPI_Waitall (count, reqs, st)
           : PMPI_Testall (count, reqs, flag, st);
  double t1 = now ();
  int done = call == TRACE_WAITALL || *flag;
  int any = 0;
  for (int i = 0; keys && i < count; i++)
    if (keys[i])
      {
        completion (call, t0, t1, keys[i],
                    st == MPI_STATUSES_IGNORE ? NULL : &st[i], done, i);
        any = 1;
      }
  if (!any)
    bare (call, t0, t1);
  if (keys != small)
    free (keys);
  if (own != own_small)
    free (own);
  return rc;
}

int
MPI_Waitall (int count, MPI_Request reqs[], MPI_Status statuses[])
{
  if (!tracebuf_on)
    return PMPI_Waitall (count, reqs, statuses);
  return all (TRACE_WAITALL, count, reqs, NULL, statuses);
}

int
MPI_Testall (int count, MPI_Request reqs[], int *flag, MPI_Status statuses[])
{
  if (!tracebuf_on)
    return PMPI_Testall (count, reqs, flag, statuses);
  return all (TRACE_TESTALL, count, reqs, flag, statuses);
}

int
MPI_Waitany (int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Waitany (count, reqs, index, status);
  uintptr_t small[64];
  uintptr_t *keys = keys_of (count, reqs, small, 64);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  double t0 = now ();
  int rc = PMPI_Waitany (count, reqs, index, st);
  double t1 = now ();
  if (keys && *index != MPI_UNDEFINED && *index >= 0 && *index < count)
    completion (TRACE_WAITANY, t0, t1, keys[*index], st, 1, *index);
  else
    bare (TRACE_WAITANY, t0, t1);
  if (keys != small)
    free (keys);
  return rc;
}

/* Testany: the completed request, or, when none was, one unsuccessful
   record per request it looked at.  */
int
MPI_Testany (int count, MPI_Request reqs[], int *index, int *flag,
             MPI_Status *status)
{
  if (!tracebuf_on)
    return PMPI_Testany (count, reqs, index, flag, status);
  uintptr_t small[64];
  uintptr_t *keys = keys_of (count, reqs, small, 64);
  MPI_Status own;
  MPI_Status *st = status == MPI_STATUS_IGNORE ? &own : status;
  double t0 = now ();
  int rc = PMPI_Testany (count, reqs, index, flag, st);
  double t1 = now ();
  int any = 0;
  if (keys && *flag && *index != MPI_UNDEFINED && *index >= 0
      && *index < count)
    {
      completion (TRACE_TESTANY, t0, t1, keys[*index], st, 1, *index);
      any = 1;
    }
  else if (keys && !*flag)
    any = unsuccessful (TRACE_TESTANY, t0, t1, keys, count);
  if (!any)
    bare (TRACE_TESTANY, t0, t1);
  if (keys != small)
    free (keys);
  return rc;
}

/* Waitsome and Testsome: one record per completed request, or, for a
   Testsome that completed none, one unsuccessful record per request it
   looked at.  */
static int
some (enum trace_call call, int count, MPI_Request reqs[], int *outcount,
      int indices[], MPI_Status statuses[])
{
  uintptr_t small[64];
  uintptr_t *keys = keys_of (count, reqs, small, 64);
  MPI_Status own_small[16], *own = NULL;
  MPI_Status *st = statuses_of (count, statuses, own_small, &own);
  double t0 = now ();
  int rc = call == TRACE_WAITSOME
           ? PMPI_Waitsome (count, reqs, outcount, indices, st)
           : PMPI_Testsome (count, reqs, outcount, indices, st);
  double t1 = now ();
  int any = 0;
  if (keys && *outcount != MPI_UNDEFINED && *outcount > 0)
    for (int j = 0; j < *outcount; j++)
      {
        int i = indices[j];
        if (i >= 0 && i < count && keys[i])
          {
            completion (call, t0, t1, keys[i],
                        st == MPI_STATUSES_IGNORE ? NULL : &st[j], 1, i);
            any = 1;
          }
      }
  else if (keys && *outcount == 0)
    any = unsuccessful (call, t0, t1, keys, count);
  if (!any)
    bare (call, t0, t1);
  if (keys != small)
    free (keys);
  if (own != own_small)
    free (own);
  return rc;
}

int
MPI_Waitsome (int count, MPI_Request reqs[], int *outcount, int indices[],
              MPI_Status statuses[])
{
  if (!tracebuf_on)
    return PMPI_Waitsome (count, reqs, outcount, indices, statuses);
  return some (TRACE_WAITSOME, count, reqs, outcount, indices, statuses);
}

int
MPI_Testsome (int count, MPI_Request reqs[], int *outcount, int indices[],
              MPI_Status statuses[])
{
  if (!tracebuf_on)
    return PMPI_Testsome (count, reqs, outcount, indices, statuses);
  return some (TRACE_TESTSOME, count, reqs, outcount, indices, statuses);
}

/* ---------------------------------------------------------------- collectives */
/* A collective; COUNT (aux) is a reduction's element count, which Open
   MPI's algorithms compare with the communicator size, -1 else.  */
static int
coll_count (enum trace_call call, double t0, int rc, MPI_Comm comm,
            int root, int64_t bytes, int count)
{
  struct trace_record *r = rec (call, t0, now (), comm);
  if (r)
    {
      r->root = root;
      r->bytes = bytes;
      r->aux = count;
      tracebuf_commit ();
    }
  return rc;
}

static int
coll (enum trace_call call, double t0, int rc, MPI_Comm comm, int root,
      int64_t bytes)
{
  return coll_count (call, t0, rc, comm, root, bytes, -1);
}

int
MPI_Barrier (MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Barrier (comm);
  double t0 = now ();
  int rc = PMPI_Barrier (comm);
  return coll (TRACE_BARRIER, t0, rc, comm, -1, 0);
}

int
MPI_Bcast (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Bcast (buf, count, type, root, comm);
  double t0 = now ();
  int rc = PMPI_Bcast (buf, count, type, root, comm);
  return coll (TRACE_BCAST, t0, rc, comm, root, nbytes (count, type));
}

int
MPI_Reduce (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
            MPI_Op op, int root, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Reduce (sbuf, rbuf, count, type, op, root, comm);
  double t0 = now ();
  int rc = PMPI_Reduce (sbuf, rbuf, count, type, op, root, comm);
  return coll_count (TRACE_REDUCE, t0, rc, comm, root, nbytes (count, type),
                     count);
}

int
MPI_Allreduce (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
               MPI_Op op, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Allreduce (sbuf, rbuf, count, type, op, comm);
  double t0 = now ();
  int rc = PMPI_Allreduce (sbuf, rbuf, count, type, op, comm);
  return coll_count (TRACE_ALLREDUCE, t0, rc, comm, -1,
                     nbytes (count, type), count);
}

/* The bytes one rank contributes: the send side, or the receive side's
   block when the send buffer is MPI_IN_PLACE.  */
static int64_t
block (const void *sbuf, int scount, MPI_Datatype stype, int rcount,
       MPI_Datatype rtype)
{
  return sbuf == MPI_IN_PLACE ? nbytes (rcount, rtype)
                              : nbytes (scount, stype);
}

int
MPI_Allgather (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
               int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Allgather (sbuf, scount, stype, rbuf, rcount, rtype, comm);
  double t0 = now ();
  int rc = PMPI_Allgather (sbuf, scount, stype, rbuf, rcount, rtype, comm);
  return coll (TRACE_ALLGATHER, t0, rc, comm, -1,
               block (sbuf, scount, stype, rcount, rtype));
}

int
MPI_Alltoall (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
              int rcount, MPI_Datatype rtype, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Alltoall (sbuf, scount, stype, rbuf, rcount, rtype, comm);
  double t0 = now ();
  int rc = PMPI_Alltoall (sbuf, scount, stype, rbuf, rcount, rtype, comm);
  return coll (TRACE_ALLTOALL, t0, rc, comm, -1,
               block (sbuf, scount, stype, rcount, rtype));
}

int
MPI_Gather (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
            int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Gather (sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
  double t0 = now ();
  int rc = PMPI_Gather (sbuf, scount, stype, rbuf, rcount, rtype, root, comm);
  return coll (TRACE_GATHER, t0, rc, comm, root,
               block (sbuf, scount, stype, rcount, rtype));
}

int
MPI_Scatter (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
             int rcount, MPI_Datatype rtype, int root, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Scatter (sbuf, scount, stype, rbuf, rcount, rtype, root,
                         comm);
  double t0 = now ();
  int rc = PMPI_Scatter (sbuf, scount, stype, rbuf, rcount, rtype, root,
                         comm);
  /* The block each rank receives (the root's send block when it receives
     in place).  */
  int64_t b = rbuf == MPI_IN_PLACE ? nbytes (scount, stype)
                                   : nbytes (rcount, rtype);
  return coll (TRACE_SCATTER, t0, rc, comm, root, b);
}

/* ---------------------------------------------------------------- v-collectives
   A collective with per-rank counts: its record (BYTES this rank's own
   size, COUNT the element count of a reduction or -1), then, for each
   non-NULL count vector, one CALL-kind record per rank of COMM in rank
   order with the bytes sent to it (SENDS, TRACE_SENDCOUNT) or received
   from it (RECVS, TRACE_RECVCOUNT), at the call's end.  */
static void
per_rank (enum trace_call call, double t, MPI_Comm comm, const int *cnt,
          MPI_Datatype type)
{
  int n = 0;
  if (!cnt || PMPI_Comm_size (comm, &n) != MPI_SUCCESS)
    return;
  int32_t id = comm_id (comm);
  for (int i = 0; i < n; i++)
    {
      struct trace_record *m = tracebuf_next ();
      if (!m)
        break;
      m->call = (uint16_t) call;
      m->t_start = m->t_end = t;
      m->comm = id;
      m->peer = i;
      m->bytes = nbytes (cnt[i], type);
      m->flags = TRACE_R_DONE;
      tracebuf_commit ();
    }
}

static int
vcoll (enum trace_call call, double t0, int rc, MPI_Comm comm, int root,
       int64_t bytes, int count, const int *sends, MPI_Datatype stype,
       const int *recvs, MPI_Datatype rtype)
{
  double t1 = now ();
  struct trace_record *r = rec (call, t0, t1, comm);
  if (!r)
    return rc;
  r->root = root;
  r->bytes = bytes;
  r->aux = count;
  tracebuf_commit ();
  per_rank (TRACE_SENDCOUNT, t1, comm, sends, stype);
  per_rank (TRACE_RECVCOUNT, t1, comm, recvs, rtype);
  return rc;
}

static int
my_rank (MPI_Comm comm)
{
  int me = -1;
  PMPI_Comm_rank (comm, &me);
  return me;
}

/* The root receives every rank's block (its receive counts); every rank
   records the block it sends (the root's own, when in place).  */
int
MPI_Gatherv (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
             const int rcounts[], const int displs[], MPI_Datatype rtype,
             int root, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Gatherv (sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                         root, comm);
  double t0 = now ();
  int rc = PMPI_Gatherv (sbuf, scount, stype, rbuf, rcounts, displs, rtype,
                         root, comm);
  int me = my_rank (comm);
  int64_t b = sbuf == MPI_IN_PLACE && me == root
              ? nbytes (rcounts[root], rtype) : nbytes (scount, stype);
  return vcoll (TRACE_GATHERV, t0, rc, comm, root, b, -1, NULL, stype,
                me == root ? rcounts : NULL, rtype);
}

/* The root sends every rank its block (its send counts); every rank
   records the block it receives.  */
int
MPI_Scatterv (const void *sbuf, const int scounts[], const int displs[],
              MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
              int root, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Scatterv (sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                          root, comm);
  double t0 = now ();
  int rc = PMPI_Scatterv (sbuf, scounts, displs, stype, rbuf, rcount, rtype,
                          root, comm);
  int me = my_rank (comm);
  int64_t b = rbuf == MPI_IN_PLACE && me == root
              ? nbytes (scounts[root], stype) : nbytes (rcount, rtype);
  return vcoll (TRACE_SCATTERV, t0, rc, comm, root, b, -1,
                me == root ? scounts : NULL, stype, NULL, rtype);
}

/* Every rank has every rank's block size (its receive counts).  */
int
MPI_Allgatherv (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype,
                MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Allgatherv (sbuf, scount, stype, rbuf, rcounts, displs,
                            rtype, comm);
  double t0 = now ();
  int rc = PMPI_Allgatherv (sbuf, scount, stype, rbuf, rcounts, displs,
                            rtype, comm);
  int64_t b = sbuf == MPI_IN_PLACE ? nbytes (rcounts[my_rank (comm)], rtype)
                                   : nbytes (scount, stype);
  return vcoll (TRACE_ALLGATHERV, t0, rc, comm, -1, b, -1, NULL, stype,
                rcounts, rtype);
}

/* Both vectors; in place, what a rank sends to J is what it receives
   from J.  The record's bytes: all this rank sends.  */
int
MPI_Alltoallv (const void *sbuf, const int scounts[], const int sdispls[],
               MPI_Datatype stype, void *rbuf, const int rcounts[],
               const int rdispls[], MPI_Datatype rtype, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Alltoallv (sbuf, scounts, sdispls, stype, rbuf, rcounts,
                           rdispls, rtype, comm);
  double t0 = now ();
  int rc = PMPI_Alltoallv (sbuf, scounts, sdispls, stype, rbuf, rcounts,
                           rdispls, rtype, comm);
  int n = 0;
  PMPI_Comm_size (comm, &n);
  int in_place = sbuf == MPI_IN_PLACE;
  const int *sc = in_place ? rcounts : scounts;
  MPI_Datatype st = in_place ? rtype : stype;
  int64_t total = 0;
  for (int i = 0; i < n; i++)
    {
      int64_t b = nbytes (sc[i], st);
      total = b < 0 || total < 0 ? -1 : total + b;
    }
  return vcoll (TRACE_ALLTOALLV, t0, rc, comm, -1, total, -1, sc, st,
                rcounts, rtype);
}

/* The reduced vector is every rank's blocks end to end: its size and
   element count, then each rank's block (the receive counts).  */
int
MPI_Reduce_scatter (const void *sbuf, void *rbuf, const int rcounts[],
                    MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Reduce_scatter (sbuf, rbuf, rcounts, type, op, comm);
  double t0 = now ();
  int rc = PMPI_Reduce_scatter (sbuf, rbuf, rcounts, type, op, comm);
  int n = 0;
  PMPI_Comm_size (comm, &n);
  int64_t count = 0, one = nbytes (1, type);
  for (int i = 0; i < n; i++)
    count += rcounts[i];
  /* the count can pass INT_MAX: the record's aux is then -1 */
  return vcoll (TRACE_REDUCE_SCATTER, t0, rc, comm, -1,
                one < 0 ? -1 : count * one,
                count > INT32_MAX ? -1 : (int) count, NULL, type, rcounts,
                type);
}

/* Every rank's block is RCOUNT: the record holds the block.  */
int
MPI_Reduce_scatter_block (const void *sbuf, void *rbuf, int rcount,
                          MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Reduce_scatter_block (sbuf, rbuf, rcount, type, op, comm);
  double t0 = now ();
  int rc = PMPI_Reduce_scatter_block (sbuf, rbuf, rcount, type, op, comm);
  return vcoll (TRACE_REDUCE_SCATTER_BLOCK, t0, rc, comm, -1,
                nbytes (rcount, type), rcount, NULL, type, NULL, type);
}

int
MPI_Scan (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
          MPI_Op op, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Scan (sbuf, rbuf, count, type, op, comm);
  double t0 = now ();
  int rc = PMPI_Scan (sbuf, rbuf, count, type, op, comm);
  return coll_count (TRACE_SCAN, t0, rc, comm, -1, nbytes (count, type),
                     count);
}

int
MPI_Exscan (const void *sbuf, void *rbuf, int count, MPI_Datatype type,
            MPI_Op op, MPI_Comm comm)
{
  if (!tracebuf_on)
    return PMPI_Exscan (sbuf, rbuf, count, type, op, comm);
  double t0 = now ();
  int rc = PMPI_Exscan (sbuf, rbuf, count, type, op, comm);
  return coll_count (TRACE_EXSCAN, t0, rc, comm, -1, nbytes (count, type),
                     count);
}

/* ---------------------------------------------------------------- communicators
   The creation record (comm: the parent, aux: the new id), then one member
   record per rank of the new communicator (peer: its world rank, root:
   its rank in the new communicator).  */
static int
created (enum trace_call call, double t0, int rc, MPI_Comm parent,
         MPI_Comm made)
{
  double t1 = now ();
  int32_t id = -1;
  int n = 0;
  if (rc == MPI_SUCCESS && made != MPI_COMM_NULL)
    {
      id = tracebuf_comm_add ((uintptr_t) made);
      PMPI_Comm_size (made, &n);
    }
  struct trace_record *r = rec (call, t0, t1, parent);
  if (!r)
    return rc;
  r->aux = id;
  tracebuf_commit ();
  if (n <= 0)
    return rc;
  int *mine = malloc ((size_t) n * sizeof *mine);
  int *world = malloc ((size_t) n * sizeof *world);
  MPI_Group g, wg;
  if (mine && world && PMPI_Comm_group (made, &g) == MPI_SUCCESS)
    {
      PMPI_Comm_group (MPI_COMM_WORLD, &wg);
      for (int i = 0; i < n; i++)
        mine[i] = i;
      PMPI_Group_translate_ranks (g, n, mine, wg, world);
      for (int i = 0; i < n; i++)
        {
          struct trace_record *m = tracebuf_next ();
          if (!m)
            break;
          m->call = TRACE_MEMBER;
          m->t_start = m->t_end = t1;
          m->comm = id;
          m->peer = world[i];
          m->root = i;
          m->flags = TRACE_R_DONE;
          tracebuf_commit ();
        }
      PMPI_Group_free (&g);
      PMPI_Group_free (&wg);
    }
  free (mine);
  free (world);
  return rc;
}

int
MPI_Comm_split (MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
  if (!tracebuf_on)
    return PMPI_Comm_split (comm, color, key, newcomm);
  double t0 = now ();
  int rc = PMPI_Comm_split (comm, color, key, newcomm);
  return created (TRACE_COMM_SPLIT, t0, rc, comm, *newcomm);
}

int
MPI_Comm_create (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
  if (!tracebuf_on)
    return PMPI_Comm_create (comm, group, newcomm);
  double t0 = now ();
  int rc = PMPI_Comm_create (comm, group, newcomm);
  return created (TRACE_COMM_CREATE, t0, rc, comm, *newcomm);
}

int
MPI_Comm_dup (MPI_Comm comm, MPI_Comm *newcomm)
{
  if (!tracebuf_on)
    return PMPI_Comm_dup (comm, newcomm);
  double t0 = now ();
  int rc = PMPI_Comm_dup (comm, newcomm);
  return created (TRACE_COMM_DUP, t0, rc, comm, *newcomm);
}

int
MPI_Cart_create (MPI_Comm comm, int ndims, const int dims[],
                 const int periods[], int reorder, MPI_Comm *newcomm)
{
  if (!tracebuf_on)
    return PMPI_Cart_create (comm, ndims, dims, periods, reorder, newcomm);
  double t0 = now ();
  int rc = PMPI_Cart_create (comm, ndims, dims, periods, reorder, newcomm);
  return created (TRACE_CART_CREATE, t0, rc, comm, *newcomm);
}

/* A freed handle may come back for another communicator: forget it.  */
int
MPI_Comm_free (MPI_Comm *comm)
{
  if (tracebuf_on)
    tracebuf_comm_forget ((uintptr_t) *comm);
  return PMPI_Comm_free (comm);
}
