// Test helper for the kernel tests: splits an iteration space the way a load-balancing runtime
// would hand it out, as ranges of uneven length visited in a scrambled order.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace kernel_test {

struct range {
  std::size_t begin;
  std::size_t end;
};

// Ranges of 1..max_length iterations covering [0, count) exactly once, in shuffled order.
inline std::vector<range> scrambled_ranges(std::size_t count, std::size_t max_length,
                                           std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<std::size_t> length(1, max_length);
  std::vector<range> ranges;
  for (std::size_t begin = 0; begin < count;) {
    const std::size_t end = std::min(count, begin + length(gen));
    ranges.push_back({begin, end});
    begin = end;
  }
  std::shuffle(ranges.begin(), ranges.end(), gen);
  return ranges;
}

}  // namespace kernel_test
