# One switch, 4 hosts, 50 Mbit/s each way on every host's link: with two
# ranks a host (two-per-host.sh), 8 ranks.
switch s1
hosts h 0 3 s1 50
