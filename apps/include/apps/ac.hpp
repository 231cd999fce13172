// AC, the paper's adjoint convolution (section 1.5.4, Figure 1.5) of two vectors of length
// L = n^2: A[i] = sum_{j=i}^{L-1} X * B[j] * C[j-i], 0-based. The paper prints C[j-1]; a
// convolution needs C[j-i], which we use. Iteration i has L - i terms: a triangular loop, made
// uniform by bitonic scheduling into ceil(L/2) iterations. All arrays are replicated (D = 0);
// each slave writes A only at its own iterations, and A is gathered at the end.
// Pure functions on plain data: no global state, no I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "apps/bitonic.hpp"
#include "apps/element_hash.hpp"
#include "apps/verify.hpp"

namespace apps::ac {

struct problem {
  std::size_t n = 0;  // the paper's input parameter; vectors have n^2 elements
  std::uint64_t seed = 1;
};

constexpr std::size_t length(const problem& p) { return p.n * p.n; }

// --- input data --------------------------------------------------------------------------------
inline double b_element(const problem& p, std::size_t j) {
  return element_uniform(p.seed, array_id::ac_b, j, input_lo, input_hi);
}
inline double c_element(const problem& p, std::size_t d) {
  return element_uniform(p.seed, array_id::ac_c, d, input_lo, input_hi);
}
// The scalar X, scaled by 1/L so that A stays O(1) whatever n.
inline double x_scalar(const problem& p) {
  return element_uniform(p.seed, array_id::ac_x, 0, input_lo, input_hi) /
         static_cast<double>(length(p));
}
std::vector<double> make_b(const problem& p);  // L values
std::vector<double> make_c(const problem& p);  // L values

// --- the kernel --------------------------------------------------------------------------------
// A[i] for original iteration i: the terms X * B[j] * C[j-i], j >= i, in eight interleaved partial
// sums (apps/kernels/ac.cpp). The program and the sequential reference both sum the same terms
// in the same order (compute_element_scaled, below), so the distributed result matches it exactly.
double compute_element(const double* b, const double* c, double x, std::size_t length,
                       std::size_t i);

constexpr std::size_t iterations(const problem& p) { return bitonic::iteration_count(length(p)); }

// Bitonic iteration k: writes a[k] and a[L-1-k] (only a[k] for the middle of an odd L); a is
// the full-length local copy of A.
void compute_iteration(const double* b, const double* c, double x, std::size_t length,
                       std::size_t k, double* a);

// The same with X * B[j] computed once per j (xb = scaled_b(b, x, length)), not once per term:
// the same products summed in the same order, so the same results bit for bit, with a third
// fewer floating-point operations per term (what the program and the reference run).
std::vector<double> scaled_b(const double* b, double x, std::size_t length);
double compute_element_scaled(const double* xb, const double* c, std::size_t length, std::size_t i);
void compute_iteration_scaled(const double* xb, const double* c, std::size_t length, std::size_t k,
                              double* a);

// Basic operations, one per term (two multiplies and an add): L - i for original iteration i
// (the paper's n^2 - i + 1 with 1-based i).
constexpr std::uint64_t element_ops(const problem& p, std::size_t i) { return length(p) - i; }
// L + 1 for every pair; (L + 1) / 2 for the middle of an odd L.
constexpr std::uint64_t ops(const problem& p, std::size_t k) {
  const bitonic::pair is = bitonic::originals(k, length(p));
  return is.single() ? element_ops(p, is.first)
                     : element_ops(p, is.first) + element_ops(p, is.second);
}
constexpr std::uint64_t total_ops(const problem& p) {
  return static_cast<std::uint64_t>(length(p)) * (length(p) + 1) / 2;
}

// Arrays are replicated: moving an iteration moves no data.
constexpr std::size_t doubles_per_iteration(const problem&) { return 0; }

// --- sequential reference and verification -----------------------------------------------------
std::vector<double> reference(const problem& p);  // A, L values

// A[0] is the longest sum, L positive terms each rounded twice.
constexpr double tolerance(const problem& p) { return relative_tolerance(length(p) + 2); }
verification verify(const problem& p, const std::vector<double>& a,
                    const std::vector<double>& a_reference);

// --- the paper's configurations (Table 1.3: time without DLB, under external load) -------------
struct paper_run {
  int processors;
  std::size_t n;
  double no_dlb_time_s;
};
inline constexpr std::array<paper_run, 8> table_1_3 = {{
    {4, 100, 58.1},
    {4, 150, 290.3},
    {4, 200, 879.8},
    {4, 250, 2163.4},
    {16, 100, 16.0},
    {16, 150, 82.8},
    {16, 200, 224.2},
    {16, 250, 549.7},
}};

}  // namespace apps::ac
