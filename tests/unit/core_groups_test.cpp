// Unit tests of K-block groups.
#include <gtest/gtest.h>

#include <stdexcept>

#include "dlb/core/groups.hpp"

namespace dlb::core {
namespace {

TEST(Groups, CountIsCeilPOverK) {
  struct row {
    std::size_t slaves;
    std::size_t group_size;
    std::size_t expected;
  };
  const std::vector<row> table = {
      {4, 2, 2},   // the paper's P = 4: two groups of 2
      {16, 8, 2},  // the paper's P = 16: two groups of 8
      {5, 2, 3},   // the last group is smaller
      {7, 3, 3},   // 3, 3, 1
      {4, 4, 1},   // K = P: the global case
      {4, 8, 1},   // K > P: still one group
      {1, 1, 1},   // one slave
      {6, 1, 6},   // K = 1: every slave alone
  };
  for (const auto& r : table) {
    EXPECT_EQ(group_count(r.slaves, r.group_size), r.expected)
        << "P=" << r.slaves << " K=" << r.group_size;
  }
}

TEST(Groups, MembersAreConsecutiveSlaves) {
  struct row {
    std::size_t group;
    std::size_t slaves;
    std::size_t group_size;
    std::vector<std::size_t> expected;
  };
  const std::vector<row> table = {
      {0, 4, 2, {0, 1}},     {1, 4, 2, {2, 3}},
      {1, 7, 3, {3, 4, 5}},  {2, 7, 3, {6}},  // the last group is smaller
      {2, 5, 2, {4}},        {0, 3, 3, {0, 1, 2}},
      {0, 3, 10, {0, 1, 2}}, {1, 16, 8, {8, 9, 10, 11, 12, 13, 14, 15}},
  };
  for (const auto& r : table) {
    SCOPED_TRACE(testing::Message()
                 << "g=" << r.group << " P=" << r.slaves << " K=" << r.group_size);
    EXPECT_EQ(group_members(r.group, r.slaves, r.group_size), r.expected);
    for (const std::size_t s : r.expected) EXPECT_EQ(group_of(s, r.slaves, r.group_size), r.group);
  }
}

TEST(Groups, RejectsImpossibleArguments) {
  EXPECT_THROW(group_count(0, 2), std::invalid_argument);
  EXPECT_THROW(group_count(4, 0), std::invalid_argument);
  EXPECT_THROW(group_of(4, 4, 2), std::invalid_argument);
  EXPECT_THROW(group_members(2, 4, 2), std::invalid_argument);
}

}  // namespace
}  // namespace dlb::core
