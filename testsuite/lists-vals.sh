# SPDX-License-Identifier: GPL-3.0-or-later
# lists-vals.sh: sourced by testsuite/lists.at.  vals OPTION VALUE runs
# one program's list or size option with VALUE and prints the values the
# program used, on one line; check OPTION VALUE WANT compares them.
col1 () { grep -v '^#' | sed 1d | cut -f "$1" | tr '\n' ' ' | sed 's/ $//'; }
vals () {
  case $1 in
    hr-bytes) hyper-reduce eval -a 0 -b 1 --bytes "$2" | col1 1 ;;
    hr-let) hyper-reduce reduce --let "n=$2" 'concurrent(1, w)' blk.tsv \
              | col1 1 ;;
    dp-sweep-bytes) dag-predict --gen diamond -P 2 -n 2 -m loggp \
                      --sweep "bytes=$2" | col1 1 ;;
    dp-sweep-blocks) dag-predict --gen diamond -P 2 -n 2 -m loggp \
                       --sweep "blocks=$2" | col1 1 ;;
    dp-sweep-S) dag-predict --gen diamond -P 2 -n 2 -m loggops \
                  --sweep "S=$2" | col1 1 ;;
    dp-sweep-L) dag-predict --gen diamond -P 2 -n 2 -m loggp \
                  --sweep "L=$2" | col1 1 ;;
    dp-B) dag-predict gen remap -P 2 -B "$2" \
            | awk -F '\t' '$1 == "msg" { print $7 }' | sort -u ;;
    dp-set-S) dag-predict --gen diamond -P 2 -n 2 -m loggops --set "S=$2" \
                | col1 13 ;;
    ls-B) loGPC-solve remap --style long --dims 8x4 -G 0.5 --Gc 1 -B "$2" \
            | col1 1 ;;
    ls-set-bytes) loGPC-solve remap --style long --dims 8x4 -G 0.5 --Gc 1 \
                    --set "bytes=$2" | col1 1 ;;
    cr-sizes) timeout 120 $MPIEXEC -np 2 comet-run echo --sizes "$2" \
                --time-cap 0.02 --min-reps 5 --max-reps 5 --warmup 1 \
                --timeout 100 | col1 3 ;;
  esac
}
check () {
  got=`vals "$1" "$2"`
  test "$got" = "$3" || { echo "$1 $2: got '$got', expected '$3'"; return 1; }
}
