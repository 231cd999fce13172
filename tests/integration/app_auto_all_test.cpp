// AUTO-ALL (docs/design/policies.md, "AUTO-ALL"): the choice before the scatter, and the switch
// at its first synchronization to every kind of policy, forced with --auto-force, on the
// applications (mxm, trfd, ac) and the synthetic loop: each run is verified against its reference
// (the results of the iterations computed before and after the switch are all gathered), names
// the policy it committed to, and printed every candidate's prediction. A self-scheduling
// commitment moves no work between slaves and hands out chunks on request; ADAPTIVE's
// re-selections are listed; a paper strategy is AUTO's path. Simulated, plus PVM runs of the
// switch to self-scheduling (each starts its private pvmd).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "app_test_support.hpp"

namespace {

using Case = std::tuple<std::string, std::string, std::string>;  // app, forced policy, backend
class AutoAllSwitch : public ::testing::TestWithParam<Case> {};

std::vector<std::string> small_args(const std::string& app) {
  if (app == "mxm") return {"--n", "32", "--r", "16", "--m", "16", "--t-op", "2e-4", "--seed", "3"};
  if (app == "trfd") return {"--n", "6", "--t-op", "1e-4", "--seed", "5"};
  if (app == "ac") return {"--n", "8", "--t-op", "1e-3", "--seed", "4"};
  return {"--iterations", "400", "--seed", "2"};
}

std::string bin_of(const std::string& app) {
  if (app == "mxm") return MXM_BIN;
  if (app == "trfd") return TRFD_BIN;
  if (app == "ac") return AC_BIN;
  return DLB_SYNTHETIC_APP;
}

bool self_scheduling(const std::string& p) {
  return p != "ADAPTIVE" && p.find("DLB") == std::string::npos;
}

// The synthetic loop's RESULT line has keys of its own: checked here.
std::map<std::string, std::string> expect_synthetic_verified(
    const testing_support::process_result& r) {
  EXPECT_FALSE(r.timed_out) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out;
  auto res = testing_support::fields_of(r.out, "RESULT ");
  EXPECT_EQ(res["wrong"], "0") << r.out;
  EXPECT_EQ(res["stats_ok"], "1") << r.out;
  EXPECT_EQ(res["strategy"], "AUTO-ALL") << r.out;
  EXPECT_TRUE(testing_support::none_left(r.marker));
  return res;
}

std::string case_name(const ::testing::TestParamInfo<Case>& i) {
  std::string n = std::get<0>(i.param) + "_" + std::get<1>(i.param) + "_" + std::get<2>(i.param);
  for (char& ch : n)
    if (ch == ':' || ch == '-') ch = '_';
  return n;
}

TEST_P(AutoAllSwitch, VerifiedAfterTheSwitch) {
  const auto& [app, policy, backend] = GetParam();
  auto args = small_args(app);
  args.insert(args.end(), {"--strategy", "AUTO-ALL", "--auto-force", policy, "--procs", "4",
                           "--backend", backend, "--tl", "0.5", "--scale", "200"});
  const auto r = app_testing::run(bin_of(app), args);
  auto res =
      app == "synthetic"
          ? expect_synthetic_verified(r)
          : app_testing::expect_verified_run(
                r, {{"app", app}, {"strategy", "AUTO-ALL"}, {"P", "4"}, {"backend", backend}});
  // TRFD has two loops, each with its own commitment.
  const std::string pre = app == "trfd" ? "loop1_" : "";
  EXPECT_EQ(res[pre + "committed"], policy) << r.out;
  EXPECT_EQ(res[pre + "chosen"], policy) << r.out;
  EXPECT_EQ(res[pre + "decided"], "sync") << "--auto-force commits at the first synchronization";
  if (policy == "ADAPTIVE") {
    // ADAPTIVE's first re-selection commits to one of the paper's four ("GDDLB@11.462,...").
    const std::string choices = res[pre + "choices"];
    const std::set<std::string> rows = {"GCDLB", "GDDLB", "LCDLB", "LDDLB"};
    EXPECT_TRUE(rows.count(choices.substr(0, choices.find('@')))) << r.out;
  }
  // Every default candidate was predicted (the order of --candidates).
  const std::string c = res[pre + "candidates"];
  for (const char* name :
       {"GCDLB:", "GDDLB:", "LCDLB:", "LDDLB:", "ADAPTIVE:", "SS:", "CSS:16:", "GSS:", "TSS:",
        "FAC2:", "AWF:", "FSC:", "MFSC:", "WF:", "AWF-B:", "AWF-C:", "AWF-D:", "AWF-E:", "AF:"})
    EXPECT_NE(c.find(name), std::string::npos) << name << " in " << c;
  // The choice's wall time was measured, and is part of the run's.
  const double choice_wall = std::stod(res[pre + "choice_wall_s"]);
  EXPECT_GT(choice_wall, 0.0) << r.out;
  EXPECT_LT(choice_wall, std::stod(res["wall_s"])) << r.out;
  EXPECT_GT(std::stod(res[pre + "choice_s"]), 0.0);
  if (self_scheduling(policy)) {
    // No work moves between slaves: the master hands out the pool in chunks on request.
    EXPECT_EQ(res["iterations_moved"], "0") << r.out;
    EXPECT_GT(std::stoll(res["syncs"]), 1) << r.out;
  } else if (policy == "ADAPTIVE") {
    EXPECT_NE(res[pre + "choices"], "") << r.out;
    EXPECT_NE(res[pre + "choices"], "-") << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(Sim, AutoAllSwitch,
                         ::testing::Combine(::testing::Values("mxm", "trfd", "ac", "synthetic"),
                                            ::testing::Values("SS", "CSS:3", "GSS", "TSS", "FAC2",
                                                              "AWF", "ADAPTIVE", "LCDLB"),
                                            ::testing::Values("sim")),
                         case_name);

// The rules beyond FAC2 and AWF, once each, on the synthetic loop.
INSTANTIATE_TEST_SUITE_P(SimMoreRules, AutoAllSwitch,
                         ::testing::Combine(::testing::Values("synthetic"),
                                            ::testing::Values("FSC", "MFSC", "WF", "AWF-B", "AWF-C",
                                                              "AWF-D", "AWF-E", "AF"),
                                            ::testing::Values("sim")),
                         case_name);

INSTANTIATE_TEST_SUITE_P(Pvm, AutoAllSwitch,
                         ::testing::Values(Case{"mxm", "GSS", "pvm"},
                                           Case{"synthetic", "AWF", "pvm"},
                                           Case{"trfd", "ADAPTIVE", "pvm"}),
                         [](const ::testing::TestParamInfo<Case>& i) {
                           return std::get<0>(i.param) + "_" + std::get<1>(i.param) + "_" +
                                  std::get<2>(i.param);
                         });

// "GCDLB:12.3/CSS:16:4.5" -> {GCDLB: 12.3, CSS:16: 4.5}.
std::map<std::string, double> times_of(const std::string& c) {
  std::map<std::string, double> m;
  std::size_t at = 0;
  while (at < c.size()) {
    auto slash = c.find('/', at);
    if (slash == std::string::npos) slash = c.size();
    const std::string item = c.substr(at, slash - at);
    const auto colon = item.rfind(':');
    m[item.substr(0, colon)] = std::stod(item.substr(colon + 1));
    at = slash + 1;
  }
  return m;
}

// ADAPTIVE is predicted as the best of the four plus its re-selections: never below that best,
// under either assumption about the load (estimated: the same averaged prediction of the four).
TEST(AutoAll, AdaptiveNeverBelowTheBestOfTheFour) {
  for (const char* load : {"run", "estimated"}) {
    const auto r = app_testing::run(
        TRFD_BIN, {"--n", "10", "--t-op", "1e-4", "--seed", "5", "--strategy", "AUTO-ALL",
                   "--procs", "4", "--backend", "sim", "--model-load", load});
    auto res = app_testing::expect_verified_run(r, {{"strategy", "AUTO-ALL"}});
    for (const char* loop : {"loop1_", "loop2_"}) {
      const auto t = times_of(res[std::string(loop) + "candidates"]);
      ASSERT_EQ(t.size(), 19u) << r.out;
      const double best = std::min({t.at("GCDLB"), t.at("GDDLB"), t.at("LCDLB"), t.at("LDDLB")});
      EXPECT_GE(t.at("ADAPTIVE"), best) << load << " " << loop << ": " << r.out;
      EXPECT_NE(res[std::string(loop) + "committed"], "ADAPTIVE") << r.out;
    }
  }
}

// Unforced, the commitment is the fastest predicted candidate.
TEST(AutoAll, CommitsToTheFastestPrediction) {
  const auto r = app_testing::run(
      MXM_BIN, {"--n", "32", "--r", "16", "--m", "16", "--t-op", "2e-4", "--seed", "3",
                "--strategy", "AUTO-ALL", "--procs", "4", "--backend", "sim", "--tl", "0.5"});
  auto res = app_testing::expect_verified_run(r, {{"strategy", "AUTO-ALL"}});
  const std::string c = res["candidates"];
  std::string best;
  double least = 1e300;
  std::size_t at = 0;
  while (at < c.size()) {
    auto slash = c.find('/', at);
    if (slash == std::string::npos) slash = c.size();
    const std::string item = c.substr(at, slash - at);
    const auto colon = item.rfind(':');
    const double t = std::stod(item.substr(colon + 1));
    if (t < least) {
      least = t;
      best = item.substr(0, colon);
    }
    at = slash + 1;
  }
  EXPECT_EQ(res["committed"], best) << c;
}

// --candidates narrows the choice: with one candidate it is the commitment.
TEST(AutoAll, OneCandidateIsTheCommitment) {
  const auto r = app_testing::run(DLB_SYNTHETIC_APP, {"--strategy", "AUTO-ALL", "--candidates",
                                                      "TSS", "--backend", "sim", "--seed", "2"});
  auto res = expect_synthetic_verified(r);
  EXPECT_EQ(res["committed"], "TSS") << r.out;
  EXPECT_EQ(res["candidates"].rfind("TSS:", 0), 0u) << r.out;
  EXPECT_EQ(res["candidates"].find('/'), std::string::npos) << r.out;
}

// The choice before the scatter: on the synthetic loop (seed 2, P = 4, 400 iterations) the models
// predict FAC2 from the start (16.30 s) faster than GDDLB's blocks (16.41 s) or FAC2 after them:
// the scatter commits to FAC2, the chunks are FAC2's from the loop's first iteration, each
// asked for once, and no profile or decision is exchanged. With GDDLB alone the blocks go out and
// the commitment is made at the first synchronization; --auto-force commits there too. On the
// simulator and on PVM (the scatter's commitment over a real transport).
TEST(AutoAll, CommitsBeforeTheScatterToAChunkRuleFromTheStart) {
  for (const std::string backend : {"sim", "pvm"}) {
    const auto r = app_testing::run(
        DLB_SYNTHETIC_APP, {"--strategy", "AUTO-ALL", "--candidates", "GDDLB FAC2", "--backend",
                            backend, "--seed", "2", "--scale", "200"});
    auto res = expect_synthetic_verified(r);
    EXPECT_EQ(res["decided"], "scatter") << r.out;
    EXPECT_EQ(res["committed"], "FAC2") << r.out;
    EXPECT_EQ(res["choice_s"], "0.000000") << r.out;
    const auto chunks = testing_support::fields_of(r.out, "CHUNKS ");
    // FAC2 on 400 iterations, P = 4: batches of 4 chunks of ceil(R / 8), R = 400, 200, 100, 48, 24,
    // 12, 4.
    const std::string fac2 = "50,50,50,50,25,25,25,25,13,13,13,13,6,6,6,6,3,3,3,3,2,2,2,2,1,1,1,1";
    EXPECT_EQ(chunks.at("sizes"), fac2) << backend;
    // One request per chunk (each worker's last is answered with none): no other synchronization.
    EXPECT_EQ(res["syncs"], chunks.at("n")) << r.out;
    EXPECT_EQ(res["iterations_moved"], "0");
  }
  for (const std::vector<std::string>& choice :
       {std::vector<std::string>{"--candidates", "GDDLB"},
        std::vector<std::string>{"--candidates", "GDDLB FAC2", "--auto-force", "FAC2"}}) {
    std::vector<std::string> args{"--strategy", "AUTO-ALL", "--backend", "sim", "--seed", "2"};
    args.insert(args.end(), choice.begin(), choice.end());
    const auto r = app_testing::run(DLB_SYNTHETIC_APP, args);
    auto res = expect_synthetic_verified(r);
    EXPECT_EQ(res["decided"], "sync") << r.out;
    EXPECT_EQ(res["committed"], choice.size() == 2 ? "GDDLB" : "FAC2") << r.out;
  }
}

}  // namespace
