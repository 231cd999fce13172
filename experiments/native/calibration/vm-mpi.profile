# dlb_netchar: native clock (real MPI), P = 2, repetitions 5, payload 96 bytes, broadcasts as mcast; medians; times in seconds
latency_s = 0.0001505038833
bandwidth_Bps = 2312240286
one_to_all = 0.000202318
all_to_one = 0.000223098
all_to_all = 0.00022467
