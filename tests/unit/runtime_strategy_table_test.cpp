// Unit tests of the strategy table (dlb/runtime/strategy_table.hpp) against the paper's section
// 1.2: GCDLB sends the profiles all-to-one and the master decides; GDDLB all-to-all and every
// slave decides; LCDLB and LDDLB the same within K-block groups. NONE synchronizes never.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "dlb/core/strategy.hpp"
#include "dlb/runtime/strategy_table.hpp"

namespace {

using dlb::decision_audience;
using dlb::decision_maker;
using dlb::grouping;
using dlb::profile_destination;
using dlb::core::strategy;

// Section 1.2.1, as the paper describes each strategy.
constexpr dlb::strategy_row kPaper[] = {
    // Global Centralized: profiles to the central balancer, which sends the instructions.
    {strategy::gcdlb, profile_destination::to_master, decision_maker::by_master,
     decision_audience::tell_group, grouping::global},
    // Global Distributed: every slave's profile to all others; each computes the redistribution.
    {strategy::gddlb, profile_destination::to_other_members, decision_maker::by_every_member,
     decision_audience::tell_nobody, grouping::global},
    // Local Centralized: as GCDLB, within K-block groups, groups served by the one balancer.
    {strategy::lcdlb, profile_destination::to_master, decision_maker::by_master,
     decision_audience::tell_group, grouping::k_block},
    // Local Distributed: as GDDLB, within K-block groups.
    {strategy::lddlb, profile_destination::to_other_members, decision_maker::by_every_member,
     decision_audience::tell_nobody, grouping::k_block},
};

TEST(StrategyTable, EachBalancingStrategyAsThePaperDescribesIt) {
  for (const dlb::strategy_row& want : kPaper) {
    SCOPED_TRACE(std::string(dlb::core::to_string(want.strategy)));
    const dlb::strategy_row* row = dlb::find_strategy_row(want.strategy);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->strategy, want.strategy);
    EXPECT_EQ(row->profiles_to, want.profiles_to);
    EXPECT_EQ(row->decided_by, want.decided_by);
    EXPECT_EQ(row->told, want.told);
    EXPECT_EQ(row->groups, want.groups);
  }
}

TEST(StrategyTable, OneRowPerBalancingStrategyAndNoneForNoneOrAuto) {
  std::set<strategy> seen;
  for (const auto& row : dlb::strategy_table) EXPECT_TRUE(seen.insert(row.strategy).second);
  EXPECT_EQ(seen, std::set<strategy>(dlb::core::balancing_strategies.begin(),
                                     dlb::core::balancing_strategies.end()));
  EXPECT_EQ(dlb::find_strategy_row(strategy::none), nullptr);
  EXPECT_EQ(dlb::find_strategy_row(strategy::automatic), nullptr);
  EXPECT_THROW(dlb::strategy_row_of(strategy::none), std::logic_error);
  EXPECT_THROW(dlb::strategy_row_of(strategy::automatic), std::logic_error);
  EXPECT_EQ(&dlb::strategy_row_of(strategy::lddlb), dlb::find_strategy_row(strategy::lddlb));
}

// The table and the core's two axes (core/strategy.hpp) say the same.
TEST(StrategyTable, AgreesWithTheCoreAxes) {
  for (const auto& row : dlb::strategy_table) {
    SCOPED_TRACE(std::string(dlb::core::to_string(row.strategy)));
    EXPECT_EQ(row.decided_by == decision_maker::by_master, dlb::core::is_centralized(row.strategy));
    EXPECT_EQ(row.decided_by == decision_maker::by_every_member,
              dlb::core::is_distributed(row.strategy));
    EXPECT_EQ(row.groups == grouping::k_block, dlb::core::is_local(row.strategy));
    EXPECT_EQ(row.groups == grouping::global, dlb::core::is_global(row.strategy));
    EXPECT_TRUE(dlb::is_consistent(row));
  }
}

TEST(StrategyTable, GroupSizeAndWhereProfilesGo) {
  struct {
    strategy s;
    int group_size;  // for K = 3, P = 8
    bool profiles_to_master;
  } const cases[] = {
      {strategy::none, 8, false},
      {strategy::gcdlb, 8, true},
      {strategy::gddlb, 8, false},
      {strategy::lcdlb, 3, true},
      {strategy::lddlb, 3, false},
      // Customized mode's own protocol is GCDLB's (context::protocol_), never `automatic`.
      {strategy::automatic, 8, false},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(dlb::core::to_string(c.s)));
    EXPECT_EQ(dlb::group_size_under(c.s, 3, 8), c.group_size);
    EXPECT_EQ(dlb::profiles_to_master(c.s), c.profiles_to_master);
  }
}

// A row that sends the profiles to the master but lets every member decide cannot work: the
// members would never see each other's profiles.
TEST(StrategyTable, InconsistentRowsAreRejected) {
  const dlb::strategy_row bad_profiles{strategy::gcdlb, profile_destination::to_master,
                                       decision_maker::by_every_member,
                                       decision_audience::tell_nobody, grouping::global};
  const dlb::strategy_row bad_audience{strategy::gcdlb, profile_destination::to_master,
                                       decision_maker::by_master, decision_audience::tell_nobody,
                                       grouping::global};
  EXPECT_FALSE(dlb::is_consistent(bad_profiles));
  EXPECT_FALSE(dlb::is_consistent(bad_audience));
}

}  // namespace
