# Reference profile measured by: build/experiments/dlb_netchar --backend sim --procs 16 --network switched --reps 5 --out experiments/network (see experiments/README.md); the default split of network.cpp and broadcasts as pvm_mcast (--broadcast mcast)
# dlb_netchar: simulated (SimGrid), network switched, P = 16, repetitions 5, payload 96 bytes, broadcasts as mcast; medians; times in seconds
latency_s = 0.002414043131
bandwidth_Bps = 960000.6405
one_to_all = 0.002109291667 0.0002020833333 3.328858099e-18
all_to_one = 0.0005818583333 0.0009658 -9.866001483e-17
all_to_all = 0.0001776916667 0.001167883333 -6.290755462e-19
