// The cost model's view of the external load: the estimate of ml and tl from observed speeds,
// and the expected choice over statistically equivalent load functions (load_estimate.hpp).
#include "dlb/core/load_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "dlb/core/load.hpp"

namespace dlb::core {

std::string_view to_string(model_load m) {
  return m == model_load::estimated ? "estimated" : "run";
}

std::optional<model_load> parse_model_load(std::string_view s) {
  if (s == "run") return model_load::run;
  if (s == "estimated") return model_load::estimated;
  return std::nullopt;
}

double expected_relative_speed(int max_load) {
  if (max_load < 0) throw std::invalid_argument("expected_relative_speed: ml < 0");
  double harmonic = 0.0;
  for (int l = 0; l <= max_load; ++l) harmonic += 1.0 / (l + 1);
  return harmonic / (max_load + 1);
}

double relative_speed_variance(int max_load) {
  const double mean = expected_relative_speed(max_load);
  double squares = 0.0;
  for (int l = 0; l <= max_load; ++l) squares += 1.0 / ((l + 1.0) * (l + 1.0));
  return std::max(0.0, squares / (max_load + 1) - mean * mean);
}

load_estimate estimate_load(const std::vector<double>& relative_speeds, double window) {
  if (relative_speeds.empty()) throw std::invalid_argument("estimate_load: no speeds");
  if (!(window > 0) || !std::isfinite(window))
    throw std::invalid_argument("estimate_load: the window must be positive");
  double sum = 0.0;
  for (double v : relative_speeds) {
    if (!(v >= 0) || !std::isfinite(v))
      throw std::invalid_argument("estimate_load: a speed is negative or not finite");
    sum += v;
  }
  const auto n = static_cast<double>(relative_speeds.size());
  load_estimate e;
  e.window = window;
  e.mean_relative_speed = sum / n;
  // expected_relative_speed falls with ml: walk up while the next ml is strictly nearer.
  int ml = 0;
  double harmonic = 1.0;  // H(ml + 1)
  double gap = std::abs(1.0 - e.mean_relative_speed);
  while (ml < max_estimated_load) {
    const double next_harmonic = harmonic + 1.0 / (ml + 2);
    const double next_gap = std::abs(next_harmonic / (ml + 2) - e.mean_relative_speed);
    if (!(next_gap < gap)) break;
    ++ml;
    harmonic = next_harmonic;
    gap = next_gap;
  }
  e.max_load = ml;
  e.persistence = window;
  if (ml == 0 || relative_speeds.size() < 2) return e;
  double squares = 0.0;
  for (double v : relative_speeds)
    squares += (v - e.mean_relative_speed) * (v - e.mean_relative_speed);
  const double sample_variance = squares / (n - 1);
  const double blocks =
      sample_variance > 0 ? relative_speed_variance(ml) / sample_variance : max_estimated_blocks;
  e.persistence = window / std::clamp(blocks, 1.0, max_estimated_blocks);
  return e;
}

std::uint64_t model_load_seed(std::size_t draw) {
  // Fixed, large and unrelated to any seed a user types: the hash of a tag and the draw.
  return splitmix64(0x6d6f64656c6c6f61ULL + static_cast<std::uint64_t>(draw));
}

expected_strategy_choice expected_choice(const model_input& in, std::size_t draws) {
  if (draws == 0) throw std::invalid_argument("expected_choice: no draws");
  expected_strategy_choice out;
  model_input draw = in;
  draw.machine.load.table.clear();
  for (std::size_t d = 0; d < draws; ++d) {
    draw.machine.load.seed = model_load_seed(d);
    const strategy_choice c = choose_strategy(draw);
    for (std::size_t k = 0; k < out.total_time.size(); ++k)
      out.total_time[k] += c.predictions[k].total_time / static_cast<double>(draws);
  }
  std::size_t best = 0;
  for (std::size_t k = 1; k < out.total_time.size(); ++k) {
    if (out.total_time[k] < out.total_time[best]) best = k;
  }
  out.best = balancing_strategies[best];
  return out;
}

}  // namespace dlb::core
