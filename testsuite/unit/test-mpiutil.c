/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-mpiutil MODE: exercises common/mpi/mpiutil.c under mpiexec.
 *   meta     write the MPI metadata and one row (rank 0)
 *   timeout  rank 1 never answers; --timeout must end the job
 *   die      rank 1 dies with a message; the job must end, not hang
 *   usage    every rank hits the same usage error (exit 2, one message)  */
#include <config.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mpiutil.h"
#include "tsv.h"

int
main (int argc, char **argv)
{
  cli_init ("test-mpiutil", argc, argv);
  mpu_init (&argc, &argv);
  const char *mode = argc > 1 ? argv[1] : "meta";
  if (strcmp (mode, "meta") == 0)
    {
      tsv_writer *w = mpu_rank == 0 ? tsv_writer_open (NULL) : NULL;
      mpu_write_meta (w);
      if (w)
        {
          const char *names[] = { "nprocs", "overhead_ok" };
          tsv_write_header (w, 2, names);
          tsv_put_int (w, mpu_size);
          double o = mpu_timer_overhead ();
          tsv_put_int (w, o > 0 && o < 1e-3);
          tsv_end_row (w);
          tsv_writer_close (w);
        }
      mpu_barrier ();
    }
  else if (strcmp (mode, "timeout") == 0)
    {
      mpu_timeout (2);
      if (mpu_rank == 0)
        {
          int x;
          /* Rank 1 never sends.  */
          mpu_check (MPI_Recv (&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
                               MPI_STATUS_IGNORE), "MPI_Recv");
        }
      else
        pause ();
    }
  else if (strcmp (mode, "die") == 0)
    {
      mpu_timeout (20);
      if (mpu_rank == 1)
        mpu_die (1, "partner failed on purpose");
      int x;
      mpu_check (MPI_Recv (&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE), "MPI_Recv");
    }
  else if (strcmp (mode, "usage") == 0)
    die_usage ("option '--x': bad value");
  mpu_finalize ();
  return 0;
}
