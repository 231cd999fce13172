// recovery.cpp: the missing iterations and their reassignment (recovery.hpp).
#include "dlb/core/recovery.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace dlb::core {

range_list missing_iterations(std::int64_t iterations, const std::vector<range_list>& handed_in) {
  range_list all;
  for (const auto& l : handed_in) all.insert(all.end(), l.begin(), l.end());
  all = normalized(std::move(all));
  range_list out;
  std::int64_t at = 0;
  for (const auto& r : all) {
    const std::int64_t b = std::clamp<std::int64_t>(r.begin, 0, iterations);
    const std::int64_t e = std::clamp<std::int64_t>(r.end, 0, iterations);
    if (b > at) out.push_back({at, b});
    at = std::max(at, e);
  }
  if (at < iterations) out.push_back({at, iterations});
  return out;
}

bool handed_in_twice(const std::vector<range_list>& handed_in) {
  range_list all;
  for (const auto& l : handed_in)
    for (const auto& r : l)
      if (r.end > r.begin) all.push_back(r);
  std::sort(all.begin(), all.end(),
            [](const iteration_range& a, const iteration_range& b) { return a.begin < b.begin; });
  for (std::size_t k = 1; k < all.size(); ++k)
    if (all[k].begin < all[k - 1].end) return true;
  return false;
}

namespace {
// The weights as used: non-positive or non-finite ones 0, all equal if none is positive.
std::vector<double> usable(const std::vector<double>& weights, double& sum) {
  if (weights.empty()) throw std::invalid_argument("share_out: no weights");
  std::vector<double> w;
  for (double x : weights) w.push_back(std::isfinite(x) && x > 0 ? x : 0.0);
  sum = std::accumulate(w.begin(), w.end(), 0.0);
  if (!(sum > 0)) {
    std::fill(w.begin(), w.end(), 1.0);
    sum = static_cast<double>(w.size());
  }
  return w;
}

void append(range_list& l, std::int64_t i) {
  if (!l.empty() && l.back().end == i) {
    ++l.back().end;
  } else {
    l.push_back({i, i + 1});
  }
}
}  // namespace

std::vector<range_list> share_out(const range_list& missing, const std::vector<double>& weights,
                                  const std::function<double(std::int64_t)>& work) {
  if (!work) return share_out(missing, weights);
  double sum = 0.0;
  const std::vector<double> w = usable(weights, sum);
  double total = 0.0;
  for (const auto& r : missing)
    for (std::int64_t i = r.begin; i < r.end; ++i) total += std::max(0.0, work(i));
  if (!(total > 0)) return share_out(missing, weights);
  // Piece k ends where the cumulative work reaches total * (w_0 + ... + w_k) / sum.
  std::vector<double> ends;
  double acc = 0.0;
  for (double x : w) ends.push_back(total * ((acc += x) / sum));
  std::vector<range_list> out(w.size());
  std::size_t k = 0;
  double before = 0.0;
  for (const auto& r : missing) {
    for (std::int64_t i = r.begin; i < r.end; ++i) {
      const double c = std::max(0.0, work(i));
      while (k + 1 < w.size() && before + c / 2 > ends[k]) ++k;
      append(out[k], i);
      before += c;
    }
  }
  return out;
}

std::vector<range_list> share_out(const range_list& missing, const std::vector<double>& weights) {
  double sum = 0.0;
  const std::vector<double> w = usable(weights, sum);
  const std::int64_t n = iteration_count(missing);
  std::vector<std::int64_t> counts(w.size());
  std::vector<std::pair<double, std::size_t>> rest;
  std::int64_t given = 0;
  for (std::size_t k = 0; k < w.size(); ++k) {
    const double exact = static_cast<double>(n) * w[k] / sum;
    counts[k] = static_cast<std::int64_t>(std::floor(exact));
    given += counts[k];
    rest.push_back({exact - static_cast<double>(counts[k]), k});
  }
  std::stable_sort(rest.begin(), rest.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < n; k = (k + 1) % rest.size(), ++given) ++counts[rest[k].second];
  std::vector<range_list> out;
  range_list left = missing;
  for (std::int64_t c : counts) {
    range_split s = split_front(left, c);
    range_list piece;
    for (const auto& r : s.front)
      if (r.end > r.begin) piece.push_back(r);
    out.push_back(std::move(piece));
    left = std::move(s.back);
  }
  return out;
}

}  // namespace dlb::core
