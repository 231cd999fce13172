// ADAPTIVE's re-selection rule (adaptive.hpp).
#include "dlb/core/adaptive.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace dlb::core {

scheme reselect(const std::array<double, kBalancingStrategies>& predicted,
                std::optional<scheme> current) {
  for (double t : predicted)
    if (!std::isfinite(t) || t < 0)
      throw std::invalid_argument("reselect: a prediction must be finite and >= 0, got " +
                                  std::to_string(t));
  const double least = *std::min_element(predicted.begin(), predicted.end());
  const auto tied = [&](std::size_t k) {
    return predicted[k] - least <= 1e-12 * std::max(least, 1e-300);
  };
  for (std::size_t k = 0; k < kBalancingStrategies; ++k)
    if (current && balancing_strategies[k] == *current && tied(k)) return *current;
  for (std::size_t k = 0; k < kBalancingStrategies; ++k)
    if (tied(k)) return balancing_strategies[k];
  return balancing_strategies[0];  // not reached: the least is tied with itself
}

}  // namespace dlb::core
