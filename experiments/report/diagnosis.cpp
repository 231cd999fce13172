// Each claim diagnosed from the runs, with a paired bootstrap over the seeds (diagnosis.hpp).
#include "report/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "report/markdown.hpp"
#include "report/report.hpp"
#include "report/summary.hpp"
#include "sweep/text.hpp"

namespace dlb::report {
namespace {

using sweep::format_sig;

constexpr double kLevel = 0.95;        // the checks' intervals
constexpr double kO1Tolerance = 0.02;  // O1: DLB / no-DLB at most 1.02 (claims.cpp)

const std::vector<std::string>& strategies() {
  static const std::vector<std::string> s{"GCDLB", "GDDLB", "LCDLB", "LDDLB"};
  return s;
}

side_stats side_of(const config_view& c, const std::string& s) {
  side_stats out;
  out.name = s;
  if (const summary_row* r = c.row(s)) {
    out.syncs = r->number("syncs_median").value_or(0);
    out.mb_moved = r->number("bytes_moved_median").value_or(0) / 1e6;
    out.over_oracle = r->number("over_oracle_median").value_or(0);
  }
  return out;
}

double val(const ranking& r, const std::string& s) {
  for (const auto& [name, v] : r.order) {
    if (name == s) return v;
  }
  return 0;
}

std::string where_of(const config_view& c, measure m) {
  return c.app + " " + c.label() + (m == measure::loop1 ? " L1" : m == measure::loop2 ? " L2" : "");
}

claim_check make(const std::string& claim, const config_view& c, measure m, std::string what,
                 const std::string& better, const std::string& worse, double margin) {
  claim_check k;
  k.claim = claim;
  k.where = where_of(c, m);
  k.what = std::move(what);
  k.margin = margin;
  k.better = side_of(c, better);
  k.worse = side_of(c, worse);
  return k;
}

// The best of `of` by the ranking (smallest value), excluding `not_these`.
std::string best_among(const ranking& r, const std::vector<std::string>& of,
                       const std::vector<std::string>& not_these = {}) {
  std::string best;
  for (const auto& s : of) {
    if (std::find(not_these.begin(), not_these.end(), s) != not_these.end()) continue;
    if (best.empty() || val(r, s) < val(r, best)) best = s;
  }
  return best;
}

// `first` ranks first among the four.
claim_check first_check(const std::string& claim, const config_view& c, measure m, const ranking& r,
                        const std::string& first) {
  const std::string rival = best_among(r, strategies(), {first});
  return make(claim, c, m, first + " first", first, rival, val(r, rival) - val(r, first));
}

std::vector<const config_view*> loaded(const std::vector<config_view>& all, const std::string& app,
                                       int procs) {
  std::vector<const config_view*> out;
  for (const auto& c : all) {
    if (c.app == app && c.ml > 0 && (procs == 0 || c.procs == procs)) out.push_back(&c);
  }
  return out;
}

// The smallest and the largest size with a full ranking by `m` (claims.cpp's size_extremes).
std::vector<const config_view*> extremes(std::vector<const config_view*> cs, measure m) {
  cs.erase(std::remove_if(cs.begin(), cs.end(),
                          [m](const config_view* c) { return !rank_strategies(*c, m); }),
           cs.end());
  std::stable_sort(cs.begin(), cs.end(), [](const config_view* a, const config_view* b) {
    return size_less(a->size, b->size);
  });
  if (cs.size() < 2 || cs.front()->size == cs.back()->size) return {};
  return {cs.front(), cs.back()};
}

using checks = std::vector<claim_check>;

void pair_checks(checks& out, const std::string& claim, const std::vector<config_view>& all,
                 const std::string& app, int procs, const std::string& better,
                 const std::string& worse) {
  for (const auto* c : loaded(all, app, procs)) {
    if (const auto r = rank_strategies(*c)) {
      out.push_back(make(claim, *c, measure::total, better + " before " + worse, better, worse,
                         val(*r, worse) - val(*r, better)));
    }
  }
}

void best_then_checks(checks& out, const std::string& claim, const std::vector<config_view>& all,
                      const std::string& app, int procs, const std::string& first,
                      const std::string& second) {
  for (const auto* c : loaded(all, app, procs)) {
    const auto r = rank_strategies(*c);
    if (!r) continue;
    out.push_back(first_check(claim, *c, measure::total, *r, first));
    const std::string rival = best_among(*r, strategies(), {first, second});
    out.push_back(make(claim, *c, measure::total, second + " second", second, rival,
                       val(*r, rival) - val(*r, second)));
  }
}

void distributed_checks(checks& out, const std::string& claim, const std::vector<config_view>& all,
                        const std::string& app) {
  pair_checks(out, claim, all, app, 0, "GDDLB", "GCDLB");
  pair_checks(out, claim, all, app, 0, "LDDLB", "LCDLB");
}

double mean_of(const ranking& r, const std::string& a, const std::string& b) {
  return (val(r, a) + val(r, b)) / 2.0;
}

// The worse of two strategies by the ranking.
std::string worse_of(const ranking& r, const std::string& a, const std::string& b) {
  return val(r, a) >= val(r, b) ? a : b;
}

void globals_checks(checks& out, const std::vector<config_view>& all) {
  for (const auto* c : loaded(all, "mxm", 0)) {
    const auto r = rank_strategies(*c);
    if (!r) continue;
    out.push_back(make("M3", *c, measure::total, "globals before locals (means)",
                       worse_of(*r, "GCDLB", "GDDLB"), best_among(*r, {"LCDLB", "LDDLB"}),
                       mean_of(*r, "LCDLB", "LDDLB") - mean_of(*r, "GCDLB", "GDDLB")));
  }
}

// M4: per size per processor on both P, the P=4 gap minus the P=16 gap (locals - globals).
void gap_checks(checks& out, const std::vector<config_view>& all) {
  std::map<std::string, std::map<int, std::pair<const config_view*, double>>> by;
  for (const auto* c : loaded(all, "mxm", 0)) {
    const auto r = rank_strategies(*c);
    if (!r || c->procs <= 0) continue;
    std::istringstream in(c->size);
    std::string kv, key;
    while (in >> kv) {
      const auto eq = kv.find('=');
      if (eq != std::string::npos && kv.substr(0, eq) == "n")
        kv = "n=" + std::to_string(std::stoll(kv.substr(eq + 1)) / c->procs);
      key += kv + " ";
    }
    by[key][c->procs] = {c, mean_of(*r, "LCDLB", "LDDLB") - mean_of(*r, "GCDLB", "GDDLB")};
  }
  for (const auto& [key, per_p] : by) {
    if (per_p.size() < 2) continue;
    const auto& [small_c, small_gap] = per_p.begin()->second;
    const auto& [large_c, large_gap] = per_p.rbegin()->second;
    const auto r = *rank_strategies(*large_c);
    out.push_back(make("M4", *large_c, measure::total, "gap smaller than on " + small_c->label(),
                       best_among(r, {"LCDLB", "LDDLB"}), best_among(r, {"GCDLB", "GDDLB"}),
                       small_gap - large_gap));
  }
}

void shift_checks(checks& out, const std::string& claim, const std::vector<config_view>& all,
                  const std::string& app, int procs, const std::string& small_first,
                  const std::string& large_first) {
  const auto ext = extremes(loaded(all, app, procs), measure::total);
  if (ext.empty()) return;
  out.push_back(
      first_check(claim, *ext[0], measure::total, *rank_strategies(*ext[0]), small_first));
  out.push_back(
      first_check(claim, *ext[1], measure::total, *rank_strategies(*ext[1]), large_first));
}

void per_loop_checks(checks& out, const std::vector<config_view>& all) {
  for (const auto* c : loaded(all, "trfd", 0)) {
    for (const measure m : {measure::loop1, measure::loop2}) {
      if (c->procs == 4 && m == measure::loop2) continue;
      if (const auto r = rank_strategies(*c, m))
        out.push_back(first_check("T6", *c, m, *r, "LDDLB"));
    }
  }
  const auto ext = extremes(loaded(all, "trfd", 4), measure::loop2);
  if (!ext.empty()) {
    out.push_back(first_check("T6", *ext[1], measure::loop2,
                              *rank_strategies(*ext[1], measure::loop2), "GDDLB"));
  }
}

// A1 / A2: the best local before the best global at the smallest size, the reverse at the largest.
void local_global_checks(checks& out, const std::string& claim, const std::vector<config_view>& all,
                         int procs) {
  const auto ext = extremes(loaded(all, "ac", procs), measure::total);
  if (ext.empty()) return;
  const std::vector<std::string> locals{"LCDLB", "LDDLB"}, globals{"GCDLB", "GDDLB"};
  for (int i = 0; i < 2; ++i) {
    const auto r = *rank_strategies(*ext[i]);
    const auto& b = i == 0 ? locals : globals;
    const auto& w = i == 0 ? globals : locals;
    const std::string bb = best_among(r, b), bw = best_among(r, w);
    // The words name the sides, not the strategies: the best of a side may change between
    // bootstrap replicates, and the check must stay the same one (claim_check::key).
    out.push_back(make(claim, *ext[i], measure::total,
                       i == 0 ? "smallest size: the best local before the best global"
                              : "largest size: the best global before the best local",
                       bb, bw, val(r, bw) - val(r, bb)));
  }
}

void ac_edge_checks(checks& out, const std::vector<config_view>& all) {
  for (const auto* c : loaded(all, "ac", 0)) {
    const auto r = rank_strategies(*c);
    if (!r) continue;
    out.push_back(make("A3", *c, measure::total, "distributed before centralized (means)",
                       worse_of(*r, "GDDLB", "LDDLB"), best_among(*r, {"GCDLB", "LCDLB"}),
                       mean_of(*r, "GCDLB", "LCDLB") - mean_of(*r, "GDDLB", "LDDLB")));
  }
}

void overhead_checks(checks& out, const std::vector<config_view>& all) {
  for (const auto& c : all) {
    if (c.ml != 0) continue;
    const int loops = c.app == "trfd" ? 2 : 1;
    for (const auto& s : strategies()) {
      const summary_row* r = c.row(s);
      if (!r) continue;
      if (const auto norm = r->number("norm_median")) {
        out.push_back(make("O1", c, measure::total, s + " within 2% of no DLB", s, "NONE",
                           1.0 + kO1Tolerance - *norm));
      }
      if (const auto syncs = r->number("syncs_median")) {
        const bool local = s == "LCDLB" || s == "LDDLB";
        const int allowed = loops * (local && c.group > 0 ? (c.procs + c.group - 1) / c.group : 1);
        // In synchronizations, half a one of slack: > 0 while the median is within the allowance.
        out.push_back(make("O1s", c, measure::total, s + " one synchronization per loop and group",
                           s, "NONE", allowed + 0.5 - *syncs));
      }
    }
  }
}

// O2 on Table 1.4's rows (claims.cpp's table14_rows): the model given the load seen so far.
void prediction_checks(checks& out, const std::vector<config_view>& all) {
  for (const auto& c : all) {
    if (c.ml == 0) continue;
    const std::vector<measure> ms = c.app == "trfd"
                                        ? std::vector<measure>{measure::loop1, measure::loop2}
                                        : std::vector<measure>{measure::total};
    for (const measure m : ms) {
      const auto r = rank_strategies(c, m);
      const auto p = predicted_best(c, m, "estimated");
      if (!r || !p || std::find(strategies().begin(), strategies().end(), *p) == strategies().end())
        continue;
      out.push_back(first_check("O2", c, m, *r, *p));
      out.back().what = "the predicted best first";  // which one may change between replicates
    }
  }
}

}  // namespace

std::vector<claim_check> claim_checks(const std::vector<config_view>& all) {
  checks out;
  best_then_checks(out, "M1", all, "mxm", 0, "GDDLB", "GCDLB");
  pair_checks(out, "M2", all, "mxm", 0, "LDDLB", "LCDLB");
  globals_checks(out, all);
  gap_checks(out, all);
  distributed_checks(out, "M5", all, "mxm");
  shift_checks(out, "T1", all, "trfd", 4, "LDDLB", "GDDLB");
  pair_checks(out, "T2", all, "trfd", 4, "GCDLB", "LCDLB");
  best_then_checks(out, "T3", all, "trfd", 16, "LDDLB", "GDDLB");
  pair_checks(out, "T4", all, "trfd", 16, "LCDLB", "GCDLB");
  distributed_checks(out, "T5", all, "trfd");
  per_loop_checks(out, all);
  local_global_checks(out, "A1", all, 4);
  local_global_checks(out, "A2", all, 16);
  ac_edge_checks(out, all);
  overhead_checks(out, all);
  prediction_checks(out, all);
  return out;
}

const std::vector<std::string>& mechanism_names() {
  static const std::vector<std::string> n{"inside the seeds' spread", "synchronization cost",
                                          "data movement", "balance left (time over the oracle)"};
  return n;
}

breaking_check diagnose_check(const claim_check& c, const interval& ci) {
  breaking_check b{c, ci, "", ""};
  const side_stats& x = c.better;  // the side the paper puts first, beaten here
  const side_stats& y = c.worse;
  std::ostringstream d;
  d << x.name << " " << format_sig(x.syncs, 3) << " syncs, " << format_sig(x.mb_moved, 3)
    << " MB moved, " << format_sig(x.over_oracle, 3) << "x its oracle bound; " << y.name << " "
    << format_sig(y.syncs, 3) << ", " << format_sig(y.mb_moved, 3) << " MB, "
    << format_sig(y.over_oracle, 3) << "x";
  b.detail = d.str();
  const auto& n = mechanism_names();
  if (ci.hi > 0) {
    b.mechanism = n[0];
  } else if (x.syncs >= y.syncs + 2 && x.syncs >= 1.5 * y.syncs) {
    b.mechanism = n[1];
  } else if (x.mb_moved >= y.mb_moved + 0.1 && x.mb_moved >= 1.5 * y.mb_moved) {
    b.mechanism = n[2];
  } else {
    b.mechanism = n[3];
  }
  return b;
}

std::string to_string(claim_class c) {
  switch (c) {
    case claim_class::reproduced:
      return "reproduced";
    case claim_class::refuted:
      return "refuted";
    case claim_class::no_difference:
      return "no difference";
    case claim_class::not_resolved:
      return "not resolved";
    case claim_class::not_measured:
      return "not measured";
  }
  return "?";
}

claim_class classify(std::optional<double> support, std::optional<double> effect) {
  if (!support) return claim_class::not_measured;
  if (effect && *effect <= kNoDifference) return claim_class::no_difference;
  if (*support >= kDecided) return claim_class::reproduced;
  if (*support <= 1.0 - kDecided) return claim_class::refuted;
  return claim_class::not_resolved;
}

claim_class with_halves(claim_class full, const std::vector<claim_class>& halves) {
  const auto said = [&](claim_class c) {
    return std::find(halves.begin(), halves.end(), c) != halves.end();
  };
  if (full == claim_class::reproduced && said(claim_class::refuted))
    return claim_class::not_resolved;
  if (full == claim_class::refuted && said(claim_class::reproduced))
    return claim_class::not_resolved;
  return full;
}

bool same_within_noise(const std::string& a, const std::string& b, double gap, interval ci) {
  return a == b || std::abs(gap) <= kNoDifference || (ci.lo <= 0 && ci.hi >= 0);
}

noise_counts count_noise(const std::vector<row_noise>& rows) {
  noise_counts n;
  for (const auto& r : rows) {
    ++n.rows;
    n.separable += r.separable();
    n.best_exact += r.best_exact;
    n.best_noise += r.best_noise;
    n.predicted_exact += r.predicted_exact;
    n.predicted_noise += r.predicted_noise;
    n.model_exact += r.model_exact;
    n.model_noise += r.model_noise;
  }
  return n;
}

namespace {

// Table 1.4's rows where our best (at the medians) is not the paper's actual best: the first
// measured row per label.
std::vector<row_gap> differing_rows(const table14_comparison& t) {
  std::vector<row_gap> out;
  std::set<std::string> seen;
  for (const auto& r : t.rows) {
    if (!r.config || r.rank.order.empty() || !seen.insert(r.label).second) continue;
    const std::string ours = r.rank.order[0].first;
    if (ours == r.paper->actual_best) continue;
    row_gap g;
    g.label = r.label;
    g.paper_best = r.paper->actual_best;
    g.ours = ours;
    g.gap = val(r.rank, g.paper_best) - val(r.rank, ours);
    out.push_back(g);
  }
  return out;
}

// What one bootstrap replicate adds: each reading's verdict, each check's margin, each
// differing row's gap (the same pair of schemes as at the medians), and every Table 1.4 row's
// four values (one map per replicate).
struct tallies {
  std::map<std::string, int> strict, tendency;
  std::map<std::string, std::vector<double>> margins;
  std::map<std::string, std::vector<double>> gaps;
  std::map<std::string, std::vector<std::map<std::string, double>>> values;
};

void add_replicate(tallies& t, const std::vector<sweep::csv_table>& tables,
                   const std::vector<paper_best_row>& paper_best,
                   const std::vector<row_gap>& rows) {
  const auto summary = load_summary(summarize(tables).table);
  const auto configs = group_configs(summary);
  for (const auto& c : evaluate_claims(summary)) {
    t.strict[c.id] += c.outcome == verdict::holds;
    t.tendency[c.id] += c.tendency_or_strict() == verdict::holds;
  }
  for (const auto& k : claim_checks(configs)) t.margins[k.key()].push_back(k.margin);
  const auto t14 = compare_table14(configs, paper_best);
  std::set<std::string> seen;
  for (const auto& r : t14.rows) {
    if (!r.config || r.rank.order.empty() || !seen.insert(r.label).second) continue;
    std::map<std::string, double> v(r.rank.order.begin(), r.rank.order.end());
    t.values[r.label].push_back(v);
  }
  for (const auto& g : rows) {
    for (const auto& r : t14.rows) {
      if (r.label != g.label || !r.config || r.rank.order.empty()) continue;
      t.gaps[g.label].push_back(val(r.rank, g.paper_best) - val(r.rank, g.ours));
      break;
    }
  }
}

// The claim's mechanism: the most frequent among its breaking checks outside the spread, else
// the spread.
std::string claim_mechanism(const std::vector<breaking_check>& breaking) {
  std::map<std::string, int> count;
  for (const auto& b : breaking) {
    if (b.mechanism != mechanism_names()[0]) ++count[b.mechanism];
  }
  if (count.empty()) return breaking.empty() ? "-" : mechanism_names()[0];
  std::string best;
  for (const auto& name : mechanism_names()) {
    if (count.count(name) && (best.empty() || count[name] > count[best])) best = name;
  }
  return best;
}

// Claims that order strategies by normalized time: the effect size applies to them.
bool is_ordering(const std::string& id) { return id != "O1" && id != "O1s" && id != "O2"; }

claim_diagnosis assemble(const claim_result& point, const std::vector<claim_check>& checks,
                         const tallies& t, int replicates) {
  claim_diagnosis cd;
  cd.point = point;
  const double n = std::max(1, replicates);
  const auto get = [](const std::map<std::string, int>& m, const std::string& k) {
    const auto it = m.find(k);
    return it == m.end() ? 0 : it->second;
  };
  cd.strict_support = get(t.strict, point.id) / n;
  cd.tendency_support = get(t.tendency, point.id) / n;
  for (const auto& k : checks) {
    if (k.claim != point.id) continue;
    ++cd.checks;
    if (is_ordering(point.id)) cd.effect = std::max(cd.effect.value_or(0), std::abs(k.margin));
    if (k.margin > 0) continue;
    const auto it = t.margins.find(k.key());
    cd.breaking.push_back(diagnose_check(k, it == t.margins.end()
                                                ? interval{k.margin, k.margin}
                                                : percentile_interval(it->second, kLevel)));
  }
  const bool measured = point.tendency_or_strict() != verdict::not_measured && replicates > 0;
  cd.full =
      classify(measured ? std::optional<double>(cd.tendency_support) : std::nullopt, cd.effect);
  cd.outcome = cd.full;
  cd.mechanism = claim_mechanism(cd.breaking);
  return cd;
}

// The gap b - a of one Table 1.4 row's values over the replicates, and its interval.
interval row_interval(const tallies& t, const std::string& label, const std::string& a,
                      const std::string& b) {
  const auto it = t.values.find(label);
  if (it == t.values.end()) return {};
  std::vector<double> g;
  for (const auto& v : it->second) {
    if (v.count(a) && v.count(b)) g.push_back(v.at(b) - v.at(a));
  }
  return percentile_interval(g, kLevel);
}

// Every measured row of Table 1.4 read within noise (the first row per label).
std::vector<row_noise> noise_rows(const table14_comparison& t14, const tallies& t) {
  std::vector<row_noise> out;
  std::set<std::string> seen;
  for (const auto& r : t14.rows) {
    if (!r.config || r.rank.order.size() < 2 || !seen.insert(r.label).second) continue;
    row_noise n;
    n.label = r.label;
    n.paper_best = r.paper->actual_best;
    n.paper_predicted = r.paper->predicted_best;
    n.ours = r.rank.order[0].first;
    n.second = r.rank.order[1].first;
    n.model = r.predicted_estimated;
    n.top_gap = row_interval(t, r.label, n.ours, n.second);
    const auto same = [&](const std::string& a, const std::string& b) {
      const bool known = val(r.rank, a) > 0 && val(r.rank, b) > 0;
      return known && same_within_noise(a, b, val(r.rank, b) - val(r.rank, a),
                                        row_interval(t, r.label, a, b));
    };
    n.best_exact = n.ours == n.paper_best;
    n.best_noise = same(n.ours, n.paper_best);
    n.predicted_exact = n.model == n.paper_predicted;
    n.predicted_noise = same(n.model, n.paper_predicted);
    n.model_exact = n.model == n.ours;
    n.model_noise = same(n.ours, n.model);
    out.push_back(n);
  }
  return out;
}

// The rule on all the given seeds, without the stability check.
diagnosis diagnose_once(const std::vector<sweep::csv_table>& results,
                        const std::vector<paper_best_row>& paper_best, int replicates,
                        std::uint64_t seed) {
  diagnosis d;
  d.replicates = replicates;
  const auto summary = load_summary(summarize(results).table);
  const auto configs = group_configs(summary);
  const auto checks = claim_checks(configs);
  const auto t14 = compare_table14(configs, paper_best);
  d.table_rows = t14.measured;
  d.table_same = t14.same_actual;
  d.rows = differing_rows(t14);

  tallies t;
  const auto seeds = seeds_of(results);
  d.seeds = static_cast<int>(seeds.size());
  bootstrap_seeds(seeds, replicates, seed, [&](const std::vector<std::string>& drawn) {
    std::vector<sweep::csv_table> tables;
    for (const auto& r : results) tables.push_back(resample_seeds(r, drawn));
    add_replicate(t, tables, paper_best, d.rows);
  });
  for (const auto& c : evaluate_claims(summary))
    d.claims.push_back(assemble(c, checks, t, replicates));
  for (auto& g : d.rows) {
    const auto it = t.gaps.find(g.label);
    if (it == t.gaps.end()) continue;
    g.ci = percentile_interval(it->second, kLevel);
    const auto wins =
        std::count_if(it->second.begin(), it->second.end(), [](double x) { return x < 0; });
    g.paper_wins = static_cast<double>(wins) / static_cast<double>(it->second.size());
  }
  d.noise = noise_rows(t14, t);
  return d;
}

}  // namespace

diagnosis diagnose(const std::vector<sweep::csv_table>& results,
                   const std::vector<paper_best_row>& paper_best, int replicates,
                   std::uint64_t seed, int halves) {
  diagnosis d = diagnose_once(results, paper_best, replicates, seed);
  auto seeds = seeds_of(results);
  if (halves <= 0 || seeds.size() < 2) return d;
  d.splits = halves;
  std::mt19937_64 rng(seed + 1);
  for (int k = 0; k < halves; ++k) {
    std::shuffle(seeds.begin(), seeds.end(), rng);
    const std::size_t h = seeds.size() / 2;
    for (const auto& half : {std::vector<std::string>(seeds.begin(), seeds.begin() + h),
                             std::vector<std::string>(seeds.begin() + h, seeds.begin() + 2 * h)}) {
      std::vector<sweep::csv_table> tables;
      for (const auto& r : results) tables.push_back(resample_seeds(r, half));
      // Half the replicates for half the seeds (a support to 0.005 still decides at 0.95).
      const auto part =
          diagnose_once(tables, paper_best, std::max(1, replicates / 2), seed + 2 + k);
      for (std::size_t i = 0; i < d.claims.size() && i < part.claims.size(); ++i)
        d.claims[i].halves.push_back(part.claims[i].full);
    }
  }
  for (auto& c : d.claims) c.outcome = with_halves(c.full, c.halves);
  return d;
}

namespace {

std::string num(double x) { return format_sig(x, 3); }

std::string signed_num(double x) { return (x >= 0 ? "+" : "") + sweep::format_fixed(x, 3); }

std::string reading_text(verdict v, double support) {
  return v == verdict::not_measured ? to_string(v) : to_string(v) + " (" + num(support) + ")";
}

// "R 14, U 6" over a claim's halves (R reproduced, F refuted, N no difference, U not resolved).
std::string halves_text(const std::vector<claim_class>& halves) {
  if (halves.empty()) return "-";
  const std::vector<std::pair<claim_class, const char*>> letters{{claim_class::reproduced, "R"},
                                                                 {claim_class::refuted, "F"},
                                                                 {claim_class::no_difference, "N"},
                                                                 {claim_class::not_resolved, "U"},
                                                                 {claim_class::not_measured, "-"}};
  std::string out;
  for (const auto& [c, l] : letters) {
    const auto k = std::count(halves.begin(), halves.end(), c);
    if (k > 0) out += (out.empty() ? "" : ", ") + std::string(l) + " " + std::to_string(k);
  }
  return out;
}

void claims_table(std::ostringstream& md, const diagnosis& d) {
  md << md_header({{"claim"},
                   {"the paper"},
                   {"strict (support)"},
                   {"tendency (support)"},
                   {"effect"},
                   {"checks broken"},
                   {"all seeds"},
                   {"halves"},
                   {"verdict"},
                   {"mechanism"}});
  for (const auto& c : d.claims) {
    std::size_t outside = 0;
    for (const auto& b : c.breaking) outside += b.ci.hi <= 0;
    md << "| " << c.point.id << " | " << c.point.statement << " | "
       << reading_text(c.point.outcome, c.strict_support) << " | "
       << (c.point.tendency ? reading_text(*c.point.tendency, c.tendency_support) : "(strict only)")
       << " | " << (c.effect ? signed_num(*c.effect) : std::string("-")) << " | "
       << c.breaking.size() << " of " << c.checks << " (" << outside << " outside the spread) | "
       << to_string(c.full) << " | " << halves_text(c.halves) << " | **" << to_string(c.outcome)
       << "** | " << c.mechanism << " |\n";
  }
}

void breaking_lists(std::ostringstream& md, const diagnosis& d) {
  for (const auto& c : d.claims) {
    md << "\n**" << c.point.id << "** (" << to_string(c.outcome) << "; strict: " << c.point.tally;
    if (c.point.tendency && !c.point.tendency_tally.empty()) {
      md << "; tendency: " << c.point.tendency_tally;
    }
    md << ").";
    if (c.breaking.empty()) {
      md << " No check breaks it at the medians.\n";
      continue;
    }
    md << " Breaking checks (margin = the other side's normalized time - the claimed side's; "
          "95% interval):\n\n";
    for (const auto& b : c.breaking) {
      md << "- " << b.check.where << ", " << b.check.what << ": " << signed_num(b.check.margin)
         << " [" << signed_num(b.ci.lo) << ", " << signed_num(b.ci.hi) << "]: " << b.mechanism
         << " (" << b.detail << ")\n";
    }
  }
}

void rows_table(std::ostringstream& md, const diagnosis& d) {
  std::size_t outside = 0;
  for (const auto& g : d.rows) outside += g.outside_spread();
  md << "\n### Table 1.4: the rows where our best differs from the paper's\n\n"
     << "Our actual best equals the paper's in " << d.table_same << " of " << d.table_rows
     << " measured rows; in the other " << d.rows.size()
     << ", the gap = the paper's scheme's normalized time - ours (that loop's for TRFD), with its "
        "95% interval; the paper's scheme is slower beyond the seeds' spread in "
     << outside << " of " << d.rows.size() << ".\n\n"
     << md_header({{"row"},
                   {"paper's best"},
                   {"ours"},
                   {"gap"},
                   {"95% interval"},
                   {"paper's scheme wins in"},
                   {"differs beyond the spread"}});
  for (const auto& g : d.rows) {
    md << "| " << g.label << " | " << g.paper_best << " | " << g.ours << " | " << signed_num(g.gap)
       << " | [" << signed_num(g.ci.lo) << ", " << signed_num(g.ci.hi) << "] | "
       << num(100.0 * g.paper_wins) << "% of replicates | " << (g.outside_spread() ? "yes" : "no")
       << " |\n";
  }
}

void noise_table(std::ostringstream& md, const diagnosis& d) {
  const auto n = count_noise(d.noise);
  md << "\n### Table 1.4 within noise\n\n"
     << "Per row: our best and second best (normalized time, that loop's for TRFD), whether they "
        "are separable (our second's gap over our best has its 95% interval above 0), the model's "
        "choice given the load seen so far (predicted_best_estimated), and the paper's actual and "
        "predicted best. Two schemes are the same within noise when they are one, or their gap in "
        "our runs is within "
     << num(kNoDifference) << " or its 95% interval holds 0. Over " << n.rows
     << " rows: our top two separable in " << n.separable << "; our best = the paper's best in "
     << n.best_exact << " exactly, " << n.best_noise << " within noise; our model = the paper's "
     << "predicted in " << n.predicted_exact << " exactly, " << n.predicted_noise
     << " within noise; our model = our best in " << n.model_exact << " exactly, " << n.model_noise
     << " within noise (the paper's own: 19 of 28).\n\n"
     << md_header({{"row"},
                   {"ours (second)"},
                   {"separable"},
                   {"model"},
                   {"paper's best"},
                   {"paper's predicted"},
                   {"best = paper's"},
                   {"model = paper's predicted"},
                   {"model = ours"}});
  const auto mark = [](bool exact, bool noise) {
    return std::string(exact ? "exact" : noise ? "within noise" : "no");
  };
  for (const auto& r : d.noise) {
    md << "| " << r.label << " | " << r.ours << " (" << r.second << ") | "
       << (r.separable() ? "yes" : "no") << " [" << signed_num(r.top_gap.lo) << ", "
       << signed_num(r.top_gap.hi) << "] | " << (r.model.empty() ? "-" : r.model) << " | "
       << r.paper_best << " | " << r.paper_predicted << " | " << mark(r.best_exact, r.best_noise)
       << " | " << mark(r.predicted_exact, r.predicted_noise) << " | "
       << mark(r.model_exact, r.model_noise) << " |\n";
  }
}

// The counts of each verdict, and their band (least, most) over the halves of the seeds.
std::string counts_text(const diagnosis& d) {
  const std::vector<claim_class> kinds{claim_class::reproduced, claim_class::refuted,
                                       claim_class::no_difference, claim_class::not_resolved};
  std::map<claim_class, int> n;
  for (const auto& c : d.claims) ++n[c.outcome];
  const std::size_t halves = d.claims.empty() ? 0 : d.claims.front().halves.size();
  std::ostringstream o;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    o << (k == 0 ? "" : ", ") << to_string(kinds[k]) << " " << n[kinds[k]];
    if (halves == 0) continue;
    int lo = 1 << 30, hi = 0;
    for (std::size_t h = 0; h < halves; ++h) {
      int x = 0;
      for (const auto& c : d.claims) x += h < c.halves.size() && c.halves[h] == kinds[k];
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    o << " (halves " << lo << "-" << hi << ")";
  }
  o << " of " << d.claims.size();
  return o.str();
}

}  // namespace

std::string render_diagnosis(const diagnosis& d) {
  std::ostringstream md;
  md << "Per claim, over " << d.seeds << " load seeds: our verdict in both readings with its "
     << "support (the share of " << d.replicates
     << " paired percentile-bootstrap replicates over the seeds, a fixed seed, in which it "
        "holds); the effect (an ordering claim's largest |margin| at the medians, normalized "
        "time); the checks that break it at the medians (how many are outside the seeds' spread: "
        "their 95% interval below 0); the verdict by one symmetric rule on the reading (the "
        "tendency one where the sentence allows one): **no difference** when the effect is at "
        "most "
     << num(kNoDifference) << ", else **reproduced** when the support is at least " << num(kDecided)
     << ", **refuted** when it is at most " << num(1.0 - kDecided)
     << ", **not resolved** otherwise; the same rule on each half of " << d.splits
     << " random splits of the seeds into two disjoint halves (" << std::max(1, d.replicates / 2)
     << " replicates each; R reproduced, F refuted, N no "
        "difference, U not resolved), a decided verdict that a half contradicts (reproduced "
        "against refuted) being reported as not resolved; and the mechanism named from the runs "
        "of its breaking checks (report/diagnosis.hpp).\n\n**Verdicts: "
     << counts_text(d) << ".**\n\n";
  claims_table(md, d);
  breaking_lists(md, d);
  noise_table(md, d);
  rows_table(md, d);
  return md.str();
}

std::string verdict_lines(const diagnosis& d) {
  std::ostringstream o;
  for (const auto& c : d.claims) {
    o << c.point.id << " " << to_string(c.outcome) << " (halves " << halves_text(c.halves)
      << "): strict " << reading_text(c.point.outcome, c.strict_support) << ", tendency "
      << reading_text(c.point.tendency_or_strict(), c.tendency_support) << "; " << c.breaking.size()
      << " of " << c.checks << " checks broken; mechanism: " << c.mechanism << "\n";
  }
  std::size_t outside = 0;
  for (const auto& g : d.rows) outside += g.outside_spread();
  const auto n = count_noise(d.noise);
  o << "Table 1.4: ours = the paper's in " << d.table_same << " of " << d.table_rows
    << " rows; of the " << d.rows.size() << " others, " << outside
    << " differ beyond the seeds' spread; within noise: best " << n.best_noise << ", predicted "
    << n.predicted_noise << ", model = best " << n.model_noise << " of " << n.rows << "\n";
  o << "Claims: " << counts_text(d) << "\n";
  return o.str();
}

}  // namespace dlb::report
