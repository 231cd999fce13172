// Bitonic scheduling (paper section 1.5.3, Figure 1.8) in the applications' unsigned indices: a
// triangular loop of `count` iterations whose work is linear in the index becomes a uniform loop
// by fusing original iterations k and count-1-k (0-based) into one new iteration. The rule itself
// is dlb::core's (dlb/core/bitonic.hpp), shared with the runtime's array slices; this header only
// adapts it to std::size_t and a pair that names the middle iteration by first == second.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dlb/core/bitonic.hpp"

namespace apps::bitonic {

// The original iterations covered by one bitonic iteration; `second == first` when alone.
struct pair {
  std::size_t first;
  std::size_t second;
  constexpr bool single() const { return first == second; }
  constexpr bool operator==(const pair&) const = default;
};

// Number of iterations of the uniform loop: ceil(count / 2).
constexpr std::size_t iteration_count(std::size_t count) {
  return static_cast<std::size_t>(dlb::core::bitonic_iterations(static_cast<std::int64_t>(count)));
}

// Original iterations of bitonic iteration k, for k < iteration_count(count).
constexpr pair originals(std::size_t k, std::size_t count) {
  const auto p =
      dlb::core::bitonic_originals(static_cast<std::int64_t>(k), static_cast<std::int64_t>(count));
  return {k, static_cast<std::size_t>(p.second.value_or(p.first))};
}

// The bitonic iteration that covers original iteration i, for i < count.
constexpr std::size_t iteration_of(std::size_t i, std::size_t count) {
  return static_cast<std::size_t>(
      dlb::core::bitonic_index(static_cast<std::int64_t>(i), static_cast<std::int64_t>(count)));
}

}  // namespace apps::bitonic
