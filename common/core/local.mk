# SPDX-License-Identifier: GPL-3.0-or-later
## common/core: exact number parsing and printing.  Pure: no I/O, no
## exit, includes nothing else of msgperf.  Lowest layer.
noinst_LIBRARIES += common/core/libcore.a
common_core_libcore_a_SOURCES = \
	common/core/num.c common/core/num.h \
	common/core/numfast.c common/core/numfast.h
