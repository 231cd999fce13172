// customized_runner.cpp: customized mode's choosing, committing and re-selecting
// (customized_runner.hpp). The central balancer serves the synchronizations; this runner is
// asked at the master's own ones.
#include "customized_runner.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "dlb/core/redistribution.hpp"

namespace dlb::detail {

customized_runner::customized_runner(core::customized p, master_session& m)
    : policy_(std::move(p)),
      m_(m),
      procs_(static_cast<std::size_t>(m.procs_)),
      models_(m),
      chooser_(make_chooser(models_, policy_)) {}

std::unique_ptr<policy_runner> make_runner(const core::customized& p, master_session& m) {
  return std::make_unique<customized_runner>(p, m);
}

std::vector<core::range_list> customized_runner::first_shares(master_session& m) {
  if (policy_.mode != core::customized_mode::auto_all) return policy_runner::first_shares(m);
  const auto rule = m.choose_before_scatter(
      policy_.candidates, policy_.forced.empty() ? nullptr : &policy_.forced.front());
  if (!rule) return policy_runner::first_shares(m);
  handed_to_ = make_runner(std::get<core::self_scheduled>(rule->value), m);
  return handed_to_->first_shares(m);
}

void customized_runner::run(master_session& m) {
  if (handed_to_) {  // AUTO-ALL committed to a chunk rule before the scatter
    handed_to_->run(m);
    return;
  }
  const auto initial = m.initial_counts();
  live_.assign(procs_, false);
  for (std::size_t s = 0; s < procs_; ++s) live_[s] = initial[s] > 0;
  central_balancer(m, this).run();
  if (handed_to_) handed_to_->run(m);  // committed to a chunk rule: its runner has the rest
}

std::optional<core::scheme> customized_runner::choose(central_balancer& b, const group_state& gs,
                                                      const protocol::sync_header& h) {
  choice_input in;
  in.speeds.assign(procs_, 0.0);
  for (const auto& [p, prof] : gs.profiles) {
    in.speeds[prof.slave] = prof.speed;
    in.profiles.push_back(prof);
  }
  in.now = m_.net_.clock().now();
  const core::policy pick = chooser_->choose(in);
  if (const auto* row = std::get_if<core::balancing>(&pick.value)) return row->row;
  if (std::holds_alternative<core::self_scheduled>(pick.value))
    switch_to_self_scheduling(b, gs, h, pick);
  else
    switch_to_adaptive(b, gs, h);
  record_choice_time(b);
  return std::nullopt;
}

void customized_runner::committed(central_balancer& b) { record_choice_time(b); }

void customized_runner::record_choice_time(central_balancer& b) {
  if (policy_.mode == core::customized_mode::auto_all)
    m_.master_.set_choice_time(m_.net_.clock().now() - b.complete_at());
}

// Every slave that took part is told, in the commitment, to drop what it has not started; the
// pool is what they reported remaining, in slave order (the profiles' ranges, which no slave
// worked on while it waited for this decision).
void customized_runner::switch_to_self_scheduling(central_balancer& b, const group_state& gs,
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
  handed_to_ = make_runner(std::get<core::self_scheduled>(pick.value), m_);
  m_.start_pool(pick, std::move(pool), std::move(weights));
  m_.master_.count_handover();
  const protocol::commitment to{pick, 0, std::nullopt};
  m_.net_.multicast(ranks, tag::decision,
                    protocol::encode(protocol::decision_msg{h, to, std::move(dec)}),
                    m_.proto().broadcast);
  b.stop();
}

// This synchronization is ADAPTIVE's first re-selection (epoch 0): its commitment lists the
// members that took part, which tells an AUTO-ALL slave that ADAPTIVE is in force.
void customized_runner::switch_to_adaptive(central_balancer& b, const group_state& gs,
                                           const protocol::sync_header& h) {
  m_.set_in_force(core::customized{core::customized_mode::adaptive});
  chooser_ = make_chooser(models_, core::customized{core::customized_mode::adaptive});
  live_.assign(procs_, false);
  for (const auto& [p, prof] : gs.profiles) {
    live_[prof.slave] = true;
    reselection_[prof.slave] = prof;
  }
  reselect(b, h);
}

void customized_runner::take_reselection_profile(central_balancer& b, protocol::profile_msg m) {
  if (m.sync.group != 0 || m.sync.epoch != 2 * stage_)
    throw run_error("re-selection profile of slave " + std::to_string(m.profile.slave + 1) +
                    " for group " + std::to_string(m.sync.group) + ", synchronization " +
                    std::to_string(m.sync.epoch) + "; expected group 0, synchronization " +
                    std::to_string(2 * stage_));
  if (m.profile.slave >= procs_) throw run_error("re-selection profile of an unknown slave");
  live_[m.profile.slave] = true;
  reselection_[m.profile.slave] = std::move(m.profile);
  reselect_if_complete(b);
}

void customized_runner::gathered(central_balancer& b, std::size_t slave) {
  if (!adaptive() || slave >= procs_) return;
  live_[slave] = false;
  b.release(slave);
  reselect_if_complete(b);
}

void customized_runner::went_idle(std::size_t slave) {
  if (adaptive()) live_[slave] = false;
}

void customized_runner::reselect_if_complete(central_balancer& b) {
  if (reselection_.empty()) return;
  for (std::size_t s = 0; s < procs_; ++s)
    if (live_[s] && reselection_.find(s) == reselection_.end()) return;
  reselect(b, {m_.loop_id_, 0, 2 * stage_});
}

// The decision of this synchronization is made under each strategy's groups (as AUTO's
// commitment does for the strategy it picks); the model predicts each strategy's time from the
// state that decision leaves to the loop's end, under the load from now on; core::reselect
// picks. Every slave that took part gets its group's decision under the pick, with the
// commitment (the strategy, its group and who in it took part).
void customized_runner::reselect(central_balancer& b, const protocol::sync_header& h) {
  m_.net_.busy(m_.rt_.params().delta);
  choice_input in;
  in.now = m_.net_.clock().now();
  in.speeds.assign(procs_, 0.0);
  for (const auto& [s, prof] : reselection_) {
    in.speeds[s] = prof.speed;
    in.window += prof.elapsed / static_cast<double>(reselection_.size());
    in.profiles.push_back(prof);
  }
  plans each;
  plan_under_each(each, in.starts);
  const core::policy chosen = chooser_->choose(in);
  const core::scheme pick = chosen.row().value();  // ADAPTIVE's chooser picks a row
  commit_reselection(b, each[core::index_of(pick)], pick, h);
}

void customized_runner::plan_under_each(plans& each, starts& from) const {
  for (std::size_t k = 0; k < core::kBalancingStrategies; ++k) {
    const core::scheme c = core::balancing_strategies[k];
    auto& plan = each[k];
    plan.groups = m_.groups_for(group_size_under(c, m_.local_group_size_, m_.procs_));
    auto& start = from[k];
    start.assign(procs_, {});
    for (const auto& [s, prof] : reselection_) start[s] = prof.remaining;
    for (const auto& members : plan.groups) {
      std::vector<protocol::member_profile> profiles;
      std::vector<std::size_t> took_part;
      for (std::size_t mb : members) {
        const auto it = reselection_.find(mb);
        if (it == reselection_.end()) continue;
        profiles.push_back(it->second);
        took_part.push_back(mb);
      }
      plan.took_part.push_back(took_part);
      if (profiles.empty()) {
        plan.decisions.emplace_back();
        continue;
      }
      auto dec = m_.decide(profiles);
      // What each member holds after it: a sender loses the end of its work, a receiver gains
      // the ranges shipped to it.
      std::map<std::size_t, std::int64_t> given;
      for (const auto& t : dec.transfers) given[t.from] += t.count;
      for (const auto& [f, n] : given) start[f] = core::split_back(start[f], n).front;
      for (const auto& t : dec.transfers)
        start[t.to].insert(start[t.to].end(), t.ranges.begin(), t.ranges.end());
      plan.decisions.emplace_back(std::move(dec));
    }
  }
}

void customized_runner::commit_reselection(central_balancer& b, under_strategy& plan,
                                           core::scheme pick, const protocol::sync_header& h) {
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
    const protocol::commitment to{core::balancing{pick}, static_cast<int>(ng), took_part, true};
    m_.net_.multicast(ranks, tag::decision,
                      protocol::encode(protocol::decision_msg{h, to, std::move(dec)}),
                      m_.proto().broadcast);
  }
  b.take_up(std::move(next), std::move(plan.groups), resolve_protocol(pick, m_.protocol_opts()));
  ++stage_;
  reselection_.clear();
}

}  // namespace dlb::detail
