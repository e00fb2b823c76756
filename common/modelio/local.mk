# SPDX-License-Identifier: GPL-3.0-or-later
## common/modelio: the models' streams: TSV read into the models' inputs
## and their results written, for the programs of the models (hyper-reduce,
## loGPC-solve).  It sits above both stream and models, which do not see
## each other.
noinst_LIBRARIES += common/modelio/libmodelio.a
common_modelio_libmodelio_a_SOURCES = \
	common/modelio/hyper_io.c common/modelio/hyper_io.h \
	common/modelio/logpc_io.c common/modelio/logpc_io.h
