// Loop self-scheduling chunk rules (chunks.hpp).
#include "dlb/core/chunks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace dlb::core {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// TSS's chunk j of a loop of I iterations on P workers.
std::int64_t tss_chunk(std::int64_t I, std::int64_t P, std::int64_t j) {
  const std::int64_t f = std::max<std::int64_t>(1, ceil_div(I, 2 * P));
  const std::int64_t l = 1;
  const std::int64_t n = std::max<std::int64_t>(1, ceil_div(2 * I, f + l));
  const double d = n > 1 ? static_cast<double>(f - l) / static_cast<double>(n - 1) : 0.0;
  const double c = std::floor(static_cast<double>(f) - static_cast<double>(j) * d + 0.5);
  return std::max<std::int64_t>(l, static_cast<std::int64_t>(c));
}

// FAC2's number of chunks for I iterations on P workers: batches of P chunks of ceil(R_b / 2P),
// each cut to what is left.
std::int64_t fac2_chunks(std::int64_t I, std::int64_t P) {
  std::int64_t n = 0;
  for (std::int64_t R = I; R > 0;) {
    const std::int64_t c = std::max<std::int64_t>(1, ceil_div(R, 2 * P));
    for (std::int64_t k = 0; k < P && R > 0; ++k, ++n) R -= std::min(c, R);
  }
  return n;
}

std::int64_t fixed_chunk(const chunk_params& p);

}  // namespace

double fsc_sigma(double mean_time, double mean_square_time, int max_load) {
  const double ml = static_cast<double>(std::max(max_load, 0));
  const double e1 = ml / 2 + 1, e2 = (ml + 2) * (2 * ml + 3) / 6;
  return std::sqrt(std::max(0.0, mean_square_time * e2 - mean_time * mean_time * e1 * e1));
}

namespace {

std::int64_t fixed_chunk(const chunk_params& p) {
  if (p.rule == chunk_rule::css) return p.fixed;
  if (p.rule == chunk_rule::fsc) return fsc_chunk(p);
  if (p.rule == chunk_rule::mfsc) {
    const std::int64_t n = fac2_chunks(p.iterations, static_cast<std::int64_t>(p.workers));
    return n > 0 ? ceil_div(p.iterations, n) : 1;
  }
  return 1;
}

}  // namespace

bool adapts_to_measurements(chunk_rule r) {
  return r == chunk_rule::awf_b || r == chunk_rule::awf_c || r == chunk_rule::awf_d ||
         r == chunk_rule::awf_e || r == chunk_rule::af;
}

std::int64_t fsc_chunk(const chunk_params& p) {
  const auto P = static_cast<std::int64_t>(p.workers);
  const std::int64_t most =
      std::max<std::int64_t>(1, ceil_div(p.iterations, std::max<std::int64_t>(P, 1)));
  if (!(p.sigma > 0) && !(p.overhead > 0))
    return fixed_chunk({chunk_rule::mfsc, p.iterations, p.workers});
  if (P <= 1 || !(p.sigma > 0)) return most;
  if (!(p.overhead > 0)) return 1;
  const double Pd = static_cast<double>(P);
  const double base = std::sqrt(2.0) * static_cast<double>(p.iterations) * p.overhead /
                      (p.sigma * Pd * std::sqrt(std::log(Pd)));
  const double k = std::floor(std::pow(base, 2.0 / 3.0) + 0.5);
  if (!(k < static_cast<double>(most))) return most;
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(k));
}

std::string_view to_string(chunk_rule r) {
  for (const chunk_rule_row& row : chunk_rules)
    if (row.rule == r) return row.name;
  return "?";
}

std::optional<chunk_rule> parse_chunk_rule(std::string_view name) {
  for (const chunk_rule_row& row : chunk_rules)
    if (row.name == name) return row.rule;
  return std::nullopt;
}

std::vector<std::int64_t> awf_batch(std::int64_t remaining, const std::vector<double>& weights) {
  if (weights.empty()) throw std::invalid_argument("awf_batch: no workers");
  double smallest = 0.0;
  for (double w : weights)
    if (w > 0 && (smallest == 0.0 || w < smallest)) smallest = w;
  if (smallest == 0.0) smallest = 1.0;
  double sum = 0.0;
  for (double w : weights) sum += w > 0 ? w : smallest;
  std::vector<std::int64_t> out;
  for (double w : weights) {
    const double share = static_cast<double>(remaining) * (w > 0 ? w : smallest) / (2.0 * sum);
    out.push_back(std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(share))));
  }
  return out;
}

chunk_dispenser::chunk_dispenser(const chunk_params& p) : p_(p), remaining_(p.iterations) {
  if (p.iterations < 0) throw std::invalid_argument("chunk rule: negative iteration count");
  if (p.workers == 0) throw std::invalid_argument("chunk rule: no workers");
  if (p.rule == chunk_rule::css && p.fixed < 1)
    throw std::invalid_argument("chunk rule CSS: chunk size must be at least 1");
  if (p.rule == chunk_rule::fsc && (p.overhead < 0 || p.sigma < 0))
    throw std::invalid_argument("chunk rule FSC: overhead and sigma must be >= 0");
  if (!p.weights.empty() && p.weights.size() != p.workers)
    throw std::invalid_argument("chunk rule: one weight per worker");
  weights_ = p.weights.empty() ? std::vector<double>(p.workers, 1.0) : p.weights;
  measured_.assign(p.workers, {});
  fixed_ = fixed_chunk(p);
}

void chunk_dispenser::record(std::size_t worker, std::int64_t iterations, double compute,
                             double total) {
  if (worker >= measured_.size() || iterations <= 0) return;
  auto& m = measured_[worker];
  const double c = static_cast<double>(iterations);
  ++m.chunks;
  const double k = static_cast<double>(m.chunks);
  m.weighted_pi[0] += k * std::max(compute, 0.0) / c;
  m.weighted_pi[1] += k * std::max(total, 0.0) / c;
  m.weights += k;
  m.time += std::max(compute, 0.0);
  m.iterations += c;
  m.t2_over_c += compute * compute / c;
}

std::vector<double> chunk_dispenser::adapted_weights() const {
  const bool whole = p_.rule == chunk_rule::awf_d || p_.rule == chunk_rule::awf_e;
  std::vector<double> w(p_.workers, 0.0);
  bool any = false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const auto& m = measured_[i];
    const double pi = m.weights > 0 ? m.weighted_pi[whole ? 1 : 0] / m.weights : 0.0;
    if (pi > 0) {
      w[i] = 1.0 / pi;
      any = true;
    }
  }
  return any ? w : std::vector<double>(p_.workers, 1.0);
}

bool chunk_dispenser::af_ready() const {
  for (const auto& m : measured_)
    if (m.chunks < 2 || !(m.time > 0)) return false;
  return true;
}

std::int64_t chunk_dispenser::af_chunk(std::size_t worker) const {
  double D = 0.0, inverse = 0.0;
  std::vector<double> mu(p_.workers, 0.0);
  for (std::size_t j = 0; j < p_.workers; ++j) {
    const auto& m = measured_[j];
    mu[j] = m.time / m.iterations;
    const double n = static_cast<double>(m.chunks);
    // sum_k (t_k - c_k mu)^2 / c_k = sum t^2 / c - 2 mu sum t + mu^2 sum c
    const double ss = m.t2_over_c - 2 * mu[j] * m.time + mu[j] * mu[j] * m.iterations;
    D += std::max(ss, 0.0) / (n - 1) / mu[j];
    inverse += 1.0 / mu[j];
  }
  const double T = 1.0 / inverse, R = static_cast<double>(remaining_);
  const double k = (D + 2 * T * R - std::sqrt(D * D + 4 * D * T * R)) / (2 * mu[worker]);
  return std::max<std::int64_t>(1, static_cast<std::int64_t>(std::ceil(k - 1e-9)));
}

// The batch rules' chunk: a new batch of P chunks (weights w) after the last one's P.
std::int64_t chunk_dispenser::batch_chunk(std::size_t worker, const std::vector<double>& w) {
  if (in_batch_ == 0) batch_ = awf_batch(remaining_, w);
  in_batch_ = (in_batch_ + 1) % p_.workers;
  return batch_.at(worker % p_.workers);
}

std::int64_t chunk_dispenser::next(std::size_t worker) {
  if (remaining_ == 0) return 0;
  const auto P = static_cast<std::int64_t>(p_.workers);
  std::int64_t c = 1;
  switch (p_.rule) {
    case chunk_rule::ss:
      break;
    case chunk_rule::css:
      c = p_.fixed;
      break;
    case chunk_rule::gss:
      c = ceil_div(remaining_, P);
      break;
    case chunk_rule::tss:
      c = tss_chunk(p_.iterations, P, handed_);
      break;
    case chunk_rule::fsc:
    case chunk_rule::mfsc:
      c = fixed_;
      break;
    case chunk_rule::fac2:
      c = batch_chunk(worker, std::vector<double>(p_.workers, 1.0));
      break;
    case chunk_rule::awf:
    case chunk_rule::wf:
      c = batch_chunk(worker, weights_);
      break;
    case chunk_rule::awf_b:
    case chunk_rule::awf_d:
      c = batch_chunk(worker, in_batch_ == 0 ? adapted_weights() : std::vector<double>{});
      break;
    case chunk_rule::awf_c:
    case chunk_rule::awf_e:
      c = awf_batch(remaining_, adapted_weights()).at(worker % p_.workers);
      break;
    case chunk_rule::af:
      c = af_ready() ? af_chunk(worker % p_.workers)
                     : batch_chunk(worker, std::vector<double>(p_.workers, 1.0));
      break;
  }
  c = std::min(c, remaining_);
  remaining_ -= c;
  ++handed_;
  return c;
}

std::vector<std::int64_t> chunk_sequence(const chunk_params& p) {
  chunk_dispenser d(p);
  std::vector<std::int64_t> out;
  for (std::size_t k = 0; d.remaining() > 0; ++k) out.push_back(d.next(k % p.workers));
  return out;
}

}  // namespace dlb::core
