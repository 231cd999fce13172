# Reference profile measured by: build/experiments/dlb_netchar --procs 16 --network NAME --reps 5 --out experiments/network (see experiments/README.md)
# dlb_netchar: emulated clock, network switched, P = 16, repetitions 5, payload 96 bytes; medians; times in seconds
latency_s = 0.002415084798
bandwidth_Bps = 960000.6405
one_to_all = -0.0023145 0.0024145 -1.67753479e-18
all_to_one = 0.0025145 -0 0
all_to_all = -0.0023145 0.0024145 -1.67753479e-18
