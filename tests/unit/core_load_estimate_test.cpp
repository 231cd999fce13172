// Unit tests of the cost model's view of the load: the estimate of ml and tl from observed
// speeds, and the expected choice over statistically equivalent load functions
// (dlb/core/load_estimate.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "dlb/core/load.hpp"
#include "dlb/core/load_estimate.hpp"

namespace dlb::core {
namespace {

TEST(ModelLoad, ParsesAndPrintsItsTwoValues) {
  EXPECT_EQ(parse_model_load("run"), model_load::run);
  EXPECT_EQ(parse_model_load("estimated"), model_load::estimated);
  for (const char* bad : {"", "Run", "estimate", "exact"}) EXPECT_FALSE(parse_model_load(bad));
  EXPECT_EQ(to_string(model_load::run), "run");
  EXPECT_EQ(to_string(model_load::estimated), "estimated");
}

TEST(ExpectedRelativeSpeed, IsTheMeanOfOneOverLoadPlusOne) {
  struct row {
    int ml;
    double mean;
    double variance;
  };
  // ml = 1: 1 and 1/2 equally likely; ml = 5: H(6) / 6 = 2.45 / 6.
  const std::vector<row> table = {
      {0, 1.0, 0.0},
      {1, 0.75, 0.0625},
      {2, (1 + 1.0 / 2 + 1.0 / 3) / 3, (1 + 1.0 / 4 + 1.0 / 9) / 3 - std::pow(11.0 / 18, 2)},
      {5, 2.45 / 6, 0.0},  // variance checked below by simulation of the definition
  };
  for (const auto& r : table) {
    EXPECT_NEAR(expected_relative_speed(r.ml), r.mean, 1e-12) << r.ml;
    if (r.ml != 5) {
      EXPECT_NEAR(relative_speed_variance(r.ml), r.variance, 1e-12) << r.ml;
    }
  }
  double m = 0, sq = 0;
  for (int l = 0; l <= 5; ++l) {
    m += 1.0 / (l + 1) / 6;
    sq += 1.0 / ((l + 1) * (l + 1)) / 6;
  }
  EXPECT_NEAR(relative_speed_variance(5), sq - m * m, 1e-12);
  EXPECT_THROW(expected_relative_speed(-1), std::invalid_argument);
}

TEST(EstimateLoad, TableOfObservations) {
  struct row {
    std::vector<double> speeds;
    double window;
    int ml;
    double tl;
  };
  const double w = 10.0;
  const std::vector<row> table = {
      // Unloaded: ml 0; tl is the window (nothing to estimate it from).
      {{1.0, 1.0, 1.0, 1.0}, w, 0, w},
      // Faster than the base speed (measurement noise): still ml 0.
      {{1.2, 1.1}, w, 0, w},
      // Mean 0.75 = E[1/(l+1)] for ml = 1; sample variance 0.005 against Var = 0.0625: 12.5
      // independent blocks in the window, tl = 10 / 12.5.
      {{0.7, 0.8}, w, 1, 0.8},
      // Every slave the same: as many blocks as the bound allows.
      {{0.75, 0.75, 0.75}, w, 1, w / max_estimated_blocks},
      // Mean 0.6: nearest ml is 2 (0.611); the spread (0.32) exceeds one block's variance: at
      // least one block, tl = window.
      {{0.2, 1.0}, w, 2, w},
      // One slave: ml from its speed (0.5 is nearest to ml = 3's 0.521), tl = window.
      {{0.5}, 4.0, 3, 4.0},
      // The paper's ml = 5: mean 0.408.
      {{2.45 / 6, 2.45 / 6 + 0.01, 2.45 / 6 - 0.01}, w, 5, w / (relative_speed_variance(5) / 1e-4)},
  };
  for (const auto& r : table) {
    const load_estimate e = estimate_load(r.speeds, r.window);
    EXPECT_EQ(e.max_load, r.ml) << r.speeds.front();
    EXPECT_NEAR(e.persistence, r.tl, 1e-9 * r.tl) << r.speeds.front();
    EXPECT_EQ(e.window, r.window);
  }
}

TEST(EstimateLoad, RejectsBadObservations) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(estimate_load({}, 1.0), std::invalid_argument);
  EXPECT_THROW(estimate_load({0.5, -0.1}, 1.0), std::invalid_argument);
  EXPECT_THROW(estimate_load({0.5, nan}, 1.0), std::invalid_argument);
  EXPECT_THROW(estimate_load({0.5}, 0.0), std::invalid_argument);
  EXPECT_THROW(estimate_load({0.5}, -1.0), std::invalid_argument);
}

// Speeds measured from the load function itself (time-averages over the window, many slaves)
// give back its ml and, roughly, its tl: the estimator is consistent, not fitted to one case.
TEST(EstimateLoad, RecoversTheParametersOfAHashedLoad) {
  struct row {
    int ml;
    double tl;
    double window;
  };
  const std::vector<row> table = {{5, 2.0, 40.0}, {5, 10.0, 100.0}, {2, 1.0, 30.0}, {0, 5.0, 20.0}};
  for (const auto& r : table) {
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      load_function load{seed, r.ml, r.tl, {}};
      std::vector<double> speeds;
      for (std::size_t i = 0; i < 256; ++i)
        speeds.push_back(mean_effective_speed(load, i, 1.0, 0.0, r.window));
      const load_estimate e = estimate_load(speeds, r.window);
      EXPECT_NEAR(e.max_load, r.ml, r.ml >= 5 ? 1 : 0) << "ml " << r.ml << " seed " << seed;
      if (r.ml > 0) {
        EXPECT_GT(e.persistence, r.tl / 2) << "tl " << r.tl << " seed " << seed;
        EXPECT_LT(e.persistence, r.tl * 2) << "tl " << r.tl << " seed " << seed;
      }
    }
  }
}

model_input uniform_loop(std::size_t P, int ml) {
  model_input in;
  in.network.one_to_all.coefficients = {0.0, 2.5e-3};
  in.network.all_to_one.coefficients = {0.0, 2.5e-3};
  in.network.all_to_all.coefficients = {0.0, 0.0, 2.5e-3};
  in.program.iterations = 400;
  in.program.time_per_iteration = 0.25;
  in.program.bytes_per_iteration = 3200;
  in.program.distribution_cost = 1e-3;
  in.machine.base_speeds.assign(P, 1.0);
  in.machine.load = load_function{7, ml, 5.0, {}};
  in.group_size = P / 2;
  return in;
}

TEST(ExpectedChoice, OneDrawIsChooseStrategyUnderTheModelsOwnSeed) {
  model_input in = uniform_loop(4, 5);
  const expected_strategy_choice e = expected_choice(in, 1);
  in.machine.load.seed = model_load_seed(0);
  const strategy_choice c = choose_strategy(in);
  EXPECT_EQ(e.best, c.best);
  for (std::size_t k = 0; k < 4; ++k)
    EXPECT_DOUBLE_EQ(e.total_time[k], c.predictions[k].total_time);
  EXPECT_THROW(expected_choice(in, 0), std::invalid_argument);
}

TEST(ExpectedChoice, AveragesOverDrawsThatDiffer) {
  const model_input in = uniform_loop(4, 5);
  const expected_strategy_choice e = expected_choice(in, 3);
  std::array<double, 4> mean{};
  bool differ = false;
  double first = -1;
  for (std::size_t d = 0; d < 3; ++d) {
    model_input one = in;
    one.machine.load.seed = model_load_seed(d);
    const strategy_choice c = choose_strategy(one);
    for (std::size_t k = 0; k < 4; ++k) mean[k] += c.predictions[k].total_time / 3;
    if (first >= 0 && c.predictions[1].total_time != first) differ = true;
    first = c.predictions[1].total_time;
  }
  EXPECT_TRUE(differ) << "the draws are different load functions";
  for (std::size_t k = 0; k < 4; ++k) EXPECT_NEAR(e.total_time[k], mean[k], 1e-9);
  for (std::size_t d = 0; d < estimated_load_draws; ++d)
    EXPECT_GT(model_load_seed(d), 1000000u) << "never a seed an experiment would use";
}

// The prediction depends on the load it is given: with ml = 5 every strategy is predicted
// slower than unloaded (a model fed ml = 0 again would fail this).
TEST(ExpectedChoice, TheLoadChangesThePrediction) {
  const expected_strategy_choice loaded = expected_choice(uniform_loop(4, 5));
  const expected_strategy_choice unloaded = expected_choice(uniform_loop(4, 0));
  for (std::size_t k = 0; k < 4; ++k) {
    // Unloaded: 400 x 0.25 s over 4 slaves = 25 s plus costs; E[slowdown] for ml = 5 is 2.45.
    EXPECT_GT(unloaded.total_time[k], 25.0);
    EXPECT_LT(unloaded.total_time[k], 27.0);
    EXPECT_GT(loaded.total_time[k], 1.5 * unloaded.total_time[k]) << k;
  }
}

}  // namespace
}  // namespace dlb::core
