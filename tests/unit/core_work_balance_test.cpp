// Unit tests of the decision in work: speeds in work per second, the remaining work
// split in proportion to them, moves sized and chosen by the costs of the iterations that change
// hands, and the start in blocks of equal work. Every expected value is worked out by hand in the
// comment next to it.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "dlb/core/redistribution.hpp"

namespace dlb::core {
namespace {

// Iteration k costs k + 1 (a linear loop): [0, 4) costs 1 + 2 + 3 + 4 = 10.
const iteration_cost linear = [](std::int64_t k) { return static_cast<double>(k + 1); };
// Costs from a table.
iteration_cost table_cost(std::vector<double> c) {
  return [c = std::move(c)](std::int64_t k) { return c[static_cast<std::size_t>(k)]; };
}

TEST(WorkOf, SumsTheCostsOrCountsWithoutThem) {
  EXPECT_DOUBLE_EQ(work_of({{0, 4}}, linear), 10.0);
  EXPECT_DOUBLE_EQ(work_of({{6, 8}, {0, 1}}, linear), 7.0 + 8.0 + 1.0);
  EXPECT_DOUBLE_EQ(work_of({{6, 8}, {0, 1}}, {}), 3.0);  // no costs: iterations
  EXPECT_DOUBLE_EQ(work_of({{3, 3}}, linear), 0.0);
}

TEST(SameCost, IsTrueForUniformCostsAndNoCosts) {
  EXPECT_TRUE(same_cost({{{0, 5}}, {{7, 9}}}, [](std::int64_t) { return 0.25; }));
  EXPECT_TRUE(same_cost({{{0, 5}}}, {}));
  EXPECT_TRUE(same_cost({{{2, 3}}}, linear));  // one iteration
  EXPECT_FALSE(same_cost({{{0, 2}}}, linear));
  EXPECT_FALSE(same_cost({{{0, 1}}, {{5, 6}}}, linear));  // across slaves too
}

TEST(ProportionalWork, SplitsTheTotalByTheSpeeds) {
  EXPECT_EQ(proportional_work({1, 3}, 8.0), (std::vector<double>{2.0, 6.0}));
  EXPECT_EQ(proportional_work({0, 2}, 5.0), (std::vector<double>{0.0, 5.0}));  // no speed, none
  EXPECT_EQ(proportional_work({0, 0}, 5.0), (std::vector<double>{2.5, 2.5}));  // no information
  EXPECT_THROW(proportional_work({}, 1.0), std::invalid_argument);
  EXPECT_THROW(proportional_work({1.0}, -1.0), std::invalid_argument);
}

struct plan_row {
  const char* why;
  std::vector<range_list> remaining;
  std::vector<double> target;
  iteration_cost cost;
  std::vector<transfer> expected;
};
// plan_work's choices, each with why.
const std::vector<plan_row> kPlanRows = {
    {"slave 0 holds [0,4) (1+2+3+4 = 10), target 5 and 5: surplus 5; from the end 4 (dist 1) "
     "beats 4+3 (dist 2), so it gives [3,4)",
     {{{0, 4}}, {}},
     {5, 5},
     linear,
     {{0, 1, 1, {{3, 4}}}}},
    {"surplus 7: 4+3 = 7 exactly", {{{0, 4}}, {}}, {3, 7}, linear, {{0, 1, 2, {{2, 4}}}}},
    {"a tie stays below: surplus 5.5 between 4 (1.5 short) and 7 (1.5 over) gives 4",
     {{{0, 4}}, {}},
     {4.5, 5.5},
     linear,
     {{0, 1, 1, {{3, 4}}}}},
    {"one expensive iteration is not split: costs 1,1,1,50, surplus 26.5: 50 is 23.5 over, 0 is "
     "26.5 short, so the 50 goes",
     {{{0, 4}}, {}},
     {26.5, 26.5},
     table_cost({1, 1, 1, 50}),
     {{0, 1, 1, {{3, 4}}}}},
    {"surplus 20 of costs 1,1,1,50: the 50 alone is 30 over, nothing is 20 short: nothing moves",
     {{{0, 4}}, {}},
     {33, 20},
     table_cost({1, 1, 1, 50}),
     {}},
    {"two receivers: slave 0 gives [4,8) (5+6+7+8 = 26 of its 36, target 10); slave 1 "
     "(deficit 13) takes 5+6 = 11 (dist 2) rather than 18 (dist 5); slave 2, the last, takes "
     "the rest",
     {{{0, 8}}, {}, {}},
     {10, 13, 13},
     linear,
     {{0, 1, 2, {{4, 6}}}, {0, 2, 2, {{6, 8}}}}},
    {"two senders in slave order, pieces in pool order: slave 0 gives [2,3) (3 of 6, target 3), "
     "slave 1 gives [5,6) (6 of 15, target 9); slave 2 (deficit 9) takes both",
     {{{0, 3}}, {{3, 6}}, {}},
     {3, 9, 9},
     linear,
     {{0, 2, 1, {{2, 3}}}, {1, 2, 1, {{5, 6}}}}},
    {"work order, not index order: slave 0 works through [4,6) then [0,2); its end is [0,2) "
     "(1+2); surplus 3 of (5+6+1+2 = 14, target 11)",
     {{{4, 6}, {0, 2}}, {}},
     {11, 3},
     linear,
     {{0, 1, 2, {{0, 2}}}}},
    {"balanced within an iteration: nothing moves", {{{0, 2}}, {{2, 3}}}, {3, 3}, linear, {}},
};

TEST(PlanWork, GivesTheEndNearestTheSurplusAndFillsReceiversNearestTheirDeficit) {
  for (const auto& r : kPlanRows) {
    SCOPED_TRACE(r.why);
    const movement_plan p = plan_work(r.remaining, r.target, r.cost);
    ASSERT_EQ(p.transfers.size(), r.expected.size());
    std::int64_t alpha = 0;
    for (std::size_t k = 0; k < r.expected.size(); ++k) {
      EXPECT_EQ(p.transfers[k].from, r.expected[k].from) << k;
      EXPECT_EQ(p.transfers[k].to, r.expected[k].to) << k;
      EXPECT_EQ(p.transfers[k].count, r.expected[k].count) << k;
      EXPECT_EQ(p.transfers[k].ranges, r.expected[k].ranges) << k;
      alpha += r.expected[k].count;
    }
    EXPECT_EQ(p.alpha, alpha);
    EXPECT_EQ(p.beta, r.expected.size());
    // The plan applies: senders keep their front, every iteration still held exactly once.
    const auto after = apply_plan(r.remaining, p);
    EXPECT_EQ(total_iterations(after), total_iterations(r.remaining));
  }
  EXPECT_THROW(plan_work({{}, {}}, {1.0}, linear), std::invalid_argument);
}

TEST(DecideBalanceInWork, SplitsWorkWhereIterationsCostDifferentAmounts) {
  // Two equal machines (speed 1 work/s). Slave 0 holds [0,4) (costs 1..4 = 10), slave 1 holds
  // [4,8) (5..8 = 26): equal iterations, unequal work. Targets 18 each: slave 1's surplus 8 is
  // nearest 8 (its last iteration), so [7,8) moves. Finish 26 -> max(18, 18) = 18: 31% better.
  const std::vector<range_list> remaining = {{{0, 4}}, {{4, 8}}};
  const balance_decision d = decide_balance(remaining, {1.0, 1.0}, {}, linear);
  EXPECT_EQ(d.reason, balance_reason::moved);
  EXPECT_EQ(d.proposed, (std::vector<std::int64_t>{5, 3}));
  EXPECT_EQ(d.alpha, 1);
  EXPECT_DOUBLE_EQ(d.finish_before, 26.0);
  EXPECT_DOUBLE_EQ(d.finish_after, 18.0);
  ASSERT_EQ(d.plan.transfers.size(), 1U);
  EXPECT_EQ(d.plan.transfers[0].ranges, (range_list{{7, 8}}));

  // The count rule on the same input sees 4 and 4 at equal speeds: nothing to move.
  const balance_decision by_count = decide_balance(
      remaining, {1.0, 1.0}, {1, 0.10, after_no_move::idle, balance_unit::iterations}, linear);
  EXPECT_EQ(by_count.reason, balance_reason::below_threshold);
  EXPECT_EQ(by_count.alpha, 0);
}

TEST(DecideBalanceInWork, SpeedsInWorkPerSecondAreNotFooledByCheapIterations) {
  // Slave 0 did 40 cheap iterations and slave 1 did 4 expensive ones, each 4 s of work in 2 s:
  // the same machine (2 work/s). The requester (slave 0) has nothing left; slave 1 holds [0,4)
  // (10). Targets 5 and 5: slave 1 gives [3,4) (nearest 5 from the end: 4). In iterations per
  // second slave 0 would look 10x faster (20 vs 2): quotas 3.64 and 0.36 of the 4 iterations,
  // the leftover to the larger fraction, so slave 0 would be given all 4.
  const std::vector<range_list> remaining = {{}, {{0, 4}}};
  const balance_decision d = decide_balance(remaining, {2.0, 2.0}, {}, linear);
  EXPECT_EQ(d.reason, balance_reason::moved);
  EXPECT_EQ(d.proposed, (std::vector<std::int64_t>{1, 3}));
  const balance_decision fooled = decide_balance(
      remaining, {20.0, 2.0}, {1, 0.10, after_no_move::idle, balance_unit::iterations}, linear);
  EXPECT_EQ(fooled.proposed, (std::vector<std::int64_t>{4, 0}));
}

TEST(DecideBalanceInWork, KeepsTheCountRuleWhereCostsAreEqual) {
  // Uniform costs (or none): exactly the count rule's decision, largest remainders included.
  const std::vector<range_list> remaining = {{{0, 10}}, {}, {}};
  const iteration_cost flat = [](std::int64_t) { return 0.05; };
  for (const iteration_cost& c : {flat, iteration_cost{}}) {
    const balance_decision d = decide_balance(remaining, {1.0, 1.0, 1.0}, {}, c);
    EXPECT_EQ(d.proposed, (std::vector<std::int64_t>{4, 3, 3}));
    EXPECT_EQ(d.reason, balance_reason::moved);
  }
}

TEST(DecideBalanceInWork, AppliesTheThresholdAndProfitabilityToTheMove) {
  const std::vector<range_list> remaining = {{{0, 4}}, {{4, 8}}};
  // The move is 1 iteration: a threshold of 2 iterations stops it.
  EXPECT_EQ(decide_balance(remaining, {1.0, 1.0}, {2, 0.10}, linear).reason,
            balance_reason::below_threshold);
  // 26 -> 18 is a 30.8% gain: profitable at 30%, not at 31%.
  EXPECT_EQ(decide_balance(remaining, {1.0, 1.0}, {1, 0.30}, linear).reason, balance_reason::moved);
  EXPECT_EQ(decide_balance(remaining, {1.0, 1.0}, {1, 0.31}, linear).reason,
            balance_reason::not_profitable);
  // Nothing left.
  EXPECT_EQ(decide_balance({{}, {}}, {1.0, 1.0}, {}, linear).reason, balance_reason::nothing_left);
}

TEST(ProportionalWorkCounts, StartsEqualMachinesWithEqualWork) {
  struct row {
    const char* why;
    std::int64_t iterations;
    std::vector<double> weights;
    iteration_cost cost;
    std::vector<std::int64_t> expected;
  };
  const std::vector<row> table = {
      {"linear [0,8): total 36, goals 18 (prefix 15 at 5, 21 at 6: 18 is a tie, lower) ",
       8,
       {1, 1},
       linear,
       {5, 3}},
      {"linear [0,4), 2 slaves: goal 5, prefixes 3 (k=2) and 6 (k=3): 6 is nearer",
       4,
       {1, 1},
       linear,
       {3, 1}},
      {"one iteration worth more than a share leaves a block empty: costs 1,1,50,1; goals 17.67 "
       "(prefix 2 at k=2 is 15.7 short, 52 at k=3 is 34.3 over: 2) and 35.33 (2 is 33.3 short, 52 "
       "is 16.7 over: 3)",
       4,
       {1, 1, 1},
       table_cost({1, 1, 50, 1}),
       {2, 1, 1}},
      {"weights 1 and 3 on linear [0,8): goal 9, prefixes 6 (k=3) and 10 (k=4): 10 is nearer",
       8,
       {1, 3},
       linear,
       {4, 4}},
      {"equal costs: the paper's equal blocks, remainder to the first",
       10,
       {1, 1, 1, 1},
       [](std::int64_t) { return 2.0; },
       {3, 3, 2, 2}},
      {"equal costs and weights 1, 3: proportional_counts", 10, {1, 3}, {}, {3, 7}},
      {"no costs: equal blocks", 7, {1, 1, 1}, {}, {3, 2, 2}},
      {"nothing to split", 0, {1, 1}, linear, {0, 0}},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.why);
    EXPECT_EQ(proportional_work_counts(r.iterations, r.weights, r.cost), r.expected);
  }
  EXPECT_THROW(proportional_work_counts(4, {}, linear), std::invalid_argument);
  EXPECT_THROW(proportional_work_counts(-1, {1, 1}, linear), std::invalid_argument);
  EXPECT_THROW(proportional_work_counts(4, {1, 0}, linear), std::invalid_argument);
}

TEST(BalanceUnit, HasNamesAndParses) {
  EXPECT_EQ(to_string(balance_unit::work), "work");
  EXPECT_EQ(to_string(balance_unit::iterations), "iterations");
  EXPECT_EQ(parse_balance_unit("work"), balance_unit::work);
  EXPECT_EQ(parse_balance_unit("iterations"), balance_unit::iterations);
  EXPECT_EQ(parse_balance_unit("bytes"), std::nullopt);
}

}  // namespace
}  // namespace dlb::core
