/* SPDX-License-Identifier: GPL-3.0-or-later */
/* trace-calls: MPI programs with known call sequences, for the tests of
 * libmsgperf-trace (testsuite/msgperf-trace.at), run under msgperf-trace:
 *
 *   trace-calls calls   every traced call kind, in a fixed order
 *   trace-calls abort   rank 1 calls MPI_Abort (status 3) after a barrier
 *                       and a receive
 *   trace-calls term    rank 1 is killed by SIGTERM at the same point
 *   trace-calls vcoll   the collectives with per-rank sizes, Scan and
 *                       Exscan, with sizes that differ between ranks
 *                       (any number of ranks)
 *   trace-calls clock   MPI_Send to MPI_PROC_NULL, a spin of 100 ms on
 *                       MPI_Wtime, another send; rank 0 prints the
 *                       MPI_Wtime times from MPI_Init's return to the
 *                       spin's start and of the spin, in microseconds
 *   trace-calls loop N  N rounds of a message of 8 bytes from each even
 *                       rank to its odd partner (tag: the round), and
 *                       an MPI_Allreduce of one int every tenth round:
 *                       more calls than small buffers hold
 *   trace-calls untraced  calls the library counts but does not trace:
 *                       MPI_Bsend (twice) and MPI_Rsend from each even
 *                       rank to its partner, MPI_Sendrecv_replace
 *                       between them, MPI_Ibarrier and MPI_Iallreduce
 *                       (each waited for)
 *   trace-calls types   MPI_Send to MPI_PROC_NULL of 2 elements of
 *                       MPI_INT, MPI_DOUBLE, MPI_C_DOUBLE_COMPLEX,
 *                       MPI_2INT, then of 3 doubles contiguous, freed,
 *                       then of 5 ints contiguous, freed
 *
 * Ranks pair up (0-1, 2-3 ...: an even number of ranks, but for vcoll);
 * every order of
 * completion the tests check is forced by messages, so that the trace is
 * the same in every run (only the times differ).  */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
fail (const char *what)
{
  fprintf (stderr, "trace-calls: %s\n", what);
  MPI_Abort (MPI_COMM_WORLD, 1);
}

/* Point-to-point: A is the even rank of a pair, B the odd one.  */
static void
pt2pt (int rank)
{
  int p = rank ^ 1, a = !(rank & 1), flag;
  char buf[128], small[4];
  int go = 0;
  MPI_Request r[2];
  MPI_Status st;
  memset (buf, 0, sizeof buf);
  if (a)
    {
      MPI_Send (buf, 8, MPI_INT, p, 1, MPI_COMM_WORLD);            /* 32 B */
      MPI_Ssend (buf, 16, MPI_CHAR, p, 2, MPI_COMM_WORLD);
      MPI_Isend (buf, 100, MPI_BYTE, p, 3, MPI_COMM_WORLD, &r[0]);
      MPI_Wait (&r[0], MPI_STATUS_IGNORE);
      /* Probed (tag 4), then found by Iprobe (tag 5) once tag 6 came.  */
      MPI_Issend (buf, 8, MPI_BYTE, p, 4, MPI_COMM_WORLD, &r[0]);
      MPI_Isend (buf, 24, MPI_BYTE, p, 5, MPI_COMM_WORLD, &r[1]);
      MPI_Waitall (2, r, MPI_STATUSES_IGNORE);
      MPI_Send (buf, 1, MPI_BYTE, p, 6, MPI_COMM_WORLD);
      /* Tests: tag 7 only after B's go (tag 8), then tag 9.  */
      MPI_Recv (&go, 0, MPI_INT, p, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send (buf, 4, MPI_BYTE, p, 7, MPI_COMM_WORLD);
      MPI_Send (buf, 2, MPI_BYTE, p, 9, MPI_COMM_WORLD);
      /* Waitany: tag 11 first, tag 10 only after B's go (tag 12).  */
      MPI_Send (buf, 11, MPI_BYTE, p, 11, MPI_COMM_WORLD);
      MPI_Recv (&go, 0, MPI_INT, p, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send (buf, 10, MPI_BYTE, p, 10, MPI_COMM_WORLD);
    }
  else
    {
      MPI_Recv (buf, 8, MPI_INT, p, 1, MPI_COMM_WORLD, &st);
      MPI_Recv (buf, 128, MPI_CHAR, MPI_ANY_SOURCE, MPI_ANY_TAG,
                MPI_COMM_WORLD, &st);
      MPI_Irecv (buf, 128, MPI_BYTE, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD,
                 &r[0]);
      MPI_Wait (&r[0], &st);
      MPI_Probe (p, 4, MPI_COMM_WORLD, &st);
      MPI_Recv (buf, 8, MPI_BYTE, p, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv (buf, 1, MPI_BYTE, p, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Iprobe (p, 5, MPI_COMM_WORLD, &flag, &st);
      if (!flag)
        fail ("tag 5 had not arrived before tag 6");
      MPI_Iprobe (p, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      MPI_Recv (buf, 128, MPI_BYTE, p, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Irecv (buf, 4, MPI_BYTE, p, 7, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv (small, 2, MPI_BYTE, p, 9, MPI_COMM_WORLD, &r[1]);
      MPI_Test (&r[0], &flag, MPI_STATUS_IGNORE);        /* not yet */
      if (flag)
        fail ("tag 7 completed before it was sent");
      MPI_Testall (2, r, &flag, MPI_STATUSES_IGNORE);   /* not yet */
      MPI_Send (&go, 0, MPI_INT, p, 8, MPI_COMM_WORLD);
      MPI_Wait (&r[1], MPI_STATUS_IGNORE);               /* tag 9 */
      MPI_Test (&r[0], &flag, &st);                      /* tag 7: came first */
      if (!flag)
        fail ("tag 7 not complete after tag 9");
      int idx;
      MPI_Irecv (buf, 10, MPI_BYTE, p, 10, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv (buf + 64, 11, MPI_BYTE, p, 11, MPI_COMM_WORLD, &r[1]);
      MPI_Waitany (2, r, &idx, &st);
      if (idx != 1)
        fail ("waitany did not complete tag 11 first");
      MPI_Send (&go, 0, MPI_INT, p, 12, MPI_COMM_WORLD);
      MPI_Waitany (2, r, &idx, &st);
      MPI_Testall (2, r, &flag, MPI_STATUSES_IGNORE);   /* all null */
    }
  /* Both: one exchange.  */
  MPI_Sendrecv (buf, 3, MPI_INT, p, 13, buf + 64, 3, MPI_INT, p, 13,
                MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void
collectives (int rank, int size)
{
  double d[4] = { 0 }, x = rank, y;
  int v[64] = { 0 }, w[64];
  MPI_Barrier (MPI_COMM_WORLD);
  MPI_Bcast (d, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  MPI_Reduce (v, w, 2, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
  MPI_Allreduce (&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allgather (v, 3, MPI_INT, w, 3, MPI_INT, MPI_COMM_WORLD);
  MPI_Alltoall (v, 2, MPI_INT, w, 2, MPI_INT, MPI_COMM_WORLD);
  MPI_Gather (v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter (v, 1, MPI_INT, w, 1, MPI_INT, 0, MPI_COMM_WORLD);
  (void) size;
}

/* Split by parity, ranks reversed (key -rank); a duplicate of the world;
   a periodic ring.  One call on each.  */
static void
communicators (int rank, int size)
{
  MPI_Comm half, dup, ring;
  int dims[1] = { size }, periods[1] = { 1 }, v = rank, s;
  MPI_Comm_split (MPI_COMM_WORLD, rank % 2, -rank, &half);
  MPI_Comm_dup (MPI_COMM_WORLD, &dup);
  MPI_Cart_create (MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Allreduce (&v, &s, 1, MPI_INT, MPI_SUM, half);
  MPI_Barrier (dup);
  MPI_Sendrecv (&v, 1, MPI_INT, (rank + 1) % size, 14, &s, 1, MPI_INT,
                (rank + size - 1) % size, 14, ring, MPI_STATUS_IGNORE);
  MPI_Comm_free (&half);
  MPI_Comm_free (&dup);
  MPI_Comm_free (&ring);
}

/* Mode "more" (2 ranks): MPI_Comm_create, Waitsome, Testany and
   Testsome, persistent requests, each outcome made certain by the order of the messages
   (MPI's non-overtaking: a message received means the earlier ones of
   its sender have arrived; a rank blocked in a receive sends nothing).  */
static void
more (int rank)
{
  MPI_Group wg, g;
  MPI_Comm c;
  int order[2] = { 1, 0 }, v = rank, s, buf[8] = { 0 }, idx, flag, n;
  int ids[2];
  MPI_Request r[2];
  MPI_Comm_group (MPI_COMM_WORLD, &wg);
  MPI_Group_incl (wg, 2, order, &g);
  MPI_Comm_create (MPI_COMM_WORLD, g, &c);
  MPI_Allreduce (&v, &s, 1, MPI_INT, MPI_SUM, c);
  if (rank == 1)
    {
      MPI_Send (buf, 1, MPI_INT, 0, 21, MPI_COMM_WORLD);
      MPI_Send (buf, 2, MPI_INT, 0, 22, MPI_COMM_WORLD);
      MPI_Send (buf, 0, MPI_INT, 0, 20, MPI_COMM_WORLD);
      MPI_Recv (buf, 0, MPI_INT, 0, 24, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send (buf, 1, MPI_INT, 0, 23, MPI_COMM_WORLD);
      MPI_Send (buf, 0, MPI_INT, 0, 25, MPI_COMM_WORLD);
      MPI_Recv (buf, 0, MPI_INT, 0, 27, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send (buf, 3, MPI_INT, 0, 26, MPI_COMM_WORLD);
      MPI_Send (buf, 0, MPI_INT, 0, 28, MPI_COMM_WORLD);
    }
  else
    {
      /* 21 and 22 are here once 20 is: both complete at once */
      MPI_Recv (buf, 0, MPI_INT, 1, 20, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Irecv (buf, 1, MPI_INT, 1, 21, MPI_COMM_WORLD, &r[0]);
      MPI_Irecv (buf + 2, 2, MPI_INT, 1, 22, MPI_COMM_WORLD, &r[1]);
      n = 0;
      while (n < 2)
        {
          int k;
          MPI_Waitsome (2, r, &k, ids, MPI_STATUSES_IGNORE);
          n += k;
        }
      /* 23 is sent only after 24: the first Testany fails, the second,
         after 25, succeeds */
      MPI_Irecv (buf, 1, MPI_INT, 1, 23, MPI_COMM_WORLD, &r[0]);
      MPI_Testany (1, r, &idx, &flag, MPI_STATUS_IGNORE);
      if (flag)
        fail ("testany succeeded before the message was sent");
      MPI_Send (buf, 0, MPI_INT, 1, 24, MPI_COMM_WORLD);
      MPI_Recv (buf, 0, MPI_INT, 1, 25, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Testany (1, r, &idx, &flag, MPI_STATUS_IGNORE);
      if (!flag)
        MPI_Wait (&r[0], MPI_STATUS_IGNORE);
      /* the same with Testsome */
      MPI_Irecv (buf, 4, MPI_INT, MPI_ANY_SOURCE, 26, MPI_COMM_WORLD, &r[0]);
      MPI_Testsome (1, r, &n, ids, MPI_STATUSES_IGNORE);
      if (n != 0)
        fail ("testsome succeeded before the message was sent");
      MPI_Send (buf, 0, MPI_INT, 1, 27, MPI_COMM_WORLD);
      MPI_Recv (buf, 0, MPI_INT, 1, 28, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Testsome (1, r, &n, ids, MPI_STATUSES_IGNORE);
      if (n != 1)
        MPI_Wait (&r[0], MPI_STATUS_IGNORE);
    }
  /* persistent requests, each started twice: rank 0 with Startall and
     Waitall, rank 1 with Start and Wait */
  MPI_Request p[2];
  int pb[8] = { 0 };
  if (rank == 0)
    {
      MPI_Send_init (pb, 4, MPI_INT, 1, 31, MPI_COMM_WORLD, &p[0]);
      MPI_Recv_init (pb + 4, 2, MPI_INT, 1, 32, MPI_COMM_WORLD, &p[1]);
      for (int i = 0; i < 2; i++)
        {
          MPI_Startall (2, p);
          MPI_Waitall (2, p, MPI_STATUSES_IGNORE);
        }
    }
  else
    {
      MPI_Recv_init (pb, 4, MPI_INT, 0, 31, MPI_COMM_WORLD, &p[0]);
      MPI_Send_init (pb + 4, 2, MPI_INT, 0, 32, MPI_COMM_WORLD, &p[1]);
      for (int i = 0; i < 2; i++)
        {
          MPI_Start (&p[0]);
          MPI_Start (&p[1]);
          MPI_Wait (&p[0], MPI_STATUS_IGNORE);
          MPI_Wait (&p[1], MPI_STATUS_IGNORE);
        }
    }
  MPI_Request_free (&p[0]);
  MPI_Request_free (&p[1]);
  MPI_Comm_free (&c);
  MPI_Group_free (&g);
  MPI_Group_free (&wg);
}

/* Sizes in MPI_INT (4 bytes) that differ by rank, some zero (which Open
   MPI's linear algorithms send no message for):
     Gatherv to 0:        rank j sends j + 1
     Scatterv from P-1:   rank j receives j (rank 0 nothing)
     Allgatherv:          rank j's block 0 for rank 1, else j + 2
     Alltoallv:           rank r sends (r + 2j) mod 3 to rank j, so
                          receives (j + 2r) mod 3 from rank j
     Reduce_scatter:      rank j's block j + 1
     Reduce_scatter_block 3
     Scan                 2 doubles (16 bytes); Exscan 5 ints.  */
static void
vcoll (int rank, int size)
{
  enum { MAXP = 8 };
  /* every block at 10 j: no two overlap */
  int v[128] = { 0 }, w[128], cnt[MAXP] = { 0 }, cnt2[MAXP] = { 0 };
  int displs[MAXP] = { 0 };
  double d[2] = { rank, rank }, e[2];
  if (size > MAXP)
    fail ("vcoll runs on at most 8 ranks");
  for (int j = 0; j < size; j++)
    {
      cnt[j] = j + 1;
      displs[j] = 10 * j;
    }
  MPI_Gatherv (v, rank + 1, MPI_INT, w, cnt, displs, MPI_INT, 0,
               MPI_COMM_WORLD);
  for (int j = 0; j < size; j++)
    cnt[j] = j;
  MPI_Scatterv (v, cnt, displs, MPI_INT, w, rank, MPI_INT, size - 1,
                MPI_COMM_WORLD);
  for (int j = 0; j < size; j++)
    cnt[j] = j == 1 ? 0 : j + 2;
  MPI_Allgatherv (v, cnt[rank], MPI_INT, w, cnt, displs, MPI_INT,
                  MPI_COMM_WORLD);
  int sd[MAXP] = { 0 }, rd[MAXP] = { 0 };
  for (int j = 0; j < size; j++)
    {
      cnt[j] = (rank + 2 * j) % 3;
      cnt2[j] = (j + 2 * rank) % 3;
      sd[j] = rd[j] = 3 * j;
    }
  MPI_Alltoallv (v, cnt, sd, MPI_INT, w, cnt2, rd, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < size; j++)
    cnt[j] = j + 1;
  MPI_Reduce_scatter (v, w, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block (v, w, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Scan (d, e, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Exscan (v, w, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

/* The times of the records against the program's own MPI_Wtime.  */
static void
clock_spin (int rank, double w_init)
{
  char c = 0;
  MPI_Send (&c, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  double s0 = MPI_Wtime (), s1;
  do
    s1 = MPI_Wtime ();
  while (s1 - s0 < 0.1);
  MPI_Send (&c, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf ("%.3f\t%.3f\n", (s0 - w_init) * 1e6, (s1 - s0) * 1e6);
}

/* Bytes of predefined and derived types; the second derived type may
   get the first one's freed handle.  */
static void
types (void)
{
  char buf[64];
  const MPI_Datatype pre[] = { MPI_INT, MPI_DOUBLE, MPI_C_DOUBLE_COMPLEX,
                               MPI_2INT };
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
    MPI_Send (buf, 2, pre[i], MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Datatype t;
  MPI_Type_contiguous (3, MPI_DOUBLE, &t);
  MPI_Type_commit (&t);
  MPI_Send (buf, 2, t, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Type_free (&t);
  MPI_Type_contiguous (5, MPI_INT, &t);
  MPI_Type_commit (&t);
  MPI_Send (buf, 2, t, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
  MPI_Type_free (&t);
}

static void
loop (int rank, const char *count)
{
  int n = atoi (count ? count : "0"), p = rank ^ 1, x = rank, y;
  char buf[8] = { 0 };
  if (n < 1)
    fail ("loop needs a count of rounds, 1 or more");
  for (int i = 0; i < n; i++)
    {
      if (rank & 1)
        MPI_Recv (buf, 8, MPI_BYTE, p, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      else
        MPI_Send (buf, 8, MPI_BYTE, p, i, MPI_COMM_WORLD);
      if (i % 10 == 9)
        MPI_Allreduce (&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    }
}

static void
untraced (int rank)
{
  int p = rank ^ 1, x = rank, y = 0;
  char buf[2 * MPI_BSEND_OVERHEAD + 64], *att;
  int attsize;
  MPI_Request r;
  MPI_Buffer_attach (buf, sizeof buf);
  if (rank & 1)
    {
      MPI_Irecv (&y, 1, MPI_INT, p, 3, MPI_COMM_WORLD, &r);
      MPI_Barrier (MPI_COMM_WORLD);   /* posted before the Rsend */
      MPI_Recv (&y, 1, MPI_INT, p, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv (&y, 1, MPI_INT, p, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Wait (&r, MPI_STATUS_IGNORE);
    }
  else
    {
      MPI_Barrier (MPI_COMM_WORLD);
      MPI_Bsend (&x, 1, MPI_INT, p, 1, MPI_COMM_WORLD);
      MPI_Bsend (&x, 1, MPI_INT, p, 2, MPI_COMM_WORLD);
      MPI_Rsend (&x, 1, MPI_INT, p, 3, MPI_COMM_WORLD);
    }
  MPI_Buffer_detach (&att, &attsize);
  MPI_Sendrecv_replace (&x, 1, MPI_INT, p, 4, p, 4, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE);
  MPI_Ibarrier (MPI_COMM_WORLD, &r);
  MPI_Wait (&r, MPI_STATUS_IGNORE);
  MPI_Iallreduce (&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  MPI_Wait (&r, MPI_STATUS_IGNORE);
}

int
main (int argc, char **argv)
{
  int rank, size;
  MPI_Init (&argc, &argv);
  double w_init = MPI_Wtime ();
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  const char *mode = argc > 1 ? argv[1] : "calls";
  if (size % 2 && strcmp (mode, "vcoll") != 0)
    fail ("needs an even number of ranks");
  if (strcmp (mode, "vcoll") == 0)
    vcoll (rank, size);
  else if (strcmp (mode, "calls") == 0)
    {
      pt2pt (rank);
      collectives (rank, size);
      communicators (rank, size);
    }
  else if (strcmp (mode, "more") == 0)
    {
      /* Ranks 2 and up would call on the MPI_COMM_NULL MPI_Comm_create
         gives them.  */
      if (size != 2)
        fail ("mode more needs 2 ranks");
      more (rank);
    }
  else if (strcmp (mode, "untraced") == 0)
    untraced (rank);
  else if (strcmp (mode, "loop") == 0)
    loop (rank, argc > 2 ? argv[2] : NULL);
  else if (strcmp (mode, "clock") == 0)
    clock_spin (rank, w_init);
  else if (strcmp (mode, "types") == 0)
    types ();
  else if (strcmp (mode, "abort") == 0 || strcmp (mode, "term") == 0)
    {
      int x = 0;
      MPI_Barrier (MPI_COMM_WORLD);
      if (rank == 0)
        MPI_Send (&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
      if (rank == 1)
        {
          MPI_Recv (&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          if (mode[0] == 'a')
            MPI_Abort (MPI_COMM_WORLD, 3);
          raise (SIGTERM);
        }
      /* The others wait for a message that never comes.  */
      MPI_Recv (&x, 1, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD,
                MPI_STATUS_IGNORE);
    }
  else
    fail ("unknown mode (calls, more, abort, term, vcoll, clock, types)");
  MPI_Finalize ();
  return 0;
}
