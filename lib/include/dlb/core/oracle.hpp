// The oracle bound (beyond the paper): the makespan of an ideal balancer with zero overhead that
// keeps every slave busy until the loop's work is done. The work is divisible, and slave i does
// S_i / (l_i(k) + 1) base seconds of work per second in persistence block k, under the same load
// function the runs see (load.hpp). No balancer can finish the same work under the same load
// earlier, so a strategy's time over this bound is how far it is from the best possible.
#pragma once

#include <cstddef>
#include <span>

#include "dlb/core/load.hpp"

namespace dlb::core {

// The time T >= t0 at which the slaves of `speeds` (S_i, slave i = index i of the load
// function), all starting at t0, have together done `work` base seconds:
//   sum_i work_done(load, i, S_i, t0, T) = work.
// Exact: within a persistence block the slaves' total rate is constant, so T is found block by
// block. Throws std::invalid_argument for no slaves, a speed <= 0, negative work or a bad load.
double oracle_makespan(const load_function& load, std::span<const double> speeds, double t0,
                       double work);

}  // namespace dlb::core
