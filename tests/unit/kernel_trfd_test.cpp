// Unit tests of the TRFD kernels: hand-checked one-index transformations, an independent dense
// oracle Z = F A F^T, loop 1 and loop 2 computed in the scrambled order of a load-balancing
// runtime against the sequential reference, the work formulas against the paper's, and
// verification.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "apps/trfd.hpp"
#include "kernel_test_support.hpp"

namespace {

using apps::trfd::pair_count;
using apps::trfd::pair_index;
using apps::trfd::problem;

TEST(KernelTrfd, PackedPairIndices) {
  EXPECT_EQ(pair_count(30), 465u);  // the paper's array sizes
  EXPECT_EQ(pair_count(40), 820u);
  EXPECT_EQ(pair_count(50), 1275u);
  // Rows of the packed triangle, in order: (0,0) (1,0) (1,1) (2,0) ...
  std::size_t expected = 0;
  for (std::size_t j = 0; j < 6; ++j) {
    for (std::size_t k = 0; k <= j; ++k) EXPECT_EQ(pair_index(j, k), expected++);
  }
}

// n = 2, column (x00, x10, x11) = (1, 2, 3), X = [[1 2] [2 3]].
TEST(KernelTrfd, HandCheckedLoop1Column) {
  struct row {
    double g[4];    // G, row-major
    double out[3];  // packed f(X) = G X + X G^T
  };
  const row rows[] = {
      {{1, 0, 0, 1}, {2, 4, 6}},   // G = I: f(X) = 2X
      {{0, 1, 0, 0}, {4, 3, 0}},   // G X = [[2 3] [0 0]], X G^T = [[2 0] [3 0]]
      {{1, 1, 1, 1}, {6, 8, 10}},  // G X = [[3 5] [3 5]]: f = [[6 8] [8 10]]
  };
  for (const row& r : rows) {
    double column[3] = {1, 2, 3};
    apps::trfd::loop1_column(2, r.g, column);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(column[i], r.out[i]) << i;
  }
}

// Loop 2 on column c only writes rows >= c, with the values loop 1 would give there.
TEST(KernelTrfd, Loop2ColumnWritesTheLowerTriangleOnly) {
  const double g[4] = {0, 1, 0, 0};
  for (std::size_t col = 0; col < 3; ++col) {
    double column[3] = {1, 2, 3};
    apps::trfd::loop2_column(2, g, col, column);
    const double full[3] = {4, 3, 0};
    const double input[3] = {1, 2, 3};
    for (std::size_t row = 0; row < 3; ++row) {
      EXPECT_EQ(column[row], row >= col ? full[row] : input[row]) << col << " " << row;
    }
  }
}

// n = 1: A = [a], G = [g]: loop 1 gives 2ga, loop 2 gives 4g^2a.
TEST(KernelTrfd, HandCheckedWholeProgramForNEqualsOne) {
  const problem p{1, 5};
  const double a = apps::trfd::integral_element(p, 0, 0);
  const double g = apps::trfd::coefficient_element(p, 0, 0);
  EXPECT_DOUBLE_EQ(apps::trfd::reference_loop1(p)[0], 2 * g * a);
  EXPECT_DOUBLE_EQ(apps::trfd::reference(p)[0], 4 * g * g * a);
}

TEST(KernelTrfd, InputIsSymmetricAndPositive) {
  const problem p{4, 3};
  const std::size_t count = pair_count(p);
  const std::vector<double> a = apps::trfd::make_integrals(p);
  for (std::size_t col = 0; col < count; ++col) {
    for (std::size_t row = 0; row < count; ++row) {
      EXPECT_EQ(a[col * count + row], a[row * count + col]);
      EXPECT_GT(a[col * count + row], 0.0);
    }
  }
}

// The transformation f as a dense N x N matrix, built from its definition
// f(X)[j][k] = sum_t G[j][t] X[t][k] + sum_t X[j][t] G[k][t], independently of the kernel.
std::vector<double> dense_f(std::size_t n, const std::vector<double>& g) {
  const std::size_t count = pair_count(n);
  auto packed = [](std::size_t a, std::size_t b) {
    return a >= b ? pair_index(a, b) : pair_index(b, a);
  };
  std::vector<double> f(count * count, 0.0);  // row-major
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t k = 0; k <= j; ++k) {
      for (std::size_t t = 0; t < n; ++t) {
        f[pair_index(j, k) * count + packed(t, k)] += g[j * n + t];
        f[pair_index(j, k) * count + packed(j, t)] += g[k * n + t];
      }
    }
  }
  return f;
}

TEST(KernelTrfd, ReferenceEqualsDenseOracle) {
  for (std::size_t n : {2u, 3u, 4u, 5u}) {
    const problem p{n, 17};
    const std::size_t count = pair_count(p);
    const std::vector<double> f = dense_f(n, apps::trfd::make_coefficients(p));
    const std::vector<double> a = apps::trfd::make_integrals(p);  // symmetric
    // Loop 1: A1 = F A (column-major result); Z = F A F^T.
    std::vector<double> a1(count * count, 0.0), z(count * count, 0.0);
    for (std::size_t col = 0; col < count; ++col) {
      for (std::size_t row = 0; row < count; ++row) {
        double sum = 0.0;
        for (std::size_t t = 0; t < count; ++t) sum += f[row * count + t] * a[col * count + t];
        a1[col * count + row] = sum;
      }
    }
    for (std::size_t col = 0; col < count; ++col) {
      for (std::size_t row = 0; row < count; ++row) {
        double sum = 0.0;  // (F A1^T)... = sum_t A1[row][t] F[col][t]
        for (std::size_t t = 0; t < count; ++t) sum += a1[t * count + row] * f[col * count + t];
        z[col * count + row] = sum;
      }
    }
    EXPECT_TRUE(apps::trfd::verify_loop1(p, apps::trfd::reference_loop1(p), a1).passed) << n;
    const apps::verification v = apps::trfd::verify(p, apps::trfd::reference(p), z);
    EXPECT_TRUE(v.passed) << "n=" << n << " max rel error " << v.max_rel_error;
    EXPECT_EQ(v.compared, count * (count + 1) / 2);
  }
}

// The result is symmetric: transforming every row in loop 2 (not only rows >= column) gives a
// symmetric matrix whose lower triangle is the reference's, bit for bit. This is what justifies
// computing only the triangle.
TEST(KernelTrfd, FullLoop2WouldBeSymmetric) {
  const problem p{5, 8};
  const std::size_t count = pair_count(p);
  const std::vector<double> g = apps::trfd::make_coefficients(p);
  std::vector<double> a = apps::trfd::reference_loop1(p);
  apps::trfd::transpose(count, a.data());
  for (std::size_t col = 0; col < count; ++col)
    apps::trfd::loop1_column(p.n, g.data(), a.data() + col * count);
  const std::vector<double> ref = apps::trfd::reference(p);
  for (std::size_t col = 0; col < count; ++col) {
    for (std::size_t row = col; row < count; ++row) {
      EXPECT_EQ(a[col * count + row], ref[col * count + row]);
      EXPECT_NEAR(a[col * count + row], a[row * count + col],
                  apps::trfd::tolerance(p) * std::fabs(a[col * count + row]));
    }
  }
}

TEST(KernelTrfd, TransposeInPlace) {
  std::vector<double> a = {0, 1, 2, 3, 4, 5, 6, 7, 8};  // column-major 3 x 3
  apps::trfd::transpose(3, a.data());
  EXPECT_EQ(a, (std::vector<double>{0, 3, 6, 1, 4, 7, 2, 5, 8}));
  EXPECT_EQ(apps::trfd::transpose_ops(3), 15u);  // N = 6: 15 swaps
}

// Loop 1 over scrambled ranges of columns, each slave working on its own copies of its columns;
// the master gathers and transposes; loop 2 over scrambled ranges of bitonic iterations, each
// carrying its one or two columns. Both stages must equal the reference bit for bit.
TEST(KernelTrfd, ScrambledRangesEqualReference) {
  for (std::size_t n : {3u, 4u, 5u, 7u}) {  // N = 6, 10, 15 (odd: a lone middle column), 28
    const problem p{n, 100 + n};
    const std::size_t count = pair_count(p);
    const std::vector<double> g = apps::trfd::make_coefficients(p);
    std::vector<double> a(count * count, std::numeric_limits<double>::quiet_NaN());
    for (const kernel_test::range& rg : kernel_test::scrambled_ranges(count, 4, 7)) {
      std::vector<double> local((rg.end - rg.begin) * count);
      for (std::size_t col = rg.begin; col < rg.end; ++col) {
        double* column = local.data() + (col - rg.begin) * count;
        apps::trfd::fill_integral_column(p, col, column);
        apps::trfd::loop1_column(n, g.data(), column);
      }
      std::copy(local.begin(), local.end(), a.begin() + rg.begin * count);
    }
    EXPECT_EQ(a, apps::trfd::reference_loop1(p)) << n;

    apps::trfd::transpose(count, a.data());
    std::vector<double> out = a;  // gathered result; untouched rows keep the transposed values
    const std::size_t iterations = apps::trfd::loop2_iterations(p);
    for (const kernel_test::range& rg : kernel_test::scrambled_ranges(iterations, 3, 9)) {
      for (std::size_t k = rg.begin; k < rg.end; ++k) {
        const apps::bitonic::pair cols = apps::bitonic::originals(k, count);
        std::vector<double> first(a.begin() + cols.first * count,
                                  a.begin() + (cols.first + 1) * count);
        std::vector<double> second(a.begin() + cols.second * count,
                                   a.begin() + (cols.second + 1) * count);
        apps::trfd::loop2_iteration(n, g.data(), k, first.data(),
                                    cols.single() ? nullptr : second.data());
        std::copy(first.begin(), first.end(), out.begin() + cols.first * count);
        if (!cols.single())
          std::copy(second.begin(), second.end(), out.begin() + cols.second * count);
      }
    }
    const std::vector<double> ref = apps::trfd::reference(p);
    EXPECT_EQ(out, ref) << n;
    const apps::verification v = apps::trfd::verify(p, out, ref);
    EXPECT_TRUE(v.passed);
    EXPECT_EQ(v.max_rel_error, 0.0);
  }
}

// Loop 1: ours is exactly the paper's n^3 + 3n^2 + n.
TEST(KernelTrfd, Loop1WorkIsThePapersFormula) {
  struct row {
    std::size_t n;
    std::uint64_t ops;
  };
  const row rows[] = {{1, 5}, {3, 57}, {4, 116}, {5, 205}, {30, 29730}, {40, 68840}, {50, 132550}};
  for (const row& r : rows) {
    EXPECT_EQ(apps::trfd::loop1_ops(r.n), r.ops) << r.n;
    EXPECT_EQ(static_cast<double>(apps::trfd::loop1_ops(r.n)), apps::trfd::paper_loop1_work(r.n));
    EXPECT_EQ(apps::trfd::loop1_total_ops(r.n), pair_count(r.n) * r.ops);
  }
  for (std::size_t n = 1; n <= 60; ++n) {
    EXPECT_EQ(static_cast<double>(apps::trfd::loop1_ops(n)), apps::trfd::paper_loop1_work(n));
  }
}

// Loop 2: every bitonic pair costs 2n^2 + (N+1)(2n+2); a lone middle column half the linear part.
TEST(KernelTrfd, Loop2BitonicIterationsAreUniform) {
  struct row {
    std::size_t n;
    std::size_t iterations;
    std::uint64_t pair_ops, middle_ops, total;  // middle_ops = 0: N even, no middle
  };
  const row rows[] = {
      {3, 3, 74, 0, 222},      // N = 6:  18 + 7 * 8
      {4, 5, 142, 0, 710},     // N = 10: 32 + 11 * 10
      {5, 8, 242, 121, 1815},  // N = 15: 50 + 16 * 12; middle 25 + 16 * 6
  };
  for (const row& r : rows) {
    const problem p{r.n, 1};
    ASSERT_EQ(apps::trfd::loop2_iterations(p), r.iterations);
    std::uint64_t sum = 0, column_sum = 0;
    for (std::size_t k = 0; k < r.iterations; ++k) {
      const bool middle = apps::bitonic::originals(k, pair_count(p)).single();
      EXPECT_EQ(apps::trfd::loop2_ops(r.n, k), middle ? r.middle_ops : r.pair_ops)
          << r.n << " " << k;
      EXPECT_EQ(apps::trfd::loop2_doubles_per_iteration(p, k), (middle ? 1 : 2) * pair_count(p));
      sum += apps::trfd::loop2_ops(r.n, k);
    }
    for (std::size_t c = 0; c < pair_count(p); ++c)
      column_sum += apps::trfd::loop2_column_ops(r.n, c);
    EXPECT_EQ(sum, r.total);
    EXPECT_EQ(column_sum, r.total);
    EXPECT_EQ(apps::trfd::loop2_total_ops(r.n), r.total);
  }
}

// How our loop 2 relates to the paper's formula (documented in apps/README.md).
TEST(KernelTrfd, Loop2WorkAgainstThePapersFormula) {
  for (std::size_t n : {3u, 10u, 30u, 40u, 50u}) {
    const std::size_t count = pair_count(n);
    const double x = static_cast<double>(n);
    // The paper's formula factors as (n + 1 - r)(n(n + 2) + r(n + 1)/2).
    for (std::size_t i = 1; i <= count; ++i) {
      const double r = (1 + std::sqrt(8.0 * i - 7)) / 2;
      EXPECT_NEAR(apps::trfd::paper_loop2_work(n, i), (x + 1 - r) * (x * (x + 2) + r * (x + 1) / 2),
                  1e-9 * x * x * x);
    }
    // Its first column costs loop 1 minus N; ours costs exactly loop 1.
    EXPECT_DOUBLE_EQ(apps::trfd::paper_loop2_work(n, 1), apps::trfd::paper_loop1_work(n) - count);
    EXPECT_EQ(apps::trfd::loop2_column_ops(n, 0), apps::trfd::loop1_ops(n));
    // Total loop-2 work: ours is 20-26% above the paper's formula for the paper's sizes (it tends
    // to 6/5: ours ~ n^5/4, the paper's ~ 5n^5/24).
    double paper_total = 0.0;
    for (std::size_t i = 1; i <= count; ++i) paper_total += apps::trfd::paper_loop2_work(n, i);
    const double ratio = static_cast<double>(apps::trfd::loop2_total_ops(n)) / paper_total;
    if (n >= 30) {
      EXPECT_GT(ratio, 1.20) << n;
      EXPECT_LT(ratio, 1.26) << n;
    }
  }
}

// The L2/L1 ratios written in apps/README.md: per bitonic iteration and per
// run, ours and the paper's formula's; neither is the text's "almost double" per iteration.
TEST(KernelTrfd, Loop2OverLoop1WorkRatios) {
  struct row {
    std::size_t n;
    double ours_per_iteration, ours_per_run, paper_per_iteration, paper_per_run;
  };
  for (const auto& r : std::vector<row>{{30, 1.032, 0.516, 0.824, 0.413},
                                        {40, 1.024, 0.512, 0.827, 0.413},
                                        {50, 1.020, 0.510, 0.827, 0.414}}) {
    const double l1 = static_cast<double>(apps::trfd::loop1_ops(r.n));
    const double l1_total = static_cast<double>(apps::trfd::loop1_total_ops(r.n));
    const std::size_t count = pair_count(r.n);
    const double iterations2 = static_cast<double>(apps::bitonic::iteration_count(count));
    // Every bitonic pair costs the same (the lone middle column of an odd N is not a pair).
    EXPECT_NEAR(static_cast<double>(apps::trfd::loop2_ops(r.n, 0)) / l1, r.ours_per_iteration,
                5e-4);
    EXPECT_NEAR(static_cast<double>(apps::trfd::loop2_total_ops(r.n)) / l1_total, r.ours_per_run,
                5e-4);
    double paper_total = 0.0;
    for (std::size_t i = 1; i <= count; ++i) paper_total += apps::trfd::paper_loop2_work(r.n, i);
    const double paper_l1 = apps::trfd::paper_loop1_work(r.n);
    EXPECT_NEAR(paper_total / iterations2 / paper_l1, r.paper_per_iteration, 5e-4) << r.n;
    EXPECT_NEAR(paper_total / (static_cast<double>(count) * paper_l1), r.paper_per_run, 5e-4);
  }
}

TEST(KernelTrfd, VerificationDetectsOneCorruptedElement) {
  const problem p{4, 21};
  const std::size_t count = pair_count(p);
  const std::vector<double> ref = apps::trfd::reference(p);
  for (std::size_t at : {std::size_t{0}, 3 * count + 5, count * count - 1}) {  // all lower
    std::vector<double> a = ref;
    a[at] *= 1 + 4 * apps::trfd::tolerance(p);
    const apps::verification v = apps::trfd::verify(p, a, ref);
    EXPECT_FALSE(v.passed) << at;
    EXPECT_EQ(v.failures, 1u);
    EXPECT_EQ(v.worst_index, at);
  }
  std::vector<double> a = ref;
  a[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(apps::trfd::verify(p, a, ref).passed);
  // The strictly upper triangle is not part of the result.
  a = ref;
  a[5 * count + 2] = -1.0;
  EXPECT_TRUE(apps::trfd::verify(p, a, ref).passed);
  // ...but loop 1's check covers the whole array.
  const std::vector<double> ref1 = apps::trfd::reference_loop1(p);
  a = ref1;
  a[5 * count + 2] *= 1.0 + 1e-9;
  EXPECT_FALSE(apps::trfd::verify_loop1(p, a, ref1).passed);
}

TEST(KernelTrfd, PaperConfigurations) {
  for (const apps::trfd::paper_run& run : apps::trfd::table_1_2) {
    EXPECT_TRUE(run.n == 30 || run.n == 40 || run.n == 50);
    EXPECT_EQ(apps::trfd::loop1_doubles_per_iteration(problem{run.n, 1}), pair_count(run.n));
  }
}

}  // namespace
