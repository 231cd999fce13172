// Bitonic pairing of a triangular loop.
#include "dlb/core/bitonic.hpp"

#include <algorithm>
#include <stdexcept>

namespace dlb::core {

std::int64_t bitonic_iterations(std::int64_t n) {
  if (n < 0) throw std::invalid_argument("bitonic_iterations: negative n");
  return (n + 1) / 2;
}

bitonic_pair bitonic_originals(std::int64_t k, std::int64_t n) {
  if (k < 0 || k >= bitonic_iterations(n)) {
    throw std::invalid_argument("bitonic_originals: index out of range");
  }
  const std::int64_t mirror = n - 1 - k;
  if (mirror == k) return {k, std::nullopt};
  return {k, mirror};
}

std::int64_t bitonic_index(std::int64_t original, std::int64_t n) {
  if (original < 0 || original >= n) {
    throw std::invalid_argument("bitonic_index: index out of range");
  }
  return std::min(original, n - 1 - original);
}

}  // namespace dlb::core
