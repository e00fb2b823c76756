/* SPDX-License-Identifier: GPL-3.0-or-later */
/* togoal_vcoll.c: msgperf-trace goal's expansion of the collectives
   with per-rank sizes, Scan and Exscan, by Open MPI 4.1's algorithms
   (msgperf-trace(1), COLLECTIVES WITH PER-RANK SIZES).  */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "coll_decide.h"
#include "dag_coll.h"
#include "togoal_int.h"

/* --------------------------------------------------- v-collectives
   Gatherv, Scatterv, Allgatherv, Alltoallv, Reduce_scatter(_block),
   Scan and Exscan: each rank's part is built from its own record and
   size records, in steps (msgperf-trace(1), COLLECTIVES WITH PER-RANK
   SIZES): the operations of one step all require the previous step's
   (the first step the rank's state), and the rank's state after the
   call is its last step.  */
struct vbuild
{
  struct rconv *x;
  const int32_t *members;   /* comm rank -> world rank */
  int64_t inst;             /* the instance: the messages' tag */
  struct depset cur, next;  /* the previous step's operations; this one's */
};

static void
vb_post (struct vbuild *b, int kind, int32_t peer, int64_t bytes)
{
  struct op o = { kind, b->members[peer], bytes, -1, b->inst, 0, 0, 0, 0 };
  size_t i = add_op (b->x->R, o, &b->cur);
  depset_add (&b->next, (struct dep) { (int64_t) i, 0 });
}

static void
vb_step (struct vbuild *b)
{
  if (b->next.n == 0)
    return;
  depset_copy (&b->cur, &b->next);
  b->next.n = 0;
}

/* The size records after record K of the rank: SEND[j] and RECV[j]
   (bytes to and from comm rank j; -1 when the trace gives none).  */
static int
v_sizes (struct rconv *x, uint64_t k, int32_t P, int64_t *send,
         int64_t *recv)
{
  const struct togoal_rank *tr = &x->c->in->ranks[x->rank];
  for (int32_t j = 0; j < P; j++)
    send[j] = recv[j] = -1;
  for (uint64_t i = k + 1; i < tr->nrec; i++)
    {
      const struct trace_record *s = &tr->rec[i];
      if (s->call != TRACE_SENDCOUNT && s->call != TRACE_RECVCOUNT)
        break;
      if (s->peer < 0 || s->peer >= P)
        return fail (x->c, x->rank, i, "%s of rank %d after a %d-rank "
                     "%s", trace_call_name (s->call), (int) s->peer,
                     (int) P, trace_call_name (tr->rec[k].call));
      (s->call == TRACE_SENDCOUNT ? send : recv)[s->peer] = s->bytes;
    }
  return 0;
}

/* The sizes V[j] of every rank j but SKIP (-1: none), which the call
   WHAT needs: an error names the first missing one.  */
static int
v_need (struct rconv *x, uint64_t k, const int64_t *v, int32_t P,
        int32_t skip, const char *what)
{
  for (int32_t j = 0; j < P; j++)
    if (j != skip && v[j] < 0)
      return fail (x->c, x->rank, k, "%s without the %s of rank %d",
                   trace_call_name (x->c->in->ranks[x->rank].rec[k].call),
                   what, (int) j);
  return 0;
}

/* Linear gather to (scatter from) ROOT: the root receives from (sends
   to) each other rank in rank order, one at a time; a zero block is no
   message.  */
static int
v_rooted (struct vbuild *b, uint64_t k, int32_t P, int32_t cr, int32_t root,
          int64_t own, const int64_t *v, int gather)
{
  if (root < 0 || root >= P)
    return fail (b->x->c, b->x->rank, k, "root %d of a %d-rank "
                 "communicator", (int) root, (int) P);
  if (cr != root)
    {
      if (own > 0)
        vb_post (b, gather ? OP_SEND : OP_RECV, root, own);
      vb_step (b);
      return 0;
    }
  int rc = v_need (b->x, k, v, P, root, gather ? "receive size"
                                               : "send size");
  for (int32_t j = 0; j < P && rc == 0; j++)
    if (j != root && v[j] > 0)
      {
        vb_post (b, gather ? OP_RECV : OP_SEND, j, v[j]);
        vb_step (b);
      }
  return rc;
}

/* Alltoallv: basic_linear (every receive, then every send, at once;
   zero sizes not sent) or pairwise (step s: to cr + s, from cr - s, zero
   sizes sent too).  */
static void
v_alltoallv (struct vbuild *b, int32_t P, int32_t cr, const int64_t *send,
             const int64_t *recv, int pairwise)
{
  if (pairwise)
    {
      for (int32_t s = 1; s < P; s++)
        {
          vb_post (b, OP_SEND, (cr + s) % P, send[(cr + s) % P]);
          vb_post (b, OP_RECV, (cr - s + P) % P, recv[(cr - s + P) % P]);
          vb_step (b);
        }
      return;
    }
  for (int32_t j = 0; j < P; j++)
    if (j != cr && recv[j] > 0)
      vb_post (b, OP_RECV, j, recv[j]);
  for (int32_t j = 0; j < P; j++)
    if (j != cr && send[j] > 0)
      vb_post (b, OP_SEND, j, send[j]);
  vb_step (b);
}

/* ----- Open MPI 4.1's algorithms for Allgatherv, Reduce_scatter(_block)
   (msgperf-trace(1) gives each one's messages).  A Sendrecv is one step
   of a send and a receive; a message of no bytes is sent where Open MPI
   sends one.  */

/* V[lo] + ... + V[hi].  */
static int64_t
v_sum (const int64_t *v, int32_t lo, int32_t hi)
{
  int64_t s = 0;
  for (int32_t i = lo; i <= hi; i++)
    s += v[i];
  return s;
}

/* The largest power of two <= P (P >= 1).  */
static int32_t
v_pof2 (int32_t P)
{
  int32_t p = 1;
  while (p <= P / 2)
    p *= 2;
  return p;
}

/* X's low BITS bits in reverse order.  */
static int32_t
v_mirror (int32_t x, int bits)
{
  int32_t m = 0;
  for (int i = 0; i < bits; i++)
    m |= ((x >> i) & 1) << (bits - 1 - i);
  return m;
}

/* When P is not a power of two, the first 2 REM ranks pair up, the odd
   one of each pair standing for both: virtual rank V is rank 2 V + 1
   below REM, V + REM above.  */
static int32_t
v_real (int32_t v, int32_t rem)
{
  return v < rem ? 2 * v + 1 : v + rem;
}

/* The bytes of virtual blocks LO..HI: those of the ranks they stand
   for.  */
static int64_t
v_vsum (const int64_t *block, int32_t rem, int32_t lo, int32_t hi)
{
  return v_sum (block, lo < rem ? 2 * lo : lo + rem,
                hi < rem ? 2 * hi + 1 : hi + rem);
}

/* The folding step of the first 2 REM ranks: the even one sends its
   whole vector (TOTAL bytes) to the odd one.  Rank CR's virtual rank,
   -1 for the even ones, which then wait for the result.  */
static int32_t
v_fold (struct vbuild *b, int32_t cr, int32_t rem, int64_t total)
{
  if (cr >= 2 * rem)
    return cr - rem;
  vb_post (b, cr % 2 ? OP_RECV : OP_SEND, cr % 2 ? cr - 1 : cr + 1, total);
  vb_step (b);
  return cr % 2 ? cr / 2 : -1;
}

/* Rank CR's messages in the dag_coll expansion of OP (bcast, reduce or
   scatter) that Open MPI 4.1's rule picks for P ranks, BYTES and ROOT
   (its decision of the call made inside Allgatherv default,
   Reduce_scatter non-overlapping and Reduce_scatter_block
   basic_linear): per task of the rank in order, its receives in one
   step, then its sends in one.  */
static int
vb_generated (struct vbuild *b, uint64_t k, const char *op, int32_t P,
              int32_t cr, int64_t bytes, int32_t root)
{
  const char *algo = coll_decide (op, P, bytes);
  const char *gen = coll_decide_generator (op,
                                           coll_decide_fixed_run (op, algo));
  if (!gen)
    return fail (b->x->c, b->x->rank, k, "%s on %d ranks, %" PRId64
                 " bytes: no generator for Open MPI's algorithm '%s'", op,
                 (int) P, bytes, algo ? algo : "?");
  char name[128];
  snprintf (name, sizeof name, "coll:%s:%s", op, gen);
  struct dag_coll dc = { name, P, bytes, root, 0, 0 };
  struct gen g = { 0 };
  struct dag_sink s = { &g, sink_task, sink_msg, sink_dep, NULL };
  const char *e = dag_coll_run (&dc, &s);
  int rc = 0;
  if (e)
    rc = fail (b->x->c, b->x->rank, k, "%s on %d ranks: %s", name, (int) P,
               e);
  for (size_t t = 0; t < g.nt && rc == 0; t++)
    if (g.t[t].rank == cr)
      {
        for (size_t i = 0; i < g.t[t].nins; i++)
          {
            const struct gmsg *m = &g.m[g.t[t].ins[i]];
            vb_post (b, OP_RECV, g.t[m->from].rank, m->bytes);
          }
        vb_step (b);
        for (size_t i = 0; i < g.nm; i++)
          if (g.m[i].from == (int32_t) t)
            vb_post (b, OP_SEND, g.t[g.m[i].to].rank, g.m[i].bytes);
        vb_step (b);
      }
  gen_free (&g);
  return rc;
}

/* Allgatherv ring: step s sends block cr - s to cr + 1 and receives
   block cr - s - 1 from cr - 1.  */
static void
v_allgatherv_ring (struct vbuild *b, int32_t P, int32_t cr,
                   const int64_t *block)
{
  for (int32_t s = 0; s < P - 1; s++)
    {
      vb_post (b, OP_SEND, (cr + 1) % P, block[(cr - s + P) % P]);
      vb_post (b, OP_RECV, (cr - 1 + P) % P,
               block[(cr - s - 1 + 2 * P) % P]);
      vb_step (b);
    }
}

/* Allgatherv linear: every block to and from every rank at once, the
   empty ones not sent.  */
static void
v_allgatherv_linear (struct vbuild *b, int32_t P, int32_t cr,
                     const int64_t *block)
{
  for (int32_t j = 0; j < P; j++)
    if (j != cr)
      {
        if (block[j] > 0)
          vb_post (b, OP_RECV, j, block[j]);
        if (block[cr] > 0)
          vb_post (b, OP_SEND, j, block[cr]);
      }
  vb_step (b);
}

/* Allgatherv bruck: at distance d = 1, 2, 4, ... < P, blocks cr ..
   cr + n - 1 to cr - d and blocks cr + d .. cr + d + n - 1 from cr + d,
   n = d, or P - d in the last step when d > P / 2.  */
static void
v_allgatherv_bruck (struct vbuild *b, int32_t P, int32_t cr,
                    const int64_t *block)
{
  for (int32_t d = 1; d < P; d *= 2)
    {
      int32_t n = d <= P / 2 ? d : P - d;
      int64_t out = 0, in = 0;
      for (int32_t i = 0; i < n; i++)
        {
          out += block[(cr + i) % P];
          in += block[(cr + d + i) % P];
        }
      vb_post (b, OP_SEND, (cr - d + P) % P, out);
      vb_post (b, OP_RECV, (cr + d) % P, in);
      vb_step (b);
    }
}

/* Allgatherv neighbor exchange (even P; Open MPI runs the ring on odd
   P): an even rank's neighbours are cr + 1 then cr - 1, an odd rank's
   cr - 1 then cr + 1, used in turn.  Step 0 swaps the own blocks with
   the first; each of the P / 2 - 1 steps after sends the pair of blocks
   received in the step before (an even rank's own pair first) and
   receives the next pair, whose first block moves by 2 (up through an
   even rank's first neighbour, down through its second; the reverse
   for an odd rank).  */
static void
v_allgatherv_neighbor (struct vbuild *b, int32_t P, int32_t cr,
                       const int64_t *block)
{
  int even = cr % 2 == 0;
  int32_t nb[2], from[2], step[2], sendfrom;
  nb[0] = even ? (cr + 1) % P : (cr - 1 + P) % P;
  nb[1] = even ? (cr - 1 + P) % P : (cr + 1) % P;
  from[0] = from[1] = sendfrom = even ? cr : nb[0];
  step[0] = even ? 2 : -2;
  step[1] = -step[0];
  vb_post (b, OP_SEND, nb[0], block[cr]);
  vb_post (b, OP_RECV, nb[0], block[nb[0]]);
  vb_step (b);
  for (int32_t i = 1; i < P / 2; i++)
    {
      int p = i % 2;
      from[p] = (from[p] + step[p] + P) % P;
      vb_post (b, OP_SEND, nb[p], block[sendfrom] + block[sendfrom + 1]);
      vb_post (b, OP_RECV, nb[p], block[from[p]] + block[from[p] + 1]);
      vb_step (b);
      sendfrom = from[p];
    }
}

/* Allgatherv default: a linear Gatherv to rank 0 (OWN bytes from each
   rank), then a Bcast of all the blocks from rank 0 with the algorithm
   Open MPI 4.1's rule picks for their total.  */
static int
v_allgatherv_default (struct vbuild *b, uint64_t k, int32_t P, int32_t cr,
                      int64_t own, const int64_t *block)
{
  int rc = v_rooted (b, k, P, cr, 0, own, block, 1);
  int64_t total = v_sum (block, 0, P - 1);
  if (rc == 0 && total > 0)
    rc = vb_generated (b, k, "bcast", P, cr, total, 0);
  return rc;
}

/* Reduce_scatter linear: a linear reduce of the whole vector (the sum
   of the blocks) to rank 0, which receives from P - 1 down to 1, then a
   linear scatter of rank j's block BLOCK[j] from rank 0.  */
static void
v_rs_linear (struct vbuild *b, int32_t P, int32_t cr, const int64_t *block)
{
  int64_t total = v_sum (block, 0, P - 1);
  if (total <= 0)
    return;
  if (cr == 0)
    {
      for (int32_t j = P - 1; j > 0; j--)
        {
          vb_post (b, OP_RECV, j, total);
          vb_step (b);
        }
      for (int32_t j = 1; j < P; j++)
        if (block[j] > 0)
          {
            vb_post (b, OP_SEND, j, block[j]);
            vb_step (b);
          }
      return;
    }
  vb_post (b, OP_SEND, 0, total);
  vb_step (b);
  if (block[cr] > 0)
    vb_post (b, OP_RECV, 0, block[cr]);
  vb_step (b);
}

/* Reduce_scatter non-overlapping: a Reduce of the whole vector to rank
   0 with the algorithm Open MPI 4.1's rule picks for it, then a linear
   Scatterv from rank 0.  */
static int
v_rs_nonoverlapping (struct vbuild *b, uint64_t k, int32_t P, int32_t cr,
                     const int64_t *block)
{
  int64_t total = v_sum (block, 0, P - 1);
  int rc = 0;
  if (total > 0)
    rc = vb_generated (b, k, "reduce", P, cr, total, 0);
  if (rc == 0)
    rc = v_rooted (b, k, P, cr, 0, block[cr], block, 0);
  return rc;
}

/* Reduce_scatter(_block) recursive halving: after the folding step,
   each of the log2 steps exchanges with virtual rank vr ^ mask (mask =
   pof2 / 2, ..., 1) the half of the current range of virtual blocks
   the partner keeps (the upper half to a higher partner) for the other
   half, empty halves not sent; then the odd rank of each folded pair
   sends the even one its block.  Nothing when every block is empty.  */
static void
v_rs_halving (struct vbuild *b, int32_t P, int32_t cr, const int64_t *block)
{
  int64_t total = v_sum (block, 0, P - 1);
  if (total <= 0)
    return;
  int32_t pof2 = v_pof2 (P), rem = P - pof2;
  int32_t vr = v_fold (b, cr, rem, total);
  int32_t si = 0, ri = 0, last = pof2;
  for (int32_t mask = pof2 / 2; vr >= 0 && mask > 0; mask /= 2)
    {
      int32_t vp = vr ^ mask;
      int64_t sc, rc;
      if (vr < vp)
        {
          si = ri + mask;
          sc = v_vsum (block, rem, si, last - 1);
          rc = v_vsum (block, rem, ri, si - 1);
        }
      else
        {
          ri = si + mask;
          sc = v_vsum (block, rem, si, ri - 1);
          rc = v_vsum (block, rem, ri, last - 1);
        }
      if (rc > 0)
        vb_post (b, OP_RECV, v_real (vp, rem), rc);
      if (sc > 0)
        vb_post (b, OP_SEND, v_real (vp, rem), sc);
      vb_step (b);
      si = ri;
      last = ri + mask;
    }
  if (cr < 2 * rem)
    {
      if (cr % 2 == 0 && block[cr] > 0)
        vb_post (b, OP_RECV, cr + 1, block[cr]);
      if (cr % 2 == 1 && block[cr - 1] > 0)
        vb_post (b, OP_SEND, cr - 1, block[cr - 1]);
      vb_step (b);
    }
}

/* Reduce_scatter ring: step s (0 .. P - 2) sends block cr - 1 - s to
   cr + 1 and receives block cr - 2 - s from cr - 1, empty blocks sent
   too; the last one received is the rank's own.  */
static void
v_rs_ring (struct vbuild *b, int32_t P, int32_t cr, const int64_t *block)
{
  for (int32_t s = 0; s < P - 1; s++)
    {
      vb_post (b, OP_SEND, (cr + 1) % P, block[(cr - 1 - s + 2 * P) % P]);
      vb_post (b, OP_RECV, (cr - 1 + P) % P,
               block[(cr - 2 - s + 2 * P) % P]);
      vb_step (b);
    }
}

/* Reduce_scatter(_block) butterfly: after the folding step, step mask
   = 1, 2, ..., pof2 / 2 swaps with virtual rank vr ^ mask half of the
   current range of virtual blocks (the upper half sent when bit mask of
   vr is 0), both halves sent even when empty; then the range left is
   the virtual block mirror(vr) (vr's bits reversed): if it stands for a
   folded pair, the even rank's block goes to it, and unless it is vr's
   own the rank swaps it for its own block with rank mirror(vr).  A
   folded even rank receives its block from the rank of mirror(cr / 2).
   (Reduce_scatter_block on a power of two uses v_rsb_butterfly_pof2.) */
static void
v_rs_butterfly (struct vbuild *b, int32_t P, int32_t cr,
                const int64_t *block)
{
  int32_t pof2 = v_pof2 (P), rem = P - pof2, bits = 0;
  while ((1 << bits) < pof2)
    bits++;
  int32_t vr = v_fold (b, cr, rem, v_sum (block, 0, P - 1));
  if (vr < 0)
    {
      vb_post (b, OP_RECV, v_real (v_mirror (cr / 2, bits), rem), block[cr]);
      vb_step (b);
      return;
    }
  int32_t n = pof2, si = 0, ri = 0;
  for (int32_t mask = 1; mask < pof2; mask *= 2)
    {
      int32_t peer = v_real (vr ^ mask, rem);
      n /= 2;
      if ((vr & mask) == 0)
        si += n;
      else
        ri += n;
      vb_post (b, OP_SEND, peer, v_vsum (block, rem, si, si + n - 1));
      vb_post (b, OP_RECV, peer, v_vsum (block, rem, ri, ri + n - 1));
      vb_step (b);
      si = ri;
    }
  int32_t vp = v_mirror (vr, bits), peer = v_real (vp, rem);
  int32_t idx = si < rem ? 2 * si : rem + si;
  if (vp < rem)
    {
      vb_post (b, OP_SEND, peer - 1, block[idx]);
      vb_step (b);
      idx++;
    }
  if (vp != vr)
    {
      vb_post (b, OP_SEND, peer, block[idx]);
      vb_post (b, OP_RECV, peer, block[cr]);
      vb_step (b);
    }
}

/* Reduce_scatter_block butterfly on a power of two P: the blocks are
   put in bit-reversed order first, so step mask = 1, 2, ..., P / 2
   swaps half of what is left, P BLOCK / (2 mask) bytes each way, with
   cr ^ mask, and nothing follows.  */
static void
v_rsb_butterfly_pof2 (struct vbuild *b, int32_t P, int32_t cr,
                      int64_t block)
{
  for (int32_t mask = 1; mask < P; mask *= 2)
    {
      vb_post (b, OP_SEND, cr ^ mask, P * block / (2 * mask));
      vb_post (b, OP_RECV, cr ^ mask, P * block / (2 * mask));
      vb_step (b);
    }
}

/* Reduce_scatter_block recursive doubling: step mask = 1, 2, 4, ... < P
   swaps with cr ^ mask (when that rank exists) every block outside the
   sender's subtree of size mask (the ranks with the same cr / mask),
   BLOCK bytes each; where the partner's subtree runs past P, the ranks
   of the subtree that did swap pass what they received on, one
   recursive-halving step at a time, to those that did not.  */
static void
v_rsb_doubling (struct vbuild *b, int32_t P, int32_t cr, int64_t block)
{
  for (int32_t mask = 1; mask < P; mask *= 2)
    {
      int32_t remote = cr ^ mask;
      int32_t ct = cr - cr % mask, rt = remote - remote % mask;
      int64_t sb = block * ct + (P >= ct + mask ? block * (P - ct - mask) : 0);
      int64_t rb = block * rt + (P >= rt + mask ? block * (P - rt - mask) : 0);
      if (remote < P)
        {
          vb_post (b, OP_SEND, remote, sb);
          vb_post (b, OP_RECV, remote, rb);
          vb_step (b);
        }
      if (rt + mask <= P)
        continue;
      int32_t have = P - ct - mask;
      for (int32_t h = mask / 2; h > 0; h /= 2)
        {
          int32_t r2 = cr ^ h, tr = cr - cr % (2 * h);
          if (r2 > cr && cr < tr + have && r2 >= tr + have)
            vb_post (b, OP_SEND, r2, rb);
          else if (r2 < cr && r2 < tr + have && cr >= tr + have)
            vb_post (b, OP_RECV, r2, rb);
          vb_step (b);
        }
    }
}

/* Reduce_scatter_block basic_linear: a Reduce of the whole vector (P
   BLOCK bytes) to rank 0, then a Scatter of BLOCK bytes from rank 0,
   each with the algorithm Open MPI 4.1's rule picks for it.  */
static int
v_rsb_linear (struct vbuild *b, uint64_t k, int32_t P, int32_t cr,
              int64_t block)
{
  int rc = vb_generated (b, k, "reduce", P, cr, P * block, 0);
  if (rc == 0)
    rc = vb_generated (b, k, "scatter", P, cr, block, 0);
  return rc;
}

/* Scan and Exscan: the linear chain, rank cr - 1 to cr.  */
static void
v_scan (struct vbuild *b, int32_t P, int32_t cr, int64_t bytes)
{
  if (bytes <= 0)
    return;
  if (cr > 0)
    vb_post (b, OP_RECV, cr - 1, bytes);
  vb_step (b);
  if (cr < P - 1)
    vb_post (b, OP_SEND, cr + 1, bytes);
  vb_step (b);
}

/* The size Open MPI 4.1's rule for the v-collective CALL looks at: a
   rank's mean block, the total over P rounded down (Allgatherv), the
   whole vector (Reduce_scatter), a rank's block OWN
   (Reduce_scatter_block); 0 for the others.  */
static int64_t
v_rule_bytes (unsigned call, int32_t P, int64_t own, const int64_t *recv)
{
  if (call == TRACE_ALLGATHERV)
    return v_sum (recv, 0, P - 1) / P;
  if (call == TRACE_REDUCE_SCATTER)
    return v_sum (recv, 0, P - 1);
  if (call == TRACE_REDUCE_SCATTER_BLOCK)
    return own;
  return 0;
}

/* Rank CR's part of v-collective CALL (record K) with algorithm ALGO.  */
static int
v_expand (struct vbuild *b, uint64_t k, unsigned call, const char *algo,
          int32_t P, int32_t cr, int32_t root, int64_t own,
          const int64_t *send, const int64_t *recv)
{
  int rc = 0;
  switch (call)
    {
    case TRACE_GATHERV:
      return v_rooted (b, k, P, cr, root, own, recv, 1);
    case TRACE_SCATTERV:
      return v_rooted (b, k, P, cr, root, own, send, 0);
    case TRACE_ALLGATHERV:
      if (strcmp (algo, "two_proc") == 0 && P != 2)
        return fail (b->x->c, b->x->rank, k, "allgatherv two_proc on %d "
                     "ranks (Open MPI runs it on 2 only)", (int) P);
      if (strcmp (algo, "linear") == 0)
        v_allgatherv_linear (b, P, cr, recv);
      else if (strcmp (algo, "default") == 0)
        rc = v_allgatherv_default (b, k, P, cr, own, recv);
      else if (strcmp (algo, "bruck") == 0)
        v_allgatherv_bruck (b, P, cr, recv);
      else if (strcmp (algo, "neighbor") == 0 && P % 2 == 0)
        v_allgatherv_neighbor (b, P, cr, recv);
      else
        v_allgatherv_ring (b, P, cr, recv);
      return rc;
    case TRACE_ALLTOALLV:
      v_alltoallv (b, P, cr, send, recv, strcmp (algo, "pairwise") == 0);
      return 0;
    case TRACE_REDUCE_SCATTER:
    case TRACE_REDUCE_SCATTER_BLOCK:
      if (strcmp (algo, "linear") == 0)
        v_rs_linear (b, P, cr, recv);
      else if (strcmp (algo, "non-overlapping") == 0)
        rc = v_rs_nonoverlapping (b, k, P, cr, recv);
      else if (strcmp (algo, "recursive_halving") == 0)
        v_rs_halving (b, P, cr, recv);
      else if (strcmp (algo, "ring") == 0)
        v_rs_ring (b, P, cr, recv);
      else if (call == TRACE_REDUCE_SCATTER)
        v_rs_butterfly (b, P, cr, recv);
      /* Reduce_scatter_block: nothing for empty blocks */
      else if (own <= 0)
        ;
      else if (strcmp (algo, "basic_linear") == 0)
        rc = v_rsb_linear (b, k, P, cr, own);
      else if (strcmp (algo, "recursive_doubling") == 0)
        v_rsb_doubling (b, P, cr, own);
      else if ((P & (P - 1)) == 0)
        v_rsb_butterfly_pof2 (b, P, cr, own);
      else
        v_rs_butterfly (b, P, cr, recv);
      return rc;
    case TRACE_SCAN: case TRACE_EXSCAN:
      v_scan (b, P, cr, own);
      return 0;
    default:
      return 0;
    }
}

/* The sizes v-collective CALL (record K) needs, there.  */
static int
v_check (struct rconv *x, uint64_t k, unsigned call, int32_t P, int32_t cr,
         const int64_t *send, const int64_t *recv)
{
  int rc = 0;
  if (call == TRACE_ALLGATHERV || call == TRACE_REDUCE_SCATTER)
    rc = v_need (x, k, recv, P, -1, "receive size");
  if (call == TRACE_ALLTOALLV)
    {
      rc = v_need (x, k, send, P, cr, "send size");
      if (rc == 0)
        rc = v_need (x, k, recv, P, cr, "receive size");
    }
  return rc;
}

/* Rank CR's part of the v-collective R (record K), instance INST.  */
int
conv_vcoll (struct rconv *x, const struct trace_record *r, uint64_t k,
            const struct localcomm *lc, int32_t cr, int64_t inst)
{
  int32_t P = lc->n;
  int ci = coll_index (r->call);
  int64_t *send = xmalloc (2 * (size_t) P * sizeof *send);
  int64_t *recv = send + P;
  struct vbuild b = { x, lc->members, inst, { 0 }, { 0 } };
  depset_copy (&b.cur, &x->state);
  int64_t own = r->bytes < 0 ? 0 : r->bytes;
  int rc = v_sizes (x, k, P, send, recv);
  if (rc == 0)
    rc = v_check (x, k, r->call, P, cr, send, recv);
  if (rc == 0)
    {
      if (r->call == TRACE_REDUCE_SCATTER_BLOCK)
        for (int32_t j = 0; j < P; j++)
          recv[j] = own;
      /* --coll; else Open MPI 4.1's rule where there is one, else the
         first of togoal's */
      const char *algo = x->c->in->algo[ci];
      if (!algo)
        algo = coll_decide (togoal_coll_op (ci), P,
                            v_rule_bytes (r->call, P, own, recv));
      if (!algo)
        algo = togoal_coll_algos (ci)[0];
      /* Open MPI runs neighbor exchange on an even P only */
      int odd = r->call == TRACE_ALLGATHERV && P % 2
                && strcmp (algo, "neighbor") == 0;
      note_used (x->c, ci, algo, odd ? "ring" : algo);
      rc = v_expand (&b, k, r->call, algo, P, cr, r->root, own, send, recv);
    }
  if (rc == 0)
    depset_copy (&x->state, &b.cur);
  free (send);
  free (b.cur.d);
  free (b.next.d);
  return rc;
}
