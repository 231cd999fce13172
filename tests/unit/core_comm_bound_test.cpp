// The communication-aware bound and its assignment, table-style against hand-computed cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "dlb/core/comm_bound.hpp"
#include "dlb/core/load.hpp"
#include "dlb/core/oracle.hpp"

namespace {

using dlb::core::comm_bound;
using dlb::core::comm_costs;
using dlb::core::load_function;
using dlb::core::min_assignment;

load_function no_load() {
  load_function f;
  f.max_load = 0;
  return f;
}

load_function table(std::vector<std::vector<int>> rows, double tl) {
  load_function f;
  f.persistence = tl;
  f.table = std::move(rows);
  return f;
}

comm_costs costs(double send, double wire, double after, double gather, double medium) {
  comm_costs c;
  c.scatter_send = send;
  c.scatter_wire = wire;
  c.scatter_after = after;
  c.gather_last = gather;
  c.medium_total = medium;
  return c;
}

TEST(CommBound, HandComputedCases) {
  struct row {
    const char* what;
    load_function load;
    std::vector<double> speeds;
    double work;
    comm_costs c;
    double expected;
  };
  const std::vector<row> rows{
      // Nothing on the network: the oracle, W / sum S.
      {"free network", no_load(), {1, 1}, 100, costs(0, 0, 0, 0, 0), 50},
      // Slots at 1 and 2: (T - 1) + (T - 2) = 100.
      {"wire-bound scatter", no_load(), {1, 1}, 100, costs(0, 1, 0, 0, 0), 51.5},
      // The master's CPU is the slower stage: a_1 = 2 + 1 = 3, a_2 = max(4 + 1, 2 + 2) = 5;
      // (T - 3) + (T - 5) = 100.
      {"CPU-bound scatter", no_load(), {1, 1}, 100, costs(2, 1, 0, 0, 0), 54},
      // The rest of the latency and the receiver: slots at 1.5 and 2.5; then the last gather.
      {"after and gather", no_load(), {1, 1}, 100, costs(0, 1, 0.5, 0.25, 0), 52.25},
      // Slave 1 at half speed until 10; slots at 5 and 10. Best order: the unloaded slave first,
      // (T - 5) + (T - 10) = 100.
      {"loaded slave last", table({{0}, {1, 0}}, 10), {1, 1}, 100, costs(0, 5, 0, 0, 0), 57.5},
      // Little work: it could be done before the last slot arrives, so only a_P + gather and
      // the medium count: max(oracle 0.5, 2 + 0.25, 3).
      {"medium-bound", no_load(), {1, 1}, 1, costs(0, 1, 0, 0.25, 3), 3},
      {"last arrival bound", no_load(), {1, 1}, 1, costs(0, 1, 0, 0.25, 0), 2.25},
      // Unequal speeds, no load: the fast slave takes the first slot: 2(T - 1) + (T - 2) = 100.
      {"fast slave first", no_load(), {2, 1}, 100, costs(0, 1, 0, 0, 0), 104.0 / 3.0},
  };
  for (const auto& r : rows) {
    const auto b = comm_bound(r.load, r.speeds, 0.0, r.work, r.c);
    EXPECT_NEAR(b.end, r.expected, 1e-9) << r.what;
    EXPECT_GE(b.end, b.oracle_end) << r.what;
  }
}

TEST(CommBound, StartsAtTheLoopsStart) {
  const auto b = comm_bound(no_load(), std::vector<double>{1, 1}, 10.0, 100, costs(0, 1, 0, 0, 0));
  EXPECT_NEAR(b.end, 61.5, 1e-9);
  EXPECT_NEAR(b.last_arrival, 12.0, 1e-9);
  EXPECT_NEAR(b.lost_capacity, 3.0, 1e-9);
  EXPECT_TRUE(b.exact_assignment);
}

// Above 256 slaves the lost capacity is the cheaper bound sum_k min_i C_i(a_k); with equal
// slaves and no load it equals the exact one: sum_k a_k = w P (P + 1) / 2.
TEST(CommBound, ManySlavesUseTheCheaperAssignmentBound) {
  const std::size_t P = 300;
  const std::vector<double> speeds(P, 1.0);
  const double w = 0.01, work = 1e5;
  const auto b = comm_bound(no_load(), speeds, 0.0, work, costs(0, w, 0, 0, 0));
  EXPECT_FALSE(b.exact_assignment);
  const double L = w * static_cast<double>(P * (P + 1)) / 2.0;
  EXPECT_NEAR(b.lost_capacity, L, 1e-6);
  EXPECT_NEAR(b.end, (work + L) / static_cast<double>(P), 1e-6);
}

TEST(CommBound, RejectsBadInput) {
  const std::vector<double> speeds{1, 1};
  EXPECT_THROW(comm_bound(no_load(), speeds, 0, 10, costs(-1, 0, 0, 0, 0)), std::invalid_argument);
  EXPECT_THROW(comm_bound(no_load(), {}, 0, 10, costs(0, 0, 0, 0, 0)), std::invalid_argument);
  EXPECT_THROW(comm_bound(no_load(), std::vector<double>{1, 0}, 0, 10, costs(0, 0, 0, 0, 0)),
               std::invalid_argument);
}

TEST(MinAssignment, HandComputedCases) {
  struct row {
    const char* what;
    std::vector<std::vector<double>> cost;
    double expected;
  };
  const std::vector<row> rows{
      {"empty", {}, 0},
      {"one", {{7}}, 7},
      {"diagonal is not best", {{4, 1, 3}, {2, 0, 5}, {3, 2, 2}}, 5},
      {"ties", {{1, 1}, {1, 1}}, 2},
      {"negative costs", {{-1, 0}, {0, -3}}, -4},
  };
  for (const auto& r : rows) EXPECT_DOUBLE_EQ(min_assignment(r.cost), r.expected) << r.what;
  EXPECT_THROW(min_assignment({{1, 2}, {3}}), std::invalid_argument);
}

// Against every permutation on random 6 x 6 matrices.
TEST(MinAssignment, MatchesBruteForce) {
  std::mt19937 gen(42);
  std::uniform_real_distribution<double> u(0.0, 10.0);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 6;
    std::vector<std::vector<double>> c(n, std::vector<double>(n));
    for (auto& r : c)
      for (auto& x : r) x = u(gen);
    std::vector<std::size_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    double best = 1e300;
    do {
      double s = 0;
      for (std::size_t i = 0; i < n; ++i) s += c[i][perm[i]];
      best = std::min(best, s);
    } while (std::next_permutation(perm.begin(), perm.end()));
    EXPECT_NEAR(min_assignment(c), best, 1e-9) << "trial " << trial;
  }
}

}  // namespace
