# SPDX-License-Identifier: GPL-3.0-or-later
# logp-digits.awk: no measured value of a logp-measure stream carries more
# digits than the measurement has (msgperf(7), NUMBERS).
#   - a time read from the timer (os, or, rtt, or_exp and their intervals,
#     a --raw sample t, #@timer_overhead) has no decimal below the decade
#     of #@timer_resolution (0.01 us: at most 2 decimals);
#   - a derived value (g and its interval, L, g0, g_sat and its interval,
#     #@L, #@g0) has at most 6 significant digits;
#   - --classes: value, min and max are timer readings when the param
#     column is os, or or rtt (value may be the mean of two: 6 digits
#     then), derived values when it is L, g0 or g.
# Needs digits.awk first (awk -f digits.awk -f THIS).
# Prints "ok: N values, at most D decimals, derived at most 6 significant
# digits", or each offending value (and exits 1).
function bad(what) { print "line " NR ": " what; nbad++ }
function timer(name, t) {
  if (t == "NA") return
  n++
  if (decimals(t) > maxdec) bad(name " = " t ": more decimals than the resolution " res)
}
function derived(name, t) {
  if (t == "NA") return
  n++
  if (sigdigits(t) > 6) bad(name " = " t ": more than 6 significant digits")
}
BEGIN {
  FS = "\t"
  split("os os_ci_lo os_ci_hi or or_ci_lo or_ci_hi rtt rtt_ci_lo rtt_ci_hi or_exp or_exp_ci_lo or_exp_ci_hi t", tl, " ")
  for (i in tl) istimer[tl[i]] = 1
  split("g g_ci_lo g_ci_hi L g0 g_sat g_sat_ci_lo g_sat_ci_hi", dl, " ")
  for (i in dl) isderived[dl[i]] = 1
}
/^#@timer_resolution=/ {
  res = substr($0, 21) + 0
  if (!(res > 0)) { print "line " NR ": bad timer resolution"; fatal = 1; exit 1 }
  maxdec = -int(log(res) / log(10) + (res < 1 ? -1 + 1e-9 : 1e-9))
  if (maxdec < 0) maxdec = 0   # whole numbers: trailing zeros cannot be told
  next
}
/^#@timer_overhead=/ { over = substr($0, 18); next }
/^#@(L|g0)=/ { p = index($0, "="); derived(substr($0, 3, p - 3), substr($0, p + 1)); next }
/^#/ { next }
!hdr {
  hdr = 1
  if (res == "") { print "no #@timer_resolution before the header"; fatal = 1; exit 1 }
  if (over != "") timer("timer_overhead", over)
  for (i = 1; i <= NF; i++) { if ($i in istimer) tc[i] = $i; if ($i in isderived) dc[i] = $i; col[$i] = i }
  next
}
{
  for (i in tc) timer(tc[i], $i)
  for (i in dc) derived(dc[i], $i)
  if ("param" in col && "value" in col) {
    p = $col["param"]
    if (p == "os" || p == "or" || p == "rtt") {
      timer("min", $col["min"]); timer("max", $col["max"])
      if (decimals($col["value"]) > maxdec) derived("value", $col["value"])
      else timer("value", $col["value"])
    } else {
      derived("value", $col["value"]); derived("min", $col["min"])
      derived("max", $col["max"])
    }
  }
}
END {
  if (fatal || nbad) exit 1
  if (!hdr) { print "no header"; exit 1 }
  printf "ok: %d values, at most %d decimals, derived at most 6 significant digits\n", n, maxdec
}
