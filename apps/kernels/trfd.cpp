// TRFD kernels (one-index transformation of packed columns), transpose, sequential reference.
#include "apps/trfd.hpp"

#include <stdexcept>
#include <utility>

namespace apps::trfd {
namespace {

double dot(const double* a, const double* b, std::size_t n) {
  double sum = 0.0;
  for (std::size_t t = 0; t < n; ++t) sum += a[t] * b[t];
  return sum;
}

// Rows first_row..N-1 of column <- the same rows of f(column), f(X) = G X + X G^T. Both loops
// use this one routine, loop 1 with first_row = 0, so they cannot drift apart.
void transform_from(std::size_t n, const double* g, std::size_t first_row, double* column) {
  // The whole input column is needed (f mixes every element), so unpack it before overwriting.
  std::vector<double> x(n * n);
  for (std::size_t j = 0; j < n; ++j) {
    for (std::size_t k = 0; k <= j; ++k) {
      const double v = column[pair_index(j, k)];
      x[j * n + k] = v;
      x[k * n + j] = v;
    }
  }
  // Walk (j,k) from the pair of first_row on, in packed order.
  std::size_t j = 0;
  while (pair_index(j + 1, 0) <= first_row) ++j;
  std::size_t k = first_row - pair_index(j, 0);
  for (std::size_t row = first_row; row < pair_count(n); ++row) {
    // (G X)[j][k] = G_j . X_k because X is symmetric; (X G^T)[j][k] = X_j . G_k.
    column[row] = dot(g + j * n, x.data() + k * n, n) + dot(x.data() + j * n, g + k * n, n);
    if (++k > j) {
      ++j;
      k = 0;
    }
  }
}

void check_problem(const problem& p) {
  if (p.n == 0) throw std::invalid_argument("trfd: n must be positive");
}

}  // namespace

void fill_integral_column(const problem& p, std::size_t col, double* column) {
  for (std::size_t row = 0; row < pair_count(p); ++row) column[row] = integral_element(p, row, col);
}

std::vector<double> make_integrals(const problem& p) {
  const std::size_t count = pair_count(p);
  std::vector<double> a(count * count);
  for (std::size_t col = 0; col < count; ++col)
    fill_integral_column(p, col, a.data() + col * count);
  return a;
}

std::vector<double> make_coefficients(const problem& p) {
  std::vector<double> g(p.n * p.n);
  for (std::size_t j = 0; j < p.n; ++j) {
    for (std::size_t t = 0; t < p.n; ++t) g[j * p.n + t] = coefficient_element(p, j, t);
  }
  return g;
}

void loop1_column(std::size_t n, const double* g, double* column) {
  transform_from(n, g, 0, column);
}

void transpose(std::size_t count, double* a) {
  for (std::size_t col = 0; col < count; ++col) {
    for (std::size_t row = col + 1; row < count; ++row) {
      std::swap(a[col * count + row], a[row * count + col]);
    }
  }
}

void loop2_column(std::size_t n, const double* g, std::size_t col, double* column) {
  transform_from(n, g, col, column);
}

void loop2_iteration(std::size_t n, const double* g, std::size_t k, double* column_first,
                     double* column_second) {
  const bitonic::pair cols = bitonic::originals(k, pair_count(n));
  loop2_column(n, g, cols.first, column_first);
  if (!cols.single()) loop2_column(n, g, cols.second, column_second);
}

std::vector<double> reference_loop1(const problem& p) {
  check_problem(p);
  const std::size_t count = pair_count(p);
  std::vector<double> a = make_integrals(p);
  const std::vector<double> g = make_coefficients(p);
  for (std::size_t col = 0; col < count; ++col) loop1_column(p.n, g.data(), a.data() + col * count);
  return a;
}

std::vector<double> reference(const problem& p) {
  const std::size_t count = pair_count(p);
  std::vector<double> a = reference_loop1(p);
  const std::vector<double> g = make_coefficients(p);
  transpose(count, a.data());
  for (std::size_t col = 0; col < count; ++col) {
    loop2_column(p.n, g.data(), col, a.data() + col * count);
  }
  return a;
}

namespace {

void check_sizes(const problem& p, const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t count = pair_count(p);
  if (a.size() != count * count || b.size() != count * count) {
    throw std::invalid_argument("trfd::verify: arrays must hold N * N elements");
  }
}

}  // namespace

verification verify(const problem& p, const std::vector<double>& a,
                    const std::vector<double>& a_reference) {
  check_sizes(p, a, a_reference);
  const std::size_t count = pair_count(p);
  comparison c(tolerance(p));
  for (std::size_t col = 0; col < count; ++col) {
    for (std::size_t row = col; row < count; ++row) {
      const std::size_t at = col * count + row;
      c.add(at, a[at], a_reference[at]);
    }
  }
  return c.result();
}

verification verify_loop1(const problem& p, const std::vector<double>& a,
                          const std::vector<double>& a_reference) {
  check_sizes(p, a, a_reference);
  // Loop 1 alone is one f per element: half the chain of the final result.
  return compare(a, a_reference, relative_tolerance(p.n + 1));
}

}  // namespace apps::trfd
