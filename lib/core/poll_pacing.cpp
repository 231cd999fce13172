// poll_pacing.cpp: how often the runtime looks for messages (dlb/core/poll_pacing.hpp).
#include "dlb/core/poll_pacing.hpp"

#include <algorithm>

namespace dlb::core {

std::int64_t next_poll_count(std::int64_t count, std::int64_t elapsed_ns, const poll_pacing& p) {
  const std::int64_t c = std::max<std::int64_t>(count, 1);
  const std::int64_t cap = std::max<std::int64_t>(1, std::min(p.max_count, 2 * c));
  if (elapsed_ns <= 0) return cap;
  const double ideal =
      static_cast<double>(c) * static_cast<double>(p.target_ns) / static_cast<double>(elapsed_ns);
  if (ideal >= static_cast<double>(cap)) return cap;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(ideal));
}

wait_step next_wait_step(std::chrono::microseconds waited, std::chrono::microseconds last_sleep,
                         const wait_pacing& p) {
  if (waited < p.spin) return {wait_step::kind::spin, std::chrono::microseconds(0)};
  if (waited < p.yield) return {wait_step::kind::yield, std::chrono::microseconds(0)};
  const auto next = last_sleep.count() <= 0 ? p.first_sleep : std::min(2 * last_sleep, p.max_sleep);
  return {wait_step::kind::sleep, std::max(next, std::chrono::microseconds(1))};
}

}  // namespace dlb::core
