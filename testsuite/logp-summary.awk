# SPDX-License-Identifier: GPL-3.0-or-later
# logp-summary.awk: completeness and consistency of a logp-measure
# --summary stream (the testsuite's checker).  Prints "ok: N rows" or every
# problem found (and exits 1).  The rules are those of logp-measure(1):
# every parameter a number (G and G_intercept NA only where the fallback
# is not positive either), each flag where its rule says.
function bad(msg) { print "line " NR ": " msg; nbad++ }
function v(name) { return $(col[name]) }
function near(a, b) { return a - b <= 1e-5 * (a < 0 ? -a : a) + 1e-12 && b - a <= 1e-5 * (a < 0 ? -a : a) + 1e-12 }
function has(flag) { return ("," v("check") ",") ~ ("," flag ",") }
BEGIN { FS = "\t"; nbad = 0; nrows = 0
        known = ",ok,g_raised,L_clamped,G_nonlinear,G_nonpos,G_few,G_fallback,cpu_shared,G_offset," }
/^#/ { next }
!hdr {
  hdr = 1
  n = split("src dst P L o g G os or g_raw L_table G_intercept S check", want, " ")
  for (i = 1; i <= NF; i++) col[$i] = i
  for (i = 1; i <= n; i++) if (!(want[i] in col)) bad("no column " want[i])
  spread = "runs" in col
  next
}
{
  nrows++
  split("L o g G os or g_raw L_table G_intercept", q, " ")
  # G and G_intercept NA only as logp-measure(1) says: the fallback
  # itself <= 0 (a disturbed sweep of a few bytes)
  gna = has("G_fallback") && v("G") == "NA" && v("G_intercept") == "NA"
  for (i = 1; i <= 9; i++)
    if (v(q[i]) !~ /^-?[0-9][0-9.]*(e[-+]?[0-9]+)?$/ && !(gna && q[i] ~ /^G/)) bad(q[i] " is not a number: '" v(q[i]) "'")
  # S: bytes, measured unless --no-eager
  if (v("S") !~ /^([0-9]+|NA)$/) bad("S is not a byte count: '" v("S") "'")
  if (nbad) next
  nf = split(v("check"), f, ",")
  for (i = 1; i <= nf; i++) if (index(known, "," f[i] ",") == 0) bad("unknown flag " f[i])
  if (!gna && !(v("G") > 0)) bad("G <= 0")
  if (!(v("L") >= 0)) bad("L < 0")
  if (spread) {
    # Medians over the runs: within their range (the per-run identities
    # below need not hold for medians taken one column at a time).
    split("L o g G", p, " ")
    for (i = 1; i <= 4; i++)
      if (!(v(p[i] "_min") <= v(p[i]) && v(p[i]) <= v(p[i] "_max")))
        bad(p[i] " outside [" p[i] "_min, " p[i] "_max]")
    if (v("runs") !~ /^[1-9][0-9]*$/) bad("runs is not a count")
    next
  }
  if (!near(v("o"), (v("os") + v("or")) / 2)) bad("o is not (os + or)/2")
  gmax = v("g_raw") + 0; if (v("os") > gmax) gmax = v("os") + 0; if (v("or") > gmax) gmax = v("or") + 0
  if (!near(v("g"), gmax)) bad("g is not max(g_raw, os, or)")
  if (!near(v("L"), v("L_table") > 0 ? v("L_table") : 0)) bad("L is not max(0, L_table)")
  if (has("g_raised") && !(v("g") > v("g_raw"))) bad("g_raised but g = g_raw")
  if (has("L_clamped") && !(v("L_table") < 0 && v("L") == 0)) bad("L_clamped but L_table >= 0")
  if (has("G_fallback") && !gna && v("G_intercept") != 0) bad("G_fallback with an intercept")
}
END {
  if (!hdr) bad("no header")
  if (nbad) exit 1
  print "ok: " nrows " rows"
}
