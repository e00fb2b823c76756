/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wrapcoll.c: the collectives and communicator calls libmsgperf-trace
   interposes (wrap.c has the others).  What each record holds is listed
   in msgperf-trace(1), RECORDS.  */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "wrapbase.h"

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
