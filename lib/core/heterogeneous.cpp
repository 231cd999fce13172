// Heterogeneous workstations: speed mixes, speed-proportional blocks, equal-power groups
// (heterogeneous.hpp).
#include "dlb/core/heterogeneous.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "dlb/core/groups.hpp"
#include "dlb/core/redistribution.hpp"

namespace dlb::core {
namespace {

void check_speeds(const std::vector<double>& speeds, const char* who) {
  if (speeds.empty()) throw std::invalid_argument(std::string(who) + ": no slaves");
  for (double s : speeds)
    if (!(s > 0) || !std::isfinite(s))
      throw std::invalid_argument(std::string(who) + ": speeds must be finite and > 0");
}

}  // namespace

std::string_view known_speed_mixes() { return "uniform half2x quarter4x ramp"; }

std::optional<std::vector<double>> speed_mix(std::string_view name, std::size_t slaves) {
  if (slaves == 0) throw std::invalid_argument("speed_mix: no slaves");
  std::string n(name);
  for (char& c : n) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::vector<double> s(slaves, 1.0);
  if (n == "uniform") return s;
  if (n == "half2x") {
    for (std::size_t i = slaves / 2; i < slaves; ++i) s[i] = 2.0;
    return s;
  }
  if (n == "quarter4x") {
    const std::size_t fast = (slaves + 3) / 4;
    for (std::size_t i = slaves - fast; i < slaves; ++i) s[i] = 4.0;
    return s;
  }
  if (n == "ramp") {
    for (std::size_t i = 0; i < slaves && slaves > 1; ++i)
      s[i] = 1.0 + static_cast<double>(i) / static_cast<double>(slaves - 1);
    return s;
  }
  return std::nullopt;
}

std::vector<range_list> speed_proportional_blocks(std::int64_t iterations,
                                                  const std::vector<double>& speeds) {
  check_speeds(speeds, "speed_proportional_blocks");
  if (iterations < 0) throw std::invalid_argument("speed_proportional_blocks: I < 0");
  return blocks_of(proportional_work_counts(iterations, speeds, {}));
}

std::vector<std::vector<std::size_t>> power_groups(const std::vector<double>& speeds,
                                                   std::size_t group_size) {
  check_speeds(speeds, "power_groups");
  const std::size_t P = speeds.size();
  const std::size_t G = group_count(P, group_size);
  std::vector<std::vector<std::size_t>> block(G);
  std::vector<double> power(G, 0.0);
  for (std::size_t g = 0; g < G; ++g) {
    block[g] = group_members(g, P, group_size);
    for (std::size_t m : block[g]) power[g] += speeds[m];
  }
  const auto [lo, hi] = std::minmax_element(power.begin(), power.end());
  if (*hi - *lo <= 1e-9 * *hi) return block;
  std::vector<std::size_t> order(P);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return speeds[a] > speeds[b]; });
  std::vector<std::vector<std::size_t>> groups(G);
  std::fill(power.begin(), power.end(), 0.0);
  for (const std::size_t s : order) {
    std::size_t best = G;
    for (std::size_t g = 0; g < G; ++g) {
      if (groups[g].size() >= block[g].size()) continue;
      if (best == G || power[g] < power[best]) best = g;
    }
    groups[best].push_back(s);
    power[best] += speeds[s];
  }
  for (auto& g : groups) std::sort(g.begin(), g.end());
  std::sort(groups.begin(), groups.end(),
            [](const auto& a, const auto& b) { return a.front() < b.front(); });
  return groups;
}

}  // namespace dlb::core
