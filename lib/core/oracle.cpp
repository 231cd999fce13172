// The oracle bound: an ideal balancer's makespan under the run's load function.
#include "dlb/core/oracle.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace dlb::core {

double oracle_makespan(const load_function& load, std::span<const double> speeds, double t0,
                       double work) {
  if (speeds.empty()) throw std::invalid_argument("oracle_makespan: no slaves");
  if (!(work >= 0.0)) throw std::invalid_argument("oracle_makespan: negative work");
  if (!(load.persistence > 0.0)) throw std::invalid_argument("oracle_makespan: persistence <= 0");
  for (double s : speeds) {
    if (!(s > 0.0) || !std::isfinite(s))
      throw std::invalid_argument("oracle_makespan: speeds must be finite and > 0");
  }
  if (work == 0.0) return t0;
  // A recorded load (a table) is constant after its longest row; the hashed one never is.
  std::int64_t steady = -1;
  if (!load.table.empty()) {
    if (load.table.size() < speeds.size())
      throw std::invalid_argument("oracle_makespan: no table row for every slave");
    for (const auto& row : load.table)
      steady = std::max<std::int64_t>(
          steady, std::max<std::int64_t>(static_cast<std::int64_t>(row.size()) - 1, 0));
    steady = std::max(steady, load.unloaded_blocks);
  }
  const auto rate_in = [&](std::int64_t k) {
    double r = 0.0;
    for (std::size_t i = 0; i < speeds.size(); ++i)
      r += effective_speed(speeds[i], load_in_block(load, i, k));
    return r;
  };
  double left = work;
  double t = t0;
  for (std::int64_t k = load_block(t0, load.persistence);; ++k) {
    const double rate = rate_in(k);
    if (steady >= 0 && k >= steady) return t + left / rate;
    const double end = block_end(k, load.persistence);
    if (!(end > t)) continue;  // rounding in floor(t / tl) named the block ending at t
    const double capacity = (end - t) * rate;
    if (left <= capacity) return t + left / rate;
    left -= capacity;
    t = end;
  }
}

}  // namespace dlb::core
