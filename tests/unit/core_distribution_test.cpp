// Unit tests of iteration ownership: equal blocks, counting, the exactly-once check, splitting.
#include <gtest/gtest.h>

#include <stdexcept>

#include "dlb/core/distribution.hpp"

namespace dlb::core {
namespace {

TEST(EqualBlockCounts, SpreadsTheRemainderOverTheFirstSlaves) {
  struct row {
    std::int64_t iterations;
    std::size_t slaves;
    std::vector<std::int64_t> expected;
  };
  const std::vector<row> table = {
      {8, 4, {2, 2, 2, 2}},                            // divides evenly
      {10, 4, {3, 3, 2, 2}},                           // 10 = 4*2 + 2
      {3, 5, {1, 1, 1, 0, 0}},                         // fewer iterations than slaves
      {0, 3, {0, 0, 0}},                               // empty loop
      {7, 1, {7}},                                     // one slave holds everything
      {1600, 16, std::vector<std::int64_t>(16, 100)},  // MXM, n = 1600 on 16 slaves
  };
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message() << "I=" << r.iterations << " P=" << r.slaves);
    EXPECT_EQ(equal_block_counts(r.iterations, r.slaves), r.expected);
  }
}

TEST(EqualBlockCounts, RejectsNoSlavesAndNegativeLoops) {
  EXPECT_THROW(equal_block_counts(4, 0), std::invalid_argument);
  EXPECT_THROW(equal_block_counts(-1, 2), std::invalid_argument);
}

TEST(EqualBlocks, GivesConsecutiveBlocksInSlaveOrder) {
  const distribution d = equal_blocks(10, 4);
  EXPECT_EQ(d.iterations, 10);
  const std::vector<range_list> expected = {{{0, 3}}, {{3, 6}}, {{6, 8}}, {{8, 10}}};
  EXPECT_EQ(d.slaves, expected);
  EXPECT_TRUE(owns_each_once(d));
}

TEST(BlocksOf, StartsAtFirstAndGivesEmptyBlocksNoRange) {
  const std::vector<range_list> expected = {{{5, 7}}, {}, {{7, 10}}};
  EXPECT_EQ(blocks_of({2, 0, 3}, 5), expected);
}

TEST(Counting, CountsEveryNonEmptyRange) {
  struct row {
    range_list ranges;
    std::int64_t expected;
  };
  const std::vector<row> table = {
      {{}, 0},
      {{{0, 4}}, 4},
      {{{10, 12}, {0, 3}}, 5},
      {{{3, 3}, {7, 5}, {1, 2}}, 1},  // empty and inverted ranges hold nothing
  };
  for (const auto& r : table) EXPECT_EQ(iteration_count(r.ranges), r.expected);

  const std::vector<range_list> slaves = {{{0, 4}}, {}, {{10, 12}, {4, 7}}};
  EXPECT_EQ(iteration_counts(slaves), (std::vector<std::int64_t>{4, 0, 5}));
  EXPECT_EQ(total_iterations(slaves), 9);
}

TEST(OwnsEachOnce, AcceptsExactlyThePartitionsOfTheLoop) {
  struct row {
    const char* what;
    distribution d;
    bool expected;
  };
  const std::vector<row> table = {
      {"blocks", {6, {{{0, 3}}, {{3, 6}}}}, true},
      {"several ranges, any order", {6, {{{4, 6}, {0, 1}}, {{1, 4}}}}, true},
      {"empty ranges ignored", {4, {{{0, 4}, {2, 2}}, {{9, 9}}}}, true},
      {"empty loop, nothing held", {0, {{}, {}}}, true},
      {"gap", {6, {{{0, 2}}, {{3, 6}}}}, false},
      {"overlap", {6, {{{0, 4}}, {{3, 6}}}}, false},
      {"same iteration twice on one slave", {3, {{{0, 2}, {1, 3}}}}, false},
      {"missing the end", {6, {{{0, 5}}}}, false},
      {"beyond the end", {6, {{{0, 7}}}}, false},
      {"negative iterations", {6, {{{-1, 6}}}}, false},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(r.what);
    EXPECT_EQ(owns_each_once(r.d), r.expected);
  }
}

TEST(Normalized, SortsMergesAndDropsEmpties) {
  EXPECT_EQ(normalized({{5, 7}, {0, 2}, {2, 3}, {4, 4}, {6, 9}}), (range_list{{0, 3}, {5, 9}}));
  EXPECT_EQ(normalized({}), range_list{});
}

TEST(Split, FrontAndBackFollowWorkOrder) {
  // Work order: 10, 11, 0, 1, 2.
  const range_list ranges = {{10, 12}, {0, 3}};
  struct row {
    std::int64_t n;
    range_list front_of_front_split;
    range_list back_of_front_split;
    range_list front_of_back_split;
    range_list back_of_back_split;
  };
  const std::vector<row> table = {
      {0, {}, {{10, 12}, {0, 3}}, {{10, 12}, {0, 3}}, {}},
      {1, {{10, 11}}, {{11, 12}, {0, 3}}, {{10, 12}, {0, 2}}, {{2, 3}}},
      {2, {{10, 12}}, {{0, 3}}, {{10, 12}, {0, 1}}, {{1, 3}}},
      {4, {{10, 12}, {0, 2}}, {{2, 3}}, {{10, 11}}, {{11, 12}, {0, 3}}},
      {5, {{10, 12}, {0, 3}}, {}, {}, {{10, 12}, {0, 3}}},
      {9, {{10, 12}, {0, 3}}, {}, {}, {{10, 12}, {0, 3}}},   // clamped to the count
      {-2, {}, {{10, 12}, {0, 3}}, {{10, 12}, {0, 3}}, {}},  // clamped to 0
  };
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message() << "n=" << r.n);
    const range_split f = split_front(ranges, r.n);
    EXPECT_EQ(f.front, r.front_of_front_split);
    EXPECT_EQ(f.back, r.back_of_front_split);
    const range_split b = split_back(ranges, r.n);
    EXPECT_EQ(b.front, r.front_of_back_split);
    EXPECT_EQ(b.back, r.back_of_back_split);
  }
}

}  // namespace
// What a sender still holds of the iterations it was told to ship, and what it keeps.
TEST(RangeLists, IntersectionAndWithoutKeepTheWorkOrder) {
  struct row {
    range_list ranges, other, inside, outside;
  };
  const std::vector<row> table = {
      {{{0, 10}}, {{6, 10}}, {{6, 10}}, {{0, 6}}},  // a tail
      {{{4, 10}}, {{2, 10}}, {{4, 10}}, {{4, 4}}},  // all of it: empty at its begin
      {{{8, 10}, {0, 3}}, {{2, 9}}, {{8, 9}, {2, 3}}, {{9, 10}, {0, 2}}},  // work order kept
      {{{0, 10}}, {{3, 5}, {7, 8}}, {{3, 5}, {7, 8}}, {{0, 3}, {5, 7}, {8, 10}}},
      {{{0, 5}}, {}, {}, {{0, 5}}},
      {{{5, 5}, {10, 12}}, {{10, 11}}, {{10, 11}}, {{5, 5}, {11, 12}}},
  };
  for (const auto& r : table) {
    EXPECT_EQ(intersection(r.ranges, r.other), r.inside);
    EXPECT_EQ(without(r.ranges, r.other), r.outside);
    EXPECT_EQ(iteration_count(intersection(r.ranges, r.other)) +
                  iteration_count(without(r.ranges, r.other)),
              iteration_count(r.ranges));
  }
}

}  // namespace dlb::core
