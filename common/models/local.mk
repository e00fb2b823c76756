# SPDX-License-Identifier: GPL-3.0-or-later
## common/models: the papers' models, one folder per family.  Pure
## functions: no I/O, no exit; they may include common/core only
## (testsuite/layers checks it, and testsuite/unit/test-models-only links
## the whole library without the stream, error and MPI layers).
##   hyper/  the hyperbolic model (Stoica, Sultan, Keyes)
##   logp/   LogP/LogGP parameter rules (Kielmann, Bal, Verstoep)
##   logpc/  LoGPC contention on k-ary n-cubes (Moritz and Frank)
##   trees/  MRNet-style tree topologies, filters and costs
##   topo/   a cluster's switches and links from pairs' rates
noinst_LIBRARIES += common/models/libmodels.a
common_models_libmodels_a_SOURCES = \
	common/models/hyper/hyperbolic.c common/models/hyper/hyperbolic.h \
	common/models/hyper/hyperexpr.c common/models/hyper/hyperexpr.h \
	common/models/hyper/hyperfit.c common/models/hyper/hyperfit.h \
	common/models/hyper/hyperinvert.c common/models/hyper/hyperinvert.h \
	common/models/logp/logp_sizes.c common/models/logp/logp_sizes.h \
	common/models/logp/logp_params.c common/models/logp/logp_params.h \
	common/models/logp/logp_pairs.c common/models/logp/logp_pairs.h \
	common/models/logp/logp_classes.c common/models/logp/logp_classes.h \
	common/models/logp/logp_eager.c common/models/logp/logp_eager.h \
	common/models/logp/plogp.c common/models/logp/plogp.h \
	common/models/logp/smpi_calib.c common/models/logp/smpi_calib.h \
	common/models/logpc/kcube.c common/models/logpc/kcube.h \
	common/models/logpc/netspec.c common/models/logpc/netspec.h \
	common/models/logpc/logpc.c common/models/logpc/logpc.h \
	common/models/trees/treespec.c common/models/trees/treespec.h \
	common/models/trees/treefilter.c common/models/trees/treefilter.h \
	common/models/trees/treecost.c common/models/trees/treecost.h \
	common/models/trees/clockskew.c common/models/trees/clockskew.h \
	common/models/topo/topo_infer.c common/models/topo/topo_infer.h \
	common/models/topo/topo_duplex.c
