// Bitonic scheduling (section 1.5.3, after [4]): a triangular loop, whose work grows linearly
// with the iteration, becomes a uniform loop by pairing iteration i with n - i + 1 (1-based);
// each pair does the same total work. With an odd n the middle iteration stands alone.
//
// All indices in this API are 0-BASED: new iteration k (0 <= k < ceil(n/2)) combines original
// iterations k and n - 1 - k. This header is the one place of the pairing rule: the runtime's
// array slices (lib/runtime/arrays.cpp) and the applications' kernels (apps/bitonic.hpp) use it.
// constexpr, so the applications' compile-time problem sizes can use it.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>

namespace dlb::core {

struct bitonic_pair {
  std::int64_t first = 0;              // original iteration k
  std::optional<std::int64_t> second;  // original iteration n-1-k; empty for the odd middle

  friend constexpr bool operator==(const bitonic_pair&, const bitonic_pair&) = default;
};

// ceil(n/2): the iterations of the paired loop. Throws std::invalid_argument for n < 0.
constexpr std::int64_t bitonic_iterations(std::int64_t n) {
  if (n < 0) throw std::invalid_argument("bitonic_iterations: negative n");
  return (n + 1) / 2;
}

// The mirror of original iteration i in a loop of n: n - 1 - i (i itself for the odd middle).
constexpr std::int64_t bitonic_mirror(std::int64_t i, std::int64_t n) { return n - 1 - i; }

// The original iterations combined in new iteration k.
// Throws std::invalid_argument unless 0 <= k < bitonic_iterations(n).
constexpr bitonic_pair bitonic_originals(std::int64_t k, std::int64_t n) {
  if (k < 0 || k >= bitonic_iterations(n)) {
    throw std::invalid_argument("bitonic_originals: index out of range");
  }
  const std::int64_t mirror = bitonic_mirror(k, n);
  if (mirror == k) return {k, std::nullopt};
  return {k, mirror};
}

// The new iteration that contains original iteration i: min(i, n - 1 - i).
// Throws std::invalid_argument unless 0 <= i < n.
constexpr std::int64_t bitonic_index(std::int64_t original, std::int64_t n) {
  if (original < 0 || original >= n) {
    throw std::invalid_argument("bitonic_index: index out of range");
  }
  const std::int64_t mirror = bitonic_mirror(original, n);
  return original < mirror ? original : mirror;
}

}  // namespace dlb::core
