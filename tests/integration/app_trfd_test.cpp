// Integration tests of the trfd program: both loops, balanced independently around the master's
// transpose, under every strategy and external load, must reproduce the sequential program (the
// program checks loop 1 and the final array and says so); RESULT reports each loop.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "app_test_support.hpp"

namespace {

const std::string kTrfd = TRFD_BIN;

// n = 6: N = 21 columns, an odd count, so loop 2 has the lone middle column (11 bitonic
// iterations). t_op makes a loop-1 column about 40 ms of the 1996 workstation.
std::vector<std::string> small_run(const std::string& strategy, int procs,
                                   const std::string& backend = "pvm") {
  return {"--strategy", strategy, "--procs", std::to_string(procs),
          "--backend",  backend,  "--n",     "6",
          "--t-op",     "1e-4",   "--seed",  "5",
          "--tl",       "0.5",    "--scale", "200"};
}

using trfd_case = std::tuple<std::string, int, std::string>;  // strategy, P, backend
class TrfdStrategies : public ::testing::TestWithParam<trfd_case> {};

TEST_P(TrfdStrategies, BothLoopsMatchTheSequentialProgramUnderLoad) {
  const auto& [strategy, procs, backend] = GetParam();
  auto r = app_testing::run(kTrfd, small_run(strategy, procs, backend));
  auto res = app_testing::expect_verified_run(r, {{"app", "trfd"},
                                                  {"P", std::to_string(procs)},
                                                  {"size", "n=6"},
                                                  {"seed", "5"},
                                                  {"ml", "5"},
                                                  {"tl", "0.5"},
                                                  {"clock", "emulated"},
                                                  {"scale", "200"},
                                                  {"backend", backend}});
  if (strategy != "AUTO") {
    EXPECT_EQ(res["strategy"], strategy);
  }
  const double total = std::stod(res["total_s"]);
  const double loop1 = std::stod(res["loop1_s"]), loop2 = std::stod(res["loop2_s"]);
  EXPECT_GT(loop1, 0.0);
  EXPECT_GT(loop2, 0.0);
  // The program's time covers both loops and the transpose between them (to the printed
  // precision, 1e-6 s per value).
  EXPECT_GE(total + 1e-5, loop1 + loop2 + std::stod(res["transpose_s"])) << r.out;
  EXPECT_EQ(std::stoll(res["loop1_syncs"]) + std::stoll(res["loop2_syncs"]),
            std::stoll(res["syncs"]));
  app_testing::expect_sync_counts(res, strategy, r.out);
}

INSTANTIATE_TEST_SUITE_P(P4, TrfdStrategies,
                         ::testing::Combine(::testing::ValuesIn(app_testing::all_strategies()),
                                            ::testing::Values(4), ::testing::Values("pvm", "sim")),
                         app_testing::strategy_p_name<trfd_case>);
INSTANTIATE_TEST_SUITE_P(OtherP, TrfdStrategies,
                         ::testing::Combine(::testing::Values("LDDLB"), ::testing::Values(2, 8),
                                            ::testing::Values("pvm", "sim")),
                         app_testing::strategy_p_name<trfd_case>);
// Beyond PVM's 64 slaves, and more slaves than iterations: some start with no work.
INSTANTIATE_TEST_SUITE_P(SimLargeP, TrfdStrategies,
                         ::testing::Combine(::testing::ValuesIn(app_testing::all_strategies()),
                                            ::testing::Values(16, 64), ::testing::Values("sim")),
                         app_testing::strategy_p_name<trfd_case>);

TEST(TrfdSim, RunsOfOneConfigurationAreByteIdentical) {
  app_testing::expect_deterministic_under_sim(
      kTrfd, {"--procs", "8", "--n", "12", "--t-op", "1e-4", "--seed", "9", "--tl", "0.5"});
}

// An even N (n = 7: N = 28) has no middle column.
TEST(TrfdSizes, EvenColumnCount) {
  auto r = app_testing::run(kTrfd, {"--strategy", "GDDLB", "--procs", "4", "--n", "7", "--t-op",
                                    "1e-4", "--seed", "2", "--tl", "0.5", "--scale", "200"});
  app_testing::expect_verified_run(r, {{"size", "n=7"}});
}

TEST(TrfdNative, BothLoopsMatchTheSequentialProgram) {
  auto r = app_testing::run(kTrfd, {"--strategy", "GCDLB", "--procs", "4", "--n", "8", "--clock",
                                    "native", "--tl", "0.01"});
  app_testing::expect_verified_run(r, {{"clock", "native"}, {"size", "n=8"}});
}

TEST(TrfdUsage, BadInputGetsAClearErrorAndExitTwo) {
  app_testing::expect_usage_error(kTrfd, {"--backend", "sim", "--n", "0"}, "--n");
  app_testing::expect_usage_error(kTrfd, {"--backend", "sim", "--clock", "native"}, "--clock");
  app_testing::expect_usage_error(kTrfd, {"--n", "0"}, "--n");
  app_testing::expect_usage_error(kTrfd, {"--n", "500"}, "--n");
  app_testing::expect_usage_error(kTrfd, {"--n", "3.5"}, "--n");
  app_testing::expect_usage_error(kTrfd, {"--t-op", "-1e-6"}, "--t-op");
  app_testing::expect_usage_error(kTrfd, {"--r", "4"}, "--r");
}

TEST(TrfdUsage, HelpListsTheProgramsOptions) { app_testing::expect_help(kTrfd, {"n", "t-op"}); }

}  // namespace
