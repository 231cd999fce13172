// The paper's balancing strategies (section 1.2.1), one row each, and their two axes: global
// (K = P) or local (K-block groups); centralized (one balancer on the master) or distributed
// (replicated on every slave). A row is named by its own small enum, `scheme`; the policies a
// run may have (no balancing, a row, a customized mode, a self-scheduling rule) are the kinds of
// core::policy (policy.hpp), which holds a scheme where it names a row.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace dlb::core {

enum class scheme {
  gcdlb,
  gddlb,
  lcdlb,
  lddlb,
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
  scheme s;
  std::string_view name;
  bool global;
  bool centralized;
};
inline constexpr std::array balancing_rows = {
    balancing_row{scheme::gcdlb, "GCDLB", true, true},
    balancing_row{scheme::gddlb, "GDDLB", true, false},
    balancing_row{scheme::lcdlb, "LCDLB", false, true},
    balancing_row{scheme::lddlb, "LDDLB", false, false},
#ifdef DLB_TEST_STRATEGY_ROW
    balancing_row{scheme::test_row, "TEST-ROW", true, true},
#endif
};

// The balancing strategies (the rows above, in their order), in the order used for tie-breaking
// between equal predictions.
inline constexpr std::array<scheme, balancing_rows.size()> balancing_strategies = [] {
  std::array<scheme, balancing_rows.size()> out{};
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = balancing_rows[k].s;
  return out;
}();
// How many there are: every per-strategy array (predictions, times) has this size.
inline constexpr std::size_t kBalancingStrategies = balancing_strategies.size();

// A scheme's place in balancing_rows (and in every per-strategy array).
constexpr std::size_t index_of(scheme s) {
  for (std::size_t k = 0; k < balancing_rows.size(); ++k)
    if (balancing_rows[k].s == s) return k;
  return balancing_rows.size();  // not reached: every scheme has a row
}
constexpr const balancing_row& row_of(scheme s) { return balancing_rows[index_of(s)]; }

// "GCDLB", "GDDLB", "LCDLB", "LDDLB".
constexpr std::string_view to_string(scheme s) { return row_of(s).name; }
// A row's name, in any letter case; anything else is empty.
std::optional<scheme> parse_scheme(std::string_view text);

constexpr bool is_global(scheme s) { return row_of(s).global; }
constexpr bool is_local(scheme s) { return !row_of(s).global; }
constexpr bool is_centralized(scheme s) { return row_of(s).centralized; }
constexpr bool is_distributed(scheme s) { return !row_of(s).centralized; }

// Letter case ignored: "gddlb" and "GDDLB" are the same name.
bool equal_ignoring_case(std::string_view a, std::string_view b);

}  // namespace dlb::core
