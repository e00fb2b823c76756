# SPDX-License-Identifier: GPL-3.0-or-later
# summary.awk: median and worst absolute relative error of validation.tsv
# per platform x model x network, oversubscribed points apart, over all
# sizes and over the messages of at least 1 KiB.
BEGIN { FS = OFS = "\t" }
/^#/ { next }
!h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
$c["error"] != "NA" {
  e = $c["error"] < 0 ? -$c["error"] : $c["error"]
  key = $c["platform"] OFS $c["model"] OFS $c["network"] OFS $c["oversubscribed"]
  if (!(key in n)) keys[++nk] = key
  all[key, ++n[key]] = e
  if ($c["bytes"] >= 1024) big[key, ++nb[key]] = e
}
function median_worst(a, key, m,    i, j, t, v) {
  if (m == 0) return "NA" OFS "NA"
  for (i = 1; i <= m; i++) v[i] = a[key, i]
  for (i = 2; i <= m; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
  return sprintf("%.3g", (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2) OFS sprintf("%.3g", v[m])
}
END {
  print "platform", "model", "network", "oversubscribed", "points", "median_abs_error", "worst_abs_error", "points_1k", "median_abs_error_1k", "worst_abs_error_1k"
  for (k = 1; k <= nk; k++)
    print keys[k], n[keys[k]], median_worst(all, keys[k], n[keys[k]]), nb[keys[k]] + 0, median_worst(big, keys[k], nb[keys[k]] + 0)
}
