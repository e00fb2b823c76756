# SPDX-License-Identifier: GPL-3.0-or-later
# logp-classes.awk: check a logp-measure --classes stream.  Every link is
# in exactly one class, each class's count is its number of members, the
# classes come in key order with disjoint bounds, and every member value
# (min, max, value) lies in its class's bounds.  Prints
#   ok: K classes, N links: src-dst ...
# with the links sorted, or the first problem.  Measured values are
# printed rounded to #@timer_resolution R (min, max) or to 6 significant
# digits (value), so the bounds hold within that rounding: R/2, plus
# 5e-6 relative.
BEGIN { FS = "\t"; bad = ""; R = 0 }
/^#@timer_resolution=/ { R = substr($0, 21) + 0 }
/^#/ { next }
!hdr {
  hdr = 1
  if ($0 != "class\tparam\tbytes\tlo\thi\tvalue\tmin\tmax\tcount\tmembers")
    bad = bad "header: " $0 "; "
  next
}
{
  nc++
  if (NF != 10) bad = bad "row " nc ": " NF " fields; "
  if ($1 != nc) bad = bad "row " nc ": class " $1 "; "
  n = split($10, m, ",")
  if (n != $9) bad = bad "class " $1 ": count " $9 ", " n " members; "
  for (i = 1; i <= n; i++) {
    if (m[i] !~ /^[0-9]+-[0-9]+$/) bad = bad "class " $1 ": member " m[i] "; "
    if (m[i] in seen) bad = bad m[i] " in two classes; "
    seen[m[i]] = 1
    links++
  }
  if ($4 != "NA") {
    t = R / 2 + 5e-6 * ($5 < 0 ? -$5 : $5)
    if (!($4 - t <= $7 + 0 && $7 - t <= $6 + 0 && $6 <= $8 + t && $8 - t < $5 + 0))
      bad = bad "class " $1 ": not lo <= min <= value <= max < hi; "
    if (havehi && $4 + 0 < prevhi) bad = bad "class " $1 ": overlaps; "
    havehi = 1; prevhi = $5 + 0
  } else if (havehi) bad = bad "class " $1 ": NA after a bounded class; "
}
END {
  if (!hdr) bad = "no header; "
  if (bad != "") { print "bad: " bad; exit 1 }
  s = ""
  for (k in seen) s = s " " k
  cmd = "tr ' ' '\\n' | sort -t- -k1,1n -k2,2n | tr '\\n' ' ' | sed 's/ *$//'"
  printf "ok: %d classes, %d links:", nc, links
  printf "%s", s | cmd
  close(cmd)
  print ""
}
