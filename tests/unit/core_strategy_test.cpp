// Unit tests of strategy names and axes.
#include <gtest/gtest.h>

#include "dlb/core/strategy.hpp"

namespace dlb::core {
namespace {

TEST(Strategy, ParsesNamesInAnyCase) {
  struct row {
    const char* text;
    std::optional<strategy> expected;
  };
  const std::vector<row> table = {
      {"GCDLB", strategy::gcdlb},    {"gddlb", strategy::gddlb},  {"LcDlB", strategy::lcdlb},
      {"lddlb", strategy::lddlb},    {"none", strategy::none},    {"AUTO", strategy::automatic},
      {"auto", strategy::automatic}, {"", std::nullopt},          {"GDDL", std::nullopt},
      {"GDDLB ", std::nullopt},      {"automatic", std::nullopt}, {"GDDLBX", std::nullopt},
  };
  for (const auto& r : table) EXPECT_EQ(parse_strategy(r.text), r.expected) << '"' << r.text << '"';
}

TEST(Strategy, NamesRoundTrip) {
  struct row {
    strategy s;
    const char* name;
  };
  const std::vector<row> table = {
      {strategy::none, "NONE"},   {strategy::gcdlb, "GCDLB"}, {strategy::gddlb, "GDDLB"},
      {strategy::lcdlb, "LCDLB"}, {strategy::lddlb, "LDDLB"}, {strategy::automatic, "AUTO"},
  };
  for (const auto& r : table) {
    EXPECT_EQ(to_string(r.s), r.name);
    EXPECT_EQ(parse_strategy(r.name), r.s);
  }
}

TEST(Strategy, SitsOnTwoAxes) {
  struct row {
    strategy s;
    bool global;
    bool local;
    bool centralized;
    bool distributed;
  };
  const std::vector<row> table = {
      {strategy::gcdlb, true, false, true, false},
      {strategy::gddlb, true, false, false, true},
      {strategy::lcdlb, false, true, true, false},
      {strategy::lddlb, false, true, false, true},
      {strategy::none, false, false, false, false},
      {strategy::automatic, false, false, false, false},
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
