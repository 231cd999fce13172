// The application programs (mxm, trfd, ac) under the self-scheduling baselines, unchanged: each
// policy on each program and backend is verified against the sequential reference, echoes the
// policy's name, and reports the master's chunks: a request per chunk after the scatter's
// (syncs >= redistributions), no work moved between workers (iterations_moved 0), and the input
// slices shipped with the chunks (bytes_moved > 0 for MXM, whose X rows go with their rows).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "app_test_support.hpp"

namespace {

using Case = std::tuple<std::string, std::string, std::string>;  // app, policy, backend
class AppSelfScheduling : public ::testing::TestWithParam<Case> {};

std::vector<std::string> small_args(const std::string& app) {
  // The apps' own test sizes (app_*_test.cpp).
  if (app == "mxm") return {"--n", "32", "--r", "16", "--m", "16", "--t-op", "2e-4", "--seed", "3"};
  if (app == "trfd") return {"--n", "6", "--t-op", "1e-4", "--seed", "5"};
  return {"--n", "8", "--t-op", "1e-3", "--seed", "4"};
}

std::string bin_of(const std::string& app) {
  if (app == "mxm") return MXM_BIN;
  if (app == "trfd") return TRFD_BIN;
  return AC_BIN;
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  std::string n = std::get<0>(i.param) + "_" + std::get<1>(i.param) + "_" + std::get<2>(i.param);
  for (char& c : n)
    if (c == ':' || c == '-') c = '_';
  return n;
}

TEST_P(AppSelfScheduling, VerifiedUnderEveryPolicy) {
  const auto& [app, policy, backend] = GetParam();
  auto args = small_args(app);
  args.insert(args.end(), {"--strategy", policy, "--procs", "4", "--backend", backend, "--tl",
                           "0.5", "--scale", "200"});
  auto r = app_testing::run(bin_of(app), args);
  auto res = app_testing::expect_verified_run(
      r, {{"app", app}, {"strategy", policy}, {"P", "4"}, {"backend", backend}});
  EXPECT_EQ(res["iterations_moved"], "0") << r.out;
  EXPECT_GT(std::stoll(res["syncs"]), 0) << r.out;
  EXPECT_GE(std::stoll(res["syncs"]), std::stoll(res["redistributions"])) << r.out;
  EXPECT_EQ(res["predicted_best"], "-");
  // Every rule hands out chunks on request at these sizes (32 rows on 4 workers): MXM's X rows go
  // with them.
  if (app == "mxm") {
    EXPECT_GT(std::stoll(res["bytes_moved"]), 0) << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(All, AppSelfScheduling,
                         ::testing::Combine(::testing::Values("mxm", "trfd", "ac"),
                                            ::testing::Values("SS", "CSS:3", "GSS", "TSS", "FAC2",
                                                              "AWF"),
                                            ::testing::Values("pvm", "sim")),
                         case_name);

// The rules beyond FAC2 and AWF, simulated, on each application (their protocol is the same; the
// PVM and MPI runs of them are the synthetic loop's: self_scheduling_test, mpi_backend_test).
// Under the sanitizers (make check), MXM's only.
std::vector<Case> more_rules() {
  std::vector<Case> v;
  for (const char* app : {"mxm", "trfd", "ac"})
    for (const char* rule : {"FSC", "MFSC", "WF", "AWF-B", "AWF-C", "AWF-D", "AWF-E", "AF"})
      if (!DLB_SANITIZED || std::string(app) == "mxm") v.emplace_back(app, rule, "sim");
  return v;
}

INSTANTIATE_TEST_SUITE_P(MoreRules, AppSelfScheduling, ::testing::ValuesIn(more_rules()),
                         case_name);

TEST(AppSelfSchedulingSim, MxmRunsOfOneConfigurationAreByteIdentical) {
  for (const std::string policy : {"SS", "GSS", "AWF"}) {
    std::vector<std::string> args{"--procs", "8",   "--n",       "96",   "--r",        "16",
                                  "--m",     "16",  "--t-op",    "2e-4", "--seed",     "9",
                                  "--tl",    "0.5", "--backend", "sim",  "--strategy", policy};
    auto a = app_testing::run(MXM_BIN, args), b = app_testing::run(MXM_BIN, args);
    app_testing::expect_verified_run(a, {{"strategy", policy}});
    EXPECT_EQ(app_testing::without_wall_time(a.out), app_testing::without_wall_time(b.out))
        << policy;
  }
}

}  // namespace
