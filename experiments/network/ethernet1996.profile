# Reference profile measured by: build/experiments/dlb_netchar --procs 16 --network NAME --reps 5 --out experiments/network (see experiments/README.md)
# dlb_netchar: emulated clock, network ethernet1996, P = 16, repetitions 5, payload 96 bytes; medians; times in seconds
latency_s = 0.002415890034
bandwidth_Bps = 960000.2349
one_to_all = -0.0023145 0.0024145 2.432425445e-17
all_to_one = 0.002468249451 1.332433743e-05 1.042840983e-05
all_to_all = -0.002344455494 0.002489545895 2.588720103e-06
