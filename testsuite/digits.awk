# SPDX-License-Identifier: GPL-3.0-or-later
# digits.awk: the digit counts of a printed number, shared by the
# testsuite's checkers of measured streams (comet-digits.awk,
# logp-digits.awk: awk -f digits.awk -f CHECKER).
# decimals("1.25e-3") = 5: the decimal places of the plain notation.
function decimals(t,    m, e, p) {
  m = t; e = 0
  if (match(t, /[eE]/)) { m = substr(t, 1, RSTART - 1); e = substr(t, RSTART + 1) + 0 }
  p = index(m, ".")
  return (p ? length(m) - p : 0) - e
}
# sigdigits("0.001230") = 4, sigdigits("1200") = 2.
function sigdigits(t,    m, frac) {
  m = t
  if (match(m, /[eE]/)) m = substr(m, 1, RSTART - 1)
  sub(/^[-+]/, "", m)
  frac = index(m, ".") > 0
  gsub(/\./, "", m)
  sub(/^0+/, "", m)
  if (!frac) sub(/0+$/, "", m)
  return length(m)
}
