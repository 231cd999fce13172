// K-block groups for the local strategies (section 1.2.1): slaves 0..K-1 form group 0, K..2K-1
// group 1, and so on; the last group may be smaller, so there are ceil(P/K) groups. Work moves
// only within a group. The global strategies are the case K = P (one group).
#pragma once

#include <cstddef>
#include <vector>

namespace dlb::core {

// Throws std::invalid_argument for slaves == 0 or group_size == 0. A group size above P means
// one group of all P slaves.
std::size_t group_count(std::size_t slaves, std::size_t group_size);
// Also throws std::invalid_argument for slave >= slaves.
std::size_t group_of(std::size_t slave, std::size_t slaves, std::size_t group_size);
// The slaves of `group`, ascending. Also throws std::invalid_argument for group >= group_count.
std::vector<std::size_t> group_members(std::size_t group, std::size_t slaves,
                                       std::size_t group_size);
// The index of the group (a list of groups, each a list of slaves) that holds `slave`. Throws
// std::invalid_argument if none does.
int group_containing(const std::vector<std::vector<std::size_t>>& groups, std::size_t slave);

}  // namespace dlb::core
