// clocks.hpp: the two clocks behind the seam.
//
// native_clock: real time since the run's epoch; the external load is imposed by busy work,
//   load * (real duration of the iteration), so the effective speed is S / (load + 1).
// emulated_clock: one emulated 1996 workstation. An iteration worth w base seconds lasts
//   finish_time(load, slave, S_i, now, w) - now emulated seconds (the load function stretches
//   it); the task sleeps to that absolute deadline. Emulated time runs `scale` times faster than
//   wall time, all tasks sharing one epoch (CLOCK_MONOTONIC is system-wide). The clock keeps an
//   ideal cursor that only deadlines and message arrivals move, so a late wake-up does not push
//   later events back; how late the task really was is its lag.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dlb/core/load.hpp"
#include "dlb/runtime/seam.hpp"

namespace dlb {

// Wall time, CLOCK_MONOTONIC, in nanoseconds.
std::int64_t monotonic_ns();

struct workstation {
  std::size_t slave = 0;  // index into the load function (0-based slave), ignored for the master
  double speed = 1.0;     // S_i, normalized processor speed
  core::load_function load;
  bool loaded = false;  // false for the master: no external load
};

class emulated_clock final : public clock {
 public:
  emulated_clock(std::int64_t epoch_ns, double scale, workstation ws);
  double now() override { return cursor_; }
  void compute(double base_seconds) override;
  void wait_until(double t) override;
  double lag() const override { return max_lag_; }
  double observed() override;
  bool emulated() const override { return true; }
  // The epoch moves forward past the wall time this task spent beyond its emulated time (the
  // master's set-up before a loop), so that its emulated time now is the wall time now; the
  // slaves adopt the master's epoch with the loop's data. Lag restarts from 0.
  std::int64_t begin_loop() override;
  void join_loop(std::int64_t epoch_ns) override;
  double scale() const { return scale_; }

 private:
  void sleep_to_cursor();
  std::int64_t epoch_ns_;
  double scale_;
  workstation ws_;
  double cursor_ = 0.0;
  double max_lag_ = 0.0;
};

class native_clock final : public clock {
 public:
  native_clock(std::int64_t epoch_ns, workstation ws);
  double now() override;
  void compute(double base_seconds) override;
  void wait_until(double t) override;
  double lag() const override { return 0.0; }
  bool emulated() const override { return false; }

 private:
  std::int64_t epoch_ns_;
  workstation ws_;
  std::int64_t last_mark_ns_;
};

}  // namespace dlb
