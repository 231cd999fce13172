// fit.cpp: least squares by normal equations (the systems are tiny: degree <= 3).
#include "dlb/core/fit.hpp"

#include <cmath>
#include <set>
#include <stdexcept>
#include <utility>

namespace dlb::core {

polynomial fit_polynomial(const std::vector<double>& x, const std::vector<double>& y, int degree) {
  if (x.size() != y.size()) throw std::invalid_argument("fit_polynomial: x and y differ in size");
  if (degree < 0) throw std::invalid_argument("fit_polynomial: negative degree");
  const auto n = static_cast<std::size_t>(degree) + 1;
  if (std::set<double>(x.begin(), x.end()).size() < n) {
    throw std::invalid_argument("fit_polynomial: fewer distinct points than coefficients");
  }
  // A (n x n+1) = [X^T X | X^T y]
  std::vector<std::vector<double>> a(n, std::vector<double>(n + 1, 0.0));
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<double> pw(2 * n, 1.0);
    for (std::size_t k = 1; k < 2 * n; ++k) pw[k] = pw[k - 1] * x[i];
    for (std::size_t r = 0; r < n; ++r) {
      for (std::size_t c = 0; c < n; ++c) a[r][c] += pw[r + c];
      a[r][n] += pw[r] * y[i];
    }
  }
  for (std::size_t col = 0; col < n; ++col) {
    std::size_t piv = col;
    for (std::size_t r = col + 1; r < n; ++r) {
      if (std::abs(a[r][col]) > std::abs(a[piv][col])) piv = r;
    }
    std::swap(a[col], a[piv]);
    if (a[col][col] == 0.0) throw std::invalid_argument("fit_polynomial: singular system");
    for (std::size_t r = 0; r < n; ++r) {
      if (r == col) continue;
      const double f = a[r][col] / a[col][col];
      for (std::size_t c = col; c <= n; ++c) a[r][c] -= f * a[col][c];
    }
  }
  polynomial p;
  for (std::size_t r = 0; r < n; ++r) p.coefficients.push_back(a[r][n] / a[r][r]);
  return p;
}

latency_bandwidth fit_latency_bandwidth(const std::vector<double>& bytes,
                                        const std::vector<double>& seconds) {
  const polynomial line = fit_polynomial(bytes, seconds, 1);
  if (!(line.coefficients[1] > 0))
    throw std::invalid_argument("fit_latency_bandwidth: time does not grow with size");
  return {line.coefficients[0], 1.0 / line.coefficients[1]};
}

}  // namespace dlb::core
