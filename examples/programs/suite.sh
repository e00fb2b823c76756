#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# suite.sh: trace each program of PROGS once over shared memory, then on
# every platform of PLATFORMS measure logp-measure's parameters, predict
# the trace with them (dag-predict), and run the program LAUNCHES times.
#
#   suite.sh OUTDIR [PLATFORM...]     (default: shm tcp shaped)
#
# Writes OUTDIR/results.tsv: program, ranks, platform, recipe,
# predicted_us, and the measured launches' median and range, in us.
# PROGS (default "halo ring netpipe", netpipe when NPopenmpi is
# installed), NP (ranks, default 2; above 2 the ranks are oversubscribed
# and NetPIPE, a 2-rank program, is left out), LAUNCHES (default 5),
# TRACES (traces of each program, default 3: the one whose ranks
# computed least is replayed, as a rank descheduled by other work shows
# as computation), DAG, LOGP, TRACE (the programs, default from PATH),
# SMPIPLAT (smpi-platform), MPIEXEC (default mpiexec).  With smpicc and
# smpirun (SimGrid), each program whose source is here is also compiled
# with smpicc and run by SMPI on the platform smpi-platform makes of the
# same per-size rows (recipe smpi).
#
# NAS=DIR: also NAS IS (class W), from the C sources of SimGrid's
# examples/smpi/NAS (is.c, nas_common.c, nas_common.h; not part of
# msgperf: fetch them), built with mpicc (its SimGrid-only headers
# replaced by two lines made here) and with smpicc; timed by
# libmpitime.so, and under SMPI by the simulated time smpirun reports.
#
# halo and ring time themselves (the slowest rank from the end of
# MPI_Init, ranklines.h); NetPIPE (NPopenmpi, Debian netpipe-openmpi:
# ping-pongs of 1 byte to 64 KiB, 50 repetitions each, so that every
# launch does the same work) is timed from MPI_Init to MPI_Finalize by
# libmpitime.so (mpitime.c), preloaded.
#
# PLAUNCHES (default 3): launches of logp-measure's per-size rows
# (msgperf-launch) for recipe plogp-mpi-interval, the plogp-mpi recipe
# predicted once per launch (dag-predict --interval): the median, with
# the least and largest in predicted_min_us and predicted_max_us.
#
# Recipes: loggp-summary, LogGP from logp-measure --summary (its o from
# 1-byte messages); plogp-thread, the per-size rows with the platform's
# eager limit as S and a progress thread; plogp-mpi, the same with
# --progress-rule=mpi (Open MPI's rule, the recipe for traces).
# S is Open MPI's eager limit of the platform's transport (ompi_info).
# shaped: TCP over a private loopback shaped by tbf to 100 Mbit/s, MTU
# 1500 (needs root: unshare -n, tc).
set -e
inside=
test "$1" = --inside && { inside=1; shift; }
out=$1
shift
test $# -gt 0 || set -- shm tcp shaped
NP=${NP:-2}
if test -z "${PROGS-}"; then
  PROGS='halo ring'
  command -v NPopenmpi > /dev/null && test "$NP" = 2 && PROGS="$PROGS netpipe"
  test -n "${NAS-}" && PROGS="$PROGS is"
fi
LAUNCHES=${LAUNCHES:-5}
TRACES=${TRACES:-3}
PLAUNCHES=${PLAUNCHES:-3}
LAUNCH=${LAUNCH:-msgperf-launch}
DAG=${DAG:-dag-predict}
LOGP=${LOGP:-logp-measure}
TRACE=${TRACE:-msgperf-trace}
SMPIPLAT=${SMPIPLAT:-smpi-platform}
MPIEXEC=${MPIEXEC:-mpiexec}
src=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$out"
args_halo='400 8192 2'
args_ring='400 2048 8'
cmd_halo="./halo $args_halo"
cmd_ring="./ring $args_ring"
cmd_netpipe='NPopenmpi -n 50 -u 65536 -p 0 -o np.out'
cmd_is="./is $NP W"
over=
test "$NP" -gt 2 && over=--oversubscribe

mca () {
  case $1 in
    shm) echo "--mca btl self,vader" ;;
    *) echo "--mca btl self,tcp --mca btl_tcp_if_include lo" ;;
  esac
}
eager () {
  case $1 in
    shm) ompi_info --param btl vader --level 9 --parsable \
           | sed -n 's/.*btl_vader_eager_limit:value:\([0-9]*\)$/\1/p' ;;
    *) ompi_info --param btl tcp --level 9 --parsable \
         | sed -n 's/.*btl_tcp_eager_limit:value:\([0-9]*\)$/\1/p' ;;
  esac
}

# The programs, and one trace of each over shared memory.
test -x halo || mpicc -O2 -I"$src/../trace" -o halo "$src/halo.c"
test -x ring || mpicc -O2 -o ring "$src/../trace/ring.c" -lm
test -f libmpitime.so || mpicc -O2 -shared -fPIC -o libmpitime.so "$src/mpitime.c"
case " $PROGS " in
  *" is "*)
    mkdir -p nas-compat/smpi nas-compat/simgrid
    echo '#include <mpi.h>' > nas-compat/smpi/mpi.h
    echo '#define TRACE_smpi_set_category(c) ((void) (c))' \
      > nas-compat/simgrid/instr.h
    test -x is || mpicc -O2 -Inas-compat -o is "$NAS/is.c" \
      "$NAS/nas_common.c" -lm ;;
esac
for p in $PROGS; do
  eval c=\$cmd_$p
  if ! test -s "$p.goal"; then
    for k in $(seq "$TRACES"); do
      rm -rf "trace-$p-$k"
      $MPIEXEC -np "$NP" $over $(mca shm) $TRACE --dir "trace-$p-$k" $c \
        > "traced-$p-$k.txt" 2>/dev/null
      $TRACE profile "trace-$p-$k" \
        | awk -F '\t' -v k="$k" '$2 == "compute" { s += $4 } END { print s, k }'
    done > "compute-$p.txt"
    k=$(sort -g "compute-$p.txt" | awk 'NR == 1 { print $2 }')
    $TRACE goal "trace-$p-$k" > "$p.goal"
  fi
done

# One launch of program $1 with the options $2: the slowest rank's us.
launch () {
  eval c=\$cmd_$1
  if test "$1" = netpipe || test "$1" = is; then
    rm -f mpitime.txt
    MPITIME_FILE=$PWD/mpitime.txt $MPIEXEC -np "$NP" $over $2 \
      -x LD_PRELOAD="$PWD/libmpitime.so" -x MPITIME_FILE $c > /dev/null 2>&1
    awk -F '\t' '$1 == "mpitime" { print $2 * 1e6 }' mpitime.txt
  else
    $MPIEXEC -np "$NP" $over $2 $c \
      | awk -F '\t' '$2 > x { x = $2 } END { print x * 1e6 }'
  fi
}

# On platform $1 (inside its network): parameters, launches.
platform () {
  t=$1
  m=$(mca "$t")
  $MPIEXEC -np 2 $m $LOGP --summary --quiet > "params-$t.tsv" 2>/dev/null
  $MPIEXEC -np 2 $m $LOGP --quiet --start-bytes 65536 --max-bytes 65536 \
    --max-reps-large 40 > "sizes-$t.tsv" 2>/dev/null
  $LAUNCH -n "$PLAUNCHES" -- $MPIEXEC -np 2 $m $LOGP --quiet \
    --start-bytes 65536 --max-bytes 65536 --max-reps-large 40 \
    > "sizes-launches-$t.tsv" 2>/dev/null
  # A machine busy throughout flags every launch cpu_shared, which
  # dag-predict --interval leaves out: then all are used, without the
  # flag, and the recipe is named plogp-mpi-interval-shared.
  awk 'BEGIN { FS = OFS = "\t" } /^#/ { print; next }
    !h++ { for (i = 1; i <= NF; i++) if ($i == "cpu_shared") k = i }
    { n = 0; for (i = 1; i <= NF; i++) if (i != k) a[++n] = $i
      s = a[1]; for (i = 2; i <= n; i++) s = s OFS a[i]; print s }' \
    "sizes-launches-$t.tsv" > "sizes-launches-all-$t.tsv"
  for i in $(seq "$LAUNCHES"); do
    for p in $PROGS; do
      launch "$p" "$m" >> "runs-$p-$t.txt"
    done
  done
}

if test -n "$inside"; then
  platform "$1"
  exit 0
fi

for t in "$@"; do
  for p in $PROGS; do rm -f "runs-$p-$t.txt"; done
  case $t in
    shaped)
      unshare -n sh -c "ip link set lo up; ip link set lo mtu 1500;
        tc qdisc add dev lo root tbf rate 100mbit burst 4kb latency 50ms;
        PROGS='$PROGS' NP=$NP LAUNCHES=$LAUNCHES DAG='$DAG' LOGP='$LOGP' \
        TRACE='$TRACE' MPIEXEC='$MPIEXEC' NAS='${NAS-}' '$0' --inside '$out' shaped" ;;
    *) platform "$t" ;;
  esac
done

# The predictions and the table (predict_s: the seconds each took).
printf 'program\tranks\tplatform\trecipe\tpredicted_us\tmeasured_median_us\tmeasured_min_us\tmeasured_max_us\tratio\tpredict_s\tpredicted_min_us\tpredicted_max_us\n' > results.tsv
# A prediction that could not be made (its tool said why on stderr) is
# NA, and so is its ratio.
row () {
  echo "$@" | awk -v OFS='\t' -v np="$NP" '{ print $1, np, $2, $3, $4, $5, $6, $7, ($4 == "NA" ? "NA" : $4 / $5), $9 - $8, $10, $11 }' >> results.tsv
}
smpi=
command -v smpicc > /dev/null && command -v smpirun > /dev/null && smpi=smpi
for t in "$@"; do
  S=$(eager "$t")
  for p in $PROGS; do
    eval a=\$args_$p
    med=$(sort -g "runs-$p-$t.txt" | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }')
    rs="loggp-summary plogp-thread plogp-mpi plogp-mpi-interval $smpi"
    test "$p" = netpipe && rs="loggp-summary plogp-thread plogp-mpi plogp-mpi-interval"
    for r in $rs; do
      case $r in
        loggp-summary) o="-m loggp --params params-$t.tsv" ;;
        plogp-thread) o="--params sizes-$t.tsv --set S=$S --progress-rule=thread" ;;
        plogp-mpi) o="--params sizes-$t.tsv --set S=$S --progress-rule=mpi" ;;
        plogp-mpi-interval) o="--params sizes-launches-$t.tsv --set S=$S --progress-rule=mpi --interval"
          awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
            !("cpu_shared" in c) || $c["cpu_shared"] != 1 { ok = 1 } END { exit !ok }' \
            "sizes-launches-$t.tsv" || {
            r=plogp-mpi-interval-shared
            o="--params sizes-launches-all-$t.tsv --set S=$S --progress-rule=mpi --interval"; } ;;
      esac
      lo=NA hi=NA
      t0=$(date +%s.%N)
      if test $r = smpi; then
        # SMPI runs the program's own code on the calibrated platform
        $SMPIPLAT --eager "$S" --hosts "$NP" --hostfile "hosts-$t" \
          "sizes-$t.tsv" > "smpi-$t.xml" || rm -f "smpi-$t.xml"
        test -x "${p}_smpi" || case $p in
          halo) smpicc -O2 -I"$src/../trace" -o halo_smpi "$src/halo.c" ;;
          ring) smpicc -O2 -o ring_smpi "$src/../trace/ring.c" -lm ;;
          is) smpicc -O2 -o is_smpi "$NAS/is.c" "$NAS/nas_common.c" -lm ;;
        esac
        t0=$(date +%s.%N)
        if ! test -s "smpi-$t.xml"; then
          pr=
        elif test "$p" = is; then
          # the simulated time of the whole run (MPI_Init to the end)
          pr=$(smpirun -np "$NP" -platform "smpi-$t.xml" -hostfile "hosts-$t" \
                 --cfg=smpi/display-timing:yes ./is_smpi "$NP" W 2>&1 \
               | sed -n 's/.*Simulated time: \([0-9.e+-]*\) seconds.*/\1/p' \
               | awk '{ print $1 * 1e6 }')
        else
          pr=$(smpirun -np "$NP" -platform "smpi-$t.xml" -hostfile "hosts-$t" \
                 ./${p}_smpi $a 2>/dev/null \
               | awk -F '\t' '$2 > x { x = $2 } END { print x * 1e6 }')
        fi
      else
        # the columns by name: makespan, and with --interval its ends
        $DAG -f goal --time-unit us $o "$p.goal" | awk -F '\t' '
          /^#/ { next }
          !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
          { print $c["makespan"], ("makespan_min" in c ? $c["makespan_min"] : "NA"),
              ("makespan_max" in c ? $c["makespan_max"] : "NA"); exit }' > pred.txt
        read pr lo hi < pred.txt || { pr=; lo=NA; hi=NA; }
      fi
      t1=$(date +%s.%N)
      row "$p $t $r ${pr:-NA} $med $t0 $t1 $lo $hi"
    done
  done
done
cat results.tsv
