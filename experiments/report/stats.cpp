// Order statistics for summaries.
#include "report/stats.hpp"

#include <algorithm>

namespace dlb::report {

std::optional<spread> describe(std::vector<double> sample) {
  if (sample.empty()) return std::nullopt;
  std::sort(sample.begin(), sample.end());
  const std::size_t n = sample.size();
  spread s;
  s.count = n;
  s.min = sample.front();
  s.max = sample.back();
  s.median = n % 2 ? sample[n / 2] : (sample[n / 2 - 1] + sample[n / 2]) / 2.0;
  return s;
}

std::optional<double> median(std::vector<double> sample) {
  const auto s = describe(std::move(sample));
  if (!s) return std::nullopt;
  return s->median;
}

}  // namespace dlb::report
