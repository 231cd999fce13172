// central_balancer.cpp: DLB_master_sync, the master's part of a loop, which runs the loop's
// policy runner (policy_runner.hpp), and the central balancer of the runners of no balancing, a
// balancing row and customized mode. The master does not compute (Figure 1.4: `if (master)
// DLB_master_sync`); it collects the slaves' results and, under a protocol that sends the
// profiles to the master (strategy_table.hpp: GCDLB, LCDLB, and the master's own
// synchronization: customized mode's first, ADAPTIVE's re-selections), it is the balancer:
// profiles in, one DECISION per group out. Groups are served in the order their profiles
// complete, one decision at a time (the paper's LCDLB delay factor).
#include "central_balancer.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "customized_runner.hpp"
#include "dlb/core/groups.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/dlb.hpp"

namespace dlb {

namespace detail {

namespace {

// No balancing and a balancing row: the balancer alone.
class balancer_runner final : public policy_runner {
 public:
  void run(master_session& m) override { central_balancer(m, nullptr).run(); }
};

}  // namespace

std::unique_ptr<policy_runner> make_runner(const core::no_balancing&, master_session&) {
  return std::make_unique<balancer_runner>();
}
std::unique_ptr<policy_runner> make_runner(const core::balancing&, master_session&) {
  return std::make_unique<balancer_runner>();
}

central_balancer::central_balancer(master_session& dlb, customized_runner* custom)
    : dlb_(dlb),
      custom_(custom),
      net_(dlb.net_),
      procs_(static_cast<std::size_t>(dlb.procs_)),
      choosing_(dlb.proto().commits && !(custom && custom->adaptive())),
      groups_(dlb.groups().size()) {
  transfers_to_.assign(procs_, 0);
  const auto initial = dlb_.initial_counts();
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    for (auto s : dlb_.groups()[g])
      groups_[g].active.push_back(initial[s] > 0 && !dlb_.rt_.lost(static_cast<int>(s) + 1));
  }
}

bool central_balancer::chooses_once() const { return custom_ && custom_->chooses_once(); }

bool central_balancer::wanted(const delivered& d) const {
  if (d.kind == tag::gather) return protocol::peek_loop(d) == dlb_.loop_id_;
  return d.kind == tag::profile &&
         ((custom_ && custom_->adaptive()) ||
          dlb_.proto().profiles_to == profile_destination::to_master) &&
         protocol::peek_loop(d) == dlb_.loop_id_;
}

void central_balancer::run() {
  dlb_.master_.start_gathering();
  if (dlb_.rt_.params().recover) {
    run_recovering();
    return;
  }
  while (dlb_.master_.results_in() < procs_) {
    auto d = net_.wait(messenger::match({tag::gather, tag::profile},
                                        [this](const delivered& m) { return wanted(m); }),
                       "profiles or results of loop " + std::to_string(dlb_.loop_id_) + " (" +
                           std::to_string(dlb_.master_.results_in()) + " of " +
                           std::to_string(procs_) + " slaves done)");
    if (d.kind == tag::gather) {
      const auto s = static_cast<std::size_t>(d.from - 1);
      dlb_.master_.take_results(std::move(d));
      if (custom_) custom_->gathered(*this, s);
    } else {
      take_profile(d);
      if (stopped_) return;  // handed over (customized mode's commitment to a chunk rule)
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
  if (custom_ && custom_->takes(m)) {
    custom_->take_reselection_profile(*this, std::move(m));
    return;
  }
  const int g = m.sync.group;
  if (g < 0 || static_cast<std::size_t>(g) >= groups_.size())
    throw run_error("profile for an unknown group");
  auto& gs = groups_[static_cast<std::size_t>(g)];
  const auto& members = dlb_.groups()[static_cast<std::size_t>(g)];
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
  if (!chooses_once()) dlb_.master_.count_sync(g, dec.reason == core::balance_reason::moved);
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
    if (custom_) custom_->went_idle(prof.slave);
  }
  if (dlb_.proto().told == decision_audience::tell_group)
    net_.multicast(ranks, tag::decision,
                   protocol::encode(protocol::decision_msg{h, std::nullopt, std::move(dec)}),
                   dlb_.proto().broadcast);
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
  if (!custom_) {
    commit_to_row(gs, h, dlb_.policy_.row().value());  // --first-sync master-*: the run's row
    return;
  }
  if (const auto row = custom_->choose(*this, gs, h)) commit_to_row(gs, h, *row);
}

void central_balancer::commit_to_row(const group_state& gs, const protocol::sync_header& h,
                                     core::scheme c) {
  const sync_protocol after = resolve_protocol(c, dlb_.protocol_opts());
  // master-global: one decision over every profile (in slave order); each group is sent its
  // part of it (the transfers that touch its members, their counts after).
  std::optional<protocol::decision> global;
  std::map<std::size_t, std::int64_t> global_after;  // each slave's count after it
  if (dlb_.proto().first_sync == first_sync_owner::master_global)
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
    if (!chooses_once() && after.told == decision_audience::tell_senders)
      count_first_sync(ng, nm, dec);
    const protocol::commitment to{core::balancing{c}, static_cast<int>(ng), std::nullopt};
    net_.multicast(ranks, tag::decision,
                   protocol::encode(protocol::decision_msg{h, to, std::move(dec)}),
                   dlb_.proto().broadcast);
  }
  // gs is gone from here on
  take_up(std::move(next), std::move(next_members), after);
  if (custom_) custom_->committed(*this);
}

void central_balancer::take_up(std::vector<group_state> groups,
                               std::vector<std::vector<std::size_t>> members,
                               const sync_protocol& proto) {
  groups_ = std::move(groups);
  dlb_.enter(proto, std::move(members));
}

void central_balancer::count_first_sync(std::size_t group, const std::vector<std::size_t>& members,
                                        const protocol::decision& dec) {
  const bool moved =
      std::any_of(dec.transfers.begin(), dec.transfers.end(), [&](const core::transfer& t) {
        return std::find(members.begin(), members.end(), t.from) != members.end();
      });
  dlb_.master_.count_sync(static_cast<int>(group), moved);
}

void central_balancer::release(std::size_t slave) {
  // A committed synchronization of the centralized strategies no longer waits for it.
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const auto& members = dlb_.groups()[g];
    const auto pos = static_cast<std::size_t>(std::find(members.begin(), members.end(), slave) -
                                              members.begin());
    if (pos == members.size() || !groups_[g].active[pos]) continue;
    groups_[g].active[pos] = false;
    if (!groups_[g].profiles.empty())
      serve_if_complete(groups_[g], {dlb_.loop_id_, static_cast<int>(g), groups_[g].epoch});
  }
}

}  // namespace detail

void DLB_master_sync(context& ctx) {
  auto& DLB = detail::master_of(ctx, "DLB_master_sync");
  DLB.master_.start_gathering();
  DLB.runner().run(DLB);
}

bool detail::master_session::note_loss(int rank) {
  if (rank <= 0 || rank > procs_ || rt_.lost(rank)) return false;
  rt_.mark_lost(rank);
  const double t = net_.clock().now();
  const double at = master_.record_loss(static_cast<std::size_t>(rank - 1), t);
  std::vector<int> to;
  for (int r = 1; r <= procs_; ++r)
    if (!rt_.lost(r)) to.push_back(r);
  net_.multicast(
      to, tag::lost,
      protocol::encode(protocol::lost_msg{loop_id_, static_cast<std::size_t>(rank - 1), t}),
      protocol_opts().broadcast);
  if (!rt_.params().quiet) {
    std::ostringstream os;
    os << rt_.app_name() << ": " << net_.describe(rank) << " lost at t = " << at << " s of loop "
       << loop_id_ << "; its unfinished iterations go to the survivors";
    rt_.report(report_kind::notice, os.str());
  }
  return true;
}

}  // namespace dlb
