// heterogeneous_test: heterogeneous workstations end to end, on both backends,
// with the synthetic loop on the half2x mix (speeds 1, 1, 2, 2) without external load, where the
// ideal makespan is known by hand: 240 iterations of 20 ms = 4.8 base seconds over a total speed
// of 6, 0.8 s.
//  - --initial speed (lambda_i(0) proportional to S_i) needs no balancing: NONE finishes within
//    3% of 0.8 s, where the equal blocks of --initial equal leave the slow half 1.5 x that.
//  - LDDLB with K = 2: the K-block groups are {1, 2} (power 2) and {3, 4} (power 4), so group 1
//    holds half the work on a third of the power (1.2 s at best); --groups power makes groups
//    {1, 3} and {2, 4} of power 3 each, and balancing within them gets close to 0.8 s. The cost
//    model, given the groups and speeds, predicts both runs within 5%.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace {

constexpr double kIdeal = 240 * 0.020 / 6;

struct outcome {
  double total = 0;
  double predicted = -1;
  std::vector<long long> done;  // iterations each slave did (SLAVE lines), slave 1 first
};

outcome run(const std::string& backend, const std::string& strategy, const std::string& initial,
            const std::string& groups) {
  auto r = testing_support::run_process({DLB_SYNTHETIC_APP,
                                         "--backend",
                                         backend,
                                         "--strategy",
                                         strategy,
                                         "--procs",
                                         "4",
                                         "--group",
                                         "2",
                                         "--speeds",
                                         "half2x",
                                         "--initial",
                                         initial,
                                         "--groups",
                                         groups,
                                         "--ml",
                                         "0",
                                         "--iterations",
                                         "240",
                                         "--work-ms",
                                         "20",
                                         "--scale",
                                         "2"},
                                        120);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out;
  EXPECT_TRUE(testing_support::none_left(r.marker));
  auto res = testing_support::fields_of(r.out, "RESULT ");
  auto pred = testing_support::fields_of(r.out, "PREDICTION ");
  outcome o;
  if (res.count("total_s")) o.total = std::stod(res["total_s"]);
  if (pred.count("predicted_run_s")) o.predicted = std::stod(pred["predicted_run_s"]);
  for (int s = 0; s < 4; ++s) {
    auto slave = testing_support::fields_of(r.out, "SLAVE ", s);
    o.done.push_back(slave.count("done") ? std::stoll(slave["done"]) : -1);
  }
  return o;
}

class Heterogeneous : public ::testing::TestWithParam<std::string> {};

// (Scale 2: 0.8 emulated seconds are 0.4 s of wall time under PVM.)
TEST_P(Heterogeneous, InitialDistributionProportionalToSpeed) {
  const auto by_speed = run(GetParam(), "NONE", "speed", "block");
  const auto equal = run(GetParam(), "NONE", "equal", "block");
  // Under NONE nothing moves: each slave does its initial block, on every backend and at any
  // machine speed. By speed (1, 1, 2, 2): 240 / 6 per unit of speed; equal: 60 each.
  EXPECT_EQ(by_speed.done, (std::vector<long long>{40, 40, 80, 80}));
  EXPECT_EQ(equal.done, (std::vector<long long>{60, 60, 60, 60}));
  // Lag only makes a run later, never sooner.
  EXPECT_GE(by_speed.total, kIdeal);
  EXPECT_GT(equal.total, kIdeal * 1.45);
  if (GetParam() == "sim") {
    // The times those blocks take: within 3% of the ideal against 1.5 times it. In virtual
    // time only: under PVM a loaded machine's lag (a few ms of wall time late anywhere) is
    // part of the emulated time, and can exceed 3% (24 emulated ms) or close a gap of 0.2.
    EXPECT_LT(by_speed.total, kIdeal * 1.03);
    EXPECT_LT(by_speed.total, equal.total - 0.2);
  }
}

// Simulated only: the balancing decisions rest on measured speeds, which the emulated clock of
// a PVM run on an overloaded machine distorts by its lag (seen: 23 emulated seconds at a load
// average of 28), so its times are not a fixed target; the groups themselves are the same
// formula on every backend (context::groups_for).
TEST(HeterogeneousSim, LocalGroupsOfEqualPower) {
  const auto block = run("sim", "LDDLB", "equal", "block");
  const auto power = run("sim", "LDDLB", "equal", "power");
  EXPECT_GT(block.total, kIdeal * 1.45);
  EXPECT_LT(power.total, block.total * 0.75);
  EXPECT_LT(power.total, kIdeal * 1.15);
  // The model takes the speeds and the groups.
  EXPECT_NEAR(block.predicted, block.total, 0.05 * block.total);
  EXPECT_NEAR(power.predicted, power.total, 0.05 * power.total);
}

INSTANTIATE_TEST_SUITE_P(Both, Heterogeneous, ::testing::Values("sim", "pvm"));

}  // namespace
