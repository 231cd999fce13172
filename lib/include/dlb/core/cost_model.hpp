// The paper's cost model (sections 1.3.2-1.3.3) and the strategy decision of customized mode.
//
// predict() solves the recurrences (1.3.1)-(1.3.4) for one strategy by stepping from one
// synchronization to the next, per group, under a known load function: at each step it finds
// the first slave to run out of work (f), the average effective speeds sigma_i(j), what is left
// (gamma_i(j)), and then calls decide_balance() from redistribution.hpp -- the runtime's own
// decision, threshold and 10% profitability included -- for the new distribution (1.3.3) and
// the movement plan that gives alpha(j) and beta(j). Costs per synchronization: xi + delta +
// kappa(j) + psi(j) + Delta_g(j); C_g sums them, C is the maximum over groups.
//
// Where the printed model leaves a choice, we take the one the runtime makes:
// - sigma_i(j) is the time-weighted average effective speed over [resume, t_j]
//   (mean_effective_speed), which makes (1.3.1) exact; the printed block average is available
//   as block_average_speed() in load.hpp.
// - Like the paper's ceil in (1.3.1), a slave counts the iteration it is in as done; unlike the
//   paper we also charge the time to finish it, because slaves look for interrupts only between
//   iterations: the synchronization starts when the last active slave of the group reaches an
//   iteration boundary.
// - Costs take time: the group's computation resumes only after its synchronization, so the
//   load seen afterwards is the load at the shifted times.
// - A slave that holds no work is inactive (the paper's more_work = false): it reports no speed
//   and gets no work back.
// - Delta_g(j) comes from a first-come-first-served queue at the central balancer (service time
//   delta + psi_k per group); when groups arrive together this is the printed sum over the groups
//   already waiting.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/load.hpp"
#include "dlb/core/paper.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/core/strategy.hpp"

namespace dlb::core {

// c[0] + c[1] p + c[2] p^2 + ...; no coefficients is the zero polynomial.
struct polynomial {
  std::vector<double> coefficients;
};
double evaluate(const polynomial& poly, double p);

// Network characterization (section 1.5.1). The defaults are the paper's latency and bandwidth
// (MB read as 10^6 bytes); the paper's fitted curves (Figure 1.6) were not printed, so the three
// fits start empty and come from our characterization tool.
struct network_profile {
  double latency = paper::latency_s;        // L, seconds
  double bandwidth = paper::bandwidth_Bps;  // B, bytes per second
  polynomial one_to_all;                    // seconds, as a function of the number of processes p
  polynomial all_to_one;
  polynomial all_to_all;  // the paper's "all-to-all(P^2)": P^2 messages, fitted in p
};

// xi for a group of p processes: one-to-all(p) + all-to-one(p) if centralized, one-to-all(p) +
// all-to-all(p) if distributed.
double synchronization_cost(bool centralized, const network_profile& net, std::size_t p);
// xi of a strategy: p = P for the global ones, min(K, P) for the local ones (a smaller last
// group pays for its own size; predict() does that).
// Throws std::invalid_argument for K = 0 with a local strategy.
double synchronization_cost(scheme s, const network_profile& net, std::size_t slaves,
                            std::size_t group_size);
// kappa(j) = beta L + alpha D / B (eq. 1.3.5), D the bytes per iteration summed over the arrays.
double data_movement_cost(const network_profile& net, std::int64_t alpha, std::size_t beta,
                          double bytes_per_iteration);
// psi(j) = beta L for the centralized strategies (instructions go to the senders only), else 0.
double instruction_cost(scheme s, const network_profile& net, std::size_t beta);

// Eq. 1.3.1, uniform loop: slave f ran out of its chi_f iterations; slave i has done
// ceil(chi_f sigma_i / sigma_f) of its chi_i, so gamma_i = chi_i minus that (at least 0).
// gamma_f = 0; a slave with sigma_i = 0 did nothing. Throws std::invalid_argument on a size
// mismatch, f out of range or sigma_f <= 0.
std::vector<std::int64_t> remaining_uniform(const std::vector<std::int64_t>& assigned,
                                            const std::vector<double>& sigma, std::size_t first);
// Eq. 1.3.2, non-uniform loop: slave i has done the smallest number aleph of the iterations it
// holds (in work order) whose base times T_k sum to at least sigma_i / sigma_f times the time of
// all of f's iterations. iteration_times[k] is T_k for every iteration k of the loop.
std::vector<std::int64_t> remaining_nonuniform(const std::vector<range_list>& assigned,
                                               const std::vector<double>& sigma, std::size_t first,
                                               const std::vector<double>& iteration_times);

struct program_profile {
  std::int64_t iterations = 0;          // I
  double time_per_iteration = 0.0;      // T, base seconds, used when iteration_times is empty
  std::vector<double> iteration_times;  // T_k, base seconds, one per iteration: non-uniform loop
  double bytes_per_iteration = 0.0;     // D, summed over the arrays that move with an iteration
  double distribution_cost = 0.0;       // delta, seconds
  balance_params balance;               // move threshold and profitability, as the runtime's
};

struct machine_profile {
  std::vector<double> base_speeds;  // S_i, normalized processor speeds; P = size()
  load_function load;               // hashed (seed, ml, tl) or a table of loads per block
};

struct model_input {
  network_profile network;
  program_profile program;
  machine_profile machine;
  std::size_t group_size = 1;  // K, for the local strategies
  // The local strategies' groups (slaves of each); empty: the K-block groups of group_size.
  // Non-empty (e.g. core::power_groups), they must hold every slave once.
  std::vector<std::vector<std::size_t>> groups;
  // Where the prediction starts: at start_time, slave i holds start[i] (in work order). Empty
  // means the beginning of the loop: equal blocks of [0, I). Customized mode passes the state at
  // the first synchronization.
  double start_time = 0.0;
  std::vector<range_list> start;
};

// One synchronization of one group.
struct sync_record {
  double first_done = 0.0;     // t_j: the first active slave runs out of work
  double boundary = 0.0;       // the last active slave reaches an iteration boundary
  std::int64_t remaining = 0;  // Gamma(j)
  balance_reason reason = balance_reason::nothing_left;
  std::int64_t alpha = 0;  // moved iterations (0 unless moved)
  std::size_t beta = 0;    // messages (0 unless moved)
  double xi = 0.0;
  double delta = 0.0;
  double kappa = 0.0;
  double psi = 0.0;
  double delay = 0.0;   // Delta_g(j): waiting for the central balancer
  double resume = 0.0;  // the group computes again (or, at the last one, has finished)
};

struct group_prediction {
  std::vector<std::size_t> members;
  std::size_t synchronizations = 0;   // eta_g
  std::size_t redistributions = 0;    // synchronizations that moved work
  std::int64_t iterations_moved = 0;  // sum of alpha
  std::size_t messages = 0;           // sum of beta
  double cost = 0.0;                  // C_g = sum over syncs of xi + delta + kappa + psi + Delta
  double finish = 0.0;                // when the group is done, last synchronization included
  std::vector<sync_record> syncs;
};

struct prediction {
  std::optional<core::scheme> scheme;  // the strategy predicted (empty: no balancing)
  double total_time = 0.0;  // max_g finish - start_time: computation plus cost; what is compared
  double cost = 0.0;        // C = max_g C_g
  std::vector<group_prediction> groups;
};

// One strategy. Throws std::invalid_argument for an inconsistent input (no slaves, a
// non-positive speed, T <= 0 for a uniform loop, iteration_times of the wrong size or negative,
// start of the wrong size, K = 0 for a local strategy).
prediction predict(scheme s, const model_input& in);
// No balancing: equal blocks (or in.start) to completion, with no cost; throws as predict.
prediction predict_without_balancing(const model_input& in);

struct strategy_choice {
  scheme best = scheme::gddlb;
  std::array<prediction, kBalancingStrategies> predictions;  // in balancing_strategies order
};
// Predicts the four strategies and returns the one with the least total time (ties: the first
// in balancing_strategies).
strategy_choice choose_strategy(const model_input& in);

}  // namespace dlb::core
