# SPDX-License-Identifier: GPL-3.0-or-later
## common/plot: gnuplot scripts from streams, with every input string
## quoted so that it stays inert.
noinst_LIBRARIES += common/plot/libplot.a
common_plot_libplot_a_SOURCES = \
	common/plot/gpquote.c common/plot/gpquote.h \
	common/plot/plotscript.c common/plot/plotscript.h \
	common/plot/plotdata.c common/plot/plotdata.h \
	common/plot/gnuplot_run.c common/plot/gnuplot_run.h
