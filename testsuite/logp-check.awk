# SPDX-License-Identifier: GPL-3.0-or-later
# logp-check.awk: consistency of a logp-measure stream (the testsuite's
# checker).  Prints "ok" and the number of rows, pairs and sizes per pair,
# or every problem found (and exits 1).
function bad(msg) { print "line " NR ": " msg; nbad++ }
function num(name) { return $(col[name]) + 0 }
BEGIN { FS = "\t"; nbad = 0; nrows = 0 }
/^#@L=/ { metaL = substr($0, 5) }
/^#@g0=/ { metag0 = substr($0, 6) }
/^#/ { next }
!hdr {
  hdr = 1
  n = split("src dst bytes origin os os_ci_lo os_ci_hi or or_ci_lo or_ci_hi g g_ci_lo g_ci_hi rtt rtt_ci_lo rtt_ci_hi reps stop L g0 check", want, " ")
  for (i = 1; i <= NF; i++) col[$i] = i
  for (i = 1; i <= n; i++) if (!(want[i] in col)) bad("no column " want[i])
  next
}
{
  nrows++
  key = $(col["src"]) " " $(col["dst"])
  if (!(key in last)) { npairs++; last[key] = -1; Lof[key] = $(col["L"]); g0of[key] = $(col["g0"]) }
  b = num("bytes")
  if (b <= last[key]) bad("sizes not increasing: " b " after " last[key])
  last[key] = b
  sizes[key]++
  count[b]++
  split("os or rtt g", q, " ")
  for (i = 1; i <= 4; i++) {
    if (!(num(q[i] "_ci_lo") <= num(q[i]) && num(q[i]) <= num(q[i] "_ci_hi")))
      bad(q[i] " outside its interval at " b)
  }
  if (num("rtt") <= 0) bad("rtt <= 0 at " b)
  if ($(col["L"]) != Lof[key] || $(col["g0"]) != g0of[key]) bad("L or g0 differ between rows")
  if (metaL != "" && npairs == 1 && $(col["L"]) != metaL) bad("L differs from #@L")
  if (metag0 != "" && npairs == 1 && $(col["g0"]) != metag0) bad("g0 differs from #@g0")
  if (num("reps") < 1) bad("reps < 1")
  s = $(col["stop"])
  if (s != "converged" && s != "max_reps" && s != "time_cap") bad("stop " s)
  o = $(col["origin"])
  if (o != "base" && o != "grown" && o != "refined") bad("origin " o)
  # g(m) >= o_s(m), g(m) >= o_r(m) within the intervals, or flagged.
  c = $(col["check"])
  ge_os = num("g_ci_hi") >= num("os_ci_lo"); ge_or = num("g_ci_hi") >= num("or_ci_lo")
  if (ge_os == (c ~ /g_lt_os/)) bad("check '" c "' wrong about g >= os at " b)
  if (ge_or == (c ~ /g_lt_or/)) bad("check '" c "' wrong about g >= or at " b)
  # L >= 0 and g(m) >= 0, or flagged.
  if ((num("L") < 0) != (c ~ /L_neg/)) bad("check '" c "' wrong about L >= 0")
  if ((num("g") < 0) != (c ~ /g_neg/)) bad("check '" c "' wrong about g >= 0 at " b)
  if (ge_os && ge_or && num("L") >= 0 && num("g") >= 0 && c != "ok") bad("check '" c "' at " b)
}
END {
  if (nbad) exit 1
  printf "ok: %d rows, %d pairs", nrows, npairs
  same = 1; first = ""
  for (k in sizes) { if (first == "") first = sizes[k]; else if (sizes[k] != first) same = 0 }
  if (npairs > 1) printf ", same sizes for every pair: %s", same ? "yes" : "no"
  per = ""
  for (b in count) { if (per == "") per = count[b]; else if (count[b] != per) per = "varies" }
  printf ", rows per size: %s\n", per
}
