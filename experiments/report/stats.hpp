// The statistics of every report, summary and study, defined once (experiments/README.md, "Where
// things are defined"): order statistics (median, min, max), percentile intervals, paired ratios
// as geometric means with Student's t intervals, and the paired bootstrap over load seeds with a
// fixed seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace dlb::report {

struct spread {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t count = 0;
};

// Median (mean of the two middle values for even counts), min and max; nullopt for an empty
// sample.
std::optional<spread> describe(std::vector<double> sample);
std::optional<double> median(std::vector<double> sample);

struct interval {
  double lo = 0, hi = 0;
};
// The central `level` percentile interval of `values` (linear interpolation); {0, 0} if empty.
interval percentile_interval(std::vector<double> values, double level);

// A paired ratio a / b over the seeds both were run with: the geometric mean, a 95% interval
// (Student's t on the log ratios, n - 1 degrees of freedom; for n = 1 the interval is the
// point), the range, and n.
struct ratio_estimate {
  std::size_t n = 0;
  double geo_mean = 0;
  double low = 0;
  double high = 0;
  double min = 0;
  double max = 0;
};
// The estimate from a list of ratios (each > 0; std::invalid_argument otherwise); nullopt if
// empty.
std::optional<ratio_estimate> ratio_of(const std::vector<double>& ratios);
// An estimate as the tables print it: "1.020 [0.990, 1.050]", "1.020 (1 seed)", or "-".
std::string format_estimate(const std::optional<ratio_estimate>& e);
// The two-sided 95% quantile of Student's t with `df` degrees of freedom (df >= 1).
double t_975(int df);

// The paired bootstrap over load seeds: `replicates` draws, each as many seeds as `seeds` drawn
// with replacement (std::mt19937_64 from `seed`, index = rng() % size), handed to `each` in
// order. A drawn seed stands for every run of that seed (all policies, all configurations).
// Nothing is drawn from no seeds.
void bootstrap_seeds(const std::vector<std::string>& seeds, int replicates, std::uint64_t seed,
                     const std::function<void(const std::vector<std::string>& drawn)>& each);

}  // namespace dlb::report
