# SPDX-License-Identifier: GPL-3.0-or-later
# stop-check.awk: the `stop` flags of a measurement stream are well formed
# (msgperf(7), NAMES AND UNITS), for the testsuite.
#
#   awk -F '\t' -v eps=E -v qty=Q1,Q2.. -v min=N -v max=N \
#       [-v large=BYTES -v maxlarge=N] -f stop-check.awk FILE
#
# Q1, Q2 ... are the medians the stopping rule watched (each with Q_ci_lo
# and Q_ci_hi columns).  On every row:
#   - stop is converged, max_reps or time_cap;
#   - converged: the 95% interval of every Q is within eps of its median
#     (half-width <= eps |Q|), and reps >= min: a noisy size, whose
#     interval is wider, is never called converged.  The rule ran on the
#     unrounded times and the stream prints them rounded to
#     #@timer_resolution=R (each end of the interval and the median move
#     by R/2 at most), so the printed half-width may exceed eps |Q| by
#     (1 + eps) R/2;
#   - max_reps: reps is the cap (max, or maxlarge from `large` bytes on);
#   - time_cap: fewer reps than the cap (the cap is checked first).
# Prints "ok" or a line per broken rule (and exits 1); on stderr, how many
# rows stopped each way and the sizes that did not converge.
function fail(msg) { print "line " FNR ": " msg; bad = 1 }
BEGIN { nq = split(qty, q, ","); if (large == "") large = -1 }
/^#@timer_resolution=/ { res = substr($0, 21) + 0 }
/^#/ { next }
!header {
  for (i = 1; i <= NF; i++) col[$i] = i
  header = 1
  split("bytes reps stop", need, " ")
  for (i = 1; i <= nq; i++) { need[3 + 3 * i - 2] = q[i]; need[3 + 3 * i - 1] = q[i] "_ci_lo"; need[3 + 3 * i] = q[i] "_ci_hi" }
  for (i in need) if (!(need[i] in col)) { fail("no column " need[i]); exit 1 }
  next
}
{
  rows++
  b = $col["bytes"]; r = $col["reps"] + 0; s = $col["stop"]
  cap = (large >= 0 && b + 0 >= large + 0) ? maxlarge : max
  count[s]++
  if (s == "converged") {
    if (r < min + 0) fail("converged after " r " reps, fewer than " min)
    for (i = 1; i <= nq; i++) {
      v = $col[q[i]]; lo = $col[q[i] "_ci_lo"]; hi = $col[q[i] "_ci_hi"]
      if (v == "NA" || lo == "NA" || hi == "NA") { fail(q[i] " is NA at " b " bytes but converged"); continue }
      if ((hi - lo) / 2 > (eps * (v < 0 ? -v : v) + (1 + eps) * res / 2) * (1 + 1e-12))
        fail(q[i] " at " b " bytes: interval [" lo ", " hi "] wider than " eps " of " v " but stop=converged")
    }
  } else if (s == "max_reps") {
    if (r != cap + 0) fail("max_reps at " b " bytes after " r " reps, the cap is " cap)
    noisy = noisy " " b
  } else if (s == "time_cap") {
    if (r >= cap + 0) fail("time_cap at " b " bytes after " r " reps, the cap is " cap)
    noisy = noisy " " b
  } else
    fail("stop '" s "' at " b " bytes")
}
END {
  if (!header) { print "no header"; exit 1 }
  printf "stop-check: %d rows: %d converged, %d max_reps, %d time_cap; not converged:%s\n", rows, count["converged"], count["max_reps"], count["time_cap"], (noisy == "" ? " none" : noisy) > "/dev/stderr"
  if (bad) exit 1
  print "ok"
}
