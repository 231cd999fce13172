// External load: the hashed load function and exact integration of work across load blocks.
#include "dlb/core/load.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dlb::core {
namespace {

void check_load(const load_function& load) {
  if (!(load.persistence > 0.0)) throw std::invalid_argument("load: persistence must be > 0");
  if (load.max_load < 0) throw std::invalid_argument("load: max_load must be >= 0");
}

void check_speed(double base_speed) {
  if (!(base_speed > 0.0) || !std::isfinite(base_speed)) {
    throw std::invalid_argument("load: base speed must be finite and > 0");
  }
}

// First block from which the load never changes again (a table's last entry), or -1 if it may
// change forever (the hash).
std::int64_t constant_from(const load_function& load, std::size_t slave) {
  if (load.table.empty()) return -1;
  if (slave >= load.table.size()) throw std::invalid_argument("load: no table row for slave");
  return std::max<std::int64_t>(
      {static_cast<std::int64_t>(load.table[slave].size()) - 1, load.unloaded_blocks, 0});
}

}  // namespace

double block_end(std::int64_t k, double persistence) {
  return static_cast<double>(k + 1) * persistence;
}

std::uint64_t splitmix64(std::uint64_t x) {
  std::uint64_t z = x + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::int64_t load_block(double t, double persistence) {
  return static_cast<std::int64_t>(std::floor(t / persistence));
}

int load_in_block(std::uint64_t seed, std::size_t slave, std::int64_t block, int max_load) {
  if (max_load < 0) throw std::invalid_argument("load_in_block: max_load must be >= 0");
  // Mixing after each part of the key keeps (slave, block) and (block, slave) apart.
  std::uint64_t h = splitmix64(seed);
  h = splitmix64(h ^ static_cast<std::uint64_t>(slave));
  h = splitmix64(h ^ static_cast<std::uint64_t>(block));
  // The modulo bias is below (ml + 1) / 2^64: irrelevant next to the sample sizes involved.
  return static_cast<int>(h % (static_cast<std::uint64_t>(max_load) + 1));
}

int load_at(std::uint64_t seed, std::size_t slave, double t, double persistence, int max_load) {
  if (!(persistence > 0.0)) throw std::invalid_argument("load_at: persistence must be > 0");
  return load_in_block(seed, slave, load_block(t, persistence), max_load);
}

double effective_speed(double base_speed, int load) { return base_speed / (load + 1); }

int load_in_block(const load_function& load, std::size_t slave, std::int64_t block) {
  if (block < load.unloaded_blocks) return 0;
  if (load.table.empty()) return load_in_block(load.seed, slave, block, load.max_load);
  if (slave >= load.table.size()) throw std::invalid_argument("load: no table row for slave");
  const auto& row = load.table[slave];
  if (row.empty()) return 0;
  const auto k = std::clamp<std::int64_t>(block, 0, static_cast<std::int64_t>(row.size()) - 1);
  return row[static_cast<std::size_t>(k)];
}

int load_at(const load_function& load, std::size_t slave, double t) {
  check_load(load);
  return load_in_block(load, slave, load_block(t, load.persistence));
}

double work_done(const load_function& load, std::size_t slave, double base_speed, double t0,
                 double t1) {
  check_load(load);
  check_speed(base_speed);
  if (!(t1 > t0)) return 0.0;
  const std::int64_t steady = constant_from(load, slave);
  double work = 0.0;
  double t = t0;
  for (std::int64_t k = load_block(t0, load.persistence); t < t1; ++k) {
    const double rate = effective_speed(base_speed, load_in_block(load, slave, k));
    const double end =
        steady >= 0 && k >= steady ? t1 : std::min(t1, block_end(k, load.persistence));
    if (end > t) {
      work += (end - t) * rate;
      t = end;
    }
  }
  return work;
}

double finish_time(const load_function& load, std::size_t slave, double base_speed, double t0,
                   double work) {
  check_load(load);
  check_speed(base_speed);
  if (work < 0.0) throw std::invalid_argument("finish_time: negative work");
  const std::int64_t steady = constant_from(load, slave);
  double left = work;
  double t = t0;
  for (std::int64_t k = load_block(t0, load.persistence);; ++k) {
    const double rate = effective_speed(base_speed, load_in_block(load, slave, k));
    if (steady >= 0 && k >= steady) return t + left / rate;
    const double end = block_end(k, load.persistence);
    // Rounding in floor(t / tl) can name the block that ends exactly at t: skip it.
    if (!(end > t)) continue;
    const double capacity = (end - t) * rate;
    if (left <= capacity) return t + left / rate;
    left -= capacity;
    t = end;
  }
}

double mean_effective_speed(const load_function& load, std::size_t slave, double base_speed,
                            double t0, double t1) {
  if (!(t1 > t0)) return effective_speed(base_speed, load_at(load, slave, t0));
  return work_done(load, slave, base_speed, t0, t1) / (t1 - t0);
}

double block_average_speed(const load_function& load, std::size_t slave, double base_speed,
                           double t0, double t1) {
  check_load(load);
  check_speed(base_speed);
  const std::int64_t first = load_block(t0, load.persistence);
  // The last block with a moment inside [t0, t1]; t1 on a boundary does not touch the next one.
  const std::int64_t last =
      std::max(first, static_cast<std::int64_t>(std::ceil(t1 / load.persistence)) - 1);
  double sum = 0.0;
  for (std::int64_t k = first; k <= last; ++k) {
    sum += effective_speed(base_speed, load_in_block(load, slave, k));
  }
  return sum / static_cast<double>(last - first + 1);
}

double effective_load(double base_speed, double sigma) { return base_speed / sigma; }

}  // namespace dlb::core
