# Reference profile measured by: build/experiments/dlb_netchar --backend sim --procs 16 --network ethernet1996 --reps 5 --broadcast unicast --out experiments/network (renamed to ethernet1996-unicast.profile) (see experiments/README.md); the default split of network.cpp, one send per destination (--broadcast unicast)
# dlb_netchar: simulated (SimGrid), network ethernet1996, P = 16, repetitions 5, payload 96 bytes; medians; times in seconds
latency_s = 0.002414043131
bandwidth_Bps = 960000.6405
one_to_all = 0.0005818583333 0.0009658 -4.088991051e-18
all_to_one = 0.0005818583333 0.0009658 -9.866001483e-17
all_to_all = 0.002015382967 0.0006171028076 0.0001646921192
