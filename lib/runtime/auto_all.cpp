// auto_all.cpp: AUTO-ALL's parts of the master and of a slave (beyond the paper;
// docs/design/policies.md, "AUTO-ALL"). At the loop's first synchronization (the master's own:
// global, centralized) the master predicts the loop's time under every candidate (--candidates) and
// commits to the fastest (or to --auto-force's):
//  - a paper strategy: exactly AUTO's commitment (central_balancer.cpp, commit_to_row);
//  - ADAPTIVE: that synchronization becomes ADAPTIVE's first re-selection
//    (customized_runner.cpp);
//  - a self-scheduling rule: every slave that took part is told so in the commitment, drops the
//    iterations it has not started and continues as a worker (REQUEST / CHUNK); the master hands
//    out the pool of what the slaves reported remaining (the union of their profiles'
//    remaining ranges, in slave order) by the rule's dispenser, with each chunk's input slices
//    from its own copy of the arrays (self_scheduling.cpp), until the loop's end.
#include "dlb/core/auto_all.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include "dlb/core/load_estimate.hpp"
#include "dlb/core/self_scheduling_model.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"
#include "self_scheduling.hpp"

namespace dlb {
// What a message costs, as the messenger and the network charge it (network.hpp): the run's
// emulated or simulated network; under the native clock the model's L and B (no overheads, no
// shared medium); nothing on the ideal network.
core::message_costs detail::message_costs_of(const run_params& prm,
                                             const core::network_profile& model) {
  core::message_costs m;
  if (prm.emulated && prm.network.modelled()) {
    const network_params& n = prm.network;
    m.latency = n.latency;
    m.bandwidth = n.bandwidth;
    m.send_overhead = n.send_overhead;
    m.recv_overhead = n.recv_overhead;
    m.header_bytes = n.header_bytes;
    m.wire_share = n.wire_share;
    m.shared_medium = n.kind == network_kind::ethernet1996;
  } else if (!prm.emulated) {
    m.latency = model.latency;
    m.bandwidth = model.bandwidth;
    m.shared_medium = false;
  }
  return m;
}


std::optional<core::model_input> detail::master_session::model_for_choice(
    const strategy_prediction& four, const std::vector<double>& speeds) const {
  const auto& prm = rt_.params();
  std::vector<double> w;
  double mean = 0.0;
  bool uniform = true;
  core::model_input in = model_base(w, mean, uniform);
  if (!four.valid || !(mean > 0) || speeds.size() != prm.speeds.size()) return std::nullopt;
  in.start = initial_distribution();
  // As predict (dlb.cpp): the observed speeds held constant under real time, else the
  // workstations' speeds under the run's load or the estimated one (the estimated ml and tl;
  // the seed of expected_choice's first draw: predict_self_scheduled averages over its draws).
  if (!prm.emulated || !loop_.work) {
    const double per_unit = work_cost() ? 1.0 : mean;
    for (double v : speeds) in.machine.base_speeds.push_back(std::max(v * per_unit, 1e-12));
    in.machine.load.max_load = 0;
  } else {
    in.machine.base_speeds = prm.speeds;
    in.start_time = master_.start_time();
    if (four.load == core::model_load::run) {
      in.machine.load = prm.load;
    } else {
      in.machine.load.seed = core::model_load_seed(0);
      in.machine.load.max_load = four.max_load;
      in.machine.load.persistence = four.persistence;
    }
  }
  if (!uniform) in.program.iteration_times = std::move(w);
  return in;
}

double detail::master_session::predict_self_scheduled(const core::policy& p,
                                                      const core::model_input& in,
                                                      const core::range_list& pool,
                                                      const std::vector<double>& speeds,
                                                      double elapsed) const {
  const auto& prm = rt_.params();
  core::self_scheduling_input ss;
  const core::chunk_params cp = chunk_params_for(p, core::iteration_count(pool));
  ss.rule = p.rule();
  ss.fixed = p.chunk();
  ss.fsc_overhead = cp.overhead;
  ss.fsc_sigma = cp.sigma;
  ss.prefetch = prm.prefetch;
  ss.pool = pool;
  ss.time_per_iteration = in.program.time_per_iteration;
  ss.iteration_times = in.program.iteration_times;
  ss.bytes_per_iteration = in.program.bytes_per_iteration;
  ss.request_bytes = request_bytes();
  ss.answer_bytes = answer_bytes();
  ss.network = detail::message_costs_of(prm, rt_.model_network());
  ss.base_speeds = in.machine.base_speeds;
  ss.load = in.machine.load;
  ss.weights = p.rule() == core::chunk_rule::wf ? cp.weights : speeds;
  // The commitment reaches the workers first (one DECISION's cost).
  const double decision = total(core::message_cost(ss.network, ss.answer_bytes));
  ss.start_time = in.start_time + elapsed + decision;
  // Under --model-load estimated, the mean over expected_choice's load functions, as the four's.
  const bool estimated =
      prm.emulated && loop_.work && prm.model_load == core::model_load::estimated;
  const std::size_t draws = estimated ? core::estimated_load_draws : 1;
  double sum = 0.0;
  for (std::size_t d = 0; d < draws; ++d) {
    if (estimated) ss.load.seed = core::model_load_seed(d);
    sum += core::predict_self_scheduling(ss).total_time;
  }
  return elapsed + decision + sum / static_cast<double>(draws);
}

detail::auto_all_pick detail::master_session::choose_policy(
    std::span<const core::policy> candidates, const core::policy* forced,
    const std::vector<protocol::member_profile>& profiles, const std::vector<double>& speeds,
    double now) {
  const auto wall0 = std::chrono::steady_clock::now();
  const auto& prm = rt_.params();
  auto& stats = master_.predictions();
  stats.prediction = predict(speeds);  // AUTO's: the paper's four
  const auto in = model_for_choice(stats.prediction, speeds);
  core::range_list pool;
  for (const auto& prof : profiles)
    pool.insert(pool.end(), prof.remaining.begin(), prof.remaining.end());
  const double elapsed = now - stats.start_time;
  // The four's predictions run from the loop's start, their first phase the model's; the others
  // are the time so far plus a prediction of the rest. The four are shifted by the first
  // phase's measured length minus the model's (one shift for all four: AUTO's ranking stands).
  double shift = 0.0;
  if (in) {
    const double t1 = core::first_run_out(*in);
    if (std::isfinite(t1)) shift = elapsed - (t1 - in->start_time);
  }
  stats.first_phase_shift_s = shift;
  auto_all_pick pick;
  for (const core::policy& c : candidates) {
    double t = -1.0;
    if (const auto row = c.row(); row && stats.prediction.valid) {
      t = stats.prediction.total_time[core::index_of(*row)] + shift;
    } else if (c.is(core::customized_mode::adaptive) && in && stats.prediction.valid) {
      // The best of the four as predicted above; its synchronizations from the model on `in`.
      core::prediction best = core::predict(stats.prediction.best, *in);
      best.total_time = *std::min_element(stats.prediction.total_time.begin(),
                                          stats.prediction.total_time.end()) +
                        shift;
      t = core::predict_adaptive(best, in->network, static_cast<std::size_t>(procs_), prm.delta);
    } else if (c.is_self_scheduled() && in) {
      t = predict_self_scheduled(c, *in, pool, speeds, elapsed);
    }
    if (t >= 0 && std::isfinite(t)) pick.times.push_back({c, t});
  }
  if (forced)
    pick.policy = *forced;
  else if (!pick.times.empty())
    pick.policy = pick.times[core::fastest(pick.times)].candidate;
  else
    pick.policy = core::policy{};  // GDDLB, as AUTO when the model cannot predict
  stats.candidates = pick.times;
  stats.committed = core::to_string(pick.policy);
  stats.chosen = pick.policy;
  stats.choice_wall_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return pick;
}

// Each way to begin with the blocks: the four and ADAPTIVE as the model has them from the loop's
// start, plus the blocks' scatter (its mean arrival on the network: the model's first phase
// leaves it out); a chunk rule taken up at the first synchronization (the model's first slave to
// run out of its block, then the profiles to the master, then the rule over what the slaves
// hold then). And each rule from the start, its first chunks with the scatter.
void detail::master_session::scatter_candidates(std::span<const core::policy> candidates,
                                                std::vector<core::candidate_time>& blocks,
                                                std::vector<core::candidate_time>& chunks) const {
  const auto& prm = rt_.params();
  const strategy_prediction four = predict(prm.speeds, core::model_load::run);
  const auto in = model_for_choice(four, prm.speeds);
  if (!in || !four.valid) return;
  const auto net = message_costs_of(prm, rt_.model_network());
  std::vector<double> bytes;
  for (const auto& b : in->start)
    bytes.push_back(static_cast<double>(core::iteration_count(b)) *
                    in->program.bytes_per_iteration);
  const double scatter = core::mean_arrival(net, bytes);
  const double t1 = core::first_run_out(*in);
  core::range_list held;
  if (std::isfinite(t1))
    for (const auto& r : core::remaining_at(*in, t1)) held.insert(held.end(), r.begin(), r.end());
  const double first_sync =
      (std::isfinite(t1) ? t1 - in->start_time : 0.0) + scatter +
      static_cast<double>(procs_) * total(core::message_cost(net, request_bytes()));
  const double best = *std::min_element(four.total_time.begin(), four.total_time.end());
  // AWF from the start weighs its first batch equally (no speed measured yet: first_chunks).
  const std::vector<double> unmeasured(static_cast<std::size_t>(procs_), 0.0);
  for (const core::policy& c : candidates) {
    const auto row = c.row();
    const auto k =
        row ? static_cast<std::size_t>(std::find(core::balancing_strategies.begin(),
                                                 core::balancing_strategies.end(), *row) -
                                       core::balancing_strategies.begin())
            : core::kBalancingStrategies;
    if (k < core::kBalancingStrategies) {
      blocks.push_back({c, four.total_time[k] + scatter});
    } else if (c.is(core::customized_mode::adaptive)) {
      core::prediction p = core::predict(four.best, *in);
      p.total_time = best;
      blocks.push_back(
          {c, core::predict_adaptive(p, in->network, static_cast<std::size_t>(procs_), prm.delta) +
                  scatter});
    } else if (c.is_self_scheduled()) {
      chunks.push_back(
          {c, predict_self_scheduled(c, *in, {{0, loop_.iterations}}, unmeasured, 0.0)});
      if (std::isfinite(t1))
        blocks.push_back({c, predict_self_scheduled(c, *in, held, prm.speeds, first_sync)});
    }
  }
}

std::optional<core::policy> detail::master_session::choose_before_scatter(
    std::span<const core::policy> candidates, const core::policy* forced) {
  const auto& prm = rt_.params();
  if (forced || !prm.emulated || !loop_.work || prm.model_load != core::model_load::run ||
      loop_.iterations == 0)
    return std::nullopt;
  const auto wall0 = std::chrono::steady_clock::now();
  std::vector<core::candidate_time> blocks, chunks;
  scatter_candidates(candidates, blocks, chunks);
  auto& stats = master_.predictions();
  if (blocks.empty() && chunks.empty()) return std::nullopt;
  const core::scatter_choice choice = core::choose_before_scatter(blocks, chunks);
  stats.choice_wall_s +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (!prm.quiet) {
    std::ostringstream os;
    os << rt_.app_name() << ": AUTO-ALL before the scatter predicts";
    for (const auto& t : choice.times)
      os << " " << core::to_string(t.candidate) << " " << t.time << " s";
    os << (choice.from_start ? "; commits to " + core::to_string(choice.pick) + " from the start"
                             : std::string("; starts with the blocks"));
    rt_.report(report_kind::notice, os.str());
  }
  if (!choice.from_start) return std::nullopt;
  stats.prediction = predict(prm.speeds, core::model_load::run);
  stats.candidates = choice.times;
  stats.committed = core::to_string(choice.pick);
  stats.chosen = choice.pick;
  stats.decided_at_scatter = true;
  scatter_commit_ = choice.pick;
  return choice.pick;
}

void detail::slave_session::become_worker() {
  // The iterations not started go back to the master's pool: the current range keeps its begin
  // (the application's loop ends it there), the rest is dropped.
  slave_.work().keep_started();
  slave_.close();
}

}  // namespace dlb
