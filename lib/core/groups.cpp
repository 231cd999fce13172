// K-block groups.
#include "dlb/core/groups.hpp"

#include <algorithm>
#include <stdexcept>

namespace dlb::core {
namespace {

void check(std::size_t slaves, std::size_t group_size) {
  if (slaves == 0) throw std::invalid_argument("groups: no slaves");
  if (group_size == 0) throw std::invalid_argument("groups: group size 0");
}

}  // namespace

std::size_t group_count(std::size_t slaves, std::size_t group_size) {
  check(slaves, group_size);
  return (slaves + group_size - 1) / group_size;
}

std::size_t group_of(std::size_t slave, std::size_t slaves, std::size_t group_size) {
  check(slaves, group_size);
  if (slave >= slaves) throw std::invalid_argument("group_of: slave out of range");
  return slave / group_size;
}

std::vector<std::size_t> group_members(std::size_t group, std::size_t slaves,
                                       std::size_t group_size) {
  if (group >= group_count(slaves, group_size)) {
    throw std::invalid_argument("group_members: group out of range");
  }
  const std::size_t first = group * group_size;
  const std::size_t end = std::min(slaves, first + group_size);
  std::vector<std::size_t> members;
  members.reserve(end - first);
  for (std::size_t s = first; s < end; ++s) members.push_back(s);
  return members;
}

int group_containing(const std::vector<std::vector<std::size_t>>& groups, std::size_t slave) {
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (std::find(groups[g].begin(), groups[g].end(), slave) != groups[g].end())
      return static_cast<int>(g);
  throw std::invalid_argument("group_containing: slave in no group");
}

}  // namespace dlb::core
