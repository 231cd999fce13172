// Unit tests of the MXM kernel: a tiny hand-checked product, row-by-row computation in the
// scrambled order of a load-balancing runtime against the sequential reference, work counts,
// and verification.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "apps/mxm.hpp"
#include "kernel_test_support.hpp"

namespace {

using apps::mxm::problem;

TEST(KernelMxm, HandCheckedTwoByThreeTimesThreeByTwo) {
  const double x[] = {1, 2, 3, 4, 5, 6};     // 2 x 3
  const double y[] = {7, 8, 9, 10, 11, 12};  // 3 x 2
  double z[4] = {-1, -1, -1, -1};            // overwritten, not accumulated into
  apps::mxm::compute_rows(x, y, z, 2, 3, 2);
  EXPECT_EQ(z[0], 58.0);   // 1*7 + 2*9 + 3*11
  EXPECT_EQ(z[1], 64.0);   // 1*8 + 2*10 + 3*12
  EXPECT_EQ(z[2], 139.0);  // 4*7 + 5*9 + 6*11
  EXPECT_EQ(z[3], 154.0);  // 4*8 + 5*10 + 6*12
}

TEST(KernelMxm, GeneratorsAgreeWithMadeArrays) {
  const problem p{5, 3, 4, 11};
  const std::vector<double> x = apps::mxm::make_x(p);
  const std::vector<double> y = apps::mxm::make_y(p);
  ASSERT_EQ(x.size(), 15u);
  ASSERT_EQ(y.size(), 12u);
  std::vector<double> row(p.r);
  for (std::size_t i = 0; i < p.n; ++i) {
    apps::mxm::fill_x_row(p, i, row.data());
    for (std::size_t k = 0; k < p.r; ++k) {
      EXPECT_EQ(row[k], x[i * p.r + k]);
      EXPECT_EQ(apps::mxm::x_element(p, i, k), x[i * p.r + k]);
    }
  }
  for (std::size_t k = 0; k < p.r; ++k) {
    for (std::size_t j = 0; j < p.m; ++j) EXPECT_EQ(apps::mxm::y_element(p, k, j), y[k * p.m + j]);
  }
}

// Each range is run as a slave would: it regenerates (or would receive) its rows of X, computes
// its rows of Z locally, and the rows are gathered. The result must equal the reference exactly:
// same summation order per element.
TEST(KernelMxm, ScrambledRangesEqualReference) {
  const problem problems[] = {
      {3, 4, 5, 1}, {4, 4, 4, 2}, {5, 3, 7, 3}, {17, 9, 11, 4}, {64, 33, 20, 5}};
  for (const problem& p : problems) {
    const std::vector<double> y = apps::mxm::make_y(p);
    std::vector<double> z(p.n * p.m, std::numeric_limits<double>::quiet_NaN());
    for (const kernel_test::range& rg : kernel_test::scrambled_ranges(p.n, 5, 42)) {
      const std::size_t count = rg.end - rg.begin;
      std::vector<double> local_x(count * p.r);
      std::vector<double> local_z(count * p.m);
      for (std::size_t i = rg.begin; i < rg.end; ++i) {
        apps::mxm::fill_x_row(p, i, local_x.data() + (i - rg.begin) * p.r);
      }
      apps::mxm::compute_rows(local_x.data(), y.data(), local_z.data(), count, p.r, p.m);
      std::copy(local_z.begin(), local_z.end(), z.begin() + rg.begin * p.m);
    }
    const std::vector<double> ref = apps::mxm::reference(p);
    EXPECT_EQ(z, ref) << "n=" << p.n << " r=" << p.r << " m=" << p.m;
    const apps::verification v = apps::mxm::verify(p, z, ref);
    EXPECT_TRUE(v.passed);
    EXPECT_EQ(v.max_rel_error, 0.0);
    EXPECT_EQ(v.compared, p.n * p.m);
  }
}

TEST(KernelMxm, WorkCountsMatchClosedForms) {
  struct row {
    problem p;
    std::uint64_t per_iteration, total;
  };
  const row rows[] = {
      {{3, 4, 5, 1}, 20, 60},
      {{4, 4, 4, 1}, 16, 64},
      {{5, 3, 7, 1}, 21, 105},
      {{400, 400, 400, 1}, 160000, 64000000},     // Table 1.1, first row
      {{3200, 800, 400, 1}, 320000, 1024000000},  // Table 1.1, last row
  };
  for (const row& r : rows) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < r.p.n; ++i) {
      EXPECT_EQ(apps::mxm::ops(r.p, i), r.per_iteration);
      sum += apps::mxm::ops(r.p, i);
    }
    EXPECT_EQ(sum, r.total);
    EXPECT_EQ(apps::mxm::total_ops(r.p), r.total);
    EXPECT_EQ(apps::mxm::iterations(r.p), r.p.n);
    EXPECT_EQ(apps::mxm::doubles_per_iteration(r.p), r.p.r);  // one row of X
  }
}

TEST(KernelMxm, VerificationDetectsOneCorruptedElement) {
  const problem p{5, 4, 3, 9};
  const std::vector<double> ref = apps::mxm::reference(p);
  for (std::size_t at : {std::size_t{0}, std::size_t{7}, ref.size() - 1}) {
    std::vector<double> z = ref;
    z[at] *= 1 + 4 * apps::mxm::tolerance(p);  // just beyond the tolerance
    const apps::verification v = apps::mxm::verify(p, z, ref);
    EXPECT_FALSE(v.passed);
    EXPECT_EQ(v.failures, 1u);
    EXPECT_EQ(v.worst_index, at);
  }
  std::vector<double> z = ref;
  z[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(apps::mxm::verify(p, z, ref).passed);
  z = ref;
  z[4] *= 1 + apps::mxm::tolerance(p) / 4;  // within the tolerance: a legitimate reordering
  EXPECT_TRUE(apps::mxm::verify(p, z, ref).passed);
}

TEST(KernelMxm, PaperConfigurationsUseMEquals400) {
  for (const apps::mxm::paper_run& run : apps::mxm::table_1_1) {
    EXPECT_EQ(run.m, 400u);
    EXPECT_EQ(run.n / static_cast<std::size_t>(run.processors) % 100, 0u);  // 100 or 200 rows each
  }
}

}  // namespace
