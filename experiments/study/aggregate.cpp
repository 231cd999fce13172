// The sensitivity study's aggregation: claims per point (with a paired bootstrap over the seeds),
// share of the region, main effects, Table 1.4 agreement, the calibrated point.
#include "study/aggregate.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "report/diagnosis.hpp"
#include "report/stats.hpp"
#include "report/summary.hpp"
#include "sweep/text.hpp"

namespace dlb::study {
namespace {

using report::verdict;

constexpr double kSure = 0.975;  // support at or above: holds surely; at or below 1 - kSure: fails

std::map<std::string, verdict> verdicts_of(const sweep::csv_table& table) {
  const auto summary = report::summarize({table});
  const auto rows = report::load_summary(summary.table);
  std::map<std::string, verdict> out;
  for (const auto& c : report::evaluate_claims(rows)) out[c.id] = c.outcome;
  return out;
}

// One row of Table 1.4 at a point: our best for the paper's configuration (the first of our
// configurations under load that matches it and ranks every strategy), and the paper's.
row_at_point table14_row(const report::paper_best_row& p,
                         const std::vector<report::config_view>& configs) {
  row_at_point r;
  r.app = p.app;
  r.key = sweep::upper(p.app) + " P=" + std::to_string(p.procs) + " " + p.size_text +
          (p.loop.empty() ? "" : " " + p.loop);
  r.paper_best = p.actual_best;
  const auto m = p.loop == "L1"   ? report::measure::loop1
                 : p.loop == "L2" ? report::measure::loop2
                                  : report::measure::total;
  for (const auto& c : configs) {
    if (c.app != p.app || c.procs != p.procs || c.ml <= 0 || !report::size_matches(p.size, c.size))
      continue;
    if (const auto rk = report::rank_strategies(c, m)) {
      r.ours = rk->order[0].first;
      break;
    }
  }
  return r;
}

// The claims' support at a point: the share of `replicates` paired bootstrap replicates (drawn
// from `seed`) in which each claim holds. A point without seed or rep columns keeps none.
void bootstrap_support(point_result& out, const sweep::csv_table& table, int replicates,
                       std::uint64_t seed) {
  // Paired bootstrap: the point's seeds drawn with replacement; a drawn seed brings every run
  // of that seed (all strategies, all configurations), relabelled as its slot so that a seed
  // drawn twice counts twice (report::resample_seeds).
  const auto seeds = report::seeds_of({table});
  if (!table.column("rep") || seeds.empty()) return;
  std::map<std::string, std::size_t> measured, holds;
  report::bootstrap_seeds(seeds, replicates, seed, [&](const std::vector<std::string>& drawn) {
    for (const auto& [claim, v] : verdicts_of(report::resample_seeds(table, drawn))) {
      if (v == verdict::not_measured) continue;
      ++measured[claim];
      holds[claim] += v == verdict::holds;
    }
  });
  for (auto& [claim, c] : out.claims) {
    if (measured[claim] > 0) {
      c.support = static_cast<double>(holds[claim]) / static_cast<double>(measured[claim]);
    }
  }
}

}  // namespace

point_result judge_point(const std::string& id, const sweep::csv_table& table,
                         const std::vector<report::paper_best_row>& paper_best, int replicates,
                         std::uint64_t seed) {
  point_result out;
  out.point = id;
  out.runs = table.rows.size();
  for (const auto& r : report::rows_of(table)) {
    out.runs_ok += r.ok();
    out.run_wall_s += r.value("run_wall_s");
  }

  const auto summary = report::summarize({table});
  const auto rows = report::load_summary(summary.table);
  for (const auto& c : report::evaluate_claims(rows)) {
    out.claims[c.id].outcome = c.outcome;
    out.claims[c.id].tendency = c.tendency_or_strict();
    out.claims[c.id].tally = c.tally;
  }
  const auto configs = report::group_configs(rows);
  for (const auto& p : paper_best) out.rows.push_back(table14_row(p, configs));

  if (replicates > 0) bootstrap_support(out, table, replicates, seed);
  return out;
}

region_share share_of_region(const std::vector<claim_at_point>& points) {
  region_share r;
  std::size_t sure_holds = 0, sure_fails = 0;
  for (const auto& p : points) {
    if (p.outcome == verdict::not_measured) continue;
    ++r.measured;
    const bool h = p.outcome == verdict::holds;
    r.holds += h;
    const double s = p.support.value_or(h ? 1.0 : 0.0);
    sure_holds += s >= kSure;
    sure_fails += s <= 1.0 - kSure;
  }
  if (r.measured == 0) return r;
  const double n = static_cast<double>(r.measured);
  r.share = static_cast<double>(r.holds) / n;
  r.low = static_cast<double>(sure_holds) / n;
  r.high = static_cast<double>(r.measured - sure_fails) / n;
  return r;
}

std::vector<main_effect> main_effects(const std::vector<std::map<std::string, std::string>>& levels,
                                      const std::vector<std::optional<bool>>& holds,
                                      const std::vector<parameter_levels>& parameters) {
  std::vector<main_effect> out;
  for (const auto& p : parameters) {
    main_effect e;
    e.parameter = p.name;
    for (const auto& l : p.levels) e.levels.push_back({l, 0, 0});
    for (std::size_t i = 0; i < levels.size() && i < holds.size(); ++i) {
      if (!holds[i]) continue;
      const auto it = levels[i].find(p.name);
      if (it == levels[i].end()) continue;
      for (auto& ls : e.levels) {
        if (ls.level != it->second) continue;
        ++ls.measured;
        ls.holds += *holds[i];
      }
    }
    double lo = 2, hi = -1;
    std::size_t seen = 0;
    for (const auto& ls : e.levels) {
      if (ls.measured == 0) continue;
      ++seen;
      lo = std::min(lo, ls.share());
      hi = std::max(hi, ls.share());
    }
    e.range = seen >= 2 ? hi - lo : 0.0;
    out.push_back(e);
  }
  return out;
}

std::string app_of_claim(const std::string& id) {
  if (id.empty()) return "";
  switch (id[0]) {
    case 'M':
      return "mxm";
    case 'T':
      return "trfd";
    case 'A':
      return "ac";
    default:
      return "";
  }
}

fit fit_on(const point_result& p, const std::vector<std::string>& apps) {
  auto in = [&](const std::string& a) {
    return std::find(apps.begin(), apps.end(), a) != apps.end();
  };
  fit f;
  for (const auto& r : p.rows) {
    if (!in(r.app) || r.ours.empty()) continue;
    ++f.rows;
    f.rows_matched += r.matches();
  }
  for (const auto& [id, c] : p.claims) {
    if (!in(app_of_claim(id)) || c.outcome == verdict::not_measured) continue;
    ++f.claims;
    f.claims_hold += c.outcome == verdict::holds;
  }
  return f;
}

std::optional<std::size_t> calibrated_point(const std::vector<point_result>& points) {
  std::optional<std::size_t> best;
  std::size_t best_score = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::size_t s = fit_on(points[i], {"mxm", "trfd"}).score();
    if (!best || s > best_score) {
      best = i;
      best_score = s;
    }
  }
  return best;
}

sweep::csv_table rows_of_point(const sweep::csv_table& results, const std::vector<std::string>& tls,
                               const std::string& args) {
  sweep::csv_table t;
  t.columns = results.columns;
  std::vector<double> want_tls;
  for (const auto& tl : tls) {
    if (const auto x = sweep::parse_double(tl)) want_tls.push_back(*x);
  }
  const std::string want_args(sweep::trim(args));
  for (const auto& r : results.rows) {
    const auto row_tl = sweep::parse_double(results.field(r, "tl"));
    if (!row_tl || std::find(want_tls.begin(), want_tls.end(), *row_tl) == want_tls.end()) continue;
    if (sweep::trim(results.field(r, "extra_args")) != want_args) continue;
    t.rows.push_back(r);
  }
  return t;
}

}  // namespace dlb::study
