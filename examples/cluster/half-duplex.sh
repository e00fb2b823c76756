#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# half-duplex.sh TOPOLOGY.tsv: the topology with every host's link
# (a row whose end is a rank) half duplex, the links between switches
# full (dag-predict's duplex column, msgperf-models(7)): the model of
# Open MPI's TCP transport exchanging messages above its eager limit,
# whose two directions take turns (README).  A duplex column already
# there is replaced.
awk -F '\t' -v OFS='\t' '/^#/ { print; next }
  !h++ { for (i = 1; i <= NF; i++) c[$i] = i; d = c["duplex"]
         if (!d) { d = NF + 1; $d = "duplex" }; print; next }
  { $d = ($c["from"] ~ /^(0|[1-9][0-9]*)$/ || $c["to"] ~ /^(0|[1-9][0-9]*)$/) ? "half" : "full"; print }' "$1"
