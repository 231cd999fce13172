// strategy_table.hpp: the four balancing strategies of section 1.2.1 as one table. They share
// the decision (core::decide_balance) and differ only in who talks to whom at a synchronization:
// where the profiles go, who computes the decision, who is told it, and which slaves form a
// group. The synchronization routines (context::run_sync on the slaves, DLB_master_sync on the
// master, DLB_init's group size) read this table; NONE has no row (no synchronization), and
// the customized mode (AUTO) runs GCDLB's row until it commits to one of the four.
#pragma once

#include <array>
#include <stdexcept>
#include <string>

#include "dlb/core/strategy.hpp"

namespace dlb {

// Where a member sends its profile at a synchronization.
enum class profile_destination {
  to_master,        // the balancer on the master (all-to-one)
  to_other_members  // every other active member of its group (all-to-all within the group)
};
// Who computes the group's decision.
enum class decision_maker {
  by_master,       // the central balancer, one group at a time as their profiles complete
  by_every_member  // every active member, identically, from the same profiles
};
// Who is sent the decision.
enum class decision_audience {
  tell_group,  // one DECISION multicast to the members whose profiles it decided on
  tell_nobody  // every member computed it
};
// Which slaves synchronize together.
enum class grouping {
  global,  // all P slaves (K = P)
  k_block  // K-block groups: slaves 0..K-1, K..2K-1, ... (core/groups.hpp)
};

struct strategy_row {
  core::strategy strategy;
  profile_destination profiles_to;
  decision_maker decided_by;
  decision_audience told;
  grouping groups;
};

// Section 1.2.1: one row per balancing strategy.
inline constexpr std::array<strategy_row, 4> strategy_table = [] {
  using enum core::strategy;
  using enum profile_destination;
  using enum decision_maker;
  using enum decision_audience;
  using enum grouping;
  // clang-format off
  return std::array<strategy_row, 4>{{
      // strategy  profiles go to     decision computed by  who is told   groups
      {gcdlb,      to_master,         by_master,            tell_group,   global},
      {gddlb,      to_other_members,  by_every_member,      tell_nobody,  global},
      {lcdlb,      to_master,         by_master,            tell_group,   k_block},
      {lddlb,      to_other_members,  by_every_member,      tell_nobody,  k_block},
  }};
  // clang-format on
}();

// The row of a balancing strategy; null for none and automatic, which have no protocol of their
// own.
constexpr const strategy_row* find_strategy_row(core::strategy s) {
  for (const strategy_row& r : strategy_table) {
    if (r.strategy == s) return &r;
  }
  return nullptr;
}

// The row of the protocol in force at a synchronization; throws std::logic_error for none and
// automatic (no synchronization runs under them).
inline const strategy_row& strategy_row_of(core::strategy s) {
  const strategy_row* r = find_strategy_row(s);
  if (!r)
    throw std::logic_error("no synchronization protocol for strategy " + std::string(to_string(s)));
  return *r;
}

// The size of the groups under strategy s: K for K-block groups, P otherwise (NONE runs as one
// global group that never synchronizes).
constexpr int group_size_under(core::strategy s, int K, int P) {
  const strategy_row* r = find_strategy_row(s);
  return r && r->groups == grouping::k_block ? K : P;
}

// Does the master receive profiles under strategy s?
constexpr bool profiles_to_master(core::strategy s) {
  const strategy_row* r = find_strategy_row(s);
  return r && r->profiles_to == profile_destination::to_master;
}

// The protocol is consistent: a decision is sent exactly when the master computes it, and the
// master computes it exactly when it receives the profiles.
constexpr bool is_consistent(const strategy_row& r) {
  const bool central = r.decided_by == decision_maker::by_master;
  return central == (r.profiles_to == profile_destination::to_master) &&
         central == (r.told == decision_audience::tell_group);
}
static_assert([] {
  for (const strategy_row& r : strategy_table) {
    if (!is_consistent(r)) return false;
  }
  return true;
}());

}  // namespace dlb
