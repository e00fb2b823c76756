#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# two-per-host.sh OUT: run inside `cluster four-hosts.cl`: two ranks a
# host, ranks 2i and 2i + 1 on host i, shared memory (vader) between the
# ranks of a host and TCP between hosts.  LogGP's parameters of shared
# memory (logp-measure, two ranks of one host) and of TCP (two hosts),
# then one launch of comet-run's bcast, allreduce and alltoall at 64 KiB
# and 1 MiB on the 8 ranks, the algorithms forced as in collectives.sh.
# Programs from PATH.
set -e
out=$1
hf=$out/hostfile
sed 's/slots=1/slots=2/' "$CLUSTER_HOSTFILE" > "$hf"
run="mpirun --hostfile $hf --mca plm_rsh_agent $CLUSTER_AGENT \
  --mca btl self,vader,tcp --mca btl_tcp_if_include $CLUSTER_SUBNET \
  --mca oob_tcp_if_include $CLUSTER_SUBNET --mca mpi_yield_when_idle 1"
$run -np 2 --map-by slot logp-measure --summary --epsilon 0.05 \
  --max-bytes 65536 --no-progress > "$out/logp-shm.tsv"
$run -np 2 --map-by node logp-measure --summary --epsilon 0.05 \
  --max-bytes 4096 --no-progress > "$out/logp-tcp.tsv"
$run -np 8 --map-by slot \
  --mca coll_tuned_use_dynamic_rules 1 \
  --mca coll_tuned_bcast_algorithm 6 --mca coll_tuned_reduce_algorithm 5 \
  --mca coll_tuned_allreduce_algorithm 2 \
  --mca coll_tuned_alltoall_algorithm 2 \
  comet-run bcast allreduce alltoall --sizes 65536,1048576 \
  --min-reps 3 --max-reps 5 --time-cap 6 -q --no-progress \
  > "$out/coll.tsv"
