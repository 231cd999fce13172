// Deterministic input data for the applications: every input element is a pure function of
// (seed, array, index), so any slave can regenerate any element it is given without receiving
// it, and every run with the same seed sees the same data. Counter-based (SplitMix64 finalizer),
// no generator state.
#pragma once

#include <cstdint>

namespace apps {

// Identifies one input array of one application; part of the hash so arrays are independent.
enum class array_id : std::uint64_t {
  mxm_x = 1,
  mxm_y = 2,
  trfd_integrals = 3,
  trfd_coefficients = 4,
  ac_b = 5,
  ac_c = 6,
  ac_x = 7,
};

namespace detail {

// SplitMix64's finalizer: a bijection on 64 bits with good avalanche, enough for test data.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace detail

constexpr std::uint64_t element_hash(std::uint64_t seed, array_id array, std::uint64_t index) {
  // Mixing between the three inputs keeps (seed, array, index) triples from colliding by XOR.
  std::uint64_t h = detail::mix64(seed);
  h = detail::mix64(h ^ static_cast<std::uint64_t>(array));
  return detail::mix64(h ^ index);
}

// Uniform in [lo, hi), 53 random bits.
constexpr double element_uniform(std::uint64_t seed, array_id array, std::uint64_t index, double lo,
                                 double hi) {
  const double unit = static_cast<double>(element_hash(seed, array, index) >> 11) * 0x1.0p-53;
  return lo + (hi - lo) * unit;
}

// The applications draw their inputs from [0.5, 1.5): strictly positive values make every sum
// in the kernels a sum of positive terms, so each result element is well-conditioned
// (componentwise condition number 1) and can be checked with a componentwise relative tolerance.
inline constexpr double input_lo = 0.5;
inline constexpr double input_hi = 1.5;

}  // namespace apps
