// AC kernel and sequential reference.
#include "apps/ac.hpp"

#include <cstring>
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
  // The paper's `A[i] += X * B[j] * C[j-i]` over j, each term rounded as the paper's, summed in
  // eight interleaved partial sums (terms j = i, i+8, ... in the first, and so on) combined at
  // the end: one dependent chain of additions left the core idle most cycles (n = 250, 16 slaves:
  // a run took 1.66 s, 0.67 s now). The order changes the rounding only, within the
  // verification's tolerance; the reference calls this same function, so the two still agree bit
  // for bit. The sums are four pairs of lanes (GCC's vector extension, SSE2): written as scalars,
  // GCC 12 shuffled and spilled them.
  using pair = double __attribute__((vector_size(16)));
  const auto load = [](const double* at) {  // two doubles, unaligned
    pair v;
    std::memcpy(&v, at, sizeof v);
    return v;
  };
  pair s01 = {0.0, 0.0}, s23 = {0.0, 0.0}, s45 = {0.0, 0.0}, s67 = {0.0, 0.0};
  const pair xx = {x, x};
  const double* cj = c;  // c[j - i]
  std::size_t j = i;
  for (; j + 8 <= length; j += 8, cj += 8) {
    s01 += xx * load(b + j) * load(cj);
    s23 += xx * load(b + j + 2) * load(cj + 2);
    s45 += xx * load(b + j + 4) * load(cj + 4);
    s67 += xx * load(b + j + 6) * load(cj + 6);
  }
  s01 += s45;
  s23 += s67;
  double s0 = s01[0];
  for (; j < length; ++j, ++cj) s0 += x * b[j] * *cj;
  return (s0 + s01[1]) + (s23[0] + s23[1]);
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
