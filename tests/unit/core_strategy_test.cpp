// Unit tests of the balancing strategies' names and axes.
#include <gtest/gtest.h>

#include "dlb/core/strategy.hpp"

namespace dlb::core {
namespace {

TEST(Strategy, ParsesRowNamesInAnyCase) {
  struct row {
    const char* text;
    std::optional<scheme> expected;
  };
  const std::vector<row> table = {
      {"GCDLB", scheme::gcdlb}, {"gddlb", scheme::gddlb}, {"LcDlB", scheme::lcdlb},
      {"lddlb", scheme::lddlb}, {"none", std::nullopt},   {"AUTO", std::nullopt},
      {"", std::nullopt},       {"GDDL", std::nullopt},   {"GDDLB ", std::nullopt},
      {"GDDLBX", std::nullopt},
  };
  for (const auto& r : table) EXPECT_EQ(parse_scheme(r.text), r.expected) << '"' << r.text << '"';
}

TEST(Strategy, NamesRoundTripAndRowsAreInTheirOrder) {
  struct row {
    scheme s;
    const char* name;
    std::size_t index;
  };
  const std::vector<row> table = {
      {scheme::gcdlb, "GCDLB", 0},
      {scheme::gddlb, "GDDLB", 1},
      {scheme::lcdlb, "LCDLB", 2},
      {scheme::lddlb, "LDDLB", 3},
  };
  for (const auto& r : table) {
    EXPECT_EQ(to_string(r.s), r.name);
    EXPECT_EQ(parse_scheme(r.name), r.s);
    EXPECT_EQ(index_of(r.s), r.index);
    EXPECT_EQ(balancing_strategies[r.index], r.s);
  }
}

TEST(Strategy, SitsOnTwoAxes) {
  struct row {
    scheme s;
    bool global;
    bool local;
    bool centralized;
    bool distributed;
  };
  const std::vector<row> table = {
      {scheme::gcdlb, true, false, true, false},
      {scheme::gddlb, true, false, false, true},
      {scheme::lcdlb, false, true, true, false},
      {scheme::lddlb, false, true, false, true},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(to_string(r.s));
    EXPECT_EQ(is_global(r.s), r.global);
    EXPECT_EQ(is_local(r.s), r.local);
    EXPECT_EQ(is_centralized(r.s), r.centralized);
    EXPECT_EQ(is_distributed(r.s), r.distributed);
  }
}

}  // namespace
}  // namespace dlb::core
