// Table tests of the recovery's pure part (dlb/core/recovery.hpp): what is missing once the
// survivors have handed in, and how it is shared out.
#include <gtest/gtest.h>

#include <stdexcept>

#include "dlb/core/recovery.hpp"

namespace dlb::core {
namespace {

struct missing_case {
  std::int64_t iterations;
  std::vector<range_list> handed_in;
  range_list missing;
};

TEST(Recovery, MissingIterations) {
  const std::vector<missing_case> table = {
      {10, {}, {{0, 10}}},
      {10, {{{0, 10}}}, {}},
      {10, {{{0, 3}}, {{7, 10}}}, {{3, 7}}},
      // A lost slave's block, and the tail a sender shipped to it: two holes.
      {20, {{{0, 5}, {8, 10}}, {{15, 18}}}, {{5, 8}, {10, 15}, {18, 20}}},
      // Work order is not index order; touching pieces of two slaves leave no hole.
      {12, {{{6, 9}, {0, 2}}, {{2, 6}}, {{9, 11}}}, {{11, 12}}},
      // Empty ranges and ranges outside the loop are ignored.
      {5, {{{3, 3}, {4, 9}}, {{-3, 1}}}, {{1, 4}}},
      {0, {}, {}},
  };
  for (const auto& c : table)
    EXPECT_EQ(missing_iterations(c.iterations, c.handed_in), c.missing)
        << "I=" << c.iterations << " lists=" << c.handed_in.size();
}

TEST(Recovery, HandedInTwice) {
  EXPECT_FALSE(handed_in_twice({}));
  EXPECT_FALSE(handed_in_twice({{{0, 3}}, {{3, 5}}, {{5, 5}}}));
  EXPECT_TRUE(handed_in_twice({{{0, 3}}, {{2, 5}}}));
  EXPECT_TRUE(handed_in_twice({{{0, 3}, {1, 2}}}));
  EXPECT_FALSE(handed_in_twice({{{7, 9}, {0, 2}}, {{2, 7}}}));
}

struct share_case {
  range_list missing;
  std::vector<double> weights;
  std::vector<range_list> shares;
};

TEST(Recovery, ShareOut) {
  const std::vector<share_case> table = {
      {{{0, 9}}, {1, 1, 1}, {{{0, 3}}, {{3, 6}}, {{6, 9}}}},
      // Largest remainder; ties to the lower index.
      {{{0, 10}}, {1, 1, 1}, {{{0, 4}}, {{4, 7}}, {{7, 10}}}},
      // In proportion to the weights, across the holes, in their order.
      {{{5, 8}, {10, 15}, {18, 20}}, {3, 1}, {{{5, 8}, {10, 15}}, {{18, 20}}}},
      // Fewer iterations than survivors: some get nothing.
      {{{4, 6}}, {1, 1, 1}, {{{4, 5}}, {{5, 6}}, {}}},
      // Bad weights count as 0; all 0: equal.
      {{{0, 4}}, {0, -1, 2}, {{}, {}, {{0, 4}}}},
      {{{0, 4}}, {0, 0}, {{{0, 2}}, {{2, 4}}}},
      {{}, {1, 2}, {{}, {}}},
  };
  for (const auto& c : table) {
    const auto got = share_out(c.missing, c.weights);
    EXPECT_EQ(got, c.shares) << "weights " << c.weights.size();
    std::int64_t n = 0;
    for (const auto& s : got) n += iteration_count(s);
    EXPECT_EQ(n, iteration_count(c.missing));
  }
  EXPECT_THROW(share_out({{0, 3}}, {}), std::invalid_argument);
}

TEST(Recovery, ShareOutByWork) {
  // Iteration i costs 10 - i: [0, 10) holds 55. Equal weights: halves of 27.5 each; iteration 2
  // (cost 8, cumulative 19..27) has its middle at 23 < 27.5, iteration 3 (27..34) at 30.5.
  const auto tri = [](std::int64_t i) { return 10.0 - static_cast<double>(i); };
  EXPECT_EQ(share_out({{0, 10}}, {1, 1}, tri), (std::vector<range_list>{{{0, 3}}, {{3, 10}}}));
  // Twice as fast, twice the work: 36.7 of 55; iteration 4 (34..40) has its middle at 37.
  EXPECT_EQ(share_out({{0, 10}}, {2, 1}, tri), (std::vector<range_list>{{{0, 4}}, {{4, 10}}}));
  // Holes keep their order; uniform work is the count rule.
  const auto one = [](std::int64_t) { return 1.0; };
  EXPECT_EQ(share_out({{5, 8}, {10, 15}}, {1, 1}, one),
            (std::vector<range_list>{{{5, 8}, {10, 11}}, {{11, 15}}}));
  EXPECT_EQ(share_out({{5, 8}, {10, 15}}, {1, 1}, {}), share_out({{5, 8}, {10, 15}}, {1, 1}));
  // Zero work everywhere: by count.
  const auto none = [](std::int64_t) { return 0.0; };
  EXPECT_EQ(share_out({{0, 4}}, {1, 1}, none), (std::vector<range_list>{{{0, 2}}, {{2, 4}}}));
}

}  // namespace
}  // namespace dlb::core
