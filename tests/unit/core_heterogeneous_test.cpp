// Heterogeneous workstations (dlb/core/heterogeneous.hpp), table-style against cases worked by
// hand: the named speed mixes, lambda_i(0) proportional to speed, groups of equal total power.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/heterogeneous.hpp"

namespace {

using dlb::core::power_groups;
using dlb::core::range_list;
using dlb::core::speed_mix;
using dlb::core::speed_proportional_blocks;
using groups = std::vector<std::vector<std::size_t>>;

TEST(SpeedMix, NamedMixes) {
  struct row {
    std::string name;
    std::size_t P;
    std::vector<double> expected;
  };
  const std::vector<row> rows{
      {"uniform", 2, {1, 1}},
      {"half2x", 4, {1, 1, 2, 2}},
      {"HALF2X", 5, {1, 1, 2, 2, 2}},
      {"half2x", 1, {2}},
      {"quarter4x", 4, {1, 1, 1, 4}},
      {"quarter4x", 8, {1, 1, 1, 1, 1, 1, 4, 4}},
      {"quarter4x", 5, {1, 1, 1, 4, 4}},
      {"ramp", 3, {1, 1.5, 2}},
      {"ramp", 1, {1}},
  };
  for (const auto& r : rows) {
    const auto got = speed_mix(r.name, r.P);
    ASSERT_TRUE(got.has_value()) << r.name;
    EXPECT_EQ(*got, r.expected) << r.name << " P=" << r.P;
  }
  EXPECT_FALSE(speed_mix("half3x", 4).has_value());
  EXPECT_FALSE(speed_mix("", 4).has_value());
  EXPECT_THROW((void)speed_mix("half2x", 0), std::invalid_argument);
}

TEST(SpeedProportionalBlocks, LambdaZeroProportionalToSpeed) {
  struct row {
    std::int64_t I;
    std::vector<double> speeds;
    std::vector<range_list> expected;
  };
  const std::vector<row> rows{
      {12, {1, 1, 2, 2}, {{{0, 2}}, {{2, 4}}, {{4, 8}}, {{8, 12}}}},
      // quotas 3.33 and 6.67: floors 3 and 6, the one left over to the larger fraction.
      {10, {1, 2}, {{{0, 3}}, {{3, 10}}}},
      // Equal speeds: equal_blocks exactly (4, 3, 3).
      {10, {1, 1, 1}, {{{0, 4}}, {{4, 7}}, {{7, 10}}}},
      {0, {1, 4}, {{{0, 0}}, {{0, 0}}}},
  };
  for (const auto& r : rows) {
    auto got = speed_proportional_blocks(r.I, r.speeds);
    ASSERT_EQ(got.size(), r.expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(dlb::core::iteration_count(got[i]), dlb::core::iteration_count(r.expected[i]))
          << "I=" << r.I << " slave " << i;
      if (!r.expected[i].empty() && r.expected[i][0].end > r.expected[i][0].begin) {
        EXPECT_EQ(got[i], r.expected[i]) << "I=" << r.I << " slave " << i;
      }
    }
  }
  EXPECT_EQ(speed_proportional_blocks(10, {1, 1, 1}), dlb::core::equal_blocks(10, 3).slaves);
  EXPECT_THROW((void)speed_proportional_blocks(10, {}), std::invalid_argument);
  EXPECT_THROW((void)speed_proportional_blocks(10, {1, 0}), std::invalid_argument);
  EXPECT_THROW((void)speed_proportional_blocks(-1, {1}), std::invalid_argument);
}

TEST(PowerGroups, EqualTotalPower) {
  struct row {
    std::vector<double> speeds;
    std::size_t K;
    groups expected;
  };
  const std::vector<row> rows{
      // Equal speeds (or K-block groups of equal power already): the paper's K-block groups.
      {{1, 1, 1, 1}, 2, {{0, 1}, {2, 3}}},
      {{1, 1, 1, 0.5, 1, 1, 1, 0.5}, 4, {{0, 1, 2, 3}, {4, 5, 6, 7}}},
      {{1, 2, 3}, 3, {{0, 1, 2}}},
      // half2x, P = 4, K = 2: K-block powers 2 and 4; by decreasing speed 2 -> g0, 3 -> g1,
      // 0 -> g0 (tie, lower group), 1 -> g1: powers 3 and 3.
      {{1, 1, 2, 2}, 2, {{0, 2}, {1, 3}}},
      // quarter4x, P = 8, K = 4: K-block powers 4 and 10; alternating gives 7 and 7.
      {{1, 1, 1, 1, 1, 1, 4, 4}, 4, {{0, 2, 4, 6}, {1, 3, 5, 7}}},
      // One fast slave, P = 8, K = 4: 5 and 4 (the best there is).
      {{2, 1, 1, 1, 1, 1, 1, 1}, 4, {{0, 3, 5, 7}, {1, 2, 4, 6}}},
      // Group sizes kept (2, 2, 1): 4 -> g0, 0 -> g1, 1 -> g2 (full), 2 -> g1, 3 -> g0;
      // ordered by lowest member.
      {{1, 1, 1, 1, 4}, 2, {{0, 2}, {1}, {3, 4}}},
  };
  for (const auto& r : rows) EXPECT_EQ(power_groups(r.speeds, r.K), r.expected);
  EXPECT_THROW((void)power_groups({}, 2), std::invalid_argument);
  EXPECT_THROW((void)power_groups({1, 1}, 0), std::invalid_argument);
  EXPECT_THROW((void)power_groups({1, -1}, 1), std::invalid_argument);
}

}  // namespace
