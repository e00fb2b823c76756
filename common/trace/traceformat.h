/* SPDX-License-Identifier: GPL-3.0-or-later */
/* traceformat.h: the binary per-rank trace of libmsgperf-trace, written
 * by the tracing library and read by msgperf-trace dump (and later by the
 * trace-to-schedule step).  Pure code: encoding into and decoding from
 * memory, no I/O, no exit; both sides use these functions, so the byte
 * layout is defined once, here.
 *
 * A file DIR/trace.RANK is a header of TRACE_HEADER_SIZE bytes and then
 * NRECORDS records of TRACE_RECORD_SIZE bytes each, all little-endian
 * whatever the host:
 *
 *   header  off size
 *     magic    0  8  "MPTRACE" and a NUL
 *     version  8  4  TRACE_VERSION
 *     recsize 12  4  TRACE_RECORD_SIZE
 *     rank    16  4  rank in MPI_COMM_WORLD
 *     size    20  4  size of MPI_COMM_WORLD
 *     flags   24  4  TRACE_F_* (complete, abort, signal, overflow, ...)
 *     signal  28  4  the fatal signal that wrote the file, else 0
 *     t0      32  8  MPI_Wtime at the end of MPI_Init (seconds)
 *     wtick   40  8  MPI_Wtick (seconds)
 *     nrec    48  8  number of records that follow
 *     write_s 56  8  seconds the library spent writing the records
 *                    (double; its writer thread's and the final
 *                    write's, not its waits), 0 in traces written
 *                    before it was measured
 *
 *   record  off size
 *     t_start  0  8  when the call was entered (seconds, on t0's time
 *                    base: the library adds to t0 the time since t0
 *                    was read, by CLOCK_MONOTONIC, the clock of Open
 *                    MPI's MPI_Wtime, or by the TSC scaled to it)
 *     t_end    8  8  when it returned
 *     bytes   16  8  count x type size (see msgperf-trace(1) per call),
 *                    or -1 for a call that moves no data
 *     request 24  8  request id (1, 2 ... per rank; a persistent
 *                    request gets a new one at each start), or -1
 *     seq     32  4  0, 1, 2 ... in call order on the rank
 *     call    36  2  enum trace_call
 *     flags   38  2  TRACE_R_* (completed, any source, any tag)
 *     comm    40  4  communicator id (0 world, 1 self, then 2, 3 ... in
 *                    creation order on the rank), or -1
 *     peer    44  4  rank in COMM of the destination or (matched) source,
 *                    or -1; for a TRACE_MEMBER record the world rank
 *     tag     48  4  tag (the matched one for a receive), or -1
 *     root    52  4  root of a rooted collective; for TRACE_MEMBER the
 *                    member's rank in the new communicator; else -1
 *     aux     56  4  new communicator id of a creation call (-1 for
 *                    MPI_COMM_NULL), index of the request in the array
 *                    of MPI_Waitall/any and MPI_Testall, the element
 *                    count of MPI_Reduce, MPI_Allreduce,
 *                    MPI_Reduce_scatter(_block), MPI_Scan and
 *                    MPI_Exscan, else -1
 *     spare   60  4  zero
 *
 * A communicator creation record is followed by one TRACE_MEMBER record
 * per member of the new communicator, so that the trace names its world
 * ranks.  A collective with per-rank counts (MPI_Gatherv ...) is
 * followed by its TRACE_SENDCOUNT and TRACE_RECVCOUNT records, one per
 * rank of the communicator in rank order (peer: that rank, bytes: what
 * this rank sends to it, or receives from it; which of them a call has
 * is listed in msgperf-trace(1)).
 *
 * Calls added to the enumeration go at its end, so that a trace keeps
 * its meaning: the version stays 1, a reader refuses a call number it
 * does not know (TRACE_BAD_CALL), and every trace an older library
 * wrote reads the same.  */
#ifndef MSGPERF_TRACEFORMAT_H
#define MSGPERF_TRACEFORMAT_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_MAGIC "MPTRACE"
#define TRACE_VERSION 1u
#define TRACE_HEADER_SIZE 64
#define TRACE_RECORD_SIZE 64

/* Calls, in the order msgperf-trace(1) lists them.  The names are the
   "call" column of the dump.  */
enum trace_call
{
  TRACE_INIT, TRACE_FINALIZE,
  TRACE_SEND, TRACE_SSEND, TRACE_ISEND, TRACE_ISSEND, TRACE_RECV,
  TRACE_IRECV, TRACE_SENDRECV, TRACE_SENDRECV_RECV, TRACE_PROBE, TRACE_IPROBE, TRACE_WAIT,
  TRACE_WAITALL, TRACE_WAITANY, TRACE_TEST, TRACE_TESTALL,
  TRACE_BARRIER, TRACE_BCAST, TRACE_REDUCE, TRACE_ALLREDUCE,
  TRACE_ALLGATHER, TRACE_ALLTOALL, TRACE_GATHER, TRACE_SCATTER,
  TRACE_COMM_SPLIT, TRACE_COMM_DUP, TRACE_CART_CREATE, TRACE_MEMBER,
  TRACE_ABORT,
  /* added after version 1's first calls, so that their numbers stay */
  TRACE_COMM_CREATE, TRACE_WAITSOME, TRACE_TESTANY, TRACE_TESTSOME,
  TRACE_SEND_INIT, TRACE_RECV_INIT, TRACE_START_SEND, TRACE_START_RECV,
  /* the collectives with per-rank sizes, and their size records */
  TRACE_GATHERV, TRACE_SCATTERV, TRACE_ALLGATHERV, TRACE_ALLTOALLV,
  TRACE_REDUCE_SCATTER, TRACE_REDUCE_SCATTER_BLOCK, TRACE_SCAN,
  TRACE_EXSCAN, TRACE_SENDCOUNT, TRACE_RECVCOUNT,
  /* the calls the library does not trace, counted (see below) */
  TRACE_UNTRACED,
  TRACE_NCALLS
};

/* The MPI calls (MPI_ and this) that carry or order communication but
   that the library does not trace.  Their calls are counted by name:
   at MPI_Finalize a rank's trace gets one TRACE_UNTRACED record per
   such call it made (aux: its number here, bytes: how many calls), so
   that a reader says what a replay misses.  Names go at the end only,
   so that a number keeps its name.  */
#define TRACE_UNTRACED_CALLS(X) \
  X (Bsend) X (Rsend) X (Ibsend) X (Irsend) X (Bsend_init) X (Rsend_init) \
  X (Sendrecv_replace) X (Mprobe) X (Improbe) X (Mrecv) X (Imrecv) \
  X (Cancel) X (Alltoallw) X (Ibarrier) X (Ibcast) X (Ireduce) \
  X (Iallreduce) X (Iallgather) X (Iallgatherv) X (Ialltoall) \
  X (Ialltoallv) X (Ialltoallw) X (Igather) X (Igatherv) X (Iscatter) \
  X (Iscatterv) X (Ireduce_scatter) X (Ireduce_scatter_block) X (Iscan) \
  X (Iexscan) X (Neighbor_allgather) X (Neighbor_allgatherv) \
  X (Neighbor_alltoall) X (Neighbor_alltoallv) X (Neighbor_alltoallw) \
  X (Ineighbor_allgather) X (Ineighbor_allgatherv) X (Ineighbor_alltoall) \
  X (Ineighbor_alltoallv) X (Ineighbor_alltoallw) X (Put) X (Get) \
  X (Accumulate) X (Get_accumulate) X (Fetch_and_op) X (Compare_and_swap) \
  X (Rput) X (Rget) X (Raccumulate) X (Rget_accumulate) X (Win_fence) \
  X (Win_lock) X (Win_unlock) X (Win_lock_all) X (Win_unlock_all) \
  X (Win_post) X (Win_start) X (Win_complete) X (Win_wait) X (Win_flush) \
  X (Win_flush_all) X (Comm_create_group) X (Comm_split_type) \
  X (Comm_idup) X (Intercomm_create) X (Intercomm_merge) X (Cart_sub) \
  X (Graph_create) X (Dist_graph_create) X (Dist_graph_create_adjacent) \
  X (Comm_spawn)

enum trace_untraced
{
#define TRACE_UNTRACED_ENUM(n) TRACE_U_##n,
  TRACE_UNTRACED_CALLS (TRACE_UNTRACED_ENUM)
#undef TRACE_UNTRACED_ENUM
  TRACE_NUNTRACED
};

/* "MPI_Bsend" ... for an enum trace_untraced, or NULL.  */
const char *trace_untraced_name (unsigned u);

/* Header flags.  */
#define TRACE_F_COMPLETE 1u   /* written by MPI_Finalize */
#define TRACE_F_ABORT    2u   /* written by MPI_Abort */
#define TRACE_F_SIGNAL   4u   /* written by a fatal signal's handler */
#define TRACE_F_OVERFLOW 8u   /* the buffer filled up; later calls lost */
#define TRACE_F_WTIME_GLOBAL 16u  /* MPI_WTIME_IS_GLOBAL was true */
#define TRACE_F_WRITE_ERROR 32u   /* writing failed (a full disk ...):
                                     the records that follow are those
                                     written before, later calls lost */

/* Record flags.  */
#define TRACE_R_DONE       1u  /* the call completed the operation (a
                                  blocking call, a test or iprobe whose
                                  flag was true); not set for MPI_Isend,
                                  MPI_Irecv and unsuccessful tests */
#define TRACE_R_ANY_SOURCE 2u  /* posted with MPI_ANY_SOURCE */
#define TRACE_R_ANY_TAG    4u  /* posted with MPI_ANY_TAG */

struct trace_header
{
  uint32_t version;
  int32_t rank, size;
  uint32_t flags;
  int32_t signal;
  double t0, wtick;
  uint64_t nrecords;
  double write_s;
};

/* The fields in the order and at the offsets of the file's record, with
   no padding: on a host where TRACE_RECORD_NATIVE is defined, the
   struct's bytes are the record's bytes, so that the tracing library
   fills records where they lie in its buffer.  SPARE is zero.  */
struct trace_record
{
  double t_start, t_end;
  int64_t bytes, request;
  uint32_t seq;
  uint16_t call, flags;
  int32_t comm, peer, tag, root, aux;
  uint32_t spare;
};

/* Little-endian integers and doubles (the file's byte order), and the
   struct laid out as the record (checked in traceformat.c).  */
#if defined __BYTE_ORDER__ && defined __FLOAT_WORD_ORDER__ \
    && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ \
    && __FLOAT_WORD_ORDER__ == __ORDER_LITTLE_ENDIAN__
# define TRACE_RECORD_NATIVE 1
#endif

/* Encode into exactly TRACE_HEADER_SIZE / TRACE_RECORD_SIZE bytes.
   trace_encode_record copies the struct where TRACE_RECORD_NATIVE is
   defined (with a zero spare) and is trace_encode_record_portable,
   field by field and byte by byte, elsewhere: both write the same
   bytes.  */
void trace_encode_header (const struct trace_header *h, unsigned char *out);
void trace_encode_record (const struct trace_record *r, unsigned char *out);
void trace_encode_record_portable (const struct trace_record *r,
                                   unsigned char *out);

enum trace_status
{
  TRACE_OK,
  TRACE_SHORT_HEADER,   /* fewer than TRACE_HEADER_SIZE bytes */
  TRACE_BAD_MAGIC,
  TRACE_BAD_VERSION,
  TRACE_BAD_RECSIZE,
  TRACE_BAD_RANK,       /* rank outside [0, size) or size < 1 */
  TRACE_TRUNCATED,      /* fewer records than the header counts */
  TRACE_TRAILING,       /* bytes after the last record */
  TRACE_BAD_CALL        /* a record's call is not an enum trace_call */
};

/* Decode the header of a file of LEN bytes at DATA and check it against
   the length: on TRACE_TRUNCATED and TRACE_TRAILING, *OFFSET is where the
   file stops being what the header says (the first missing or extra
   byte); on the other failures the offset of the bad field.  */
enum trace_status trace_decode_header (const unsigned char *data, size_t len,
                                       struct trace_header *h,
                                       size_t *offset);

/* Decode record I (0-based) of a file whose header was accepted; on
   TRACE_BAD_CALL *OFFSET is the offset of the call field.  */
enum trace_status trace_decode_record (const unsigned char *data, uint64_t i,
                                       struct trace_record *r,
                                       size_t *offset);

/* "bad magic (not a msgperf trace)", ...  */
const char *trace_strerror (enum trace_status s);

/* The dump's name of CALL ("send", "allreduce", "comm_split" ...), or
   NULL when CALL is not an enum trace_call.  */
const char *trace_call_name (unsigned call);

#endif
