// The external load of section 1.3.1 and its effect on a slave's speed (section 1.3.2).
//
// Slave i carries an integer load l_i(k), uniform in 0..ml, during the k-th duration of
// persistence [k*tl, (k+1)*tl) (0-based k; the paper's 1-based block a = ceil(t/tl) is our
// k + 1). Its effective speed there is S_i / (l_i(k) + 1). The load is a pure function of
// (seed, slave, block): a counter-based hash, not a generator with state, so every strategy of a
// comparison, and every process of a run, sees exactly the same load.
//
// Units: `work` is in base seconds (the paper's T: seconds on the unloaded base processor, NPS
// 1). A slave of normalized speed S_i under load l does S_i / (l + 1) base seconds of work per
// second.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "dlb/core/paper.hpp"

namespace dlb::core {

// splitmix64's output function applied to x + golden gamma: a bijective 64-bit mix.
std::uint64_t splitmix64(std::uint64_t x);

// The 0-based persistence block containing time t: floor(t / tl). tl may be +infinity (one block).
std::int64_t load_block(double t, double persistence);
// When block k ends: (k + 1) tl, the one rule of a load block's end (+infinity under an infinite
// tl: block 0 never ends). Rounding in floor(t / tl) can name the block that ends exactly at t;
// its users skip it.
double block_end(std::int64_t k, double persistence);

// l_i(k), uniform in 0..max_load. Throws std::invalid_argument for max_load < 0.
int load_in_block(std::uint64_t seed, std::size_t slave, std::int64_t block, int max_load);
// l_i at time t. Throws std::invalid_argument for max_load < 0 or persistence <= 0.
int load_at(std::uint64_t seed, std::size_t slave, double t, double persistence, int max_load);

// S_i / (load + 1).
double effective_speed(double base_speed, int load);

// The default duration of persistence tl, seconds (the paper leaves it unstated; also --tl's).
inline constexpr double kDefaultPersistence = 5.0;

// A whole load function: the hashed one, or a given matrix of loads per block.
struct load_function {
  std::uint64_t seed = 0;
  int max_load = paper::max_load;            // ml
  double persistence = kDefaultPersistence;  // tl, seconds; +infinity means a constant load
  // If non-empty, table[slave][block] replaces the hash (a recorded or hand-made load). Past the
  // end of a row its last value persists; an empty row is no load; a slave without a row throws.
  std::vector<std::vector<int>> table;
  // The first unloaded_blocks blocks carry no load, whatever the hash or table says (a load that
  // starts during the run: --load-after; beyond the paper).
  std::int64_t unloaded_blocks = 0;
};

int load_in_block(const load_function& load, std::size_t slave, std::int64_t block);
int load_at(const load_function& load, std::size_t slave, double t);

// Base seconds of work slave `slave` does between t0 and t1 (0 if t1 <= t0), integrated exactly
// over the load blocks. Throws std::invalid_argument for base_speed <= 0 or persistence <= 0.
double work_done(const load_function& load, std::size_t slave, double base_speed, double t0,
                 double t1);
// The time at which `work` base seconds started at t0 finish: the inverse of work_done in t1.
// Throws std::invalid_argument for work < 0, base_speed <= 0 or persistence <= 0.
double finish_time(const load_function& load, std::size_t slave, double base_speed, double t0,
                   double work);

// Average effective speed over [t0, t1], weighted by time: work_done / (t1 - t0); the effective
// speed at t0 if t1 <= t0. This is the speed that makes eq. 1.3.1 exact.
double mean_effective_speed(const load_function& load, std::size_t slave, double base_speed,
                            double t0, double t1);
// sigma_i(j) exactly as printed in section 1.3.2: the plain average of S_i / (l_i(k) + 1) over
// the blocks k that [t0, t1] touches, each block counted once however little of it is covered.
double block_average_speed(const load_function& load, std::size_t slave, double base_speed,
                           double t0, double t1);
// lambda_i(j) = S_i / sigma_i(j): the effective load (1 when unloaded).
double effective_load(double base_speed, double sigma);

}  // namespace dlb::core
