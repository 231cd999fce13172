// The policy names of --strategy (policy.hpp).
#include "dlb/core/policy.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <stdexcept>
#include <string>

namespace dlb::core {

namespace {

struct mode_row {
  customized_mode mode;
  std::string_view name;
  capabilities caps;
  std::string_view description;
};
// The customized modes, with their capability rows: ADAPTIVE waits for every slave's profile
// and does not survive a loss; AUTO-ALL's own row (what it may commit to adds to it).
constexpr std::array<mode_row, 3> kModes = {{
    {customized_mode::automatic, "AUTO", {.survives_loss = true, .needs_every_profile = false},
     "customized: the model chooses"},
    {customized_mode::adaptive, "ADAPTIVE", {.survives_loss = false, .needs_every_profile = true},
     "the model chooses again at every synchronization"},
    {customized_mode::auto_all, "AUTO-ALL", {.survives_loss = false, .needs_every_profile = false},
     "the models choose once among --candidates"},
}};

const mode_row& row_of(customized_mode m) {
  for (const mode_row& r : kModes)
    if (r.mode == m) return r;
  return kModes[0];  // not reached: every mode has a row
}

}  // namespace

std::string_view known_policy_names() {
  static const std::string names = [] {
    std::string out = "NONE";
    for (const balancing_row& r : balancing_rows) out += " " + std::string(r.name);
    for (const mode_row& r : kModes) out += " " + std::string(r.name);
    for (const chunk_rule_row& r : chunk_rules)
      out += " " + std::string(r.name) + (r.rule == chunk_rule::css ? ":k" : "");
    return out;
  }();
  return names;
}

std::string_view to_string(customized_mode m) { return row_of(m).name; }

std::string described_policy_names() {
  std::string out = "NONE (no balancing)";
  for (const balancing_row& r : balancing_rows)
    out += ", " + std::string(r.name) + " (" + (r.global ? "global" : "local") + ", " +
           (r.centralized ? "centralized" : "distributed") + ")";
  for (const mode_row& r : kModes)
    out += ", " + std::string(r.name) + " (" + std::string(r.description) + ")";
  out += "; or a loop self-scheduling rule:";
  for (const chunk_rule_row& r : chunk_rules)
    out += std::string(r.rule == chunk_rules.front().rule ? " " : ", ") + std::string(r.name) +
           (r.rule == chunk_rule::css ? ":k" : "") + " (" + std::string(r.description) + ")";
  return out;
}

std::optional<scheme> policy::row() const {
  const auto* b = std::get_if<balancing>(&value);
  return b ? std::optional<scheme>(b->row) : std::nullopt;
}

std::optional<customized_mode> policy::mode() const {
  const auto* c = std::get_if<customized>(&value);
  return c ? std::optional<customized_mode>(c->mode) : std::nullopt;
}

chunk_rule policy::rule() const {
  const auto* s = std::get_if<self_scheduled>(&value);
  return s ? s->rule : chunk_rule::gss;
}

std::int64_t policy::chunk() const {
  const auto* s = std::get_if<self_scheduled>(&value);
  return s ? s->chunk : 1;
}

const policy* policy::forced() const {
  const auto* c = std::get_if<customized>(&value);
  return c && !c->forced.empty() ? &c->forced.front() : nullptr;
}

std::span<const policy> policy::candidates() const {
  const auto* c = std::get_if<customized>(&value);
  return c ? std::span<const policy>(c->candidates) : std::span<const policy>();
}

policy parse_policy(std::string_view text) {
  if (equal_ignoring_case(text, "NONE")) return no_balancing{};
  if (const auto s = parse_scheme(text)) return balancing{*s};
  for (const mode_row& r : kModes)
    if (equal_ignoring_case(text, r.name)) return customized{r.mode};
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
  struct visitor {
    std::string operator()(const no_balancing&) const { return "NONE"; }
    std::string operator()(const balancing& b) const { return std::string(to_string(b.row)); }
    std::string operator()(const customized& c) const { return std::string(to_string(c.mode)); }
    std::string operator()(const self_scheduled& s) const {
      std::string out(to_string(s.rule));
      if (s.rule == chunk_rule::css) out += ":" + std::to_string(s.chunk);
      return out;
    }
  };
  return std::visit(visitor{}, p.value);
}

std::string to_string(const std::optional<policy>& p) { return p ? to_string(*p) : "NONE"; }

bool may_be_candidate(const policy& p) {
  return !std::holds_alternative<no_balancing>(p.value) && !p.is(customized_mode::automatic) &&
         !p.is(customized_mode::auto_all);
}

namespace {

void check_kind(const balancing& b) {
  if (index_of(b.row) >= balancing_rows.size())
    throw std::invalid_argument("balancing row " + std::to_string(static_cast<int>(b.row)) +
                                " is none of balancing_rows");
}

void check_kind(const self_scheduled& s) {
  const bool known = std::any_of(chunk_rules.begin(), chunk_rules.end(),
                                 [&s](const chunk_rule_row& r) { return r.rule == s.rule; });
  if (!known)
    throw std::invalid_argument("chunk rule " + std::to_string(static_cast<int>(s.rule)) +
                                " is none of chunk_rules");
  const std::string name(to_string(s.rule));
  if (s.rule == chunk_rule::css && s.chunk < 1)
    throw std::invalid_argument("strategy CSS needs a chunk size k >= 1, got " +
                                std::to_string(s.chunk));
  if (s.rule != chunk_rule::css && s.chunk != 1)
    throw std::invalid_argument("strategy " + name + " takes no chunk size, got " +
                                std::to_string(s.chunk));
}

void check_kind(const customized& c) {
  const auto known = std::any_of(kModes.begin(), kModes.end(),
                                 [&c](const mode_row& r) { return r.mode == c.mode; });
  if (!known)
    throw std::invalid_argument("customized mode " + std::to_string(static_cast<int>(c.mode)) +
                                " is none of AUTO, ADAPTIVE, AUTO-ALL");
  if (c.mode != customized_mode::auto_all && (!c.candidates.empty() || !c.forced.empty()))
    throw std::invalid_argument("only AUTO-ALL has candidates and a forced commitment, not " +
                                std::string(to_string(c.mode)));
  if (c.forced.size() > 1)
    throw std::invalid_argument("AUTO-ALL commits to one forced policy, got " +
                                std::to_string(c.forced.size()));
  const auto check_one = [](const policy& q, const char* what) {
    check_policy(q);
    if (!may_be_candidate(q))
      throw std::invalid_argument(std::string(what) + " '" + to_string(q) + "' is no candidate");
  };
  for (auto k = c.candidates.begin(); k != c.candidates.end(); ++k) {
    check_one(*k, "candidate");
    if (std::find(c.candidates.begin(), k, *k) != k)
      throw std::invalid_argument("candidate '" + to_string(*k) + "' given twice");
  }
  for (const policy& f : c.forced) check_one(f, "forced policy");
}

void check_kind(const no_balancing&) {}

}  // namespace

void check_policy(const policy& p) {
  std::visit([](const auto& kind) { check_kind(kind); }, p.value);
}

capabilities capabilities_of(const policy& p) {
  // Every balancing strategy (a row of balancing_rows) survives a loss and waits for no profile
  // beyond its group's active members'; so does no balancing. The self-scheduling rules hand out
  // chunks without surviving a loss.
  struct visitor {
    capabilities operator()(const no_balancing&) const { return {}; }
    capabilities operator()(const balancing&) const { return {}; }
    capabilities operator()(const customized& c) const { return row_of(c.mode).caps; }
    capabilities operator()(const self_scheduled&) const {
      return {.survives_loss = false, .needs_every_profile = false};
    }
  };
  return std::visit(visitor{}, p.value);
}

capabilities capabilities_of(const policy& p, std::span<const policy> candidates,
                             const policy* forced) {
  capabilities c = capabilities_of(p);
  if (!p.is(customized_mode::auto_all)) return c;
  auto add = [&c](const policy& q) {
    const auto r = capabilities_of(q);
    c.survives_loss = c.survives_loss && r.survives_loss;
    c.needs_every_profile = c.needs_every_profile || r.needs_every_profile;
  };
  for (const auto& q : candidates) add(q);
  if (forced) add(*forced);
  return c;
}

}  // namespace dlb::core
