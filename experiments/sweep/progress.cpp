// Progress and ETA formatting for the sweep driver.
#include "sweep/progress.hpp"

#include <cmath>
#include <cstdio>

namespace dlb::sweep {

std::string format_hms(double seconds) {
  if (!(seconds > 0) || !std::isfinite(seconds)) seconds = 0;
  const auto total = static_cast<long long>(std::llround(seconds));
  char buf[48];
  std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", total / 3600, total / 60 % 60, total % 60);
  return buf;
}

std::optional<double> estimate_remaining(double finished_wall_sum, std::size_t finished,
                                         std::size_t not_finished, int jobs) {
  if (finished == 0) return std::nullopt;
  const double mean = finished_wall_sum / static_cast<double>(finished);
  return mean * static_cast<double>(not_finished) / static_cast<double>(jobs < 1 ? 1 : jobs);
}

std::string progress_line(std::size_t index, std::size_t total, double elapsed_s,
                          std::optional<double> eta_s, std::string_view what) {
  std::string s = "run " + std::to_string(index) + " of " + std::to_string(total) + ", elapsed " +
                  format_hms(elapsed_s) + ", ETA " +
                  (eta_s ? format_hms(*eta_s) : std::string("?"));
  if (!what.empty()) {
    s += ": ";
    s += what;
  }
  return s;
}

}  // namespace dlb::sweep
