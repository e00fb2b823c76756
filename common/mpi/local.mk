# SPDX-License-Identifier: GPL-3.0-or-later
## common/mpi: the MPI helpers, linked only into the MPI programs: start,
## abort and timeout handling, the LogP measurement protocol, the tree
## overlay, the global clock.  Under ./configure --without-mpi (HAVE_MPI false) this library,
## the MPI programs, their man pages and unit tests are not built; their
## testsuite groups skip.
if HAVE_MPI
noinst_LIBRARIES += common/mpi/libmsgperf_mpi.a
endif
common_mpi_libmsgperf_mpi_a_SOURCES = \
	common/mpi/mpiutil.c common/mpi/mpiutil.h \
	common/mpi/logp_proto.c common/mpi/logp_proto.h \
	common/mpi/overlay.c common/mpi/overlay.h \
	common/mpi/clocksync.c common/mpi/clocksync.h \
	common/mpi/logp_gather.c common/mpi/logp_report.c \
	common/mpi/logp_report.h
common_mpi_libmsgperf_mpi_a_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
