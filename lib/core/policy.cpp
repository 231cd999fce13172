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
    out += " AUTO ADAPTIVE AUTO-ALL";
    for (const chunk_rule_row& r : chunk_rules)
      out += " " + std::string(r.name) + (r.rule == chunk_rule::css ? ":k" : "");
    return out;
  }();
  return names;
}

strategy policy::kind() const {
  struct visitor {
    strategy operator()(const no_balancing&) const { return strategy::none; }
    strategy operator()(const balancing& b) const { return b.row; }
    strategy operator()(const customized& c) const { return c.mode; }
    strategy operator()(const self_scheduled&) const { return strategy::self_scheduling; }
  };
  return std::visit(visitor{}, value);
}

chunk_rule policy::rule() const {
  const auto* s = std::get_if<self_scheduled>(&value);
  return s ? s->rule : chunk_rule::gss;
}

std::int64_t policy::chunk() const {
  const auto* s = std::get_if<self_scheduled>(&value);
  return s ? s->chunk : 1;
}

std::span<const policy> policy::candidates() const {
  const auto* c = std::get_if<customized>(&value);
  return c ? std::span<const policy>(c->candidates) : std::span<const policy>();
}

policy policy_of(strategy s) {
  if (s == strategy::none) return no_balancing{};
  if (find_balancing_row(s)) return balancing{s};
  if (is_customized(s)) return customized{s, {}};
  throw std::invalid_argument("policy_of: " + std::string(to_string(s)) +
                              " is a self-scheduling rule's kind, not a policy of its own");
}

policy parse_policy(std::string_view text) {
  if (const auto s = parse_strategy(text); s && *s != strategy::self_scheduling)
    return policy_of(*s);
  const auto colon = text.find(':');
  std::string name(text.substr(0, colon));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const auto rule = parse_chunk_rule(name);
  if (!rule) {
    throw std::invalid_argument("unknown strategy '" + std::string(text) +
                                "' (known: " + std::string(known_policy_names()) + ")");
  }
  if (colon == std::string_view::npos) {
    if (*rule == chunk_rule::css)
      throw std::invalid_argument("strategy CSS needs its chunk size: CSS:k, k >= 1");
    return self_scheduled{*rule, 1};
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
  return self_scheduled{*rule, v};
}

std::string to_string(const policy& p) {
  const auto* s = std::get_if<self_scheduled>(&p.value);
  if (!s) return std::string(to_string(p.kind()));
  std::string out(to_string(s->rule));
  if (s->rule == chunk_rule::css) out += ":" + std::to_string(s->chunk);
  return out;
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
  capabilities c = capabilities_of(p.kind());
  if (p.kind() != strategy::auto_all) return c;
  auto add = [&c](const policy& q) {
    const auto r = capabilities_of(q.kind());
    c.survives_loss = c.survives_loss && r.survives_loss;
    c.needs_every_profile = c.needs_every_profile || r.needs_every_profile;
  };
  for (const auto& q : candidates) add(q);
  if (forced) add(*forced);
  return c;
}

}  // namespace dlb::core
