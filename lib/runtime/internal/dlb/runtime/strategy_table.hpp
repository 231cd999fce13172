// strategy_table.hpp: the synchronization protocols of section 1.2.1 as data. The four balancing
// strategies share the decision (core::decide_balance) and differ only in who talks to whom at a
// synchronization. One table says, per strategy, who is interrupted, where the profiles go, who
// decides, who is told, and which slaves form a group; the options add the columns the paper
// leaves open (what follows a decision not to move, who owns the first synchronization, how a
// broadcast is sent) and the variants of the "told" column. resolve_protocol() turns a strategy
// and those options into one sync_protocol value, computed once per loop (and again when
// customized mode commits); the synchronization routines (context::run_sync and the interrupt
// calls on the slaves, DLB_master_sync on the master) read only that value. NONE has no row (no
// synchronization); the master's own synchronization (customized mode's first one and ADAPTIVE's
// re-selections, and every strategy's first one under --first-sync master-*) is
// master_sync_protocol().
#pragma once

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "dlb/core/policy.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/core/strategy.hpp"
#include "dlb/runtime/network.hpp"

namespace dlb {

// Whom the member that runs out of work interrupts.
enum class interrupt_audience {
  active_members,  // the members it knows to be active (it saw every decision)
  every_member     // every other member: it does not see the others' outcomes (told senders only)
};
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
  tell_senders,  // the paper's centralized protocol: an INSTRUCTION to each sender, a NOTICE to a
                 // requester that gets nothing; a member with work goes on after its profile
  tell_group,    // one DECISION multicast to the members whose profiles it decided on, who wait
  tell_nobody    // every member computed it
};
// Which slaves synchronize together.
enum class grouping {
  global,  // all P slaves (K = P)
  k_block  // K-block groups: slaves 0..K-1, K..2K-1, ... (core/groups.hpp)
};
// Who owns a loop's first synchronization: first_sync_owner (params.hpp).
// How a message to several tasks is sent: broadcast_kind (params.hpp).

// One strategy's protocol as section 1.2.1 describes it.
struct strategy_row {
  core::scheme strategy;
  interrupt_audience interrupts;
  profile_destination profiles_to;
  decision_maker decided_by;
  decision_audience told;
  grouping groups;
};

// Section 1.2.1: one row per balancing strategy.
inline constexpr std::array<strategy_row, core::kBalancingStrategies> strategy_table = [] {
  using enum core::scheme;
  using enum interrupt_audience;
  using enum profile_destination;
  using enum decision_maker;
  using enum decision_audience;
  using enum grouping;
  // clang-format off
  return std::array<strategy_row, core::kBalancingStrategies>{{
      // strategy  interrupted      profiles go to     decided by        told          groups
      {gcdlb,      every_member,    to_master,         by_master,        tell_senders, global},
      {gddlb,      active_members,  to_other_members,  by_every_member,  tell_nobody,  global},
      {lcdlb,      every_member,    to_master,         by_master,        tell_senders, k_block},
      {lddlb,      active_members,  to_other_members,  by_every_member,  tell_nobody,  k_block},
#ifdef DLB_TEST_STRATEGY_ROW
      // The tests' row (core::scheme::test_row): centralized and global, and the decision
      // multicast to the whole group (as --instructions all), so every member sees every outcome.
      {test_row,   active_members,  to_master,         by_master,        tell_group,   global},
#endif
  }};
  // clang-format on
}();
// The table and the core's rows of balancing strategies (the predictions' order) are one list,
// and each row's columns agree with the core's axes (centralized: the master decides; global:
// one group of all slaves).
static_assert([] {
  for (std::size_t k = 0; k < strategy_table.size(); ++k) {
    const auto& core_row = core::balancing_rows[k];
    const auto& r = strategy_table[k];
    if (r.strategy != core_row.s) return false;
    if ((r.decided_by == decision_maker::by_master) != core_row.centralized) return false;
    if ((r.groups == grouping::global) != core_row.global) return false;
  }
  return true;
}());

// The row of a balancing strategy (the table is in the core's order, checked above).
constexpr const strategy_row& strategy_row_of(core::scheme s) {
  return strategy_table[core::index_of(s)];
}

// The options that choose among the variants (--after-no-move, --instructions, --first-sync,
// --broadcast), and whether the strategy runs under ADAPTIVE (whose every committed
// synchronization must reach every member before it returns to re-selection).
struct protocol_options {
  core::after_no_move after_no_move = core::after_no_move::idle;
  bool instructions_to_senders = true;  // --instructions senders (the paper) or all
  first_sync_owner first_sync = first_sync_owner::master_group;
  broadcast_kind broadcast = broadcast_kind::mcast;
  bool adaptive = false;
};

// The protocol in force at a synchronization: every column, resolved.
struct sync_protocol {
  std::optional<core::scheme> strategy;  // whose row (empty: the master's own sync)
  interrupt_audience interrupts = interrupt_audience::active_members;
  profile_destination profiles_to = profile_destination::to_master;
  decision_maker decided_by = decision_maker::by_master;
  decision_audience told = decision_audience::tell_group;
  grouping groups = grouping::global;
  core::after_no_move after_no_move = core::after_no_move::idle;
  first_sync_owner first_sync = first_sync_owner::master_group;
  broadcast_kind broadcast = broadcast_kind::mcast;
  // The master's own synchronization ends in a commitment (customized mode's choice, or the
  // strategy the run names, under --first-sync master-*): the decision goes to every member
  // with the strategy and group each member continues in.
  bool commits = false;
  constexpr bool operator==(const sync_protocol&) const = default;
};

// The strategy's protocol under the options. The paper's centralized row tells the senders only;
// three variants tell the whole group instead, because every member must learn the outcome:
// --instructions all, the stop rule (balancing in the group ends) and ADAPTIVE. A member that
// sees every outcome interrupts only the members it knows to be active.
constexpr sync_protocol resolve_protocol(core::scheme s, const protocol_options& o) {
  const strategy_row* r = &strategy_row_of(s);
  sync_protocol p;
  p.strategy = s;
  p.interrupts = r->interrupts;
  p.profiles_to = r->profiles_to;
  p.decided_by = r->decided_by;
  p.told = r->told;
  p.groups = r->groups;
  p.after_no_move = o.after_no_move;
  p.first_sync = o.first_sync;
  p.broadcast = o.broadcast;
  if (p.told == decision_audience::tell_senders &&
      (!o.instructions_to_senders || o.after_no_move == core::after_no_move::stop || o.adaptive)) {
    p.told = decision_audience::tell_group;
    p.interrupts = interrupt_audience::active_members;
  }
  return p;
}

// The master's own synchronization: every active slave's profile to the master (one global
// group), which decides and tells each its decision with the commitment.
constexpr sync_protocol master_sync_protocol(const protocol_options& o) {
  sync_protocol p;
  p.strategy = std::nullopt;
  p.interrupts = interrupt_audience::active_members;
  p.profiles_to = profile_destination::to_master;
  p.decided_by = decision_maker::by_master;
  p.told = decision_audience::tell_group;
  p.groups = grouping::global;
  p.after_no_move = o.after_no_move;
  p.first_sync = o.first_sync;
  p.broadcast = o.broadcast;
  p.commits = true;
  return p;
}

// The protocol of a loop's first synchronization under policy p: the master's for customized
// mode, and for the balancing strategies unless --first-sync strategy; nothing for NONE and the
// self-scheduling rules (which have no synchronization).
inline std::optional<sync_protocol> first_protocol(const core::policy& p,
                                                   const protocol_options& o) {
  if (p.is_customized()) return master_sync_protocol(o);
  const auto row = p.row();
  if (!row) return std::nullopt;
  if (o.first_sync == first_sync_owner::strategy) return resolve_protocol(*row, o);
  return master_sync_protocol(o);
}

// The size of the groups under a protocol: K for K-block groups, P otherwise.
constexpr int group_size_under(const sync_protocol& p, int K, int P) {
  return p.groups == grouping::k_block ? K : P;
}
// The size of the groups under strategy s.
constexpr int group_size_under(core::scheme s, int K, int P) {
  return strategy_row_of(s).groups == grouping::k_block ? K : P;
}

// A protocol that can run: the decision is computed where the profiles go (the master, or every
// member from the others' profiles), and told exactly when the master computes it.
constexpr bool is_consistent(const sync_protocol& p) {
  const bool central = p.decided_by == decision_maker::by_master;
  if (central != (p.profiles_to == profile_destination::to_master)) return false;
  if (central == (p.told == decision_audience::tell_nobody)) return false;
  // A member told nothing about the others' outcomes must interrupt them all.
  if ((p.told == decision_audience::tell_senders) !=
      (p.interrupts == interrupt_audience::every_member))
    return false;
  // The master's commitment reaches every member.
  return !p.commits || p.told == decision_audience::tell_group;
}

// Names of the option values, and their parsers (nothing for an unknown value).
// The options among the protocol's variants, from the run's parameters (option_table.cpp).
protocol_options protocol_options_of(const run_params& p);

std::string_view to_string(first_sync_owner f);
std::optional<first_sync_owner> parse_first_sync(std::string_view s);
std::string_view to_string(broadcast_kind b);
std::optional<broadcast_kind> parse_broadcast(std::string_view s);

}  // namespace dlb
