/* SPDX-License-Identifier: GPL-3.0-or-later */
/* comet.h: what the files of comet-run share.
 *
 * main.c holds the options and the run; kernels.c the kernel table and
 * each kernel's hooks; output.c the rows; measure.c
 * the timing engine of Section 2.1 of comet-benchmark.txt (repeat loop,
 * loop overhead subtracted, warm-up, adaptive repetitions); topo.c the
 * adjacency matrix; one file per kernel family (basic.c, load.c,
 * matrix.c) the kernels of Section 2.2.  */
#ifndef COMET_H
#define COMET_H

#include <stdint.h>

#include <mpi.h>

#include "clockmodel.h"
#include "stats.h"
#include "tsv.h"

/* ------------------------------------------------------------ options */

struct comet_sweep
{
  int64_t *v;
  size_t n;
  int given;          /* set on the command line (not the default) */
};

struct comet_opts
{
  struct comet_sweep sizes, veclens, orders, loads;
  struct comet_sweep sums;    /* globalsum's vector lengths: --veclens,
                                 else --sizes in whole doubles */
  struct comet_sweep tree_values;  /* doubles per packet of the tree
                                      kernels: --sizes in whole doubles,
                                      else one */
  struct stats_adapt adapt;   /* eps, min/max reps, time cap (seconds) */
  double sample_time;         /* target seconds of one repeat loop */
  int64_t max_repeat;         /* most iterations of one repeat loop */
  int64_t warmup;             /* untimed iterations before timing */
  int buffers_shared;         /* --buffers shared (else separate) */
  int cache_cold;             /* --cache cold (else warm) */
  int stat_osu;               /* --stat osu (else median) */
  int64_t iterations;         /* --iterations of --stat osu */
  int grid_rows, grid_cols;   /* --grid, or 0 */
  double timeout;
  int progress;
  int tree_sync;              /* --sync: enum ov_sync_mode, OV_WAIT_ALL
                                 or OV_DO_NOT_WAIT */
  int rep_sync;               /* --rep-sync: enum comet_rep_sync */
  double window;              /* --window in seconds, 0: chosen per
                                 point */
  int clock_tree;             /* --clock-sync hca (else linear) */
  const char **topologies;    /* --topology specs of the tree kernels */
  char **topology_text;       /* contents of file: specs, else NULL */
  size_t ntopologies;
};

/* How the repetitions of a kernel that offers it start (--rep-sync):
   back to back in repeat loops timed on the test node (the paper's way),
   each after a barrier, or each at a window boundary of the global
   clock (synced.c).  */
enum comet_rep_sync { COMET_SYNC_NONE, COMET_SYNC_BARRIER, COMET_SYNC_WINDOW };

/* ------------------------------------------------------------ context */

struct comet_ctx
{
  const struct comet_opts *opt;
  MPI_Comm comm;       /* the adjacency matrix: a periodic 2-D Cartesian
                          communicator */
  int rank, size;
  int test;            /* rank (in comm) of the test node: the process
                          that is rank 0 of MPI_COMM_WORLD, which writes
                          stdout and takes the times */
  int rows, cols;      /* grid shape */
  int row, col;        /* this rank's position */
  tsv_writer *w;       /* rank 0 only */
  int progress;        /* rank 0 prints progress lines (cli.h's mode) */
  double kernel_t0;    /* MPI_Wtime when the current kernel started */
  double loop_fixed;   /* seconds: empty timed region */
  double loop_iter;    /* seconds: one empty repeat-loop iteration */
  struct clock_model clock;   /* this rank's MPI_Wtime against the test
                                 node's (--rep-sync barrier or window) */
  struct clock_model clock_parent;  /* --clock-sync hca: against its
                                       parent in the tree */
};

/* ------------------------------------------------------------ output */

/* Columns a kernel may fill besides kernel, nprocs and the statistics of
   t.  Each kernel's table row says which ones it uses; the header holds
   the union over the kernels asked for, in this order.  */
enum
{
  COL_BYTES = 1 << 0,
  COL_VECLEN = 1 << 1,
  COL_ORDER = 1 << 2,
  COL_HOPS = 1 << 3,
  COL_DIRECTION = 1 << 4,
  COL_LOAD = 1 << 5,
  COL_MBPS = 1 << 6,
  COL_OVERLAP = 1 << 7,    /* tsync, tcomm, tcomp, overlap, overlap_raw,
                              overlap_flag */
  COL_TREE = 1 << 8,       /* topology, depth, fanout */
  COL_RATE = 1 << 9,       /* per_s */
  COL_PACKETS = 1 << 10,   /* packets */
  COL_SYNC = 1 << 11       /* t_span, t_span_ci_lo, t_span_ci_hi,
                              n_invalid, window: the kernels that offer
                              --rep-sync, when it is not none */
};

/* One output row; fields a kernel does not fill stay NA.  */
struct comet_row
{
  const char *kernel;
  int64_t bytes, veclen, order, load;   /* -1: NA */
  int hops;                             /* -1: NA */
  const char *direction;                /* NULL: NA */
  struct stats_summary t;               /* microseconds */
  double t_mean;                        /* mean of the samples, us */
  int64_t ops;                          /* operations timed per sample */
  enum stats_stop stop;
  double mbps;                          /* NaN: NA */
  double tsync, tcomm, tcomp, overlap;  /* NaN: NA */
  double overlap_raw;                   /* before the clamp; NaN: NA */
  const char *topology;                 /* NULL: NA */
  int depth, fanout;                    /* -1: NA */
  double rate;                          /* per second; NaN: NA */
  int64_t packets;                      /* reduction packets the tree's
                                           root receives per wave; -1:
                                           NA */
  double t_quantum;                     /* step of a sample, us (NaN:
                                           unknown, 6 digits instead) */
  struct stats_summary span;            /* --rep-sync: the collective's
                                           time, earliest start to latest
                                           end on the global clock, us
                                           (n 0: NA) */
  int64_t n_invalid;                    /* repetitions dropped; -1: NA */
  double window;                        /* us; NaN: NA */
};

void comet_row_init (struct comet_row *r, const char *kernel);

/* The optional columns (COL_*) of this run, the union over its kernels;
   set before the header is written.  */
void comet_set_columns (int columns);
/* The header of the run's columns.  */
void comet_write_header (tsv_writer *w);

/* Rank 0 writes ROW (and a progress line); other ranks do nothing.  */
void comet_emit (struct comet_ctx *c, const struct comet_row *row);

/* A progress line on stderr (rank 0, when progress is on).  */
void comet_progress (struct comet_ctx *c, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* ------------------------------------------------------------ timing */

/* One execution of a kernel's communication pattern on every member of
   the communicator being timed.  */
typedef void (*comet_op) (void *arg);

struct comet_timing
{
  MPI_Comm comm;       /* the ranks that take part (all call measure) */
  int root;            /* the rank of COMM that takes the times */
  int report;          /* the rank of COMM that gets the result (the test
                          node; usually ROOT itself) */
  comet_op op;
  void *arg;
  double divisor;      /* e.g. 2: the one-way time of a round trip */
  int64_t max_repeat;  /* 0: the --max-repeat option */
  int synced;          /* 1: --rep-sync applies (one call per
                          repetition, every rank of COMM timed) */
};

struct comet_result
{
  struct stats_summary s;   /* microseconds, on the root only */
  double mean;              /* mean of the samples, us */
  enum stats_stop stop;
  int64_t repeat;           /* iterations per sample */
  double quantum;           /* us: the step of one sample, the timer's
                               resolution / (repeat * divisor); NaN when
                               unknown */
  struct stats_summary span;   /* --rep-sync: see struct comet_row */
  int64_t n_invalid;
  double window;
};

/* ROW's statistics (t, t_mean, ops, stop) from RES.  */
void comet_row_result (struct comet_row *row, const struct comet_result *res);

/* Warm up, pick the repeat count, then take samples until the adaptive
   rule stops: each sample is one timed repeat loop whose measured
   overhead is subtracted, divided by the repeat count and DIVISOR.
   Collective over T->comm; the result is complete on T->report.  */
void comet_measure (struct comet_ctx *c, const struct comet_timing *t,
                    struct comet_result *res);

/* comet_measure under --rep-sync barrier or window (synced.c): one call
   per repetition, on every rank between two readings of the global
   clock; the test node's own times give the statistics of t, and each
   repetition's earliest start and latest end over the ranks give
   t_span.  ROOT: this rank is T->root.  */
void comet_measure_synced (struct comet_ctx *c, const struct comet_timing *t,
                           int root, struct comet_result *res);

/* Fit every rank's clock against the test node's and write the model
   as metadata (rank 0), when --rep-sync is not none.  Collective over
   MPI_COMM_WORLD.  */
void comet_clock_setup (struct comet_ctx *c);

/* Measure the cost of the empty repeat loop (collective on c->comm).  */
void comet_loop_overhead (struct comet_ctx *c);

/* The dummy function called in the repeat loop with the loop variable,
   so that no compiler removes the loop (Section 2.1).  */
void comet_dummy (int64_t i);

/* ------------------------------------------------------------ topology */

/* Build the adjacency matrix (MPI_Dims_create or --grid, then
   MPI_Cart_create with reordering allowed and periodic dimensions).  */
void comet_topology (struct comet_ctx *c);

/* Metadata #@grid and #@grid_map (collective).  */
void comet_topology_meta (struct comet_ctx *c);

/* Split c->comm into the pair {test node, PARTNER} (test node is rank 0
   of the pair); MPI_COMM_NULL on the other ranks.  Collective.  */
MPI_Comm comet_pair_comm (struct comet_ctx *c, int partner);

/* Barrier for ranks that sit out a measurement: they sleep between
   tests instead of spinning, so that an oversubscribed run (more ranks
   than cores) leaves the cores to the ranks being timed.  */
void comet_idle_barrier (struct comet_ctx *c);

/* ------------------------------------------------------------ helpers */

/* mpu_check without a call on success: the kernels' inner loops use it so
   that the error check costs a compare, not a function call.  */
#define COMET_MPI(call, what) \
  do { int comet_rc_ = (call); \
       if (comet_rc_ != MPI_SUCCESS) mpu_check (comet_rc_, what); } while (0)


/* Message buffers of --buffers and --cache (buffers.c): SEND and RECV
   are NSLOTS page-aligned slots of SLOT bytes each (RECV == SEND when
   shared; one slot when warm, a pool of twice the last-level cache when
   cold).  */
struct comet_bufs
{
  char *send, *recv;
  size_t slot, nslots, next;
};
void comet_bufs_init (const struct comet_opts *o, struct comet_bufs *b,
                      size_t max_bytes);
/* The buffers of the next iteration (the same ones when warm).  */
void comet_bufs_next (struct comet_bufs *b, char **send, char **recv);
void comet_bufs_free (struct comet_bufs *b);
size_t comet_llc_bytes (void);
int comet_mpi_count (int64_t n, const char *what);  /* fits an MPI int */

/* Why KERNEL (in DIRECTION, or NULL) moves no byte between ranks on
   c's grid (every rank exchanges with itself: shift east on an R x 1
   grid, transpose on a line, rowbcast on a 1 x C grid ...), or NULL
   when it does.  Its rows then have no bandwidth.  */
const char *comet_self_exchange (const struct comet_ctx *c,
                                 const char *kernel, const char *direction);

/* Verification (verify.c), outside every timed region.
   MSGPERF_COMET_BREAK=KERNEL, a testing aid: KERNEL's verification
   exchange skips its transfer, so that the testsuite can show that the
   check fails; KERNEL:stale and KERNEL:peer send the wrong content
   (comet_break_mode).  */
int comet_broken (const char *kernel);
/* MSGPERF_COMET_BREAK for KERNEL: 0 (not broken), COMET_BREAK_SKIP
   (KERNEL: no transfer), COMET_BREAK_STALE (KERNEL:stale: the sender
   sends the previous exchange's content, in the collective kernels its
   buffer as it was, in the matrix kernels the previous sweep point's
   block, in the tree kernels the previous wave's values),
   COMET_BREAK_PEER (KERNEL:peer: what the next rank would send),
   COMET_BREAK_LOAD (contention:load: every load message carries the
   previous one's number).  */
enum { COMET_BREAK_SKIP = 1, COMET_BREAK_STALE, COMET_BREAK_PEER,
       COMET_BREAK_LOAD };
int comet_break_mode (const char *kernel);
/* Byte I of the verification message number SEQ from rank SRC to rank
   DST (ranks of the adjacency matrix; DST -1 for a broadcast).  */
unsigned char comet_pattern (int64_t seq, int src, int dst, int64_t i);
void comet_fill (const char *kernel, void *buf, size_t len, int64_t seq,
                 int src, int dst);
/* The complement of what comet_fill writes: a receive that does not
   happen leaves every byte wrong.  */
void comet_prefill (void *buf, size_t len, int64_t seq, int src, int dst);
/* End the run (status 1) naming KERNEL, SIZE and RANK unless BUF holds
   what comet_fill writes.  */
void comet_check (const char *kernel, int64_t size, int rank,
                  const void *buf, size_t len, int64_t seq, int src,
                  int dst);

/* The matrix kernels (matrix.c).  Largest block order of --orders.  */
#define COMET_MAX_ORDER INT64_C (8192)
/* The matrix kernels' hook that checks, before MPI starts, that
   --sizes can be followed by KERNEL's block orders (comet_matrix_orders):
   a usage error if not.  */
void comet_matrix_check (const struct comet_opts *o, const char *kernel);
/* The bytes one call of matrix kernel KERNEL sends from a rank at block
   order N: its rows' bytes.  */
int64_t comet_matrix_bytes (const char *kernel, int64_t n);
/* The block orders matrix kernel KERNEL sweeps, in *OUT (OUT->v to be
   freed): --orders when given or when --sizes is not; else, for each
   size, the smallest order whose call sends at least that many bytes (so
   that a run over one --sizes sweep measures every kernel at those
   sizes or the next ones its blocks allow, which the rows' bytes say),
   an order that two sizes share once.  Returns 0, or the first size that
   needs an order above COMET_MAX_ORDER.  No MPI: main checks the
   sweep before MPI_Init.  */
int64_t comet_matrix_orders (const struct comet_opts *o, const char *kernel,
                             struct comet_sweep *out);

/* Kernel functions: run every measurement of the kernel, emit its rows.
   Collective over c->comm.  */
typedef void (*comet_kernel_fn) (struct comet_ctx *c);

void kernel_echo (struct comet_ctx *c);
void kernel_pairwise (struct comet_ctx *c);
void kernel_broadcast (struct comet_ctx *c);
void kernel_globalsum (struct comet_ctx *c);
void kernel_barrier (struct comet_ctx *c);
void kernel_contention (struct comet_ctx *c);
void kernel_overlap (struct comet_ctx *c);
void kernel_update_guard (struct comet_ctx *c);
void kernel_shift (struct comet_ctx *c);
void kernel_transpose (struct comet_ctx *c);
void kernel_rowbcast (struct comet_ctx *c);
void kernel_colbcast (struct comet_ctx *c);
/* collectives.c: the MPI collectives over --sizes, verified.  */
void kernel_alltoall (struct comet_ctx *c);
void kernel_allgather (struct comet_ctx *c);
void kernel_allreduce (struct comet_ctx *c);
void kernel_reduce (struct comet_ctx *c);
void kernel_scatter (struct comet_ctx *c);
void kernel_gather (struct comet_ctx *c);
void kernel_bcast (struct comet_ctx *c);
void kernel_reduce_local (struct comet_ctx *c);
void kernel_combine (struct comet_ctx *c);
void kernel_tree_roundtrip (struct comet_ctx *c);
void kernel_tree_throughput (struct comet_ctx *c);
void kernel_tree_startup (struct comet_ctx *c);

/* One row of the kernel table (kernels.c): what the kernel is, and its
   hooks, which main calls for every kernel alike (NULL: none).  */
struct comet_kernel
{
  const char *name;
  comet_kernel_fn run;
  const char *description;
  int min_ranks;
  int columns;              /* COL_* the kernel's rows fill */
  /* Before MPI_Init, on every rank: the options' checks that only this
     kernel needs (die_usage on a bad one).  */
  void (*check) (const struct comet_opts *o, const char *kernel);
  /* Collective metadata the kernel's rows need, written before the
     header; called once per run however many kernels share it.  */
  void (*run_meta) (struct comet_ctx *c);
  /* Why the kernel moves no byte between ranks on c's grid in DIRECTION
     (NULL, or one of DIRECTIONS), or NULL when it does (see
     comet_self_exchange): written as #@MBps_na.  */
  const char *(*self_exchange) (const struct comet_ctx *c,
                                const char *kernel, const char *direction);
  const char *const *directions;   /* NULL-terminated, or NULL: one */
};

/* The kernels, in the order of Section 2.2 of the paper; a NULL name
   ends the table.  */
extern const struct comet_kernel comet_kernels[];

/* Estimate every rank's MPI_Wtime offset through the first --topology
   (msgperf-trees(7)) and write it as metadata (rank 0).  Collective.  */
void comet_tree_meta (struct comet_ctx *c);

/* Sweep the echo kernel over c->opt->sizes on PAIR (a comet_pair_comm;
   called by its two members only), used by echo and by contention.
   KERNEL, HOPS and LOAD (-1: NA) label the rows; EMIT 0 writes none.
   MBPS, when not NULL, receives one bandwidth per size (test node).  */
void comet_echo_sweep (struct comet_ctx *c, MPI_Comm pair,
                       const char *kernel, int hops, int64_t load, int emit,
                       double *mbps);

#endif
