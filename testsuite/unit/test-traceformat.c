/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-traceformat: common/trace/traceformat.c, the byte layout of a
   trace: fields at their documented offsets, little-endian; records and
   headers read back exactly; every check of the header.  */
#include <config.h>

#include <stdint.h>
#include <string.h>

#include "traceformat.h"
#include "unit.h"

int
main (void)
{
  unsigned char file[TRACE_HEADER_SIZE + 2 * TRACE_RECORD_SIZE];
  struct trace_header h = { TRACE_VERSION, 3, 4, TRACE_F_COMPLETE, 0,
                            1234.5, 1e-9, 2 };
  trace_encode_header (&h, file);
  CHECK (memcmp (file, "MPTRACE", 8) == 0);
  CHECK (file[8] == 1 && file[9] == 0);          /* version, little-endian */
  CHECK (file[12] == 64);                        /* record size */
  CHECK (file[16] == 3 && file[20] == 4);        /* rank, size */
  CHECK (file[48] == 2);                         /* records */

  struct trace_record r = { 1.25, 2.5, 1000000007, -1, 7, TRACE_ALLREDUCE,
                            TRACE_R_DONE | TRACE_R_ANY_TAG, 2, -1, -2,
                            0, 5 };
  trace_encode_record (&r, file + TRACE_HEADER_SIZE);
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
  CHECK (g.flags == TRACE_F_COMPLETE);
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
         && TRACE_RECVCOUNT == 47 && TRACE_NCALLS == 48);
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
