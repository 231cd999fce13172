// Unit tests of the protocol table (dlb/runtime/strategy_table.hpp) against the paper's section
// 1.2: GCDLB sends the profiles all-to-one and the master decides and instructs the senders;
// GDDLB all-to-all and every slave decides; LCDLB and LDDLB the same within K-block groups. NONE
// synchronizes never. The options' variants (--instructions, --after-no-move, ADAPTIVE,
// --first-sync, --broadcast) resolve to one protocol value, listed here table-style.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "dlb/core/strategy.hpp"
#include "dlb/runtime/strategy_table.hpp"

namespace {

using dlb::broadcast_kind;
using dlb::decision_audience;
using dlb::decision_maker;
using dlb::first_sync_owner;
using dlb::grouping;
using dlb::interrupt_audience;
using dlb::profile_destination;
using dlb::core::after_no_move;
using dlb::core::strategy;

// Section 1.2.1, as the paper describes each strategy.
constexpr dlb::strategy_row kPaper[] = {
    // Global Centralized: the first to run out interrupts every slave; profiles to the central
    // balancer, which sends the instructions to the senders.
    {strategy::gcdlb, interrupt_audience::every_member, profile_destination::to_master,
     decision_maker::by_master, decision_audience::tell_senders, grouping::global},
    // Global Distributed: every slave's profile to all others; each computes the redistribution.
    {strategy::gddlb, interrupt_audience::active_members, profile_destination::to_other_members,
     decision_maker::by_every_member, decision_audience::tell_nobody, grouping::global},
    // Local Centralized: as GCDLB, within K-block groups, groups served by the one balancer.
    {strategy::lcdlb, interrupt_audience::every_member, profile_destination::to_master,
     decision_maker::by_master, decision_audience::tell_senders, grouping::k_block},
    // Local Distributed: as GDDLB, within K-block groups.
    {strategy::lddlb, interrupt_audience::active_members, profile_destination::to_other_members,
     decision_maker::by_every_member, decision_audience::tell_nobody, grouping::k_block},
};

TEST(StrategyTable, EachBalancingStrategyAsThePaperDescribesIt) {
  for (const dlb::strategy_row& want : kPaper) {
    SCOPED_TRACE(std::string(dlb::core::to_string(want.strategy)));
    const dlb::strategy_row* row = dlb::find_strategy_row(want.strategy);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->interrupts, want.interrupts);
    EXPECT_EQ(row->profiles_to, want.profiles_to);
    EXPECT_EQ(row->decided_by, want.decided_by);
    EXPECT_EQ(row->told, want.told);
    EXPECT_EQ(row->groups, want.groups);
  }
}

TEST(StrategyTable, OneRowPerBalancingStrategyAndNoneForTheOthers) {
  std::set<strategy> seen;
  for (const auto& row : dlb::strategy_table) EXPECT_TRUE(seen.insert(row.strategy).second);
  EXPECT_EQ(seen, std::set<strategy>(dlb::core::balancing_strategies.begin(),
                                     dlb::core::balancing_strategies.end()));
  for (strategy s :
       {strategy::none, strategy::automatic, strategy::adaptive, strategy::self_scheduling}) {
    SCOPED_TRACE(std::string(dlb::core::to_string(s)));
    EXPECT_EQ(dlb::find_strategy_row(s), nullptr);
    EXPECT_FALSE(dlb::resolve_protocol(s, {}).has_value());
  }
  // NONE and self-scheduling have no synchronization at all; customized mode starts with the
  // master's.
  EXPECT_FALSE(dlb::first_protocol(strategy::none, {}).has_value());
  EXPECT_FALSE(dlb::first_protocol(strategy::self_scheduling, {}).has_value());
  EXPECT_EQ(dlb::first_protocol(strategy::automatic, {}), dlb::master_sync_protocol({}));
  EXPECT_EQ(dlb::first_protocol(strategy::adaptive, {}), dlb::master_sync_protocol({}));
}

// The table and the core's two axes (core/strategy.hpp) say the same.
TEST(StrategyTable, AgreesWithTheCoreAxes) {
  for (const auto& row : dlb::strategy_table) {
    SCOPED_TRACE(std::string(dlb::core::to_string(row.strategy)));
    EXPECT_EQ(row.decided_by == decision_maker::by_master, dlb::core::is_centralized(row.strategy));
    EXPECT_EQ(row.groups == grouping::k_block, dlb::core::is_local(row.strategy));
  }
}

// What each option does to the resolved protocol of each strategy.
TEST(StrategyTable, VariantsResolveToOneProtocol) {
  struct {
    strategy s;
    dlb::protocol_options o;
    decision_audience told;
    interrupt_audience interrupts;
  } const cases[] = {
      // The paper's centralized protocol: instructions to the senders, interrupts to all.
      {strategy::gcdlb, {}, decision_audience::tell_senders, interrupt_audience::every_member},
      {strategy::lcdlb, {}, decision_audience::tell_senders, interrupt_audience::every_member},
      // Every member must learn the outcome: the decision to the whole group.
      {strategy::gcdlb,
       {.instructions_to_senders = false},
       decision_audience::tell_group,
       interrupt_audience::active_members},
      {strategy::lcdlb,
       {.after_no_move = after_no_move::stop},
       decision_audience::tell_group,
       interrupt_audience::active_members},
      {strategy::gcdlb,
       {.adaptive = true},
       decision_audience::tell_group,
       interrupt_audience::active_members},
      // The distributed strategies tell nobody, whatever the options.
      {strategy::gddlb,
       {.instructions_to_senders = false},
       decision_audience::tell_nobody,
       interrupt_audience::active_members},
      {strategy::lddlb,
       {.after_no_move = after_no_move::stop, .adaptive = true},
       decision_audience::tell_nobody,
       interrupt_audience::active_members},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(dlb::core::to_string(c.s)));
    const auto p = dlb::resolve_protocol(c.s, c.o);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->strategy, c.s);
    EXPECT_EQ(p->told, c.told);
    EXPECT_EQ(p->interrupts, c.interrupts);
    EXPECT_EQ(p->after_no_move, c.o.after_no_move);
    EXPECT_FALSE(p->commits);
  }
}

// Who owns the first synchronization, per --first-sync.
TEST(StrategyTable, FirstSynchronizationByOwner) {
  for (strategy s : dlb::core::balancing_strategies) {
    SCOPED_TRACE(std::string(dlb::core::to_string(s)));
    const dlb::protocol_options own{.first_sync = first_sync_owner::strategy};
    EXPECT_EQ(dlb::first_protocol(s, own), dlb::resolve_protocol(s, own));
    for (auto f : {first_sync_owner::master_group, first_sync_owner::master_global}) {
      const dlb::protocol_options o{.first_sync = f};
      const auto p = dlb::first_protocol(s, o);
      ASSERT_TRUE(p.has_value());
      EXPECT_TRUE(p->commits);
      EXPECT_EQ(p->groups, grouping::global);  // one synchronization of every slave
      EXPECT_EQ(p->profiles_to, profile_destination::to_master);
      EXPECT_EQ(p->decided_by, decision_maker::by_master);
      EXPECT_EQ(p->told, decision_audience::tell_group);  // every slave learns its commitment
      EXPECT_EQ(p->first_sync, f);
    }
  }
}

// Every protocol any options resolve to can run; rows that cannot are rejected.
TEST(StrategyTable, EveryResolvedProtocolIsConsistent) {
  for (strategy s : dlb::core::balancing_strategies)
    for (auto rule : {after_no_move::idle, after_no_move::stop})
      for (bool senders : {true, false})
        for (bool adaptive : {true, false})
          for (auto f : {first_sync_owner::strategy, first_sync_owner::master_group,
                         first_sync_owner::master_global})
            for (auto b : {broadcast_kind::unicast, broadcast_kind::mcast}) {
              const dlb::protocol_options o{rule, senders, f, b, adaptive};
              EXPECT_TRUE(dlb::is_consistent(*dlb::resolve_protocol(s, o)));
              EXPECT_TRUE(dlb::is_consistent(*dlb::first_protocol(s, o)));
              EXPECT_EQ(dlb::resolve_protocol(s, o)->broadcast, b);
            }
  auto p = *dlb::resolve_protocol(strategy::gcdlb, {});
  p.decided_by = decision_maker::by_every_member;  // nobody would see the others' profiles
  EXPECT_FALSE(dlb::is_consistent(p));
  p = *dlb::resolve_protocol(strategy::gcdlb, {});
  p.told = decision_audience::tell_nobody;  // the master's decision would reach nobody
  EXPECT_FALSE(dlb::is_consistent(p));
  p = *dlb::resolve_protocol(strategy::gcdlb, {});
  p.interrupts = interrupt_audience::active_members;  // blind members would not interrupt all
  EXPECT_FALSE(dlb::is_consistent(p));
  p = dlb::master_sync_protocol({});
  p.told = decision_audience::tell_senders;  // a commitment every slave must hear
  p.interrupts = interrupt_audience::every_member;
  EXPECT_FALSE(dlb::is_consistent(p));
}

TEST(StrategyTable, GroupSizes) {
  struct {
    strategy s;
    int group_size;  // for K = 3, P = 8
  } const cases[] = {
      {strategy::none, 8},  {strategy::gcdlb, 8}, {strategy::gddlb, 8},
      {strategy::lcdlb, 3}, {strategy::lddlb, 3}, {strategy::automatic, 8},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(dlb::core::to_string(c.s)));
    EXPECT_EQ(dlb::group_size_under(c.s, 3, 8), c.group_size);
    if (const auto p = dlb::first_protocol(c.s, {.first_sync = first_sync_owner::strategy})) {
      EXPECT_EQ(dlb::group_size_under(*p, 3, 8), c.group_size);
    }
  }
}

TEST(StrategyTable, OptionNames) {
  for (auto f : {first_sync_owner::strategy, first_sync_owner::master_group,
                 first_sync_owner::master_global})
    EXPECT_EQ(dlb::parse_first_sync(dlb::to_string(f)), f);
  for (auto b : {broadcast_kind::unicast, broadcast_kind::mcast})
    EXPECT_EQ(dlb::parse_broadcast(dlb::to_string(b)), b);
  EXPECT_EQ(dlb::to_string(first_sync_owner::master_global), "master-global");
  EXPECT_FALSE(dlb::parse_first_sync("master").has_value());
  EXPECT_FALSE(dlb::parse_broadcast("multicast").has_value());
}

}  // namespace
