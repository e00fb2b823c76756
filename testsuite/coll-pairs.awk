# SPDX-License-Identifier: GPL-3.0-or-later
# coll-pairs.awk: the messages of a collective per pair of ranks, as
# "SRC DST BYTES COUNT" lines (unsorted), from either
#   - the .prof files of Open MPI's pml monitoring component
#     (pml_monitoring_enable_output 3): lines "I" (internal) or "E"
#     (external: persistent requests are counted there) with
#     "SRC<TAB>DST<TAB>N bytes<TAB>K msgs sent", or
#   - the native stream of dag-predict gen coll:OP:ALGO: rows "msg" whose
#     from and to are task ids rRANK_STEP.
BEGIN { FS = "\t" }
($1 == "I" || $1 == "E") && $4 ~ / bytes$/ {
  split($4, b, " "); split($5, n, " ")
  key = $2 " " $3; bytes[key] += b[1]; count[key] += n[1]
}
$1 == "msg" {
  split($5, f, "_"); split($6, t, "_")
  key = substr(f[1], 2) " " substr(t[1], 2)
  bytes[key] += $7; count[key]++
}
END { for (k in bytes) print k, bytes[k], count[k] }
