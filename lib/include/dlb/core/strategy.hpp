// The load-balancing strategies of section 1.2.1 and their two axes: global (K = P) or local
// (K-block groups); centralized (one balancer on the master) or distributed (replicated on every
// slave). `none` runs equal blocks to completion; `automatic` is the paper's customized mode,
// which runs to the first synchronization and then commits to the cheapest predicted strategy;
// `adaptive` (beyond the paper) re-runs that choice at every synchronization
// (adaptive.hpp).
// `self_scheduling` is a loop self-scheduling baseline (beyond the paper; its chunk rule and the
// name --strategy gives it are a core::policy, policy.hpp): a master hands out chunks to workers
// that ask.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace dlb::core {

// auto_all (beyond the paper) is customized mode over every policy: at the first synchronization
// the master predicts the rest of the loop under each candidate (the paper's four, ADAPTIVE, the
// self-scheduling rules; auto_all.hpp) and commits to the fastest.
enum class strategy {
  none,
  gcdlb,
  gddlb,
  lcdlb,
  lddlb,
  automatic,
  self_scheduling,
  adaptive,
  auto_all
};

// The balancing strategies (the rows of the runtime's strategy_table, in its order), in the order
// used for tie-breaking between equal predictions.
inline constexpr std::array balancing_strategies = {strategy::gcdlb, strategy::gddlb,
                                                    strategy::lcdlb, strategy::lddlb};
// How many there are: every per-strategy array (predictions, times) has this size.
inline constexpr std::size_t kBalancingStrategies = balancing_strategies.size();

// "NONE", "GCDLB", "GDDLB", "LCDLB", "LDDLB", "AUTO", "ADAPTIVE", "AUTO-ALL" ("SELF" for
// self_scheduling, whose names are its chunk rules': policy.hpp).
std::string_view to_string(strategy s);
// Customized modes: the model chooses the strategy (automatic: once; adaptive: at every
// synchronization; auto_all: once, among every candidate policy).
bool is_customized(strategy s);
// The names above but SELF, in any letter case; anything else is empty.
std::optional<strategy> parse_strategy(std::string_view text);

// For none, automatic, adaptive, auto_all and self_scheduling all four are false: they are not a
// point on either axis.
bool is_global(strategy s);
bool is_local(strategy s);
bool is_centralized(strategy s);
bool is_distributed(strategy s);

}  // namespace dlb::core
