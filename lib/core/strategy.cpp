// Strategy names and axes.
#include "dlb/core/strategy.hpp"

#include <algorithm>
#include <cctype>

namespace dlb::core {
namespace {

constexpr std::array<strategy, 8> all_strategies = {
    strategy::none,  strategy::gcdlb,     strategy::gddlb,    strategy::lcdlb,
    strategy::lddlb, strategy::automatic, strategy::adaptive, strategy::auto_all};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::toupper(static_cast<unsigned char>(x)) ==
           std::toupper(static_cast<unsigned char>(y));
  });
}

}  // namespace

std::string_view to_string(strategy s) {
  switch (s) {
    case strategy::none:
      return "NONE";
    case strategy::gcdlb:
      return "GCDLB";
    case strategy::gddlb:
      return "GDDLB";
    case strategy::lcdlb:
      return "LCDLB";
    case strategy::lddlb:
      return "LDDLB";
    case strategy::automatic:
      return "AUTO";
    case strategy::self_scheduling:
      return "SELF";
    case strategy::adaptive:
      return "ADAPTIVE";
    case strategy::auto_all:
      return "AUTO-ALL";
  }
  return "UNKNOWN";
}

std::optional<strategy> parse_strategy(std::string_view text) {
  for (const strategy s : all_strategies) {
    if (equal_ignoring_case(text, to_string(s))) return s;
  }
  return std::nullopt;
}

bool is_global(strategy s) { return s == strategy::gcdlb || s == strategy::gddlb; }
bool is_local(strategy s) { return s == strategy::lcdlb || s == strategy::lddlb; }
bool is_centralized(strategy s) { return s == strategy::gcdlb || s == strategy::lcdlb; }
bool is_distributed(strategy s) { return s == strategy::gddlb || s == strategy::lddlb; }
bool is_customized(strategy s) {
  return s == strategy::automatic || s == strategy::adaptive || s == strategy::auto_all;
}

}  // namespace dlb::core
