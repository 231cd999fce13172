// A slave's performance profile, as sent at a synchronization, and the paper's metric: work done
// per second since the last synchronization. The paper's loops cost the same per iteration and it
// counts iterations per second (section 1.2); where a loop's iterations cost different amounts,
// iterations per second would make a slave that holds cheap iterations look like a fast machine,
// so the work is the iterations' summed costs (the loop's work function), and iterations when the
// loop gives no costs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace dlb::core {

struct profile {
  std::int64_t iterations_done = 0;  // since the last synchronization
  double elapsed_seconds = 0.0;      // since the last synchronization
  std::int64_t remaining = 0;        // gamma_i: iterations still held
  // The summed cost of the iterations done since the last synchronization (base seconds); none:
  // every iteration counts one.
  std::optional<double> work_done;
};

// Work (or iterations) per second: the one speed metric of the library (a slave's profile at a
// synchronization, and the statistics' speed of a slave that never synchronized). `unmeasured`
// when nothing was measured (no time elapsed, or nothing done): 0 by default, a slave without a
// measurement being treated like one that did nothing, which the redistribution handles; a
// slave's profile passes its previous speed instead (it was interrupted before its first
// iteration since the last synchronization: its machine did not change).
double speed(const profile& p, double unmeasured = 0.0);
std::vector<double> speeds(const std::vector<profile>& profiles);

}  // namespace dlb::core
