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

}  // namespace

std::string_view to_string(chunk_rule r) {
  for (const auto& [rule, name] : chunk_rules)
    if (rule == r) return name;
  return "?";
}

std::optional<chunk_rule> parse_chunk_rule(std::string_view name) {
  for (const auto& [rule, n] : chunk_rules)
    if (n == name) return rule;
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
  weights_.assign(p.workers, 1.0);
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
    case chunk_rule::fac2:
    case chunk_rule::awf:
      if (in_batch_ == 0)
        batch_ =
            awf_batch(remaining_,
                      p_.rule == chunk_rule::awf ? weights_ : std::vector<double>(p_.workers, 1.0));
      c = batch_.at(worker % p_.workers);
      in_batch_ = (in_batch_ + 1) % p_.workers;
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
