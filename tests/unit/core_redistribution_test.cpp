// Unit tests of the new distribution (eq. 1.3.3), the movement plan and the move decision.
// Every expected value is worked out by hand in the comment next to it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "dlb/core/redistribution.hpp"

namespace dlb::core {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(ProportionalCounts, RoundsByLargestRemainderWithoutLosingIterations) {
  struct row {
    const char* why;
    std::vector<double> speeds;
    std::int64_t total;
    std::vector<std::int64_t> expected;
  };
  const std::vector<row> table = {
      {"quotas 1,2,3,4 are whole", {1, 2, 3, 4}, 10, {1, 2, 3, 4}},
      {"2.5 each: two leftovers, ties to the lower slaves", {1, 1, 1, 1}, 10, {3, 3, 2, 2}},
      {"7.5 and 2.5: one leftover, tie to slave 0", {3, 1}, 10, {8, 2}},
      {"3.33 each: one leftover to slave 0", {1, 1, 1}, 10, {4, 3, 3}},
      {"4.67, 0, 2.33: leftover to the largest fraction", {2, 0, 1}, 7, {5, 0, 2}},
      {"1.25, 1.25, 2.5: leftover to the .5", {1, 1, 2}, 5, {1, 1, 3}},
      {"speeds only matter relatively", {0.2, 0.2, 0.4}, 5, {1, 1, 3}},
      {"quotas 1, 2, 7 that floating point may miss by an ulp", {0.1, 0.2, 0.7}, 10, {1, 2, 7}},
      {"one slave takes all", {5}, 9, {9}},
      {"nothing to distribute", {1, 3}, 0, {0, 0}},
      {"no speed at all: equal blocks, as at the start", {0, 0, 0}, 7, {3, 2, 2}},
      {"NaN and negative speeds count as zero", {std::nan(""), -1, 1}, 4, {0, 0, 4}},
      {"a slave that did nothing gets nothing", {0, 1, 1}, 5, {0, 3, 2}},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.why);
    EXPECT_EQ(proportional_counts(r.speeds, r.total), r.expected);
  }
}

TEST(ProportionalCounts, RejectsNoSlavesAndNegativeTotals) {
  EXPECT_THROW(proportional_counts({}, 3), std::invalid_argument);
  EXPECT_THROW(proportional_counts({1.0}, -1), std::invalid_argument);
}

TEST(WorkToMove, IsHalfTheAbsoluteDifference) {
  // |3-1| + |3-2| + |2-3| + |2-4| = 6, half is 3.
  EXPECT_EQ(work_to_move({3, 3, 2, 2}, {1, 2, 3, 4}), 3);
  EXPECT_EQ(work_to_move({5, 5}, {5, 5}), 0);
  EXPECT_THROW(work_to_move({1}, {1, 0}), std::invalid_argument);
}

TEST(PredictedFinish, IsTheSlowestSlave) {
  struct row {
    std::vector<std::int64_t> counts;
    std::vector<double> speeds;
    double expected;
  };
  const std::vector<row> table = {
      {{4, 2}, {2, 1}, 2.0},   // 4/2 and 2/1
      {{3, 9}, {1, 2}, 4.5},   // 9/2
      {{0, 3}, {0, 1}, 3.0},   // no work: finishes at 0, whatever its speed
      {{1, 0}, {0, 5}, kInf},  // work but no speed: never
      {{0, 0}, {0, 0}, 0.0},
  };
  for (const auto& r : table) EXPECT_EQ(predicted_finish(r.counts, r.speeds), r.expected);
}

TEST(PlanCounts, PairsSendersAndReceiversGreedilyInSlaveOrder) {
  struct row {
    const char* why;
    std::vector<std::int64_t> current;
    std::vector<std::int64_t> target;
    std::vector<transfer> expected;
    std::int64_t alpha;
  };
  const std::vector<row> table = {
      // Surpluses: 0 has 3, 2 has 2. Deficits: 1 needs 2, 3 needs 3.
      // 0 fills 1 (2), 0's last one goes to 3, then 2 gives 3 its other 2.
      {"two senders, two receivers",
       {5, 1, 4, 0},
       {2, 3, 2, 3},
       {{0, 1, 2, {}}, {0, 3, 1, {}}, {2, 3, 2, {}}},
       5},
      {"balanced: nothing moves", {2, 2}, {2, 2}, {}, 0},
      {"one sender feeds everybody", {6, 0, 0}, {2, 2, 2}, {{0, 1, 2, {}}, {0, 2, 2, {}}}, 4},
      {"the last slave sends", {0, 0, 6}, {2, 2, 2}, {{2, 0, 2, {}}, {2, 1, 2, {}}}, 4},
      {"a middle sender", {1, 4, 1}, {3, 0, 3}, {{1, 0, 2, {}}, {1, 2, 2, {}}}, 4},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.why);
    const movement_plan plan = plan_counts(r.current, r.target);
    ASSERT_EQ(plan.transfers.size(), r.expected.size());
    for (std::size_t k = 0; k < r.expected.size(); ++k) {
      EXPECT_EQ(plan.transfers[k].from, r.expected[k].from);
      EXPECT_EQ(plan.transfers[k].to, r.expected[k].to);
      EXPECT_EQ(plan.transfers[k].count, r.expected[k].count);
      EXPECT_TRUE(plan.transfers[k].ranges.empty());
    }
    EXPECT_EQ(plan.alpha, r.alpha);
    EXPECT_EQ(plan.beta, r.expected.size());
  }
}

TEST(PlanCounts, RejectsInconsistentInput) {
  EXPECT_THROW(plan_counts({3, 1}, {1, 1}), std::invalid_argument);   // totals differ
  EXPECT_THROW(plan_counts({3, -1}, {1, 1}), std::invalid_argument);  // negative
  EXPECT_THROW(plan_counts({3}, {1, 2}), std::invalid_argument);      // sizes differ
}

TEST(PlanMovement, SendersGiveTheEndOfTheirWork) {
  // Counts 5, 1, 4, 0 -> 2, 3, 2, 3 (as above). Slave 0 gives its last 3 ([2,5)): the first
  // receiver, slave 1, gets the front of that ([2,4)), slave 3 the rest ([4,5)). Slave 2 gives its
  // last 2 ([8,10)) to slave 3.
  const std::vector<range_list> remaining = {{{0, 5}}, {{5, 6}}, {{6, 10}}, {}};
  const movement_plan plan = plan_movement(remaining, {2, 3, 2, 3});
  ASSERT_EQ(plan.transfers.size(), 3u);
  EXPECT_EQ(plan.transfers[0].ranges, (range_list{{2, 4}}));
  EXPECT_EQ(plan.transfers[1].ranges, (range_list{{4, 5}}));
  EXPECT_EQ(plan.transfers[2].ranges, (range_list{{8, 10}}));
  EXPECT_EQ(plan.alpha, 5);
  EXPECT_EQ(plan.beta, 3u);

  const std::vector<range_list> after = apply_plan(remaining, plan);
  const std::vector<range_list> expected = {
      {{0, 2}}, {{5, 6}, {2, 4}}, {{6, 8}}, {{4, 5}, {8, 10}}};
  EXPECT_EQ(after, expected);
}

TEST(PlanMovement, TheEndIsTheEndInWorkOrder) {
  // Slave 0 works through 10, 11, 0, 1, 2 and gives away 4: 11, 0, 1, 2. Slave 1 needs one
  // (11), slave 2 three (0, 1, 2).
  const std::vector<range_list> remaining = {{{10, 12}, {0, 3}}, {}, {}};
  const movement_plan plan = plan_movement(remaining, {1, 1, 3});
  ASSERT_EQ(plan.transfers.size(), 2u);
  EXPECT_EQ(plan.transfers[0].ranges, (range_list{{11, 12}}));
  EXPECT_EQ(plan.transfers[1].ranges, (range_list{{0, 3}}));
  const std::vector<range_list> expected = {{{10, 11}}, {{11, 12}}, {{0, 3}}};
  EXPECT_EQ(apply_plan(remaining, plan), expected);
}

TEST(ApplyPlan, RejectsACountsOnlyPlan) {
  const std::vector<range_list> remaining = {{{0, 4}}, {}};
  EXPECT_THROW(apply_plan(remaining, plan_counts({4, 0}, {2, 2})), std::invalid_argument);
}

struct decide_row {
  const char* why;
  std::vector<std::int64_t> remaining;
  std::vector<double> speeds;
  balance_params params;
  balance_reason reason;
  std::vector<std::int64_t> proposed;
  std::int64_t alpha;
  double before;
  double after;
};
// Each outcome of decide_balance, with its reason.
const std::vector<decide_row> kDecideRows = {
    {"nothing left", {0, 0}, {1, 1}, {}, balance_reason::nothing_left, {0, 0}, 0, 0, 0},
    // Gamma 4 at equal speeds: 2 and 2; before 4/2 = 2 s, after 2/2 = 1 s: 50% better.
    {"imbalance worth moving", {0, 4}, {2, 2}, {}, balance_reason::moved, {2, 2}, 2, 2, 1},
    {"alpha 2 below a threshold of 3",
     {0, 4},
     {2, 2},
     {3, 0.10},
     balance_reason::below_threshold,
     {2, 2},
     2,
     2,
     1},
    {"alpha 2 at a threshold of 2 moves",
     {0, 4},
     {2, 2},
     {2, 0.10},
     balance_reason::moved,
     {2, 2},
     2,
     2,
     1},
    // Gamma 3 split 2:1 is what the slaves already hold.
    {"already balanced", {2, 1}, {2, 1}, {}, balance_reason::below_threshold, {2, 1}, 0, 1, 1},
    // Gamma 3 at speeds 1:2 -> quotas 1 and 2 -> proposed {1, 2}: alpha 1; before
    // max(2/1, 1/2) = 2, after max(1/1, 2/2) = 1.
    {"50% better", {2, 1}, {1, 2}, {}, balance_reason::moved, {1, 2}, 1, 2, 1},
    {"50% better but 60% asked",
     {2, 1},
     {1, 2},
     {1, 0.6},
     balance_reason::not_profitable,
     {1, 2},
     1,
     2,
     1},
    // Gamma 2 at equal speeds: quotas 2/3 each, the two leftovers to slaves 0 and 1 ->
    // {1, 1, 0}; alpha 1, but some slave still has one iteration: before 1, after 1.
    {"moving does not help",
     {0, 1, 1},
     {1, 1, 1},
     {},
     balance_reason::not_profitable,
     {1, 1, 0},
     1,
     1,
     1},
    // Gamma 6, speed 0 for slave 0 -> {0, 6}; before: slave 0 never finishes; after 6/2 = 3.
    {"work stuck on a slave that does nothing",
     {3, 3},
     {0, 2},
     {},
     balance_reason::moved,
     {0, 6},
     3,
     kInf,
     3},
    // No speed at all: equal split {3, 3}; nobody is predicted to finish either way.
    {"no speed information",
     {6, 0},
     {0, 0},
     {},
     balance_reason::not_profitable,
     {3, 3},
     3,
     kInf,
     kInf},
};

TEST(DecideBalance, GivesTheReasonForEveryOutcome) {
  for (const auto& r : kDecideRows) {
    SCOPED_TRACE(r.why);
    const balance_decision d = decide_balance(r.remaining, r.speeds, r.params);
    EXPECT_EQ(d.reason, r.reason) << to_string(d.reason);
    if (r.reason != balance_reason::nothing_left) {
      EXPECT_EQ(d.proposed, r.proposed);
      EXPECT_EQ(d.alpha, r.alpha);
      EXPECT_EQ(d.finish_before, r.before);
      EXPECT_EQ(d.finish_after, r.after);
    }
    if (r.reason == balance_reason::moved) {
      EXPECT_EQ(d.plan.alpha, r.alpha);
    } else {
      EXPECT_TRUE(d.plan.transfers.empty());
    }
  }
}

// Section 1.2: move only if the predicted finish time improves by at least 10%.
TEST(DecideBalance, TheProfitabilityBoundaryIsExactlyTenPercent) {
  struct row {
    const char* why;
    std::vector<std::int64_t> remaining;
    std::vector<double> speeds;
    balance_reason reason;
  };
  const std::vector<row> table = {
      // Gamma 10 at speeds 1:9 -> {1, 9}. before 10/9, after max(1/1, 9/9) = 1: 1 - 9/10 = 10%.
      {"10% with small counts", {0, 10}, {1, 9}, balance_reason::moved},
      // Gamma 10000 at 0.1:0.9 -> {1000, 9000}: before 10000/0.9, after 10000: 10%.
      {"10% with large counts", {0, 10000}, {0.1, 0.9}, balance_reason::moved},
      // Gamma 10000 at 0.0999:0.9001 -> {999, 9001}: before 10000/0.9001, after
      // max(999/0.0999, 9001/0.9001) = 10000: 1 - 0.9001 = 9.99%.
      {"9.99%", {0, 10000}, {0.0999, 0.9001}, balance_reason::not_profitable},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.why);
    EXPECT_EQ(decide_balance(r.remaining, r.speeds).reason, r.reason);
  }
  // The same 10% case against thresholds either side of it.
  EXPECT_EQ(decide_balance({0, 10}, {1, 9}, {1, 0.10}).reason, balance_reason::moved);
  EXPECT_EQ(decide_balance({0, 10}, {1, 9}, {1, 0.1001}).reason, balance_reason::not_profitable);
  EXPECT_EQ(decide_balance({0, 10}, {1, 9}, {1, 0.0999}).reason, balance_reason::moved);
}

TEST(DecideBalance, WithRangesPlansConcreteIterations) {
  // Slave 1 holds [4, 8) and gives its last two, [6, 8), to slave 0.
  const std::vector<range_list> remaining = {{}, {{4, 8}}};
  const balance_decision d = decide_balance(remaining, {2.0, 2.0});
  ASSERT_EQ(d.reason, balance_reason::moved);
  ASSERT_EQ(d.plan.transfers.size(), 1u);
  EXPECT_EQ(d.plan.transfers[0].from, 1u);
  EXPECT_EQ(d.plan.transfers[0].to, 0u);
  EXPECT_EQ(d.plan.transfers[0].ranges, (range_list{{6, 8}}));
}

TEST(BalanceReason, HasNames) {
  EXPECT_EQ(to_string(balance_reason::moved), "moved");
  EXPECT_EQ(to_string(balance_reason::below_threshold), "below threshold");
  EXPECT_EQ(to_string(balance_reason::not_profitable), "not profitable");
  EXPECT_EQ(to_string(balance_reason::nothing_left), "nothing left");
}

}  // namespace
}  // namespace dlb::core

namespace {

TEST(TransfersTo, CountsTheTransfersAddressedToEachReceiver) {
  using dlb::core::transfer;
  const std::vector<transfer> t{{0, 2, 5, {}}, {1, 2, 3, {}}, {1, 3, 1, {}}, {4, 0, 2, {}}};
  struct row {
    std::size_t receiver;
    int expected;
  };
  for (const row& r : std::vector<row>{{2, 2}, {3, 1}, {0, 1}, {1, 0}, {4, 0}, {9, 0}})
    EXPECT_EQ(dlb::core::transfers_to(t, r.receiver), r.expected) << "receiver " << r.receiver;
  EXPECT_EQ(dlb::core::transfers_to({}, 0), 0);
}

}  // namespace
