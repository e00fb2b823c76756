# SPDX-License-Identifier: GPL-3.0-or-later
## msgperf-trace: the PMPI tracing library, its wrapper and the trace
## reader (issue 25, item 1).
##
## libmsgperf-trace.so is a shared object that the project builds without
## libtool: automake refuses PROGRAMS in libdir and LTLIBRARIES without
## libtool, so it is a program of its own directory variable (tracelibdir,
## which is libdir), linked with -shared.  make install, uninstall and
## distcheck handle it like any program; under ./configure --without-mpi
## (HAVE_MPI false) it is not built.  It is compiled without the
## sanitizer flags: it is preloaded into programs that may not be built
## with them.  Its own functions are hidden: only the MPI calls (declared
## visible by mpi.h) are exported, so that the library's names do not
## meet the traced program's and its calls between files are direct, not
## through the PLT.
tracelibdir = $(libdir)
tracelib_PROGRAMS =
if HAVE_MPI
tracelib_PROGRAMS += tools/msgperf-trace/libmsgperf-trace.so
endif
tools_msgperf_trace_libmsgperf_trace_so_SOURCES = \
	tools/msgperf-trace/wrap.c tools/msgperf-trace/wrapcoll.c \
	tools/msgperf-trace/wrapbase.c tools/msgperf-trace/wrapbase.h \
	tools/msgperf-trace/fwrap.c \
	tools/msgperf-trace/untraced.c tools/msgperf-trace/untraced.h \
	tools/msgperf-trace/funtraced.c \
	tools/msgperf-trace/tracebuf.c \
	tools/msgperf-trace/tracebuf.h tools/msgperf-trace/clock.c \
	tools/msgperf-trace/clock.h \
	common/trace/traceformat.c common/trace/traceformat.h
tools_msgperf_trace_libmsgperf_trace_so_CFLAGS = -std=c11 $(WARN_CFLAGS) \
	$(MPI_CFLAGS) -fPIC -fvisibility=hidden -pthread
tools_msgperf_trace_libmsgperf_trace_so_LDFLAGS = -shared -fPIC -pthread
tools_msgperf_trace_libmsgperf_trace_so_LDADD = $(MPI_LIBS)

## The wrapper and reader: no MPI (it execs the traced program), so it is
## built, and reads traces, in every configuration.
bin_PROGRAMS += tools/msgperf-trace/msgperf-trace
tools_msgperf_trace_msgperf_trace_SOURCES = tools/msgperf-trace/main.c \
	tools/msgperf-trace/run.c tools/msgperf-trace/run.h \
	tools/msgperf-trace/togoal.c tools/msgperf-trace/togoal.h \
	tools/msgperf-trace/togoal_base.c tools/msgperf-trace/togoal_vcoll.c \
	tools/msgperf-trace/togoal_spill.c \
	tools/msgperf-trace/togoal_int.h \
	tools/msgperf-trace/attribute.c tools/msgperf-trace/attribute.h
## Where make install puts the library, and the program: the program
## looks for it relative to itself first (bindir's path to libdir), so
## that an installation moved or made with another prefix or DESTDIR
## finds its own.
if HAVE_MPI
TRACE_HAVE_MPI = 1
else
TRACE_HAVE_MPI = 0
endif
tools_msgperf_trace_msgperf_trace_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTRACE_LIBDIR='"$(libdir)"' -DTRACE_BINDIR='"$(bindir)"' \
	-DTRACE_HAVE_MPI=$(TRACE_HAVE_MPI)
tools_msgperf_trace_msgperf_trace_LDADD = common/trace/libtraceformat.a \
	$(MSGPERF_LIBS)
dist_man1_MANS += man/msgperf-trace.1

## The record format alone (every build).
check_PROGRAMS += testsuite/unit/test-traceformat
testsuite_unit_test_traceformat_SOURCES = testsuite/unit/test-traceformat.c \
	testsuite/unit/unit.h
testsuite_unit_test_traceformat_LDADD = common/trace/libtraceformat.a \
	$(MSGPERF_LIBS)

## Hand-made traces for msgperf-trace goal (every build).
check_PROGRAMS += testsuite/unit/trace-write
testsuite_unit_trace_write_SOURCES = testsuite/unit/trace-write.c
testsuite_unit_trace_write_LDADD = common/trace/libtraceformat.a

## testsuite/trace.at: MPI programs with known call sequences, traced.
if HAVE_MPI
check_PROGRAMS += testsuite/unit/trace-calls
endif
testsuite_unit_trace_calls_SOURCES = testsuite/unit/trace-calls.c
testsuite_unit_trace_calls_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
testsuite_unit_trace_calls_LDADD = $(MPI_LIBS)
## examples/trace/ring.c, the pipelined ring of examples/trace, built for
## testsuite/examples.at.
if HAVE_MPI
check_PROGRAMS += testsuite/unit/trace-ring
endif
testsuite_unit_trace_ring_SOURCES = examples/trace/ring.c \
	examples/trace/ranklines.h
testsuite_unit_trace_ring_CFLAGS = $(AM_CFLAGS) $(MPI_CFLAGS)
testsuite_unit_trace_ring_LDADD = $(MPI_LIBS) -lm
EXTRA_DIST += testsuite/trace-times.awk
## bench/trace-overhead and bench/trace-nullsend.c: bench/ is distributed whole.
