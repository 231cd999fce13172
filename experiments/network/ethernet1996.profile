# Reference profile measured by: build/experiments/dlb_netchar --backend sim --procs 16 --network ethernet1996 --reps 5 --broadcast mcast --out experiments/network (see experiments/README.md); the default split of network.cpp (wire share 0.768: 1.25 MB/s on the wire)
# dlb_netchar: simulated (SimGrid), network ethernet1996, P = 16, repetitions 5, payload 96 bytes, broadcasts as mcast; medians; times in seconds
latency_s = 0.002414043131
bandwidth_Bps = 960000.6405
one_to_all = 0.002203058333 0.0001552 -2.075949303e-17
all_to_one = 0.0005586583333 0.0009774 1.048459244e-19
all_to_all = 0.0007138583333 0.000667 0.0001552
