# SPDX-License-Identifier: GPL-3.0-or-later
# comet-digits.awk: no value of a comet-run stream carries more digits
# than the measurement has (msgperf(7), NUMBERS).
#   - a statistic of the samples (t, t_mean, t_min, t_max, t_p05, t_p95,
#     t_ci_lo, t_ci_hi) has no decimal below the decade of one sample's
#     step, #@timer_resolution / (ops * divisor); the divisor (2 for a
#     round trip) is not in the stream, so one decade more than that of
#     #@timer_resolution / ops is allowed; the mean t_mean of reps
#     samples may go to the decade of that step / sqrt(reps);
#   - a value derived from times (MBps, per_s, tsync,
#     tcomm, tcomp, overlap, overlap_raw) has at most 6 significant digits.
# Needs digits.awk first (awk -f digits.awk -f THIS).
# Prints "ok: N values" or each offending value (and exits 1).
function decade_decimals(q,    d) {
  d = -int(log(q) / log(10) + (q < 1 ? -1 + 1e-9 : 1e-9))
  return d < 0 ? 0 : d
}
function bad(what) { print "line " NR ": " what; nbad++ }
BEGIN {
  FS = "\t"
  split("t t_mean t_min t_max t_p05 t_p95 t_ci_lo t_ci_hi", tl, " ")
  for (i in tl) istimer[tl[i]] = 1
  split("MBps per_s tsync tcomm tcomp overlap overlap_raw", dl, " ")
  for (i in dl) isderived[dl[i]] = 1
}
/^#@timer_resolution=/ { res = substr($0, 21) + 0; next }
/^#/ { next }
!hdr {
  hdr = 1
  if (!(res > 0)) { print "no #@timer_resolution before the header"; exit 1 }
  for (i = 1; i <= NF; i++) col[$i] = i
  if (!("ops" in col)) { print "no ops column"; exit 1 }
  next
}
{
  ops = $col["ops"]
  for (name in col) {
    v = $col[name]
    if (v == "NA") continue
    if (name in istimer && ops > 0) {
      n++
      q = res / ops
      if (name == "t_mean" && $col["reps"] > 1) q /= sqrt($col["reps"])
      if (decimals(v) > decade_decimals(q) + 1)
        bad(name " = " v ": finer than the step " q)
    } else if (name in isderived) {
      n++
      if (sigdigits(v) > 6) bad(name " = " v ": more than 6 significant digits")
    }
  }
}
END {
  if (nbad) exit 1
  if (!hdr) { print "no header"; exit 1 }
  print "ok: " n + 0 " values"
}
