#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# examples/quickstart.sh OUTDIR: the main job of ./quickstart.
#
# Measures this machine with 2 MPI ranks (logp-measure), fits the
# hyperbolic model to the measured round trips (hyper-reduce), predicts
# contention on a 64-node 2-D mesh with the measured LogGP parameters
# (loGPC-solve), predicts a Diamond DAG with them (dag-predict), draws the
# measured curve with the fitted model (plotgen), and prints a summary.
# Every number printed here comes from those files.
set -eu
out=${1:-quickstart-out}
mkdir -p "$out"

# The launcher: $MPIEXEC if set, else mpiexec; OpenMPI's needs
# --oversubscribe on a machine with a single core.
if test -z "${MPIEXEC:-}"; then
  MPIEXEC=mpiexec
  if mpiexec --version 2>/dev/null | grep -Eqi 'open ?mpi|openrte'; then
    MPIEXEC="mpiexec --oversubscribe"
  fi
fi
step () { printf 'quickstart: %s\n' "$*" >&2; }
# col FILE NAME: the value of column NAME in the first data row of FILE.
col () {
  awk -F '\t' -v name="$2" '
    /^#/ { next }
    !h { for (i = 1; i <= NF; i++) if ($i == name) c = i; h = 1; next }
    { print (c ? $c : "NA"); exit }' "$1"
}
# at FILE BYTES NAME: column NAME of the row whose bytes column is BYTES.
at () { at_col "$1" bytes "$2" "$3"; }
# at_col FILE KEY VALUE NAME: column NAME of the row whose KEY column is VALUE.
at_col () {
  awk -F '\t' -v key="$2" -v want="$3" -v name="$4" '
    /^#/ { next }
    !h { for (i = 1; i <= NF; i++) { if ($i == name) c = i; if ($i == key) k = i }; h = 1; next }
    $k == want { print $c; exit }' "$1"
}
fmt () { awk -v v="$1" 'BEGIN { if (v == "NA" || v == "") print "NA"; else printf "%.3g", v }'; }

# logp-measure's default sizes: from 1 byte up to the bandwidth regime
# (the sweep grows while g(m)/m still falls), where G is fitted over the
# last protocol segment.
step "measuring LogP/LogGP parameters with 2 ranks (1 byte to the bandwidth regime)"
$MPIEXEC -np 2 logp-measure > "$out/logp.tsv"
$MPIEXEC -np 2 logp-measure --summary > "$out/loggp.tsv"

step "fitting the hyperbolic model T(x) = a^2/(a+bx) + bx to the round trips"
hyper-reduce fit -q --time-col rtt "$out/logp.tsv" > "$out/hyperbolic-fit.tsv"
hyper-reduce fit -q --time-col rtt --segments auto "$out/logp.tsv" \
  > "$out/hyperbolic-segments.tsv"

# The models need L, o, g, G (and os, or): logp-measure gives them whenever
# it measured their inputs, and its check column names the rule behind any
# value the model's consistency did not support as measured (g raised to
# the overheads, L clamped at 0, G from a fallback: logp-measure(1)).
check=$(col "$out/loggp.tsv" check)
missing=
for p in L o g G os or; do
  v=$(col "$out/loggp.tsv" $p)
  case $v in NA|'') missing="$missing $p" ;; esac
done
rm -f "$out/contention.tsv" "$out/diamond.tsv"
# The Diamond DAG of LoGPC (eq. (15)'s DAG) under the measured LogGP
# parameters, simulated at every block count of the sweep (1, 2, 4, ...,
# 1024 per stripe; 0.01 us a task): the summary reads its best block
# count from this run, and "Try next" prints the same command.
diamond="dag-predict --gen diamond -P 64 -n 1024 -w 0.01 --sweep blocks=1:1024 --model loggp --params $out/loggp.tsv"
if test -z "$missing"; then
  # Long-message overheads and the memory gap per byte are not measured by
  # logp-measure: the 1-byte overheads and the network G stand in for them.
  os=$(col "$out/loggp.tsv" os); or=$(col "$out/loggp.tsv" or)
  G=$(col "$out/loggp.tsv" G)
  step "predicting contention on an 8x8 mesh (64 ranks, 10 us between messages)"
  awk 'BEGIN { print "bytes"; for (b = 8; b <= 1048576; b *= 8) print b }' \
    | loGPC-solve transfer --params "$out/loggp.tsv" --dims 8x8 -P 64 -T 10 \
        --osl "$os" --orl "$or" --Gm "$G" -a 0 > "$out/contention.tsv"

  # The summary's answer and the "Try next" line are this one command.
  step "simulating a Diamond DAG (1024x1024 tasks, 64 ranks) at 1 to 1024 blocks"
  $diamond > "$out/diamond.tsv"
else
  step "skipping the contention and Diamond DAG predictions: the LogGP summary has no value for$missing ($check)"
fi

step "drawing the measured round trip with the model fitted per protocol segment"
plotgen -x bytes -y rtt --fit hyperbolic --segments auto --logx --logy \
  --title 'round trip measured by logp-measure, hyperbolic fit per segment' \
  -o "$out/rtt.png" "$out/logp.tsv"

# ------------------------------------------------------------ summary

L=$(col "$out/loggp.tsv" L)
os=$(col "$out/loggp.tsv" os); or=$(col "$out/loggp.tsv" or)
g=$(col "$out/loggp.tsv" g); G=$(col "$out/loggp.tsv" G)
a=$(col "$out/hyperbolic-fit.tsv" a); b=$(col "$out/hyperbolic-fit.tsv" b)
r2=$(col "$out/hyperbolic-fit.tsv" r2)
nseg=$(grep -vc '^#' "$out/hyperbolic-segments.tsv"); nseg=$((nseg - 1))
fitnote=$(awk -v r="$r2" 'BEGIN { if (r == "NA" || r + 0 < 0.9) print "  One hyperbola fits the whole range poorly: the curve changes protocol on the way."; }')
# MB/s from us/byte: 1/x bytes per microsecond is 1/x MB/s.
per_byte () { awk -v v="$1" 'BEGIN { if (v != "NA" && v + 0 > 0) printf "about %.0f MB/s", 1 / v; else print "no bandwidth" }'; }
bw=$(per_byte "$G"); bwb=$(per_byte "$b")
if test -f "$out/contention.tsv"; then
  t8=$(at "$out/contention.tsv" 8 t_e2e); t8c=$(at "$out/contention.tsv" 8 t_e2e_c)
  t32k=$(at "$out/contention.tsv" 32768 t_e2e); t32kc=$(at "$out/contention.tsv" 32768 t_e2e_c)
  mk=$(at_col "$out/diamond.tsv" blocks 16 makespan)
  bbest=$(sed -n 's/^#@sweep_best=blocks=//p' "$out/diamond.tsv" | tail -1)
  mkbest=$(at_col "$out/diamond.tsv" blocks "$bbest" makespan)
  models="What it would mean on a 64-node 8x8 mesh with a message every 10 us (loGPC-solve):
  8-byte message:   $(fmt "$t8") us without contention, $(fmt "$t8c") us with it
  32 KiB message:   $(fmt "$t32k") us without contention, $(fmt "$t32kc") us with it

A 1024x1024 Diamond DAG on 64 ranks, 0.01 us a task (dag-predict, LogGP simulation):
  16 blocks per stripe take $(fmt "$mk") us; of 1, 2, 4, ..., 1024 blocks the best is $bbest ($(fmt "$mkbest") us)."
else
  models="The contention and Diamond DAG predictions were skipped: the LogGP summary
has no value for$missing ($check)."
fi

# Commands to try next, each runnable as printed (the testsuite runs them).
trynext="  $MPIEXEC -np 2 --mca btl self,tcp logp-measure --start-bytes 65536 --max-bytes 65536 > $out/logp-tcp.tsv   # the TCP path instead of shared memory
  loGPC-solve solve --explain --params $out/loggp.tsv --dims 8x8 -T 10 -B 1024   # every step of the contention model with its equation"
if test -f "$out/diamond.tsv"; then
  trynext="$trynext
  $diamond   # the Diamond DAG above: #@sweep_best is the best block count"
fi
trynext="$trynext
  tsv-check --table $out/logp.tsv   # the measurement for a person: aligned, units, GB/s (every program has --human)
  man msgperf   # what every program shares: stream, numbers, units, options, exit status
  man logp-measure   # each program has its own page: man hyper-reduce, man plotgen and so on"

# L clamped to 0 (Table 1 gave a value below 0, logp-measure(1)): say so
# rather than print a latency of 0.
L=$(col "$out/loggp.tsv" L)
Ltab=$(col "$out/loggp.tsv" L_table)
Ltol=$(sed -n 's/^#@check_L=.*(tolerance \([^)]*\)).*/\1/p' "$out/loggp.tsv" | tail -1)
Ltext="$(fmt "$L") us"
if awk -v l="$L" -v t="$Ltab" 'BEGIN { exit !(l == 0 && t != "NA" && t != "" && t + 0 < 0) }'; then
  case $check in
    *L_clamped*) Ltext="0 us, clamped (Table 1 gives $(fmt "$Ltab") us, below -$(fmt "$Ltol"): L_clamped)" ;;
    *) Ltext="< $(fmt "$Ltol") us, within the tolerance of 0 (Table 1 gives $(fmt "$Ltab") us)" ;;
  esac
fi

cat <<SUMMARY

msgperf quickstart: this machine, 2 MPI ranks ($(grep -m1 '^#@mpi_library=' "$out/logp.tsv" | cut -d= -f2))

What was measured (logp-measure, fast method of Kielmann, Bal and Verstoep):
  latency L                  $Ltext   (time on the wire for a tiny message)
  send overhead o_s          $(fmt "$os") us   (CPU time to hand a message to MPI)
  receive overhead o_r       $(fmt "$or") us   (CPU time to take one out)
  gap g                      $(fmt "$g") us   (least time between two small messages)
  gap per byte G             $(fmt "$G") us/byte ($bw for large messages)
  flags                      $check   (ok, or the rules that gave a value: man logp-measure)

What the hyperbolic model makes of the round trips (hyper-reduce fit):
  a = $(fmt "$a") us (small-message time), b = $(fmt "$b") us/byte ($bwb), R^2 = $(fmt "$r2")
$fitnote
  A piecewise fit finds $nseg segments, one per protocol (hyperbolic-segments.tsv).

$models

Files in $out/: $(cd "$out" && ls | grep -vx prefix | tr '\n' ' ')
  logp.tsv: per-size os, or, g, rtt with 95% intervals; loggp.tsv: the LogGP
  summary; rtt.png: the measured round trip with the fitted curve.

Try next (each line runs as printed, once the programs are on PATH):
$trynext
SUMMARY
