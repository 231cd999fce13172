// fault.cpp: the fault-injection decision (fault.hpp).
#include "dlb/core/fault.hpp"

#include <cmath>
#include <stdexcept>

namespace dlb::core {

bool fault_due(const fault_plan& plan, const fault_progress& at) {
  if (plan.slave <= 0 || at.rank != plan.slave) return false;
  switch (plan.trigger) {
    case fault_trigger::none:
      return false;
    case fault_trigger::at_time:
      return at.now >= plan.at_time;
    case fault_trigger::after_iterations:
      return at.iterations >= plan.iterations;
    case fault_trigger::at_sync:
      return at.syncs_entered >= plan.sync;
  }
  return false;
}

fault_plan make_fault_plan(int procs, std::optional<std::int64_t> kill_slave,
                           std::optional<double> kill_at,
                           std::optional<std::int64_t> after_iterations,
                           std::optional<std::int64_t> at_sync) {
  const int triggers = (kill_at ? 1 : 0) + (after_iterations ? 1 : 0) + (at_sync ? 1 : 0);
  const char* first = kill_at            ? "--kill-at"
                      : after_iterations ? "--kill-after-iters"
                                         : "--kill-at-sync";
  if (triggers > 1)
    throw std::invalid_argument(
        std::string("option ") + first +
        ": give one of --kill-at, --kill-after-iters and --kill-at-sync, not several");
  fault_plan p;
  if (kill_slave && (*kill_slave < 0 || *kill_slave > procs))
    throw std::invalid_argument("option --kill-slave must be a slave, 1 to " +
                                std::to_string(procs) + " (0: none), got " +
                                std::to_string(*kill_slave));
  p.slave = kill_slave ? static_cast<int>(*kill_slave) : 0;
  if (triggers > 0 && p.slave == 0)
    throw std::invalid_argument(std::string("option ") + first +
                                " needs --kill-slave N (the slave that dies)");
  if (kill_at && !(std::isfinite(*kill_at) && *kill_at >= 0))
    throw std::invalid_argument("option --kill-at must be a time >= 0, seconds");
  if (after_iterations && *after_iterations < 1)
    throw std::invalid_argument("option --kill-after-iters must be at least 1 (iterations), got " +
                                std::to_string(*after_iterations));
  if (at_sync && *at_sync < 1)
    throw std::invalid_argument(
        "option --kill-at-sync must be at least 1 (the first synchronization), got " +
        std::to_string(*at_sync));
  if (p.slave == 0) return p;
  if (after_iterations) {
    p.trigger = fault_trigger::after_iterations;
    p.iterations = *after_iterations;
  } else if (at_sync) {
    p.trigger = fault_trigger::at_sync;
    p.sync = *at_sync;
  } else {
    p.trigger = fault_trigger::at_time;
    p.at_time = kill_at.value_or(0.0);
  }
  return p;
}

}  // namespace dlb::core
