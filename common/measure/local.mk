# SPDX-License-Identifier: GPL-3.0-or-later
## common/measure: what the measuring programs need that does not call MPI
## (so it is unit-tested in every build): order statistics and adaptive
## stopping, the timer's measured step, page-aligned message buffers,
## the linear clock model and the window logic of synchronized
## repetitions; the statistics of launches (rank-sum test, modes,
## adjusted p-values).
noinst_LIBRARIES += common/measure/libmeasure.a
common_measure_libmeasure_a_SOURCES = \
	common/measure/stats.c common/measure/stats.h \
	common/measure/timerstep.c common/measure/timerstep.h \
	common/measure/msgbuf.c common/measure/msgbuf.h \
	common/measure/cpuwait.c common/measure/cpuwait.h \
	common/measure/clockmodel.c common/measure/clockmodel.h \
	common/measure/clocktree.c common/measure/clocktree.h \
	common/measure/window.c common/measure/window.h \
	common/measure/ranksum.c common/measure/ranksum.h \
	common/measure/modes.c common/measure/modes.h \
	common/measure/padjust.c common/measure/padjust.h
