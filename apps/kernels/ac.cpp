// AC kernel and sequential reference.
#include "apps/ac.hpp"

#include <stdexcept>

namespace apps::ac {

std::vector<double> make_b(const problem& p) {
  std::vector<double> b(length(p));
  for (std::size_t j = 0; j < b.size(); ++j) b[j] = b_element(p, j);
  return b;
}

std::vector<double> make_c(const problem& p) {
  std::vector<double> c(length(p));
  for (std::size_t d = 0; d < c.size(); ++d) c[d] = c_element(p, d);
  return c;
}

double compute_element(const double* b, const double* c, double x, std::size_t length,
                       std::size_t i) {
  // Accumulating in a local from 0 is the paper's `A[i] += ...` on a zero-initialized A, term
  // for term, in the same order.
  double sum = 0.0;
  for (std::size_t j = i; j < length; ++j) sum += x * b[j] * c[j - i];
  return sum;
}

void compute_iteration(const double* b, const double* c, double x, std::size_t length,
                       std::size_t k, double* a) {
  const bitonic::pair is = bitonic::originals(k, length);
  a[is.first] = compute_element(b, c, x, length, is.first);
  if (!is.single()) a[is.second] = compute_element(b, c, x, length, is.second);
}

std::vector<double> reference(const problem& p) {
  if (p.n == 0) throw std::invalid_argument("ac: n must be positive");
  const std::vector<double> b = make_b(p);
  const std::vector<double> c = make_c(p);
  const double x = x_scalar(p);
  std::vector<double> a(length(p));
  // The paper's sequential loop, in original order (no bitonic pairing).
  for (std::size_t i = 0; i < a.size(); ++i)
    a[i] = compute_element(b.data(), c.data(), x, a.size(), i);
  return a;
}

verification verify(const problem& p, const std::vector<double>& a,
                    const std::vector<double>& a_reference) {
  if (a.size() != length(p) || a_reference.size() != length(p)) {
    throw std::invalid_argument("ac::verify: arrays must hold n^2 elements");
  }
  return compare(a, a_reference, tolerance(p));
}

}  // namespace apps::ac
