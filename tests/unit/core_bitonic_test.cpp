// Unit tests of bitonic pairing (0-based: new k pairs original k with n - 1 - k).
#include <gtest/gtest.h>

#include <stdexcept>

#include "dlb/core/bitonic.hpp"

namespace dlb::core {
namespace {

TEST(Bitonic, HalvesTheLoopRoundingUp) {
  struct row {
    std::int64_t n;
    std::int64_t expected;
  };
  const std::vector<row> table = {{0, 0}, {1, 1}, {2, 1}, {5, 3}, {6, 3}, {465, 233}};
  for (const auto& r : table) EXPECT_EQ(bitonic_iterations(r.n), r.expected) << "n=" << r.n;
  EXPECT_THROW(bitonic_iterations(-1), std::invalid_argument);
}

TEST(Bitonic, PairsMirrorIterationsAndLeavesTheOddMiddleAlone) {
  struct row {
    std::int64_t k;
    std::int64_t n;
    bitonic_pair expected;
  };
  const std::vector<row> table = {
      // n = 6, paper's 1-based pairs (1,6), (2,5), (3,4).
      {0, 6, {0, 5}},
      {1, 6, {1, 4}},
      {2, 6, {2, 3}},
      // n = 5: (1,5), (2,4), and 3 alone.
      {0, 5, {0, 4}},
      {2, 5, {2, std::nullopt}},
      {0, 1, {0, std::nullopt}},
      {0, 2, {0, 1}},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message() << "k=" << r.k << " n=" << r.n);
    EXPECT_EQ(bitonic_originals(r.k, r.n), r.expected);
  }
  EXPECT_THROW(bitonic_originals(3, 6), std::invalid_argument);
  EXPECT_THROW(bitonic_originals(-1, 6), std::invalid_argument);
}

TEST(Bitonic, IndexIsTheInverse) {
  struct row {
    std::int64_t original;
    std::int64_t n;
    std::int64_t expected;
  };
  const std::vector<row> table = {{0, 6, 0}, {5, 6, 0}, {3, 6, 2}, {2, 5, 2}, {4, 5, 0}, {0, 1, 0}};
  for (const auto& r : table) {
    EXPECT_EQ(bitonic_index(r.original, r.n), r.expected) << r.original << " of " << r.n;
  }
  EXPECT_THROW(bitonic_index(6, 6), std::invalid_argument);
}

TEST(Bitonic, EveryOriginalIterationAppearsInExactlyOnePair) {
  for (std::int64_t n = 0; n <= 21; ++n) {
    std::vector<int> seen(static_cast<std::size_t>(n), 0);
    for (std::int64_t k = 0; k < bitonic_iterations(n); ++k) {
      const bitonic_pair pair = bitonic_originals(k, n);
      ++seen[static_cast<std::size_t>(pair.first)];
      EXPECT_EQ(bitonic_index(pair.first, n), k);
      if (pair.second) {
        ++seen[static_cast<std::size_t>(*pair.second)];
        EXPECT_EQ(bitonic_index(*pair.second, n), k);
        // Triangular work x_i = a i + b: each pair sums to a (n - 1) + 2b (0-based i).
        EXPECT_EQ(pair.first + *pair.second, n - 1);
      }
    }
    for (const int count : seen) EXPECT_EQ(count, 1) << "n=" << n;
  }
}

}  // namespace
}  // namespace dlb::core
