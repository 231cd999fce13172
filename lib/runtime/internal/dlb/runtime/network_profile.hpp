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
#include <vector>

#include "dlb/core/cost_model.hpp"

namespace dlb {

// Throws std::runtime_error naming the file and line on a missing or malformed entry.
core::network_profile parse_network_profile(const std::string& text, const std::string& source);
core::network_profile read_network_profile(const std::string& path);
void write_network_profile(std::ostream& os, const core::network_profile& p);

// The reference profiles (<network>.profile, measured by experiments/netchar) are data installed
// with the library, never a path compiled in. The directories looked in, in order:
//   1. $DLB_NETWORK_DIR, if set and not empty;
//   2. <directory of the file holding the library's code>/../share/dlb/network: for the
//      installed libdlb.so, <prefix>/share/dlb/network; for a program linked with the static
//      archives (the programs of the build tree), the program's own prefix (build/share/...);
//   3. <directory of the running executable>/../share/dlb/network, if not the same as 2.
// (A file given with --network-profile is used as it is and comes before all of these.)
std::vector<std::string> network_profile_dirs();
// The first <dir>/<name>.profile of network_profile_dirs() that exists. Throws
// std::runtime_error naming every place looked at when none does.
std::string find_network_profile(const std::string& name);

}  // namespace dlb
