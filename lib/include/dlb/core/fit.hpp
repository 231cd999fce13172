// Least-squares fits for the network characterization (section 1.5.1, Figure 1.6): a
// polynomial in the number of processes for each communication pattern, and the line
// t = L + bytes / B through ping-pong times.
#pragma once

#include <vector>

#include "dlb/core/cost_model.hpp"

namespace dlb::core {

// Coefficients c0..c_degree minimizing sum (y - sum c_k x^k)^2 (normal equations, solved by
// Gaussian elimination with partial pivoting). Throws std::invalid_argument for a size mismatch
// or fewer distinct x than degree + 1.
polynomial fit_polynomial(const std::vector<double>& x, const std::vector<double>& y, int degree);

struct latency_bandwidth {
  double latency = 0.0;    // seconds: intercept
  double bandwidth = 0.0;  // bytes per second: 1 / slope
};
// Fits one-way time = L + bytes / B. Throws std::invalid_argument if the slope is not positive.
latency_bandwidth fit_latency_bandwidth(const std::vector<double>& bytes,
                                        const std::vector<double>& seconds);

}  // namespace dlb::core
