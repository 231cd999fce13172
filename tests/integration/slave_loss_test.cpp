// slave_loss_test: surviving a lost workstation (issue 13, item 3; lib/README.md, "When a
// workstation is lost"). apps/synthetic runs with --on-loss recover while one slave dies:
//  - simulated backend: the slave's actor is killed at a virtual time (--kill-slave, --kill-at),
//    at seeded random points and at points taken from a trace of the same run without a kill
//    (just before and after a slave sends its profile, just before a sender ships work and
//    while that work is on its way to its receiver), for every strategy;
//  - PVM: the slave SIGKILLs itself between iterations, or the test kill -9s a slave task at a
//    random moment, for every strategy.
// Every run must complete verified: every iteration computed exactly once in the gathered
// result (the master checks that the handed-in ranges cover the loop exactly once, the
// application checks every value and that the slaves' iterations add up to the loop's), the loss
// reported, and nothing left running. Without --on-loss recover, the same loss ends the run with
// an error naming the slave.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "message_trace.hpp"
#include "run_process.hpp"

namespace {

using testing_support::fields_of;
using testing_support::processes_with_marker;
using testing_support::run_process;

const std::string kApp = DLB_SYNTHETIC_APP;
const std::vector<std::string> kStrategies = {"NONE", "GCDLB", "GDDLB", "LCDLB", "LDDLB", "AUTO"};

std::string fixed(double x) {
  char b[64];
  std::snprintf(b, sizeof b, "%.9f", x);
  return b;
}

// The simulated run of these tests: P = 4, a triangular loop (work moves), ml = 5.
std::vector<std::string> sim_run(const std::string& strategy, std::vector<std::string> more = {}) {
  std::vector<std::string> a = {
      kApp,  "--backend", "sim",        "--strategy", strategy, "--procs", "4", "--iterations",
      "240", "--shape",   "triangular", "--work-ms",  "40",     "--seed",  "5", "--quiet"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

using testing_support::read_trace;
using testing_support::traced_message;

struct kill_point {
  int slave;
  double at;
  std::string why;
};

// Checks one run that lost a slave: completed, verified, the loss in the RESULT line.
void expect_recovered(const testing_support::process_result& r, const kill_point& k,
                      bool must_lose) {
  SCOPED_TRACE("slave " + std::to_string(k.slave) + " killed at " + fixed(k.at) + " (" + k.why +
               ")");
  ASSERT_FALSE(r.timed_out) << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out;
  const auto f = fields_of(r.out, "RESULT ");
  EXPECT_EQ(f.at("wrong"), "0");
  EXPECT_EQ(f.at("stats_ok"), "1");
  if (f.at("lost_slaves") == "1") {
    EXPECT_EQ(f.at("lost").substr(0, f.at("lost").find('@')), std::to_string(k.slave));
  } else {
    // The slave had finished (handed in and been released) before its kill time.
    EXPECT_FALSE(must_lose) << r.out;
    EXPECT_EQ(f.at("lost_slaves"), "0");
    EXPECT_EQ(f.at("recovered_iters"), "0");
  }
}

class SimLoss : public ::testing::TestWithParam<std::string> {};

// 8 points from the trace of the run without a kill, 16 seeded random ones: 24 per strategy.
TEST_P(SimLoss, EveryKillPointCompletesVerified) {
  const std::string s = GetParam();
  const auto dir =
      std::filesystem::temp_directory_path() / ("dlb-loss-" + s + "-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto base =
      run_process(sim_run(s, {"--on-loss", "recover", "--trace-dir", dir.string()}), 60);
  ASSERT_EQ(base.exit_code, 0) << base.out << base.err;
  const auto bf = fields_of(base.out, "RESULT ");
  EXPECT_EQ(bf.at("lost_slaves"), "0");
  const double total = std::stod(bf.at("total_s"));
  // Every task's messages, in time order, so that "the nth profile" is the run's nth.
  auto trace = read_trace(dir);
  std::filesystem::remove_all(dir);
  std::sort(trace.begin(), trace.end(),
            [](const traced_message& a, const traced_message& b) { return a.time < b.time; });

  std::vector<kill_point> points;
  const auto add_first = [&](const std::string& type, int nth, double dt, bool sender,
                             const std::string& why) {
    int seen = 0;
    for (const auto& m : trace) {
      if (m.type != type || m.from == 0) continue;
      if (seen++ != nth) continue;
      points.push_back({sender ? m.from : m.to, std::max(0.0, m.time + dt), why});
      return;
    }
  };
  const double eps = 1e-4;
  add_first("profile", 0, -eps, true, "just before its first profile");
  add_first("profile", 0, eps, true, "just after its first profile (a synchronization waits)");
  add_first("profile", 1, eps, true, "after the second profile");
  add_first("interrupt", 0, eps, true, "just after it interrupted the others");
  add_first("work", 0, -eps, true, "a sender, just before it ships work");
  add_first("work", 0, eps, false, "a receiver, while work is on its way to it");
  add_first("work", 1, eps, true, "a sender, just after it shipped work");
  add_first("work", 1, eps, false, "the second receiver, work on its way");
  // Balancing strategies have profiles and interrupts; NONE has none: random points instead.
  std::mt19937_64 rng(1300 + std::hash<std::string>{}(s) % 1000);
  std::uniform_real_distribution<double> when(0.0, total * 0.98);
  std::uniform_int_distribution<int> who(1, 4);
  while (points.size() < 24) points.push_back({who(rng), when(rng), "seeded random"});
  int lost = 0;
  for (const auto& k : points) {
    const auto r = run_process(sim_run(s, {"--on-loss", "recover", "--kill-slave",
                                           std::to_string(k.slave), "--kill-at", fixed(k.at)}),
                               60);
    expect_recovered(r, k, false);
    if (fields_of(r.out, "RESULT ")["lost_slaves"] == "1") ++lost;
  }
  // Nearly every point is before the end of the run; a slave that finished early may be gone.
  EXPECT_GE(lost, 18) << "of " << points.size() << " kill points";
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, SimLoss, ::testing::ValuesIn(kStrategies));

// TRFD's two loops: a slave lost in the first loop is left out of the second from its scatter
// on (its share recovered at the end, the survivors balancing among themselves); one lost in the
// second stops that loop's balancing. Simulated, every strategy, verified.
TEST_P(SimLoss, TrfdSurvivesALossInEitherLoop) {
  for (const char* at : {"3", "15"}) {  // the first loop ends at about 12.6 s
    const auto r =
        run_process({TRFD_BIN, "--backend", "sim", "--procs", "4", "--strategy", GetParam(),
                     "--quiet", "--on-loss", "recover", "--kill-slave", "2", "--kill-at", at},
                    60);
    SCOPED_TRACE(std::string("slave 2 killed at ") + at + " s");
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const auto f = fields_of(r.out, "RESULT ");
    EXPECT_EQ(f.at("verified"), "1") << r.out;
    EXPECT_EQ(f.at("lost_slaves"), "1") << r.out;
    EXPECT_GT(std::stoll(f.at("recovered_iters")), 0) << r.out;
  }
}

TEST(SimLoss, LostEarlyEveryIterationIsRecoveredAndTimed) {
  // Killed at once: its whole block is recovered by the others.
  const auto r = run_process(
      sim_run("GDDLB", {"--on-loss", "recover", "--kill-slave", "2", "--kill-at", "0.001"}), 60);
  expect_recovered(r, {2, 0.001, "at the start"}, true);
  const auto f = fields_of(r.out, "RESULT ");
  // Its whole initial block: blocks of equal work on the triangular loop (cost 240 - i), so
  // slave 2 starts with [32, 70), whose prefix work 7184 and 14385 are nearest 1/4 and 2/4 of
  // 28920 (lib/README.md, "Work, not iterations").
  EXPECT_GE(std::stoll(f.at("recovered_iters")), 38);
  EXPECT_GT(std::stod(f.at("recovery_s")), 0.0);
  const auto base = run_process(sim_run("GDDLB", {"--on-loss", "recover"}), 60);
  // Losing a quarter of the workstations costs time.
  EXPECT_GT(std::stod(f.at("total_s")), std::stod(fields_of(base.out, "RESULT ").at("total_s")));
}

TEST(SimLoss, WithoutRecoverTheLossEndsTheRunNamingTheSlave) {
  const auto r = run_process(sim_run("GCDLB", {"--kill-slave", "3", "--kill-at", "1.5"}), 60);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.err.find("slave 3"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("RESULT"), std::string::npos);
}

TEST(SimLoss, BadOptionsAreRefused) {
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"--on-loss", "retry"}, {"--kill-slave", "5"}, {"--kill-at", "-1"}}) {
    const auto r = run_process(sim_run("GDDLB", bad), 30);
    EXPECT_EQ(r.exit_code, 2) << bad[0] << " " << bad[1];
    EXPECT_NE(r.err.find(bad[0]), std::string::npos) << r.err;
  }
}

// PVM: real tasks, a private virtual machine per run (the launcher's), emulated clock.
std::vector<std::string> pvm_run(const std::string& strategy, std::vector<std::string> more = {}) {
  std::vector<std::string> a = {kApp,           "--strategy", strategy,  "--procs",    "4",
                                "--iterations", "160",        "--shape", "triangular", "--work-ms",
                                "60",           "--scale",    "20",      "--seed",     "5",
                                "--on-loss",    "recover",    "--quiet", "--timeout",  "30"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

bool is_slave_task(pid_t p) {
  std::ifstream cmd("/proc/" + std::to_string(p) + "/cmdline");
  const std::string c((std::istreambuf_iterator<char>(cmd)), std::istreambuf_iterator<char>());
  return c.find("--dlb-slave") != std::string::npos;
}

void expect_nothing_left(const std::string& marker) {
  std::vector<pid_t> left;
  for (int i = 0; i < 100; ++i) {
    left = processes_with_marker(marker);
    if (left.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(left.empty()) << left.size() << " processes of the run left";
}

class PvmLoss : public ::testing::TestWithParam<std::string> {};

TEST_P(PvmLoss, SlaveKilledBetweenIterationsAndAtRandom) {
  const std::string s = GetParam();
  // Between iterations: the slave raises SIGKILL after n of its iterations.
  for (const auto& [slave, after] : std::vector<std::pair<int, int>>{{2, 3}, {4, 25}}) {
    const auto r = run_process(
        pvm_run(s, {"--kill-self", std::to_string(slave), "--kill-after", std::to_string(after)}),
        60);
    expect_recovered(r, {slave, static_cast<double>(after), "after n iterations"}, true);
    expect_nothing_left(r.marker);
  }
  // At a random moment (seeded): kill -9 of a slave task from outside.
  std::mt19937_64 rng(4242 + std::hash<std::string>{}(s) % 1000);
  std::uniform_real_distribution<double> when(0.15, 0.6);
  const double at = when(rng);
  int killed_pid = 0;
  const auto r = run_process(
      pvm_run(s), 60,
      [&killed_pid](const std::string& marker) {
        // The slaves may still be starting on a loaded machine: look for up to 5 s.
        for (int tries = 0; tries < 500 && killed_pid == 0; ++tries) {
          std::vector<pid_t> slaves;
          for (pid_t p : processes_with_marker(marker))
            if (is_slave_task(p)) slaves.push_back(p);
          if (slaves.size() == 4) {
            std::sort(slaves.begin(), slaves.end());
            killed_pid = slaves[1];
            ::kill(killed_pid, SIGKILL);
            return;
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      },
      at);
  SCOPED_TRACE("kill -9 at " + fixed(at) + " s of wall time");
  ASSERT_GT(killed_pid, 0);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("Verification = SUCCESSFUL"), std::string::npos) << r.out;
  const auto f = fields_of(r.out, "RESULT ");
  EXPECT_EQ(f.at("stats_ok"), "1");
  EXPECT_EQ(f.at("lost_slaves"), "1") << r.out;
  expect_nothing_left(r.marker);
}

INSTANTIATE_TEST_SUITE_P(AllStrategies, PvmLoss, ::testing::ValuesIn(kStrategies));

// The master is the limit: killed with SIGKILL mid-run under --on-loss recover, the run is over
// (its private pvmd goes with it, and the slaves with the pvmd), and nothing of it is left.
TEST(PvmLoss, TheMastersLossEndsTheRunAndLeavesNothing) {
  pid_t master = 0;
  const auto r = run_process(
      pvm_run("GDDLB"), 60,
      [&master](const std::string& marker) {
        for (int tries = 0; tries < 500 && master == 0; ++tries) {
          std::vector<pid_t> slaves, others;
          for (pid_t p : processes_with_marker(marker)) {
            std::ifstream cmd("/proc/" + std::to_string(p) + "/cmdline");
            const std::string c((std::istreambuf_iterator<char>(cmd)),
                                std::istreambuf_iterator<char>());
            if (c.find("--dlb-slave") != std::string::npos) {
              slaves.push_back(p);
            } else if (c.find("apps/synthetic") != std::string::npos) {
              others.push_back(p);
            }
          }
          if (slaves.size() == 4 && others.size() == 1) {
            master = others[0];
            ::kill(master, SIGKILL);
            return;
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      },
      0.3);
  ASSERT_GT(master, 0);
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.out << r.err;
  EXPECT_EQ(r.out.find("RESULT"), std::string::npos) << r.out;
  expect_nothing_left(r.marker);
}

}  // namespace
