// Table tests of the least-squares fits used by the network characterization.
#include <gtest/gtest.h>

#include "dlb/core/fit.hpp"

namespace dlb::core {
namespace {

TEST(Fit, ExactPolynomialsAreRecovered) {
  struct row {
    std::vector<double> x, y;
    int degree;
    std::vector<double> want;
  };
  const std::vector<row> table = {
      // y = 3: a constant.
      {{1, 2, 3}, {3, 3, 3}, 0, {3}},
      // y = 1 + 2x.
      {{0, 1, 2, 5}, {1, 3, 5, 11}, 1, {1, 2}},
      // y = 0.5 - x + 0.25 x^2 at p = 2..16, the shape of an all-to-all curve.
      {{2, 4, 8, 16}, {0.5 - 2 + 1, 0.5 - 4 + 4, 0.5 - 8 + 16, 0.5 - 16 + 64}, 2, {0.5, -1, 0.25}},
  };
  for (const auto& r : table) {
    const polynomial p = fit_polynomial(r.x, r.y, r.degree);
    ASSERT_EQ(p.coefficients.size(), r.want.size());
    for (std::size_t k = 0; k < r.want.size(); ++k)
      EXPECT_NEAR(p.coefficients[k], r.want[k], 1e-9) << "k=" << k;
  }
}

TEST(Fit, LeastSquaresOfNoisyPoints) {
  // Points (0,0), (1,1), (2,1): the best line is y = 1/6 + x/2 (worked by hand: slope
  // = (3*3 - 3*2) / (3*5 - 9) = 0.5, intercept = (2 - 0.5*3)/3 = 1/6).
  const polynomial p = fit_polynomial({0, 1, 2}, {0, 1, 1}, 1);
  EXPECT_NEAR(p.coefficients[0], 1.0 / 6.0, 1e-12);
  EXPECT_NEAR(p.coefficients[1], 0.5, 1e-12);
}

TEST(Fit, LatencyAndBandwidthOfThePapersNetwork) {
  // One-way times L + b/B with L = 2414.5 us and B = 0.96 MB/s are measured back.
  std::vector<double> b{1, 1024, 65536, 1048576}, t;
  for (double x : b) t.push_back(2414.5e-6 + x / 0.96e6);
  const latency_bandwidth lb = fit_latency_bandwidth(b, t);
  EXPECT_NEAR(lb.latency, 2414.5e-6, 1e-12);
  EXPECT_NEAR(lb.bandwidth, 0.96e6, 1e-3);
}

TEST(Fit, BadInputIsRefused) {
  EXPECT_THROW(fit_polynomial({1, 2}, {1}, 1), std::invalid_argument);
  EXPECT_THROW(fit_polynomial({1, 1, 1}, {1, 2, 3}, 1), std::invalid_argument);
  EXPECT_THROW(fit_polynomial({1, 2}, {1, 2}, -1), std::invalid_argument);
  EXPECT_THROW(fit_latency_bandwidth({1, 2, 3}, {3, 2, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace dlb::core
