// MXM, the paper's matrix multiplication (section 1.5.2, Figure 1.5): Z = X Y with X n x r,
// Y r x m, Z n x m. The parallel loop runs over the rows i of Z; rows of X and Z are distributed
// by blocks, Y is replicated, and moving iteration i moves one row of X (D = r doubles).
// Pure functions on plain data: no global state, no I/O.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "apps/element_hash.hpp"
#include "apps/verify.hpp"

namespace apps::mxm {

struct problem {
  std::size_t n = 0;  // rows of X and Z: the parallel loop's iterations
  std::size_t r = 0;  // columns of X, rows of Y: the length of every dot product
  std::size_t m = 0;  // columns of Y and Z
  std::uint64_t seed = 1;
};

// --- input data (row-major); any element can be regenerated anywhere ---------------------------
inline double x_element(const problem& p, std::size_t i, std::size_t k) {
  return element_uniform(p.seed, array_id::mxm_x, i * p.r + k, input_lo, input_hi);
}
inline double y_element(const problem& p, std::size_t k, std::size_t j) {
  return element_uniform(p.seed, array_id::mxm_y, k * p.m + j, input_lo, input_hi);
}
void fill_x_row(const problem& p, std::size_t i, double* x_row);  // r values
std::vector<double> make_x(const problem& p);                     // n * r
std::vector<double> make_y(const problem& p);                     // r * m

// --- the parallel loop -------------------------------------------------------------------------
constexpr std::size_t iterations(const problem& p) { return p.n; }

// Iteration i: z_row = x_row * Y, i.e. z_row[j] = sum_{k<r} x_row[k] * y[k*m + j], summed in
// ascending k starting from 0 (the paper's `Z[i][j] += ...` on a zero-initialized Z).
// z_row is overwritten. The i-k-j loop order keeps Y's rows streaming; per element the
// summation order is the same as the paper's i-j-k order, so results are bitwise equal.
void compute_row(const double* x_row, const double* y, double* z_row, std::size_t r, std::size_t m);

// Consecutive local rows: `count` rows of X (count * r) give `count` rows of Z (count * m).
void compute_rows(const double* x_rows, const double* y, double* z_rows, std::size_t count,
                  std::size_t r, std::size_t m);

// Work of iteration i in basic operations, one operation = one multiply-add (2 flops):
// r * m. The paper writes O(n*m) for a square case; the inner loops are really r * m.
constexpr std::uint64_t ops(const problem& p, std::size_t /*i*/) {
  return static_cast<std::uint64_t>(p.r) * p.m;
}
constexpr std::uint64_t total_ops(const problem& p) { return p.n * ops(p, 0); }

// Doubles moved with one iteration when load balancing moves it: one row of X (the paper's
// D = N_X2 = r). Z's row is produced where the iteration runs and gathered at the end.
constexpr std::size_t doubles_per_iteration(const problem& p) { return p.r; }

// --- sequential reference and verification -----------------------------------------------------
// The paper's sequential loop nest, i-j-k, on freshly generated X and Y; returns Z (n * m).
std::vector<double> reference(const problem& p);

// Each element of Z is a sum of r positive products: relative_tolerance(r).
constexpr double tolerance(const problem& p) { return relative_tolerance(p.r); }
verification verify(const problem& p, const std::vector<double>& z,
                    const std::vector<double>& z_reference);

// --- the paper's configurations (Table 1.1: time without DLB, under external load) -------------
struct paper_run {
  int processors;
  std::size_t n, r, m;
  double no_dlb_time_s;
};
inline constexpr std::array<paper_run, 8> table_1_1 = {{
    {4, 400, 400, 400, 143.7},
    {4, 400, 800, 400, 428.6},
    {4, 800, 400, 400, 351.0},
    {4, 800, 800, 400, 722.3},
    {16, 1600, 400, 400, 266.1},
    {16, 1600, 800, 400, 535.9},
    {16, 3200, 400, 400, 532.1},
    {16, 3200, 800, 400, 1057.3},
}};

}  // namespace apps::mxm
