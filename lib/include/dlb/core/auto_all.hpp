// AUTO-ALL (beyond the paper; docs/design/policies.md, "AUTO-ALL"): customized mode over every policy. At
// the loop's first synchronization (the master's: global, centralized) the master predicts the
// loop's time under each candidate policy and commits to the fastest:
//   - the paper's four strategies: the cost model, exactly as AUTO (cost_model.hpp), from the
//     loop's start; shifted by the first phase's measured length minus the model's
//     (first_run_out), one shift for the four, so that every candidate's time is the time so far
//     plus a prediction of the rest (the model's first phase leaves out the scatter);
//   - a self-scheduling rule: the time so far plus the master-worker queue over the iterations
//     that remain (self_scheduling_model.hpp);
//   - ADAPTIVE: predict_adaptive below.
// The pieces here are functions of values: the candidate list, the pick, ADAPTIVE's prediction.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "dlb/core/cost_model.hpp"
#include "dlb/core/policy.hpp"

namespace dlb::core {

// The candidates when --candidates is not given.
std::string_view default_candidates();

// "GCDLB GDDLB ADAPTIVE GSS CSS:16" (blank-separated, letter case ignored): the paper's four,
// ADAPTIVE and the self-scheduling rules, each at most once. Throws std::invalid_argument naming
// the word for an unknown name, a name that is no candidate (NONE, AUTO, AUTO-ALL), a repeated
// one, or an empty list.
std::vector<policy> parse_candidates(std::string_view text);

// One candidate's predicted time of the loop, seconds from its start.
struct candidate_time {
  policy candidate;
  double time = 0.0;
};
// The index of the least time; a tie (equal within a relative 1e-12) goes to the first listed.
// Throws std::invalid_argument for an empty list or a time that is not finite and >= 0.
std::size_t fastest(const std::vector<candidate_time>& times);

// ADAPTIVE re-runs the cost model among the four at every re-selection. Under the model's own
// load function the first choice is already the model's best for the rest of the loop, so
// re-selecting can only confirm it (core::reselect keeps the strategy in force on a tie); what it
// adds is a global centralized synchronization (one-to-all + all-to-one over the P slaves, and
// delta) before each of the best strategy's later synchronizations. Hence:
//   T_ADAPTIVE = T_best + eta (xi_central(P) + delta),
// T_best the least of the four, eta its synchronizations (the most of any group's). It is never
// below T_best: the model cannot tell ADAPTIVE's benefit (re-choosing after the load changed in a
// way the model did not foresee) from the best of the four.
double predict_adaptive(const prediction& best, const network_profile& net, std::size_t slaves,
                        double delta);

// When the model has the first slave run out of the work it starts with (in.start, from
// in.start_time, at its speed under the load): the model's time of the loop's first
// synchronization (the master's, global), before any cost. +infinity if no slave holds work.
// Throws std::invalid_argument for a speed <= 0 or in.start of the wrong size.
double first_run_out(const model_input& in);

// The choice before the scatter (beyond the paper; docs/design/policies.md, "AUTO-ALL"): at DLB_init,
// before any data crosses the network, AUTO-ALL compares the loop's time from its start under
// each way to begin: the paper's equal blocks (then a balancing row, ADAPTIVE, or a chunk rule
// taken up at the first synchronization: `blocks`) against a chunk rule from the start
// (`chunks`). The pick is the least time of both lists (a tie goes to the blocks, the paper's
// start, then to the first listed); `from_start` tells whether it is one of `chunks`; `times` is
// each candidate's least time (a rule: the lesser of its two), in the order of `blocks` then
// the rules of `chunks` not in it. Throws std::invalid_argument for no candidate or a time that
// is not finite and >= 0.
struct scatter_choice {
  policy pick;
  bool from_start = false;
  std::vector<candidate_time> times;
};
scatter_choice choose_before_scatter(const std::vector<candidate_time>& blocks,
                                     const std::vector<candidate_time>& chunks);

// What each slave of in.start still holds at time t (>= in.start_time) under the model: its
// ranges less the iterations its work done since in.start_time covers, whole iterations from the
// front (core::work_done at its base speed under in.machine.load). Throws std::invalid_argument
// for a speed <= 0 or in.start of the wrong size.
std::vector<range_list> remaining_at(const model_input& in, double t);

// "GCDLB:12.345/GSS:11.2/..." (seconds, %.6g), for a RESULT line.
std::string format_candidate_times(const std::vector<candidate_time>& times);

}  // namespace dlb::core
