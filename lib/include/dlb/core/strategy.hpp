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
  auto_all,
#ifdef DLB_TEST_STRATEGY_ROW
  // A balancing strategy that exists only in the tests' build of the library (tests/CMakeLists.txt,
  // `DLB_TEST_STRATEGY_ROW`): what adding a strategy takes, a row here and one in the runtime's
  // protocol table (strategy_table.hpp), checked by its message-pattern test.
  test_row,
#endif
};

// A balancing strategy's row: its name and its place on the paper's two axes (section 1.2.1):
// global (K = P) or local (K-block groups), centralized (the master decides) or distributed
// (every member decides). The runtime's protocol table has one row per entry, in this order; the
// cost model reads the axes.
struct balancing_row {
  strategy s;
  std::string_view name;
  bool global;
  bool centralized;
};
inline constexpr std::array balancing_rows = {
    balancing_row{strategy::gcdlb, "GCDLB", true, true},
    balancing_row{strategy::gddlb, "GDDLB", true, false},
    balancing_row{strategy::lcdlb, "LCDLB", false, true},
    balancing_row{strategy::lddlb, "LDDLB", false, false},
#ifdef DLB_TEST_STRATEGY_ROW
    balancing_row{strategy::test_row, "TEST-ROW", true, true},
#endif
};

// The balancing strategies (the rows above, in their order), in the order used for tie-breaking
// between equal predictions.
inline constexpr std::array<strategy, balancing_rows.size()> balancing_strategies = [] {
  std::array<strategy, balancing_rows.size()> out{};
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = balancing_rows[k].s;
  return out;
}();
// How many there are: every per-strategy array (predictions, times) has this size.
inline constexpr std::size_t kBalancingStrategies = balancing_strategies.size();

// The row of a balancing strategy (null for the others).
constexpr const balancing_row* find_balancing_row(strategy s) {
  for (const balancing_row& r : balancing_rows)
    if (r.s == s) return &r;
  return nullptr;
}

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
