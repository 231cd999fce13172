// Result checking shared by the applications ("programs check themselves", NPB style): a
// computed array is compared element by element against the sequential reference with a
// componentwise relative tolerance.
#pragma once

#include <cstddef>
#include <limits>
#include <span>

namespace apps {

struct verification {
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;   // max over elements of |got - want| / |want|
  std::size_t worst_index = 0;  // element with the largest relative error
  std::size_t compared = 0;     // elements compared
  std::size_t failures = 0;     // elements beyond tolerance (NaN counts as a failure)
  double tolerance = 0.0;       // the relative tolerance applied
  bool passed = true;
};

// Relative tolerance for results whose every element is a chain of at most `chain_length`
// roundings over positive terms. Recursive summation of k positive terms has relative error at
// most about k*eps; two correct orders can differ by twice that; the factor 4 leaves room for
// a compiler contracting multiply-adds. Our kernels and references use the same order, so in
// practice they match exactly; the tolerance is there for reordered or vectorized variants.
constexpr double relative_tolerance(std::size_t chain_length) {
  return 4.0 * static_cast<double>(chain_length + 1) * std::numeric_limits<double>::epsilon();
}

// Incremental comparison, so an application can compare only part of an array (TRFD).
class comparison {
 public:
  explicit comparison(double tolerance) { result_.tolerance = tolerance; }
  void add(std::size_t index, double got, double want);
  verification result() const { return result_; }

 private:
  verification result_;
};

// Whole-array comparison; throws std::invalid_argument when the sizes differ.
verification compare(std::span<const double> got, std::span<const double> want, double tolerance);

}  // namespace apps
