// Performance profiles and the work-per-second metric.
#include "dlb/core/profile.hpp"

namespace dlb::core {

double speed(const profile& p, double unmeasured) {
  if (!(p.elapsed_seconds > 0.0) || p.iterations_done <= 0) return unmeasured;
  return p.work_done.value_or(static_cast<double>(p.iterations_done)) / p.elapsed_seconds;
}

std::vector<double> speeds(const std::vector<profile>& profiles) {
  std::vector<double> out;
  out.reserve(profiles.size());
  for (const auto& p : profiles) out.push_back(speed(p));
  return out;
}

}  // namespace dlb::core
