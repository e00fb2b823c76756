# SPDX-License-Identifier: GPL-3.0-or-later
# trace-times.awk: the times of a msgperf-trace dump (testsuite/msgperf-trace.at).
# Per rank: every t_end >= t_start, t_start never goes back, compute (the
# time outside MPI before a call) is NA only on the first record and never
# negative.  Prints each offending row; exit status 1 if any.
BEGIN { FS = "\t"; r = -1 }
/^#/ { next }
!h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
$c["rank"] != r { r = $c["rank"]; last = -1; first = 1 }
{
  ts = $c["t_start"]; te = $c["t_end"]; comp = $c["compute"]
  if (te + 0 < ts + 0) { print "t_end < t_start: " $0; bad = 1 }
  if (ts + 0 < last) { print "t_start goes back: " $0; bad = 1 }
  if (first != (comp == "NA") || (!first && comp + 0 < 0)) {
    print "compute: " $0; bad = 1
  }
  last = ts + 0; first = 0
}
END { exit bad }
