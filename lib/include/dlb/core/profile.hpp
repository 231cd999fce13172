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

// Iterations per second. 0 when nothing was measured (no time elapsed, or nothing done): a slave
// without a measurement is treated like one that did nothing, which the redistribution handles.
double speed(const profile& p);
std::vector<double> speeds(const std::vector<profile>& profiles);

}  // namespace dlb::core
