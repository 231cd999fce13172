# Reference profile measured by: build/experiments/dlb_netchar --procs 16 --clock native --reps 5 --out experiments/network (real PVM on loopback, 2-core machine)
# dlb_netchar: native clock (real PVM), P = 16, repetitions 5, payload 96 bytes; medians; times in seconds
latency_s = 0.0002588101763
bandwidth_Bps = 260211639.6
one_to_all = 0.0005511686495 6.071888623e-06 3.92321267e-07
all_to_one = 0.0006133930022 2.446464341e-05 -9.999972528e-07
all_to_all = 0.0005779806874 4.459006312e-05 9.638429218e-07
