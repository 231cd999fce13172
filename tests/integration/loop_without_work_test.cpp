// A loop without a work function (loop_spec::work empty): the body reports its own cost with
// runtime::compute, and the runtime counts what the clock advanced during each iteration as the
// slave's busy time (simulated backend, in this process; one run per test process).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "dlb/dlb.hpp"

namespace {

double cost(std::int64_t i) { return 0.01 * static_cast<double>(1 + i % 3); }

int run(const std::string& strategy, bool with_work_function, dlb::run_stats& out) {
  const dlb::app_body body = [&](dlb::runtime& rt) {
    dlb::loop_spec loop{300, {}};
    if (with_work_function) loop.work = cost;
    std::vector<int> hits(300, 0);
    auto H = dlb::DLB_array::of("hits", hits.data(), 300, 1, dlb::data_distribution::block);
    H.input = false;
    H.output = true;
    auto st = dlb::parallel_for(rt, loop, {&H}, [&](std::int64_t i) {
      if (!with_work_function) rt.compute(cost(i));
      ++hits[static_cast<std::size_t>(i)];
    });
    if (rt.master()) {
      for (int h : hits)
        if (h != 1) throw dlb::run_error("an iteration ran other than once");
      out = st;
    }
    return 0;
  };
  std::vector<std::string> args{"nowork", "--backend", "sim",        "--procs", "3",
                                "--ml",   "0",         "--strategy", strategy,  "--quiet"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return dlb::run_app(static_cast<int>(argv.size()), argv.data(),
                      {"nowork", "a loop without a work function", {}, nullptr}, body,
                      [](dlb::report_kind, const std::string&) {});
}

double total_cost() {
  double sum = 0;
  for (std::int64_t i = 0; i < 300; ++i) sum += cost(i);
  return sum;
}

double busy_sum(const dlb::run_stats& st) {
  double sum = 0;
  for (const auto& s : st.slaves) sum += s.busy;
  return sum;
}

struct outcome {
  bool ok = false;
  double busy = 0, total = 0;
  std::int64_t syncs = 0;
};

// Runs f in a forked child and returns what it returned (ok = false if the child failed).
outcome in_child(outcome (*f)()) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    const outcome o = f();
    const auto n = ::write(fds[1], &o, sizeof o);
    ::_exit(n == static_cast<ssize_t>(sizeof o) ? 0 : 1);
  }
  ::close(fds[1]);
  outcome o;
  const auto n = ::read(fds[0], &o, sizeof o);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (n != static_cast<ssize_t>(sizeof o) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return {};
  return o;
}

TEST(LoopWithoutWork, BusyTimeIsWhatTheBodyReported) {
  dlb::run_stats st;
  ASSERT_EQ(run("NONE", false, st), 0);
  EXPECT_NEAR(busy_sum(st), total_cost(), 1e-9);
  EXPECT_EQ(st.oracle_time, 0.0);  // no costs known: no bound
  // Equal blocks of 100 iterations, each slave's block costs 2.0 s of the base workstation.
  EXPECT_NEAR(st.total_time(), 2.0, 0.1);
}

// Under balancing, a slave's busy time also holds the receive overheads of the messages that
// arrive while it computes (interrupts, profiles): the same with and without a work function.
TEST(LoopWithoutWork, BalancedRunCountsWhatAWorkFunctionWould) {
  // SimGrid runs once per process: the run with the work function goes in a child.
  const outcome charged = in_child([] {
    dlb::run_stats st;
    if (run("GDDLB", true, st) != 0) return outcome{};
    return outcome{true, busy_sum(st), st.total_time(), st.syncs};
  });
  ASSERT_TRUE(charged.ok);
  dlb::run_stats reported;
  ASSERT_EQ(run("GDDLB", false, reported), 0);
  EXPECT_GT(reported.syncs, 0);
  EXPECT_GE(busy_sum(reported), total_cost() - 1e-9);
  EXPECT_NEAR(busy_sum(reported), charged.busy, 1e-9);
  EXPECT_NEAR(reported.total_time(), charged.total, 1e-9);
  EXPECT_EQ(reported.syncs, charged.syncs);
}

TEST(LoopWithoutWork, WithAWorkFunctionTheRuntimeChargesIt) {
  dlb::run_stats st;
  ASSERT_EQ(run("NONE", true, st), 0);
  EXPECT_NEAR(busy_sum(st), total_cost(), 1e-9);
  EXPECT_GT(st.oracle_time, 0.0);
}

}  // namespace
