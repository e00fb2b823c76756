/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mpi-probe: a small MPI program that goes through what the MPI programs
   of msgperf use (mpu_init, point-to-point, collectives, the metadata,
   mpu_finalize).  The testsuite runs it on 2 ranks so that a sanitizer
   build proves testsuite/lsan.supp covers OpenMPI's own allocations and
   nothing of msgperf's is leaked, and valgrind/ASan see the MPI layer.  */
#include <config.h>

#include <stdio.h>

#include "err.h"
#include "mpiutil.h"
#include "tsv.h"

int
main (int argc, char **argv)
{
  err_program = "mpi-probe";
  mpu_init (&argc, &argv);
  mpu_timeout (60);
  double mine = mpu_rank + 1, sum = 0;
  mpu_check (MPI_Allreduce (&mine, &sum, 1, MPI_DOUBLE, MPI_SUM,
                            MPI_COMM_WORLD), "MPI_Allreduce");
  char msg[64] = "ping";
  if (mpu_size > 1 && mpu_rank == 0)
    mpu_check (MPI_Send (msg, sizeof msg, MPI_CHAR, 1, 0, MPI_COMM_WORLD),
               "MPI_Send");
  else if (mpu_size > 1 && mpu_rank == 1)
    mpu_check (MPI_Recv (msg, sizeof msg, MPI_CHAR, 0, 0, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE), "MPI_Recv");
  tsv_writer *w = mpu_rank == 0 ? tsv_writer_open (NULL) : NULL;
  mpu_write_meta (w);
  mpu_barrier ();
  if (w)
    {
      static const char *const names[] = { "nprocs", "sum" };
      tsv_write_header (w, 2, names);
      tsv_put_int (w, mpu_size);
      tsv_put_num (w, sum);
      tsv_end_row (w);
      tsv_writer_close (w);
    }
  mpu_finalize ();
  return 0;
}
