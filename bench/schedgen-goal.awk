# SPDX-License-Identifier: GPL-3.0-or-later
# bench/schedgen-goal.awk: GOAL schedules of the shapes LogGOPSim's
# Schedgen writes, for bench/dag-predict (a reimplementation from the
# patterns' description: the same lines, labels l1, l2, ... restarting
# in every rank block, tag 0).
#   awk -v pat=PATTERN -v P=RANKS -v B=BYTES [-v count=FILE] -f THIS
# PATTERN:
#   bcast  binomial-tree broadcast from rank 0: in round k (k = 0 ..
#          ceil(log2 P) - 1) rank r < 2^k sends to r + 2^k, after its own
#          receive (one "requires" line per round once both exist)
#   ring   ring allreduce: 2 (P - 1) steps of a send of B / P bytes to
#          the right neighbour, each after the previous step's receive
#          from the left one
#   a2a    linear all-to-all: for i = 1 .. P - 1, send to (r + i) mod P
#          and receive from (r - i) mod P, no dependencies
# The number of operations goes to the file COUNT.
function send(b, to) {
  id++; ops++
  printf "l%d: send %db to %d tag 0\n", id, b, to
  return id
}
function recv(b, fr) {
  id++; ops++
  printf "l%d: recv %db from %d tag 0\n", id, b, fr
  return id
}
BEGIN {
  if (pat !~ /^(bcast|ring|a2a)$/ || P < 1) {
    print "schedgen-goal.awk: pat=bcast|ring|a2a P=RANKS B=BYTES" \
      > "/dev/stderr"
    exit 2
  }
  printf "num_ranks %d\n", P
  lg = 0
  while (2 ^ lg < P)
    lg++
  for (r = 0; r < P; r++) {
    printf "\nrank %d {\n", r
    id = 0
    if (pat == "bcast") {
      rv = -1; sd = -1
      for (k = 0; k < lg; k++) {
        p2 = 2 ^ k
        if (r + p2 < P && r < p2)
          sd = send(B, r + p2)
        if (sd >= 0 && rv >= 0)
          printf "l%d requires l%d\n", sd, rv
        if (r >= p2 && r < 2 * p2)
          rv = recv(B, r - p2)
      }
    } else if (pat == "ring") {
      lr = -1; c = int(B / P)
      for (ph = 0; ph < 2; ph++)
        for (s = 0; s < P - 1; s++) {
          sd = send(c, (r + 1) % P)
          if (lr != -1)
            printf "l%d requires l%d\n", sd, lr
          lr = recv(c, (r - 1 + P) % P)
        }
    } else {
      for (s = 1; s < P; s++) {
        send(B, (r + s) % P)
        recv(B, (r - s + P) % P)
      }
    }
    print "}"
  }
  if (count != "")
    print ops > count
}
