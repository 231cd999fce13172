// The balancing strategies' names (strategy.hpp).
#include "dlb/core/strategy.hpp"

#include <algorithm>
#include <cctype>

namespace dlb::core {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::toupper(static_cast<unsigned char>(x)) ==
           std::toupper(static_cast<unsigned char>(y));
  });
}

std::optional<scheme> parse_scheme(std::string_view text) {
  for (const balancing_row& r : balancing_rows)
    if (equal_ignoring_case(text, r.name)) return r.s;
  return std::nullopt;
}

}  // namespace dlb::core
