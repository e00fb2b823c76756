#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# predict-two.sh DIR PAIRS.tsv TOPOLOGY.tsv: the collectives that
# two-per-host.sh measured in DIR (coll.tsv, logp-shm.tsv, logp-tcp.tsv)
# against dag-predict's LogGP predictions (predict-coll.sh): nic and bus
# with TCP's parameters (G from PAIRS.tsv, pair-measure of the hosts
# one rank a host), and the
# topology of host nodes: ranks 2i, 2i + 1 linked to host node hi at
# shared memory's G, each hi to the switch at the G that TOPOLOGY.tsv
# (topo-infer, one rank a host) has for rank i's links, with TCP's
# latency beyond shared memory's as their L; the model shared memory's
# L, os, or, g and G = 0 (msgperf-models(7), Networks: several ranks a
# host).  Prints: kernel bytes measured network predicted error.
set -e
dir=$1 pairs=$2 topo=$3
val () { awk -F '\t' -v k="$2" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { print $c[k]; exit }' "$1"; }
Gshm=$(val "$dir/logp-shm.tsv" G)
Lx=$(awk -v a="$(val "$dir/logp-tcp.tsv" L)" -v b="$(val "$dir/logp-shm.tsv" L)" 'BEGIN { d = a - b; print (d > 0 ? d : 0) }')
{
  echo '#@time_unit=us'
  printf 'from\tto\tG\tL\n'
  for i in 0 1 2 3; do
    for r in $((2 * i)) $((2 * i + 1)); do
      printf '%s\th%s\t%s\t0\nh%s\t%s\t%s\t0\n' $r $i "$Gshm" $i $r "$Gshm"
    done
    awk -F '\t' -v i=$i -v Lx="$Lx" '/^#/ { next } !h++ { next }
      $1 == i { printf "h%s\t%s\t%s\t%s\n", i, $2, $3, Lx }
      $2 == i { printf "%s\th%s\t%s\t%s\n", $1, i, $3, Lx }' "$topo"
  done
} > "$dir/hosts-topology.tsv"
cp "$dir/logp-tcp.tsv" "$dir/logp.tsv"
TOPO_LOGP=$dir/logp-shm.tsv "$(dirname "$0")/predict-coll.sh" "$dir" "$pairs" \
  "$dir/hosts-topology.tsv"
