# SPDX-License-Identifier: GPL-3.0-or-later
# median-launch.awk: one measurement out of N launches of the same
# command (files LAUNCH1 .. LAUNCHN, N odd), so that the prediction and
# the measurement it is compared with do not each stand on a single
# launch.  On the test machine (a 2-core virtual machine) a launch's
# speed is a state of its own: three launches of one command in a row
# measured a 1 MiB echo on shared memory at 60.6, 56.0 and 70.5 us
# (comet-run) and 51.9, 60.3 and 61.9 (logp-measure), each launch's
# samples close to its own median, while the medians of the three agree
# (60.6 against 60.3).
#
#   awk -v mode=rows -v key=kernel,bytes,hops? -v value=t -f median-launch.awk L1 L2 L3
#     each row (by the columns of KEY, those ending in ? optional)
#     taken whole from the launch whose
#     VALUE is the median of that row's; the rows in the first file's
#     order (comet-run: every point an independent measurement)
#   awk -v mode=launch -v value=rtt -v min_bytes=1024 -v where=origin=base -f median-launch.awk L1 L2 L3
#     one launch taken whole: the launch nearest the medians, the least
#     sum of |log(VALUE / the median of the launches' VALUE)| over the
#     rows every launch has (by KEY, default bytes) with bytes >=
#     MIN_BYTES and WHERE's column equal to its value (logp-measure's
#     per-size rows: the sizes its procedure refined differ from launch
#     to launch, and a table mixed from several launches would be no
#     launch's); of equal ones the first.  With -v at=S1,S2,... only
#     the rows of those sizes count (the sizes a comparison reads), or,
#     when no launch-common row has one of them, all the rows above.
#
# The metadata (#@ lines) is the chosen launch's (mode launch) or the
# first file's (mode rows), followed by #@launches.  A file without the
# columns, a row missing from a launch (mode rows), a VALUE that is not
# a positive number, or an even N is an error naming the file and line.

BEGIN {
  FS = OFS = "\t"
  if (mode != "rows" && mode != "launch")
    fail("", 0, "mode must be rows or launch, not '" mode "'")
  if (key == "") key = "bytes"
  nkey = split(key, kc, ",")
  if (value == "") fail("", 0, "no value column (-v value=NAME)")
  if (where != "" && split(where, wc, "=") != 2)
    fail("", 0, "where must be COLUMN=VALUE, not '" where "'")
  if (at != "") {
    nat = split(at, atl, ",")
    for (i = 1; i <= nat; i++) atset[atl[i] + 0] = 1
  }
  n = ARGC - 1
  if (n < 1 || n % 2 == 0)
    fail("", 0, "an odd number of launches is needed, not " n)
}

function fail(file, line, msg) {
  if (file != "") msg = file (line > 0 ? ":" line : "") ": " msg
  print "median-launch.awk: " msg > "/dev/stderr"
  err = 1
  exit 1
}

function col(name) {
  if (!(name in c)) fail(FILENAME, FNR, "no column '" name "' in the header")
  return c[name]
}

FNR == 1 { f++; h = 0; nmeta[f] = 0; nrow[f] = 0 }
/^#/ {
  if (!h) meta[f, ++nmeta[f]] = $0
  next
}
!h++ {
  delete c
  for (i = 1; i <= NF; i++) c[$i] = i
  header[f] = $0
  vcol = col(value)
  # a key column ending in ? may be missing (comet-run writes hops only
  # when a kernel has them)
  for (i = 1; i <= nkey; i++)
    if (kc[i] ~ /\?$/) { nm = substr(kc[i], 1, length(kc[i]) - 1); kcol[i] = (nm in c) ? c[nm] : 0 }
    else kcol[i] = col(kc[i])
  if (mode == "launch") bcol = col("bytes")
  wcol = where != "" ? col(wc[1]) : 0
  next
}
{
  k = kcol[1] ? $kcol[1] : ""
  for (i = 2; i <= nkey; i++) k = k "," (kcol[i] ? $kcol[i] : "")
  if ((f, k) in row) fail(FILENAME, FNR, "a second row of " key " '" k "'")
  row[f, k] = $0
  rows[f, ++nrow[f]] = k
  # rows mode compares every row; launch mode the rows it scores by
  use = mode == "rows" || ($bcol + 0 >= min_bytes + 0 && (!wcol || $wcol == wc[2]))
  if (!use) next
  if (mode == "launch" && ($bcol + 0) in atset) atrow[f, k] = 1
  v = $vcol
  if (v !~ /^[0-9.]+([eE][-+]?[0-9]+)?$/ || v + 0 <= 0)
    fail(FILENAME, FNR, "column " vcol " (" value "): '" v "' is not a positive number")
  val[f, k] = v + 0
}

# The index among 1..n of the median of x[1..n] (n odd).
function median_of(x,    i, j, t, idx) {
  for (i = 1; i <= n; i++) idx[i] = i
  for (i = 2; i <= n; i++) {
    t = idx[i]
    for (j = i - 1; j >= 1 && x[idx[j]] > x[t]; j--) idx[j + 1] = idx[j]
    idx[j + 1] = t
  }
  return idx[(n + 1) / 2]
}

END {
  if (err) exit 1
  if (f != n) fail("", 0, "an empty launch among the " n " files")
  for (g = 1; g <= n; g++)
    if (!(g in header)) fail(ARGV[g], 0, "no header row")
  if (mode == "rows") {
    for (g = 2; g <= n; g++)
      for (r = 1; r <= nrow[g]; r++)
        if (!((1, rows[g, r]) in row))
          fail(ARGV[g], 0, "a row of " key " '" rows[g, r] "' the first launch does not have")
    for (r = 1; r <= nrow[1]; r++)
      for (g = 2; g <= n; g++)
        if (!((g, rows[1, r]) in val))
          fail(ARGV[g], 0, "no row of " key " '" rows[1, r] "' (the first launch has one)")
    for (i = 1; i <= nmeta[1]; i++) print meta[1, i]
    printf "#@launches=%d (each row the launch whose %s is the median)\n", n, value
    print header[1]
    for (r = 1; r <= nrow[1]; r++) {
      k = rows[1, r]
      for (g = 1; g <= n; g++) x[g] = val[g, k]
      print row[median_of(x), k]
    }
    exit 0
  }
  # The launch nearest the rows' medians: the least sum over the common
  # rows of |log(VALUE / the row's median over the launches)| (a launch
  # typical at every size, not one whose slow and fast sizes cancel).
  #
  # The rows every launch has, and how many of them are at the sizes
  # of AT (when none is, all of them are scored).
  ncommon = nat_common = 0
  for (r = 1; r <= nrow[1]; r++) {
    k = rows[1, r]
    if (!((1, k) in val)) continue
    for (g = 2; g <= n; g++)
      if (!((g, k) in val)) break
    if (g <= n) continue
    common[++ncommon] = k
    if ((1, k) in atrow) nat_common++
  }
  m = 0
  for (g = 1; g <= n; g++) score[g] = 0
  for (ci = 1; ci <= ncommon; ci++) {
    k = common[ci]
    if (nat_common && !((1, k) in atrow)) continue
    m++
    for (g = 1; g <= n; g++) x[g] = val[g, k]
    med = log(x[median_of(x)])
    for (g = 1; g <= n; g++) {
      d = log(x[g]) - med
      score[g] += d < 0 ? -d : d
    }
  }
  if (!m) fail(ARGV[1], 0, "no row every launch has to compare them by")
  best = 1
  for (g = 2; g <= n; g++)
    if (score[g] < score[best]) best = g
  for (i = 1; i <= nmeta[best]; i++) print meta[best, i]
  printf "#@launches=%d (this one launch %d: the nearest the median %s of the launches over %d common rows%s)\n", n, best, value, m, \
    at == "" ? "" : nat_common ? " at " at : ", none at " at
  print header[best]
  for (r = 1; r <= nrow[best]; r++) print row[best, rows[best, r]]
}
