// Unit tests of the AC kernel: a hand-checked convolution, bitonic iterations in the scrambled
// order of a load-balancing runtime against the sequential reference (bit for bit), work counts,
// and verification.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "apps/ac.hpp"
#include "kernel_test_support.hpp"

namespace {

using apps::ac::problem;

// C = (1, 10, 100, 1000) makes each A[i] spell the B's it sums: A[i] = sum_j B[j] C[j-i].
TEST(KernelAc, HandCheckedConvolution) {
  const double b[] = {1, 2, 3, 4};
  const double c[] = {1, 10, 100, 1000};
  const double expected[] = {4321, 432, 43, 4};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(apps::ac::compute_element(b, c, 1.0, 4, i), expected[i]);
    EXPECT_EQ(apps::ac::compute_element(b, c, 0.5, 4, i), expected[i] / 2);
  }
}

// The eight partial sums and the tail: every length from 1 to 19 and every i, on integers small
// enough that any order of summation is exact, against the terms summed one by one.
TEST(KernelAc, PartialSumsCoverEveryTermOnce) {
  for (std::size_t length = 1; length <= 19; ++length) {
    std::vector<double> b(length), c(length);
    for (std::size_t j = 0; j < length; ++j) {
      b[j] = static_cast<double>(j + 1);
      c[j] = static_cast<double>(1u << j);  // each term lands on its own bits
    }
    for (std::size_t i = 0; i < length; ++i) {
      double expected = 0;
      for (std::size_t j = i; j < length; ++j) expected += 3.0 * b[j] * c[j - i];
      EXPECT_EQ(apps::ac::compute_element(b.data(), c.data(), 3.0, length, i), expected)
          << "length " << length << ", i " << i;
    }
  }
}

// X * B[j] computed once per j (what the program and the reference run) gives the same bits as
// the paper's X * B[j] * C[j-i] term by term, on values whose products round.
TEST(KernelAc, ScaledTermsGiveTheSameBits) {
  for (std::size_t length = 1; length <= 41; length += 4) {
    std::vector<double> b(length), c(length);
    for (std::size_t j = 0; j < length; ++j) {
      b[j] = 1.0 / static_cast<double>(j + 3);
      c[j] = 1.0 / static_cast<double>(2 * j + 7);
    }
    const double x = 1.0 / 3.0;
    const std::vector<double> xb = apps::ac::scaled_b(b.data(), x, length);
    std::vector<double> a(length, -1.0), a_scaled(length, -2.0);
    for (std::size_t k = 0; k < (length + 1) / 2; ++k) {
      apps::ac::compute_iteration(b.data(), c.data(), x, length, k, a.data());
      apps::ac::compute_iteration_scaled(xb.data(), c.data(), length, k, a_scaled.data());
    }
    for (std::size_t i = 0; i < length; ++i) {
      EXPECT_EQ(apps::ac::compute_element_scaled(xb.data(), c.data(), length, i),
                apps::ac::compute_element(b.data(), c.data(), x, length, i))
          << "length " << length << ", i " << i;
      EXPECT_EQ(a_scaled[i], a[i]) << "length " << length << ", i " << i;
    }
  }
}

TEST(KernelAc, IterationWritesOnlyItsOriginals) {
  const double b[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const double c[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  struct row {
    std::size_t length, k;
    std::vector<std::size_t> written;
  };
  const row rows[] = {{4, 0, {0, 3}}, {4, 1, {1, 2}}, {9, 0, {0, 8}}, {9, 4, {4}}};
  for (const row& r : rows) {
    std::vector<double> a(r.length, -1.0);
    apps::ac::compute_iteration(b, c, 1.0, r.length, r.k, a.data());
    for (std::size_t i = 0; i < r.length; ++i) {
      const bool written = std::find(r.written.begin(), r.written.end(), i) != r.written.end();
      // With C = 1, A[i] is the suffix sum of B from i: 45 - i(i+1)/2 for L = 9.
      double suffix = 0;
      for (std::size_t j = i; j < r.length; ++j) suffix += b[j];
      EXPECT_EQ(a[i], written ? suffix : -1.0) << r.length << " " << r.k << " " << i;
    }
  }
}

// The reference against the paper's loop written out here with 1-based indices (and C[j-i]).
TEST(KernelAc, ReferenceIsThePapersLoop) {
  const problem p{4, 77};
  const std::size_t length = apps::ac::length(p);
  const std::vector<double> b = apps::ac::make_b(p), c = apps::ac::make_c(p);
  const double x = apps::ac::x_scalar(p);
  std::vector<double> a(length + 1, 0.0);  // a[1..L]
  for (std::size_t i = 1; i <= length; ++i) {
    for (std::size_t j = i; j <= length; ++j) a[i] += x * b[j - 1] * c[j - i];
  }
  // The kernel sums in eight partial sums: the same terms, rounded differently, so the paper's
  // order agrees within the verification's tolerance (and not necessarily bit for bit).
  const std::vector<double> ref = apps::ac::reference(p);
  for (std::size_t i = 0; i < length; ++i) {
    EXPECT_NEAR(ref[i], a[i + 1], apps::ac::tolerance(p) * std::abs(a[i + 1])) << i;
  }
}

// Every slave holds replicated B and C and its own copy of A; each writes A only at its
// iterations' originals; gathering those must give the reference exactly.
TEST(KernelAc, ScrambledRangesEqualReference) {
  for (std::size_t n : {3u, 4u, 5u, 8u, 15u}) {
    const problem p{n, 1000 + n};
    const std::size_t length = apps::ac::length(p);
    const std::vector<double> b = apps::ac::make_b(p), c = apps::ac::make_c(p);
    const double x = apps::ac::x_scalar(p);
    std::vector<double> gathered(length, std::numeric_limits<double>::quiet_NaN());
    for (const kernel_test::range& rg :
         kernel_test::scrambled_ranges(apps::ac::iterations(p), 4, 3)) {
      std::vector<double> local(length, std::numeric_limits<double>::quiet_NaN());
      for (std::size_t k = rg.begin; k < rg.end; ++k) {
        apps::ac::compute_iteration(b.data(), c.data(), x, length, k, local.data());
        const apps::bitonic::pair is = apps::bitonic::originals(k, length);
        gathered[is.first] = local[is.first];
        gathered[is.second] = local[is.second];
      }
    }
    const std::vector<double> ref = apps::ac::reference(p);
    EXPECT_EQ(gathered, ref) << n;
    const apps::verification v = apps::ac::verify(p, gathered, ref);
    EXPECT_TRUE(v.passed);
    EXPECT_EQ(v.max_rel_error, 0.0);
  }
}

TEST(KernelAc, WorkCountsMatchClosedForms) {
  struct row {
    std::size_t n;
    std::size_t iterations;
    std::uint64_t pair_ops, middle_ops, total;  // middle_ops = 0: L even
  };
  const row rows[] = {
      {3, 5, 10, 5, 45},     // L = 9: four pairs of 10, the middle (index 4) 5 terms
      {4, 8, 17, 0, 136},    // L = 16
      {5, 13, 26, 13, 325},  // L = 25
      {100, 5000, 10001, 0, 50005000},
      {250, 31250, 62501, 0, 1953156250},
  };
  for (const row& r : rows) {
    const problem p{r.n, 1};
    const std::size_t length = apps::ac::length(p);
    ASSERT_EQ(apps::ac::iterations(p), r.iterations);
    std::uint64_t sum = 0, original_sum = 0;
    for (std::size_t k = 0; k < r.iterations; ++k) {
      const bool middle = apps::bitonic::originals(k, length).single();
      EXPECT_EQ(apps::ac::ops(p, k), middle ? r.middle_ops : r.pair_ops) << r.n << " " << k;
      sum += apps::ac::ops(p, k);
    }
    for (std::size_t i = 0; i < length; ++i) {
      EXPECT_EQ(apps::ac::element_ops(p, i), length - i);  // the paper's n^2 - i + 1, 1-based
      original_sum += apps::ac::element_ops(p, i);
    }
    EXPECT_EQ(sum, r.total);
    EXPECT_EQ(original_sum, r.total);
    EXPECT_EQ(apps::ac::total_ops(p), r.total);  // L(L + 1)/2
    EXPECT_EQ(apps::ac::doubles_per_iteration(p), 0u);
  }
}

TEST(KernelAc, VerificationDetectsOneCorruptedElement) {
  const problem p{5, 4};
  const std::vector<double> ref = apps::ac::reference(p);
  for (std::size_t at : {std::size_t{0}, std::size_t{12}, ref.size() - 1}) {
    std::vector<double> a = ref;
    a[at] *= 1 + 4 * apps::ac::tolerance(p);
    const apps::verification v = apps::ac::verify(p, a, ref);
    EXPECT_FALSE(v.passed) << at;
    EXPECT_EQ(v.failures, 1u);
    EXPECT_EQ(v.worst_index, at);
  }
  std::vector<double> a = ref;
  a[3] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(apps::ac::verify(p, a, ref).passed);
  EXPECT_THROW(apps::ac::verify(p, std::vector<double>(3), ref), std::invalid_argument);
}

TEST(KernelAc, ResultsAreOrderOne) {
  // X is scaled by 1/L, so A[0] (L terms of size ~1) is about 1 whatever n.
  const problem p{20, 6};
  const std::vector<double> ref = apps::ac::reference(p);
  EXPECT_GT(ref[0], 0.5);
  EXPECT_LT(ref[0], 2.5);
}

}  // namespace
