# dlb_netchar: native clock (real MPI), P = 2, repetitions 5, payload 96 bytes, broadcasts as mcast; medians; times in seconds
latency_s = 0.0001482425181
bandwidth_Bps = 2381714487
one_to_all = 0.000197019
all_to_one = 0.000220964
all_to_all = 0.000204104
