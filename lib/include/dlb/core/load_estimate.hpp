// What the cost model assumes about the external load, and how the load's
// parameters ml and tl are estimated from the speeds the slaves showed up to the first
// synchronization.
//
// The paper's model takes "modeled external load parameters such as the maximum load and
// duration of persistence" (section 1.3.1) and, at the first synchronization, "the load function
// seen on all the processors so far" (section 1.3.3); it does not say what it assumed for the
// load after that point. Two readings, both available at run time (--model-load):
// - run (default): the model is given the run's own load function (seed, ml, tl). The paper's
//   load was "simulated within our programs" by a random generator with ml and tl as its
//   parameters, so the program that ran the model had that generator; its recurrences use
//   l_i(k) for every later block k too. This is the model at its best: it knows the synthetic
//   load exactly, past and future.
// - estimated: the model knows neither the seed nor ml and tl. It estimates ml and tl from the
//   observed speeds (estimate_load below) and predicts the expected cost over a few statistically
//   equivalent load functions (same ml and tl, seeds of its own: expected_choice).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "dlb/core/cost_model.hpp"

namespace dlb::core {

enum class model_load { run, estimated };
std::string_view to_string(model_load m);
std::optional<model_load> parse_model_load(std::string_view s);  // "run" or "estimated"

// E[1 / (l + 1)] for l uniform in 0..ml: H(ml + 1) / (ml + 1), the expected effective speed of a
// slave relative to its base speed S_i (1 for ml = 0). Throws std::invalid_argument for ml < 0.
double expected_relative_speed(int max_load);
// Var[1 / (l + 1)] for l uniform in 0..ml (0 for ml = 0).
double relative_speed_variance(int max_load);

// The largest ml the estimate considers (as the runtime's --ml accepts).
inline constexpr int max_estimated_load = 1000;
// The most persistence blocks the estimate puts in the observed window (a bound for slaves that
// all showed the same speed).
inline constexpr double max_estimated_blocks = 1000.0;

struct load_estimate {
  int max_load = 0;                  // ml
  double persistence = 0.0;          // tl, seconds
  double mean_relative_speed = 1.0;  // the slaves' mean of observed / base speed
  double window = 0.0;               // the observation window the estimate used, seconds
};

// relative_speeds[i]: slave i's observed effective speed over [start, start + window] divided by
// its base speed S_i (the time-weighted mean of 1 / (l_i + 1)); window: how long they were
// watched (up to the first synchronization).
// - ml: method of moments on the mean, the integer ml whose expected_relative_speed is nearest
//   to the slaves' mean relative speed (ties to the smaller); a mean >= 1 gives 0. The mean of a
//   time-average of 1 / (l + 1) is E[1 / (l + 1)] whatever tl, so this needs no tl.
// - tl: the time-average over m independent blocks has variance Var[1 / (l + 1)] / m, so
//   m = relative_speed_variance(ml) / (the slaves' sample variance), clamped to
//   [1, max_estimated_blocks], and tl = window / m. With one slave, or ml = 0 (nothing to
//   estimate from; tl does not matter then), tl = window: the load is taken to have held over
//   what was seen.
// Throws std::invalid_argument for no speeds, a negative or non-finite speed, or window <= 0.
load_estimate estimate_load(const std::vector<double>& relative_speeds, double window);

// The seeds of the statistically equivalent load functions (never the run's: they are fixed
// constants, far from the small seeds experiments use).
inline constexpr std::size_t estimated_load_draws = 5;
std::uint64_t model_load_seed(std::size_t draw);

struct expected_strategy_choice {
  scheme best = scheme::gddlb;
  std::array<double, kBalancingStrategies>
      total_time{};  // mean over the draws, in balancing_strategies order
};
// choose_strategy over the load functions {seed = model_load_seed(d), ml, tl} for d <
// `draws` (ml and tl from in.machine.load; its seed and table are ignored), the predicted total
// times averaged per strategy; the least mean wins (ties: the first in balancing_strategies).
// Throws std::invalid_argument for draws = 0, and whatever choose_strategy throws.
expected_strategy_choice expected_choice(const model_input& in,
                                         std::size_t draws = estimated_load_draws);

}  // namespace dlb::core
