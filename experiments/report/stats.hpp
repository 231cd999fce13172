// Order statistics for summaries: median (mean of the two middle values for even counts), min, max.
#pragma once

#include <optional>
#include <vector>

namespace dlb::report {

struct spread {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t count = 0;
};

// nullopt for an empty sample.
std::optional<spread> describe(std::vector<double> sample);
std::optional<double> median(std::vector<double> sample);

}  // namespace dlb::report
