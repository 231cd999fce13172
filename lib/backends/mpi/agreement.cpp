// agreement.cpp: what a set of statements means (agreement.hpp). Pure.
#include "agreement.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

namespace dlb::mpi_detail {

namespace {

struct field_row {
  const char* topic;                   // what the ranks disagree on
  std::string (*value)(std::int64_t);  // a value as "rank 2 has ..." goes on
};

std::string as_step(std::int64_t v) {
  switch (static_cast<step>(v)) {
    case step::session:
      return "made a session";
    case step::loop:
      return "called parallel_for";
    case step::finish:
      return "called finish";
  }
  return "step " + std::to_string(v);
}
std::string as_session(std::int64_t v) { return "session number " + std::to_string(v); }
std::string as_loop(std::int64_t v) { return "loop number " + std::to_string(v); }
std::string as_iterations(std::int64_t v) { return std::to_string(v) + " iterations"; }
std::string as_distribution(std::int64_t v) { return v == 0 ? "BLOCK" : "CYCLIC"; }
std::string as_arrays(std::int64_t v) {
  return std::to_string(v) + (v == 1 ? " array" : " arrays");
}
std::string as_digest(std::int64_t v) {
  char text[24];
  std::snprintf(text, sizeof text, "digest %016llx", static_cast<unsigned long long>(v));
  return text;
}
std::string as_layout(std::int64_t v) { return v ? "master computes" : "master dedicated"; }
std::string as_clock(std::int64_t v) { return v ? "clock emulated" : "clock native"; }
std::string as_group(std::int64_t v) { return "group " + std::to_string(v); }
std::string as_timeout(std::int64_t v) {
  char text[32];
  std::snprintf(text, sizeof text, "timeout %g s", static_cast<double>(v) / 1000.0);
  return text;
}
std::string as_path(std::int64_t v) {
  return v == 0 ? "path automatic" : v == 1 ? "path two_sided" : "path one_sided";
}
std::string as_reduction(std::int64_t v) {
  static const char* const ops[] = {"a sum", "a min", "a max", "a user operation"};
  return v < 0 || v > 3 ? std::string("no reduction (parallel_for)") : ops[v];
}

// By `field`, in its order.
const field_row rows[field_count] = {
    {"what they call", as_step},
    {"the session's sequence number on the communicator (a rank missed a session, or made one "
     "more)",
     as_session},
    {"the loop's number in the session (a rank skipped a loop, or ran one more)", as_loop},
    {"the loop's length (loop_spec::iterations)", as_iterations},
    {"the loop's initial distribution (loop_spec::initial)", as_distribution},
    {"how many arrays the loop moves", as_arrays},
    {"the arrays' element types, extents or roles", as_digest},
    {"session_params::master", as_layout},
    {"session_params::clock", as_clock},
    {"session_params::group", as_group},
    {"session_params::timeout", as_timeout},
    {"session_params::path", as_path},
    {"the loop's reduction (parallel_for or parallel_reduce, and its reduce_op)", as_reduction},
    {"the name of the loop's user reduction (reduction::name)", as_digest},
};

// The factions of one field's values: the smallest first, then by first rank.
template <class Key, class Show>
std::vector<faction> factions_of(const std::vector<Key>& by_rank, Show show) {
  std::map<Key, std::vector<int>> groups;
  for (std::size_t r = 0; r < by_rank.size(); ++r)
    groups[by_rank[r]].push_back(static_cast<int>(r));
  std::vector<faction> out;
  for (auto& [key, ranks] : groups) out.push_back({show(key), std::move(ranks)});
  std::sort(out.begin(), out.end(), [](const faction& a, const faction& b) {
    if (a.ranks.size() != b.ranks.size()) return a.ranks.size() < b.ranks.size();
    return a.ranks.front() < b.ranks.front();
  });
  return out;
}

}  // namespace

namespace {
template <std::size_t N>
void put(std::array<char, N>& to, const std::string& text) {
  to.fill('\0');
  std::memcpy(to.data(), text.data(), std::min(text.size(), N - 1));
}
template <std::size_t N>
std::string get(const std::array<char, N>& from) {
  return std::string(from.data(), strnlen(from.data(), N));
}
}  // namespace

void statement::set_policy(const std::string& name) { put(policy, name); }
std::string statement::policy_name() const { return get(policy); }
void statement::set_shapes(const std::string& text) { put(shapes, text); }
std::string statement::shapes_text() const { return get(shapes); }

std::optional<disagreement> find_disagreement(const std::vector<statement>& by_rank) {
  if (by_rank.empty()) return std::nullopt;
  for (int f = 0; f < field_count; ++f) {
    std::vector<std::int64_t> values;
    for (const auto& s : by_rank) values.push_back(s.values[static_cast<std::size_t>(f)]);
    if (std::all_of(values.begin(), values.end(), [&](auto v) { return v == values.front(); }))
      continue;
    if (f == static_cast<int>(field::array_shapes)) {  // shown as text, if the text differs
      std::vector<std::string> texts;
      for (const auto& s : by_rank) texts.push_back(s.shapes_text());
      if (std::any_of(texts.begin(), texts.end(), [&](auto& t) { return t != texts.front(); }))
        return disagreement{rows[f].topic,
                            factions_of(texts, [](const std::string& t) { return "arrays " + t; })};
    }
    return disagreement{rows[f].topic, factions_of(values, rows[f].value)};
  }
  std::vector<std::string> names;
  for (const auto& s : by_rank) names.push_back(s.policy_name());
  if (std::all_of(names.begin(), names.end(), [&](auto& n) { return n == names.front(); }))
    return std::nullopt;
  return disagreement{"session_params::policy", factions_of(names, [](const std::string& n) {
                        return "policy " + (n.empty() ? std::string("(none)") : n);
                      })};
}

std::string rank_list(const std::vector<int>& ranks) {
  std::string out = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (i > 0) out += ", ";
    out += std::to_string(ranks[i]);
    if (j > i) out += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return out;
}

std::string describe(const disagreement& d) {
  std::string out = "the ranks disagree on " + d.field + ": ";
  for (std::size_t k = 0; k < d.factions.size(); ++k) {
    const faction& f = d.factions[k];
    if (k > 0) out += ", ";
    out += rank_list(f.ranks) + (f.ranks.size() == 1 ? " has " : " have ") + f.value;
  }
  return out;
}

std::int64_t digest(const std::vector<std::int64_t>& values) {
  std::uint64_t h = 14695981039346656037ull;
  for (std::int64_t v : values) {
    for (int b = 0; b < 8; ++b) {
      h ^= (static_cast<std::uint64_t>(v) >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
  return static_cast<std::int64_t>(h);
}

}  // namespace dlb::mpi_detail
