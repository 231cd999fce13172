// The load balancer's decision at a synchronization (section 1.2, eq. 1.3.3): the new
// distribution of the remaining work in proportion to measured speeds, the movement plan (who
// ships which iterations to whom), and the threshold and profitability tests that decide
// whether to move at all. Every strategy, the runtime and the cost model use these functions,
// so a centralized balancer and the replicated distributed ones compute the same plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/paper.hpp"

namespace dlb::core {

// Eq. 1.3.3, chi_i = sigma_i / sum(sigma) * Gamma, rounded by largest remainder: each slave gets
// the floor of its quota, and the iterations left over go one apiece to the largest fractional
// parts (ties to the lower slave), so the counts sum to `total` exactly. A speed that is not a
// positive number counts as 0 and gets no work (a slave that did nothing since the last
// synchronization is treated as unable to work: the paper's slaves become inactive when all
// their work migrates away). If no speed is positive there is no information, and the work is
// split in equal blocks, as at the start (lambda_i(0) = 1).
// Throws std::invalid_argument for no slaves or a negative total.
std::vector<std::int64_t> proportional_counts(const std::vector<double>& speeds,
                                              std::int64_t total);

// alpha = 1/2 sum |current_i - target_i|; throws std::invalid_argument on a size mismatch.
std::int64_t work_to_move(const std::vector<std::int64_t>& current,
                          const std::vector<std::int64_t>& target);

// The predicted finish time max_i count_i / speed_i (seconds when speeds are iterations per
// second). A slave with no work finishes at 0; one with work and no speed never (+infinity).
double predicted_finish(const std::vector<std::int64_t>& counts, const std::vector<double>& speeds);
// The same for amounts of work: max_i work_i / speed_i (seconds when speeds are work per second).
double predicted_finish_work(const std::vector<double>& work, const std::vector<double>& speeds);

// What iteration k of the loop costs (the loop's work function, base seconds), for decisions that
// split work rather than iterations. An empty function: every iteration costs the same.
using iteration_cost = std::function<double(std::int64_t)>;
// The summed cost of the iterations of `ranges` (their number, if `cost` is empty).
double work_of(const range_list& ranges, const iteration_cost& cost);
// True if every iteration held in `remaining` costs the same (to a relative 1e-12), or `cost` is
// empty: splitting the work is then splitting the iterations, and the count rule is exact.
bool same_cost(const std::vector<range_list>& remaining, const iteration_cost& cost);

// lambda_i(0) in work: consecutive blocks of [0, I), one per weight, whose costs are in
// proportion to the weights as nearly as whole iterations allow (block i ends at the iteration
// boundary nearest to w_0 + ... + w_i of the total weight's share of the loop's cost; ties to the
// lower boundary). Equal weights start equal workstations balanced, as the paper's equal blocks do
// for its uniform loops; weights S_i start heterogeneous ones so. With an empty `cost`, or
// iterations that all cost the same, proportional_counts(weights, I) (equal weights:
// equal_block_counts). A block may be empty when one iteration costs more than a share. Throws
// for no weights, a weight that is not positive, or I < 0.
std::vector<std::int64_t> proportional_work_counts(std::int64_t iterations,
                                                   const std::vector<double>& weights,
                                                   const iteration_cost& cost);

// Eq. 1.3.3 in work: target_i = sigma_i / sum(sigma) * total (a speed that is not a positive
// number counts as 0; no positive speed: equal shares). Throws for no slaves or a negative total.
std::vector<double> proportional_work(const std::vector<double>& speeds, double total);

struct transfer {
  std::size_t from = 0;    // an over-assigned slave
  std::size_t to = 0;      // an under-assigned slave
  std::int64_t count = 0;  // iterations shipped, > 0
  range_list ranges;       // which ones, in the sender's work order; empty in a counts-only plan
};

// How many of the transfers go to `receiver`: the WORK messages it is to expect from one decision.
int transfers_to(const std::vector<transfer>& transfers, std::size_t receiver);

struct movement_plan {
  std::vector<transfer> transfers;  // grouped by sender, senders and receivers in slave order
  std::int64_t alpha = 0;           // iterations moved, = work_to_move(current, target)
  std::size_t beta = 0;             // messages, one per transfer
};

// Greedy pairing in slave order: the first over-assigned slave fills the first under-assigned
// one, and so on; each step moves min(surplus, deficit), so there are at most
// senders + receivers - 1 transfers and nobody both sends and receives.
// Throws std::invalid_argument on a size mismatch, a negative count, or unequal totals.
movement_plan plan_counts(const std::vector<std::int64_t>& current,
                          const std::vector<std::int64_t>& target);
// The same pairing with concrete iterations: a sender gives away the END of its remaining work
// (it keeps working on the front), its first receiver getting the front of what it gives.
movement_plan plan_movement(const std::vector<range_list>& remaining,
                            const std::vector<std::int64_t>& target);
// Remaining work after the plan: senders keep their front, receivers append what they receive,
// in transfer order. `plan` must come from plan_movement on the same `remaining`; throws
// std::invalid_argument if a transfer carries no ranges or a sender gives more than it holds.
std::vector<range_list> apply_plan(std::vector<range_list> remaining, const movement_plan& plan);

// The pairing of plan_movement with amounts of work instead of counts, for loops whose
// iterations cost different amounts: each over-assigned slave (work_i > target_i) gives away the
// end of its remaining work, as many iterations as bring what it gives nearest to its surplus
// work_i - target_i; what the senders give, sender by sender in slave order, goes to the
// under-assigned slaves in slave order, each taking as many as bring what it gets nearest to its
// deficit, the last one taking the rest. Each (sender, receiver) piece is one transfer; nobody
// both sends and receives. Throws std::invalid_argument on a size mismatch.
movement_plan plan_work(const std::vector<range_list>& remaining, const std::vector<double>& target,
                        const iteration_cost& cost);

// What follows a decision not to move (the paper leaves it open in its algorithm; its text says
// "cancelling work redistribution would lead to an idle processor"):
//  - idle: the members left without work go idle, the others go on, and the next one to run
//    out of work synchronizes again among the still-active members, until no work remains
//    (the paper's reading; the default);
//  - stop: balancing in the group ends for good and each member finishes what it holds (the
//    reproduction's earlier rule, kept for the sensitivity study).
enum class after_no_move { idle, stop };
std::string_view to_string(after_no_move rule);
std::optional<after_no_move> parse_after_no_move(std::string_view s);

// What the balancer splits in proportion to the speeds (the paper's loops cost the same per
// iteration, so it does not distinguish): work, the iterations' summed costs, with speeds in work
// per second (the default; a loop without costs, or whose remaining iterations cost the same, is
// split by the count rule, which is then the same split), or iterations, with speeds in
// iterations per second (the reproduction's earlier rule, kept for comparison: on a loop whose
// iterations cost different amounts a slave holding cheap iterations looks fast).
enum class balance_unit { work, iterations };
std::string_view to_string(balance_unit unit);
std::optional<balance_unit> parse_balance_unit(std::string_view s);

struct balance_params {
  // No move when fewer iterations than this would move (the system is almost balanced, or
  // little work is left). The paper gives no value; 1 means "any move is considered".
  std::int64_t threshold_iterations = 1;
  // Move only if the predicted finish time improves by at least this fraction (the paper's 10%).
  double min_improvement = paper::min_improvement;
  after_no_move no_move = after_no_move::idle;
  balance_unit unit = balance_unit::work;
};

enum class balance_reason { moved, below_threshold, not_profitable, nothing_left };
std::string_view to_string(balance_reason reason);

struct balance_decision {
  balance_reason reason = balance_reason::nothing_left;
  std::vector<std::int64_t> proposed;  // eq. 1.3.3, rounded; what the slaves hold iff moved
  std::int64_t alpha = 0;              // iterations the proposal moves (moved or not)
  double finish_before = 0.0;          // predicted_finish(remaining, speeds)
  double finish_after = 0.0;           // predicted_finish(proposed, speeds)
  movement_plan plan;                  // empty unless reason == moved
};

// The load balancer's whole decision, from remaining counts (gamma_i) and speeds (sigma_i):
// nothing_left if Gamma = 0; below_threshold if alpha is 0 or below the threshold;
// not_profitable unless finish_after <= (1 - min_improvement) * finish_before (data movement
// cost excluded, as in the paper; a finite finish always beats an infinite one); else moved.
// Throws std::invalid_argument on a size mismatch.
balance_decision decide_balance(const std::vector<std::int64_t>& remaining,
                                const std::vector<double>& speeds,
                                const balance_params& params = {});
// The same decision with a plan that names the iterations to ship. With a `cost` whose remaining
// iterations do not all cost the same, and params.unit == work, the decision is made in work
// (speeds in work per second): the new distribution is proportional_work of the remaining work,
// the plan is plan_work's, proposed and alpha count the iterations it moves, and the finish times
// are predicted_finish_work's before and after the plan; the threshold and profitability tests
// are the same. Otherwise it is the count rule above.
balance_decision decide_balance(const std::vector<range_list>& remaining,
                                const std::vector<double>& speeds,
                                const balance_params& params = {}, const iteration_cost& cost = {});

}  // namespace dlb::core
