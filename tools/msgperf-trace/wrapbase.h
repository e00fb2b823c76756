/* SPDX-License-Identifier: GPL-3.0-or-later */
/* wrapbase.h: what the wrappers of libmsgperf-trace share (wrap.c,
   wrapcoll.c, untraced.c): the clock, the sizes of types, communicator
   ids and a new record.  Inline: they are on every call's path, whose
   cost bench/trace-overhead measures.  */
#ifndef MSGPERF_WRAPBASE_H
#define MSGPERF_WRAPBASE_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "clock.h"
#include "tracebuf.h"

/* Clock units since MPI_Init (clock.h): seconds when written.  */
static inline double
now (void)
{
  return trace_clock_now ();
}

/* The sizes of the predefined datatypes, whose handles stay valid and
   keep their size for the whole run, in a table filled at MPI_Init;
   other types (derived ones, which may be freed and their handle
   reused) are asked of PMPI_Type_size at each call.  */
#define NTYPES 128   /* a power of two, more than twice the types */
extern MPI_Datatype wrap_type_keys[NTYPES];
extern int wrap_type_sizes[NTYPES];

static inline size_t
type_slot (MPI_Datatype type)
{
  uint64_t h = (uint64_t) (uintptr_t) type * 0x9E3779B97F4A7C15ull;
  return (size_t) (h >> 40) & (NTYPES - 1);
}

/* Fill the table of the predefined types' sizes (at MPI_Init).  */
void types_start (void);

static inline int64_t
nbytes (int count, MPI_Datatype type)
{
  if (type == MPI_DATATYPE_NULL)
    return -1;
  for (size_t j = type_slot (type); wrap_type_keys[j] != MPI_DATATYPE_NULL;
       j = (j + 1) & (NTYPES - 1))
    if (wrap_type_keys[j] == type)
      return (int64_t) count * wrap_type_sizes[j];
  int size = 0;
  if (PMPI_Type_size (type, &size) != MPI_SUCCESS)
    return -1;
  return (int64_t) count * size;
}

/* Bytes a receive got, from its status.  */
static inline int64_t
got_bytes (const MPI_Status *st)
{
  int n = 0;
  if (PMPI_Get_count (st, MPI_BYTE, &n) != MPI_SUCCESS || n == MPI_UNDEFINED)
    return -1;
  return n;
}

static inline int32_t
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
static inline struct trace_record *
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

static inline uint16_t
wild (int source, int tag)
{
  return (uint16_t) ((source == MPI_ANY_SOURCE ? TRACE_R_ANY_SOURCE : 0)
                     | (tag == MPI_ANY_TAG ? TRACE_R_ANY_TAG : 0));
}

#endif
