// The policy names of --strategy (policy.hpp).
#include "dlb/core/policy.hpp"

#include <cctype>
#include <charconv>
#include <stdexcept>
#include <string>

namespace dlb::core {

std::string_view known_policy_names() {
  static const std::string names = [] {
    std::string out = "NONE";
    for (const balancing_row& r : balancing_rows) out += " " + std::string(r.name);
    return out + " AUTO ADAPTIVE AUTO-ALL SS CSS:k GSS TSS FAC2 AWF";
  }();
  return names;
}

policy parse_policy(std::string_view text) {
  policy p;
  if (const auto s = parse_strategy(text); s && *s != strategy::self_scheduling) {
    p.kind = *s;
    return p;
  }
  const auto colon = text.find(':');
  std::string name(text.substr(0, colon));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto rule = parse_chunk_rule(name);
  if (!rule) {
    throw std::invalid_argument("unknown strategy '" + std::string(text) +
                                "' (known: " + std::string(known_policy_names()) + ")");
  }
  p.kind = strategy::self_scheduling;
  p.rule = *rule;
  if (colon == std::string_view::npos) {
    if (*rule == chunk_rule::css)
      throw std::invalid_argument("strategy CSS needs its chunk size: CSS:k, k >= 1");
    return p;
  }
  if (*rule != chunk_rule::css)
    throw std::invalid_argument("strategy " + name + " takes no chunk size, got '" +
                                std::string(text) + "'");
  const std::string_view k = text.substr(colon + 1);
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(k.data(), k.data() + k.size(), v);
  if (ec != std::errc() || end != k.data() + k.size() || v < 1)
    throw std::invalid_argument("strategy CSS needs a chunk size k >= 1 (CSS:k), got '" +
                                std::string(text) + "'");
  p.chunk = v;
  return p;
}

std::string to_string(const policy& p) {
  if (p.kind != strategy::self_scheduling) return std::string(to_string(p.kind));
  std::string s(to_string(p.rule));
  if (p.rule == chunk_rule::css) s += ":" + std::to_string(p.chunk);
  return s;
}

capabilities capabilities_of(strategy kind) {
  // Every balancing strategy (a row of balancing_rows) survives a loss and waits for no profile
  // beyond its group's active members'.
  if (find_balancing_row(kind)) return {.survives_loss = true, .needs_every_profile = false};
  switch (kind) {
    case strategy::none:
    case strategy::automatic:
      return {.survives_loss = true, .needs_every_profile = false};
    case strategy::self_scheduling:
      return {.survives_loss = false, .needs_every_profile = false};
    case strategy::adaptive:
      return {.survives_loss = false, .needs_every_profile = true};
    case strategy::auto_all:
      return {.survives_loss = false, .needs_every_profile = false};
    default:
      return {};
  }
}

capabilities capabilities_of(const policy& p, std::span<const policy> candidates,
                             const std::optional<policy>& forced) {
  capabilities c = capabilities_of(p.kind);
  if (p.kind != strategy::auto_all) return c;
  auto add = [&c](const policy& q) {
    const auto r = capabilities_of(q.kind);
    c.survives_loss = c.survives_loss && r.survives_loss;
    c.needs_every_profile = c.needs_every_profile || r.needs_every_profile;
  };
  for (const auto& q : candidates) add(q);
  if (forced) add(*forced);
  return c;
}

}  // namespace dlb::core
