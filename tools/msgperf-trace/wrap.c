/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wrap.c: the MPI calls libmsgperf-trace interposes (MPI profiling
   interface: each MPI_X times and calls PMPI_X, then records it): MPI_Init
   and MPI_Finalize, point-to-point, persistent requests and their
   completion; the collectives and communicators are in wrapcoll.c.  What
   each record holds is listed in msgperf-trace(1), RECORDS.  */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "untraced.h"
#include "wrapbase.h"

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

