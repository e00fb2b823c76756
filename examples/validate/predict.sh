#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# predict.sh: predict every measured collective of one comet-run stream
# with dag-predict, under every model and network of MODELS, and write
# one row per (point, model, network) of validation.tsv (no header).
#
#   predict.sh PLATFORM PARAMS.tsv HYPER.tsv CORES 'MODELS' COMET.tsv... > rows
#
# HYPER.tsv is hyper-reduce fit's a and b for the hyperbolic model (- when
# MODELS has no hyperbolic model).
#
# REDUCE (environment, optional) is comet-run's stream of the kernels
# echo, reduce_local and combine on the platform: the reduction's cost per
# byte at each size, which the globalsum predictions charge with
# dag-predict --reduce-cost.  With combine and echo rows the cost at a size
# is combine's round trip (receive, sum, send the sum back) less two of
# echo's one-way times, at least reduce_local's time: what the sum costs a
# reduction, the slower sending of a just-written result included.
# Without them it is reduce_local's time, the arithmetic alone (comet-run
# sums unsigned chars there and doubles in globalsum: MPI_Reduce_local
# costs the same per byte for both here, 0.0213 ns/B at 1 MiB each).
#
# PLOGP (environment) is logp-measure's per-size rows of the platform
# (o_s(m), o_r(m), g(m), L), the table of the plogp model (parameterized
# LogP); without it the plogp predictions are NA.  Its eager limit (#@S)
# goes to plogp as --set S= (the summary's S column reaches the other
# models through --params).
#
# SWITCH (environment, optional) is the platform's switch-PLATFORM.tsv: cs,
# the switch time of a core that ranks share, which the predictions
# charge with --cores (--set cs=); without it switches cost 0.
#
# DAG (environment) names dag-predict.  MODELS is a list of MODEL/NETWORK
# (network `default': no --network option).  A generator or option the
# installed dag-predict lacks is skipped with one message on stderr, and
# the next best generator that exists is used (see README).
set -e
plat=$1 params=$2 hyper=$3 cores=$4 models=$5
shift 5
DAG=${DAG:-dag-predict}
AWK=${AWK:-awk}
log=${LOG:-/dev/null}
plogp_S=
test -n "${PLOGP:-}" && plogp_S=$(sed -n 's/^#@S=//p' "$PLOGP")

# What the installed dag-predict offers.
colls=$($DAG gen coll:list 2>/dev/null | grep -v '^#' || true)
has_coll () { printf '%s\n' "$colls" | grep -q "^$1\$\|	$1\$\|^$1	\|coll:$1\$\|^coll:$1	"; }
has_opt () { $DAG --help 2>&1 | grep -q -- "--$1"; }
net_ok=no; has_opt network && net_ok=yes
cores_ok=no; has_opt cores && cores_ok=yes
note () { echo "validate: $plat: $*" >&2; }

# The hyperbolic model's a and b: hyper-reduce fit of the 2-rank echo.
ab=
test "$hyper" = - || ab=$($AWK -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { print "a=" $c["a"] ",b=" $c["b"]; exit }' "$hyper")

# The reduction's cost per byte (us) of a BYTES-byte vector: its time at
# that size divided by it, the time interpolated linearly in the size
# between the measured sizes (globalsum's 1-byte point is 8 bytes),
# beyond the largest at that size's cost per byte, below the smallest its
# time; 0 without REDUCE.  The time at a measured size: combine's t less
# twice echo's, at least reduce_local's t (reduce_local's alone where
# combine or echo lacks the size).
reduce_cost () {
  if test -z "${REDUCE:-}"; then echo 0; return; fi
  $AWK -F '\t' -v b="$1" '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["bytes"] <= 0 { next }
    { k = $c["kernel"]; m = $c["bytes"] + 0 }
    k == "reduce_local" { n++; x[n] = m; y[n] = $c["t"] + 0 }
    k == "combine" { cb[m] = $c["t"] + 0 }
    k == "echo" && (!("hops" in c) || $c["hops"] == 1) { ec[m] = $c["t"] + 0 }
    END {
      if (!n || b <= 0) { print 0; exit }
      for (i = 1; i <= n; i++)
        if ((x[i] in cb) && (x[i] in ec) && cb[x[i]] - 2 * ec[x[i]] > y[i])
          y[i] = cb[x[i]] - 2 * ec[x[i]]
      for (i = 2; i <= n; i++) for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
        u = x[j]; x[j] = x[j - 1]; x[j - 1] = u; u = y[j]; y[j] = y[j - 1]; y[j - 1] = u }
      if (b >= x[n]) t = y[n] * b / x[n]
      else if (b <= x[1]) t = y[1]
      else for (i = 2; i <= n; i++) if (b <= x[i]) { t = y[i - 1] + (y[i] - y[i - 1]) * (b - x[i - 1]) / (x[i] - x[i - 1]); break }
      printf "%.6g\n", t / b }' "$REDUCE"
}
# The switch time of a shared core (us), or empty.
cs=
if test -n "${SWITCH:-}"; then
  cs=$($AWK -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["cs"]; exit }' "$SWITCH")
  if ! $DAG --cores 1 --set "cs=${cs:-0}" --gen pipeline >/dev/null 2>&1; then
    note "dag-predict has no cs: a shared core's switches cost 0"
    cs=
  fi
fi
if test -n "${REDUCE:-}" && ! has_opt reduce-cost; then
  note "dag-predict has no --reduce-cost: the reduction's arithmetic is not modelled"
  REDUCE=
fi

# makespan MODEL NETWORK P GEN-ARGS...: one prediction, or NA.
# dag_opts MODEL NET NP: dag-predict's options for MODEL on network NET
# with NP ranks, in opts; returns 1 (prediction NA) when the model lacks
# its parameters.
dag_opts () {
  case $1,$ab in hyperbolic,|hyperbolic,*NA*) return 1 ;; esac
  opts="-m $1 --params $params"
  if test "$1" = plogp; then
    test -n "${PLOGP:-}" || return 1
    opts="-m plogp --params $PLOGP"
    # the table's eager limit (logp-measure's #@S): rendezvous above it
    test -n "$plogp_S" && opts="$opts --set S=$plogp_S"
  fi
  test "$1" = hyperbolic && opts="$opts --set $ab"
  if test "$2" != default; then opts="$opts --network $(echo "$2" | sed "s/@P/$3/")"; fi
  test "$cores_ok" = yes && opts="$opts --cores $cores"
  test "$cores_ok" = yes && test -n "$cs" && opts="$opts --set cs=$cs"
  return 0
}
# makespan MODEL NET NP GENERATOR...: the makespan of dag-predict gen's DAG.
makespan () {
  m=$1 net=$2 np=$3; shift 3
  dag_opts "$m" "$net" "$np" || { echo NA; return; }
  # shellcheck disable=SC2086
  if out=$($DAG gen "$@" 2>>"$log" | $DAG $opts 2>>"$log"); then
    printf '%s\n' "$out" | $AWK -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["makespan"]; exit }'
  else
    echo NA
  fi
}
# rank0 MODEL NET NP: rank 0's finish (dag-predict --per-proc) in the DAG
# on standard input, the time on rank 0's clock that comet-run reports.
rank0 () {
  dag_opts "$1" "$2" "$3" || { cat > /dev/null; echo NA; return; }
  # shellcheck disable=SC2086
  if out=$($DAG $opts --per-proc 2>>"$log"); then
    printf '%s\n' "$out" | $AWK -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["proc"] == 0 { print $c["finish"]; exit }'
  else
    echo NA
  fi
}
# acked: dag-predict gen's DAG on standard input, and an empty message to
# rank 0 from every other rank after all of that rank's tasks (dep rows:
# its task ack_R follows them), as comet-run's broadcast acknowledges.
acked () {
  $AWK -F '\t' -v OFS='\t' '/^#/ { print; next }
    !h++ { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    { print }
    $c["kind"] == "task" && $c["proc"] != 0 { p = $c["proc"]; n[p]++; t[p, n[p]] = $c["id"] }
    END {
      for (p in n) {
        print "task", "ack_" p, p, 0, "NA", "NA", "NA"
        for (i = 1; i <= n[p]; i++) print "dep", "NA", "NA", "NA", t[p, i], "ack_" p, "NA"
        print "task", "got_" p, 0, 0, "NA", "NA", "NA"
        print "msg", "NA", "NA", "NA", "ack_" p, "got_" p, 0
      } }'
}
# pingpong MODEL NET BYTES: half of rank 0's finish in a round trip of
# BYTES each way (a ping from rank 0, rank 1's pong), what comet-run's
# echo reports.  Not one message's makespan: that also counts the
# sender's o_s(m) where it is longer than the one-way time, as for Open
# MPI's shared-memory sends of 257 bytes to 4 KiB, which return only once
# the receiver has taken the data (an MPI_Send of 1 KiB took 1.47 us to a
# receiver waiting in MPI_Recv, 20.3 us to one busy for 20 us); in a
# round trip that wait ends before the pong arrives.
pingpong () {
  x=$(printf 'kind\tid\tproc\twork\tfrom\tto\tbytes\ntask\tping\t0\t0\tNA\tNA\tNA\ntask\tpong\t1\t0\tNA\tNA\tNA\ntask\tback\t0\t0\tNA\tNA\tNA\nmsg\tNA\tNA\tNA\tping\tpong\t%s\nmsg\tNA\tNA\tNA\tpong\tback\t%s\n' "$3" "$3" |
    rank0 "$1" "$2" 2)
  if test "$x" = NA; then echo NA; else $AWK -v x="$x" 'BEGIN { printf "%.6g\n", x / 2 }'; fi
}
add () { if test "$1" = NA || test "$2" = NA; then echo NA; else $AWK -v a="$1" -v b="$2" 'BEGIN { printf "%.6g\n", a + b }'; fi; }

# generator KERNEL P BYTES: sets gen (a description) and prints the
# prediction, built from the coll:OP:ALGO generators when they exist,
# else from the tree generators with a binomial tree (k:2).
predict () {
  k=$1 np=$2 b=$3 m=$4 net=$5
  case $k in
    echo)
      # Half the round trip, as echo measures it.  LogPC: one message,
      # its contention iteration does not settle on a round trip (on
      # shared memory at 1 MiB its fixed point lay between 104 and 1203
      # us after 50 simulations), and for one message the two agree.
      if test "$m" = logpc; then
        makespan "$m" "$net" 2 tree-bcast -P 2 -B "$b" -t k:2
      else
        pingpong "$m" "$net" "$b"
      fi ;;
    broadcast)
      # comet-run times the broadcast on rank 0 (the root) to the last
      # receiver's empty acknowledgement: rank 0's finish in the
      # broadcast with those acknowledgements.  Not the broadcast's
      # makespan plus one empty message: that also counts the root's
      # o_s(m) where it is a wait for the receiver (see pingpong), and
      # the acknowledgements of different receivers are not one message.
      # LogPC keeps that sum: its contention iteration did not settle
      # with the acknowledgements (1 MiB on 4 and 8 ranks).
      g1=tree-bcast g2="-t k:2"
      has_coll bcast:binomial && g1=coll:bcast:binomial g2="--root 0"
      if test "$m" = logpc; then
        # shellcheck disable=SC2086
        add "$(makespan "$m" "$net" "$np" $g1 -P "$np" -B "$b" $g2)" \
            "$(makespan "$m" "$net" 2 tree-bcast -P 2 -B 0 -t k:2)"
      else
        # shellcheck disable=SC2086
        $DAG gen $g1 -P "$np" -B "$b" $g2 2>>"$log" | acked | rank0 "$m" "$net" "$np"
      fi ;;
    globalsum)
      # Open MPI's nonoverlapping allreduce: a reduce to rank 0, then a
      # broadcast (both binomial, forced too).
      # Rank 0 combines each child's vector at the measured cost per byte.
      if has_coll allreduce:nonoverlapping; then
        makespan "$m" "$net" "$np" coll:allreduce:nonoverlapping -P "$np" -B "$b" \
          --reduce-cost "$(reduce_cost "$b")"
      else
        add "$(makespan "$m" "$net" "$np" tree-reduce -P "$np" -B "$b" -t k:2)" \
            "$(makespan "$m" "$net" "$np" tree-bcast -P "$np" -B "$b" -t k:2)"
      fi ;;
    barrier)
      # Open MPI's tree barrier: a binomial fan-in of empty messages to
      # rank 0 and the same fan-out (rank r's parent is r without its
      # lowest set bit, the k:2 tree of msgperf-trees(7)).
      if has_coll barrier:tree; then
        makespan "$m" "$net" "$np" coll:barrier:tree -P "$np"
      else
        add "$(makespan "$m" "$net" "$np" tree-reduce -P "$np" -B 0 -t k:2)" \
            "$(makespan "$m" "$net" "$np" tree-bcast -P "$np" -B 0 -t k:2)"
      fi ;;
  esac
}
gen_of () {
  case $1 in
    echo) echo pingpong ;;
    broadcast) if has_coll bcast:binomial; then echo coll:bcast:binomial+acks; else echo tree-bcast:k:2+acks; fi ;;
    globalsum) if has_coll allreduce:nonoverlapping; then echo coll:allreduce:nonoverlapping; else echo tree-reduce:k:2+tree-bcast:k:2; fi ;;
    barrier) if has_coll barrier:tree; then echo coll:barrier:tree; else echo tree-reduce:k:2+tree-bcast:k:2; fi ;;
  esac
}

for k in bcast:binomial allreduce:nonoverlapping barrier:tree; do
  has_coll $k || note "dag-predict has no generator coll:$k: the tree generators (binomial k:2) stand in"
done
test "$cores_ok" = yes || note "dag-predict has no --cores: oversubscription is not modelled"
ok_models=
for mn in $models; do
  net=${mn#*/}
  if test "$net" != default && test "$net_ok" = no; then
    note "dag-predict has no --network: $mn skipped"
  else
    ok_models="$ok_models $mn"
  fi
done

# The measured points: kernel, P, bytes, t of comet-run's rows (echo at
# one hop only), with the algorithm forced for each kernel.
$AWK -F '\t' -v OFS='\t' 'FNR == 1 { h = 0 } /^#/ { next }
  !h++ { delete c; for (i = 1; i <= NF; i++) c[$i] = i; next }
  $c["kernel"] == "echo" && $c["hops"] != 1 { next }
  { print $c["kernel"], $c["nprocs"], $c["bytes"], $c["t"] }' "$@" |
while IFS='	' read -r k np b t; do
  case $k in
    echo) alg=p2p ;; broadcast) alg=binomial ;; globalsum) alg=nonoverlapping ;; barrier) alg=tree ;;
    *) continue ;;
  esac
  over=no; test "$np" -gt "$cores" && over=yes
  g=$(gen_of "$k")
  rc=0; test "$k" = globalsum && has_coll allreduce:nonoverlapping && rc=$(reduce_cost "$b")
  for mn in $ok_models; do
    m=${mn%%/*} net=${mn#*/}
    p=$(predict "$k" "$np" "$b" "$m" "$net")
    gm=$g
    case $k,$m in
      echo,logpc) gm=tree-bcast:k:2 ;;
      broadcast,logpc) gm=${g%s} ;;
    esac
    $AWK -v OFS='\t' -v pl="$plat" -v k="$k" -v alg="$alg" -v np="$np" -v co="$cores" -v b="$b" \
      -v t="$t" -v m="$m" -v net="$(echo "$net" | sed "s/@P/$np/")" -v p="$p" -v over="$over" -v g="$gm" -v rc="$rc" \
      'BEGIN { e = (p == "NA" || t <= 0) ? "NA" : sprintf("%.4g", (p - t) / t);
               print pl, k, alg, np, co, b, sprintf("%.6g", t), m, net, (p == "NA" ? p : sprintf("%.6g", p)), e, over, g, rc }'
  done
done
