// central_balancer.cpp: DLB_master_sync, the master's part of a loop. The master does not
// compute (Figure 1.4: `if (master) DLB_master_sync`); it collects the slaves' results and,
// under a protocol that sends the profiles to the master (strategy_table.hpp: GCDLB, LCDLB, and
// the master's own synchronization: customized mode's first, ADAPTIVE's re-selections), it is
// the balancer:
// profiles in, one DECISION per group out. Groups are served in the order their profiles
// complete, one decision at a time (the paper's LCDLB delay factor).
#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "chooser.hpp"
#include "dlb/core/adaptive.hpp"
#include "dlb/core/groups.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/core/recovery.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"
#include "self_scheduling.hpp"

namespace dlb {

namespace detail {

class central_balancer {
 public:
  explicit central_balancer(master_session& dlb);
  // Until every slave has handed in its results (kept for DLB_gather_data).
  void run();

 private:
  // --on-loss recover: the same, and a lost slave's unfinished iterations computed by the
  // survivors (lib/README.md, "When a workstation is lost").
  void run_recovering();
  struct group_state {
    int epoch = 0;                                             // synchronizations completed
    std::vector<bool> active;                                  // per member position
    std::map<std::size_t, protocol::member_profile> profiles;  // this epoch's, by position
    // Profiles of later synchronizations that came first (members that go on computing after
    // their profile may run out and ask again before this one is served), by epoch.
    std::map<int, std::map<std::size_t, protocol::member_profile>> later;
  };

  bool wanted(const delivered& d) const;
  void take_profile(const delivered& d);
  // One group's decision, sent to the members whose profiles it decided on.
  void serve(group_state& gs, const protocol::sync_header& h);
  // The paper's centralized protocol (context::central_async): instructions to the senders
  // only, a notice to each requester that gets nothing (it goes idle).
  void serve_senders_only(group_state& gs, int g, const protocol::sync_header& h);
  // Serves the group's synchronization if every active member's profile is in.
  void serve_if_complete(group_state& gs, const protocol::sync_header& h);
  bool async() const { return dlb_.proto_.told == decision_audience::tell_senders; }
  // Transfers decided for each slave so far in this loop, the master's first synchronization's
  // included (a notice tells it how many WORK messages it awaits in all, and a slave counts
  // every WORK it received in the loop).
  std::vector<std::int64_t> transfers_to_;
  // The master's own first synchronization, every slave's profile in (customized mode, or
  // --first-sync master-*): the strategy (AUTO: the model's pick on the speeds seen so far),
  // and each slave answered with its group's decision under it (master-global: its part of one
  // global decision).
  void commit(const group_state& gs, const protocol::sync_header& h);
  // --first-sync master-global: one decision over every profile (in slave order), and each
  // slave's count after it.
  protocol::decision decide_globally(const group_state& gs,
                                     std::map<std::size_t, std::int64_t>& counts_after);
  // Customized mode's pick at its first synchronization (chooser_): a paper strategy is returned
  // for the commitment; a self-scheduling rule or ADAPTIVE (AUTO-ALL's) is taken up here
  // (switch_to_self_scheduling, switch_to_adaptive).
  core::strategy choose_and_take_up(const group_state& gs, const protocol::sync_header& h);
  // The chooser of the customized mode in force (chooser.hpp; null for a balancing strategy).
  std::unique_ptr<chooser> chooser_;
  void switch_to_self_scheduling(const group_state& gs, const protocol::sync_header& h,
                                 const core::policy& pick);
  void switch_to_adaptive(const group_state& gs, const protocol::sync_header& h);
  // AUTO-ALL committed to self-scheduling: the rest of the loop is the self scheduler's.
  bool self_scheduling_ = false;
  double complete_at_ = 0.0;  // when the synchronization's last profile came in
  // A strategy whose later synchronizations the master counts itself (it tells the senders
  // only) counts the master's first one too, in each group it decided for.
  void count_first_sync(std::size_t group, const std::vector<std::size_t>& members,
                        const protocol::decision& dec);

  // ADAPTIVE (lib/README.md, "ADAPTIVE"): re-selections are global synchronizations at epochs
  // 2s, the committed strategy's synchronizations are at 2s + 1 in its groups (groups_).
  bool adaptive_ = false;
  int stage_ = 0;
  std::vector<bool> live_;  // per slave: may still send a profile (active, no results yet)
  std::map<std::size_t, protocol::member_profile> reselection_;  // this one's, by slave
  void take_reselection_profile(protocol::profile_msg m);
  // A slave's results are in: it takes part in no more synchronizations.
  void gathered(std::size_t slave);
  // Every live slave's profile in: run the model on what remains and commit again.
  void reselect_if_complete();
  void reselect(const protocol::sync_header& h);
  // One strategy's decision at a re-selection: its groups, who in each took part, and each
  // group's decision (none where no member took part).
  struct under_strategy {
    std::vector<std::vector<std::size_t>> groups;
    std::vector<std::vector<std::size_t>> took_part;  // per group, in member order
    std::vector<std::optional<protocol::decision>> decisions;
  };
  // The re-selection's decision under each of the four strategies' groups, and what each slave
  // would hold after it (the model's start).
  void plan_under_each(
      std::array<under_strategy, core::kBalancingStrategies>& plans,
      std::array<std::vector<core::range_list>, core::kBalancingStrategies>& starts);
  // Each group of the pick is sent its decision with the commitment; its next synchronizations
  // are at epoch 2s + 1 with the members that still hold work.
  void commit_reselection(under_strategy& plan, core::strategy pick,
                          const protocol::sync_header& h);

  master_session& dlb_;
  messenger& net_;
  std::size_t procs_;
  // The protocol in force, the groups and their size are the session's (dlb_.proto_, groups_,
  // group_size_), rewritten only at a commitment.
  // The master's own first synchronization, which ends in a commitment, is still to be served
  // (ADAPTIVE's re-selections are served apart: take_reselection_profile).
  bool choosing_;
  std::vector<group_state> groups_;
};

central_balancer::central_balancer(master_session& dlb)
    : dlb_(dlb),
      net_(dlb.net_),
      procs_(static_cast<std::size_t>(dlb.procs_)),
      choosing_(dlb.proto_.commits && dlb.strategy_ != core::strategy::adaptive),
      groups_(dlb.groups_.size()) {
  transfers_to_.assign(procs_, 0);
  adaptive_ = dlb.strategy_ == core::strategy::adaptive;
  chooser_ = make_chooser(dlb_, dlb.strategy_);
  const auto initial = dlb_.initial_counts();
  live_.assign(procs_, false);
  for (std::size_t s = 0; s < procs_; ++s) live_[s] = initial[s] > 0;
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    for (auto s : dlb_.groups_[g])
      groups_[g].active.push_back(initial[s] > 0 && !dlb_.rt_.lost(static_cast<int>(s) + 1));
  }
}

bool central_balancer::wanted(const delivered& d) const {
  if (d.kind == tag::gather) return protocol::peek_loop(d) == dlb_.loop_id_;
  return d.kind == tag::profile &&
         (adaptive_ || dlb_.proto_.profiles_to == profile_destination::to_master) &&
         protocol::peek_loop(d) == dlb_.loop_id_;
}

void central_balancer::run() {
  dlb_.master_.gathered_.clear();
  if (dlb_.rt_.params().recover) {
    run_recovering();
    return;
  }
  while (dlb_.master_.gathered_.size() < procs_) {
    auto d = net_.wait(messenger::match({tag::gather, tag::profile},
                                        [this](const delivered& m) { return wanted(m); }),
                       "profiles or results of loop " + std::to_string(dlb_.loop_id_) + " (" +
                           std::to_string(dlb_.master_.gathered_.size()) + " of " +
                           std::to_string(procs_) + " slaves done)");
    if (d.kind == tag::gather) {
      const auto s = static_cast<std::size_t>(d.from - 1);
      dlb_.master_.gathered_.push_back(std::move(d));
      if (adaptive_) gathered(s);
    } else {
      take_profile(d);
      if (self_scheduling_) {  // AUTO-ALL committed to a self-scheduling rule
        run_self_scheduler(dlb_);
        return;
      }
    }
  }
}

// --on-loss recover (recovery.hpp, master_recovery): profiles are served until a loss, results
// are handed in piece by piece, and when every survivor waits, what nobody handed in is
// reassigned, until nothing is missing.
void central_balancer::run_recovering() {
  auto& dlb = dlb_;
  const int loop = dlb.loop_id_;
  std::vector<bool> waiting(procs_, false);
  bool balancing = !dlb.recovery_.closed_at_scatter();
  for (;;) {
    std::vector<std::size_t> survivors;
    bool all_waiting = true;
    for (std::size_t s = 0; s < procs_; ++s) {
      if (dlb.rt_.lost(static_cast<int>(s) + 1)) continue;
      survivors.push_back(s);
      all_waiting = all_waiting && waiting[s];
    }
    if (survivors.empty())
      throw run_error("every slave was lost during loop " + std::to_string(loop) +
                      "; nobody is left to compute its iterations");
    if (all_waiting) {
      if (!dlb.recovery_.reassign(dlb, survivors, waiting)) return;
      continue;
    }
    auto d = net_.wait(
        [this, loop, balancing](const delivered& m) {
          if (m.kind == tag::task_exit) return true;
          if (m.kind == tag::gather) return protocol::peek_loop(m) == loop;
          return balancing && wanted(m);
        },
        "profiles, results or exits of loop " + std::to_string(loop));
    if (d.kind == tag::task_exit) {
      // Every survivor learns of it (LOST) and stops balancing; so does the master.
      if (dlb.note_loss(d.from)) balancing = false;
    } else if (d.kind == tag::gather) {
      dlb.recovery_.hand_in(dlb, d);
      waiting[static_cast<std::size_t>(d.from - 1)] = true;
    } else {
      take_profile(d);
    }
  }
}

void central_balancer::take_profile(const delivered& d) {
  reader r = d.body();
  protocol::profile_msg m = protocol::decode_profile(r);
  if (adaptive_ && m.sync.epoch % 2 == 0) {
    take_reselection_profile(std::move(m));
    return;
  }
  const int g = m.sync.group;
  if (g < 0 || static_cast<std::size_t>(g) >= groups_.size())
    throw run_error("profile for an unknown group");
  auto& gs = groups_[static_cast<std::size_t>(g)];
  const auto& members = dlb_.groups_[static_cast<std::size_t>(g)];
  const auto pos = static_cast<std::size_t>(
      std::find(members.begin(), members.end(), m.profile.slave) - members.begin());
  if (pos == members.size())
    throw run_error("profile of " + net_.describe(d.from) + " for group " + std::to_string(g) +
                    ", which it is not a member of");
  if (async() && m.sync.epoch > gs.epoch) {
    gs.later[m.sync.epoch][pos] = std::move(m.profile);
    return;
  }
  if (m.sync.epoch != gs.epoch)
    throw run_error("profile of " + net_.describe(d.from) + " for synchronization " +
                    std::to_string(m.sync.epoch) + " of group " + std::to_string(g) +
                    ", expected " + std::to_string(gs.epoch));
  gs.profiles[pos] = std::move(m.profile);
  serve_if_complete(gs, m.sync);
}

void central_balancer::serve_if_complete(group_state& gs, const protocol::sync_header& h) {
  const auto needed =
      static_cast<std::size_t>(std::count(gs.active.begin(), gs.active.end(), true));
  if (gs.profiles.size() < needed) return;
  complete_at_ = net_.clock().now();
  net_.busy(dlb_.rt_.params().delta);
  if (choosing_) {
    choosing_ = false;
    commit(gs, h);
    return;
  }
  if (!async()) {
    serve(gs, h);
    return;
  }
  serve_senders_only(gs, h.group, h);
  // The next synchronization's profiles may all be in already.
  auto next = gs.later.find(gs.epoch);
  if (next == gs.later.end()) return;
  gs.profiles = std::move(next->second);
  gs.later.erase(next);
  serve_if_complete(gs, {h.loop, h.group, gs.epoch});
}

void central_balancer::serve_senders_only(group_state& gs, int g, const protocol::sync_header& h) {
  std::vector<protocol::member_profile> profiles;
  for (const auto& [p, prof] : gs.profiles) profiles.push_back(prof);
  const auto dec = dlb_.decide(profiles);
  for (const auto& t : dec.transfers) {
    ++transfers_to_[t.to];
    net_.send(
        static_cast<int>(t.from) + 1, tag::instruction,
        protocol::encode(protocol::instruction_msg{h, t, core::transfers_to(dec.transfers, t.to)}));
  }
  // A requester (it reported no work) that gets none goes idle, and is told so: the only
  // message besides the instructions ("cancelling work redistribution would lead to an idle
  // processor").
  for (const auto& [p, prof] : gs.profiles) {
    if (core::iteration_count(prof.remaining) > 0 ||
        core::transfers_to(dec.transfers, prof.slave) > 0)
      continue;
    gs.active[p] = false;
    net_.send(static_cast<int>(prof.slave) + 1, tag::notice,
              protocol::encode(protocol::notice_msg{h, transfers_to_[prof.slave]}));
  }
  if (!dlb_.chooses_once()) {
    auto& tally = dlb_.master_.tally_[g];
    ++tally.first;
    if (dec.reason == core::balance_reason::moved) ++tally.second;
  }
  gs.profiles.clear();
  ++gs.epoch;
}

void central_balancer::serve(group_state& gs, const protocol::sync_header& h) {
  std::vector<protocol::member_profile> profiles;
  std::vector<int> ranks;
  for (const auto& [p, prof] : gs.profiles) {
    ranks.push_back(static_cast<int>(prof.slave) + 1);
    profiles.push_back(prof);
  }
  auto dec = dlb_.decide(profiles);
  std::size_t k = 0;
  for (const auto& [p, prof] : gs.profiles) {
    if (dec.counts_after[k++] > 0) continue;
    gs.active[p] = false;
    if (adaptive_) live_[prof.slave] = false;
  }
  if (dlb_.proto_.told == decision_audience::tell_group)
    net_.multicast(ranks, tag::decision,
                   protocol::encode(protocol::decision_msg{h, std::nullopt, std::move(dec)}),
                   dlb_.proto_.broadcast);
  gs.profiles.clear();
  ++gs.epoch;
}

// The master's own first synchronization ends in a commitment: customized mode's (AUTO: the
// model picks the strategy) or, under --first-sync master-group or master-global, the strategy
// the run names. The decision is made within each group of the committed strategy
// (master-group, and AUTO as the paper's customized mode has it) or once over every slave that
// took part (master-global), whose transfers may cross the strategy's groups.
namespace {
// A group's part of the master's global decision (--first-sync master-global): the counts after
// it of the group's members that took part (`profiles`), and the transfers that touch a member
// of the group (`members`).
protocol::decision part_of(const protocol::decision& global,
                           const std::map<std::size_t, std::int64_t>& global_after,
                           const std::vector<protocol::member_profile>& profiles,
                           const std::vector<std::size_t>& members) {
  protocol::decision dec;
  dec.reason = global.reason;
  for (const auto& prof : profiles) dec.counts_after.push_back(global_after.at(prof.slave));
  const auto member = [&members](std::size_t s) {
    return std::find(members.begin(), members.end(), s) != members.end();
  };
  for (const auto& t : global.transfers)
    if (member(t.from) || member(t.to)) dec.transfers.push_back(t);
  return dec;
}
}  // namespace

protocol::decision central_balancer::decide_globally(
    const group_state& gs, std::map<std::size_t, std::int64_t>& counts_after) {
  std::vector<protocol::member_profile> all;
  for (const auto& [p, prof] : gs.profiles) all.push_back(prof);
  protocol::decision global = dlb_.decide(all);
  for (std::size_t k = 0; k < all.size(); ++k) counts_after[all[k].slave] = global.counts_after[k];
  for (const auto& t : global.transfers) ++transfers_to_[t.to];
  return global;
}

void central_balancer::commit(const group_state& gs, const protocol::sync_header& h) {
  const core::strategy c = chooser_ ? choose_and_take_up(gs, h) : dlb_.strategy_;
  if (!find_strategy_row(c)) return;  // AUTO-ALL took up self-scheduling or ADAPTIVE
  const sync_protocol after = resolve_protocol(c, dlb_.popts_).value();
  // master-global: one decision over every profile (in slave order); each group is sent its
  // part of it (the transfers that touch its members, their counts after).
  std::optional<protocol::decision> global;
  std::map<std::size_t, std::int64_t> global_after;  // each slave's count after it
  if (dlb_.proto_.first_sync == first_sync_owner::master_global)
    global = decide_globally(gs, global_after);
  // The groups of the committed strategy, each starting at epoch 1 with the members that are
  // still active after this decision. Every member that took part is told its group's decision
  // with the commitment.
  const auto K = static_cast<std::size_t>(
      group_size_under(after, dlb_.local_group_size_, static_cast<int>(procs_)));
  auto next_members = dlb_.groups_for(static_cast<int>(K));
  std::vector<group_state> next(next_members.size());
  for (std::size_t ng = 0; ng < next.size(); ++ng) {
    std::vector<protocol::member_profile> profiles;
    std::vector<int> ranks;
    std::vector<std::size_t> positions;
    const auto& nm = next_members[ng];
    next[ng].active.assign(nm.size(), false);
    next[ng].epoch = 1;
    for (std::size_t q = 0; q < nm.size(); ++q) {
      for (const auto& [p, prof] : gs.profiles) {
        if (prof.slave != nm[q]) continue;
        profiles.push_back(prof);
        ranks.push_back(static_cast<int>(prof.slave) + 1);
        positions.push_back(q);
      }
    }
    if (profiles.empty()) continue;
    protocol::decision dec =
        global ? part_of(*global, global_after, profiles, nm) : dlb_.decide(profiles);
    if (!global)
      for (const auto& t : dec.transfers) ++transfers_to_[t.to];
    for (std::size_t k = 0; k < positions.size(); ++k)
      next[ng].active[positions[k]] = dec.counts_after[k] > 0;
    if (!dlb_.chooses_once() && after.told == decision_audience::tell_senders)
      count_first_sync(ng, nm, dec);
    const protocol::commitment to{c, static_cast<int>(ng), std::nullopt, dlb_.strategy_};
    net_.multicast(ranks, tag::decision,
                   protocol::encode(protocol::decision_msg{h, to, std::move(dec)}),
                   dlb_.proto_.broadcast);
  }
  groups_ = std::move(next);  // gs is gone from here on
  dlb_.groups_ = std::move(next_members);
  dlb_.proto_ = after;
  dlb_.group_size_ = static_cast<int>(K);
  if (dlb_.strategy_ == core::strategy::auto_all)
    dlb_.master_.stats_.choice_time_s = net_.clock().now() - complete_at_;
}

core::strategy central_balancer::choose_and_take_up(const group_state& gs,
                                                    const protocol::sync_header& h) {
  choice_input in;
  in.speeds.assign(procs_, 0.0);
  for (const auto& [p, prof] : gs.profiles) {
    in.speeds[prof.slave] = prof.speed;
    in.profiles.push_back(prof);
  }
  in.now = net_.clock().now();
  const core::policy pick = chooser_->choose(in);
  if (pick.kind() == core::strategy::self_scheduling)
    switch_to_self_scheduling(gs, h, pick);
  else if (pick.kind() == core::strategy::adaptive)
    switch_to_adaptive(gs, h);
  if (dlb_.strategy_ == core::strategy::auto_all && !find_strategy_row(pick.kind()))
    dlb_.master_.stats_.choice_time_s = net_.clock().now() - complete_at_;
  return pick.kind();
}

// Every slave that took part is told, in the commitment, to drop what it has not started; the
// pool is what they reported remaining, in slave order (the profiles' ranges, which no slave
// worked on while it waited for this decision).
void central_balancer::switch_to_self_scheduling(const group_state& gs,
                                                 const protocol::sync_header& h,
                                                 const core::policy& pick) {
  core::range_list pool;
  std::vector<double> weights(procs_, 0.0);
  std::vector<int> ranks;
  protocol::decision dec;
  dec.reason = core::balance_reason::nothing_left;
  for (const auto& [p, prof] : gs.profiles) {
    pool.insert(pool.end(), prof.remaining.begin(), prof.remaining.end());
    weights[prof.slave] = prof.speed;
    ranks.push_back(static_cast<int>(prof.slave) + 1);
    dec.counts_after.push_back(0);
  }
  dlb_.start_pool(pick, std::move(pool), std::move(weights));
  dlb_.master_.tally_[0] = {1, 0};  // this synchronization; the requests are added to it
  const protocol::commitment to{core::strategy::none, 0, std::nullopt,
                                core::strategy::self_scheduling};
  net_.multicast(ranks, tag::decision,
                 protocol::encode(protocol::decision_msg{h, to, std::move(dec)}),
                 dlb_.proto_.broadcast);
  self_scheduling_ = true;
}

// This synchronization is ADAPTIVE's first re-selection (epoch 0): its commitment lists the
// members that took part, which tells an AUTO-ALL slave that ADAPTIVE is in force.
void central_balancer::switch_to_adaptive(const group_state& gs, const protocol::sync_header& h) {
  adaptive_ = true;
  dlb_.popts_.adaptive = true;
  chooser_ = make_chooser(dlb_, core::strategy::adaptive);
  live_.assign(procs_, false);
  for (const auto& [p, prof] : gs.profiles) {
    live_[prof.slave] = true;
    reselection_[prof.slave] = prof;
  }
  reselect(h);
}

void central_balancer::count_first_sync(std::size_t group, const std::vector<std::size_t>& members,
                                        const protocol::decision& dec) {
  auto& tally = dlb_.master_.tally_[static_cast<int>(group)];
  ++tally.first;
  if (std::any_of(dec.transfers.begin(), dec.transfers.end(), [&](const core::transfer& t) {
        return std::find(members.begin(), members.end(), t.from) != members.end();
      }))
    ++tally.second;
}

void central_balancer::take_reselection_profile(protocol::profile_msg m) {
  if (m.sync.group != 0 || m.sync.epoch != 2 * stage_)
    throw run_error("re-selection profile of slave " + std::to_string(m.profile.slave + 1) +
                    " for group " + std::to_string(m.sync.group) + ", synchronization " +
                    std::to_string(m.sync.epoch) + "; expected group 0, synchronization " +
                    std::to_string(2 * stage_));
  if (m.profile.slave >= procs_) throw run_error("re-selection profile of an unknown slave");
  live_[m.profile.slave] = true;
  reselection_[m.profile.slave] = std::move(m.profile);
  reselect_if_complete();
}

void central_balancer::gathered(std::size_t slave) {
  if (slave >= procs_) return;
  live_[slave] = false;
  // A committed synchronization of the centralized strategies no longer waits for it.
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const auto& members = dlb_.groups_[g];
    const auto pos = static_cast<std::size_t>(std::find(members.begin(), members.end(), slave) -
                                              members.begin());
    if (pos == members.size() || !groups_[g].active[pos]) continue;
    groups_[g].active[pos] = false;
    if (!groups_[g].profiles.empty())
      serve_if_complete(groups_[g], {dlb_.loop_id_, static_cast<int>(g), groups_[g].epoch});
  }
  reselect_if_complete();
}

void central_balancer::reselect_if_complete() {
  if (reselection_.empty()) return;
  for (std::size_t s = 0; s < procs_; ++s)
    if (live_[s] && reselection_.find(s) == reselection_.end()) return;
  reselect({dlb_.loop_id_, 0, 2 * stage_});
}

// The decision of this synchronization is made under each strategy's groups (as AUTO's
// commitment does for the strategy it picks); the model predicts each strategy's time from the
// state that decision leaves to the loop's end, under the load from now on; core::reselect
// picks. Every slave that took part gets its group's decision under the pick, with the
// commitment (the strategy, its group and who in it took part).
void central_balancer::reselect(const protocol::sync_header& h) {
  net_.busy(dlb_.rt_.params().delta);
  choice_input in;
  in.now = net_.clock().now();
  in.speeds.assign(procs_, 0.0);
  for (const auto& [s, prof] : reselection_) {
    in.speeds[s] = prof.speed;
    in.window += prof.elapsed / static_cast<double>(reselection_.size());
    in.profiles.push_back(prof);
  }
  std::array<under_strategy, core::kBalancingStrategies> plans;
  plan_under_each(plans, in.starts);
  const core::strategy pick = chooser_->choose(in).kind();
  const std::size_t kp = static_cast<std::size_t>(
      std::find(core::balancing_strategies.begin(), core::balancing_strategies.end(), pick) -
      core::balancing_strategies.begin());
  commit_reselection(plans[kp], pick, h);
}

void central_balancer::plan_under_each(
    std::array<under_strategy, core::kBalancingStrategies>& plans,
    std::array<std::vector<core::range_list>, core::kBalancingStrategies>& starts) {
  for (std::size_t k = 0; k < core::kBalancingStrategies; ++k) {
    const core::strategy c = core::balancing_strategies[k];
    auto& plan = plans[k];
    plan.groups =
        dlb_.groups_for(group_size_under(c, dlb_.local_group_size_, static_cast<int>(procs_)));
    auto& start = starts[k];
    start.assign(procs_, {});
    for (const auto& [s, prof] : reselection_) start[s] = prof.remaining;
    for (const auto& members : plan.groups) {
      std::vector<protocol::member_profile> profiles;
      std::vector<std::size_t> took_part;
      for (std::size_t m : members) {
        const auto it = reselection_.find(m);
        if (it == reselection_.end()) continue;
        profiles.push_back(it->second);
        took_part.push_back(m);
      }
      plan.took_part.push_back(took_part);
      if (profiles.empty()) {
        plan.decisions.emplace_back();
        continue;
      }
      auto dec = dlb_.decide(profiles);
      // What each member holds after it: a sender loses the end of its work, a receiver gains
      // the ranges shipped to it.
      std::map<std::size_t, std::int64_t> given;
      for (const auto& t : dec.transfers) given[t.from] += t.count;
      for (const auto& [from, n] : given) start[from] = core::split_back(start[from], n).front;
      for (const auto& t : dec.transfers)
        start[t.to].insert(start[t.to].end(), t.ranges.begin(), t.ranges.end());
      plan.decisions.emplace_back(std::move(dec));
    }
  }
}

void central_balancer::commit_reselection(under_strategy& plan, core::strategy pick,
                                          const protocol::sync_header& h) {
  std::vector<group_state> next(plan.groups.size());
  for (std::size_t ng = 0; ng < next.size(); ++ng) {
    const auto& nm = plan.groups[ng];
    next[ng].active.assign(nm.size(), false);
    next[ng].epoch = 2 * stage_ + 1;
    if (!plan.decisions[ng]) continue;
    protocol::decision dec = std::move(*plan.decisions[ng]);
    const auto& took_part = plan.took_part[ng];
    std::vector<int> ranks;
    for (std::size_t k = 0; k < took_part.size(); ++k) {
      const std::size_t s = took_part[k];
      ranks.push_back(static_cast<int>(s) + 1);
      const bool holds = dec.counts_after[k] > 0;
      live_[s] = holds;
      const auto q = static_cast<std::size_t>(std::find(nm.begin(), nm.end(), s) - nm.begin());
      next[ng].active[q] = holds;
    }
    const protocol::commitment to{pick, static_cast<int>(ng), took_part, core::strategy::adaptive};
    net_.multicast(ranks, tag::decision,
                   protocol::encode(protocol::decision_msg{h, to, std::move(dec)}),
                   dlb_.proto_.broadcast);
  }
  groups_ = std::move(next);
  dlb_.groups_ = std::move(plan.groups);
  dlb_.proto_ = resolve_protocol(pick, dlb_.popts_).value();
  dlb_.group_size_ =
      group_size_under(dlb_.proto_, dlb_.local_group_size_, static_cast<int>(procs_));
  ++stage_;
  reselection_.clear();
}

}  // namespace detail

void DLB_master_sync(context& ctx) {
  auto& DLB = detail::master_of(ctx, "DLB_master_sync");
  DLB.master_.gathered_.clear();
  if (DLB.self_scheduled())
    detail::run_self_scheduler(DLB);
  else
    detail::central_balancer(DLB).run();
}

bool detail::master_session::note_loss(int rank) {
  if (rank <= 0 || rank > procs_ || rt_.lost(rank)) return false;
  rt_.mark_lost(rank);
  const double t = net_.clock().now();
  master_.stats_.lost.push_back(
      {static_cast<std::size_t>(rank - 1), t - master_.stats_.start_time});
  std::vector<int> to;
  for (int r = 1; r <= procs_; ++r)
    if (!rt_.lost(r)) to.push_back(r);
  net_.multicast(
      to, tag::lost,
      protocol::encode(protocol::lost_msg{loop_id_, static_cast<std::size_t>(rank - 1), t}),
      popts_.broadcast);
  if (!rt_.params().quiet) {
    std::ostringstream os;
    os << rt_.app_name() << ": " << net_.describe(rank)
       << " lost at t = " << t - master_.stats_.start_time << " s of loop " << loop_id_
       << "; its unfinished iterations go to the survivors";
    rt_.report(report_kind::notice, os.str());
  }
  return true;
}

}  // namespace dlb
