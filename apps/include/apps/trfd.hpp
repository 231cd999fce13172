// TRFD, after the Perfect Club benchmark as the paper uses it (section 1.5.3, Figure 1.5): one
// N x N array, N = n(n+1)/2, whose rows and columns are indexed by packed index pairs
// (j,k), j >= k; it is distributed by column blocks. Loop 1 (uniform, N iterations) transforms
// every column, the master transposes the array sequentially, loop 2 (triangular, made uniform by
// bitonic scheduling into ceil(N/2) iterations) transforms every column again.
//
// The transformation (our choice; see apps/README.md): each column holds a symmetric n x n
// matrix X in packed form, and f(X) = G X + X G^T is the symmetric one-index transformation of
// quantum chemistry by an n x n coefficient matrix G. On the symmetric input array A of
// integrals (pq|rs) = (rs|pq), loop 1 gives F A, the transpose A F^T, loop 2 Z = F A F^T, where F
// is f as an N x N matrix. Z is symmetric, so loop 2 only computes rows >= the column index
// (the lower triangle): that is what makes loop 2 triangular, as TRFD's (ij|kl) = (kl|ij) does.
//
// Storage: the array is column-major, column c is the N contiguous doubles at a + c * N; G is
// row-major n x n. Indices are 0-based. Pure functions: no global state, no I/O.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "apps/bitonic.hpp"
#include "apps/element_hash.hpp"
#include "apps/verify.hpp"

namespace apps::trfd {

struct problem {
  std::size_t n = 0;  // the paper's input parameter (number of orbitals)
  std::uint64_t seed = 1;
};

// N = n(n+1)/2: rows, columns, and loop-1 iterations.
constexpr std::size_t pair_count(std::size_t n) { return n * (n + 1) / 2; }
constexpr std::size_t pair_count(const problem& p) { return pair_count(p.n); }

// Packed index of the pair (j,k), j >= k: j(j+1)/2 + k (the paper's A[j(j+1)/2 + k], 0-based).
constexpr std::size_t pair_index(std::size_t j, std::size_t k) { return j * (j + 1) / 2 + k; }

// --- input data --------------------------------------------------------------------------------
// A is symmetric, A[row][col] = A[col][row], as two-electron integrals are.
inline double integral_element(const problem& p, std::size_t row, std::size_t col) {
  const std::size_t hi = row > col ? row : col;
  const std::size_t lo = row > col ? col : row;
  return element_uniform(p.seed, array_id::trfd_integrals, pair_index(hi, lo), input_lo, input_hi);
}
// G[j][t], scaled by 1/n so that f keeps magnitudes O(1) whatever n.
inline double coefficient_element(const problem& p, std::size_t j, std::size_t t) {
  return element_uniform(p.seed, array_id::trfd_coefficients, j * p.n + t, input_lo, input_hi) /
         static_cast<double>(p.n);
}
void fill_integral_column(const problem& p, std::size_t col, double* column);  // N values
std::vector<double> make_integrals(const problem& p);     // N * N, column-major
std::vector<double> make_coefficients(const problem& p);  // n * n, row-major (replicated)

// --- loop 1: uniform, one iteration per column -------------------------------------------------
constexpr std::size_t loop1_iterations(const problem& p) { return pair_count(p); }

// Column c <- f(column c), in place: the n x n symmetric matrix is unpacked (n^2 copies), then
// for every packed row (j,k), k <= j: out = dot(G_j, X_k) + dot(X_j, G_k) (2n multiply-adds, one
// add, one store). Figure 1.5's `A[j(j+1)/2 + k][i] = B[k]` is the store.
void loop1_column(std::size_t n, const double* g, double* column);

// Basic operations (multiply-add, add, copy, store each count 1) of one loop-1 iteration:
// n^2 + N(2n + 2) = n^3 + 3n^2 + n, exactly the paper's formula.
constexpr std::uint64_t loop1_ops(std::size_t n) {
  return static_cast<std::uint64_t>(n) * n +
         pair_count(n) * (2 * static_cast<std::uint64_t>(n) + 2);
}
constexpr std::uint64_t loop1_total_ops(std::size_t n) { return pair_count(n) * loop1_ops(n); }

// Doubles moved with one loop-1 iteration: one column (the paper's D, "the row size").
constexpr std::size_t loop1_doubles_per_iteration(const problem& p) { return pair_count(p); }

// --- the sequential transpose on the master ----------------------------------------------------
void transpose(std::size_t count, double* a);  // in place, count x count
constexpr std::uint64_t transpose_ops(std::size_t n) {
  return static_cast<std::uint64_t>(pair_count(n)) * (pair_count(n) - 1) / 2;  // swaps
}

// --- loop 2: triangular over columns, uniform over bitonic iterations --------------------------
// Original iteration c: rows c..N-1 of column c <- the same rows of f(column c); rows < c are
// not touched (they mirror computed elements of the symmetric result).
void loop2_column(std::size_t n, const double* g, std::size_t col, double* column);

// n^2 + (N - c)(2n + 2): linear in c, so each bitonic pair costs the same.
constexpr std::uint64_t loop2_column_ops(std::size_t n, std::size_t col) {
  return static_cast<std::uint64_t>(n) * n +
         (pair_count(n) - col) * (2 * static_cast<std::uint64_t>(n) + 2);
}

constexpr std::size_t loop2_iterations(const problem& p) {
  return bitonic::iteration_count(pair_count(p));
}

// Bitonic iteration k: columns k and N-1-k. `column_second` is ignored (may be null) when k is
// the middle column of an odd N.
void loop2_iteration(std::size_t n, const double* g, std::size_t k, double* column_first,
                     double* column_second);

// 2n^2 + (N + 1)(2n + 2) for a pair; n^2 + (N + 1)(n + 1) for the middle column of an odd N.
constexpr std::uint64_t loop2_ops(std::size_t n, std::size_t k) {
  const bitonic::pair cols = bitonic::originals(k, pair_count(n));
  return cols.single() ? loop2_column_ops(n, cols.first)
                       : loop2_column_ops(n, cols.first) + loop2_column_ops(n, cols.second);
}
constexpr std::uint64_t loop2_total_ops(std::size_t n) {
  const std::uint64_t count = pair_count(n);
  return count * n * n + (n + 1) * count * (count + 1);
}

// Doubles moved with one loop-2 iteration: its one or two columns.
constexpr std::size_t loop2_doubles_per_iteration(const problem& p, std::size_t k) {
  return bitonic::originals(k, pair_count(p)).single() ? pair_count(p) : 2 * pair_count(p);
}

// --- the paper's work formulas, verbatim (i is the paper's 1-based outer index) ----------------
constexpr double paper_loop1_work(std::size_t n) {
  const double x = static_cast<double>(n);
  return x * x * x + 3 * x * x + x;
}
// n^3 + (3 - r/2)n^2 + (2 - r - r^2/2)n + (r - r^2)/2, r = (1 + sqrt(-7 + 8i))/2: r is the row j
// of the pair with packed index i (exact when i starts a row), so this equals
// (n + 1 - r)(n(n + 2) + r(n + 1)/2).
inline double paper_loop2_work(std::size_t n, std::size_t i) {
  const double x = static_cast<double>(n);
  const double r = (1.0 + std::sqrt(-7.0 + 8.0 * static_cast<double>(i))) / 2.0;
  return x * x * x + (3 - r / 2) * x * x + (2 - r - r * r / 2) * x + (r - r * r) / 2;
}

// --- sequential reference and verification -----------------------------------------------------
// The whole sequential program: loop 1 over all columns, transpose, loop 2 over all columns.
std::vector<double> reference(const problem& p);
// The array after loop 1 only (for checking loop 1 on its own; the loops are balanced apart).
std::vector<double> reference_loop1(const problem& p);

// Each result element is two nested chains of about n + 1 roundings over positive terms.
constexpr double tolerance(const problem& p) { return relative_tolerance(2 * p.n + 2); }
// Compares the result, i.e. the lower triangle (row >= col) of the N x N array after loop 2.
verification verify(const problem& p, const std::vector<double>& a,
                    const std::vector<double>& a_reference);
// Compares the whole array after loop 1.
verification verify_loop1(const problem& p, const std::vector<double>& a,
                          const std::vector<double>& a_reference);

// --- the paper's configurations (Table 1.2: time without DLB, under external load) -------------
struct paper_run {
  int processors;
  std::size_t n;
  double no_dlb_time_s;
};
inline constexpr std::array<paper_run, 6> table_1_2 = {{
    {4, 30, 31.4},
    {4, 40, 111.6},
    {4, 50, 417.4},
    {16, 30, 23.0},
    {16, 40, 70.0},
    {16, 50, 246.9},
}};

}  // namespace apps::trfd
