#include "beyond.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <stdexcept>

#include "dlb/core/chunks.hpp"
#include "runs.hpp"
#include "stats.hpp"
#include "summary.hpp"
#include "sweep/config.hpp"
#include "sweep/text.hpp"

namespace dlb::report::beyond {

namespace {

// The parameters of a size label ("n=3072 r=128 m=128"); empty if it does not parse.
sweep::size_spec size_of(const std::string& label) {
  try {
    return sweep::parse_size(label);
  } catch (const sweep::config_error&) {
    return {};
  }
}

}  // namespace

namespace {

// "AWF / AWF-C" and "scatter / sync" (a program of two loops: each loop's) -> "AWF [scatter] /
// AWF-C": each commitment made before the scatter marked so.
std::string with_scatter_marks(const std::string& committed, const std::string& decided) {
  auto parts = [](const std::string& s) {
    std::vector<std::string> out;
    for (std::size_t at = 0; at <= s.size();) {
      auto end = s.find(" / ", at);
      if (end == std::string::npos) end = s.size();
      out.push_back(s.substr(at, end - at));
      at = end + 3;
    }
    return out;
  };
  const auto c = parts(committed), d = parts(decided);
  std::string out;
  for (std::size_t k = 0; k < c.size(); ++k)
    out += (k ? " / " : "") + c[k] + (k < d.size() && d[k] == "scatter" ? " [scatter]" : "");
  return out;
}

}  // namespace

namespace {

// A row's identity: its configuration, policy and seed, and the run's wall seconds.
run identity_of(const report::run& v) {
  run r;
  r.app = std::string(v.text("app"));
  r.procs = static_cast<int>(v.value("P"));
  r.size = std::string(v.text("size"));
  r.args = std::string(v.text("extra_args"));
  r.ml = static_cast<int>(v.value("ml"));
  r.config = r.app + " P=" + std::string(v.text("P")) + " K=" + std::string(v.text("K")) + " " +
             r.size + " ml=" + std::string(v.text("ml")) + " tl=" + std::string(v.text("tl"));
  r.network = std::string(v.text("network"));
  if (r.network != "ethernet1996") r.config += " " + r.network;
  if (!r.args.empty()) r.config += " `" + r.args + "`";
  r.policy = v.policy();
  r.seed = v.seed();
  r.wall = v.value("run_wall_s");
  r.status = v.status();
  if (r.status == "ok") r.status = "unverified";  // verified = 0
  return r;
}

void need_identity(const sweep::csv_table& t) {
  require_columns(t, {"app", "P", "K", "size", "strategy", "seed", "ml", "tl", "network",
                      "extra_args", "status"});
}

}  // namespace

std::vector<run> unfinished_runs(const sweep::csv_table& t) {
  need_identity(t);
  std::vector<run> out;
  for (const auto& v : rows_of(t))
    if (!v.ok() || v.text("verified") == "0") out.push_back(identity_of(v));
  return out;
}

std::vector<run> verified_runs(const sweep::csv_table& t) {
  need_identity(t);
  require_columns(t, {"backend", "verified", "total_s"});
  std::vector<run> out;
  for (const auto& v : rows_of(t)) {
    if (!v.verified()) continue;
    run r = identity_of(v);
    r.time = v.value("total_s");
    r.oracle = v.value("oracle_s");
    r.bound = v.value("comm_bound_s");
    r.rss_mb = v.value("max_rss_mb");
    if (const auto la = v.number("loadavg_1m")) r.loadavg = *la;
    // A program of two balanced loops (TRFD) reports each loop's: "loop 1 / loop 2".
    auto key = [&](const std::string& k) {
      std::string x(v.text(k));
      if (!x.empty() && x != "-") return x;
      const std::string l1(v.text("loop1_" + k)), l2(v.text("loop2_" + k));
      auto none = [](const std::string& x) { return x.empty() || x == "-"; };
      if (none(l1) && none(l2)) return std::string();
      return (l1.empty() ? "-" : l1) + " / " + (l2.empty() ? "-" : l2);
    };
    r.chose = key("choices");
    if (r.chose.empty() || r.chose == "-") r.chose = key("chosen");
    // AUTO-ALL: the policy it committed to (a self-scheduling rule has no ADAPTIVE sequence).
    // Marked [scatter] where it committed before the scatter (a chunk rule from the start).
    if (r.policy == "AUTO-ALL") {
      const std::string c = key("committed");
      if (!c.empty()) r.chose = c;
      r.chose = with_scatter_marks(r.chose, key("decided"));
    }
    out.push_back(std::move(r));
  }
  return out;
}

namespace {

// The configuration of a run, without runs.
config_runs config_of(const run& r) {
  config_runs c;
  c.config = r.config;
  c.app = r.app;
  c.procs = r.procs;
  c.size = r.size;
  c.args = r.args;
  c.ml = r.ml;
  c.network = r.network;
  return c;
}

}  // namespace

std::vector<config_runs> by_config(const std::vector<run>& runs) {
  std::vector<config_runs> out;
  std::map<std::string, std::size_t> index;
  for (const auto& r : runs) {
    auto [it, fresh] = index.emplace(r.config, out.size());
    if (fresh) {
      out.push_back(config_of(r));
    }
    auto& c = out[it->second];
    if (!c.time.count(r.policy)) c.policies.push_back(r.policy);
    c.time[r.policy][r.seed] = r.time;
    if (r.oracle > 0) c.oracle[r.seed] = r.oracle;
    if (r.bound > 0) {
      c.bound[r.seed] = r.bound;
      ++c.with_bound;
      if (r.time < r.bound * (1 - 1e-9)) ++c.below_bound;
    }
    if (!r.chose.empty() && r.chose != "-") c.chose[r.policy][r.seed] = r.chose;
    c.wall[r.policy] = std::max(c.wall[r.policy], r.wall);
    c.rss_mb[r.policy] = std::max(c.rss_mb[r.policy], r.rss_mb);
    if (r.loadavg >= 0) c.loadavg.push_back(r.loadavg);
  }
  for (auto& c : out)  // the driver's order of policies, whatever order the runs finished in
    std::stable_sort(c.policies.begin(), c.policies.end(),
                     [](const std::string& a, const std::string& b) {
                       return strategy_rank(a) < strategy_rank(b);
                     });
  return out;
}

void add_unfinished(std::vector<config_runs>& configs, const std::vector<run>& unfinished) {
  for (const auto& r : unfinished) {
    auto it = std::find_if(configs.begin(), configs.end(),
                           [&](const config_runs& c) { return c.config == r.config; });
    if (it == configs.end()) {
      configs.push_back(config_of(r));
      it = configs.end() - 1;
    }
    if (r.status == "timeout") {
      double& wall = it->timed_out[r.policy];
      wall = std::max(wall, r.wall);
    } else {
      it->failed[r.policy] = r.status;
    }
    if (std::find(it->policies.begin(), it->policies.end(), r.policy) == it->policies.end())
      it->policies.push_back(r.policy);
  }
}

std::optional<double> median_time(const config_runs& c, const std::string& policy) {
  const auto it = c.time.find(policy);
  if (it == c.time.end()) return std::nullopt;
  std::vector<double> v;
  for (const auto& [seed, t] : it->second) v.push_back(t);
  return median(v);
}

namespace {

// Median over the seeds of time / reference[seed].
std::optional<double> median_over(const config_runs& c, const std::string& policy,
                                  const std::map<std::string, double>& reference) {
  const auto it = c.time.find(policy);
  if (it == c.time.end()) return std::nullopt;
  return median(paired_ratios(it->second, reference));
}

}  // namespace

std::optional<double> median_over_oracle(const config_runs& c, const std::string& policy) {
  return median_over(c, policy, c.oracle);
}

std::optional<double> median_over_bound(const config_runs& c, const std::string& policy) {
  return median_over(c, policy, c.bound);
}

std::optional<double> bound_over_oracle(const config_runs& c) {
  return median(paired_ratios(c.bound, c.oracle));
}

std::optional<std::string> best_of(const config_runs& c,
                                   const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  double best_t = 0;
  for (const auto& p : candidates) {
    const auto t = median_time(c, p);
    if (!t) continue;
    if (!best || *t < best_t) best = p, best_t = *t;
  }
  return best;
}

std::optional<ratio_estimate> paired_ratio(const config_runs& c, const std::string& a,
                                           const std::string& b) {
  const auto ia = c.time.find(a), ib = c.time.find(b);
  if (ia == c.time.end() || ib == c.time.end()) return std::nullopt;
  return ratio_of(paired_ratios(ia->second, ib->second, true));
}

std::optional<ratio_estimate> best_against_best(const config_runs& c,
                                                const std::vector<std::string>& a_set,
                                                const std::vector<std::string>& b_set) {
  const auto a = best_of(c, a_set), b = best_of(c, b_set);
  if (!a || !b) return std::nullopt;
  return paired_ratio(c, *a, *b);
}

std::map<std::string, std::string> workload_labels(const std::vector<config_runs>& configs) {
  // A configuration's first size parameter (name, value) and its group: everything else.
  struct parts {
    std::string group, name;
    std::int64_t value = 0;
  };
  std::set<std::string> networks;
  for (const auto& c : configs) networks.insert(c.network);
  const bool several_networks = networks.size() > 1;
  auto split = [several_networks](const config_runs& c) {
    parts p;
    const auto size = size_of(c.size);
    p.group = c.app;
    for (std::size_t k = 0; k < size.params.size(); ++k) {
      const auto& [name, value] = size.params[k];
      if (k == 0) {
        p.name = name, p.value = value;
      } else {
        p.group += " " + name + "=" + std::to_string(value);
      }
    }
    p.group += (c.args.empty() ? "" : " `" + c.args + "`") + " ml=" + std::to_string(c.ml);
    if (several_networks) p.group += " on " + c.network;
    return p;
  };
  std::map<std::pair<std::string, std::int64_t>, std::set<int>> procs_of;  // (group, value) -> P
  for (const auto& c : configs) {
    const auto p = split(c);
    procs_of[{p.group, p.value}].insert(c.procs);
  }
  std::map<std::string, std::string> out;
  for (const auto& c : configs) {
    const auto p = split(c);
    if (procs_of[{p.group, p.value}].size() > 1) {
      out[c.config] = p.group + ", " + p.name + "=" + std::to_string(p.value) + " (strong)";
    } else {
      const std::int64_t per = c.procs > 0 ? p.value / c.procs : 0;
      out[c.config] = p.group + ", " + p.name + " = " + std::to_string(per) + " P (weak)";
    }
  }
  return out;
}

std::vector<std::string> workloads_in_order(const std::vector<config_runs>& configs,
                                            const std::map<std::string, std::string>& labels) {
  std::vector<std::string> out;
  for (const auto& c : configs) {
    const auto& w = labels.at(c.config);
    if (std::find(out.begin(), out.end(), w) == out.end()) out.push_back(w);
  }
  return out;
}

std::vector<std::string> policies_of(const std::vector<config_runs>& configs) {
  std::vector<std::string> out;
  for (const auto& c : configs)
    for (const auto& p : c.policies)
      if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  std::stable_sort(out.begin(), out.end(), [](const std::string& a, const std::string& b) {
    return strategy_rank(a) < strategy_rank(b);
  });
  return out;
}

scale_target_result judge(const std::vector<config_runs>& configs, const scale_target& t) {
  scale_target_result r;
  r.target = t;
  std::set<std::string> synthetic, done;
  const auto labels = workload_labels(configs);
  for (const auto& c : configs) {
    if (c.app != "synthetic") continue;
    synthetic.insert(labels.at(c.config));
    if (c.procs != t.procs) continue;
    const bool stopped = !c.wall.count(t.policy) && c.timed_out.count(t.policy);
    if (!c.wall.count(t.policy) && !stopped) continue;
    done.insert(labels.at(c.config));
    ++r.workloads;
    const double w = stopped ? c.timed_out.at(t.policy) : c.wall.at(t.policy);
    const double m = c.rss_mb.count(t.policy) ? c.rss_mb.at(t.policy) : 0.0;
    r.worst_wall = std::max(r.worst_wall, w);
    r.worst_rss = std::max(r.worst_rss, m);
    if (!stopped && w <= t.wall_s && m <= t.rss_mb) ++r.within;
  }
  r.missing = static_cast<int>(synthetic.size() - done.size());
  return r;
}

std::optional<int> skipped_after_timeout(const std::vector<config_runs>& configs,
                                         const std::map<std::string, std::string>& labels,
                                         const config_runs& c, const std::string& policy) {
  if (c.time.count(policy) || c.timed_out.count(policy) || c.failed.count(policy))
    return std::nullopt;
  std::optional<int> at;
  for (const auto& o : configs) {
    if (o.procs < c.procs && o.timed_out.count(policy) &&
        labels.at(o.config) == labels.at(c.config) && (!at || o.procs < *at))
      at = o.procs;
  }
  return at;
}

std::vector<simulation_cost> simulation_costs(const std::vector<config_runs>& configs) {
  const auto labels = workload_labels(configs);
  std::map<int, simulation_cost> by_p;
  std::map<int, std::vector<double>> walls;
  for (const auto& c : configs) {
    auto& cost = by_p[c.procs];
    cost.procs = c.procs;
    for (const auto& [p, w] : c.wall) {
      walls[c.procs].push_back(w);
      if (w > cost.slowest_wall)
        cost.slowest_wall = w, cost.slowest = labels.at(c.config) + ", " + p;
    }
    for (const auto& [p, m] : c.rss_mb) cost.peak_rss_mb = std::max(cost.peak_rss_mb, m);
  }
  std::vector<simulation_cost> out;
  for (auto& [P, cost] : by_p) {
    cost.runs = walls[P].size();
    cost.median_wall = median(walls[P]).value_or(0.0);
    out.push_back(cost);
  }
  return out;
}

std::vector<std::string> fixed_policies(const config_runs& c) {
  std::vector<std::string> out;
  for (const auto& p : c.policies)
    if (p != "NONE" && p != "AUTO-ALL") out.push_back(p);
  return out;
}

std::optional<auto_all_row> compare_auto_all(const config_runs& c) {
  const auto fixed = fixed_policies(c);
  if (!c.time.count("AUTO-ALL") || fixed.empty()) return std::nullopt;
  auto_all_row row;
  row.config = c.config;
  row.best = best_of(c, fixed).value_or("");
  if (!row.best.empty()) row.vs_best = paired_ratio(c, "AUTO-ALL", row.best);
  for (const auto& p : fixed)
    if (const auto r = paired_ratio(c, "AUTO-ALL", p)) row.vs[p] = *r;
  if (const auto it = c.chose.find("AUTO-ALL"); it != c.chose.end()) row.committed = it->second;
  return row;
}

auto_all_summary summarize_auto_all(const std::vector<auto_all_row>& rows) {
  auto_all_summary s;
  std::map<std::string, std::vector<double>> per_policy;
  for (const auto& r : rows) {
    if (r.vs_best) {
      ++s.configs;
      if (r.vs_best->geo_mean <= 1.03) ++s.within;
      for (std::size_t k = 0; k < s.within_pct.size(); ++k)
        if (r.vs_best->geo_mean <= 1.0 + auto_all_summary::kPercents[k] / 100.0) ++s.within_pct[k];
    }
    for (const auto& [p, e] : r.vs) per_policy[p].push_back(e.geo_mean);
    for (const auto& [seed, chose] : r.committed) {
      // "GSS / GDDLB": a program of two loops, each loop's commitment.
      std::size_t at = 0;
      while (at <= chose.size()) {
        auto end = chose.find(" / ", at);
        if (end == std::string::npos) end = chose.size();
        std::string policy = chose.substr(at, end - at);
        policy = policy.substr(0, policy.find(" ["));  // the commitment's [scatter] mark
        ++s.commitments[policy];
        at = end + 3;
      }
    }
  }
  for (const auto& [p, v] : per_policy)
    if (const auto e = ratio_of(v)) s.vs[p] = *e;
  return s;
}

const std::vector<std::string>& paper_strategies() {
  static const std::vector<std::string> s{"GCDLB", "GDDLB", "LCDLB", "LDDLB"};
  return s;
}

bool is_self_scheduling(const std::string& p) {
  // A chunk rule of the core's table (CSS:k with its chunk), as the programs spell it.
  return core::parse_chunk_rule(p.substr(0, p.find(':'))).has_value();
}

}  // namespace dlb::report::beyond
