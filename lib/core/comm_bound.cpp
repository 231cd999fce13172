// The communication-aware bound (comm_bound.hpp).
#include "dlb/core/comm_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "dlb/core/oracle.hpp"

namespace dlb::core {

namespace {

constexpr std::size_t kExactUpTo = 256;

void check(const comm_costs& c) {
  for (double v : {c.scatter_send, c.scatter_wire, c.scatter_after, c.gather_last,
                   c.medium_total})
    if (!(v >= 0.0) || !std::isfinite(v))
      throw std::invalid_argument("comm_bound: costs must be finite and >= 0");
}

// The capacity the scatter costs at best: L of comm_bound.hpp, from C[i][k] = C_i(a_k).
double lost_capacity(const std::vector<std::vector<double>>& C, bool& exact) {
  exact = C.size() <= kExactUpTo;
  if (exact) return min_assignment(C);
  double sum = 0.0;
  for (std::size_t k = 0; k < C.size(); ++k) {
    double least = std::numeric_limits<double>::infinity();
    for (const auto& row : C) least = std::min(least, row[k]);
    sum += least;
  }
  return sum;
}

}  // namespace

double min_assignment(const std::vector<std::vector<double>>& cost) {
  const std::size_t n = cost.size();
  for (const auto& row : cost)
    if (row.size() != n) throw std::invalid_argument("min_assignment: the matrix is not square");
  if (n == 0) return 0.0;
  // Potentials u (rows) and v (columns), 1-based with column 0 as the free root; col_row[j]:
  // the row matched to column j; via[j]: the previous column on the shortest augmenting path.
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> u(n + 1, 0.0), v(n + 1, 0.0);
  std::vector<std::size_t> col_row(n + 1, 0), via(n + 1, 0);
  for (std::size_t i = 1; i <= n; ++i) {
    col_row[0] = i;
    std::size_t j0 = 0;
    std::vector<double> slack(n + 1, inf);
    std::vector<bool> used(n + 1, false);
    do {
      used[j0] = true;
      const std::size_t i0 = col_row[j0];
      double delta = inf;
      std::size_t j1 = 0;
      for (std::size_t j = 1; j <= n; ++j) {
        if (used[j]) continue;
        const double reduced = cost[i0 - 1][j - 1] - u[i0] - v[j];
        if (reduced < slack[j]) {
          slack[j] = reduced;
          via[j] = j0;
        }
        if (slack[j] < delta) {
          delta = slack[j];
          j1 = j;
        }
      }
      for (std::size_t j = 0; j <= n; ++j) {
        if (used[j]) {
          u[col_row[j]] += delta;
          v[j] -= delta;
        } else {
          slack[j] -= delta;
        }
      }
      j0 = j1;
    } while (col_row[j0] != 0);
    do {  // flip the augmenting path back to the root
      const std::size_t j1 = via[j0];
      col_row[j0] = col_row[j1];
      j0 = j1;
    } while (j0 != 0);
  }
  double total = 0.0;
  for (std::size_t j = 1; j <= n; ++j) total += cost[col_row[j] - 1][j - 1];
  return total;
}

comm_bound_result comm_bound(const load_function& load, std::span<const double> speeds, double t0,
                             double work, const comm_costs& costs) {
  check(costs);
  comm_bound_result r;
  r.oracle_end = oracle_makespan(load, speeds, t0, work);  // validates the rest
  const std::size_t P = speeds.size();
  const double s = costs.scatter_send, w = costs.scatter_wire;
  std::vector<double> arrival(P);
  for (std::size_t k = 0; k < P; ++k) {
    const double n = static_cast<double>(k + 1);
    arrival[k] = t0 + std::max(n * s + w, s + n * w) + costs.scatter_after;
  }
  r.last_arrival = arrival.back();
  r.end = std::max({r.oracle_end, r.last_arrival + costs.gather_last, t0 + costs.medium_total});
  // C[i][k]: what slave i could have done by slot k's arrival.
  std::vector<std::vector<double>> C(P, std::vector<double>(P));
  double most_by_last = 0.0;
  for (std::size_t i = 0; i < P; ++i) {
    for (std::size_t k = 0; k < P; ++k) C[i][k] = work_done(load, i, speeds[i], t0, arrival[k]);
    most_by_last = std::max(most_by_last, C[i][P - 1]);
  }
  // Could the work be done before the last slave has its data? Then T_c does not apply.
  if (static_cast<double>(P - 1) * most_by_last >= work) return r;
  r.lost_capacity = lost_capacity(C, r.exact_assignment);
  r.compute_end = oracle_makespan(load, speeds, t0, work + r.lost_capacity);
  r.end = std::max(r.end, r.compute_end + costs.gather_last);
  return r;
}

}  // namespace dlb::core
