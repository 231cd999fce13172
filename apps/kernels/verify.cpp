// Componentwise comparison of a result against its reference.
#include "apps/verify.hpp"

#include <cmath>
#include <stdexcept>

namespace apps {

void comparison::add(std::size_t index, double got, double want) {
  const double abs_error = std::fabs(got - want);
  // The inputs are positive so |want| > 0; the floor keeps an exact zero from dividing by zero.
  const double rel_error =
      abs_error / std::fmax(std::fabs(want), std::numeric_limits<double>::min());
  ++result_.compared;
  // Written as !(x <= tol) so that a NaN anywhere is a failure, never a silent pass.
  if (!(rel_error <= result_.tolerance)) {
    ++result_.failures;
    result_.passed = false;
  }
  if (std::isnan(rel_error) || rel_error > result_.max_rel_error) {
    result_.max_rel_error =
        std::isnan(rel_error) ? std::numeric_limits<double>::infinity() : rel_error;
    result_.worst_index = index;
  }
  if (!(abs_error <= result_.max_abs_error)) {
    result_.max_abs_error =
        std::isnan(abs_error) ? std::numeric_limits<double>::infinity() : abs_error;
  }
}

verification compare(std::span<const double> got, std::span<const double> want, double tolerance) {
  if (got.size() != want.size()) {
    throw std::invalid_argument("apps::compare: result and reference sizes differ");
  }
  comparison c(tolerance);
  for (std::size_t i = 0; i < got.size(); ++i) c.add(i, got[i], want[i]);
  return c.result();
}

}  // namespace apps
