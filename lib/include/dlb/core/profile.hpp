// A slave's performance profile, as sent at a synchronization, and the paper's metric:
// iterations done per second since the last synchronization (section 1.2).
#pragma once

#include <cstdint>
#include <vector>

namespace dlb::core {

struct profile {
  std::int64_t iterations_done = 0;  // since the last synchronization
  double elapsed_seconds = 0.0;      // since the last synchronization
  std::int64_t remaining = 0;        // gamma_i: iterations still held
};

// Iterations per second: the one speed metric of the library (a slave's profile at a
// synchronization, and the statistics' speed of a slave that never synchronized). `unmeasured`
// when nothing was measured (no time elapsed, or nothing done): 0 by default, a slave without a
// measurement being treated like one that did nothing, which the redistribution handles; a
// slave's profile passes its previous speed instead (it was interrupted before its first
// iteration since the last synchronization: its machine did not change).
double speed(const profile& p, double unmeasured = 0.0);
std::vector<double> speeds(const std::vector<profile>& profiles);

}  // namespace dlb::core
