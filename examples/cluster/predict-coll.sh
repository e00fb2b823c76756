#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# predict-coll.sh DIR PAIRS.tsv TOPOLOGY.tsv: the collectives that
# collectives.sh measured in DIR (coll.tsv, or coll-*.tsv of single
# launches; logp.tsv) against dag-predict's LogGP predictions on the
# nic, bus and topology networks.  The measured time of a point is the
# median of the launches' medians.  LogGP: L, os, or and g from
# logp-measure's summary (small messages); G from pair-measure, the
# median rate of the pairs alone (us a byte of payload), which the
# links, not the CPUs, set here.  On the topology, whose every link has
# its own G (topo-infer's), the model's G is 0: the links carry the
# bytes, shared by the messages on them, and a rank's NIC is not held
# (s - 1) G a message (msgperf-models(7), Networks).  TOPO_LOGP=FILE:
# the topology's L, os, or and g from FILE instead (several ranks a
# host: shared memory's).  The broadcast is
# rank 0's finish with an empty acknowledgement from every other rank
# after its last receive (comet-run times it so), the others the
# makespan.  Prints: kernel bytes measured network predicted error.
set -e
dir=$1 pairs=$2 topo=$3
DAG=${DAG:-dag-predict}
G=$(awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["with_src"] == "NA" { v[++n] = $c["mbit_s"] }
  END { for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { u = v[j]; v[j] = v[j - 1]; v[j - 1] = u }
        m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2; printf "%.6g\n", 8 / m }' "$pairs")
set_=$(awk -F '\t' -v G="$G" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { printf "L=%s,os=%s,or=%s,g=%s,G=%s\n", $c["L"], $c["os"], $c["or"], $c["g"], G; exit }' "$dir/logp.tsv")
acked () {
  awk -F '\t' -v OFS='\t' '/^#/ { print; next }
    !h++ { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    { print }
    $c["kind"] == "task" && $c["proc"] != 0 { p = $c["proc"]; n[p]++; t[p, n[p]] = $c["id"] }
    END {
      for (p in n) {
        print "task", "ack_" p, p, 0, "NA", "NA", "NA"
        for (i = 1; i <= n[p]; i++) print "dep", "NA", "NA", "NA", t[p, i], "ack_" p, "NA"
        print "task", "got_" p, 0, 0, "NA", "NA", "NA"
        print "msg", "NA", "NA", "NA", "ack_" p, "got_" p, 0
      } }'
}
col () { awk -F '\t' -v k="$1" -v p="$2" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
  p == "" || $c["proc"] == p { print $c[k]; exit }'; }
tset=${set_%%,G=*},G=0
if test -n "${TOPO_LOGP:-}"; then
  tset=$(awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "L=%s,os=%s,or=%s,g=%s,G=0\n", $c["L"], $c["os"], $c["or"], $c["g"]; exit }' "$TOPO_LOGP")
fi
echo "#@loggp=$set_"
echo "#@loggp_topology=$tset"
printf 'kernel\tbytes\tmeasured\tnetwork\tpredicted\terror\n'
awk -F '\t' 'FNR == 1 { h = 0 } /^#/ { next } !h++ { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
  { print $c["kernel"], $c["bytes"], $c["t"] }' $(ls "$dir"/coll.tsv "$dir"/coll-*.tsv 2>/dev/null) | sort -k1,1 -k2,2n -k3,3g |
awk '{ k = $1 " " $2; v[k, ++n[k]] = $3 } END { for (k in n) { m = n[k]; print k, (m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2) } }' |
sort -k1,1 -k2,2n | while read -r k b t; do
  for net in nic bus "topology:$topo"; do
    s=$set_
    case $net in topology:*) s=$tset ;; esac
    case $k in
      bcast) p=$($DAG gen coll:bcast:binomial -P 8 -B "$b" --root 0 | acked |
               $DAG -m loggp --time-unit us --set "$s" --network "$net" --per-proc | col finish 0) ;;
      allreduce) p=$($DAG gen coll:allreduce:nonoverlapping -P 8 -B "$b" |
               $DAG -m loggp --time-unit us --set "$s" --network "$net" | col makespan) ;;
      alltoall) p=$($DAG gen coll:alltoall:pairwise -P 8 -B "$b" |
               $DAG -m loggp --time-unit us --set "$s" --network "$net" | col makespan) ;;
      *) continue ;;
    esac
    n=${net%%:*}
    awk -v k="$k" -v b="$b" -v t="$t" -v n="$n" -v p="$p" 'BEGIN {
      printf "%s\t%s\t%.6g\t%s\t%.6g\t%+.3f\n", k, b, t, n, p, (p - t) / t }'
  done
done
