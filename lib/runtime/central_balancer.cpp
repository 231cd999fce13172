// central_balancer.cpp: DLB_master_sync, the master's part of a loop. The master does not
// compute (Figure 1.4: `if (master) DLB_master_sync`); it collects the slaves' results and,
// under a strategy whose row of strategy_table sends the profiles to the master (GCDLB, LCDLB,
// and customized mode's first synchronization, which runs as GCDLB), it is the balancer:
// profiles in, one DECISION per group out. Groups are served in the order their profiles
// complete, one decision at a time (the paper's LCDLB delay factor).
#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "dlb/core/groups.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/core/recovery.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "self_scheduling.hpp"

namespace dlb {

namespace detail {

class central_balancer {
 public:
  explicit central_balancer(context& dlb);
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
  bool async() const {
    const strategy_row* r = find_strategy_row(protocol_);
    return r && r->decided_by == decision_maker::by_master && !choosing_ &&
           dlb_.balance_.no_move == core::after_no_move::idle &&
           dlb_.rt_.params().instructions_to_senders;
  }
  // Transfers instructed to each slave so far in this loop (a notice tells it how many WORK
  // messages it still awaits).
  std::vector<std::int64_t> transfers_to_;
  // Customized mode, every slave's profile in: run the model on the speeds seen so far, commit
  // to the cheapest strategy, and answer each slave with its group's decision under it.
  void commit(const group_state& gs, const protocol::sync_header& h);

  context& dlb_;
  messenger& net_;
  std::size_t procs_;
  core::strategy protocol_;  // the protocol in force (customized mode: GCDLB, then its choice)
  std::size_t group_size_;
  bool choosing_;  // customized mode, before its commitment
  std::vector<group_state> groups_;
  std::vector<std::vector<std::size_t>> members_of_;  // each group's slaves (context::groups_)
};

central_balancer::central_balancer(context& dlb)
    : dlb_(dlb),
      net_(dlb.net_),
      procs_(static_cast<std::size_t>(dlb.procs_)),
      protocol_(dlb.protocol_),
      group_size_(static_cast<std::size_t>(dlb.group_size_)),
      choosing_(dlb.strategy_ == core::strategy::automatic),
      groups_(dlb.groups_.size()),
      members_of_(dlb.groups_) {
  transfers_to_.assign(procs_, 0);
  const auto initial = dlb_.initial_counts();
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    for (auto s : members_of_[g])
      groups_[g].active.push_back(initial[s] > 0 && !dlb_.rt_.lost(static_cast<int>(s) + 1));
  }
}

bool central_balancer::wanted(const delivered& d) const {
  if (d.kind == tag::gather) return protocol::peek_loop(d) == dlb_.loop_id_;
  return d.kind == tag::profile && profiles_to_master(protocol_) &&
         protocol::peek_loop(d) == dlb_.loop_id_;
}

void central_balancer::run() {
  dlb_.gathered_.clear();
  if (dlb_.rt_.params().recover) {
    run_recovering();
    return;
  }
  while (dlb_.gathered_.size() < procs_) {
    auto d = net_.wait([this](const delivered& m) { return wanted(m); },
                       "profiles or results of loop " + std::to_string(dlb_.loop_id_) + " (" +
                           std::to_string(dlb_.gathered_.size()) + " of " + std::to_string(procs_) +
                           " slaves done)");
    if (d.kind == tag::gather) {
      dlb_.gathered_.push_back(std::move(d));
    } else {
      take_profile(d);
    }
  }
}

// The master knows what each slave handed in, since results carry their iterations. Once every
// surviving slave has handed in all it held (it waits for the answer, holding nothing), what no
// one handed in is exactly what is left to compute, wherever it was when a slave was lost: in
// the lost slave's hands, on its way to or from it, or computed by it and never handed in. That
// is shared out among the survivors, with its input data from the master's own copy; they hand
// it in and wait again, until nothing is missing. A survivor never takes balancing work after
// it has handed in, so nothing is computed twice.
void central_balancer::run_recovering() {
  auto& dlb = dlb_;
  const int loop = dlb.loop_id_;
  std::vector<bool> waiting(procs_, false);
  bool balancing = !dlb.closed_at_scatter_;
  const auto live = [&dlb](std::size_t s) { return !dlb.rt_.lost(static_cast<int>(s) + 1); };
  for (;;) {
    std::vector<std::size_t> survivors;
    bool all_waiting = true;
    for (std::size_t s = 0; s < procs_; ++s) {
      if (!live(s)) continue;
      survivors.push_back(s);
      all_waiting = all_waiting && waiting[s];
    }
    if (survivors.empty())
      throw run_error("every slave was lost during loop " + std::to_string(loop) +
                      "; nobody is left to compute its iterations");
    if (all_waiting) {
      const auto missing = core::missing_iterations(dlb.loop_.iterations, dlb.handed_in_ranges_);
      if (missing.empty()) {
        for (std::size_t s : survivors)
          net_.send(static_cast<int>(s) + 1, tag::recover,
                    protocol::encode(protocol::recover_msg{loop, {}, {}}));
        return;
      }
      // In proportion to the speed each survivor showed (core::speed: work per busy second, in
      // the balancer's unit), pieces sized by that unit.
      std::vector<double> weights;
      for (std::size_t s : survivors) {
        const auto& st = dlb.handed_in_stats_[s];
        weights.push_back(core::speed({st.iterations_done, st.busy, 0, st.work_done}));
      }
      const auto shares = core::share_out(missing, weights, dlb.work_cost());
      if (dlb.recovery_from_ < 0) dlb.recovery_from_ = net_.clock().now();
      for (std::size_t k = 0; k < survivors.size(); ++k) {
        if (shares[k].empty()) continue;
        writer slices;
        detail::pack_arrays(slices, dlb.arrays_, shares[k], detail::moved_array);
        net_.send(static_cast<int>(survivors[k]) + 1, tag::recover,
                  protocol::encode(protocol::recover_msg{loop, shares[k], slices.data()}));
        dlb.stats_.recovered_iterations += core::iteration_count(shares[k]);
        waiting[survivors[k]] = false;
      }
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
      reader r = d.body();
      auto m = protocol::decode_gather(r);
      reader slices(m.slices);
      detail::unpack_arrays(slices, dlb.arrays_, m.done, detail::output_array);
      const auto s = static_cast<std::size_t>(d.from - 1);
      auto& mine = dlb.handed_in_ranges_[s];
      mine.insert(mine.end(), m.done.begin(), m.done.end());
      dlb.handed_in_stats_[s] = m.stats;
      waiting[s] = true;
    } else {
      take_profile(d);
    }
  }
}

void central_balancer::take_profile(const delivered& d) {
  reader r = d.body();
  protocol::profile_msg m = protocol::decode_profile(r);
  const int g = m.sync.group;
  if (g < 0 || static_cast<std::size_t>(g) >= groups_.size())
    throw run_error("profile for an unknown group");
  auto& gs = groups_[static_cast<std::size_t>(g)];
  const auto& members = members_of_[static_cast<std::size_t>(g)];
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
  if (dlb_.strategy_ != core::strategy::automatic) {
    auto& tally = dlb_.master_tally_[g];
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
    if (dec.counts_after[k++] == 0) gs.active[p] = false;
  }
  if (strategy_row_of(protocol_).told == decision_audience::tell_group)
    net_.multicast(ranks, tag::decision,
                   protocol::encode(protocol::decision_msg{h, std::nullopt, std::move(dec)}));
  gs.profiles.clear();
  ++gs.epoch;
}

void central_balancer::commit(const group_state& gs, const protocol::sync_header& h) {
  auto& stats = dlb_.stats_;
  std::vector<double> speeds(procs_, 0.0);
  for (const auto& [p, prof] : gs.profiles) speeds[prof.slave] = prof.speed;
  stats.prediction = dlb_.predict(speeds);
  const core::strategy c = stats.prediction.valid ? stats.prediction.best : core::strategy::gddlb;
  stats.chosen = c;
  if (!dlb_.rt_.params().quiet) {
    std::ostringstream os;
    // t from the loop's start, whatever the clock's origin.
    os << dlb_.rt_.app_name() << ": AUTO at t = " << net_.clock().now() - stats.start_time
       << " s predicts";
    for (std::size_t k = 0; k < 4; ++k) {
      os << " " << to_string(core::balancing_strategies[k]) << " " << stats.prediction.total_time[k]
         << " s";
    }
    os << "; commits to " << to_string(c);
    dlb_.rt_.report(report_kind::notice, os.str());
  }
  // The groups of the chosen strategy, each starting at epoch 1 with the members that are
  // still active after this decision. The decisions go out under the protocol in force (GCDLB:
  // the master tells every slave), each with the commitment.
  const auto K = static_cast<std::size_t>(
      group_size_under(c, dlb_.local_group_size_, static_cast<int>(procs_)));
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
    auto dec = dlb_.decide(profiles);
    for (std::size_t k = 0; k < positions.size(); ++k)
      next[ng].active[positions[k]] = dec.counts_after[k] > 0;
    const protocol::commitment to{c, static_cast<int>(ng)};
    net_.multicast(ranks, tag::decision,
                   protocol::encode(protocol::decision_msg{h, to, std::move(dec)}));
  }
  groups_ = std::move(next);  // gs is gone from here on
  members_of_ = std::move(next_members);
  protocol_ = c;
  group_size_ = K;
}

}  // namespace detail

void DLB_master_sync(context& DLB) {
  if (DLB.self_scheduled())
    detail::run_self_scheduler(DLB);
  else
    detail::central_balancer(DLB).run();
}

bool context::note_loss(int rank) {
  if (rank <= 0 || rank > procs_ || rt_.lost(rank)) return false;
  rt_.mark_lost(rank);
  const double t = net_.clock().now();
  stats_.lost.push_back({static_cast<std::size_t>(rank - 1), t - stats_.start_time});
  std::vector<int> to;
  for (int r = 1; r <= procs_; ++r)
    if (!rt_.lost(r)) to.push_back(r);
  net_.multicast(
      to, tag::lost,
      protocol::encode(protocol::lost_msg{loop_id_, static_cast<std::size_t>(rank - 1), t}));
  if (!rt_.params().quiet) {
    std::ostringstream os;
    os << rt_.app_name() << ": " << net_.describe(rank) << " lost at t = " << t - stats_.start_time
       << " s of loop " << loop_id_ << "; its unfinished iterations go to the survivors";
    rt_.report(report_kind::notice, os.str());
  }
  return true;
}

}  // namespace dlb
