# SPDX-License-Identifier: GPL-3.0-or-later
# bench/timing.sh: sourced by the benchmarks that time whole programs.
#
# bench_sittings OUT NAME 'COMMAND' [NAME 'COMMAND']...: BENCH_RUNS
# (default 5) sittings of each COMMAND (a command line, split on blanks;
# standard input $data, output discarded), interleaved in a seeded random
# order by msgperf-launch; OUT gets its stream, t the wall time of one
# sitting in seconds, cpu its CPU time (user + system, the shell's
# "times" of the command).
# bench_summary OUT [COL]: per command the median of the sittings and its
# interval (msgperf-compare --summary), as "NAME MEDIAN LO HI SITTINGS
# FLAGGED"; sittings flagged cpu_shared are kept (on this shared machine
# none may be left otherwise) and counted in FLAGGED.
# bench_ratio OUT BASE NAME [COL]: the ratio of medians t(NAME) / t(BASE) with
# its interval, as "RATIO LO HI VERDICT" (msgperf-compare).  COL is
# the column summarised, t (the default) or cpu.
bench_timeit=${tmp:?}/timeit
cat > "$bench_timeit" <<'EOT'
s=$(date +%s.%N)
"$@" < "$data" > /dev/null || exit 1
e=$(date +%s.%N)
# ("times" in this shell, not in a pipeline's subshell, which has no
# children of its own)
times > "$0.$$"
c=$(awk 'NR == 2 { split ($1, u, "m"); split ($2, s, "m");
                   printf "%.6f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$0.$$")
rm -f "$0.$$"
printf '#@time_unit=s\nt\tcpu\n'
echo "$s $e $c" | awk '{ printf "%.6f\t%s\n", $2 - $1, $3 }'
EOT

bench_sittings () {
  _out=$1; shift
  _args=
  while test $# -ge 2; do
    _args="$_args -a $1 -- sh $bench_timeit $2"
    shift 2
  done
  # shellcheck disable=SC2086
  data=$data msgperf-launch -n "${BENCH_RUNS:-5}" --seed "${BENCH_SEED:-1}" \
    $_args > "$_out"
}

bench_summary () {
  # The flagged sittings per command, from the stream itself.
  grep -v '^#@' "$1" | awk -F '\t' '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { n[$c["variant"]] += $c["cpu_shared"] == 1 }
    END { for (v in n) print v, n[v] }' > "$1.flagged"
  msgperf-compare --include-shared --summary -y "${2:-t}" "$1" 2> /dev/null \
    | grep -v '^#@' | awk -F '\t' -v f="$1.flagged" -v y="${2:-t}" '
      BEGIN { while ((getline l < f) > 0) { split(l, x, " "); fl[x[1]] = x[2] } }
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { v = $c["variant"]
        print v, $c[y], $c[y "_ci_lo"], $c[y "_ci_hi"], $c["launches"], fl[v] + 0 }'
}

bench_ratio () {
  msgperf-compare --include-shared -y "${4:-t}" --baseline "$2" "$1" 2> /dev/null \
    | grep -v '^#@' | awk -F '\t' -v v="$3" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      # (with two commands there is one row and no variant column)
      !("variant" in c) || $c["variant"] == v { print $c["ratio"], $c["ratio_lo"], $c["ratio_hi"],
                                $c["verdict"] }'
}
