// Bitonic scheduling (section 1.5.3, after [4]): a triangular loop, whose work grows linearly
// with the iteration, becomes a uniform loop by pairing iteration i with n - i + 1 (1-based);
// each pair does the same total work. With an odd n the middle iteration stands alone.
//
// All indices in this API are 0-BASED: new iteration k (0 <= k < ceil(n/2)) combines original
// iterations k and n - 1 - k.
#pragma once

#include <cstdint>
#include <optional>

namespace dlb::core {

struct bitonic_pair {
  std::int64_t first = 0;              // original iteration k
  std::optional<std::int64_t> second;  // original iteration n-1-k; empty for the odd middle

  friend bool operator==(const bitonic_pair&, const bitonic_pair&) = default;
};

// ceil(n/2): the iterations of the paired loop. Throws std::invalid_argument for n < 0.
std::int64_t bitonic_iterations(std::int64_t n);
// The original iterations combined in new iteration k.
// Throws std::invalid_argument unless 0 <= k < bitonic_iterations(n).
bitonic_pair bitonic_originals(std::int64_t k, std::int64_t n);
// The new iteration that contains original iteration i: min(i, n - 1 - i).
// Throws std::invalid_argument unless 0 <= i < n.
std::int64_t bitonic_index(std::int64_t original, std::int64_t n);

}  // namespace dlb::core
