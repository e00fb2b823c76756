#!/bin/sh
# examples/quickstart.sh OUTDIR: the main job of ./quickstart, with the
# programs that are built.  Each step writes a TSV file into OUTDIR and the
# summary is printed on standard output.
set -eu
out=$1
have () { command -v "$1" >/dev/null 2>&1; }

printf 'bytes\trtt\n1\t2.5\n1024\t4\n' > "$out/sample.tsv"
tsv-check --numeric bytes,rtt "$out/sample.tsv" > "$out/sample-checked.tsv"
echo "msgperf quickstart"
echo "  stream layer: $(grep -vc '^#' "$out/sample-checked.tsv") lines checked by tsv-check"
echo "  files written to $out/"
