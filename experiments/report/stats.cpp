// The statistics of the experiments (stats.hpp).
#include "report/stats.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "sweep/text.hpp"

namespace dlb::report {

std::optional<spread> describe(std::vector<double> sample) {
  if (sample.empty()) return std::nullopt;
  std::sort(sample.begin(), sample.end());
  const std::size_t n = sample.size();
  spread s;
  s.count = n;
  s.min = sample.front();
  s.max = sample.back();
  s.median = n % 2 ? sample[n / 2] : (sample[n / 2 - 1] + sample[n / 2]) / 2.0;
  return s;
}

std::optional<double> median(std::vector<double> sample) {
  const auto s = describe(std::move(sample));
  if (!s) return std::nullopt;
  return s->median;
}

interval percentile_interval(std::vector<double> v, double level) {
  if (v.empty()) return {};
  std::sort(v.begin(), v.end());
  const auto at = [&v](double q) {
    const double pos = q * static_cast<double>(v.size() - 1);
    const auto i = static_cast<std::size_t>(std::floor(pos));
    const double f = pos - static_cast<double>(i);
    return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
  };
  return {at((1 - level) / 2), at(1 - (1 - level) / 2)};
}

double t_975(int df) {
  // Two-sided 95% quantiles of Student's t (standard tables); beyond 30, the normal's 1.96
  // approached from above.
  static const double table[30] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                                   2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                                   2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                                   2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) throw std::invalid_argument("t_975: df must be at least 1");
  if (df <= 30) return table[df - 1];
  if (df <= 60) return 2.000;
  if (df <= 120) return 1.980;
  return 1.960;
}

std::optional<ratio_estimate> ratio_of(const std::vector<double>& ratios) {
  if (ratios.empty()) return std::nullopt;
  ratio_estimate e;
  e.n = ratios.size();
  double sum = 0;
  e.min = e.max = ratios.front();
  for (double r : ratios) {
    if (!(r > 0)) throw std::invalid_argument("ratio_of: a ratio must be positive");
    sum += std::log(r);
    e.min = std::min(e.min, r);
    e.max = std::max(e.max, r);
  }
  const double n = static_cast<double>(e.n);
  const double mean = sum / n;
  e.geo_mean = std::exp(mean);
  if (e.n < 2) {
    e.low = e.high = e.geo_mean;
    return e;
  }
  double ss = 0;
  for (double r : ratios) ss += (std::log(r) - mean) * (std::log(r) - mean);
  const double half = t_975(static_cast<int>(e.n) - 1) * std::sqrt(ss / (n - 1) / n);
  e.low = std::exp(mean - half);
  e.high = std::exp(mean + half);
  return e;
}

std::string format_estimate(const std::optional<ratio_estimate>& e) {
  using sweep::format_fixed;
  if (!e) return "-";
  if (e->n < 2) return format_fixed(e->geo_mean) + " (1 seed)";
  return format_fixed(e->geo_mean) + " [" + format_fixed(e->low) + ", " + format_fixed(e->high) +
         "]";
}

void bootstrap_seeds(const std::vector<std::string>& seeds, int replicates, std::uint64_t seed,
                     const std::function<void(const std::vector<std::string>& drawn)>& each) {
  if (seeds.empty()) return;
  std::mt19937_64 rng(seed);
  std::vector<std::string> drawn(seeds.size());
  for (int b = 0; b < replicates; ++b) {
    for (auto& d : drawn) d = seeds[rng() % seeds.size()];
    each(drawn);
  }
}

}  // namespace dlb::report
