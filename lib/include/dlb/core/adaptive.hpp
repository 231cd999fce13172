// ADAPTIVE's re-selection rule (beyond the paper). Under --strategy ADAPTIVE the
// master re-runs the cost model at every re-selection synchronization on what remains (the
// slaves' remaining work after that synchronization's decision under each strategy, the speeds
// and load from now on) and commits to the strategy predicted to finish first, for the next
// stretch; docs/design/policies.md, "ADAPTIVE". The rule itself is a function of values.
#pragma once

#include <array>
#include <optional>

#include "dlb/core/strategy.hpp"

namespace dlb::core {

// predicted[k]: the model's time from now to the loop's end under balancing_strategies[k];
// current: the strategy in force (none before the first choice). The least time wins; a tie
// (equal within a relative 1e-12) keeps the current strategy if it is among the tied, else the
// first tied in balancing_strategies order. No hysteresis: a strategy predicted to be faster by
// any margin is taken. Throws std::invalid_argument for a negative or non-finite prediction, or
// a current strategy that is not one of the four.
scheme reselect(const std::array<double, kBalancingStrategies>& predicted,
                std::optional<scheme> current);

}  // namespace dlb::core
