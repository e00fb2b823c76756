# SPDX-License-Identifier: GPL-3.0-or-later
## common/trace: the binary record format of libmsgperf-trace, pure
## encoding and decoding with no I/O and no exit, shared by the tracing
## library (which compiles it in, position-independent) and by the
## programs that read traces (msgperf-trace dump).
noinst_LIBRARIES += common/trace/libtraceformat.a
common_trace_libtraceformat_a_SOURCES = \
	common/trace/traceformat.c common/trace/traceformat.h
