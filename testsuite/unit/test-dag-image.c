/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-dag-image: binary schedules (dag_image.c).  An image written and
   opened again gives the same arrays and the same makespans as the
   schedule it came from; a damaged, truncated or foreign image is
   refused with a reason, and one whose indices are out of range (its
   checksum made right again) too.  */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dag.h"
#include "dag_image.h"
#include "dag_parse.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "unit.h"

/* Ranks 0 and 1: a labelled calc, a send and its receive, an irequires,
   and a receive from any source (rank 2 sends to it).  */
static const char goal_text[] =
  "num_ranks 3\n"
  "rank 0 {\n"
  "l1: calc 100\n"
  "l2: send 8b to 1 tag 5\n"
  "l3: recv 4b from -1 tag 7\n"
  "l2 requires l1\n"
  "l3 irequires l2\n"
  "}\n"
  "rank 1 {\n"
  "a: recv 8b from 0 tag 5\n"
  "b: calc 50 cpu 1\n"
  "b requires a\n"
  "}\n"
  "rank 2 {\n"
  "x: send 4b to 0 tag 7\n"
  "}\n";

static void
read_goal (struct dag *d)
{
  dag_init (d, "t.goal");
  goal_parse (goal_text, strlen (goal_text), "t.goal", d);
  dag_finalize (d);
}

/* The image of D as one block (malloc'd, 8-aligned); its size in *LEN. */
static unsigned char *
image_of (const struct dag *d, const char *origin, size_t *len)
{
  struct dag_image_header h;
  struct dag_image_part parts[1 + DAG_IMAGE_NARRAYS];
  size_t np = dag_image_layout (d, origin, 1, &h, parts);
  unsigned char *b = calloc (1, h.total);
  for (size_t k = 0; k < np; k++)
    memcpy (b + parts[k].off, parts[k].p, parts[k].len);
  *len = h.total;
  return b;
}

static double
makespan (const struct dag *d)
{
  struct dag_params p;
  dag_params_default (&p);
  struct dagsim_result r;
  int it;
  dag_predict (d, MODEL_LOGGOPS, &p, NULL, 1e-12, 50, &r, &it);
  double ms = r.makespan;
  dagsim_result_free (&r);
  return ms;
}

static void
test_round_trip (void)
{
  struct dag d, m;
  read_goal (&d);
  size_t len;
  unsigned char *b = image_of (&d, "t.goal", &len);
  CHECK (dag_image_is (b, len));
  CHECK (len % 8 == 0);
  int goal = 0;
  CHECK (dag_image_open (&m, b, len, &goal) == NULL);
  CHECK (goal == 1);
  CHECK (m.mapped == 1);
  CHECK (m.n == d.n && m.n == 6);
  CHECK (m.nprocs == 3 && m.maxcpu == 1 && m.maxnic == 0);
  CHECK (memcmp (m.node, d.node, d.n * sizeof *d.node) == 0);
  CHECK (memcmp (m.succ_off, d.succ_off, (d.n + 1) * sizeof *d.succ_off)
         == 0);
  CHECK (memcmp (m.succ, d.succ, d.succ_off[d.n] * sizeof *d.succ) == 0);
  CHECK (memcmp (m.npred, d.npred, d.n * sizeof *d.npred) == 0);
  CHECK (m.has_wildcard == 1 && d.has_wildcard == 1);
  CHECK (m.has_irequires == 1 && d.has_irequires == 1);
  CHECK (m.may_pair == d.may_pair);
  CHECK_STR (m.source, "t.goal");
  for (size_t v = 0; v < d.n; v++)
    {
      CHECK (dag_node_line (&m, v) == dag_node_line (&d, v));
      int32_t a = dag_node_name (&d, v), c = dag_node_name (&m, v);
      CHECK ((a < 0 && c < 0)
             || (a >= 0 && c >= 0
                 && strcmp (dag_name (&d, a), dag_name (&m, c)) == 0));
    }
  /* The same simulation: calc 100, then the 8-byte send; LogGOPSim's
     defaults give one makespan to both.  */
  double want = makespan (&d);
  CHECK (want > 100);
  CHECK (makespan (&m) == want);
  dag_free (&m);               /* frees nothing of B */
  CHECK (m.node == NULL);
  /* Opened twice from the same block.  */
  CHECK (dag_image_open (&m, b, len, &goal) == NULL);
  CHECK (makespan (&m) == want);
  free (b);
  dag_free (&d);
}

/* An image that is refused leaves D as it was.  */
static void
refused (const unsigned char *b, size_t len, const char *why)
{
  struct dag m;
  dag_init (&m, "untouched");
  int goal = 7;
  const char *r = dag_image_open (&m, b, len, &goal);
  CHECK_STR (r, why);
  CHECK (m.n == 0 && m.node == NULL && goal == 7);
  CHECK_STR (m.source, "untouched");
}

/* The image C (LEN bytes) with the header X in place of its own.  */
static void
refused_header (unsigned char *c, size_t len,
                const struct dag_image_header *x, const char *why)
{
  memcpy (c, x, sizeof *x);
  refused (c, len, why);
}

static void
test_damaged (void)
{
  struct dag d;
  read_goal (&d);
  size_t len;
  unsigned char *b = image_of (&d, "t.goal", &len);
  struct dag_image_header h;
  memcpy (&h, b, sizeof h);

  refused (b, 7, "not a binary schedule (no magic number)");
  refused ((const unsigned char *) goal_text, sizeof goal_text,
           "not a binary schedule (no magic number)");
  refused (b, sizeof h - 1, "truncated header");
  refused (b, len - 8, "truncated (shorter than its header says)");
  unsigned char *c = malloc (len + 8);
  memcpy (c, b, len);
  memset (c + len, 0, 8);
  refused (c, len + 8, "longer than its header says");

  /* Every byte of every array is covered by the checksum.  */
  int all = 1;
  for (int k = 0; k < DAG_IMAGE_NARRAYS; k++)
    for (uint64_t i = 0; i < h.len[k]; i++)
      {
        memcpy (c, b, len);
        c[h.off[k] + i] ^= 0x10;
        struct dag m;
        int goal;
        const char *r = dag_image_open (&m, c, len, &goal);
        if (!r || strcmp (r, "damaged (its checksum does not match)") != 0)
          all = 0;
      }
  CHECK (all);

  /* The header's fields.  */
  struct dag_image_header x = h;
  x.version = 2;
  refused_header (c, len, &x,
                  "a version of the format this program does not read");
  x = h;
  x.byte_order = 0x04030201;
  refused_header (c, len, &x,
                  "written on a machine of another byte order or layout");
  x = h;
  x.node_size = 32;
  refused_header (c, len, &x,
                  "written on a machine of another byte order or layout");
  x = h;
  x.flags |= 64;
  refused_header (c, len, &x, "a header out of range");
  x = h;
  x.maxcpu = 300;
  refused_header (c, len, &x, "a header out of range");
  x = h;
  x.n = h.n - 1;
  refused_header (c, len, &x,
                  "an array whose place or length does not match the header");
  x = h;
  x.off[DAG_IMAGE_SUCC] += 8;
  refused_header (c, len, &x,
                  "an array whose place or length does not match the header");
  /* Not 8-byte aligned in memory.  */
  unsigned char *u = malloc (len + 1);
  memcpy (u + 1, b, len);
  refused (u + 1, len, "not aligned in memory");
  free (u);
  free (c);
  free (b);
  dag_free (&d);
}

/* Indices out of range in an image whose checksum is right (as a
   program with a bug would write it): refused, each with its reason. */
static void
bad_index (void (*spoil) (struct dag *), const char *why)
{
  struct dag d;
  read_goal (&d);
  spoil (&d);
  size_t len;
  unsigned char *b = image_of (&d, "t.goal", &len);
  refused (b, len, why);
  free (b);
  dag_free (&d);
}

static void op_kind (struct dag *d) { d->node[0].op = 3; }
static void proc_range (struct dag *d) { d->node[1].proc = 3; }
static void dest_range (struct dag *d) { d->node[1].peer = -1; }
static void src_range (struct dag *d) { d->node[3].peer = 5; }
static void cpu_range (struct dag *d) { d->node[0].cpu = 2; }
static void lone_send (struct dag *d) { d->node[d->n - 1].derived = 1;
                                        d->node[d->n - 1].op = DAG_SEND; }
static void lone_recv (struct dag *d) { d->node[0].derived = 1;
                                        d->node[0].op = DAG_RECV;
                                        d->node[0].peer = 1; }
static void succ_range (struct dag *d) { d->succ[0] = 7u << 1; }
static void succ_order (struct dag *d) { d->succ_off[1] = d->succ_off[2] + 1;
                                         d->succ_off[2] -= 1; }
static void name_range (struct dag *d)
{ d->name_of[0] = (int32_t) d->pool_len; }
static void line_range (struct dag *d) { d->line_of[2] = -4; }
static void npred_off (struct dag *d) { d->npred[1]++; }
static void flag_wild (struct dag *d) { d->has_wildcard = 0; }
static void flag_ireq (struct dag *d) { d->has_irequires = 0; }
static void flag_pair (struct dag *d) { d->may_pair = !d->may_pair; }
static void neg_work (struct dag *d) { d->node[0].u.work = -1; }
static void nan_work (struct dag *d) { d->node[0].u.work = NAN; }
static void neg_bytes (struct dag *d) { d->node[1].u.bytes = -1; }
static void send_any (struct dag *d) { d->node[1].tag = DAG_ANY; }
static void big_tag (struct dag *d) { d->node[3].tag = INT32_MAX; }
static void derived2 (struct dag *d) { d->node[0].derived = 2; }

static void
test_indices (void)
{
  bad_index (op_kind, "an operation of an unknown kind");
  bad_index (proc_range, "an operation's processor out of range");
  bad_index (dest_range, "a send's destination out of range");
  bad_index (src_range, "a receive's source out of range");
  bad_index (cpu_range, "an operation's cpu or nic out of range");
  bad_index (lone_send, "a message's send without its receive");
  bad_index (lone_recv, "a message's receive without its send");
  bad_index (succ_range, "a dependency on an operation out of range");
  bad_index (succ_order, "successor lists out of order");
  bad_index (name_range, "an operation's name out of range");
  bad_index (line_range, "an operation's input line out of range");
  bad_index (npred_off,
             "predecessor counts that do not match the dependencies");
  bad_index (flag_wild, "flags that do not match its operations");
  bad_index (flag_ireq, "flags that do not match its operations");
  bad_index (flag_pair, "flags that do not match its operations");
  bad_index (neg_work, "a computation's time negative or not finite");
  bad_index (nan_work, "a computation's time negative or not finite");
  bad_index (neg_bytes, "a message's size or tag out of range");
  bad_index (send_any, "a message's size or tag out of range");
  bad_index (big_tag, "a message's size or tag out of range");
  bad_index (derived2, "an operation of an unknown kind");
}

/* A native message row (dag_add_message): its send and receive must
   stay a pair.  */
static void
test_message_pair (void)
{
  for (int spoil = 0; spoil < 5; spoil++)
    {
      struct dag d, m;
      dag_init (&d, "native");
      int32_t a = dag_add_calc (&d, 0, 5, -1, 2);
      int32_t b = dag_add_calc (&d, 1, 7, -1, 3);
      int64_t tag = 0;
      dag_add_message (&d, a, b, 8, &tag, 4);
      dag_finalize (&d);
      CHECK (d.n == 4 && d.node[2].derived && d.node[3].derived);
      if (spoil == 1)
        d.node[3].tag = 1;
      if (spoil == 2)
        d.node[3].u.bytes = 9;
      if (spoil == 3)
        d.node[3].peer = 1;
      if (spoil == 4)
        d.node[2].peer = 0;
      size_t len;
      unsigned char *b2 = image_of (&d, "native", &len);
      int goal = 1;
      const char *why = dag_image_open (&m, b2, len, &goal);
      if (spoil == 0)
        {
          CHECK (why == NULL);
          CHECK (goal == 1);
          if (!why)
            CHECK (makespan (&m) == makespan (&d));
        }
      else
        CHECK_STR (why, "a message's send without its receive");
      free (b2);
      dag_free (&d);
    }
}

/* A schedule without names or lines, and one without operations.  */
static void
test_optional (void)
{
  struct dag d, m;
  dag_init (&d, "gen");
  int32_t s = dag_add_send (&d, 0, 1, 16, 0, -1, 0);
  int32_t r = dag_add_recv (&d, 1, 0, 16, 0, -1, 0);
  (void) s;
  (void) r;
  dag_finalize (&d);
  CHECK (d.name_of == NULL && d.line_of == NULL);
  size_t len;
  unsigned char *b = image_of (&d, "gen", &len);
  int goal = 1;
  struct dag_image_header h;
  memcpy (&h, b, sizeof h);
  /* dag_image_layout's goal flag is the caller's (1 here).  */
  CHECK (dag_image_open (&m, b, len, &goal) == NULL);
  CHECK (goal == 1);
  CHECK (m.name_of == NULL && m.line_of == NULL && m.pool == NULL);
  CHECK (h.len[DAG_IMAGE_SUCC] == 0 && m.n == 2);
  CHECK (makespan (&m) == makespan (&d));
  free (b);
  dag_free (&d);

  dag_init (&d, "empty");
  dag_finalize (&d);
  b = image_of (&d, "empty", &len);
  CHECK (dag_image_open (&m, b, len, &goal) == NULL);
  CHECK (m.n == 0);
  free (b);
  dag_free (&d);
}

static void
test_sum (void)
{
  /* Every length and every byte position matters.  */
  unsigned char x[100];
  for (int i = 0; i < 100; i++)
    x[i] = (unsigned char) (i * 7);
  uint64_t a = dag_image_sum (x, 100, 0);
  CHECK (a == dag_image_sum (x, 100, 0));
  CHECK (a != dag_image_sum (x, 99, 0));
  CHECK (a != dag_image_sum (x, 100, 1));
  int differ = 1;
  for (int i = 0; i < 100; i++)
    {
      x[i] ^= 1;
      if (dag_image_sum (x, 100, 0) == a)
        differ = 0;
      x[i] ^= 1;
    }
  CHECK (differ);
  CHECK (dag_image_sum (x, 0, 0) != dag_image_sum (x, 0, 5));
}

int
main (void)
{
  test_round_trip ();
  test_damaged ();
  test_indices ();
  test_optional ();
  test_message_pair ();
  test_sum ();
  return unit_done ();
}
