// stats.hpp: what a balanced loop reports: each slave's statistics (slave_stats, also the
// payload of a slave's results message) and the run's (run_stats, DLB context::stats and
// parallel_for's result), with the cost model's predictions and ADAPTIVE's choices.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dlb/core/auto_all.hpp"
#include "dlb/core/load_estimate.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/core/strategy.hpp"

namespace dlb {

struct slave_stats {
  std::int64_t iterations_done = 0;
  std::int64_t iterations_sent = 0;
  std::int64_t iterations_received = 0;
  std::uint64_t bytes_sent = 0;      // array data shipped with moved iterations
  std::int64_t syncs = 0;            // synchronizations taken part in
  std::int64_t redistributions = 0;  // of those, the ones that moved work
  double busy = 0.0;                 // computing iterations
  double sync = 0.0;  // in the DLB calls: interrupts, profiles, decisions, instructions, moves
  double idle = 0.0;  // waiting with nothing to do: a requester told nothing comes, or awaiting
                      // work announced to it (the paper's "idle processor")
  // busy, sync and idle are each measured, interval by interval: the application's time between
  // DLB calls is busy (its loop body), a call's own time is sync but for what it computes or
  // waits idle; together they cover [start, finish], which the tests check.
  double start = 0.0;   // when its loop started (scatter received)
  double finish = 0.0;  // when it handed in its results
  double lag = 0.0;     // emulation lag, seconds
  int group = 0;
  // Its speed measured at its first synchronization (-1: it had none): the cost model's view of
  // this workstation's effective speed, in work per second (the unit of --balance-by: the loop's
  // costs in base seconds, or iterations).
  double first_speed = -1.0;
  // The work it did in that unit (iterations under --balance-by iterations or without costs).
  double work_done = 0.0;
};

// The cost model's predicted total time of each balancing strategy, and the best of them, under
// one assumption about the external load (core/load_estimate.hpp).
struct strategy_prediction {
  bool valid = false;
  core::scheme best = core::scheme::gddlb;  // read only when valid
  std::array<double, core::kBalancingStrategies>
      total_time{};  // in core::balancing_strategies order
  core::model_load load = core::model_load::run;
  // The load parameters the model used: the run's (run) or the estimated ones (estimated).
  int max_load = 0;
  double persistence = 0.0;
};

// One choice of ADAPTIVE (a re-selection synchronization): when, what the model predicted from
// there to the loop's end under each balancing strategy, and the strategy it committed to.
struct adaptive_choice {
  double time = 0.0;  // seconds from the loop's start
  core::scheme scheme = core::scheme::gddlb;
  std::array<double, core::kBalancingStrategies>
      predicted{};  // in core::balancing_strategies order
};

// A slave lost during a loop (--on-loss recover): which, and when the master learned of it.
struct slave_loss {
  std::size_t slave = 0;  // 0-based
  double time = 0.0;      // seconds from the loop's start
};

struct run_stats {
  core::policy policy;  // the loop's, as DLB_init was given it
  int procs = 0;
  int group_size = 0;
  std::int64_t iterations = 0;
  std::vector<slave_stats> slaves;
  std::int64_t syncs = 0;            // synchronizations (summed over groups)
  std::int64_t redistributions = 0;  // synchronizations that moved work
  std::int64_t iterations_moved = 0;
  std::uint64_t bytes_moved = 0;
  double start_time = 0.0;  // master's clock at DLB_scatter_data
  double end_time = 0.0;    // master's clock when the last results were in
  double total_time() const { return end_time - start_time; }
  double lag = 0.0;  // worst emulation lag of any task, seconds
  // The oracle bound (core/oracle.hpp): seconds an ideal zero-overhead balancer would take for
  // this loop's work from its start, every slave busy throughout, under the run's load (0 under
  // the native clock, where the work function is not the iterations' real cost).
  double oracle_time = 0.0;
  // The communication-aware bound (core/comm_bound.hpp): the oracle plus what every schedule of
  // the program must put on the network (the scatter before a slave starts, the last gather,
  // every byte on a shared medium), at its cheapest order; 0 where oracle_time is.
  double comm_bound_time = 0.0;
  // Self-scheduling: the chunk sizes the master handed out, in order (the scatter's first).
  std::vector<std::int64_t> chunks;
  // Customized mode: the policy the run committed to at its first synchronization (a balancing
  // row under AUTO and ADAPTIVE; any candidate under AUTO-ALL); empty for the other kinds.
  std::optional<core::policy> chosen;
  // ADAPTIVE: every re-selection, in order (chosen is the first one's strategy).
  std::vector<adaptive_choice> choices;
  // AUTO-ALL: the policy it committed to as --strategy names it ("GSS", "CSS:16", "GDDLB",
  // "ADAPTIVE"; chosen is its strategy), every candidate's predicted time of the loop (seconds
  // from its start, in --candidates order; a candidate the model could not predict is left out),
  // and what the choice cost: the master's wall seconds computing the predictions, and the run
  // clock's seconds from the last profile in to the commitment sent (delta and the messages).
  std::string committed;
  std::vector<core::candidate_time> candidates;
  // AUTO-ALL: where it committed: before the scatter (a chunk rule from the loop's start;
  // core::choose_before_scatter) or at the first synchronization (after the paper's blocks).
  bool decided_at_scatter = false;
  double choice_wall_s = 0.0;
  double choice_time_s = 0.0;
  // The first phase's measured length minus the model's, added to the four's predictions.
  double first_phase_shift_s = 0.0;
  // What the model predicts from the speeds observed up to the first synchronization (every
  // run that balances; in AUTO runs, the prediction it committed on), with the load that
  // --model-load names; other_prediction is the same with the other assumption (both are
  // computed on every balanced run).
  strategy_prediction prediction;
  strategy_prediction other_prediction;
  // The prediction made with the given assumption about the load (one of the two above).
  const strategy_prediction& prediction_with(core::model_load m) const {
    return prediction.load == m ? prediction : other_prediction;
  }
  // --on-loss recover: the slaves lost in this loop, the iterations the survivors computed
  // because nobody had handed them in (the lost slaves' unfinished work, and work in flight to
  // or from them), and the recovery's time: from the first reassignment to the loop's end.
  bool recover = false;  // the run survives a lost slave (--on-loss recover)
  std::vector<slave_loss> lost;
  std::int64_t recovered_iterations = 0;
  double recovery_time = 0.0;
  std::string summary() const;
};

// ADAPTIVE's choices as "GDDLB@0.512,LDDLB@3.204" (strategy@seconds from the loop's start);
// "-" if there were none.
std::string choice_sequence(const run_stats& st);

// AUTO-ALL's fields of a RESULT line, in order (none for another strategy): committed (the
// policy), candidates ("GCDLB:12.3/.../AWF:11.9": each candidate's predicted time of the loop,
// seconds), decided (scatter: before any data went out; sync: at the first synchronization),
// choice_wall_s (the master's wall seconds computing them, both choices) and choice_s (the run
// clock's seconds from the last profile in to the commitment sent; 0 before the scatter).
std::vector<std::pair<std::string, std::string>> auto_all_fields(const run_stats& st);

}  // namespace dlb
