# SPDX-License-Identifier: GPL-3.0-or-later
# comet-run-check.awk: invariants of a comet-run stream, for the testsuite.
#
#   awk -F '\t' -v grow=KERNEL,KERNEL... -f comet-run-check.awk FILE
#
# Prints "KERNEL ROWS" per kernel in order of appearance, then "ok", or a
# line per broken invariant (and exits 1).  Columns are found by name.
# Checked on every row: t > 0 (unless veclen is 0), t_min <= t_p05 <= t <= t_p95 (a median lies
# between percentiles), t_ci_lo <= t <= t_ci_hi, reps >= 1,
# 0 <= t_min <= t_mean <= t_max and t <= t_max, ops a count >= 1, stop one of
# the three names, MBps >= 0, overlap NA or in [0, 100] and agreeing with
# overlap_raw and overlap_flag, tcomp > 0 (unless
# veclen is 0).  For the kernels in GROW, the best time t_min at the
# largest size (order, else veclen, else bytes) is larger than at the
# smallest, in each group of equal hops, direction and load (the best
# time, because a test machine shared with other work delays some
# samples by whole scheduler time slices, and a short test takes few).
function num(name) { return (name in col) ? $col[name] : "NA" }
function fail(msg) { print "line " FNR ": " msg; bad = 1 }
BEGIN { n = split(grow, g, ","); for (i = 1; i <= n; i++) growing[g[i]] = 1 }
/^#/ { next }
!header { for (i = 1; i <= NF; i++) col[$i] = i; header = 1; next }
{
  k = $col["kernel"]
  if (!(k in rows)) order[++nk] = k
  rows[k]++
  t = num("t") + 0
  # A sum of no elements costs nothing beyond the subtracted loop.
  if (!(t > 0) && num("veclen") != "0") fail(k ": t " num("t") " is not positive")
  if (!(num("t_min") + 0 <= num("t_p05") + 0 && num("t_p05") + 0 <= t \
        && t <= num("t_p95") + 0)) fail(k ": percentiles out of order")
  if (!(num("t_ci_lo") + 0 <= t && t <= num("t_ci_hi") + 0))
    fail(k ": t outside its interval")
  if (!(num("reps") >= 1)) fail(k ": reps " num("reps"))
  # The other statistics of the same samples, and the count behind each.
  if ("t_mean" in col && !(num("t_min") + 0 >= 0 \
        && num("t_min") + 0 <= num("t_mean") + 0 \
        && num("t_mean") + 0 <= num("t_max") + 0 \
        && t <= num("t_max") + 0))
    fail(k ": t_min " num("t_min") ", t_mean " num("t_mean") ", t_max " \
         num("t_max") " out of order")
  if ("ops" in col && !(num("ops") >= 1 && num("ops") == int(num("ops"))))
    fail(k ": ops " num("ops"))
  s = num("stop")
  if (s != "converged" && s != "max_reps" && s != "time_cap")
    fail(k ": stop '" s "'")
  if (num("MBps") != "NA" && num("MBps") < 0) fail(k ": MBps " num("MBps"))
  o = num("overlap")
  if (o != "NA" && !(o >= 0 && o <= 100)) fail(k ": overlap " o)
  # The clamped share against the raw one and its flag.
  if ("overlap_raw" in col) {
    r = num("overlap_raw"); f = num("overlap_flag")
    if ((r == "NA") != (o == "NA") || (r == "NA") != (f == "NA") \
        || (f == "in_range" && !(r + 0 == o + 0 && r >= 0 && r <= 100)) \
        || (f == "below_0" && !(r < 0 && o == 0)) \
        || (f == "above_100" && !(r > 100 && o == 100)) \
        || (f != "NA" && f != "in_range" && f != "below_0" && f != "above_100"))
      fail(k ": overlap " o ", overlap_raw " r ", overlap_flag " f)
  }
  if (k == "overlap" && num("veclen") != "0" && !(num("tcomp") > 0))
    fail(k ": tcomp " num("tcomp"))
  if (k in growing) {
    x = num("order"); if (x == "NA") x = num("veclen"); if (x == "NA") x = num("bytes")
    key = k SUBSEP num("hops") SUBSEP num("direction") SUBSEP num("load")
    b = num("t_min") + 0
    if (!(key in lo) || x + 0 < lo[key]) { lo[key] = x + 0; tlo[key] = b }
    if (!(key in hi) || x + 0 > hi[key]) { hi[key] = x + 0; thi[key] = b }
  }
}
END {
  if (!header) { print "no header"; exit 1 }
  for (key in lo)
    if (hi[key] > lo[key] && !(thi[key] > tlo[key])) {
      split(key, p, SUBSEP)
      print p[1] " hops=" p[2] " " p[3] ": t_min(" hi[key] ")=" thi[key] \
            " is not above t_min(" lo[key] ")=" tlo[key]
      bad = 1
    }
  for (i = 1; i <= nk; i++) print order[i], rows[order[i]]
  if (bad) exit 1
  print "ok"
}
