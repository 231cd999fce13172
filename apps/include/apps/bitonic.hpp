// Bitonic scheduling (paper section 1.5.3, Figure 1.8): a triangular loop of `count` iterations
// whose work is linear in the index becomes a uniform loop by fusing original iterations k and
// count-1-k (0-based) into one new iteration. With an odd count the middle iteration stands
// alone. Kept minimal and in one place so it can later be replaced by dlb::core's version.
#pragma once

#include <cstddef>

namespace apps::bitonic {

// The original iterations covered by one bitonic iteration; `second == first` when alone.
struct pair {
  std::size_t first;
  std::size_t second;
  constexpr bool single() const { return first == second; }
  constexpr bool operator==(const pair&) const = default;
};

// Number of iterations of the uniform loop: ceil(count / 2).
constexpr std::size_t iteration_count(std::size_t count) { return (count + 1) / 2; }

// Original iterations of bitonic iteration k, for k < iteration_count(count).
constexpr pair originals(std::size_t k, std::size_t count) { return {k, count - 1 - k}; }

// The bitonic iteration that covers original iteration i, for i < count.
constexpr std::size_t iteration_of(std::size_t i, std::size_t count) {
  return i < count - 1 - i ? i : count - 1 - i;
}

}  // namespace apps::bitonic
