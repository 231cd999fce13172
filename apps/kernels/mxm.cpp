// MXM kernel and sequential reference.
#include "apps/mxm.hpp"

#include <array>
#include <stdexcept>

namespace apps::mxm {

void fill_x_row(const problem& p, std::size_t i, double* x_row) {
  for (std::size_t k = 0; k < p.r; ++k) x_row[k] = x_element(p, i, k);
}

std::vector<double> make_x(const problem& p) {
  std::vector<double> x(p.n * p.r);
  for (std::size_t i = 0; i < p.n; ++i) fill_x_row(p, i, x.data() + i * p.r);
  return x;
}

std::vector<double> make_y(const problem& p) {
  std::vector<double> y(p.r * p.m);
  for (std::size_t k = 0; k < p.r; ++k) {
    for (std::size_t j = 0; j < p.m; ++j) y[k * p.m + j] = y_element(p, k, j);
  }
  return y;
}

void compute_row(const double* x_row, const double* y, double* z_row, std::size_t r,
                 std::size_t m) {
  for (std::size_t j = 0; j < m; ++j) z_row[j] = 0.0;
  for (std::size_t k = 0; k < r; ++k) {
    const double x = x_row[k];
    const double* y_row = y + k * m;
    for (std::size_t j = 0; j < m; ++j) z_row[j] += x * y_row[j];
  }
}

void compute_rows(const double* x_rows, const double* y, double* z_rows, std::size_t count,
                  std::size_t r, std::size_t m) {
  for (std::size_t i = 0; i < count; ++i) compute_row(x_rows + i * r, y, z_rows + i * m, r, m);
}

std::vector<double> reference(const problem& p) {
  const std::vector<double> x = make_x(p);
  const std::vector<double> y = make_y(p);
  // Y transposed, so that every dot product of the i-j-k nest reads both operands in order:
  // walking Y's columns with a stride of m doubles made the reference twice as slow as the
  // parallel loop itself (the largest part of an MXM run's wall time). Each element's sum still
  // runs over k in ascending order from 0, so the result is the same, bit for bit.
  std::vector<double> yt(p.m * p.r);
  for (std::size_t k = 0; k < p.r; ++k) {
    for (std::size_t j = 0; j < p.m; ++j) yt[j * p.r + k] = y[k * p.m + j];
  }
  std::vector<double> z(p.n * p.m, 0.0);
  // Written as the paper's loop nest, independently of compute_row, so the two check each other;
  // kDots dot products at a time (independent sums, each in its own order) keep the core busy.
  constexpr std::size_t kDots = 8;
  for (std::size_t i = 0; i < p.n; ++i) {
    const double* xi = x.data() + i * p.r;
    std::size_t j = 0;
    for (; j + kDots <= p.m; j += kDots) {
      const double* yj = yt.data() + j * p.r;
      std::array<double, kDots> sum{};
      for (std::size_t k = 0; k < p.r; ++k) {
        for (std::size_t d = 0; d < kDots; ++d) sum[d] += xi[k] * yj[d * p.r + k];
      }
      for (std::size_t d = 0; d < kDots; ++d) z[i * p.m + j + d] = sum[d];
    }
    for (; j < p.m; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k < p.r; ++k) sum += xi[k] * yt[j * p.r + k];
      z[i * p.m + j] = sum;
    }
  }
  return z;
}

verification verify(const problem& p, const std::vector<double>& z,
                    const std::vector<double>& z_reference) {
  if (z.size() != p.n * p.m || z_reference.size() != p.n * p.m) {
    throw std::invalid_argument("mxm::verify: arrays must hold n * m elements");
  }
  return compare(z, z_reference, tolerance(p));
}

}  // namespace apps::mxm
