// dlb_sensitivity: the sensitivity study of the paper's unstated parameters.
//
//   dlb_sensitivity plan --design FILE --out-dir DIR
//       the study's sweep config (DIR/study.conf: every section of the design's base config once
//       per point), its points (DIR/points.csv) and the network descriptions that need their own
//       profile (DIR/networks.txt: name and dlb_netchar options, one per line).
//   dlb_sensitivity analyze --design FILE --out-dir DIR --results RESULTS.csv [--paper-dir DIR]
//       [--md FILE] [--figures-rel DIR] [--command CMD] [--elapsed-s S] [--legs N]
//       [--load-before L]
//       each claim's share of the region with its interval from the seeds, main effects, Table
//       1.4 agreement, heat-map cells, the calibrated point; CSVs into DIR and the Markdown
//       summary (--md, default DIR/SENSITIVITY.md).
// Bad input (unknown parameter, low > high, zero seeds, ...) exits 2 naming it.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "report/claims.hpp"
#include "report/markdown.hpp"
#include "report/paper.hpp"
#include "study/aggregate.hpp"
#include "study/design.hpp"
#include "sweep/cli.hpp"
#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/provenance.hpp"
#include "sweep/results_store.hpp"
#include "sweep/text.hpp"

using namespace dlb;
namespace fs = std::filesystem;

namespace {

const char* kUsage =
    "usage: dlb_sensitivity plan --design FILE --out-dir DIR\n"
    "       dlb_sensitivity analyze --design FILE --out-dir DIR --results RESULTS.csv\n"
    "                       [--paper-dir DIR] [--md FILE] [--figures-rel DIR] [--command CMD]\n"
    "                       [--elapsed-s SECONDS] [--legs N] [--load-before LOAD]\n"
    "plan: writes DIR/study.conf (the sweep of every design point), DIR/points.csv and\n"
    "DIR/networks.txt (network descriptions needing their own profile).\n"
    "analyze: from the sweep's results, each claim's share of the region (with intervals from a\n"
    "paired bootstrap over the seeds), main effects, Table 1.4 agreement, the calibrated point;\n"
    "CSVs into DIR and a Markdown summary (--md, default DIR/SENSITIVITY.md).\n"
    "Design file format: experiments/README.md, \"Sensitivity study\".\n";

std::string pct(double x) { return sweep::format_sig(100.0 * x, 3) + "%"; }

std::string verdict_word(report::verdict v) {
  return v == report::verdict::holds           ? "holds"
         : v == report::verdict::does_not_hold ? "does not hold"
                                               : "not measured";
}

std::string support_text(const study::claim_at_point& c) {
  return c.support ? sweep::format_sig(*c.support, 2) : std::string("-");
}

int plan(const sweep::cli_args& args) {
  const auto design = study::read_design(args.required("design"));
  const fs::path out = args.required("out-dir");
  std::string base;
  try {
    base = sweep::read_input(design.base, sweep::kConfigLimit);
  } catch (const sweep::input_error& e) {
    throw study::design_error(std::string("design: base config ") + e.what());
  } catch (const std::exception&) {
    throw study::design_error("design: base config " + design.base + " cannot be read");
  }
  // The study config must parse as a sweep config (an unknown key in the base fails here).
  const auto points = study::make_points(design);
  fs::create_directories(out);
  const fs::path profiles = fs::absolute(out / "network");
  const std::string conf = study::study_config(design, base, points, profiles);
  try {
    sweep::parse_config(conf, (out / "study.conf").string());
  } catch (const sweep::config_error& e) {
    throw study::design_error(std::string("design: the study config does not parse: ") + e.what());
  }
  sweep::write_atomically(out / "study.conf", conf);
  sweep::write_atomically(out / "points.csv", study::points_csv(points, base, profiles));
  std::set<std::string> seen;
  std::string nets;
  for (const auto& p : points) {
    const auto v = study::network_of(p);
    if (v.name.empty() || !seen.insert(v.name).second) continue;
    nets += v.name;
    for (const auto& a : v.netchar_args()) nets += " " + a;
    nets += "\n";
  }
  sweep::write_atomically(out / "networks.txt", nets);
  const auto plan = sweep::parse_config(conf, "study.conf");
  std::cerr << "dlb_sensitivity: " << points.size() << " points (defaults + " << design.points
            << "), " << design.seeds.size() << " seeds, " << plan.runs.size() << " runs, "
            << seen.size() << " network profiles to measure; wrote " << (out / "study.conf")
            << "\n";
  return 0;
}

struct loaded_point {
  study::point p;
  std::vector<std::string> tls;
  std::string args;
};

std::vector<loaded_point> read_points(const fs::path& file) {
  const auto t = sweep::read_csv_table(file);
  std::vector<loaded_point> out;
  for (const auto& r : t.rows) {
    loaded_point lp;
    lp.p.id = std::string(t.field(r, "point"));
    lp.p.is_defaults = t.field(r, "defaults") == "1";
    for (const auto& q : study::parameter_table())
      lp.p.levels[q.name] = std::string(t.field(r, q.name));
    lp.tls = sweep::split_blanks(t.field(r, "tl_values"));
    lp.args = std::string(t.field(r, "args"));
    out.push_back(lp);
  }
  if (out.empty()) throw sweep::csv_error(file.string() + ": no points");
  return out;
}

// What analyze reads: the design, its points, the sweep's results, the paper's Table 1.4, and
// where the summary goes.
struct study_inputs {
  study::design design;
  fs::path out;
  std::vector<loaded_point> points;
  sweep::csv_table results;
  std::vector<report::paper_best_row> paper_best;
  fs::path md_path;
  std::string figures_rel;
};

// One claim over the region: its share, its main effects, and the tendency reading's count.
struct claim_summary {
  study::region_share share;
  std::vector<study::main_effect> effects;
  std::size_t tendency_measured = 0, tendency_holds = 0;  // the tendency reading's count
};

// What the aggregation makes of the inputs; every output (CSV or Markdown) reads only this and
// the inputs.
struct study_aggregate {
  std::vector<std::size_t> planned_runs, recorded_runs;  // per point
  std::vector<study::point_result> judged;               // per point
  std::vector<bool> complete;                            // per point: every planned run recorded
  std::size_t runs = 0, ok = 0;
  std::vector<std::size_t> region;      // the complete points but the defaults
  std::optional<std::size_t> defaults;  // the defaults point, when complete
  std::vector<std::map<std::string, std::string>> region_levels;  // per region point
  std::map<std::string, claim_summary> per_claim;
  std::vector<std::pair<double, std::string>> influence;  // (mean range, parameter), largest first
  std::string pa, pb;  // the heat map's axes, the two most influential parameters; "": none
  std::vector<std::pair<std::size_t, std::size_t>> row_freq;  // per Table 1.4 row: measured, match
  std::optional<std::size_t> cal;  // the calibrated point, an index into region
};

// Reads analyze's inputs, failing (csv_error, design_error) on any that is missing or malformed.
study_inputs read_inputs(const sweep::cli_args& args) {
  study_inputs in;
  in.design = study::read_design(args.required("design"));
  in.out = args.required("out-dir");
  in.points = read_points(in.out / "points.csv");
  const std::string results_path = args.required("results");
  in.results = sweep::read_results_table(results_path);
  if (!in.results.column("status") || !in.results.column("extra_args") ||
      !in.results.column("seed")) {
    throw sweep::csv_error(results_path + " is not a dlb_sweep results file");
  }
  // Only the design's seeds: a resumed study's results file may also hold the runs of an earlier
  // design (more seeds), which would otherwise weigh in where their point's args and tl match.
  std::erase_if(in.results.rows, [&](const auto& r) {
    const auto seed = sweep::parse_uint(in.results.field(r, "seed"));
    return !seed || std::find(in.design.seeds.begin(), in.design.seeds.end(), *seed) ==
                        in.design.seeds.end();
  });
  const std::string paper_dir = args.value("paper-dir").value_or(report::default_paper_dir);
  in.paper_best = report::read_paper_best(paper_dir);
  in.md_path = args.value("md").value_or((in.out / "SENSITIVITY.md").string());
  // The Markdown is not one of the CSVs analyze writes nor one of its inputs.
  std::vector<std::pair<std::string, std::string>> outs{{"--md", in.md_path.string()}};
  for (const char* csv :
       {"claims.csv", "point_claims.csv", "main_effects.csv", "heatmap.csv", "rows.csv"})
    outs.emplace_back("--out-dir", (in.out / csv).string());
  sweep::refuse_output_over_inputs(args, outs,
                                   {{"--design", args.required("design")},
                                    {"--results", results_path},
                                    {"--out-dir", (in.out / "points.csv").string()},
                                    {"--out-dir", (in.out / "study.conf").string()}});
  in.figures_rel = args.value("figures-rel").value_or("figures");
  return in;
}

// Judges every point (the defaults point first), and counts its planned and recorded runs.
void judge_points(const study_inputs& in, study_aggregate& a) {
  const auto& points = in.points;
  // The runs the plan has for each point: a point whose runs are not all recorded (an
  // interrupted study) is left out rather than judged on part of its configurations.
  const auto planned = sweep::read_config(in.out / "study.conf");
  a.planned_runs.assign(points.size(), 0);
  a.recorded_runs.assign(points.size(), 0);
  for (const auto& r : planned.runs) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      if (points[i].args != r.extra_args) continue;
      for (const auto& tl : points[i].tls) {
        if (sweep::parse_double(tl) == r.tl) {
          ++a.planned_runs[i];
          break;
        }
      }
    }
  }
  a.complete.assign(points.size(), false);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto rows = study::rows_of_point(in.results, points[i].tls, points[i].args);
    std::set<std::string> keys;
    for (const auto& r : rows.rows) keys.insert(sweep::row_key(rows, r));
    a.recorded_runs[i] = keys.size();
    a.complete[i] = a.planned_runs[i] > 0 && keys.size() >= a.planned_runs[i];
    a.judged.push_back(study::judge_point(points[i].p.id, rows, in.paper_best, in.design.bootstrap,
                                          in.design.design_seed * 1000003u + i));
    a.runs += a.judged.back().runs;
    a.ok += a.judged.back().runs_ok;
    std::cerr << "dlb_sensitivity: point " << points[i].p.id << ": " << a.recorded_runs[i] << " of "
              << a.planned_runs[i] << " runs recorded (" << a.judged.back().runs_ok << " ok)"
              << (a.complete[i] ? "" : ": incomplete, left out") << "\n";
  }
}

// The region and the defaults point (complete points only), and per claim its share of the
// region, main effects and tendency count.
void summarize_claims(const study_inputs& in, study_aggregate& a) {
  const auto& points = in.points;
  // The region: every point but the defaults.
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!points[i].p.is_defaults && a.complete[i]) a.region.push_back(i);
  }
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].p.is_defaults && a.complete[i]) a.defaults = i;
  }
  for (auto i : a.region) a.region_levels.push_back(points[i].p.levels);
  for (const auto& c : report::claim_table()) {
    std::vector<study::claim_at_point> v;
    std::vector<std::optional<bool>> holds;
    for (auto i : a.region) {
      const auto& cp = a.judged[i].claims[c.id];
      v.push_back(cp);
      holds.push_back(cp.outcome == report::verdict::not_measured
                          ? std::nullopt
                          : std::optional<bool>(cp.outcome == report::verdict::holds));
    }
    auto& s = a.per_claim[c.id];
    s = {study::share_of_region(v),
         study::main_effects(a.region_levels, holds, in.design.parameters)};
    for (const auto& cp : v) {
      if (cp.tendency == report::verdict::not_measured) continue;
      ++s.tendency_measured;
      s.tendency_holds += cp.tendency == report::verdict::holds;
    }
  }
}

// The parameters by influence (the mean range of their main effects over the claims, largest
// first) and the heat map's axes, the two most influential.
void rank_parameters(const study_inputs& in, study_aggregate& a) {
  const auto& claims = report::claim_table();
  for (const auto& p : in.design.parameters) {
    double sum = 0;
    for (const auto& c : claims) {
      for (const auto& e : a.per_claim.at(c.id).effects)
        if (e.parameter == p.name) sum += e.range;
    }
    a.influence.emplace_back(sum / static_cast<double>(claims.size()), p.name);
  }
  std::stable_sort(a.influence.begin(), a.influence.end(),
                   [](const auto& x, const auto& y) { return x.first > y.first; });
  if (a.influence.size() >= 2 && !a.region.empty()) {
    a.pa = a.influence[0].second;
    a.pb = a.influence[1].second;
  }
}

// Everything the outputs show, from the inputs (the only output here: each point's line on
// stderr as it is judged).
study_aggregate aggregate(const study_inputs& in) {
  study_aggregate a;
  judge_points(in, a);
  summarize_claims(in, a);
  rank_parameters(in, a);
  // Table 1.4 agreement over the region.
  a.row_freq.assign(in.paper_best.size(), {0, 0});
  for (auto i : a.region) {
    for (std::size_t r = 0; r < a.judged[i].rows.size(); ++r) {
      if (a.judged[i].rows[r].ours.empty()) continue;
      ++a.row_freq[r].first;
      a.row_freq[r].second += a.judged[i].rows[r].matches();
    }
  }
  // The calibrated point: fitted on MXM and TRFD over the region's points (not the defaults).
  std::vector<study::point_result> region_results;
  for (auto i : a.region) region_results.push_back(a.judged[i]);
  a.cal = study::calibrated_point(region_results);
  return a;
}

// The parameter whose levels move a claim's share most (the first of the largest), or nullptr.
const study::main_effect* top_effect(const claim_summary& s) {
  const study::main_effect* top = nullptr;
  for (const auto& e : s.effects)
    if (!top || e.range > top->range) top = &e;
  return top;
}

// claims.csv: what dlb_report reads.
void write_claims_csv(const study_inputs& in, const study_aggregate& a) {
  // The verdicts, shares and effects are the strict reading's; the tendency_ columns count
  // the tendency reading (the strict one for a claim without a tendency reading).
  std::string csv = sweep::csv_line(
      {"claim", "defaults_verdict", "defaults_support", "share", "share_low", "share_high",
       "points_measured", "points_hold", "deciding_parameter", "deciding_range",
       "defaults_tendency", "tendency_points_measured", "tendency_points_hold", "tendency_share"});
  for (const auto& c : report::claim_table()) {
    const auto& s = a.per_claim.at(c.id);
    std::string dv = "not measured", ds, dt = "not measured";
    if (a.defaults) {
      const auto& cp = a.judged[*a.defaults].claims.at(c.id);
      dv = verdict_word(cp.outcome);
      ds = support_text(cp);
      dt = verdict_word(cp.tendency);
    }
    const study::main_effect* top = top_effect(s);
    csv += sweep::csv_line(
        {c.id, dv, ds, sweep::format_sig(s.share.share, 4), sweep::format_sig(s.share.low, 4),
         sweep::format_sig(s.share.high, 4), std::to_string(s.share.measured),
         std::to_string(s.share.holds), top && top->range > 0 ? top->parameter : "-",
         top ? sweep::format_sig(top->range, 3) : "0", dt, std::to_string(s.tendency_measured),
         std::to_string(s.tendency_holds),
         s.tendency_measured == 0 ? std::string("-")
                                  : sweep::format_sig(static_cast<double>(s.tendency_holds) /
                                                          static_cast<double>(s.tendency_measured),
                                                      4)});
  }
  sweep::write_atomically(in.out / "claims.csv", csv);
}

// point_claims.csv: every claim at every complete point.
void write_point_claims_csv(const study_inputs& in, const study_aggregate& a) {
  std::vector<std::string> h{"point"};
  for (const auto& q : study::parameter_table()) h.push_back(q.name);
  h.insert(h.end(), {"claim", "verdict", "support", "tally", "tendency_verdict"});
  std::string csv = sweep::csv_line(h);
  for (std::size_t i = 0; i < in.points.size(); ++i) {
    if (!a.complete[i]) continue;  // judged on part of its runs: not a verdict
    for (const auto& c : report::claim_table()) {
      std::vector<std::string> r{in.points[i].p.id};
      for (const auto& q : study::parameter_table()) r.push_back(in.points[i].p.levels.at(q.name));
      const auto& cp = a.judged[i].claims.at(c.id);
      r.insert(r.end(), {c.id, verdict_word(cp.outcome), support_text(cp), cp.tally,
                         verdict_word(cp.tendency)});
      csv += sweep::csv_line(r);
    }
  }
  sweep::write_atomically(in.out / "point_claims.csv", csv);
}

// main_effects.csv: per claim, parameter and level, the share of the region's points holding.
void write_main_effects_csv(const study_inputs& in, const study_aggregate& a) {
  std::string csv = sweep::csv_line({"claim", "parameter", "level", "points", "hold", "share"});
  for (const auto& c : report::claim_table()) {
    for (const auto& e : a.per_claim.at(c.id).effects) {
      for (const auto& l : e.levels) {
        csv += sweep::csv_line({c.id, e.parameter, l.level, std::to_string(l.measured),
                                std::to_string(l.holds), sweep::format_sig(l.share(), 4)});
      }
    }
  }
  sweep::write_atomically(in.out / "main_effects.csv", csv);
}

// heatmap.csv: per claim, the share holding in each cell of the two most influential parameters;
// removed when there are no such two (none is better than a stale one).
void write_heatmap_csv(const study_inputs& in, const study_aggregate& a) {
  std::error_code gone;
  fs::remove(in.out / "heatmap.csv", gone);
  if (a.pa.empty()) return;
  std::string csv = sweep::csv_line(
      {"claim", "x_parameter", "x_level", "y_parameter", "y_level", "points", "hold", "share"});
  const study::parameter_levels *la = nullptr, *lb = nullptr;
  for (const auto& p : in.design.parameters) {
    if (p.name == a.pa) la = &p;
    if (p.name == a.pb) lb = &p;
  }
  for (const auto& c : report::claim_table()) {
    for (const auto& xa : la->levels) {
      for (const auto& yb : lb->levels) {
        std::size_t n = 0, h = 0;
        for (auto i : a.region) {
          const auto& at = in.points[i].p.levels;
          if (at.at(a.pa) != xa || at.at(a.pb) != yb) continue;
          const auto v = a.judged[i].claims.at(c.id).outcome;
          if (v == report::verdict::not_measured) continue;
          ++n;
          h += v == report::verdict::holds;
        }
        csv += sweep::csv_line({c.id, a.pa, xa, a.pb, yb, std::to_string(n), std::to_string(h),
                                n ? sweep::format_sig(static_cast<double>(h) / n, 4) : ""});
      }
    }
  }
  sweep::write_atomically(in.out / "heatmap.csv", csv);
}

// rows.csv: Table 1.4 agreement, per row at the defaults and over the region.
void write_rows_csv(const study_inputs& in, const study_aggregate& a) {
  std::string csv = sweep::csv_line(
      {"row", "paper_best", "defaults_ours", "points_measured", "points_match", "share"});
  for (std::size_t r = 0; r < in.paper_best.size(); ++r) {
    const auto& row = a.judged.front().rows[r];
    const auto& [measured, match] = a.row_freq[r];
    csv += sweep::csv_line({row.key, row.paper_best,
                            a.defaults ? a.judged[*a.defaults].rows[r].ours : "",
                            std::to_string(measured), std::to_string(match),
                            measured ? sweep::format_sig(double(match) / measured, 4) : ""});
  }
  sweep::write_atomically(in.out / "rows.csv", csv);
}

// The summary's title and provenance: the command, when, which revision, how long, on what.
void md_provenance(std::ostringstream& md, const sweep::cli_args& args,
                   const sweep::csv_table& results) {
  md << "# Sensitivity of the paper's conclusions to its unstated parameters\n\n"
     << "Generated by `" << args.value("command").value_or("dlb_sensitivity analyze") << "` on "
     << sweep::utc_now() << " (revision " << sweep::source_revision();
  if (const auto runs = results.meta("revision"); runs && *runs != sweep::source_revision())
    md << "; the runs: revision " << *runs;
  md << ")";
  if (const auto e = args.value("elapsed-s")) {
    md << "; the study took " << *e << " s of wall time";
    const std::string legs = args.value("legs").value_or("1");
    if (legs != "1") md << " in " << legs << " legs (a first run and its resumptions)";
  }
  md << "; machine: " << results.meta("host").value_or("unknown");
  if (const auto l = args.value("load-before"); l && *l != "-")
    md << ", 1-minute load average " << *l << " when the study started";
  md << ". Backend: simulated (SimGrid, virtual time); every run verified against the sequential "
        "reference (runs that are not `ok` are excluded and counted below). Do not edit: "
        "regenerate.\n\n";
}

// The design paragraph: how many points, seeds and runs, why this design, and how many points
// each level has over the region (the ones the main effects count).
void md_design(std::ostringstream& md, const study_inputs& in, const study_aggregate& a) {
  std::size_t fewest_per_level = SIZE_MAX, most_per_level = 0;
  for (const auto& pl : in.design.parameters)
    for (const auto& level : pl.levels) {
      const auto n = static_cast<std::size_t>(
          std::count_if(a.region_levels.begin(), a.region_levels.end(),
                        [&](const auto& at) { return at.at(pl.name) == level; }));
      fewest_per_level = std::min(fewest_per_level, n);
      most_per_level = std::max(most_per_level, n);
    }
  if (fewest_per_level > most_per_level) fewest_per_level = 0;
  md << "**Design.** " << in.points.size() - 1 << " space-filling points (a Latin hypercube over "
     << "the levels below: every level of every parameter equally often, within one, and among "
     << "200 candidate hypercubes the one whose two closest points differ in the most parameters)"
     << ", plus the defaults point; at every point the configurations of `" << in.design.base
     << "`, each under NONE, the four strategies and AUTO, with " << in.design.seeds.size()
     << " paired load seeds; " << a.runs << " runs, " << a.ok << " ok. Intervals: a paired "
     << "bootstrap over the seeds (" << in.design.bootstrap << " replicates per point; a seed "
     << "brings all its strategies and configurations). Why this design: every point runs the "
     << "whole paper at full size (the runs' wall time per point is in the last table), so the "
     << "compute budget (the design file says it) allows a handful of points, not a factorial "
     << "over the parameters (thousands of points); a Latin hypercube still shows every "
     << "parameter at each of its levels (experiments/README.md, \"Sensitivity study\"). With "
     << fewest_per_level << " to " << most_per_level << " points per level, the main effects "
     << "are leads to follow, not measurements.\n\n";
}

// The incomplete points (left out of every number) and the table of parameters and levels.
void md_parameters(std::ostringstream& md, const study_inputs& in, const study_aggregate& a) {
  std::string left_out;
  for (std::size_t i = 0; i < in.points.size(); ++i) {
    if (!a.complete[i]) {
      left_out += (left_out.empty() ? "" : ", ") + in.points[i].p.id + " (" +
                  std::to_string(a.recorded_runs[i]) + " of " + std::to_string(a.planned_runs[i]) +
                  " runs)";
    }
  }
  if (!left_out.empty()) {
    md << "**Incomplete points, left out of every number below** (the study was interrupted; "
          "rerun the same command to finish them): "
       << left_out << ".\n\n";
  }
  md << report::md_header({{"parameter"},
                           {"levels"},
                           {"default (`make reproduce`)"},
                           {"set by"},
                           {"source of the default"}});
  for (const auto& q : study::parameter_table()) {
    std::string levels = "(default only)";
    for (const auto& p : in.design.parameters) {
      if (p.name != q.name) continue;
      levels.clear();
      for (const auto& l : p.levels) levels += (levels.empty() ? "" : ", ") + l;
    }
    md << "| " << q.name << " | " << levels << " | " << q.default_level << " | `" << q.option
       << "` | " << q.source << " |\n";
  }
}

// The claims table: each claim at the defaults and its share of the region, both readings.
void md_claims(std::ostringstream& md, const study_aggregate& a) {
  md << "\n## Claims: at the defaults, and over the region\n\n"
        "At the defaults: dlb_report's verdict with this study's seeds, and its bootstrap "
        "support (share of replicates in which it holds). Region: the share of the "
     << a.region.size()
     << " space-filling points where the claim holds; in brackets, from the share where it "
        "holds surely (support >= 0.975) to the share where it does not fail surely "
        "(support > 0.025). Deciding parameter: the one whose levels move the claim's share "
        "most (main effect, max - min of the share over its levels). These are the strict "
        "reading's (dlb_report: the pattern in every configuration); the last two columns count "
        "the tendency reading (most configurations or the mean, where the paper's sentence "
        "allows it; the strict verdict elsewhere), without bootstrap.\n\n"
     << report::md_header({{"claim"},
                           {"at the defaults"},
                           {"support"},
                           {"share of region"},
                           {"interval"},
                           {"deciding parameter (range)"},
                           {"tendency at the defaults"},
                           {"tendency: share of region"}});
  for (const auto& c : report::claim_table()) {
    const auto& s = a.per_claim.at(c.id);
    const study::main_effect* top = top_effect(s);
    const auto* at_defaults = a.defaults ? &a.judged[*a.defaults].claims.at(c.id) : nullptr;
    md << "| " << c.id << " | "
       << (at_defaults ? verdict_word(at_defaults->outcome) : "not measured") << " | "
       << (at_defaults ? support_text(*at_defaults) : "-") << " | ";
    const std::string tendency =
        (at_defaults ? verdict_word(at_defaults->tendency) : "not measured") + " | " +
        (s.tendency_measured == 0 ? std::string("not measured")
                                  : std::to_string(s.tendency_holds) + " of " +
                                        std::to_string(s.tendency_measured) + " (" +
                                        pct(static_cast<double>(s.tendency_holds) /
                                            static_cast<double>(s.tendency_measured)) +
                                        ")");
    if (s.share.measured == 0) {
      md << "not measured | | | " << tendency << " |\n";
      continue;
    }
    md << s.share.holds << " of " << s.share.measured << " (" << pct(s.share.share) << ") | ["
       << pct(s.share.low) << ", " << pct(s.share.high) << "] | "
       << (top && top->range > 0 ? top->parameter + " (" + sweep::format_sig(top->range, 2) + ")"
                                 : "none (no level moves it)")
       << " | " << tendency << " |\n";
  }
}

// The main effects (per claim and parameter) and the heat maps' figure.
void md_main_effects(std::ostringstream& md, const study_inputs& in, const study_aggregate& a) {
  md << "\n## Main effects\n\nPer claim and parameter: max - min over the parameter's levels of "
        "the share of points where the claim holds (0: no level changes it; with few points per "
        "level, read large values as leads, not as measurements). Most influential overall "
        "(mean over the claims): ";
  for (std::size_t i = 0; i < a.influence.size(); ++i) {
    md << (i ? ", " : "") << a.influence[i].second << " "
       << sweep::format_sig(a.influence[i].first, 2);
  }
  std::vector<report::md_column> head{{"claim"}};
  for (const auto& p : in.design.parameters) head.push_back({p.name});
  md << ".\n\n" << report::md_header(head);
  for (const auto& c : report::claim_table()) {
    md << "| " << c.id << " |";
    for (const auto& e : a.per_claim.at(c.id).effects)
      md << " " << sweep::format_sig(e.range, 2) << " |";
    md << "\n";
  }
  if (a.pa.empty()) {
    md << "\n## Heat maps\n\nNone: "
       << (a.region.empty() ? "no point of the region is complete yet."
                            : "the design varies fewer than two parameters.")
       << "\n";
  } else {
    md << "\n## Heat maps over the two most influential parameters (" << a.pa << ", " << a.pb
       << ")\n\nPer claim, the share of the points in each cell where it holds (blank: no point "
          "there): `heatmap.csv`.\n\n"
       << "![claims over " << a.pa << " and " << a.pb << "](" << in.figures_rel
       << "/sensitivity_heatmap.png) ([SVG](" << in.figures_rel << "/sensitivity_heatmap.svg))\n";
  }
}

// Table 1.4: per row, the paper's best, ours at the defaults, and how often ours is the paper's.
void md_table14(std::ostringstream& md, const study_inputs& in, const study_aggregate& a) {
  md << "\n## Table 1.4: how often our best is the paper's\n\n"
     << report::md_header({{"row"},
                           {"paper's actual best"},
                           {"ours at the defaults"},
                           {"points where ours = paper's"}});
  std::size_t def_match = 0, def_rows = 0;
  for (std::size_t r = 0; r < in.paper_best.size(); ++r) {
    const auto& row = a.judged.front().rows[r];
    std::string d = "-";
    if (a.defaults) {
      const auto& dr = a.judged[*a.defaults].rows[r];
      d = dr.ours.empty() ? "not measured" : dr.ours + (dr.matches() ? " (same)" : "");
      def_rows += !dr.ours.empty();
      def_match += dr.matches();
    }
    md << "| " << row.key << " | " << row.paper_best << " | " << d << " | ";
    const auto& [measured, match] = a.row_freq[r];
    if (measured == 0) {
      md << "not measured |\n";
    } else {
      md << match << " of " << measured << " (" << pct(double(match) / measured) << ") |\n";
    }
  }
  if (a.defaults) md << "\nAt the defaults: " << def_match << " of " << def_rows << " rows.\n";
}

// The calibrated point: its levels, and its fit on MXM and TRFD and check on AC beside the
// defaults'.
void md_calibrated(std::ostringstream& md, const study_inputs& in, const study_aggregate& a) {
  md << "\n## The calibrated point (fitted to the paper on MXM and TRFD; not the defaults)\n\n"
        "Among the space-filling points, the one that best fits the paper on MXM and TRFD only: "
        "the number of Table 1.4 rows of MXM and TRFD whose actual best is the paper's plus the "
        "number of claims M1-M5 and T1-T6 that hold (these claims are what Figures 1.7 and 1.9 "
        "show; the paper's figures are not transcribed as numbers). It is then checked on AC, "
        "which it was not fitted to. This point is chosen *from the answer*: it says how close "
        "the reproduction can come, not which parameters are right; `make reproduce` keeps the "
        "defaults above.\n\n";
  if (!a.cal) {
    md << "No point measured.\n";
    return;
  }
  const auto idx = a.region[*a.cal];
  const auto fc = study::fit_on(a.judged[idx], {"mxm", "trfd"});
  const auto fa = study::fit_on(a.judged[idx], {"ac"});
  md << "Calibrated point **" << in.points[idx].p.id << "**:";
  for (const auto& q : study::parameter_table())
    md << " " << q.name << " = " << in.points[idx].p.levels.at(q.name) << ";";
  md << "\n\n"
     << report::md_header(
            {{""}, {"calibrated point (fitted: MXM, TRFD)"}, {"defaults (not fitted)"}});
  study::fit dc, da;
  if (a.defaults) {
    dc = study::fit_on(a.judged[*a.defaults], {"mxm", "trfd"});
    da = study::fit_on(a.judged[*a.defaults], {"ac"});
  }
  auto cell = [](std::size_t x, std::size_t of) {
    return std::to_string(x) + " of " + std::to_string(of);
  };
  md << "| MXM+TRFD Table 1.4 rows matched (fitted) | " << cell(fc.rows_matched, fc.rows) << " | "
     << cell(dc.rows_matched, dc.rows) << " |\n"
     << "| MXM+TRFD claims holding (fitted) | " << cell(fc.claims_hold, fc.claims) << " | "
     << cell(dc.claims_hold, dc.claims) << " |\n"
     << "| **AC Table 1.4 rows matched (check, not fitted)** | " << cell(fa.rows_matched, fa.rows)
     << " | " << cell(da.rows_matched, da.rows) << " |\n"
     << "| **AC claims A1-A3 holding (check, not fitted)** | " << cell(fa.claims_hold, fa.claims)
     << " | " << cell(da.claims_hold, da.claims) << " |\n";
}

// Every point: its levels, runs, wall time, the claims holding and Table 1.4 rows matched.
void md_every_point(std::ostringstream& md, const study_inputs& in, const study_aggregate& a) {
  md << "\n## Every point\n\nRuns' wall time: each run's wall seconds as dlb_sweep measured "
        "them, summed (two runs at a time).\n\n";
  std::vector<report::md_column> head{{"point"}};
  for (const auto& q : study::parameter_table()) head.push_back({q.name});
  head.insert(
      head.end(),
      {{"runs ok"}, {"runs' wall time (s)"}, {"claims holding"}, {"Table 1.4 rows matched"}});
  md << report::md_header(head);
  for (std::size_t i = 0; i < in.points.size(); ++i) {
    const auto& judged = a.judged[i];
    md << "| " << in.points[i].p.id << " |";
    for (const auto& q : study::parameter_table())
      md << " " << in.points[i].p.levels.at(q.name) << " |";
    std::size_t h = 0, rm = 0, rn = 0;
    std::string which;
    for (const auto& c : report::claim_table()) {
      if (judged.claims.at(c.id).outcome == report::verdict::holds) {
        ++h;
        which += (which.empty() ? "" : " ") + c.id;
      }
    }
    for (const auto& r : judged.rows) {
      rn += !r.ours.empty();
      rm += r.matches();
    }
    md << " " << judged.runs_ok << " of " << a.planned_runs[i]
       << (a.complete[i] ? "" : " (incomplete)") << " | " << sweep::format_sig(judged.run_wall_s, 4)
       << " | ";
    if (!a.complete[i]) {
      md << "- (not judged: incomplete) | - |\n";
      continue;
    }
    md << h << (which.empty() ? "" : ": " + which) << " | " << rm << " of " << rn << " |\n";
  }
  md << "\nFiles beside the figures: `claims.csv` (what `make reproduce`'s report shows), "
        "`point_claims.csv` (every claim at every point, with support and tally), "
        "`main_effects.csv`, `rows.csv`, `heatmap.csv`, `points.csv`.\n";
}

// The Markdown summary (--md), section by section.
void write_summary(const sweep::cli_args& args, const study_inputs& in, const study_aggregate& a) {
  std::ostringstream md;
  md_provenance(md, args, in.results);
  md_design(md, in, a);
  md_parameters(md, in, a);
  md_claims(md, a);
  md_main_effects(md, in, a);
  md_table14(md, in, a);
  md_calibrated(md, in, a);
  md_every_point(md, in, a);
  sweep::write_atomically(in.md_path, md.str());
}

// The analysis: read, aggregate, then each CSV and the Markdown summary.
int analyze(const sweep::cli_args& args) {
  const study_inputs in = read_inputs(args);
  const study_aggregate a = aggregate(in);
  write_claims_csv(in, a);
  write_point_claims_csv(in, a);
  write_main_effects_csv(in, a);
  write_heatmap_csv(in, a);
  write_rows_csv(in, a);
  write_summary(args, in, a);
  std::cerr << "dlb_sensitivity: " << a.runs << " runs (" << a.ok << " ok) over "
            << in.points.size() << " points; wrote " << in.md_path.string() << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || (std::string(argv[1]) != "plan" && std::string(argv[1]) != "analyze")) {
    if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
      std::cout << kUsage;
      return 0;
    }
    std::cerr << "dlb_sensitivity: the first argument must be plan or analyze\n" << kUsage;
    return 2;
  }
  const std::string cmd = argv[1];
  const std::vector<std::string> values =
      cmd == "plan" ? std::vector<std::string>{"design", "out-dir"}
                    : std::vector<std::string>{"design", "out-dir",     "results", "paper-dir",
                                               "md",     "figures-rel", "command", "elapsed-s",
                                               "legs",   "load-before"};
  const sweep::cli_args args(argc - 1, argv + 1, "dlb_sensitivity " + cmd, kUsage, values, {});
  try {
    return cmd == "plan" ? plan(args) : analyze(args);
  } catch (const study::design_error& e) {
    std::cerr << "dlb_sensitivity: " << e.what() << "\n";
    return 2;
  } catch (const sweep::csv_error& e) {
    std::cerr << "dlb_sensitivity: " << e.what() << "\n";
    return 2;
  } catch (const sweep::config_error& e) {
    std::cerr << "dlb_sensitivity: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "dlb_sensitivity: " << e.what() << "\n";
    return 1;
  }
}
