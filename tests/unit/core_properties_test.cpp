// Property tests of the pure core over many random cases from a fixed-seed generator: plans keep
// every iteration owned exactly once and move work only from over- to under-assigned slaves,
// rounding never loses or invents iterations, and the profitability boundary sits at 10%.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "dlb/core/cost_model.hpp"
#include "dlb/core/distribution.hpp"
#include "dlb/core/groups.hpp"
#include "dlb/core/redistribution.hpp"

namespace dlb::core {
namespace {

// A random state in the middle of a run: [0, I) cut into chunks dealt to random slaves in random
// order (as after earlier moves), and a random prefix of each slave's list already done.
struct random_state {
  std::int64_t iterations = 0;
  std::vector<range_list> done;
  std::vector<range_list> remaining;
};

random_state make_state(std::mt19937& gen) {
  random_state st;
  const std::size_t p = std::uniform_int_distribution<std::size_t>(1, 9)(gen);
  st.iterations = std::uniform_int_distribution<std::int64_t>(0, 300)(gen);
  std::vector<range_list> held(p);
  std::int64_t begin = 0;
  while (begin < st.iterations) {
    const std::int64_t end =
        std::min(st.iterations, begin + std::uniform_int_distribution<std::int64_t>(1, 40)(gen));
    held[std::uniform_int_distribution<std::size_t>(0, p - 1)(gen)].push_back({begin, end});
    begin = end;
  }
  for (auto& list : held) std::shuffle(list.begin(), list.end(), gen);
  for (const auto& list : held) {
    const std::int64_t n = iteration_count(list);
    const range_split split =
        split_front(list, std::uniform_int_distribution<std::int64_t>(0, n)(gen));
    st.done.push_back(split.front);
    st.remaining.push_back(split.back);
  }
  return st;
}

std::vector<double> random_speeds(std::mt19937& gen, std::size_t p) {
  std::vector<double> speeds(p);
  for (auto& s : speeds) {
    // One slave in five did nothing since the last synchronization.
    s = std::uniform_int_distribution<int>(0, 4)(gen) == 0
            ? 0.0
            : std::uniform_real_distribution<double>(0.05, 20.0)(gen);
  }
  return speeds;
}

TEST(Properties, EqualBlocksPartitionTheLoop) {
  std::mt19937 gen(1);
  for (int trial = 0; trial < 500; ++trial) {
    const std::int64_t n = std::uniform_int_distribution<std::int64_t>(0, 5000)(gen);
    const std::size_t p = std::uniform_int_distribution<std::size_t>(1, 64)(gen);
    const distribution d = equal_blocks(n, p);
    ASSERT_TRUE(owns_each_once(d));
    const auto counts = iteration_counts(d.slaves);
    const auto [lo, hi] = std::minmax_element(counts.begin(), counts.end());
    EXPECT_LE(*hi - *lo, 1);
    EXPECT_TRUE(std::is_sorted(counts.rbegin(), counts.rend()));  // the remainder goes first
  }
}

TEST(Properties, ProportionalCountsNeitherLoseNorInventIterations) {
  std::mt19937 gen(2);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t p = std::uniform_int_distribution<std::size_t>(1, 16)(gen);
    const std::vector<double> speeds = random_speeds(gen, p);
    const std::int64_t total = std::uniform_int_distribution<std::int64_t>(0, 100000)(gen);
    const std::vector<std::int64_t> counts = proportional_counts(speeds, total);
    ASSERT_EQ(counts.size(), p);
    std::int64_t sum = 0;
    double speed_sum = 0.0;
    for (const double s : speeds) speed_sum += s;
    for (std::size_t i = 0; i < p; ++i) {
      EXPECT_GE(counts[i], 0);
      sum += counts[i];
      if (speed_sum > 0.0) {
        // Largest remainder keeps each count within one of its exact quota.
        const double quota = speeds[i] / speed_sum * static_cast<double>(total);
        EXPECT_LT(std::abs(static_cast<double>(counts[i]) - quota), 1.0 + 1e-6);
        if (speeds[i] == 0.0) {
          EXPECT_EQ(counts[i], 0);
        }
      }
    }
    EXPECT_EQ(sum, total);
  }
}

TEST(Properties, PlansKeepEveryIterationOwnedOnceAndMoveOnlyFromOverToUnder) {
  std::mt19937 gen(3);
  for (int trial = 0; trial < 3000; ++trial) {
    const random_state st = make_state(gen);
    const std::size_t p = st.remaining.size();
    const std::vector<std::int64_t> before = iteration_counts(st.remaining);
    const std::int64_t gamma = total_iterations(st.remaining);
    const std::vector<std::int64_t> target = proportional_counts(random_speeds(gen, p), gamma);
    const movement_plan plan = plan_movement(st.remaining, target);
    const std::vector<range_list> after = apply_plan(st.remaining, plan);

    // Done and remaining work together still own the loop exactly once.
    distribution whole{st.iterations, st.done};
    for (std::size_t i = 0; i < p; ++i) {
      whole.slaves[i].insert(whole.slaves[i].end(), after[i].begin(), after[i].end());
    }
    ASSERT_TRUE(owns_each_once(whole)) << "trial " << trial;
    EXPECT_EQ(iteration_counts(after), target);

    std::int64_t moved = 0;
    std::vector<bool> sends(p, false), receives(p, false);
    std::vector<std::int64_t> given(p, 0);
    std::vector<range_list> shipped(p);
    for (const auto& t : plan.transfers) {
      EXPECT_GT(before[t.from], target[t.from]);  // over-assigned
      EXPECT_LT(before[t.to], target[t.to]);      // under-assigned
      EXPECT_GT(t.count, 0);
      EXPECT_EQ(iteration_count(t.ranges), t.count);
      sends[t.from] = true;
      receives[t.to] = true;
      given[t.from] += t.count;
      shipped[t.from].insert(shipped[t.from].end(), t.ranges.begin(), t.ranges.end());
      moved += t.count;
    }
    for (std::size_t i = 0; i < p; ++i) {
      EXPECT_FALSE(sends[i] && receives[i]);
      // Senders ship exactly their surplus, taken from the end of their work: they keep the front.
      if (sends[i]) {
        EXPECT_EQ(given[i], before[i] - target[i]);
        EXPECT_EQ(normalized(shipped[i]), normalized(split_back(st.remaining[i], given[i]).back));
        EXPECT_EQ(normalized(after[i]), normalized(split_front(st.remaining[i], target[i]).front));
      }
    }
    EXPECT_EQ(plan.alpha, moved);
    EXPECT_EQ(plan.alpha, work_to_move(before, target));
    EXPECT_EQ(plan.beta, plan.transfers.size());
    // The greedy pairing never needs more than senders + receivers - 1 messages.
    const auto senders = std::count(sends.begin(), sends.end(), true);
    const auto receivers = std::count(receives.begin(), receives.end(), true);
    if (!plan.transfers.empty()) {
      EXPECT_LE(plan.beta, static_cast<std::size_t>(senders + receivers - 1));
    }
  }
}

TEST(Properties, DecisionsAreConsistentWithTheirReasons) {
  std::mt19937 gen(4);
  for (int trial = 0; trial < 3000; ++trial) {
    const random_state st = make_state(gen);
    const std::size_t p = st.remaining.size();
    const std::vector<double> speeds = random_speeds(gen, p);
    balance_params params;
    params.threshold_iterations = std::uniform_int_distribution<std::int64_t>(0, 20)(gen);
    const balance_decision d = decide_balance(st.remaining, speeds, params);
    const std::vector<std::int64_t> gamma = iteration_counts(st.remaining);
    const std::int64_t total = total_iterations(st.remaining);
    if (total == 0) {
      EXPECT_EQ(d.reason, balance_reason::nothing_left);
      continue;
    }
    EXPECT_EQ(d.proposed, proportional_counts(speeds, total));
    EXPECT_EQ(d.alpha, work_to_move(gamma, d.proposed));
    switch (d.reason) {
      case balance_reason::nothing_left:
        ADD_FAILURE() << "work was left";
        break;
      case balance_reason::below_threshold:
        EXPECT_TRUE(d.alpha == 0 || d.alpha < params.threshold_iterations);
        EXPECT_TRUE(d.plan.transfers.empty());
        break;
      case balance_reason::not_profitable:
        EXPECT_GE(d.alpha, params.threshold_iterations);
        EXPECT_TRUE(std::isinf(d.finish_before) ||
                    d.finish_after > 0.9 * d.finish_before * (1 - 1e-9));
        EXPECT_TRUE(d.plan.transfers.empty());
        break;
      case balance_reason::moved:
        EXPECT_GE(d.alpha, params.threshold_iterations);
        EXPECT_GT(d.alpha, 0);
        EXPECT_LE(d.finish_after, 0.9 * d.finish_before * (1 + 1e-9));
        EXPECT_EQ(apply_plan(st.remaining, d.plan).size(), p);
        EXPECT_EQ(iteration_counts(apply_plan(st.remaining, d.plan)), d.proposed);
        break;
    }
  }
}

// Exact 10% improvements move, 9.99% ones do not, at any scale: remaining {0, 10 m} at speeds
// {a, 9 a} becomes {m, 9 m}, finishing at m/a instead of 10 m / (9 a): exactly 10% better.
// At speeds {0.0999 a, 0.9001 a}, remaining {0, 10000 m} becomes {999 m, 9001 m}, finishing at
// 10000 m / a instead of 10000 m / (0.9001 a): 9.99% better.
TEST(Properties, ProfitabilityBoundaryIsTenPercentAtAnyScale) {
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> scale(1e-3, 1e3);
  std::uniform_int_distribution<std::int64_t> multiple(1, 1000);
  for (int trial = 0; trial < 2000; ++trial) {
    const double a = scale(gen);
    const std::int64_t m = multiple(gen);
    const balance_decision ten =
        decide_balance(std::vector<std::int64_t>{0, 10 * m}, std::vector<double>{a, 9 * a});
    EXPECT_EQ(ten.reason, balance_reason::moved) << "a=" << a << " m=" << m;
    EXPECT_EQ(ten.proposed, (std::vector<std::int64_t>{m, 9 * m}));
    const balance_decision almost = decide_balance(std::vector<std::int64_t>{0, 10000 * m},
                                                   std::vector<double>{0.0999 * a, 0.9001 * a});
    EXPECT_EQ(almost.reason, balance_reason::not_profitable) << "a=" << a << " m=" << m;
  }
}

// The invariants of one prediction. Only active members (holding work) synchronize: a group
// with fewer than two of them never does. Under the stop rule balancing ends at the first
// synchronization that does not move work, every one before it moved, and Gamma falls each
// time; under the idle rule Gamma never grows. Costs never make a run shorter than its
// computation.
void check_model_invariants(const prediction& pr, const model_input& in, scheme s) {
  const std::size_t p = in.machine.base_speeds.size();
  ASSERT_EQ(pr.groups.size(), is_local(s) ? group_count(p, in.group_size) : 1u);
  const std::vector<std::int64_t> blocks = equal_block_counts(in.program.iterations, p);
  for (const auto& g : pr.groups) {
    std::size_t holding = 0;
    for (const std::size_t m : g.members) holding += blocks[m] > 0 ? 1 : 0;
    if (holding < 2) {
      EXPECT_EQ(g.synchronizations, 0u);
      continue;
    }
    ASSERT_GE(g.synchronizations, 1u);
    if (in.program.balance.no_move == after_no_move::stop) {
      if (g.syncs.back().reason == balance_reason::nothing_left) {
        EXPECT_EQ(g.syncs.back().remaining, 0);
      }
      for (std::size_t j = 0; j + 1 < g.syncs.size(); ++j) {
        EXPECT_EQ(g.syncs[j].reason, balance_reason::moved);
        EXPECT_GT(g.syncs[j].remaining, g.syncs[j + 1].remaining);  // Gamma falls each time
      }
    } else {
      for (std::size_t j = 0; j + 1 < g.syncs.size(); ++j)
        EXPECT_GE(g.syncs[j].remaining, g.syncs[j + 1].remaining);
    }
    for (const auto& rec : g.syncs) EXPECT_GE(rec.boundary, rec.first_done);
    EXPECT_LE(g.cost, g.finish - in.start_time + 1e-9);
  }
  EXPECT_GE(pr.total_time, pr.cost - 1e-9);
}

// The model: the global strategies are the local ones with K = P, and every prediction keeps
// the invariants above under both rules for a decision not to move.
TEST(Properties, ModelInvariants) {
  std::mt19937 gen(6);
  for (int trial = 0; trial < 300; ++trial) {
    model_input in;
    const std::size_t p = std::uniform_int_distribution<std::size_t>(1, 8)(gen);
    in.network.one_to_all = {{0.0, 0.002}};
    in.network.all_to_one = {{0.0, 0.002}};
    in.network.all_to_all = {{0.0, 0.0, 0.001}};
    in.program.iterations = std::uniform_int_distribution<std::int64_t>(1, 200)(gen);
    in.program.time_per_iteration = std::uniform_real_distribution<double>(0.01, 1.0)(gen);
    in.program.bytes_per_iteration = 400.0;
    in.program.distribution_cost = 0.001;
    for (std::size_t i = 0; i < p; ++i) {
      in.machine.base_speeds.push_back(std::uniform_real_distribution<double>(0.5, 2.0)(gen));
    }
    in.machine.load.seed = gen();
    in.machine.load.persistence = std::uniform_real_distribution<double>(0.5, 10.0)(gen);
    in.group_size = p;
    SCOPED_TRACE(testing::Message() << "trial " << trial << " P=" << p);

    const prediction gc = predict(scheme::gcdlb, in), lc = predict(scheme::lcdlb, in);
    const prediction gd = predict(scheme::gddlb, in), ld = predict(scheme::lddlb, in);
    EXPECT_DOUBLE_EQ(gc.total_time, lc.total_time);
    EXPECT_DOUBLE_EQ(gd.total_time, ld.total_time);

    in.group_size = std::uniform_int_distribution<std::size_t>(1, p)(gen);
    for (const after_no_move rule : {after_no_move::stop, after_no_move::idle}) {
      in.program.balance.no_move = rule;
      for (const scheme s : balancing_strategies) {
        SCOPED_TRACE(testing::Message() << to_string(s) << " after no move: " << to_string(rule));
        check_model_invariants(predict(s, in), in, s);
      }
    }
  }
}

}  // namespace
}  // namespace dlb::core
