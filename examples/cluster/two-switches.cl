# Two switches of 4 hosts each and one uplink as fast as a host's link:
# 4:1 oversubscribed.  Rates in Mbit/s, each way.
switch s1
switch s2
hosts h 0 3 s1 50
hosts h 4 7 s2 50
link s1 s2 50
