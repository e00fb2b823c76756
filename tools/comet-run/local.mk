# SPDX-License-Identifier: GPL-3.0-or-later
## comet-run's pure helpers (no MPI): the process grid, block matrices,
## the overlap and bandwidth arithmetic.  Unit-tested in every build.
noinst_LIBRARIES += tools/comet-run/libcomet.a
tools_comet_run_libcomet_a_SOURCES = \
	tools/comet-run/grid2d.c tools/comet-run/grid2d.h \
	tools/comet-run/blockmat.c tools/comet-run/blockmat.h \
	tools/comet-run/overlap.c tools/comet-run/overlap.h \
	tools/comet-run/bandwidth.c tools/comet-run/bandwidth.h
