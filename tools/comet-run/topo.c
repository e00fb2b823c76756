/* SPDX-License-Identifier: GPL-3.0-or-later */
/* topo.c: the adjacency matrix of comet-run.
 *
 * comet-benchmark.txt, Section 2.1: "CoMet defines a two-dimensional
 * matrix of processors that captures nearest-neighbor mappings ... the
 * adjacency matrix for the machine."  On the iPSC/860 it came from Gray
 * codes; on MPI the library knows the machine, so the grid is
 * MPI_Dims_create's shape (or --grid) given to MPI_Cart_create with
 * reordering allowed.  Both dimensions are periodic, so that every node
 * has the four neighbours (top, bottom, pred, succ) the matrix kernels
 * exchange with; hop distances (echo, pairwise) are counted on the mesh,
 * without wrap-around (grid2d.h).  */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "comet.h"
#include "mpiutil.h"
#include "xalloc.h"

void
comet_topology (struct comet_ctx *c)
{
  const struct comet_opts *o = c->opt;
  int dims[2] = { o->grid_rows, o->grid_cols };
  int periods[2] = { 1, 1 };
  if (!dims[0])
    mpu_check (MPI_Dims_create (mpu_size, 2, dims), "MPI_Dims_create");
  mpu_check (MPI_Cart_create (MPI_COMM_WORLD, 2, dims, periods, 1, &c->comm),
             "MPI_Cart_create");
  MPI_Comm_set_errhandler (c->comm, MPI_ERRORS_RETURN);
  mpu_check (MPI_Comm_rank (c->comm, &c->rank), "MPI_Comm_rank");
  mpu_check (MPI_Comm_size (c->comm, &c->size), "MPI_Comm_size");
  int coords[2];
  mpu_check (MPI_Cart_coords (c->comm, c->rank, 2, coords), "MPI_Cart_coords");
  c->rows = dims[0];
  c->cols = dims[1];
  c->row = coords[0];
  c->col = coords[1];
  /* The test node is the process that writes stdout: rank 0 of
     MPI_COMM_WORLD, wherever the reordering put it.  */
  int mine = mpu_rank == 0 ? c->rank : -1, test = -1;
  mpu_check (MPI_Allreduce (&mine, &test, 1, MPI_INT, MPI_MAX, c->comm),
             "MPI_Allreduce");
  c->test = test;
}

void
comet_topology_meta (struct comet_ctx *c)
{
  int *world = NULL;
  if (c->rank == c->test)
    world = xcalloc (1, (size_t) c->size * sizeof *world);
  mpu_check (MPI_Gather (&mpu_rank, 1, MPI_INT, world, 1, MPI_INT, c->test,
                         c->comm), "MPI_Gather");
  if (c->rank != c->test)
    return;
  tsv_meta (c->w, "grid", "%dx%d", c->rows, c->cols);
  /* Position r of the grid (row-major, as MPI_Cart numbers it) is held by
     world rank world[r]: "row,col=world_rank" for each position.  */
  size_t cap = (size_t) c->size * 40 + 1, used = 0;
  char *map = xcalloc (1, cap);
  for (int r = 0; r < c->size; r++)
    used += (size_t) snprintf (map + used, cap - used, "%s%d,%d=%d",
                               r ? " " : "", r / c->cols, r % c->cols,
                               world[r]);
  tsv_meta (c->w, "grid_map", "%s", map);
  tsv_meta (c->w, "test_node", "%d,%d", c->row, c->col);
  free (map);
  free (world);
}

MPI_Comm
comet_pair_comm (struct comet_ctx *c, int partner)
{
  int in = c->rank == c->test || c->rank == partner;
  MPI_Comm pair;
  mpu_check (MPI_Comm_split (c->comm, in ? 0 : MPI_UNDEFINED,
                             c->rank == c->test ? 0 : 1, &pair),
             "MPI_Comm_split");
  if (pair != MPI_COMM_NULL)
    MPI_Comm_set_errhandler (pair, MPI_ERRORS_RETURN);
  return pair;
}

void
comet_idle_barrier (struct comet_ctx *c)
{
  MPI_Request rq;
  mpu_check (MPI_Ibarrier (c->comm, &rq), "MPI_Ibarrier");
  struct timespec nap = { 0, 100000 };
  for (;;)
    {
      int done = 0;
      mpu_check (MPI_Test (&rq, &done, MPI_STATUS_IGNORE), "MPI_Test");
      if (done)
        return;
      nanosleep (&nap, NULL);
    }
}
