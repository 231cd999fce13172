// master_state.hpp (internal): what the master knows of its loop, behind methods that keep it
// consistent (master_session owns one of each; central_balancer.cpp, customized_runner.cpp,
// self_scheduling.cpp, auto_all.cpp, recovery.cpp and dlb.cpp change it only through these).
// Its parts:
//  - master_state: the slaves' results gathered, the balancer's own count per group (its
//    tally), and the loop's statistics, begun at the scatter and closed at the gather;
//  - self_scheduling_state: a chunk rule on the master (beyond the paper): its dispenser, the
//    iterations not handed out yet, the chunks handed out, and what the rules that adapt measure.
// Neither reaches a transport or a clock (times come in as values), so both are unit-tested
// alone (tests/unit/runtime_master_state_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/distribution.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/stats.hpp"

namespace dlb::detail {

// Per group: the synchronizations the master's balancer served and those that moved work.
using group_tally = std::map<int, std::pair<std::int64_t, std::int64_t>>;

// The run's totals from the slaves' statistics: the moves, the lag, and the synchronizations and
// redistributions per group (every member takes part in each one while it is active, so the most
// any member saw is the group's count; where the members did not all see every decision, the
// balancer's own count, `tally`, is exact and replaces it).
void add_up_slaves(run_stats& st, const group_tally& tally, double master_lag);

class master_state {
 public:
  // DLB_scatter_data: the loop's statistics begin, at `start` on the master's clock.
  void begin(const core::policy& p, int procs, int group_size, std::int64_t iterations,
             bool recover, double start);
  double start_time() const { return stats_.start_time; }

  // The slaves' results (their GATHER messages), in arrival order. Collecting starts again at
  // each DLB_master_sync and each balancer's run; then one is taken per slave.
  void start_gathering() { gathered_.clear(); }
  void take_results(delivered d) { gathered_.push_back(std::move(d)); }
  std::size_t results_in() const { return gathered_.size(); }
  const std::vector<delivered>& results() const { return gathered_; }

  // The balancer's own count: a synchronization of group `group` served (moved: it moved work).
  void count_sync(int group, bool moved) {
    auto& t = tally_[group];
    ++t.first;
    if (moved) ++t.second;
  }
  // AUTO-ALL's commitment to a chunk rule: group 0's count is that one synchronization, which
  // moved nothing; the requests served after it are added to it (count_requests).
  void count_handover() { tally_[0] = {1, 0}; }
  // A self scheduler's requests, and those answered with a chunk, as synchronizations of group
  // 0 and those that moved work.
  void count_requests(std::int64_t requests, std::int64_t served) {
    tally_[0].first += requests;
    tally_[0].second += served;
  }
  const group_tally& tally() const { return tally_; }

  // --on-loss recover: slave `slave` (0-based) lost at `t` on the master's clock; returns that
  // time from the loop's start, as recorded.
  double record_loss(std::size_t slave, double t);
  // Iterations reassigned to the survivors.
  void count_recovered(std::int64_t iterations) { stats_.recovered_iterations += iterations; }

  // What customized mode's choosers and the model's predictions record (prediction,
  // other_prediction, chosen, choices, committed, candidates, decided_at_scatter, choice_wall_s,
  // first_phase_shift_s); the other fields change through the methods here only.
  run_stats& predictions() { return stats_; }
  // AUTO-ALL: the run clock's seconds from the last profile in to the commitment sent.
  void set_choice_time(double seconds) { stats_.choice_time_s = seconds; }

  // DLB_gather_data: each slave's statistics and the totals from them and from the tally
  // (add_up_slaves); a self scheduler's chunks and the bytes shipped with them; the loop's end
  // and its recovery's time.
  void close(std::vector<slave_stats> slaves, double master_lag,
             const std::vector<std::int64_t>& chunks, std::uint64_t chunk_bytes, double end,
             double recovery_time);
  // After close: the oracle's and the communication-aware bounds (core/oracle.hpp,
  // core/comm_bound.hpp).
  void set_bounds(double oracle, double comm_bound) {
    stats_.oracle_time = oracle;
    stats_.comm_bound_time = comm_bound;
  }

  const run_stats& stats() const { return stats_; }
  // The loop's outcome, when its session goes.
  run_stats take_stats() { return std::move(stats_); }

 private:
  std::vector<delivered> gathered_;
  group_tally tally_;
  run_stats stats_;
};

// A chunk rule's state on the master (self_scheduling.cpp; beyond the paper).
class self_scheduling_state {
 public:
  // The rule of `cp` starts over `pool` (the loop's start: [0, I); AUTO-ALL's commitment: what
  // the slaves reported remaining), for cp.workers workers: AWF weighs with `weights` (0: no
  // speed yet), nothing handed out, each worker's first measurement from `now`.
  void start(const core::chunk_params& cp, core::range_list pool, std::vector<double> weights,
             double now);
  bool started() const { return dispenser_.has_value(); }
  core::chunk_rule rule() const { return rule_; }

  // Worker `worker`'s request at `now` reported `done` iterations at `speed` (work per second in
  // the balancer's unit, `cost`: empty, every iteration one): AWF's weight for it, and the
  // measurement of the rules that adapt (core::chunk_dispenser::record). Only once started.
  void take_request(std::size_t worker, std::int64_t done, double speed, double now,
                    const core::iteration_cost& cost);
  // The next chunk for `worker` from the pool's front (empty: all handed out), recorded as
  // handed out and as held by that worker. Only once started.
  core::range_list next_chunk(std::size_t worker);
  // The same into `out` (its storage reused: no allocation while the pool is one range).
  void next_chunk(std::size_t worker, core::range_list& out);
  // A chunk's input slices shipped with it.
  void count_shipped(std::uint64_t bytes) { chunk_bytes_ += bytes; }

  // The chunk sizes handed out, in order (the index of the next one is their count).
  const std::vector<std::int64_t>& chunks() const { return chunks_; }
  std::uint64_t chunk_bytes() const { return chunk_bytes_; }
  // The iterations not handed out yet, in the order they go.
  const core::range_list& pool() const { return pool_; }
  // Per worker: what it was handed and has not reported done (a rule that does not adapt
  // never reports, so it keeps all it was handed).
  const std::vector<core::range_list>& outstanding() const { return outstanding_; }

 private:
  std::optional<core::chunk_dispenser> dispenser_;
  core::chunk_rule rule_ = core::chunk_rule::gss;
  core::range_list pool_;
  // AWF: each worker's weight, the speed its last request reported (0: none yet; under
  // AUTO-ALL, the speed of its profile).
  std::vector<double> weights_;
  std::vector<std::int64_t> chunks_;
  std::uint64_t chunk_bytes_ = 0;
  // The rules that adapt to measurements (AWF-B..E, AF): per worker, the iterations handed to it
  // and not yet reported done, and when its last request came (or its pool started).
  std::vector<core::range_list> outstanding_;
  std::vector<double> asked_at_;
};

}  // namespace dlb::detail
