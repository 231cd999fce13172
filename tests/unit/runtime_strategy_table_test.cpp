// Unit tests of the protocol table (dlb/runtime/strategy_table.hpp) against the paper's section
// 1.2: GCDLB sends the profiles all-to-one and the master decides and instructs the senders;
// GDDLB all-to-all and every slave decides; LCDLB and LDDLB the same within K-block groups. NONE
// synchronizes never. The options' variants (--instructions, --after-no-move, ADAPTIVE,
// --first-sync, --broadcast) resolve to one protocol value, listed here table-style.
#include <gtest/gtest.h>

#include <optional>
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
using dlb::core::scheme;

// Section 1.2.1 defines the four strategies by the two words of their names. Global: one group of
// all P slaves; Local: K-block groups. Centralized: the profiles go to the central balancer on
// the master, which computes the redistribution and sends the instructions to the senders;
// Distributed: each slave's profile goes to every other, and each computes the redistribution
// itself, so nobody is told. A slave told nothing of the others' outcomes cannot know who is
// still active, so under Centralized the first to run out interrupts every member. Each row is
// checked against these rules, read from its name (core::to_string), not against a copy of it.
TEST(StrategyTable, EachRowFollowsThePapersDefinitionOfItsName) {
  for (scheme s : dlb::core::balancing_strategies) {
    const std::string name(dlb::core::to_string(s));
    SCOPED_TRACE(name);
    ASSERT_EQ(name.size(), 5u);
    ASSERT_TRUE(name[0] == 'G' || name[0] == 'L');
    ASSERT_TRUE(name[1] == 'C' || name[1] == 'D');
    const bool global = name[0] == 'G';
    const bool centralized = name[1] == 'C';
    const dlb::strategy_row* row = &dlb::strategy_row_of(s);
    EXPECT_EQ(row->strategy, s);
    EXPECT_EQ(row->groups, global ? grouping::global : grouping::k_block);
    EXPECT_EQ(row->profiles_to,
              centralized ? profile_destination::to_master : profile_destination::to_other_members);
    EXPECT_EQ(row->decided_by,
              centralized ? decision_maker::by_master : decision_maker::by_every_member);
    EXPECT_EQ(row->told,
              centralized ? decision_audience::tell_senders : decision_audience::tell_nobody);
    EXPECT_EQ(row->interrupts,
              centralized ? interrupt_audience::every_member : interrupt_audience::active_members);
    // The core's two axes (core/strategy.hpp) say the same of the name.
    EXPECT_EQ(dlb::core::is_centralized(s), centralized);
    EXPECT_EQ(dlb::core::is_local(s), !global);
  }
}

TEST(StrategyTable, OneRowPerBalancingStrategyAndNoneForTheOthers) {
  std::set<scheme> seen;
  for (const auto& row : dlb::strategy_table) EXPECT_TRUE(seen.insert(row.strategy).second);
  EXPECT_EQ(seen, std::set<scheme>(dlb::core::balancing_strategies.begin(),
                                   dlb::core::balancing_strategies.end()));
  // NONE and self-scheduling have no synchronization at all; customized mode starts with the
  // master's.
  for (const char* name : {"NONE", "SS", "CSS:4", "GSS"}) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(dlb::first_protocol(dlb::core::parse_policy(name), {}).has_value());
  }
  for (const char* name : {"AUTO", "ADAPTIVE", "AUTO-ALL"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(dlb::first_protocol(dlb::core::parse_policy(name), {}),
              dlb::master_sync_protocol({}));
  }
}

// What each option does to the resolved protocol of each strategy.
TEST(StrategyTable, VariantsResolveToOneProtocol) {
  struct {
    scheme s;
    dlb::protocol_options o;
    decision_audience told;
    interrupt_audience interrupts;
  } const cases[] = {
      // The paper's centralized protocol: instructions to the senders, interrupts to all.
      {scheme::gcdlb, {}, decision_audience::tell_senders, interrupt_audience::every_member},
      {scheme::lcdlb, {}, decision_audience::tell_senders, interrupt_audience::every_member},
      // Every member must learn the outcome: the decision to the whole group.
      {scheme::gcdlb,
       {.instructions_to_senders = false},
       decision_audience::tell_group,
       interrupt_audience::active_members},
      {scheme::lcdlb,
       {.after_no_move = after_no_move::stop},
       decision_audience::tell_group,
       interrupt_audience::active_members},
      {scheme::gcdlb,
       {.adaptive = true},
       decision_audience::tell_group,
       interrupt_audience::active_members},
      // The distributed strategies tell nobody, whatever the options.
      {scheme::gddlb,
       {.instructions_to_senders = false},
       decision_audience::tell_nobody,
       interrupt_audience::active_members},
      {scheme::lddlb,
       {.after_no_move = after_no_move::stop, .adaptive = true},
       decision_audience::tell_nobody,
       interrupt_audience::active_members},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(dlb::core::to_string(c.s)));
    const auto p = std::optional(dlb::resolve_protocol(c.s, c.o));
    EXPECT_EQ(p->strategy, c.s);
    EXPECT_EQ(p->told, c.told);
    EXPECT_EQ(p->interrupts, c.interrupts);
    EXPECT_EQ(p->after_no_move, c.o.after_no_move);
    EXPECT_FALSE(p->commits);
  }
}

// Who owns the first synchronization, per --first-sync.
TEST(StrategyTable, FirstSynchronizationByOwner) {
  for (scheme s : dlb::core::balancing_strategies) {
    SCOPED_TRACE(std::string(dlb::core::to_string(s)));
    const dlb::protocol_options own{.first_sync = first_sync_owner::strategy};
    EXPECT_EQ(dlb::first_protocol(dlb::core::balancing{s}, own), dlb::resolve_protocol(s, own));
    for (auto f : {first_sync_owner::master_group, first_sync_owner::master_global}) {
      const dlb::protocol_options o{.first_sync = f};
      const auto p = dlb::first_protocol(dlb::core::balancing{s}, o);
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
  for (scheme s : dlb::core::balancing_strategies)
    for (auto rule : {after_no_move::idle, after_no_move::stop})
      for (bool senders : {true, false})
        for (bool adaptive : {true, false})
          for (auto f : {first_sync_owner::strategy, first_sync_owner::master_group,
                         first_sync_owner::master_global})
            for (auto b : {broadcast_kind::unicast, broadcast_kind::mcast}) {
              const dlb::protocol_options o{rule, senders, f, b, adaptive};
              EXPECT_TRUE(dlb::is_consistent(dlb::resolve_protocol(s, o)));
              EXPECT_TRUE(dlb::is_consistent(*dlb::first_protocol(dlb::core::balancing{s}, o)));
              EXPECT_EQ(dlb::resolve_protocol(s, o).broadcast, b);
            }
  auto p = dlb::resolve_protocol(scheme::gcdlb, {});
  p.decided_by = decision_maker::by_every_member;  // nobody would see the others' profiles
  EXPECT_FALSE(dlb::is_consistent(p));
  p = dlb::resolve_protocol(scheme::gcdlb, {});
  p.told = decision_audience::tell_nobody;  // the master's decision would reach nobody
  EXPECT_FALSE(dlb::is_consistent(p));
  p = dlb::resolve_protocol(scheme::gcdlb, {});
  p.interrupts = interrupt_audience::active_members;  // blind members would not interrupt all
  EXPECT_FALSE(dlb::is_consistent(p));
  p = dlb::master_sync_protocol({});
  p.told = decision_audience::tell_senders;  // a commitment every slave must hear
  p.interrupts = interrupt_audience::every_member;
  EXPECT_FALSE(dlb::is_consistent(p));
}

TEST(StrategyTable, GroupSizes) {
  struct {
    scheme s;
    int group_size;  // for K = 3, P = 8
  } const cases[] = {
      {scheme::gcdlb, 8},
      {scheme::gddlb, 8},
      {scheme::lcdlb, 3},
      {scheme::lddlb, 3},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(dlb::core::to_string(c.s)));
    EXPECT_EQ(dlb::group_size_under(c.s, 3, 8), c.group_size);
    const auto p =
        dlb::first_protocol(dlb::core::balancing{c.s}, {.first_sync = first_sync_owner::strategy});
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(dlb::group_size_under(*p, 3, 8), c.group_size);
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
