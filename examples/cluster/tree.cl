# A two-level tree of 3 switches: the root s0 with 2 hosts and the
# uplinks of the leaves s1 and s2, 3 hosts each.  Every uplink carries
# the traffic of 3 hosts one way and 5 the other.
switch s0
switch s1
switch s2
hosts h 0 2 s1 50
hosts h 3 5 s2 50
hosts h 6 7 s0 50
link s1 s0 50
link s2 s0 50
