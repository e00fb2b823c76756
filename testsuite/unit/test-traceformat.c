/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-traceformat: common/trace/traceformat.c, the byte layout of a
   trace: fields at their documented offsets, little-endian; the fast
   and the portable record encodings give the same bytes; records and
   headers read back exactly; every check of the header.  */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "traceformat.h"
#include "unit.h"

/* A record with every field's bits drawn from STATE (an xorshift
   generator), doubles included (NaNs, infinities, denormals), and a
   spare that is not zero.  */
static struct trace_record
random_record (uint64_t *state)
{
  uint64_t w[8];
  for (int i = 0; i < 8; i++)
    {
      *state ^= *state << 13;
      *state ^= *state >> 7;
      *state ^= *state << 17;
      w[i] = *state;
    }
  struct trace_record r;
  memcpy (&r.t_start, &w[0], 8);
  memcpy (&r.t_end, &w[1], 8);
  r.bytes = (int64_t) w[2];
  r.request = (int64_t) w[3];
  r.seq = (uint32_t) w[4];
  r.call = (uint16_t) (w[4] >> 32);
  r.flags = (uint16_t) (w[4] >> 48);
  r.comm = (int32_t) (uint32_t) w[5];
  r.peer = (int32_t) (uint32_t) (w[5] >> 32);
  r.tag = (int32_t) (uint32_t) w[6];
  r.root = (int32_t) (uint32_t) (w[6] >> 32);
  r.aux = (int32_t) (uint32_t) w[7];
  r.spare = (uint32_t) (w[7] >> 32) | 1;
  return r;
}

/* The fast encoding (the struct's bytes on a little-endian host) and
   the portable one write the same bytes, spare zero, for records of
   random bits; and a struct filled field by field where a record lies
   (as the tracing library fills its buffer) holds those bytes too.  */
static void
check_fast_encoding (void)
{
  uint64_t state = 0x2545F4914F6CDD1Dull;
  int same = 1, spare_zero = 1, in_place = 1;
  for (int i = 0; i < 10000; i++)
    {
      struct trace_record r = random_record (&state);
      unsigned char fast[TRACE_RECORD_SIZE], slow[TRACE_RECORD_SIZE];
      memset (fast, 0xa5, sizeof fast);
      memset (slow, 0x5a, sizeof slow);
      trace_encode_record (&r, fast);
      trace_encode_record_portable (&r, slow);
      same &= memcmp (fast, slow, sizeof fast) == 0;
      spare_zero &= fast[60] == 0 && fast[61] == 0 && fast[62] == 0
                    && fast[63] == 0;
#ifdef TRACE_RECORD_NATIVE
      r.spare = 0;
      struct trace_record place;
      memset (&place, 0xa5, sizeof place);
      place.t_start = r.t_start;
      place.t_end = r.t_end;
      place.bytes = r.bytes;
      place.request = r.request;
      place.seq = r.seq;
      place.call = r.call;
      place.flags = r.flags;
      place.comm = r.comm;
      place.peer = r.peer;
      place.tag = r.tag;
      place.root = r.root;
      place.aux = r.aux;
      place.spare = 0;
      in_place &= memcmp (&place, slow, sizeof slow) == 0;
#endif
    }
  CHECK (same);
  CHECK (spare_zero);
  CHECK (in_place);
}

int
main (void)
{
  unsigned char file[TRACE_HEADER_SIZE + 2 * TRACE_RECORD_SIZE];
  struct trace_header h = { TRACE_VERSION, 3, 4, TRACE_F_COMPLETE, 0,
                            1234.5, 1e-9, 2, 0.75 };
  trace_encode_header (&h, file);
  CHECK (memcmp (file, "MPTRACE", 8) == 0);
  CHECK (file[8] == 1 && file[9] == 0);          /* version, little-endian */
  CHECK (file[12] == 64);                        /* record size */
  CHECK (file[16] == 3 && file[20] == 4);        /* rank, size */
  CHECK (file[48] == 2);                         /* records */
  /* the seconds spent writing: 0.75 is 0x3FE8000000000000 */
  CHECK (file[56] == 0 && file[61] == 0 && file[62] == 0xe8
         && file[63] == 0x3f);

  struct trace_record r = { 1.25, 2.5, 1000000007, -1, 7, TRACE_ALLREDUCE,
                            TRACE_R_DONE | TRACE_R_ANY_TAG, 2, -1, -2,
                            0, 5, 0 };
  trace_encode_record (&r, file + TRACE_HEADER_SIZE);
  /* Every byte, worked out by hand from the layout in traceformat.h:
     1.25 is 0x3FF4000000000000, 2.5 0x4004000000000000, 1000000007
     0x3B9ACA07, TRACE_ALLREDUCE 20.  */
  static const unsigned char want[TRACE_RECORD_SIZE] = {
    0, 0, 0, 0, 0, 0, 0xf4, 0x3f,  0, 0, 0, 0, 0, 0, 0x04, 0x40,
    0x07, 0xca, 0x9a, 0x3b, 0, 0, 0, 0,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    7, 0, 0, 0,  20, 0,  5, 0,
    2, 0, 0, 0,  0xff, 0xff, 0xff, 0xff,  0xfe, 0xff, 0xff, 0xff,
    0, 0, 0, 0,  5, 0, 0, 0,  0, 0, 0, 0
  };
  CHECK (memcmp (file + TRACE_HEADER_SIZE, want, sizeof want) == 0);
  unsigned char slow[TRACE_RECORD_SIZE];
  trace_encode_record_portable (&r, slow);
  CHECK (memcmp (slow, want, sizeof want) == 0);
  check_fast_encoding ();
  struct trace_record big = r;
  big.bytes = INT64_MAX;
  big.request = INT64_MIN;
  big.seq = UINT32_MAX;
  big.peer = INT32_MIN;
  big.call = TRACE_ABORT;
  trace_encode_record (&big, file + TRACE_HEADER_SIZE + TRACE_RECORD_SIZE);
  const unsigned char *p = file + TRACE_HEADER_SIZE;
  CHECK (p[36] == TRACE_ALLREDUCE && p[37] == 0);   /* call */
  CHECK (p[24] == 0xff && p[31] == 0xff);           /* request -1 */

  struct trace_header g;
  size_t off = 99;
  CHECK (trace_decode_header (file, sizeof file, &g, &off) == TRACE_OK);
  CHECK (g.rank == 3 && g.size == 4 && g.nrecords == 2);
  CHECK (g.t0 == 1234.5 && g.wtick == 1e-9);
  CHECK (g.flags == TRACE_F_COMPLETE && g.write_s == 0.75);
  struct trace_record s;
  CHECK (trace_decode_record (file, 0, &s, &off) == TRACE_OK);
  CHECK (s.t_start == 1.25 && s.t_end == 2.5 && s.bytes == 1000000007);
  CHECK (s.request == -1 && s.seq == 7 && s.call == TRACE_ALLREDUCE);
  CHECK (s.flags == (TRACE_R_DONE | TRACE_R_ANY_TAG));
  CHECK (s.comm == 2 && s.peer == -1 && s.tag == -2 && s.root == 0
         && s.aux == 5);
  CHECK (trace_decode_record (file, 1, &s, &off) == TRACE_OK);
  CHECK (s.bytes == INT64_MAX && s.request == INT64_MIN);
  CHECK (s.seq == UINT32_MAX && s.peer == INT32_MIN);
  CHECK_STR (trace_call_name (s.call), "abort");
  CHECK (trace_call_name (TRACE_NCALLS) == NULL);
  /* Calls added later keep the numbers of the earlier ones, so that
     older traces read the same.  */
  CHECK (TRACE_START_RECV == 37 && TRACE_GATHERV == 38
         && TRACE_RECVCOUNT == 47 && TRACE_UNTRACED == 48
         && TRACE_NCALLS == 49);
  /* The untraced calls' names, by the numbers their records hold.  */
  CHECK_STR (trace_call_name (TRACE_UNTRACED), "untraced");
  CHECK_STR (trace_untraced_name (TRACE_U_Bsend), "MPI_Bsend");
  CHECK (TRACE_U_Bsend == 0 && TRACE_U_Ibarrier == 13
         && TRACE_U_Iallreduce == 16);
  CHECK_STR (trace_untraced_name (TRACE_U_Comm_spawn), "MPI_Comm_spawn");
  CHECK (trace_untraced_name (TRACE_NUNTRACED) == NULL);
  CHECK_STR (trace_call_name (TRACE_REDUCE_SCATTER_BLOCK),
             "reduce_scatter_block");
  CHECK_STR (trace_call_name (TRACE_SENDCOUNT), "sendcount");

  /* The header's checks, each with its offset.  */
  CHECK (trace_decode_header (file, 63, &g, &off) == TRACE_SHORT_HEADER
         && off == 63);
  CHECK (trace_decode_header (file, sizeof file - 1, &g, &off)
         == TRACE_TRUNCATED && off == sizeof file - 1);
  CHECK (trace_decode_header (file, TRACE_HEADER_SIZE + 64, &g, &off)
         == TRACE_TRUNCATED && off == TRACE_HEADER_SIZE + 64);
  h.nrecords = 1;
  trace_encode_header (&h, file);
  CHECK (trace_decode_header (file, sizeof file, &g, &off) == TRACE_TRAILING
         && off == TRACE_HEADER_SIZE + 64);
  h.rank = 4;
  trace_encode_header (&h, file);
  CHECK (trace_decode_header (file, sizeof file, &g, &off) == TRACE_BAD_RANK
         && off == 16);
  h.rank = 0;
  h.version = 2;
  trace_encode_header (&h, file);
  CHECK (trace_decode_header (file, sizeof file, &g, &off)
         == TRACE_BAD_VERSION && off == 8);
  file[0] = 'X';
  CHECK (trace_decode_header (file, sizeof file, &g, &off) == TRACE_BAD_MAGIC
         && off == 0);
  file[TRACE_HEADER_SIZE + 36] = 0xff;
  CHECK (trace_decode_record (file, 0, &s, &off) == TRACE_BAD_CALL
         && off == TRACE_HEADER_SIZE + 36);
  CHECK_STR (trace_strerror (TRACE_BAD_MAGIC),
             "bad magic (not a msgperf trace)");
  return unit_done ();
}
