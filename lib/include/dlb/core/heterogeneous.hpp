// Heterogeneous workstations (beyond the paper): named mixes of base speeds
// S_i, the initial distribution in proportion to speed (the paper's model allows lambda_i(0)
// proportional to S_i; its experiments use equal blocks), and groups of equal total power for
// the local strategies. Pure: values in, values out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "dlb/core/distribution.hpp"

namespace dlb::core {

// The range of a base speed S_i (--speeds): a ratio of 10^6 between two slaves at most, and no
// speed whose products with the run's times overflow or underflow. Outside it the simulator
// aborted (1e308) or stepped through the load changes of a slave that never finished (1e-9).
inline constexpr double kMinSpeed = 1e-3;
inline constexpr double kMaxSpeed = 1e3;
// Under the simulator, the slowest S_i times tl (seconds) at least this: a run visits every
// change of a slave's load (and its model every load block, with or without load), about
// (work / S_i) / tl of them, and this bounds their number to 10^4 times that of a run at
// S_i = 1, tl = 1 s. (The applications bound t_op / (S_i tl) too: apps/common, validate_t_op.)
inline constexpr double kMinSpeedTimesPersistence = 1e-4;

// The speeds of a named mix on P slaves (letter case ignored), or nothing for an unknown name:
//   uniform    every S_i = 1;
//   half2x     the second half (slaves floor(P/2) .. P-1, 0-based) at 2, the first at 1;
//   quarter4x  the last ceil(P/4) slaves at 4, the others at 1;
//   ramp       S_i = 1 + i / (P - 1): from 1 to 2 in equal steps (1 for P = 1).
// Throws std::invalid_argument for P = 0.
std::optional<std::vector<double>> speed_mix(std::string_view name, std::size_t slaves);
// "uniform half2x quarter4x ramp", for messages.
std::string_view known_speed_mixes();

// lambda_i(0) proportional to S_i: consecutive blocks, slave 0 at the front, the counts
// proportional_counts(speeds, I) (largest remainders, ties to the lower slave), so equal speeds
// give equal_blocks exactly. Throws std::invalid_argument for no slaves, I < 0 or a speed <= 0.
std::vector<range_list> speed_proportional_blocks(std::int64_t iterations,
                                                  const std::vector<double>& speeds);

// Groups of (nearly) equal total power for the local strategies: as many groups, of the same
// sizes, as the K-block groups (groups.hpp): ceil(P/K) groups of K, the last one smaller. When
// the K-block groups already have equal total power (relative 1e-9) they are returned as they
// are, so equal speeds keep the paper's K-block groups. Otherwise slaves are placed in order of
// decreasing speed (ties: lower slave first), each in the group of least total power that has
// room (ties: lower group); members ascending within a group, groups ordered by their lowest
// member. Throws std::invalid_argument for no slaves, K = 0 or a speed <= 0.
std::vector<std::vector<std::size_t>> power_groups(const std::vector<double>& speeds,
                                                   std::size_t group_size);

}  // namespace dlb::core
