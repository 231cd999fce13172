// adaptive.cpp: ADAPTIVE's parts of a slave and of the model (beyond the paper;
// docs/design/policies.md, "ADAPTIVE"). A run under ADAPTIVE is a sequence of commitments. Each
// re-selection synchronization (epoch 2s) is AUTO's first one: global and centralized, the
// master gathers every active slave's profile, runs the cost model on what remains and commits to
// a strategy (customized_runner.cpp). The committed strategy runs its own protocol for its next
// synchronization (epoch 2s + 1, in the member's group under it); after it, each member comes
// back here, to the re-selection protocol, so that the next slave to run out has the master
// choose again. A member still waiting for its group's committed synchronization takes a
// re-selection interrupt only after it (its epoch is behind), so no synchronization is ever cut
// short.
#include <algorithm>
#include <cmath>
#include <limits>

#include "dlb/core/cost_model.hpp"
#include "dlb/core/load_estimate.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"

namespace dlb {

void detail::slave_session::return_to_reselection() {
  enter(master_sync_protocol(protocol_opts()));  // one global group
  std::vector<bool> was_active(static_cast<std::size_t>(procs_), false);
  for (std::size_t s = 0; s < was_active.size() && s < slave_.known_active().size(); ++s)
    was_active[s] = slave_.known_active()[s];
  join_group(0, was_active);
}

std::optional<std::array<double, core::kBalancingStrategies>>
detail::master_session::predict_remaining(
    const std::array<std::vector<core::range_list>, core::kBalancingStrategies>& starts, double now,
    const std::vector<double>& speeds, double window) const {
  const auto& prm = rt_.params();
  std::vector<double> w;
  double mean = 0.0;
  bool uniform = true;
  core::model_input in = model_base(w, mean, uniform);
  if (loop_.iterations == 0 || !(mean > 0) || speeds.size() != prm.speeds.size())
    return std::nullopt;
  if (!uniform) in.program.iteration_times = std::move(w);
  in.start_time = now;
  // The observed speeds in base seconds of work per second (see predict in dlb.cpp).
  const double per_unit = work_cost() ? 1.0 : mean;
  std::vector<double> observed;
  for (double v : speeds) observed.push_back(std::max(v * per_unit, 0.0));
  bool estimated = false;
  if (!prm.emulated || !loop_.work) {
    // Real time: the speeds seen now, held from here on (no modelled load).
    for (double e : observed) in.machine.base_speeds.push_back(std::max(e, 1e-12));
    in.machine.load.max_load = 0;
  } else if (rt_.params().model_load == core::model_load::run) {
    in.machine.base_speeds = prm.speeds;
    in.machine.load = prm.load;  // the run's load function, from now on
  } else {
    // ml and tl estimated from the speeds the active slaves showed since their last
    // synchronization (the window).
    std::vector<double> relative;
    for (std::size_t i = 0; i < observed.size(); ++i)
      if (observed[i] > 0) relative.push_back(observed[i] / prm.speeds[i]);
    if (relative.empty() || !(window > 0)) return std::nullopt;
    const core::load_estimate est = core::estimate_load(relative, window);
    in.machine.base_speeds = prm.speeds;
    in.machine.load.max_load = est.max_load;
    in.machine.load.persistence = est.persistence;
    estimated = true;
  }
  std::array<double, core::kBalancingStrategies> times{};
  for (std::size_t k = 0; k < core::kBalancingStrategies; ++k) {
    in.start = starts[k];
    times[k] = estimated ? core::expected_choice(in).total_time[k]
                         : core::predict(core::balancing_strategies[k], in).total_time;
  }
  return times;
}

}  // namespace dlb
