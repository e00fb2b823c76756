#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# collectives.sh OUT LAUNCHES: run inside `cluster` (8 hosts): LogGP's
# small-message parameters on two hosts (logp-measure), then LAUNCHES
# launches (msgperf-launch: one launch one sample) of comet-run's
# bcast, allreduce and alltoall at 64 KiB and 1 MiB on 8 ranks, one per
# host, with Open MPI's algorithms forced (binomial broadcast, reduce +
# broadcast allreduce, pairwise alltoall) and recorded by comet-run, in
# OUT/coll.tsv: a row per launch and point, the launch's median.
# Programs from PATH.  Ranks waiting in MPI yield the CPU
# (mpi_yield_when_idle): 8 ranks share this machine's cores, and a rank
# that spins takes them from the one that has work.  (Every launch is
# then flagged cpu_shared: 8 ranks on 2 cores, by design; the links, at
# 50 Mbit/s, not the cores, set the times.)
set -e
out=$1 n=${2:-5}
$CLUSTER_MPIRUN -np 2 --mca mpi_yield_when_idle 1 logp-measure --summary \
  --epsilon 0.05 --max-bytes 4096 --no-progress > "$out/logp.tsv"
msgperf-launch -q -n "$n" -o "$out/coll.tsv" -- \
  $CLUSTER_MPIRUN -np 8 --mca mpi_yield_when_idle 1 \
  --mca coll_tuned_use_dynamic_rules 1 \
  --mca coll_tuned_bcast_algorithm 6 --mca coll_tuned_reduce_algorithm 5 \
  --mca coll_tuned_allreduce_algorithm 2 \
  --mca coll_tuned_alltoall_algorithm 2 \
  comet-run bcast allreduce alltoall --sizes 65536,1048576 \
  --min-reps 3 --max-reps 5 --time-cap 6 -q --no-progress
