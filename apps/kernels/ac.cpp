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

namespace {

using pair = double __attribute__((vector_size(16)));
pair load(const double* at) {  // two doubles, unaligned
  pair v;
  std::memcpy(&v, at, sizeof v);
  return v;
}

// The sum of the terms f(j) * c[j - i], j = i .. length - 1, where f(j) * c is `term`: eight
// interleaved partial sums (terms j = i, i+8, ... in the first, and so on) combined at the end,
// as compute_element documents. `scale` is x for compute_element (f(j) = x * b[j], the paper's
// rounding) and 1 for compute_element_scaled (f(j) = xb[j], already x * b[j]): the same products
// either way, summed in the same order.
template <bool kScaled>
double sum_terms(const double* f, const double* c, double x, std::size_t length, std::size_t i) {
  pair s01 = {0.0, 0.0}, s23 = {0.0, 0.0}, s45 = {0.0, 0.0}, s67 = {0.0, 0.0};
  const pair xx = {x, x};
  const auto term = [&xx](const double* at, const double* cj) {
    if constexpr (kScaled) return load(at) * load(cj);
    return xx * load(at) * load(cj);
  };
  const double* cj = c;  // c[j - i]
  std::size_t j = i;
  for (; j + 8 <= length; j += 8, cj += 8) {
    s01 += term(f + j, cj);
    s23 += term(f + j + 2, cj + 2);
    s45 += term(f + j + 4, cj + 4);
    s67 += term(f + j + 6, cj + 6);
  }
  s01 += s45;
  s23 += s67;
  double s0 = s01[0];
  for (; j < length; ++j, ++cj) s0 += (kScaled ? f[j] : x * f[j]) * *cj;
  return (s0 + s01[1]) + (s23[0] + s23[1]);
}

// Four doubles at any address that holds doubles (GCC's vector extension; may_alias: read
// through a double array). Read by reference: returning one by value would change the ABI
// between the two clones below.
using quad = double __attribute__((vector_size(32), aligned(8), may_alias));
const quad& load4(const double* at) { return *reinterpret_cast<const quad*>(at); }

// Two elements of A at once, each summed exactly as sum_terms<true> sums it: the partial sums of
// lanes 0-3 (terms j = i, i+1, i+2, i+3 of each block of eight) and 4-7 are the same eight sums,
// combined the same way (0 with 4, 1 with 5, ...), so the bits are the same. Two elements share
// the loads of C and give the core four independent chains of additions instead of two; with
// AVX (chosen at run time where the processor has it: GCC's target_clones) a term costs half
// the instructions. Without AVX the same code runs on SSE2 pairs, lane by lane the same.
__attribute__((target_clones("avx2", "default"))) void two_elements_scaled(
    const double* xb, const double* c, std::size_t length, std::size_t i1, std::size_t i2,
    double* a) {
  quad l1 = {0.0, 0.0, 0.0, 0.0}, h1 = l1, l2 = l1, h2 = l1;
  const std::size_t end1 = (length - i1) / 8 * 8, end2 = (length - i2) / 8 * 8;
  std::size_t t = 0;
  for (; t < end1 && t < end2; t += 8) {
    const quad c0 = load4(c + t), c4 = load4(c + t + 4);
    l1 += load4(xb + i1 + t) * c0;
    h1 += load4(xb + i1 + t + 4) * c4;
    l2 += load4(xb + i2 + t) * c0;
    h2 += load4(xb + i2 + t + 4) * c4;
  }
  for (std::size_t u = t; u < end1; u += 8) {
    l1 += load4(xb + i1 + u) * load4(c + u);
    h1 += load4(xb + i1 + u + 4) * load4(c + u + 4);
  }
  for (std::size_t u = t; u < end2; u += 8) {
    l2 += load4(xb + i2 + u) * load4(c + u);
    h2 += load4(xb + i2 + u + 4) * load4(c + u + 4);
  }
  const quad s1 = l1 + h1, s2 = l2 + h2;
  double t1 = s1[0], t2 = s2[0];
  for (std::size_t u = end1; i1 + u < length; ++u) t1 += xb[i1 + u] * c[u];
  for (std::size_t u = end2; i2 + u < length; ++u) t2 += xb[i2 + u] * c[u];
  a[i1] = (t1 + s1[1]) + (s1[2] + s1[3]);
  a[i2] = (t2 + s2[1]) + (s2[2] + s2[3]);
}

}  // namespace

double compute_element(const double* b, const double* c, double x, std::size_t length,
                       std::size_t i) {
  // The paper's `A[i] += X * B[j] * C[j-i]` over j, each term rounded as the paper's, summed in
  // eight interleaved partial sums (terms j = i, i+8, ... in the first, and so on) combined at
  // the end: one dependent chain of additions left the core idle most cycles (n = 250, 16 slaves:
  // a run took 1.66 s, 0.67 s now). The order changes the rounding only, within the
  // verification's tolerance; the reference calls the same sums, so the two still agree bit
  // for bit. The sums are four pairs of lanes (GCC's vector extension, SSE2): written as scalars,
  // GCC 12 shuffled and spilled them.
  return sum_terms<false>(b, c, x, length, i);
}

std::vector<double> scaled_b(const double* b, double x, std::size_t length) {
  std::vector<double> xb(length);
  for (std::size_t j = 0; j < length; ++j) xb[j] = x * b[j];
  return xb;
}

double compute_element_scaled(const double* xb, const double* c, std::size_t length,
                              std::size_t i) {
  return sum_terms<true>(xb, c, 1.0, length, i);
}

void compute_iteration(const double* b, const double* c, double x, std::size_t length,
                       std::size_t k, double* a) {
  const bitonic::pair is = bitonic::originals(k, length);
  a[is.first] = compute_element(b, c, x, length, is.first);
  if (!is.single()) a[is.second] = compute_element(b, c, x, length, is.second);
}

void compute_iteration_scaled(const double* xb, const double* c, std::size_t length, std::size_t k,
                              double* a) {
  const bitonic::pair is = bitonic::originals(k, length);
  if (is.single()) {
    a[is.first] = compute_element_scaled(xb, c, length, is.first);
  } else {
    two_elements_scaled(xb, c, length, is.first, is.second, a);
  }
}

std::vector<double> reference(const problem& p) {
  if (p.n == 0) throw std::invalid_argument("ac: n must be positive");
  const std::vector<double> b = make_b(p);
  const std::vector<double> c = make_c(p);
  const std::vector<double> xb = scaled_b(b.data(), x_scalar(p), b.size());
  std::vector<double> a(length(p));
  // The paper's sequential loop, in original order (no bitonic pairing).
  // (Two at a time, each summed as compute_element_scaled sums it.)
  std::size_t i = 0;
  for (; i + 2 <= a.size(); i += 2)
    two_elements_scaled(xb.data(), c.data(), a.size(), i, i + 1, a.data());
  if (i < a.size()) a[i] = compute_element_scaled(xb.data(), c.data(), a.size(), i);
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
