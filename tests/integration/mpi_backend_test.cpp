// The MPI backend (--backend mpi): the three applications and the synthetic loop as MPI jobs
// under mpirun on this machine, under every strategy and policy (every policy at P = 4 for each
// program; P = 1, 2 and 8 for some), each run verified and nothing left running; a rank that is
// lost ends the run with an error naming it; bad command lines exit 2 saying what to run.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <filesystem>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "app_test_support.hpp"
#include "mpi_support.hpp"

namespace {

using testing_support::fields_of;
using testing_support::none_left;
using testing_support::processes_with_marker;

// The MPI jobs' shared segments (/dev/shm/dlb-medium-<master's pid>-mpi) whose master is gone:
// a job removes its segment's name once every rank has mapped it, so none should outlive its
// master, however the job ended. (A segment of a live master is another test's job starting.)
std::vector<std::string> orphaned_mpi_segments() {
  static const std::regex name(R"(dlb-medium-(\d+)-mpi)");
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm")) {
    const std::string n = e.path().filename().string();
    std::smatch m;
    if (!std::regex_match(n, m, name)) continue;
    if (kill(static_cast<pid_t>(std::stol(m[1].str())), 0) != 0 && errno == ESRCH)
      found.push_back(n);
  }
  return found;
}

// A small run of a program (the sizes of its own tests), quiet.
std::vector<std::string> small_run(const std::string& app, const std::string& strategy, int procs) {
  std::vector<std::string> a{std::string(DLB_APPS_DIR) + "/" + app,
                             "--backend",
                             "mpi",
                             "--strategy",
                             strategy,
                             "--procs",
                             std::to_string(procs),
                             "--quiet",
                             "--tl",
                             "0.5",
                             "--scale",
                             "200"};
  if (app == "mxm") a.insert(a.end(), {"--n", "32", "--r", "16", "--m", "16", "--t-op", "2e-4"});
  if (app == "trfd") a.insert(a.end(), {"--n", "6", "--t-op", "1e-4"});
  if (app == "ac") a.insert(a.end(), {"--n", "8", "--t-op", "1e-3"});
  if (app == "synthetic") {
    a.insert(a.end(), {"--iterations", "160", "--work-ms", "40", "--seed", "7"});
  }
  return a;
}

using mpi_case = std::tuple<std::string, std::string, int>;  // program, policy, P

class MpiRuns : public ::testing::TestWithParam<mpi_case> {};

TEST_P(MpiRuns, VerifiedAndNothingLeft) {
  const auto& [app, strategy, procs] = GetParam();
  auto r = mpi_testing::run_mpi(procs + 1, small_run(app, strategy, procs));
  ASSERT_FALSE(r.timed_out) << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out << r.err;
  auto res = fields_of(r.out, "RESULT ");
  EXPECT_EQ(res["P"], std::to_string(procs)) << r.out;
  if (app == "synthetic") {
    EXPECT_EQ(res["wrong"], "0") << r.out;
    EXPECT_EQ(res["stats_ok"], "1") << r.out;
  } else {
    EXPECT_EQ(res["backend"], "mpi") << r.out;
    EXPECT_EQ(res["verified"], "1") << r.out;
  }
  if (strategy == "NONE" || procs == 1) {
    EXPECT_EQ(res["syncs"], "0") << r.out;
  }
  EXPECT_TRUE(none_left(r.marker)) << "a rank of the job is still alive";
  for (const auto& n : orphaned_mpi_segments()) ADD_FAILURE() << "left in /dev/shm: " << n;
}

// Under the sanitizers (make check) every rank runs several times slower and the cases run one
// at a time: there the synthetic loop covers every policy and P = 1, 2, 8, and each application
// runs once (GDDLB at P = 4); the full matrix runs in make test.
std::vector<mpi_case> sanitized_cases(const std::vector<std::string>& policies) {
  std::vector<mpi_case> v;
  for (const auto& p : policies) v.emplace_back("synthetic", p, 4);
  for (int procs : {1, 2, 8}) v.emplace_back("synthetic", "GDDLB", procs);
  for (const char* app : {"mxm", "trfd", "ac"}) v.emplace_back(app, "GDDLB", 4);
  return v;
}

std::vector<mpi_case> mpi_cases() {
  const std::vector<std::string> policies{"NONE", "GCDLB",    "GDDLB", "LCDLB",   "LDDLB",
                                          "AUTO", "ADAPTIVE", "SS",    "CSS:4",   "GSS",
                                          "TSS",  "FAC2",     "AWF",   "AUTO-ALL"};
  if (DLB_SANITIZED) return sanitized_cases(policies);
  std::vector<mpi_case> v;
  for (const char* app : {"mxm", "trfd", "ac", "synthetic"})
    for (const auto& p : policies) v.emplace_back(app, p, 4);
  for (int procs : {1, 2, 8}) {
    v.emplace_back("synthetic", "GDDLB", procs);
    v.emplace_back("synthetic", "LCDLB", procs);
    v.emplace_back("mxm", "GCDLB", procs);
  }
  v.emplace_back("trfd", "LDDLB", 8);
  v.emplace_back("ac", "AUTO", 2);
  // The chunk rules beyond FAC2 and AWF: the synthetic loop only (each rule is the same protocol).
  for (const char* p : {"FSC", "MFSC", "WF", "AWF-B", "AWF-C", "AWF-D", "AWF-E", "AF"})
    v.emplace_back("synthetic", p, 4);
  return v;
}

// A policy's name as a test's name may spell it: "CSS:4" as CSS_4, "AUTO-ALL" as AUTO_ALL.
std::string policy_test_name(std::string s) {
  for (char& c : s)
    if (c == ':' || c == '-') c = '_';
  return s;
}

std::string mpi_case_name(const ::testing::TestParamInfo<mpi_case>& info) {
  const auto& [app, strategy, procs] = info.param;
  return app + "_" + policy_test_name(strategy) + "_P" + std::to_string(procs);
}

INSTANTIATE_TEST_SUITE_P(Policies, MpiRuns, ::testing::ValuesIn(mpi_cases()), mpi_case_name);

// AUTO-ALL's switch to self-scheduling (--auto-force) as an MPI job: verified, committed to it.
TEST(MpiAutoAll, SwitchToSelfSchedulingVerified) {
  auto args = small_run("mxm", "AUTO-ALL", 4);
  args.insert(args.end(), {"--auto-force", "GSS"});
  auto r = mpi_testing::run_mpi(5, args);
  ASSERT_FALSE(r.timed_out) << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto res = fields_of(r.out, "RESULT ");
  EXPECT_EQ(res["verified"], "1") << r.out;
  EXPECT_EQ(res["committed"], "GSS") << r.out;
  EXPECT_EQ(res["iterations_moved"], "0") << r.out;
  EXPECT_TRUE(none_left(r.marker)) << "a rank of the job is still alive";
  for (const auto& n : orphaned_mpi_segments()) ADD_FAILURE() << "left in /dev/shm: " << n;
}

// The native clock: real time, the same checks.
TEST(MpiNative, SyntheticGcdlbVerified) {
  auto r = mpi_testing::run_mpi(3, {std::string(DLB_APPS_DIR) + "/synthetic", "--backend", "mpi",
                                    "--strategy", "GCDLB", "--clock", "native", "--iterations",
                                    "320", "--work-ms", "0.5", "--tl", "0.002", "--quiet"});
  ASSERT_FALSE(r.timed_out) << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto res = fields_of(r.out, "RESULT ");
  EXPECT_EQ(res["wrong"], "0") << r.out;
  EXPECT_EQ(res["P"], "2") << r.out;
  EXPECT_TRUE(none_left(r.marker));
}

// Every rank a worker (--master-rank computes, native clock): np ranks run P = np slaves, rank 0
// the master and slave P; under every policy the loop is verified and slave P (rank 0's) has
// computed iterations of its own. Under the sanitizers, three policies.
class MpiMasterComputes : public ::testing::TestWithParam<std::string> {};

TEST_P(MpiMasterComputes, EveryRankComputesAndTheLoopIsVerified) {
  auto r = mpi_testing::run_mpi(
      3, {std::string(DLB_APPS_DIR) + "/synthetic", "--backend", "mpi", "--master-rank", "computes",
          "--clock", "native", "--strategy", GetParam(), "--iterations", "240", "--work-ms", "0.3",
          "--ml", "0", "--quiet"});
  ASSERT_FALSE(r.timed_out) << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto res = fields_of(r.out, "RESULT ");
  EXPECT_EQ(res["wrong"], "0") << r.out;
  EXPECT_EQ(res["stats_ok"], "1") << r.out;
  EXPECT_EQ(res["P"], "3") << r.out;
  // Slave 3 runs on rank 0 beside the master.
  const std::regex slave3(R"(SLAVE s=3 group=\d+ done=(\d+))");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, slave3)) << r.out;
  EXPECT_GT(std::stol(m[1].str()), 0) << r.out;
  EXPECT_TRUE(none_left(r.marker)) << "a rank of the job is still alive";
}

// One rank: the master and slave 1 on it, every message between them in memory.
TEST(MpiMasterComputesAlone, OneRankIsTheMasterAndSlaveOne) {
  auto r = mpi_testing::run_mpi(
      1, {std::string(DLB_APPS_DIR) + "/synthetic", "--backend", "mpi", "--master-rank", "computes",
          "--clock", "native", "--strategy", "FAC2", "--iterations", "240", "--work-ms", "0.1",
          "--ml", "0", "--quiet"});
  ASSERT_FALSE(r.timed_out) << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  auto res = fields_of(r.out, "RESULT ");
  EXPECT_EQ(res["wrong"], "0") << r.out;
  EXPECT_EQ(res["P"], "1") << r.out;
  EXPECT_NE(r.out.find("SLAVE s=1 group=0 done=240"), std::string::npos) << r.out;
  EXPECT_TRUE(none_left(r.marker)) << "a rank of the job is still alive";
}

std::vector<std::string> computes_policies() {
  if (DLB_SANITIZED) return {"GDDLB", "SS", "AUTO-ALL"};
  return {"NONE", "GCDLB", "GDDLB", "LCDLB", "LDDLB", "AUTO", "ADAPTIVE",
          "SS",   "CSS:4", "GSS",   "TSS",   "FAC2",  "AWF",  "AUTO-ALL"};
}

INSTANTIATE_TEST_SUITE_P(Policies, MpiMasterComputes, ::testing::ValuesIn(computes_policies()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return policy_test_name(info.param);
                         });

// Rank 0's own chunks as function calls on the master's dispenser (chunk_link): an index-only
// loop in a program's own MPI (embed_loop_bench: dlb::mpi::session, rank 0 computing) under the
// chunk rules on the two-sided path (dlb2:, where chunk_link serves rank 0; the library's own
// choice would take the one-sided path for most of these rules), on one rank (every chunk rank
// 0's) and on two (rank 1's requests served first): every iteration once, the checksum
// sum(i mod 7) = 715 for 240 iterations.
class MpiLinkedChunks : public ::testing::TestWithParam<std::string> {};

TEST_P(MpiLinkedChunks, IndexOnlyLoopComputesEveryIterationOnce) {
  for (const int np : {1, 2}) {
    auto r = mpi_testing::run_mpi(np, {std::string(DLB_EXPERIMENTS_DIR) + "/embed_loop_bench",
                                       "dlb2:" + GetParam(), "linear", "240", "20"});
    ASSERT_FALSE(r.timed_out) << r.err;
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    auto res = fields_of(r.out, "RESULT ");
    EXPECT_EQ(res["checksum"], "715.0") << "np " << np << ": " << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, MpiLinkedChunks,
                         ::testing::Values("SS", "CSS:4", "GSS", "TSS", "FAC2", "AWF", "AUTO-ALL"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return policy_test_name(info.param);
                         });

// A lost rank (fault injected at a point of the run's progress): the master names it, the job
// ends (MPI_Abort), nothing is left running, well within the timeout, and no shared segment
// (before, its master, killed by mpirun, left /dev/shm/dlb-medium-<pid>-mpi).
class MpiLoss : public ::testing::TestWithParam<std::vector<std::string>> {};

TEST_P(MpiLoss, EndsTheRunNamingTheRank) {
  auto args = small_run("synthetic", "GDDLB", 4);
  args.insert(args.end(), {"--kill-slave", "3"});
  for (const auto& a : GetParam()) args.push_back(a);
  auto r = mpi_testing::run_mpi(5, args, 120);
  ASSERT_FALSE(r.timed_out) << r.err;
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("RESULT "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("slave 3 (MPI rank 3) exited during the run"), std::string::npos) << r.err;
  EXPECT_TRUE(none_left(r.marker)) << "a rank of the job is still alive";
  for (const auto& n : orphaned_mpi_segments()) ADD_FAILURE() << "left in /dev/shm: " << n;
}

INSTANTIATE_TEST_SUITE_P(Faults, MpiLoss,
                         ::testing::Values(std::vector<std::string>{"--kill-after-iters", "10"},
                                           std::vector<std::string>{"--kill-at-sync", "1"}));

// Bad command lines: exit 2, the error says what to run, nothing left.
void expect_usage(const testing_support::process_result& r, const std::string& says) {
  EXPECT_FALSE(r.timed_out) << r.err;
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("RESULT "), std::string::npos) << r.out;
  EXPECT_TRUE(none_left(r.marker));
}

TEST(MpiUsage, WithoutMpirunSaysWhatToRun) {
  mpi_testing::allow_root_once();
  auto r =
      testing_support::run_process({std::string(DLB_APPS_DIR) + "/mxm", "--backend", "mpi"}, 30);
  expect_usage(r, "mpirun -np P+1 mxm --backend mpi");
}

TEST(MpiUsage, ProcsMustMatchTheJob) {
  auto r = mpi_testing::run_mpi(
      3, {std::string(DLB_APPS_DIR) + "/mxm", "--backend", "mpi", "--procs", "4"}, 60);
  expect_usage(r, "option --procs 4 needs 5 MPI ranks");
  // Reported once, by rank 0.
  EXPECT_EQ(r.err.find("needs 5 MPI ranks"), r.err.rfind("needs 5 MPI ranks")) << r.err;
}

TEST(MpiUsage, OneRankIsNotARun) {
  auto r = mpi_testing::run_mpi(1, {std::string(DLB_APPS_DIR) + "/mxm", "--backend", "mpi"}, 60);
  expect_usage(r, "at least one slave");
}

TEST(MpiUsage, MasterComputesNeedsTheNativeClockAndTheJobsRanks) {
  const std::string mxm = std::string(DLB_APPS_DIR) + "/mxm";
  expect_usage(mpi_testing::run_mpi(2, {mxm, "--backend", "mpi", "--master-rank", "computes"}, 60),
               "option --master-rank computes needs --clock native");
  expect_usage(mpi_testing::run_mpi(2,
                                    {mxm, "--backend", "mpi", "--master-rank", "computes",
                                     "--clock", "native", "--procs", "3"},
                                    60),
               "option --procs 3 needs 3 MPI ranks (every one a worker");
}

TEST(MpiUsage, RecoveryNeedsUlfm) {
  auto r = mpi_testing::run_mpi(
      3, {std::string(DLB_APPS_DIR) + "/mxm", "--backend", "mpi", "--on-loss", "recover"}, 60);
  expect_usage(r, "ULFM");
}

}  // namespace
