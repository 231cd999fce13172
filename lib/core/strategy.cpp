// Strategy names and axes.
#include "dlb/core/strategy.hpp"

#include <algorithm>
#include <cctype>

namespace dlb::core {
namespace {

// Every strategy with a name --strategy takes (self_scheduling's are its chunk rules').
constexpr auto all_strategies = [] {
  std::array<strategy, balancing_rows.size() + 4> all{};
  all[0] = strategy::none;
  for (std::size_t k = 0; k < balancing_rows.size(); ++k) all[k + 1] = balancing_rows[k].s;
  all[balancing_rows.size() + 1] = strategy::automatic;
  all[balancing_rows.size() + 2] = strategy::adaptive;
  all[balancing_rows.size() + 3] = strategy::auto_all;
  return all;
}();

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::toupper(static_cast<unsigned char>(x)) ==
           std::toupper(static_cast<unsigned char>(y));
  });
}

}  // namespace

std::string_view to_string(strategy s) {
  if (const balancing_row* r = find_balancing_row(s)) return r->name;
  switch (s) {
    case strategy::none:
      return "NONE";
    case strategy::automatic:
      return "AUTO";
    case strategy::self_scheduling:
      return "SELF";
    case strategy::adaptive:
      return "ADAPTIVE";
    case strategy::auto_all:
      return "AUTO-ALL";
    default:
      return "UNKNOWN";
  }
}

std::optional<strategy> parse_strategy(std::string_view text) {
  for (const strategy s : all_strategies) {
    if (equal_ignoring_case(text, to_string(s))) return s;
  }
  return std::nullopt;
}

bool is_global(strategy s) {
  const balancing_row* r = find_balancing_row(s);
  return r && r->global;
}
bool is_local(strategy s) {
  const balancing_row* r = find_balancing_row(s);
  return r && !r->global;
}
bool is_centralized(strategy s) {
  const balancing_row* r = find_balancing_row(s);
  return r && r->centralized;
}
bool is_distributed(strategy s) {
  const balancing_row* r = find_balancing_row(s);
  return r && !r->centralized;
}
bool is_customized(strategy s) {
  return s == strategy::automatic || s == strategy::adaptive || s == strategy::auto_all;
}

}  // namespace dlb::core
