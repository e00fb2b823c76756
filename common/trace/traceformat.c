/* SPDX-License-Identifier: GPL-3.0-or-later */
/* traceformat.c: the byte layout of traceformat.h, written and read
   byte by byte so that a trace reads the same on any host; on a
   little-endian host a record is written as the struct's bytes, which
   are the same (the tracing library's per-call cost).  */
#include <config.h>

#include <stddef.h>
#include <string.h>

#include "traceformat.h"

static void
put_u16 (unsigned char *p, uint16_t v)
{
  p[0] = (unsigned char) v;
  p[1] = (unsigned char) (v >> 8);
}

static void
put_u32 (unsigned char *p, uint32_t v)
{
  for (int i = 0; i < 4; i++)
    p[i] = (unsigned char) (v >> (8 * i));
}

static void
put_u64 (unsigned char *p, uint64_t v)
{
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char) (v >> (8 * i));
}

static void
put_f64 (unsigned char *p, double v)
{
  uint64_t u;
  memcpy (&u, &v, sizeof u);
  put_u64 (p, u);
}

static uint16_t
get_u16 (const unsigned char *p)
{
  return (uint16_t) (p[0] | (p[1] << 8));
}

static uint32_t
get_u32 (const unsigned char *p)
{
  uint32_t v = 0;
  for (int i = 3; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

static uint64_t
get_u64 (const unsigned char *p)
{
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--)
    v = (v << 8) | p[i];
  return v;
}

static double
get_f64 (const unsigned char *p)
{
  uint64_t u = get_u64 (p);
  double v;
  memcpy (&v, &u, sizeof v);
  return v;
}

void
trace_encode_header (const struct trace_header *h, unsigned char *out)
{
  memset (out, 0, TRACE_HEADER_SIZE);
  memcpy (out, TRACE_MAGIC, sizeof TRACE_MAGIC);
  put_u32 (out + 8, h->version);
  put_u32 (out + 12, TRACE_RECORD_SIZE);
  put_u32 (out + 16, (uint32_t) h->rank);
  put_u32 (out + 20, (uint32_t) h->size);
  put_u32 (out + 24, h->flags);
  put_u32 (out + 28, (uint32_t) h->signal);
  put_f64 (out + 32, h->t0);
  put_f64 (out + 40, h->wtick);
  put_u64 (out + 48, h->nrecords);
  put_f64 (out + 56, h->write_s);
}

void
trace_encode_record_portable (const struct trace_record *r,
                              unsigned char *out)
{
  put_f64 (out, r->t_start);
  put_f64 (out + 8, r->t_end);
  put_u64 (out + 16, (uint64_t) r->bytes);
  put_u64 (out + 24, (uint64_t) r->request);
  put_u32 (out + 32, r->seq);
  put_u16 (out + 36, r->call);
  put_u16 (out + 38, r->flags);
  put_u32 (out + 40, (uint32_t) r->comm);
  put_u32 (out + 44, (uint32_t) r->peer);
  put_u32 (out + 48, (uint32_t) r->tag);
  put_u32 (out + 52, (uint32_t) r->root);
  put_u32 (out + 56, (uint32_t) r->aux);
  put_u32 (out + 60, 0);
}

#ifdef TRACE_RECORD_NATIVE
/* The struct is the record: each field at its offset, nothing between.  */
_Static_assert (sizeof (struct trace_record) == TRACE_RECORD_SIZE,
                "struct trace_record is not 64 bytes");
_Static_assert (offsetof (struct trace_record, t_end) == 8
                && offsetof (struct trace_record, bytes) == 16
                && offsetof (struct trace_record, request) == 24
                && offsetof (struct trace_record, seq) == 32
                && offsetof (struct trace_record, call) == 36
                && offsetof (struct trace_record, flags) == 38
                && offsetof (struct trace_record, comm) == 40
                && offsetof (struct trace_record, peer) == 44
                && offsetof (struct trace_record, tag) == 48
                && offsetof (struct trace_record, root) == 52
                && offsetof (struct trace_record, aux) == 56
                && offsetof (struct trace_record, spare) == 60,
                "struct trace_record is not laid out as the record");
_Static_assert (sizeof (double) == 8, "double is not 64 bits");

void
trace_encode_record (const struct trace_record *r, unsigned char *out)
{
  memcpy (out, r, offsetof (struct trace_record, spare));
  memset (out + offsetof (struct trace_record, spare), 0, 4);
}
#else
void
trace_encode_record (const struct trace_record *r, unsigned char *out)
{
  trace_encode_record_portable (r, out);
}
#endif

enum trace_status
trace_decode_header (const unsigned char *data, size_t len,
                     struct trace_header *h, size_t *offset)
{
  *offset = 0;
  if (len < TRACE_HEADER_SIZE)
    {
      *offset = len;
      return TRACE_SHORT_HEADER;
    }
  if (memcmp (data, TRACE_MAGIC, sizeof TRACE_MAGIC) != 0)
    return TRACE_BAD_MAGIC;
  h->version = get_u32 (data + 8);
  if (h->version != TRACE_VERSION)
    {
      *offset = 8;
      return TRACE_BAD_VERSION;
    }
  if (get_u32 (data + 12) != TRACE_RECORD_SIZE)
    {
      *offset = 12;
      return TRACE_BAD_RECSIZE;
    }
  h->rank = (int32_t) get_u32 (data + 16);
  h->size = (int32_t) get_u32 (data + 20);
  if (h->size < 1 || h->rank < 0 || h->rank >= h->size)
    {
      *offset = 16;
      return TRACE_BAD_RANK;
    }
  h->flags = get_u32 (data + 24);
  h->signal = (int32_t) get_u32 (data + 28);
  h->t0 = get_f64 (data + 32);
  h->wtick = get_f64 (data + 40);
  h->nrecords = get_u64 (data + 48);
  h->write_s = get_f64 (data + 56);
  size_t have = (len - TRACE_HEADER_SIZE) / TRACE_RECORD_SIZE;
  if (h->nrecords > have)
    {
      /* The first byte of the first record that is not all there.  */
      *offset = TRACE_HEADER_SIZE + have * (size_t) TRACE_RECORD_SIZE
                + (len - TRACE_HEADER_SIZE) % TRACE_RECORD_SIZE;
      return TRACE_TRUNCATED;
    }
  if (h->nrecords < have
      || (len - TRACE_HEADER_SIZE) % TRACE_RECORD_SIZE != 0)
    {
      *offset = TRACE_HEADER_SIZE
                + (size_t) h->nrecords * TRACE_RECORD_SIZE;
      return TRACE_TRAILING;
    }
  return TRACE_OK;
}

enum trace_status
trace_decode_record (const unsigned char *data, uint64_t i,
                     struct trace_record *r, size_t *offset)
{
  size_t at = TRACE_HEADER_SIZE + (size_t) i * TRACE_RECORD_SIZE;
  const unsigned char *p = data + at;
  r->t_start = get_f64 (p);
  r->t_end = get_f64 (p + 8);
  r->bytes = (int64_t) get_u64 (p + 16);
  r->request = (int64_t) get_u64 (p + 24);
  r->seq = get_u32 (p + 32);
  r->call = get_u16 (p + 36);
  r->flags = get_u16 (p + 38);
  r->comm = (int32_t) get_u32 (p + 40);
  r->peer = (int32_t) get_u32 (p + 44);
  r->tag = (int32_t) get_u32 (p + 48);
  r->root = (int32_t) get_u32 (p + 52);
  r->aux = (int32_t) get_u32 (p + 56);
  r->spare = 0;
  *offset = at;
  if (r->call >= TRACE_NCALLS)
    {
      *offset = at + 36;
      return TRACE_BAD_CALL;
    }
  return TRACE_OK;
}

const char *
trace_strerror (enum trace_status s)
{
  switch (s)
    {
    case TRACE_OK: return "no error";
    case TRACE_SHORT_HEADER:
      return "truncated header (a trace starts with 64 bytes of header)";
    case TRACE_BAD_MAGIC: return "bad magic (not a msgperf trace)";
    case TRACE_BAD_VERSION: return "unknown trace format version";
    case TRACE_BAD_RECSIZE: return "record size is not 64";
    case TRACE_BAD_RANK: return "rank outside the world size";
    case TRACE_TRUNCATED:
      return "truncated file (fewer records than the header counts)";
    case TRACE_TRAILING: return "bytes after the last record";
    case TRACE_BAD_CALL: return "unknown call number";
    }
  return "unknown error";
}

static const char *const call_names[TRACE_NCALLS] = {
  [TRACE_INIT] = "init", [TRACE_FINALIZE] = "finalize",
  [TRACE_SEND] = "send", [TRACE_SSEND] = "ssend", [TRACE_ISEND] = "isend",
  [TRACE_ISSEND] = "issend", [TRACE_RECV] = "recv",
  [TRACE_IRECV] = "irecv", [TRACE_SENDRECV] = "sendrecv",
  [TRACE_SENDRECV_RECV] = "sendrecv_recv",
  [TRACE_PROBE] = "probe", [TRACE_IPROBE] = "iprobe",
  [TRACE_WAIT] = "wait", [TRACE_WAITALL] = "waitall",
  [TRACE_WAITANY] = "waitany", [TRACE_TEST] = "test",
  [TRACE_TESTALL] = "testall", [TRACE_BARRIER] = "barrier",
  [TRACE_BCAST] = "bcast", [TRACE_REDUCE] = "reduce",
  [TRACE_ALLREDUCE] = "allreduce", [TRACE_ALLGATHER] = "allgather",
  [TRACE_ALLTOALL] = "alltoall", [TRACE_GATHER] = "gather",
  [TRACE_SCATTER] = "scatter", [TRACE_COMM_SPLIT] = "comm_split",
  [TRACE_COMM_DUP] = "comm_dup", [TRACE_CART_CREATE] = "cart_create",
  [TRACE_MEMBER] = "member", [TRACE_ABORT] = "abort",
  [TRACE_COMM_CREATE] = "comm_create", [TRACE_WAITSOME] = "waitsome",
  [TRACE_TESTANY] = "testany", [TRACE_TESTSOME] = "testsome",
  [TRACE_SEND_INIT] = "send_init", [TRACE_RECV_INIT] = "recv_init",
  [TRACE_START_SEND] = "start_send", [TRACE_START_RECV] = "start_recv",
  [TRACE_GATHERV] = "gatherv", [TRACE_SCATTERV] = "scatterv",
  [TRACE_ALLGATHERV] = "allgatherv", [TRACE_ALLTOALLV] = "alltoallv",
  [TRACE_REDUCE_SCATTER] = "reduce_scatter",
  [TRACE_REDUCE_SCATTER_BLOCK] = "reduce_scatter_block",
  [TRACE_SCAN] = "scan", [TRACE_EXSCAN] = "exscan",
  [TRACE_SENDCOUNT] = "sendcount", [TRACE_RECVCOUNT] = "recvcount",
  [TRACE_UNTRACED] = "untraced",
};

const char *
trace_call_name (unsigned call)
{
  return call < TRACE_NCALLS ? call_names[call] : NULL;
}

const char *
trace_untraced_name (unsigned u)
{
  static const char *const names[] = {
#define TRACE_UNTRACED_NAME(n) "MPI_" #n,
    TRACE_UNTRACED_CALLS (TRACE_UNTRACED_NAME)
#undef TRACE_UNTRACED_NAME
  };
  return u < TRACE_NUNTRACED ? names[u] : NULL;
}
