/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dag_image.h: an indexed operation graph as one block of bytes, a
 * binary schedule.
 *
 * Reading a big GOAL text and indexing it (dag_finalize) costs more than
 * simulating it (a 2^20-rank broadcast: 0.29 s reading and 0.13 s
 * indexing against 0.5 s simulating, one CPU).  A schedule simulated
 * many times (a parameter sweep, several models) is read once and saved
 * as an image: the arrays the simulator reads (operations, successor
 * lists, predecessor counts) and those its messages need (names, input
 * lines, the text's name), each at an 8-byte aligned offset, after a
 * header.  A later run maps the file and points a struct dag at it:
 * nothing is parsed or indexed again.  This is LogGOPSim's txt2bin.
 *
 * The image is in the machine's own byte order and layout (the header
 * records both, and an image of another kind is refused).  It carries a
 * checksum of its arrays, so a truncated or damaged file is an error,
 * not a wrong result.  Beyond that, what the simulator relies on is
 * checked again (fuzz/dag-image.c runs the simulator on every image the
 * checks let through): every index in range, the values a reader lets
 * through (times, sizes, tags), a message row's send and receive a
 * pair, each operation's predecessor count and the header's flags those
 * of the arrays.  Labels, ranks' blocks and cycles are not checked
 * again as a text is (a cycle is a schedule that cannot complete).
 *
 * No I/O: the caller writes the parts (dag_image_layout) and maps the
 * file (dag_image_open).  */
#ifndef MSGPERF_DAG_IMAGE_H
#define MSGPERF_DAG_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "dag.h"

/* The first 8 bytes of an image.  */
#define DAG_IMAGE_MAGIC "\x89MPDAG\r\n"
#define DAG_IMAGE_VERSION 1

/* Flags of the header.  */
enum
{
  DAG_IMAGE_GOAL = 1,        /* read from a GOAL text (its time unit) */
  DAG_IMAGE_WILDCARD = 2,    /* struct dag's has_wildcard */
  DAG_IMAGE_MAY_PAIR = 4,    /* may_pair */
  DAG_IMAGE_IREQUIRES = 8    /* has_irequires */
};

/* The arrays of an image, in file order.  */
enum
{
  DAG_IMAGE_NODE, DAG_IMAGE_SUCC_OFF, DAG_IMAGE_SUCC, DAG_IMAGE_NPRED,
  DAG_IMAGE_NAME_OF, DAG_IMAGE_LINE_OF, DAG_IMAGE_POOL, DAG_IMAGE_ORIGIN,
  DAG_IMAGE_NARRAYS
};

struct dag_image_header
{
  char magic[8];
  uint32_t version;
  uint32_t byte_order;       /* 0x01020304 as the writer stored it */
  uint32_t node_size;        /* sizeof (struct dag_node) */
  uint32_t flags;
  uint64_t n;                /* operations */
  uint64_t ne;               /* dependencies */
  uint64_t pool_len;
  int32_t nprocs, maxcpu, maxnic, reserved;
  /* Each array's offset from the image's start and its length in bytes
     (0 and 0: absent).  */
  uint64_t off[DAG_IMAGE_NARRAYS];
  uint64_t len[DAG_IMAGE_NARRAYS];
  uint64_t total;            /* the image's size in bytes */
  uint64_t checksum;         /* dag_image_sum of the arrays, in order */
};

/* One block of the file: LEN bytes from P at offset OFF (the gaps
   between blocks are zeros).  */
struct dag_image_part
{
  uint64_t off;
  const void *p;
  size_t len;
};

/* The image of D (indexed by dag_finalize), whose text was ORIGIN (its
   name, for the messages of later runs) and, when GOAL, a GOAL text:
   fills HDR and PARTS (at most 1 + DAG_IMAGE_NARRAYS; the first is
   HDR itself) and returns how many parts there are; HDR->total is the
   file's size.  D and ORIGIN must stay unchanged until the parts are
   written.  */
size_t dag_image_layout (const struct dag *d, const char *origin, int goal,
                         struct dag_image_header *hdr,
                         struct dag_image_part *parts);

/* Does a block of LEN bytes start like an image?  */
int dag_image_is (const void *buf, size_t len);

/* Point D at the image BUF of LEN bytes (8-byte aligned, e.g. a mapped
   file, to stay mapped and unchanged while D is used; dag_free then
   frees nothing of it).  *GOAL is set to whether the image was read
   from a GOAL text.  Returns NULL, or what is wrong with the image
   (a static string; D is then unchanged).  */
const char *dag_image_open (struct dag *d, const void *buf, size_t len,
                            int *goal);

/* The checksum of LEN bytes at P, continuing from H (start: 0).  Four
   independent lanes of 8-byte words, so it runs at memory speed.  */
uint64_t dag_image_sum (const void *p, size_t len, uint64_t h);

#endif
