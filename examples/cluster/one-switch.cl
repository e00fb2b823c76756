# One switch, 8 hosts, 50 Mbit/s each way on every host's link.
switch s1
hosts h 0 7 s1 50
