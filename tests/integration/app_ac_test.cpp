// Integration tests of the ac program: the bitonic-scheduled adjoint convolution under every
// strategy and external load must equal the sequential reference (the program checks it and
// says so); all arrays are replicated, so balancing moves no data.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "app_test_support.hpp"

namespace {

const std::string kAc = AC_BIN;

// n = 8: L = 64 elements, 32 bitonic iterations of 65 terms; t_op makes one about 65 ms of the
// 1996 workstation.
std::vector<std::string> small_run(const std::string& strategy, int procs,
                                   const std::string& n = "8", const std::string& backend = "pvm") {
  return {"--strategy", strategy, "--procs", std::to_string(procs),
          "--backend",  backend,  "--n",     n,
          "--t-op",     "1e-3",   "--seed",  "4",
          "--tl",       "0.5",    "--scale", "200"};
}

using ac_case = std::tuple<std::string, int, std::string>;  // strategy, P, backend
class AcStrategies : public ::testing::TestWithParam<ac_case> {};

TEST_P(AcStrategies, MatchesTheSequentialConvolutionUnderLoad) {
  const auto& [strategy, procs, backend] = GetParam();
  auto r = app_testing::run(kAc, small_run(strategy, procs, "8", backend));
  auto res = app_testing::expect_verified_run(r, {{"app", "ac"},
                                                  {"P", std::to_string(procs)},
                                                  {"size", "n=8"},
                                                  {"seed", "4"},
                                                  {"ml", "5"},
                                                  {"tl", "0.5"},
                                                  {"clock", "emulated"},
                                                  {"scale", "200"},
                                                  {"backend", backend}});
  if (strategy != "AUTO") {
    EXPECT_EQ(res["strategy"], strategy);
  }
  EXPECT_EQ(res["bytes_moved"], "0");  // D = 0: everything is replicated
  app_testing::expect_sync_counts(res, strategy, r.out);
}

INSTANTIATE_TEST_SUITE_P(P4, AcStrategies,
                         ::testing::Combine(::testing::ValuesIn(app_testing::all_strategies()),
                                            ::testing::Values(4), ::testing::Values("pvm", "sim")),
                         app_testing::strategy_p_name<ac_case>);
INSTANTIATE_TEST_SUITE_P(OtherP, AcStrategies,
                         ::testing::Combine(::testing::Values("GCDLB"), ::testing::Values(2, 8),
                                            ::testing::Values("pvm", "sim")),
                         app_testing::strategy_p_name<ac_case>);
// Beyond PVM's 64 slaves, and more slaves than iterations: some start with no work.
INSTANTIATE_TEST_SUITE_P(SimLargeP, AcStrategies,
                         ::testing::Combine(::testing::ValuesIn(app_testing::all_strategies()),
                                            ::testing::Values(16, 64), ::testing::Values("sim")),
                         app_testing::strategy_p_name<ac_case>);

TEST(AcSim, RunsOfOneConfigurationAreByteIdentical) {
  app_testing::expect_deterministic_under_sim(
      kAc, {"--procs", "8", "--n", "16", "--t-op", "1e-3", "--seed", "9", "--tl", "0.5"});
}

// An odd n gives an odd L (49): the middle element is a bitonic iteration of its own.
TEST(AcSizes, OddLengthHasALoneMiddle) {
  auto r = app_testing::run(kAc, small_run("LDDLB", 4, "7"));
  app_testing::expect_verified_run(r, {{"size", "n=7"}});
}

TEST(AcNative, MatchesTheSequentialConvolution) {
  auto r = app_testing::run(kAc, {"--strategy", "GDDLB", "--procs", "4", "--n", "24", "--clock",
                                  "native", "--tl", "0.01"});
  app_testing::expect_verified_run(r, {{"clock", "native"}, {"size", "n=24"}});
}

TEST(AcUsage, BadInputGetsAClearErrorAndExitTwo) {
  app_testing::expect_usage_error(kAc, {"--backend", "sim", "--n", "0"}, "--n");
  app_testing::expect_usage_error(kAc, {"--backend", "sim", "--clock", "native"}, "--clock");
  app_testing::expect_usage_error(kAc, {"--n", "0"}, "--n");
  app_testing::expect_usage_error(kAc, {"--n", "1000000"}, "--n");
  app_testing::expect_usage_error(kAc, {"--t-op", "nan"}, "--t-op");
  app_testing::expect_usage_error(kAc, {"--t-op"}, "--t-op");
}

TEST(AcUsage, HelpListsTheProgramsOptions) { app_testing::expect_help(kAc, {"n", "t-op"}); }

}  // namespace
