/* SPDX-License-Identifier: GPL-3.0-or-later */
/* mpiutil.h: helpers shared by the MPI programs (logp-measure, comet-run).
 * Linked only into those programs (libmsgperf_mpi.a).
 *
 * msgperf(7), MPI PROGRAMS: only rank 0 writes stdout; a rank that hits an
 * error prints it with its rank and aborts the whole job; --timeout bounds
 * the run; MPI_Wtick and the timer overhead go to metadata.  */
#ifndef MSGPERF_MPIUTIL_H
#define MSGPERF_MPIUTIL_H

#include <mpi.h>
#include <stdint.h>
#include "tsv.h"
#include "err.h"

extern int mpu_rank, mpu_size;

/* Before the options are parsed: this rank's number and the job's size
   from the launcher's environment (OMPI_COMM_WORLD_RANK and
   OMPI_COMM_WORLD_SIZE of Open MPI, else PMI_RANK and PMI_SIZE of
   MPICH's Hydra and Intel MPI), without MPI_Init, so that every rank can
   check its options, the size-dependent ones included, before any MPI
   work: a usage error then ends every rank with status 2 before any of
   them has joined the job, and the launcher reports 2 whichever rank
   ends first (a rank that ends inside or just after MPI_Finalize while
   another is still in it makes the launcher's status a race).  Ranks
   other than 0 send stdout to /dev/null and keep usage errors silent.
   Without those variables (a singleton, another launcher) it calls
   mpu_init at once, and the options are checked after MPI_Init as
   before.  */
void mpu_preinit (int *argc, char ***argv);

/* MPI_Init (unless done already), rank and size, MPI_ERRORS_RETURN on
   MPI_COMM_WORLD (errors are reported by mpu_check and end the job
   through MPI_Abort), and err.h's exit hook set so that die()/die_usage()
   on any rank end the job.  After mpu_preinit, a rank or size that
   differs from the environment's is an error.  */
void mpu_init (int *argc, char ***argv);

/* MPI_Finalize (only stdout is flushed when MPI_Init was never called:
   --help, --version and --list end before it).  */
void mpu_finalize (void);

/* "NAME: rank R: message" on stderr, then MPI_Abort (STATUS).  */
ERR_NORETURN void mpu_die (int status, const char *fmt, ...) ERR_PRINTF (2, 3);

/* Check an MPI return code: on failure print the MPI error string with
   WHAT and the rank, and abort.  */
void mpu_check (int rc, const char *what);

/* Bound the run: after SECONDS (0: no bound) a rank prints
   "NAME: rank R: timed out after S s" and the job ends with status 1.
   Uses SIGALRM with an async-signal-safe handler (write + _exit), which
   the launcher turns into the end of the whole job.  */
void mpu_timeout (double seconds);

/* Median cost of one MPI_Wtime call, seconds (measured, not assumed).  */
double mpu_timer_overhead (void);

/* The real resolution of MPI_Wtime on this rank, seconds: the step of its
   readings (timerstep.h) measured from intervals between consecutive
   calls and between readings up to 8 cheapest intervals apart, about
   10 ms of work at most.  MPI_Wtick only gives the unit the readings are
   counted in (1 ns with Open MPI on Linux whatever the clock does).
   Measured on the first call; later calls return the same value, so that
   the metadata and the rounding of the program's times agree.  */
double mpu_timer_resolution (void);

/* The smallest non-zero difference of two consecutive MPI_Wtime calls
   seen by mpu_timer_resolution, seconds (NaN if none was).  */
double mpu_timer_min_diff (void);

/* Write the metadata every MPI program records: mpi_library, nprocs,
   timer_resolution (mpu_timer_resolution, us), timer_tick (MPI_Wtick,
   us), timer_min_diff (mpu_timer_min_diff, us), timer_overhead (us, to
   the resolution), hosts.  Collective (everyone calls it); only rank 0
   writes to W.  */
void mpu_write_meta (tsv_writer *w);

/* Barrier that aborts on error.  */
void mpu_barrier (void);

/* Testing aid: a slow partner.  With MSGPERF_MPI_SLOW=RANK:BYTES:SECONDS
   in the environment (read by mpu_init; a malformed value ends the job
   with status 1), the rank RANK sleeps before answering a message of
   BYTES bytes: the k-th such call (k = 0, 1, ...) sleeps
   (1 + k mod 4) * SECONDS, a partner that is both slow and irregular, so
   the 95% interval of a median over the replies never gets narrow.
   Elsewhere, and without the variable, it returns at once.  The programs
   call it where the partner replies (logp-measure's mirror, comet-run's
   echo).  */
void mpu_slow_hook (int64_t bytes);

#endif
