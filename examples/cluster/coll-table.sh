#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# coll-table.sh SHAPE-coll.tsv...: predict-coll.sh's outputs as one
# table, error = (predicted - measured) / measured per shape, kernel,
# size and network, then per shape and network the median |error| and
# the worst.
for f in "$@"; do
  awk -F '\t' -v s="$(basename "$f" -coll.tsv)" '/^#/ || $1 == "kernel" { next }
    { print s, $1, $2, $3, $4, $6 }' "$f"
done | awk '
  { k = $1 " " $2 " " $3; if (!(k in m)) { o[++n] = k; m[k] = $4 }
    e[k, $5] = $6; a = $6 < 0 ? -$6 : $6; v[$1, $5, ++c[$1, $5]] = a
    if (!($1 in seen)) { seen[$1] = 1; sh[++ns] = $1 } }
  END {
    printf "%-13s %-9s %8s %10s %7s %7s %8s\n", "shape", "kernel", "bytes", "meas_ms", "nic", "bus", "topology"
    for (i = 1; i <= n; i++) { split(o[i], p, " ")
      printf "%-13s %-9s %8s %10.0f %7s %7s %8s\n", p[1], p[2], p[3], m[o[i]] / 1000, e[o[i], "nic"], e[o[i], "bus"], e[o[i], "topology"] }
    printf "\nmedian |error| (worst)\n"
    for (j = 1; j <= ns; j++) { line = sprintf("%-13s", sh[j])
      split("nic bus topology", nets, " ")
      for (q = 1; q <= 3; q++) { t = nets[q]; cnt = c[sh[j], t]
        for (x = 1; x <= cnt; x++) w[x] = v[sh[j], t, x]
        for (x = 2; x <= cnt; x++) for (y = x; y > 1 && w[y - 1] > w[y]; y--) { u = w[y]; w[y] = w[y - 1]; w[y - 1] = u }
        med = cnt % 2 ? w[(cnt + 1) / 2] : (w[cnt / 2] + w[cnt / 2 + 1]) / 2
        line = line sprintf("  %s %.2f (%.2f)", t, med, w[cnt]) }
      print line } }'
