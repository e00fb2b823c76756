# SPDX-License-Identifier: GPL-3.0-or-later
## common/stream: what every program shares around the models: errors and
## the exit hook (err), allocation that ends the program cleanly on out of
## memory (xalloc), the TSV reader and writer with metadata (tsv), the
## shared options (cli), the parameter layer (params), size lists.
noinst_LIBRARIES += common/stream/libstream.a
common_stream_libstream_a_SOURCES = \
	common/stream/err.c common/stream/err.h \
	common/stream/xalloc.c common/stream/xalloc.h \
	common/stream/tsv.c common/stream/tsv.h \
	common/stream/cli.c common/stream/cli.h \
	common/stream/human.c common/stream/human.h \
	common/stream/params.c common/stream/params.h \
	common/stream/sizelist.c common/stream/sizelist.h \
	common/stream/listopt.c common/stream/listopt.h \
	common/stream/readfile.c common/stream/readfile.h \
	common/stream/paramsizes.c common/stream/paramsizes.h
