// clocks.cpp: native and emulated clocks.
#include "dlb/runtime/clocks.hpp"

#include <sys/prctl.h>
#include <time.h>

#include <algorithm>
#include <cerrno>

namespace dlb {

std::int64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

emulated_clock::emulated_clock(std::int64_t epoch_ns, double scale, workstation ws)
    : epoch_ns_(epoch_ns), scale_(scale), ws_(std::move(ws)) {
  // Default timer slack (50 us) makes every sleep late; 1 ns cuts the median lateness from
  // about 70 us to about 20 us (docs/pvm-notes.md). Per thread, so it stays ours.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

void emulated_clock::compute(double base_seconds) {
  if (base_seconds <= 0) return;
  double end = ws_.loaded ? core::finish_time(ws_.load, ws_.slave, ws_.speed, cursor_, base_seconds)
                          : cursor_ + base_seconds / ws_.speed;
  cursor_ = end;
  sleep_to_cursor();
}

std::int64_t emulated_clock::begin_loop() {
  const auto behind = monotonic_ns() - static_cast<std::int64_t>(cursor_ / scale_ * 1e9);
  epoch_ns_ = std::max(epoch_ns_, behind);
  max_lag_ = 0.0;
  return epoch_ns_;
}

void emulated_clock::join_loop(std::int64_t epoch_ns) {
  if (epoch_ns > 0) epoch_ns_ = epoch_ns;
  max_lag_ = 0.0;
}

double emulated_clock::observed() {
  return std::max(cursor_, static_cast<double>(monotonic_ns() - epoch_ns_) * 1e-9 * scale_);
}

void emulated_clock::wait_until(double t) {
  if (t <= cursor_) return;
  cursor_ = t;
  sleep_to_cursor();
}

void emulated_clock::sleep_to_cursor() {
  const auto target = epoch_ns_ + static_cast<std::int64_t>(cursor_ / scale_ * 1e9);
  const std::int64_t before = monotonic_ns();
  if (before < target) {
    timespec ts{static_cast<time_t>(target / 1'000'000'000),
                static_cast<long>(target % 1'000'000'000)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
  } else {
    // Already past the deadline when we got here: that is lag (computation or messages were
    // slower in wall time than the emulation allows).
    max_lag_ = std::max(max_lag_, static_cast<double>(before - target) * 1e-9 * scale_);
  }
}

native_clock::native_clock(std::int64_t epoch_ns, workstation ws)
    : epoch_ns_(epoch_ns), ws_(std::move(ws)), last_mark_ns_(monotonic_ns()) {}

void native_clock::wait_until(double) {
  // Time spent waiting for messages is not iteration time: restart the measurement.
  last_mark_ns_ = monotonic_ns();
}

double native_clock::now() { return static_cast<double>(monotonic_ns() - epoch_ns_) * 1e-9; }

void native_clock::compute(double) {
  // The iteration really ran since the last mark; the external load makes it take (load + 1)
  // times as long, by spinning for load times its duration.
  const std::int64_t t = monotonic_ns();
  if (ws_.loaded) {
    const double seconds_now = static_cast<double>(t - epoch_ns_) * 1e-9;
    const int load = core::load_at(ws_.load, ws_.slave, seconds_now);
    const std::int64_t until = t + static_cast<std::int64_t>(load) * (t - last_mark_ns_);
    while (monotonic_ns() < until) {
    }
  }
  last_mark_ns_ = monotonic_ns();
}

}  // namespace dlb
