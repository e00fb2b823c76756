/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-dag: unit tests of dag-predict's model code (dag, readers,
   simulator, models, generators, eq. (15)).  The expected makespans are
   worked out by hand in the comments from the timing rules of dagsim.h. */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dag.h"
#include "dag_gen.h"
#include "dag_parse.h"
#include "dagmodel.h"
#include "dagsim.h"
#include "diamond.h"
#include "tsv.h"
#include "unit.h"

static struct dag_params P0;

static void
params (void)
{
  dag_params_default (&P0);
  P0.L = 10;
  P0.os = P0.or_ = 2;
  P0.g = 3;
  P0.G = 0.5;
  P0.O = 0.25;
  P0.S = 100;
  P0.a = 4;
  P0.b = 0.5;
}

static double
predict (struct dag *d, enum dag_model m, const struct dag_params *p,
         int *iters)
{
  struct dagsim_result r;
  int it;
  dag_predict (d, m, p, NULL, 1e-12, 50, &r, &it);
  if (iters)
    *iters = it;
  double ms = r.makespan;
  dagsim_result_free (&r);
  return ms;
}

static double
goal (const char *text, enum dag_model m, const struct dag_params *p)
{
  struct dag d;
  dag_init (&d, "test.goal");
  goal_parse (text, strlen (text), "test.goal", &d);
  dag_finalize (&d);
  double ms = predict (&d, m, p, NULL);
  dag_free (&d);
  return ms;
}

static double
native (const char *text, enum dag_model m, const struct dag_params *p)
{
  struct dag d;
  dag_init (&d, "test.tsv");
  dag_parse_native_text (text, strlen (text), "test.tsv", &d);
  dag_finalize (&d);
  double ms = predict (&d, m, p, NULL);
  dag_free (&d);
  return ms;
}

/* T(9; a=4, b=0.5) = 16 / 8.5 + 4.5 */
#define T9 (16.0 / 8.5 + 4.5)

static void
test_chain (void)
{
  /* One processor: 5 + 7 + 3.  */
  const char *local = "kind\tid\tproc\twork\tfrom\tto\tbytes\n"
    "task\tA\t0\t5\tNA\tNA\tNA\n" "task\tB\t0\t7\tNA\tNA\tNA\n"
    "task\tC\t0\t3\tNA\tNA\tNA\n" "dep\tNA\tNA\tNA\tA\tB\tNA\n"
    "dep\tNA\tNA\tNA\tB\tC\tNA\n";
  for (int m = MODEL_LOGP; m <= MODEL_HYPERBOLIC; m++)
    CHECK_NEAR (native (local, m, &P0), 15, 1e-12);

  /* A(p0, 5) -8B-> B(p1, 7) -8B-> C(p0, 3); x1 = 7 bytes after the first.
     LogP: 5 + (os + L + or) + 7 + (os + L + or) + 3 = 43.
     LogGP: receive handling or + 7 G = 5.5: 5 + 2 + 10 + 5.5 + 7 + 2 + 10
       + 5.5 + 3 = 50.
     LogGOPS: send CPU os + 7 O = 3.75 (arrival still t + os + L),
       handling or + max(7 O, 7 G) = 5.5: also 50.
     Hyperbolic: T(8) = 16/8 + 4 = 6 of sender CPU, then the receiver goes
       on: 5 + 6 + 7 + 6 + 3 = 27.  */
  const char *chain = "kind\tid\tproc\twork\tfrom\tto\tbytes\n"
    "task\tA\t0\t5\tNA\tNA\tNA\n" "task\tB\t1\t7\tNA\tNA\tNA\n"
    "task\tC\t0\t3\tNA\tNA\tNA\n" "msg\tNA\tNA\tNA\tA\tB\t8\n"
    "msg\tNA\tNA\tNA\tB\tC\t8\n";
  CHECK_NEAR (native (chain, MODEL_LOGP, &P0), 43, 1e-12);
  CHECK_NEAR (native (chain, MODEL_LOGGP, &P0), 50, 1e-12);
  CHECK_NEAR (native (chain, MODEL_LOGGOPS, &P0), 50, 1e-12);
  CHECK_NEAR (native (chain, MODEL_HYPERBOLIC, &P0), 27, 1e-12);
}

static void
test_fork_join (void)
{
  /* A(p0, 2) sends 9 bytes to B(p1, 4) and C(p2, 6); both send 9 bytes
     to D(p0, 1).
     LogGP: send1 2-4 (NIC until 2 + g + 8 G = 9), send2 waits for the
       NIC: 9-11.  B's message: 14, handled 14-20, B 20-24, send 24-26,
       at p0 36, handled 36-42.  C's: at p2 21, handled 21-27, C 27-33,
       send 33-35, at p0 45, handled 45-51 (NIC free at 43), D 51-52.
     LogGOPS: sends hold the CPU 2 + 8 O = 4 but the NIC decides: 52.
     LogP: no G: send2 at 5 (g), p1 14-16, B 16-20, send 20-22, at p0
       32-34; p2 17-19, C 19-25, send 25-27, at p0 37-39; D 39-40.
     Hyperbolic: sends take T(9) each on p0's CPU: C ends 2 + 2 T + 6,
       its send T later, D 1: 9 + 3 T.  */
  const char *fj = "kind\tid\tproc\twork\tfrom\tto\tbytes\n"
    "task\tA\t0\t2\tNA\tNA\tNA\n" "task\tB\t1\t4\tNA\tNA\tNA\n"
    "task\tC\t2\t6\tNA\tNA\tNA\n" "task\tD\t0\t1\tNA\tNA\tNA\n"
    "msg\tNA\tNA\tNA\tA\tB\t9\n" "msg\tNA\tNA\tNA\tA\tC\t9\n"
    "msg\tNA\tNA\tNA\tB\tD\t9\n" "msg\tNA\tNA\tNA\tC\tD\t9\n";
  CHECK_NEAR (native (fj, MODEL_LOGP, &P0), 40, 1e-12);
  CHECK_NEAR (native (fj, MODEL_LOGGP, &P0), 52, 1e-12);
  CHECK_NEAR (native (fj, MODEL_LOGGOPS, &P0), 52, 1e-12);
  CHECK_NEAR (native (fj, MODEL_HYPERBOLIC, &P0), 9 + 3 * T9, 1e-9);
}

static const char *pingpong =
  "num_ranks 2\n"
  "rank 0 {\n"
  "l1: send 9b to 1 tag 0\n"
  "l2: recv 9b from 1 tag 1\n"
  "l2 requires l1\n"
  "}\n"
  "rank 1 {\n"
  "l1: recv 9b from 0 tag 0\n"
  "l2: send 9b to 0 tag 1\n"
  "l2 requires l1\n"
  "l3: calc 10\n"
  "l3 requires l2\n"
  "}\n";

static void
test_pingpong (void)
{
  /* LogP: send 0-2, at p1 12, handled 12-14, send 14-16, at p0 26,
       handled 26-28; p1's calc 16-26.  28.
     LogGP: handling 2 + 8 G = 6: p1 12-18, send 18-20, p0 30-36; calc
       20-30.  36.
     LogGOPS eager (S = 100): sends hold the CPU 4: p1 12-18, send 18-22,
       at p0 30, handled 30-36; calc 22-32.  36.
     LogGOPS rendezvous (S = 4): the send to 1 completes when matched at
       12, the reply's when matched at p0 at 30, so p1's calc runs 30-40.
     Hyperbolic: T(9) each way; p1's calc after its send: 2 T + 10.  */
  CHECK_NEAR (goal (pingpong, MODEL_LOGP, &P0), 28, 1e-12);
  CHECK_NEAR (goal (pingpong, MODEL_LOGGP, &P0), 36, 1e-12);
  CHECK_NEAR (goal (pingpong, MODEL_LOGGOPS, &P0), 36, 1e-12);
  struct dag_params rdv = P0;
  rdv.S = 4;
  CHECK_NEAR (goal (pingpong, MODEL_LOGGOPS, &rdv), 40, 1e-12);
  CHECK_NEAR (goal (pingpong, MODEL_HYPERBOLIC, &P0), 2 * T9 + 10, 1e-9);
}

static double
bcast4 (enum dag_model m, const struct dag_params *p)
{
  struct dag_gen g;
  dag_gen_init (&g);
  g.pattern = "tree-bcast";
  g.topology = "k:2@4";
  g.work = 0;
  g.bytes = 9;
  struct dag d;
  struct dag_sink s;
  struct dag_sink_dag c;
  dag_init (&d, "gen");
  dag_sink_dag_init (&s, &c, &d);
  CHECK (dag_gen_run (&g, &s) == NULL);
  dag_finalize (&d);
  double ms = predict (&d, m, p, NULL);
  dag_free (&d);
  return ms;
}

static void
test_bcast (void)
{
  /* Binomial tree over 4 ranks: 0 -> 2, 0 -> 1, 2 -> 3; 9 bytes.
     LogP: 0 -> 2 at 0, handled 12-14, 2 -> 3 at 14, handled 26-28;
       0 -> 1 at g = 3, handled 15-17.  4 o + 2 L = 28.
     LogGP: the second send waits for the NIC (g + 8 G = 7): 0 -> 2
       handled 12-18, 2 -> 3 at 18, handled 30-36; 0 -> 1 at 7, handled
       19-25.  36.
     LogGOPS: same path, sends hold the CPU 4 < 7: 36.
     Hyperbolic: 0 sends for T then T; 2 forwards from T to 2 T: 2 T.  */
  CHECK_NEAR (bcast4 (MODEL_LOGP, &P0), 28, 1e-12);
  CHECK_NEAR (bcast4 (MODEL_LOGGP, &P0), 36, 1e-12);
  CHECK_NEAR (bcast4 (MODEL_LOGGOPS, &P0), 36, 1e-12);
  CHECK_NEAR (bcast4 (MODEL_HYPERBOLIC, &P0), 2 * T9, 1e-9);

  /* The same tree written in GOAL.  */
  const char *g4 = "num_ranks 4\n"
    "rank 0 {\nl1: send 9b to 2 tag 0\nl2: send 9b to 1 tag 0\n}\n"
    "rank 1 {\nl1: recv 9b from 0 tag 0\n}\n"
    "rank 2 {\nl1: recv 9b from 0 tag 0\nl2: send 9b to 3 tag 0\n"
    "l2 requires l1\n}\n"
    "rank 3 {\nl1: recv 9b from 2 tag 0\n}\n";
  CHECK_NEAR (goal (g4, MODEL_LOGP, &P0), 28, 1e-12);
  CHECK_NEAR (goal (g4, MODEL_LOGGP, &P0), 36, 1e-12);
  CHECK_NEAR (goal (g4, MODEL_LOGGOPS, &P0), 36, 1e-12);
  CHECK_NEAR (goal (g4, MODEL_HYPERBOLIC, &P0), 2 * T9, 1e-9);
}

static void
test_logpc (void)
{
  /* One 8-byte message, os = or = 100: rank 0's busy span is os, so its
     injection rate is m = 1/100 from the second simulation on, and the
     third confirms the makespan: 3 simulations.  With the channel
     occupancy s = B Gc (Gc = G by default):
     eq. (4): rho = s m k_d / 2; eq. (5): w_b = (m s^2 / 2) / (1 - rho)
     (k_d - 1) / k_d (1 + 1/n); eq. (6): C_n = n k_d w_b.  */
  struct dag_params p = P0;
  p.os = p.or_ = 100;
  p.n = 2;
  p.kd = 1.9375;
  const char *one = "num_ranks 2\nrank 0 {\nsend 8b to 1\n}\n"
    "rank 1 {\nrecv 8b from 0\n}\n";
  struct dag d;
  dag_init (&d, "one");
  goal_parse (one, strlen (one), "one", &d);
  dag_finalize (&d);
  /* Gc unset (G = 0.5), then the paper's Gc = 1 byte per time unit.  */
  CHECK (dag_params_get (&p, "Gc") == p.G);
  double gcs[] = { NAN, 1 };
  for (int i = 0; i < 2; i++)
    {
      p.Gc = gcs[i];
      double Gc = isnan (p.Gc) ? p.G : p.Gc;
      double B = 8, m = 0.01, kd = p.kd, n = p.n, s = B * Gc;
      double rho = s * m * kd / 2;
      double wb = (m * s * s / 2) / (1 - rho) * (kd - 1) / kd * (1 + 1 / n);
      double Cn = n * kd * wb;
      int it;
      double ms = predict (&d, MODEL_LOGPC, &p, &it);
      CHECK_NEAR (ms, 100 + 10 + Cn + 100 + 7 * 0.5, 1e-9);
      CHECK (it == 3);
    }
  CHECK (dag_params_get (&p, "Gc") == 1);
  /* Gc must be > 0.  */
  CHECK (dag_params_set (&p, "Gc", 0) == -2);
  CHECK (dag_params_set (&p, "Gc", 2) == 0 && p.Gc == 2);
  /* k_d = 1: no contention, LoGPC is LogGP.  */
  p.kd = 1;
  int it;
  double ms = predict (&d, MODEL_LOGPC, &p, &it);
  CHECK_NEAR (ms, 213.5, 1e-12);
  CHECK (it == 2);
  dag_free (&d);
}

static void
test_goal_constructs (void)
{
  /* comments, unlabeled operations, irequires, tags, wildcards, cpu and
     nic, calc.  Rank 0 receives from anyone with any tag twice; rank 1
     sends at 0, rank 2 after a calc of 50.  LogP: first message at 12,
     handled 12-14; the second sent at 50, at 62, handled 62-64; the calc
     "after" irequires the first receive's start (0): 0-1 on the CPU.  */
  const char *g =
    "// a comment\n"
    "num_ranks 3 /* block\n comment */\n"
    "rank 0 {\n"
    "a: recv 1b from -1 tag -1\n"
    "b : recv 1 b from -1 tag 7 cpu 0 nic 0\n"
    "b requires a\n"
    "after: calc 1 cpu 0\n"
    "after irequires a\n"
    "}\n"
    "rank 1 {\n"
    "send 1b to 0 tag 3\n"
    "}\n"
    "rank 2 {\n"
    "x: calc 50\n"
    "y: send 1b to 0 tag 7 cpu 0 nic 0\n"
    "y requires x\n"
    "}\n";
  CHECK_NEAR (goal (g, MODEL_LOGP, &P0), 64, 1e-12);

  /* Matching order: the earliest posted matching receive wins.  Rank 0
     posts "any source, tag 5" then "from 1, tag 5"; rank 1's first
     message (at 12, handled 12-14) goes to the first, whose successor
     computes 14-1014; the second message (sent 102-104, at 114) waits
     for the CPU: 1014-1016.  Matching the other way round would end at
     1116.  */
  const char *order =
    "num_ranks 2\n"
    "rank 0 {\n"
    "r1: recv 1b from -1 tag 5\n"
    "r2: recv 1b from 1 tag 5\n"
    "c: calc 1000\n"
    "c requires r1\n"
    "}\n"
    "rank 1 {\ns1: send 1b to 0 tag 5\nc: calc 100\nc requires s1\n"
    "s2: send 1b to 0 tag 5\ns2 requires c\n}\n";
  CHECK_NEAR (goal (order, MODEL_LOGP, &P0), 1016, 1e-12);

  /* Unexpected messages: rank 0 receives after a long calc; both
     messages wait in the unexpected queue and match in arrival order. */
  const char *unexp =
    "num_ranks 2\n"
    "rank 0 {\nc: calc 100\nr: recv 4b from 1 tag -1\nr requires c\n"
    "q: recv 4b from -1 tag 2\nq requires r\n}\n"
    "rank 1 {\nsend 4b to 0 tag 1\nsend 4b to 0 tag 2\n}\n";
  /* LogP: the messages reach rank 0 at 12 and 15 (g) but its CPU is in
     the calc until 100: handled 100-102 and 103-105 (g).  */
  CHECK_NEAR (goal (unexp, MODEL_LOGP, &P0), 105, 1e-12);
}

/* Numbers of every length where the reader's fast path reads them
   (fast_uint_w: one digit, up to 7 as a word, more digit by digit):
   byte counts of 1 to 18 digits, tags of 1 to 10 (the largest
   2147483646), leading zeros, the last line within 8 bytes of the
   text's end (read byte by byte), and ranks and peers of 1 to 6 digits
   (a file of 10^6 rank blocks).  */
static void
test_goal_numbers (void)
{
  static const char digits[] = "918273645546372819";
  char text[4096], *p = text;
  int64_t want_b[18], want_t[18];
  p += sprintf (p, "num_ranks 2\nrank 1 {\n}\nrank 0 {\n");
  for (int len = 1; len <= 18; len++)
    {
      int64_t b = 0, t = 0;
      for (int i = 0; i < len; i++)
        b = b * 10 + (digits[i] - '0');
      /* tags: the first min(len, 9) digits, the tenth case the largest */
      for (int i = 0; i < len && i < 9; i++)
        t = t * 10 + (digits[i] - '0');
      if (len == 10)
        t = INT32_MAX - 1;
      want_b[len - 1] = b;
      want_t[len - 1] = t;
      p += sprintf (p, "l%d: send %.*sb to 01 tag %" PRId64 "\n", len, len,
                    digits, t);
    }
  p += sprintf (p, "x: recv 0007b from 1 tag 5\n}\n");
  struct dag d;
  dag_init (&d, "numbers.goal");
  goal_parse (text, strlen (text), "numbers.goal", &d);
  CHECK (d.n == 19);
  int same = 1;
  for (int k = 0; k < 18; k++)
    same &= d.node[k].op == DAG_SEND && d.node[k].proc == 0
            && d.node[k].peer == 1 && d.node[k].u.bytes == want_b[k]
            && d.node[k].tag == want_t[k];
  CHECK (same);
  CHECK (d.node[18].op == DAG_RECV && d.node[18].u.bytes == 7
         && d.node[18].peer == 1 && d.node[18].tag == 5);
  dag_free (&d);

  /* ranks and peers of 1 to 6 digits: 10^6 rank blocks, rank 0
     sending to 9, 99, ..., 999999, each of those receiving from it */
  size_t cap = 16 * 1000000 + 4096;
  char *big = malloc (cap);
  CHECK (big != NULL);
  if (!big)
    return;
  p = big;
  p += sprintf (p, "num_ranks 1000000\n\nrank 0 {\n");
  for (int32_t r = 9; r <= 999999; r = r * 10 + 9)
    p += sprintf (p, "send 2b to %" PRId32 " tag 0\n", r);
  p += sprintf (p, "}\n");
  for (int32_t r = 1; r < 1000000; r++)
    {
      int peer = r == 9 || r == 99 || r == 999 || r == 9999 || r == 99999
                 || r == 999999;
      p += sprintf (p, peer ? "rank %" PRId32 " {\nrecv 2b from 0 tag 0\n}\n"
                            : "rank %" PRId32 " {\n}\n", r);
    }
  dag_init (&d, "ranks.goal");
  goal_parse (big, (size_t) (p - big), "ranks.goal", &d);
  CHECK (d.n == 12 && d.nprocs == 1000000);
  same = 1;
  for (int k = 0, r = 9; k < 6; k++, r = r * 10 + 9)
    same &= d.node[k].op == DAG_SEND && d.node[k].proc == 0
            && d.node[k].peer == r && d.node[6 + k].op == DAG_RECV
            && d.node[6 + k].proc == r && d.node[6 + k].peer == 0;
  CHECK (same);
  dag_free (&d);
  free (big);
}

/* A block's closing and the next one's opening are read in one step
   (fast_line): the operations' lines stay right with one empty line
   between the blocks, none, or two (the second read apart).  */
static void
test_goal_block_lines (void)
{
  const char *text =
    "num_ranks 4\n"           /* 1 */
    "rank 0 {\n"              /* 2 */
    "l1: send 1b to 1 tag 0\n" /* 3 */
    "}\n"                     /* 4 */
    "\n"                      /* 5 */
    "rank 1 {\n"              /* 6 */
    "l1: recv 1b from 0 tag 0\n" /* 7 */
    "}\n"                     /* 8 */
    "rank 2 {\n"              /* 9 */
    "l1: calc 5\n"            /* 10 */
    "}\n"                     /* 11 */
    "\n"                      /* 12 */
    "\n"                      /* 13 */
    "rank 3 {\n"              /* 14 */
    "\n"                      /* 15 */
    "l1: calc 7\n"            /* 16 */
    "}\n";                    /* 17 */
  struct dag d;
  dag_init (&d, "blocks.goal");
  goal_parse (text, strlen (text), "blocks.goal", &d);
  CHECK (d.n == 4);
  CHECK (dag_node_line (&d, 0) == 3 && d.node[0].proc == 0);
  CHECK (dag_node_line (&d, 1) == 7 && d.node[1].proc == 1);
  CHECK (dag_node_line (&d, 2) == 10 && d.node[2].proc == 2);
  CHECK (dag_node_line (&d, 3) == 16 && d.node[3].proc == 3
         && d.node[3].u.work == 7);
  dag_free (&d);
}

/* may_pair of a GOAL schedule TEXT (dag_finalize).  */
static int
may_pair (const char *text)
{
  struct dag d;
  dag_init (&d, "pair.goal");
  goal_parse (text, strlen (text), "pair.goal", &d);
  dag_finalize (&d);
  int m = d.may_pair;
  dag_free (&d);
  return m;
}

/* A channel of one send and one receive is possible unless every send
   or every receive comes in a run on one channel.  */
static void
test_may_pair (void)
{
  /* one message: a pair */
  CHECK (may_pair ("num_ranks 2\n"
                   "rank 0 {\nl1: send 1b to 1 tag 0\n}\n"
                   "rank 1 {\nl1: recv 1b from 0 tag 0\n}\n") == 1);
  /* two messages on one channel, the sends in a run: none */
  CHECK (may_pair ("num_ranks 2\n"
                   "rank 0 {\nl1: send 1b to 1 tag 0\n"
                   "l2: send 1b to 1 tag 0\n}\n"
                   "rank 1 {\nl1: recv 1b from 0 tag 0\n"
                   "l2: recv 1b from 0 tag 0\n}\n") == 0);
  /* a message back between them: its channel is one of one message */
  CHECK (may_pair ("num_ranks 2\n"
                   "rank 0 {\nl1: send 1b to 1 tag 0\n"
                   "l2: recv 1b from 1 tag 5\nl3: send 1b to 1 tag 0\n}\n"
                   "rank 1 {\nl1: recv 1b from 0 tag 0\n"
                   "l2: send 1b to 0 tag 5\nl3: recv 1b from 0 tag 0\n}\n")
         == 1);
  /* two tags: two channels of one message each */
  CHECK (may_pair ("num_ranks 2\n"
                   "rank 0 {\nl1: send 1b to 1 tag 0\n"
                   "l2: send 1b to 1 tag 1\n}\n"
                   "rank 1 {\nl1: recv 1b from 0 tag 0\n"
                   "l2: recv 1b from 0 tag 1\n}\n") == 1);
  /* a run is one sender's: ranks 0 and 1 sending to 2 are two channels */
  CHECK (may_pair ("num_ranks 3\n"
                   "rank 0 {\nl1: send 1b to 2 tag 0\n}\n"
                   "rank 1 {\nl1: send 1b to 2 tag 0\n}\n"
                   "rank 2 {\nl1: recv 1b from 0 tag 0\n"
                   "l2: recv 1b from 1 tag 0\n}\n") == 1);
  /* no message */
  CHECK (may_pair ("num_ranks 1\nrank 0 {\nl1: calc 5\n}\n") == 0);
}

static struct dag errd;

static void
parse_goal_text (const char *text)
{
  dag_free (&errd);
  dag_init (&errd, "bad.goal");
  goal_parse (text, strlen (text), "bad.goal", &errd);
  dag_finalize (&errd);
  struct dagsim_cost c;
  dag_model_cost (MODEL_LOGP, &P0, &c);
  struct dagsim_result r;
  if (dagsim_run (&errd, &c, NULL, &r) != 0)
    die ("%s", r.stuck);   /* a schedule that cannot complete */
}

static void
parse_native_text (const char *text)
{
  tsv_free_all ();
  dag_free (&errd);
  dag_init (&errd, "bad.tsv");
  dag_parse_native_text (text, strlen (text), "bad.tsv", &errd);
  dag_finalize (&errd);
}

static void
test_errors (void)
{
  EXPECT_DIE (parse_goal_text ("num_ranks 1\nrank 0 {\na: calc 1\n"
                               "b: calc 1\na requires b\nb requires a\n}\n"),
              1);
  EXPECT_DIE (parse_goal_text ("num_ranks 1\nrank 0 {\na: calc 1\n"
                               "a requires a\n}\n"), 1);
  EXPECT_DIE (parse_goal_text ("num_ranks 1\nrank 0 {\ncalc -5\n}\n"), 1);
  EXPECT_DIE (parse_goal_text ("num_ranks 1\nrank 0 {\nx requires y\n}\n"),
              1);
  EXPECT_DIE (parse_goal_text ("num_ranks 1\nrank 0 {\nsend 1b to 3\n}\n"),
              1);
  EXPECT_DIE (parse_goal_text ("num_ranks 2\nrank 0 {\nsend 1b to 1\n"),
              1);
  EXPECT_DIE (parse_goal_text ("rank 0 {\n}\n"), 1);
  EXPECT_DIE (parse_goal_text ("num_ranks 2\nrank 0 {\nsend 1 to 1\n}\n"),
              1);
  EXPECT_DIE (parse_goal_text ("num_ranks 2\nrank 0 {\nsend 1b to 1 tag 1\n"
                               "}\nrank 1 {\nrecv 1b from 0 tag 2\n}\n"), 1);
  EXPECT_DIE (parse_goal_text ("num_ranks 2\nrank 0 {\nsend 1b to 1\n}\n"),
              1);
  EXPECT_DIE (parse_goal_text ("num_ranks 2\nrank 0 {\nrecv 1b from 1\n}\n"),
              1);
  EXPECT_DIE (parse_goal_text ("num_ranks 1\nrank 0 {\n/* open\n}\n"), 1);
  const char *hdr = "kind\tid\tproc\twork\tfrom\tto\tbytes\n";
  char buf[512];
  snprintf (buf, sizeof buf, "%stask\tA\t0\t-1\tNA\tNA\tNA\n", hdr);
  EXPECT_DIE (parse_native_text (buf), 1);
  snprintf (buf, sizeof buf, "%stask\tA\t0\t1\tNA\tNA\tNA\n"
            "msg\tNA\tNA\tNA\tA\tZ\t4\n", hdr);
  EXPECT_DIE (parse_native_text (buf), 1);
  snprintf (buf, sizeof buf, "%stask\tA\t0\t1\tNA\tNA\tNA\n"
            "task\tB\t1\t1\tNA\tNA\tNA\n" "msg\tNA\tNA\tNA\tA\tB\t4\n"
            "dep\tNA\tNA\tNA\tB\tA\tNA\n", hdr);
  EXPECT_DIE (parse_native_text (buf), 1);
  snprintf (buf, sizeof buf, "%stask\tA\t0\t1\tNA\tNA\tNA\n"
            "task\tA\t1\t1\tNA\tNA\tNA\n", hdr);
  EXPECT_DIE (parse_native_text (buf), 1);
  tsv_free_all ();
  dag_free (&errd);
}

static void
test_diamond (void)
{
  /* eq. (15) against the simulation of the generated DAG under the same
     assumptions, for several shapes.  */
  static const double cases[][8] = {
    /* n, P, b, work, alpha, value, os, a */
    { 64, 4, 8, 1, 0.5, 8, 20, 0 },
    { 128, 8, 16, 2, 0, 4, 50, 8 },
    { 96, 3, 12, 1, 1, 1, 5, 2 },
    { 64, 2, 1, 1, 0, 8, 10, 0 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    {
      const double *c = cases[i];
      struct diamond_in in = { c[0], c[1], c[2], c[3], c[4], c[5], 100, c[6],
                               0.5, c[7] };
      struct diamond_out o;
      diamond_eval (&in, &o);
      struct dag_gen g;
      dag_gen_init (&g);
      g.pattern = "diamond";
      g.n = (int64_t) c[0];
      g.procs = (int64_t) c[1];
      g.blocks = (int64_t) c[2];
      g.work = c[3];
      g.alpha = c[4];
      g.bytes = (int64_t) c[5];
      struct dag d;
      struct dag_sink s;
      struct dag_sink_dag sc;
      dag_init (&d, "gen");
      dag_sink_dag_init (&s, &sc, &d);
      CHECK (dag_gen_run (&g, &s) == NULL);
      dag_finalize (&d);
      struct dagsim_cost cost;
      diamond_cost (&o, &cost);
      struct dagsim_result r;
      /* eq. (15) holds with computations before messages at one
         instant */
      struct dagsim_opts cls = { .tie_order = DAGSIM_TIE_CLASS };
      dagsim_run (&d, &cost, &cls, &r);
      CHECK_NEAR (r.makespan, o.M, 1e-9 * o.M);
      dagsim_result_free (&r);
      dag_free (&d);

      /* dM/db = 0 at b*: a central difference vanishes there.  */
      double bs, mb;
      int64_t bi;
      diamond_optimal_b (&in, &bs, &bi, &mb);
      if (bs > 1.5 && bs < in.n - 1.5)
        {
          struct diamond_in lo = in, hi = in;
          struct diamond_out olo, ohi;
          lo.b = bs - 1e-3;
          hi.b = bs + 1e-3;
          diamond_eval (&lo, &olo);
          diamond_eval (&hi, &ohi);
          CHECK_NEAR ((ohi.M - olo.M) / 2e-3, 0, 1e-4 * o.M);
          /* and the integer optimum beats its neighbours */
          struct diamond_in nb = in;
          struct diamond_out on;
          nb.b = (double) bi - 1;
          diamond_eval (&nb, &on);
          CHECK (mb <= on.M);
          nb.b = (double) bi + 1;
          diamond_eval (&nb, &on);
          CHECK (mb <= on.M);
        }
    }
}

/* Processors of the tree SPEC makes (PROCS: --procs, 0 for none), or -1
   when the generator refuses it.  */
static int64_t
tree_procs (const char *spec, int64_t procs)
{
  struct dag_gen g;
  dag_gen_init (&g);
  g.pattern = "tree-bcast";
  g.topology = spec;
  if (procs)
    {
      g.procs = procs;
      g.procs_given = 1;
    }
  struct dag d;
  struct dag_sink s;
  struct dag_sink_dag c;
  dag_init (&d, "gen");
  dag_sink_dag_init (&s, &c, &d);
  int64_t n = dag_gen_run (&g, &s) ? -1 : (int64_t) d.nprocs;
  dag_free (&d);
  return n;
}

static void
test_trees (void)
{
  /* The specs of treespec.h (msgperf-trees(7)).  */
  CHECK (tree_procs ("b:2^3", 0) == 15);
  CHECK (tree_procs ("b:2x4x8", 0) == 1 + 2 + 8 + 64);
  CHECK (tree_procs ("k:3@100", 0) == 100);
  CHECK (tree_procs ("k:2", 0) == -1);      /* no size: -P needed */
  CHECK (tree_procs ("flat", 0) == -1);
  CHECK (tree_procs ("k:2", 16) == 16);
  CHECK (tree_procs ("flat", 5) == 5);
  CHECK (tree_procs ("g:2:8,4", 0) == 1 + 2 + 12);
  CHECK (tree_procs ("b:2^3", 15) == 15);
  CHECK (tree_procs ("b:2^3", 16) == -1);   /* does not fit --procs */
  CHECK (tree_procs ("b:x", 0) == -1);
  CHECK (tree_procs ("binomial@16", 0) == -1);
  CHECK (tree_procs ("flat@5", 0) == -1);
  /* A flat tree of 5 under LogP: the root sends 4 messages g apart;
     the last leaves at 3 g = 9: 9 + 2 + 10 + 2 = 23.  */
  struct dag_gen g;
  dag_gen_init (&g);
  g.pattern = "tree-reduce";
  g.topology = "flat";
  g.procs = 5;
  g.procs_given = 1;
  g.work = 0;
  g.bytes = 1;
  struct dag d;
  struct dag_sink s;
  struct dag_sink_dag c;
  dag_init (&d, "gen");
  dag_sink_dag_init (&s, &c, &d);
  CHECK (dag_gen_run (&g, &s) == NULL);
  dag_finalize (&d);
  /* Reduce: four leaves send at 0, all reach the root at 12 and are
     handled g = 3 apart (NIC) and o = 2 each: 12-14, 15-17, 18-20,
     21-23, then the root's task (work 0).  */
  CHECK_NEAR (predict (&d, MODEL_LOGP, &P0, NULL), 23, 1e-12);
  dag_free (&d);
}

/* GOAL's cpu and nic numbers: kept per operation (in the node's
   padding), several CPUs and NICs per rank.  */
static void
test_goal_cpu_nic (void)
{
  CHECK (sizeof (struct dag_node) == 24);
  const char *g =
    "num_ranks 2\n"
    "rank 0 {\na: calc 100 cpu 3\nb: calc 60\n"
    "s: send 1b to 1 tag 1 cpu 1 nic 2\n}\n"
    "rank 1 {\nrecv 1b from 0 tag 1 nic 1\n}\n";
  struct dag d;
  dag_init (&d, "cn.goal");
  goal_parse (g, strlen (g), "cn.goal", &d);
  CHECK (d.maxcpu == 3 && d.maxnic == 2);
  CHECK (d.node[0].cpu == 3 && d.node[0].nic == 0);
  CHECK (d.node[1].cpu == 0 && d.node[1].nic == 0);
  CHECK (d.node[2].cpu == 1 && d.node[2].nic == 2);
  CHECK (d.node[3].cpu == 0 && d.node[3].nic == 1);
  dag_free (&d);
  /* LogP: the two calcs of rank 0 overlap on CPUs 0 and 1 (0-100,
     0-60); on one CPU they take 160.  */
  CHECK_NEAR (goal ("num_ranks 1\nrank 0 {\ncalc 100\ncalc 60 cpu 1\n}\n",
                    MODEL_LOGP, &P0), 100, 1e-12);
  CHECK_NEAR (goal ("num_ranks 1\nrank 0 {\ncalc 100\ncalc 60 cpu 0\n}\n",
                    MODEL_LOGP, &P0), 160, 1e-12);
  /* A requirement across CPUs holds: 0-100 on CPU 0, then 100-110 on
     CPU 1.  */
  CHECK_NEAR (goal ("num_ranks 1\nrank 0 {\na: calc 100\n"
                    "b: calc 10 cpu 1\nb requires a\n}\n",
                    MODEL_LOGP, &P0), 110, 1e-12);
  /* Native and generated DAGs: one CPU and one NIC per processor.  */
  dag_init (&d, "n.tsv");
  const char *nat = "kind\tid\tproc\twork\tfrom\tto\tbytes\n"
    "task\tA\t0\t5\tNA\tNA\tNA\n" "task\tB\t1\t7\tNA\tNA\tNA\n"
    "msg\tNA\tNA\tNA\tA\tB\t8\n";
  dag_parse_native_text (nat, strlen (nat), "n.tsv", &d);
  CHECK (d.maxcpu == 0 && d.maxnic == 0);
  dag_free (&d);
}

/* dag_expect: the arrays reserved whole for what a text may hold
   never move as they fill, and hold what was added; past the
   expectation they grow as before.  */
static void
test_expect (void)
{
  struct dag d;
  dag_init (&d, "test");
  int32_t x = dag_intern (&d, "x", 1);
  dag_expect (&d, 300000, 200000);
  CHECK (d.expected && d.cap == 300000 && d.ecap == 200000);
  const struct dag_node *node = d.node;
  const int32_t *efrom = d.efrom;
  int moved = 0, same = 1;
  for (int32_t v = 0; v < 300000; v++)
    {
      dag_add_comm (&d, v % 2 ? DAG_RECV : DAG_SEND, v % 5, (v + 1) % 5,
                    v, v % 3, v % 4 ? x : -1, v + 1);
      if (v % 3 == 0)
        dag_add_edge (&d, v / 2, v, DAG_REQUIRES);
      moved |= d.node != node || d.efrom != efrom;
    }
  CHECK (!moved);
  for (int32_t v = 0; v < 300000; v++)
    same &= d.node[v].op == (v % 2 ? DAG_RECV : DAG_SEND)
            && d.node[v].proc == v % 5 && d.node[v].peer == (v + 1) % 5
            && d.node[v].u.bytes == v && d.node[v].tag == v % 3
            && dag_node_name (&d, (size_t) v) == (v % 4 ? x : -1)
            && dag_node_line (&d, (size_t) v) == v + 1
            && (v % 3 || (d.efrom[v / 3] == v / 2 && d.eto[v / 3] == v));
  CHECK (same);
  CHECK (d.n == 300000 && d.ne == 100000);
  /* one more than expected */
  dag_add_calc (&d, 0, 1, x, 300001);
  CHECK (d.n == 300001 && d.cap > 300000 && d.node[300000].op == DAG_CALC
         && dag_node_line (&d, 300000) == 300001
         && d.node[299999].u.bytes == 299999);
  dag_free (&d);
}

/* Arrays grown without dag_expect (dag_grow): the node array past
   4 MiB (175,000 operations) is copied into new blocks, the dependency
   arrays past 4 MiB (a million) too but for the kinds (a byte each,
   resized as before); everything written stays.  */
static void
test_grow (void)
{
  struct dag d;
  dag_init (&d, "test");
  int32_t x = dag_intern (&d, "x", 1);
  enum { N = 400000, E = 3 * (N - 1) };
  for (int32_t v = 0; v < N; v++)
    {
      dag_add_comm (&d, v % 2 ? DAG_RECV : DAG_SEND, v % 7, (v + 3) % 7,
                    (int64_t) v * 3, v % 11, v % 4 ? x : -1, v + 2);
      for (int k = 0; k < 3 && v; k++)
        dag_add_edge (&d, v / 2, v, k == 2 ? DAG_IREQUIRES : DAG_REQUIRES);
    }
  CHECK (d.n == N && d.cap >= N && d.ne == E && d.ecap >= E);
  int same = 1;
  for (int32_t v = 0; v < N; v++)
    {
      same &= d.node[v].op == (v % 2 ? DAG_RECV : DAG_SEND)
              && d.node[v].proc == v % 7 && d.node[v].peer == (v + 3) % 7
              && d.node[v].u.bytes == (int64_t) v * 3
              && d.node[v].tag == v % 11
              && dag_node_name (&d, (size_t) v) == (v % 4 ? x : -1)
              && dag_node_line (&d, (size_t) v) == v + 2;
      for (int k = 0; k < 3 && v; k++)
        {
          size_t e = 3 * (size_t) (v - 1) + (size_t) k;
          same &= d.efrom[e] == v / 2 && d.eto[e] == v
                  && d.ekind[e] == (k == 2 ? DAG_IREQUIRES : DAG_REQUIRES);
        }
    }
  CHECK (same);
  /* and the graph indexes as usual */
  dag_finalize (&d);
  CHECK (d.npred[N - 1] == 3 && d.succ_off[2] - d.succ_off[1] == 6);
  dag_free (&d);
}

/* A file read in pieces (goal_parse_fd) gives the DAG the whole text
   gives (goal_parse), whatever the pieces' size: lines cut anywhere, a
   block comment across pieces, a line longer than a piece (the buffer
   grows), a byte order mark, a last line without its newline, and runs
   of repeated send and receive lines (the reader's memo of the last
   one, kept across pieces: a stale memo would give a line another
   line's numbers).  */
static void
test_goal_pieces (void)
{
  size_t cap = 1 << 20, n = 0;
  char *text = malloc (cap);
  n += (size_t) sprintf (text + n, "/* a schedule\n   over 3 ranks */\n"
                         "num_ranks 3\n// %0600d\n", 0);
  /* ranks 0 and 1: lines of one length, sizes 5 and 6 in runs of 3 */
  for (int r = 0; r < 2; r++)
    {
      n += (size_t) sprintf (text + n, "rank %d {\n", r);
      for (int i = 100; i < 1000; i++)
        n += (size_t) sprintf (text + n, r ? "l%d: recv %db from 0 tag 0\n"
                                           : "l%d: send %db to 1 tag 0\n",
                               i, 5 + (i / 3) % 2);
      n += (size_t) sprintf (text + n, "}\n");
    }
  /* rank 2: all kinds of lines */
  n += (size_t) sprintf (text + n, "rank 2 {\n");
  for (int i = 1; i <= 300; i++)
    {
      int size = 1 + (i / (1 + i % 4)) % 7, tag = (i / 5) % 3;
      int peer = i % 2;
      if (i % 3 == 0)
        n += (size_t) sprintf (text + n, "l%d: send %db to %d tag %d\n",
                               i, size, peer, tag);
      else if (i % 3 == 1)
        n += (size_t) sprintf (text + n, "l%d: recv %db from %d tag %d\n",
                               i, size, peer, tag);
      else
        n += (size_t) sprintf (text + n, i % 11 ? "l%d: calc %d\n"
                               : "l%d:\tcalc\t%d /* general\npath */\n",
                               i, i % 9);
      if (i > 1 && i % 4 == 0)
        n += (size_t) sprintf (text + n, "l%d requires l%d\n", i, i - 1);
    }
  n += (size_t) sprintf (text + n, "}\n");
  n -= 1;     /* the last line without its newline */
  struct dag whole;
  dag_init (&whole, "pieces.goal");
  goal_parse (text, n, "pieces.goal", &whole);
  CHECK (whole.n == 2100);
  FILE *f = tmpfile ();
  CHECK (f != NULL);
  if (!f)
    {
      dag_free (&whole);
      free (text);
      return;
    }
  char *file = malloc (n + 3);
  memcpy (file, "\xEF\xBB\xBF", 3);
  memcpy (file + 3, text, n);
  fwrite (file, 1, n + 3, f);
  fflush (f);
  /* and a look at the start already taken (HEAD bytes), as from a
     pipe: none, or 1, 2 (in the byte order mark), 40 or 5000 bytes */
  static const size_t pieces[] = { 1, 7, 16, 33, 64, 100, 257, 4096, 0 };
  static const size_t heads[] = { 0, 1, 2, 40, 5000 };
  for (size_t k = 0; k < sizeof pieces / sizeof *pieces; k++)
    {
      struct dag d;
      size_t h = heads[k % (sizeof heads / sizeof *heads)];
      dag_init (&d, "pieces.goal");
      CHECK (lseek (fileno (f), (off_t) h, SEEK_SET) == (off_t) h);
      goal_parse_fd (fileno (f), h ? file : NULL, h, k % 2 ? 0 : n + 3,
                     pieces[k], "pieces.goal", &d);
      CHECK (dag_same (&whole, &d));
      dag_free (&d);
    }
  free (file);
  /* and dag_same tells a difference: one size changed (l500's send) */
  char *at = strstr (text, "l500: send 5b");
  CHECK (at != NULL);
  if (at)
    {
      struct dag d;
      at[11] = '7';
      dag_init (&d, "pieces.goal");
      goal_parse (text, n, "pieces.goal", &d);
      CHECK (!dag_same (&whole, &d) && d.n == whole.n);
      dag_free (&d);
    }
  fclose (f);
  dag_free (&whole);
  free (text);
}

int
main (void)
{
  params ();
  test_chain ();
  test_fork_join ();
  test_pingpong ();
  test_bcast ();
  test_logpc ();
  test_goal_constructs ();
  test_goal_numbers ();
  test_goal_block_lines ();
  test_goal_pieces ();
  test_goal_cpu_nic ();
  test_may_pair ();
  test_errors ();
  test_diamond ();
  test_trees ();
  test_expect ();
  test_grow ();
  return unit_done ();
}
