// fault.hpp: when fault injection (--kill-slave with --kill-at, --kill-after-iters or
// --kill-at-sync) ends a slave, as a pure decision on where the slave stands. Both backends ask
// it at the same points (each iteration boundary and each synchronization the slave enters), so a
// fault given by progress fires at the same point of the run on a fast machine, a slow one and
// the simulator; only --kill-at depends on the run's clock.
#pragma once

#include <cstdint>
#include <optional>

namespace dlb::core {

enum class fault_trigger {
  none,              // no fault
  at_time,           // --kill-at T: the run's clock at or past T
  after_iterations,  // --kill-after-iters J: J iterations completed, counted over the run's loops
  at_sync            // --kill-at-sync N: as it enters its N-th synchronization (1: the first)
};

struct fault_plan {
  int slave = 0;  // the slave (rank 1..P) that dies; 0: none
  fault_trigger trigger = fault_trigger::none;
  double at_time = 0.0;
  std::int64_t iterations = 0;
  std::int64_t sync = 0;
};

// Where a slave stands when it asks.
struct fault_progress {
  int rank = 0;
  double now = 0.0;                // the run's clock, seconds from the loop's start
  std::int64_t iterations = 0;     // iterations it completed, over the run's loops
  std::int64_t syncs_entered = 0;  // synchronizations it entered, the one it is entering included
};

// Is the fault of `plan` due for the slave at `at`? Monotone in every progress value: once due,
// due for the rest of the run (the caller acts on the first true).
bool fault_due(const fault_plan& plan, const fault_progress& at);

// The plan of the fault-injection options, as given (the option's name, its value; nullopt: not
// given), for P slaves. Throws std::invalid_argument naming the option ("--kill-after-iters
// must be ...") for a bad value, two triggers at once, or a trigger without --kill-slave. Only
// --kill-slave given: --kill-at 0 (dies at its first iteration boundary).
fault_plan make_fault_plan(int procs, std::optional<std::int64_t> kill_slave,
                           std::optional<double> kill_at,
                           std::optional<std::int64_t> after_iterations,
                           std::optional<std::int64_t> at_sync);

}  // namespace dlb::core
