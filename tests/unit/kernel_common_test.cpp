// Unit tests of the pieces shared by the application kernels: the counter-based input
// generator, the bitonic pairing, and the result comparison.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>
#include <vector>

#include "apps/bitonic.hpp"
#include "apps/element_hash.hpp"
#include "apps/verify.hpp"

namespace {

TEST(KernelElementHash, IsAPureFunctionOfSeedArrayAndIndex) {
  EXPECT_EQ(apps::element_hash(7, apps::array_id::mxm_x, 123),
            apps::element_hash(7, apps::array_id::mxm_x, 123));
  EXPECT_NE(apps::element_hash(7, apps::array_id::mxm_x, 123),
            apps::element_hash(8, apps::array_id::mxm_x, 123));
  EXPECT_NE(apps::element_hash(7, apps::array_id::mxm_x, 123),
            apps::element_hash(7, apps::array_id::mxm_y, 123));
  EXPECT_NE(apps::element_hash(7, apps::array_id::mxm_x, 123),
            apps::element_hash(7, apps::array_id::mxm_x, 124));
  // Usable at compile time: the data are fixed by the code, not by a run.
  static_assert(
      apps::element_hash(1, apps::array_id::ac_b, 0) ==  // NOLINT(misc-redundant-expression)
      apps::element_hash(1, apps::array_id::ac_b, 0));
}

TEST(KernelElementHash, UniformValuesStayInRangeAndSpreadOut) {
  double sum = 0.0;
  const int count = 10000;
  for (int i = 0; i < count; ++i) {
    const double v =
        apps::element_uniform(3, apps::array_id::ac_c, i, apps::input_lo, apps::input_hi);
    ASSERT_GE(v, apps::input_lo);
    ASSERT_LT(v, apps::input_hi);
    sum += v;
  }
  EXPECT_NEAR(sum / count, 1.0, 0.01);  // mean of U[0.5, 1.5); sd of the mean is 0.003
}

// Every original index is covered exactly once, by the iteration iteration_of names.
TEST(KernelBitonic, CoversEachOriginalExactlyOnceForEvenAndOddCounts) {
  for (std::size_t count = 1; count <= 41; ++count) {
    std::vector<int> seen(count, 0);
    const std::size_t iterations = apps::bitonic::iteration_count(count);
    EXPECT_EQ(iterations, (count + 1) / 2) << count;
    for (std::size_t k = 0; k < iterations; ++k) {
      const apps::bitonic::pair p = apps::bitonic::originals(k, count);
      EXPECT_EQ(p.first + p.second, count - 1);
      ++seen[p.first];
      EXPECT_EQ(apps::bitonic::iteration_of(p.first, count), k);
      if (!p.single()) {
        ++seen[p.second];
        EXPECT_EQ(apps::bitonic::iteration_of(p.second, count), k);
      }
      // Only the middle of an odd count stands alone.
      EXPECT_EQ(p.single(), count % 2 == 1 && k == iterations - 1) << count << " " << k;
    }
    for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(seen[i], 1) << count << " " << i;
  }
}

TEST(KernelBitonic, HandCheckedPairs) {
  struct row {
    std::size_t k, count;
    apps::bitonic::pair expected;
  };
  const row rows[] = {
      {0, 6, {0, 5}}, {1, 6, {1, 4}}, {2, 6, {2, 3}},  // even: three pairs
      {0, 5, {0, 4}}, {1, 5, {1, 3}}, {2, 5, {2, 2}},  // odd: the middle alone
      {0, 1, {0, 0}},
  };
  for (const row& r : rows) EXPECT_EQ(apps::bitonic::originals(r.k, r.count), r.expected);
}

TEST(KernelVerify, ExactMatchPasses) {
  const std::vector<double> a = {1.0, 2.0, 3.0};
  const apps::verification v = apps::compare(a, a, 1e-12);
  EXPECT_TRUE(v.passed);
  EXPECT_EQ(v.max_abs_error, 0.0);
  EXPECT_EQ(v.max_rel_error, 0.0);
  EXPECT_EQ(v.compared, 3u);
  EXPECT_EQ(v.failures, 0u);
}

TEST(KernelVerify, ReportsWorstElementAndToleranceEdge) {
  const std::vector<double> want = {1.0, 2.0, 4.0};
  const std::vector<double> got = {1.0, 2.0 * (1 + 5e-13), 4.0 * (1 + 2e-12)};
  const apps::verification loose = apps::compare(got, want, 1e-11);
  EXPECT_TRUE(loose.passed);
  EXPECT_EQ(loose.worst_index, 2u);
  EXPECT_NEAR(loose.max_rel_error, 2e-12, 1e-15);
  const apps::verification tight = apps::compare(got, want, 1e-12);
  EXPECT_FALSE(tight.passed);
  EXPECT_EQ(tight.failures, 1u);
}

TEST(KernelVerify, NanIsAFailure) {
  const std::vector<double> want = {1.0, 2.0};
  const std::vector<double> got = {std::numeric_limits<double>::quiet_NaN(), 2.0};
  const apps::verification v = apps::compare(got, want, 1.0);
  EXPECT_FALSE(v.passed);
  EXPECT_EQ(v.worst_index, 0u);
  EXPECT_TRUE(std::isinf(v.max_rel_error));
}

TEST(KernelVerify, SizeMismatchThrows) {
  const std::vector<double> a = {1.0};
  const std::vector<double> b = {1.0, 2.0};
  EXPECT_THROW(apps::compare(a, b, 1e-12), std::invalid_argument);
}

TEST(KernelVerify, ToleranceGrowsWithChainLength) {
  EXPECT_DOUBLE_EQ(apps::relative_tolerance(0), 4 * std::numeric_limits<double>::epsilon());
  EXPECT_DOUBLE_EQ(apps::relative_tolerance(99), 400 * std::numeric_limits<double>::epsilon());
}

}  // namespace
