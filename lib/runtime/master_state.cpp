// master_state.cpp: the master's state's methods that are more than a line (master_state.hpp).
#include "master_state.hpp"

#include <algorithm>

namespace dlb::detail {

void add_up_slaves(run_stats& st, const group_tally& tally, double master_lag) {
  group_tally per_group;
  st.lag = master_lag;
  for (const auto& s : st.slaves) {
    auto& g = per_group[s.group];
    g.first = std::max(g.first, s.syncs);
    g.second = std::max(g.second, s.redistributions);
    st.iterations_moved += s.iterations_sent;
    st.bytes_moved += s.bytes_sent;
    st.lag = std::max(st.lag, s.lag);
  }
  for (const auto& [g, c] : tally) per_group[g] = c;
  for (const auto& [g, c] : per_group) {
    st.syncs += c.first;
    st.redistributions += c.second;
  }
}

void master_state::begin(const core::policy& p, int procs, int group_size, std::int64_t iterations,
                         bool recover, double start) {
  stats_.policy = p;
  stats_.procs = procs;
  stats_.group_size = group_size;
  stats_.iterations = iterations;
  stats_.recover = recover;
  stats_.start_time = start;
}

double master_state::record_loss(std::size_t slave, double t) {
  const double at = t - stats_.start_time;
  stats_.lost.push_back({slave, at});
  return at;
}

void master_state::close(std::vector<slave_stats> slaves, double master_lag,
                         const std::vector<std::int64_t>& chunks, std::uint64_t chunk_bytes,
                         double end, double recovery_time) {
  stats_.slaves = std::move(slaves);
  add_up_slaves(stats_, tally_, master_lag);
  // Self-scheduling: no slave ships work; the master ships each chunk's input slices.
  stats_.bytes_moved += chunk_bytes;
  stats_.chunks = chunks;
  stats_.end_time = end;
  stats_.recovery_time = recovery_time;
}

void self_scheduling_state::start(const core::chunk_params& cp, core::range_list pool,
                                  std::vector<double> weights, double now) {
  dispenser_.emplace(cp);
  rule_ = cp.rule;
  pool_ = std::move(pool);
  weights_ = std::move(weights);
  if (rule_ == core::chunk_rule::awf) dispenser_->set_weights(weights_);
  chunks_.clear();
  chunk_bytes_ = 0;
  outstanding_.assign(cp.workers, {});
  asked_at_.assign(cp.workers, now);
}

void self_scheduling_state::take_request(std::size_t worker, std::int64_t done, double speed,
                                         double now, const core::iteration_cost& cost) {
  if (rule_ == core::chunk_rule::awf) {
    weights_[worker] = speed;
    dispenser_->set_weights(weights_);
  }
  if (!core::adapts_to_measurements(rule_) || worker >= outstanding_.size()) return;
  core::range_split split = core::split_front(outstanding_[worker], done);
  outstanding_[worker] = std::move(split.back);
  const std::int64_t n = core::iteration_count(split.front);
  const double work = cost ? core::work_of(split.front, cost) : static_cast<double>(n);
  if (n > 0 && speed > 0) dispenser_->record(worker, n, work / speed, now - asked_at_[worker]);
  asked_at_[worker] = now;
}

core::range_list self_scheduling_state::next_chunk(std::size_t worker) {
  core::range_list out;
  next_chunk(worker, out);
  return out;
}

void self_scheduling_state::next_chunk(std::size_t worker, core::range_list& out) {
  out.clear();
  const std::int64_t c = dispenser_->next(worker);
  if (c == 0) return;
  if (pool_.size() == 1 && pool_.front().end - pool_.front().begin >= c) {
    // One range left, as long as the chunk or longer (a loop from its start): no new lists.
    out.push_back({pool_.front().begin, pool_.front().begin + c});
    pool_.front().begin += c;
    if (pool_.front().begin == pool_.front().end) pool_.clear();
  } else {
    core::range_split split = core::split_front(pool_, c);
    pool_ = std::move(split.back);
    out.assign(split.front.begin(), split.front.end());
  }
  chunks_.push_back(c);
  if (worker < outstanding_.size()) {
    auto& held = outstanding_[worker];
    held.insert(held.end(), out.begin(), out.end());
  }
}

}  // namespace dlb::detail
