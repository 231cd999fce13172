// network_profile.hpp: the network profile file written by the characterization tool
// (experiments/netchar) and read by the cost model: latency, bandwidth and the polynomial fits
// of the one-to-all, all-to-one and all-to-all costs in the number of processes.
//
//   # comment lines
//   latency_s = 0.0024145
//   bandwidth_Bps = 960000
//   one_to_all = c0 c1 c2        (seconds = c0 + c1 p + c2 p^2)
//   all_to_one = c0 c1 c2
//   all_to_all = c0 c1 c2
#pragma once

#include <iosfwd>
#include <string>

#include "dlb/core/cost_model.hpp"

namespace dlb {

// Throws std::runtime_error naming the file and line on a missing or malformed entry.
core::network_profile parse_network_profile(const std::string& text, const std::string& source);
core::network_profile read_network_profile(const std::string& path);
void write_network_profile(std::ostream& os, const core::network_profile& p);

}  // namespace dlb
