# SPDX-License-Identifier: GPL-3.0-or-later
## common/dag: task/communication graphs, their readers (native TSV,
## GOAL), generators, and the discrete-event simulator under the models.
noinst_LIBRARIES += common/dag/libdag.a
common_dag_libdag_a_SOURCES = \
	common/dag/dag.c common/dag/dag.h \
	common/dag/dag_image.c common/dag/dag_image.h \
	common/dag/bigmem.c common/dag/bigmem.h \
	common/dag/dag_parse.h common/dag/dag_native.c common/dag/goal.c \
	common/dag/dagsim.c common/dag/dagsim.h \
	common/dag/evqueue.c common/dag/evqueue.h \
	common/dag/matchq.c common/dag/matchq.h \
	common/dag/dagcost.c common/dag/dagcost.h common/dag/progress.c \
	common/dag/cost_loggops.c common/dag/cost_plogp.c \
	common/dag/cost_logpc.c common/dag/cost_hyperbolic.c \
	common/dag/net_bus.c common/dag/net_topology.c \
	common/dag/net_fattree.c common/dag/linkshare.c common/dag/linkshare.h \
	common/dag/dagmodel.c common/dag/dagmodel.h \
	common/dag/dag_gen.c common/dag/dag_gen.h \
	common/dag/dag_coll.c common/dag/dag_coll.h \
	common/dag/coll_decide.c common/dag/coll_decide.h \
	common/dag/dag_apps.c common/dag/dag_apps.h \
	common/dag/diamond.c common/dag/diamond.h \
	common/dag/noise.c common/dag/noise.h \
	common/dag/noise_read.c common/dag/noise_read.h \
	common/dag/dag_report.c common/dag/dag_report.h \
	common/dag/dag_input.c common/dag/dag_input.h \
	common/dag/dag_progress.c common/dag/dag_progress.h \
	common/dag/dag_gen_write.c common/dag/dag_gen_write.h \
	common/dag/diamond_write.c common/dag/diamond_write.h \
	common/dag/diamond_sim.c common/dag/diamond_sim.h \
	common/dag/topology.c common/dag/topology.h \
	common/dag/topo_read.c common/dag/topo_read.h \
	common/dag/dag_bind.c common/dag/dag_bind.h \
	common/dag/predict_meta.c common/dag/predict_meta.h \
	common/dag/dag_interval.c common/dag/dag_interval.h \
	common/dag/dag_launch.c common/dag/dag_launch.h \
	common/dag/dag_sweep.c common/dag/dag_sweep.h

## The big arrays' allocator, in memory and in files (bigmem.c).
check_PROGRAMS += testsuite/unit/test-bigmem
testsuite_unit_test_bigmem_SOURCES = testsuite/unit/test-bigmem.c \
	testsuite/unit/unit.h
testsuite_unit_test_bigmem_LDADD = $(MSGPERF_LIBS)

## Open MPI 4.1's default collective algorithms (coll_decide.c).
check_PROGRAMS += testsuite/unit/test-coll-decide
testsuite_unit_test_coll_decide_SOURCES = testsuite/unit/test-coll-decide.c \
	testsuite/unit/unit.h
testsuite_unit_test_coll_decide_LDADD = $(MSGPERF_LIBS)

## The links and routes of --network topology:FILE (topology.c).
check_PROGRAMS += testsuite/unit/test-topology
testsuite_unit_test_topology_SOURCES = testsuite/unit/test-topology.c \
	testsuite/unit/unit.h
testsuite_unit_test_topology_LDADD = $(MSGPERF_LIBS)
