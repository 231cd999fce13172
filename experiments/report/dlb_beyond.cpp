// dlb_beyond: the tables of experiments/BEYOND.md (`make beyond`) from raw sweep
// results, one section per invocation:
//   oracle    each strategy's median time over the oracle bound, per configuration under load,
//             and the communication-aware bound beside it; the target "best fixed strategy
//             within 10% of the bound on every MXM configuration" against both
//   choice    the customized choice (AUTO) and ADAPTIVE against the best fixed strategy, paired
//             by load seed; the targets "AUTO within 3% of the best fixed in >= 90% of
//             configurations" and "ADAPTIVE at least as good as AUTO on average"
//   baselines the paper's best strategy against the best self-scheduling baseline, paired
//   scale     time over the oracle against P per workload and policy; the simulation's own wall
//             time and memory per P
//   uneven    the synthetic loop with iterations of different costs (`make uneven`): balancing in
//             work against in iterations, block against cyclic starts
//   cost      what the runs cost: "N runs; their wall times add up to S s" (one line)
//   native    the native study (`make native`, experiments/NATIVE.md): AUTO-ALL and AUTO against
//             the best policy of each configuration on real cores (report/native.hpp)
// Ratios are geometric means over the load seeds with 95% intervals (Student's t on the log
// ratios; experiments/report/beyond.hpp).
#include <algorithm>
#include <iostream>

#include "beyond.hpp"
#include "markdown.hpp"
#include "native.hpp"
#include "summary.hpp"
#include "sweep/cli.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/results_store.hpp"
#include "sweep/text.hpp"
#include "uneven.hpp"

using namespace dlb;
using namespace dlb::report::beyond;
namespace uneven = dlb::report::uneven;
using dlb::report::format_estimate;
using dlb::report::md_column;
using dlb::report::md_header;
using dlb::report::md_right;
using dlb::report::md_row;
using dlb::report::ratio_estimate;
using dlb::report::ratio_of;
using dlb::report::spread;

namespace {

const char* kUsage =
    "usage: dlb_beyond oracle|choice|baselines|scale|uneven|cost|native --results RESULTS.csv "
    "[--results "
    "...]\n"
    "                  [--targets]   (oracle: judge the MXM target too)\n"
    "Prints one Markdown section of experiments/BEYOND.md from dlb_sweep results (verified runs\n"
    "only). Ratios: geometric mean over the load seeds [95% interval, Student's t on the logs].\n";

using sweep::format_fixed;

std::string cell(const std::optional<double>& v) { return v ? format_fixed(*v) : "-"; }

bool has(const config_runs& c, const std::string& p) { return c.time.count(p) > 0; }

// The policy of `candidates` nearest a bound (median time / bound); with a few seeds whose
// bounds differ it can differ from the best by median time.
std::optional<std::string> nearest(const config_runs& c, const std::vector<std::string>& candidates,
                                   std::optional<double> (*over)(const config_runs&,
                                                                 const std::string&)) {
  std::optional<std::string> best;
  for (const auto& p : candidates) {
    const auto r = over(c, p);
    if (r && (!best || *r < *over(c, *best))) best = p;
  }
  return best;
}

std::string named(const std::optional<std::string>& p, const std::optional<double>& r) {
  return p ? *p + " " + cell(r) : "-";
}

// One row of the oracle table; counts the MXM configurations within 10% of each bound: the
// paper's best strategy against the oracle and the communication-aware bound, and the best of
// every policy run against the latter.
struct mxm_tally {
  int configs = 0, paper_oracle = 0, paper_bound = 0, any_bound = 0;
  std::vector<std::string> misses;  // the best policy against the communication-aware bound
};

void oracle_row(const config_runs& c, const std::vector<std::string>& cols, mxm_tally& mxm) {
  const auto paper = nearest(c, paper_strategies(), median_over_oracle);
  const auto paper_b = nearest(c, paper_strategies(), median_over_bound);
  const auto any_b = nearest(c, c.policies, median_over_bound);
  std::cout << "| " << c.config << " | " << c.oracle.size() << " |";
  for (const auto& p : cols) std::cout << " " << cell(median_over_oracle(c, p)) << " |";
  const auto r = paper ? median_over_oracle(c, *paper) : std::nullopt;
  const auto rb = paper_b ? median_over_bound(c, *paper_b) : std::nullopt;
  const auto ab = any_b ? median_over_bound(c, *any_b) : std::nullopt;
  std::cout << " " << named(paper, r) << " | " << cell(bound_over_oracle(c)) << " | "
            << named(paper_b, rb) << " | " << named(any_b, ab) << " |\n";
  if (c.app != "mxm" || !r) return;
  ++mxm.configs;
  if (*r <= 1.10) ++mxm.paper_oracle;
  if (rb && *rb <= 1.10) ++mxm.paper_bound;
  if (ab && *ab <= 1.10) {
    ++mxm.any_bound;
  } else if (ab) {
    mxm.misses.push_back(c.config + ": " + *any_b + " at " + format_fixed(*ab, 3) +
                         "x the communication-aware bound (the network alone adds " +
                         cell(bound_over_oracle(c)) + "x to the oracle)");
  }
}

void oracle_section(const std::vector<config_runs>& configs, bool targets) {
  const auto cols = policies_of(configs);
  std::vector<md_column> head{{"configuration"}, md_right("seeds")};
  for (const auto& p : cols) head.push_back(md_right(p));
  head.insert(head.end(), {{"paper's best / oracle"},
                           md_right("bound / oracle"),
                           {"paper's best / bound"},
                           {"best / bound"}});
  std::cout << md_header(head);
  mxm_tally mxm;
  int runs = 0, below = 0;
  for (const auto& c : configs) {
    if (c.ml == 0 || c.oracle.empty()) continue;
    oracle_row(c, cols, mxm);
    runs += c.with_bound;
    below += c.below_bound;
  }
  std::cout << "\nMedian total time over the oracle bound (an ideal balancer with zero overhead "
               "under the same load; 1 = the bound). **paper's best / oracle**: the paper's "
               "strategy nearest the oracle; **bound / oracle**: the communication-aware bound "
               "(the oracle plus what every schedule of the program must put on the network: each "
               "slave's scatter before it computes, the last gather, every byte on the shared "
               "medium; `lib/core/comm_bound.cpp`) over the oracle, median over the seeds; "
               "**paper's best / bound**, **best / bound**: the paper's strategy, and the policy "
               "of all those run, nearest the communication-aware bound, with their median time "
               "over it. Runs faster than their communication-aware bound: "
            << below << " of " << runs << ".\n\n";
  if (!targets) return;
  std::cout << "**Target: the best policy within 10% of the bound on every MXM configuration.** "
               "Against the communication-aware bound: the best of all policies within 10% on "
            << mxm.any_bound << " of " << mxm.configs << " MXM configurations under load, the "
            << "paper's best strategy on " << mxm.paper_bound << ". Against the oracle, the "
            << "paper's best strategy: " << mxm.paper_oracle << " of " << mxm.configs << ".";
  if (!mxm.misses.empty()) {
    std::cout << " Missed on:\n\n";
    for (const auto& m : mxm.misses) std::cout << "- " << m << "\n";
  }
  std::cout << "\n";
}

// AUTO-ALL against every fixed policy (beyond.hpp, compare_auto_all), when the results have it.
void auto_all_part(const std::vector<config_runs>& configs) {
  std::vector<auto_all_row> rows;
  for (const auto& c : configs)
    if (c.ml > 0)
      if (auto r = compare_auto_all(c)) rows.push_back(std::move(*r));
  if (rows.empty()) return;
  std::cout << "### AUTO-ALL against every fixed policy: the regret table\n\n"
            << md_header({{"configuration"},
                          {"best policy"},
                          md_right("AUTO-ALL / best"),
                          md_right("regret"),
                          {"AUTO-ALL committed to (seed: policy)"}});
  for (const auto& r : rows) {
    std::string chose;
    for (const auto& [seed, x] : r.committed)
      chose += (chose.empty() ? "" : ", ") + seed + ": " + x;
    const double pct = r.vs_best ? 100 * (r.vs_best->geo_mean - 1) : 0;
    const std::string regret = r.vs_best ? (pct >= 0 ? "+" : "") + format_fixed(pct, 1) + "%" : "-";
    std::cout << md_row({r.config, r.best.empty() ? "-" : r.best, format_estimate(r.vs_best),
                         regret, chose.empty() ? "-" : chose});
  }
  const auto s = summarize_auto_all(rows);
  auto share = [&s](std::size_t n) {
    return std::to_string(n) + " of " + std::to_string(s.configs) + " (" +
           std::to_string(s.configs > 0 ? 100 * n / s.configs : 0) + "%)";
  };
  std::cout << "\nThe best policy is the fastest by median of every policy measured in the "
               "configuration but NONE and AUTO-ALL (the paper's four, ADAPTIVE, the "
               "self-scheduling rules, AUTO); the regret is AUTO-ALL's geometric-mean time over "
               "it, paired by load seed; [scatter]: committed before the scatter (a chunk rule "
               "from the loop's start), otherwise at the first synchronization.\n\n"
            << "**The regret's distribution** (configurations under load where AUTO-ALL is at "
               "most 1%, 3%, 5% slower than the best policy): within 1%: "
            << share(s.within_pct[0]) << "; within 3%: " << share(s.within_pct[1])
            << "; within 5%: " << share(s.within_pct[2]) << ".\n\n"
            << "**Target: AUTO-ALL within 3% of the best policy in >= 90% of configurations "
               "(33 of 36) and within 5% in all: "
            << (s.met() && s.within_pct[2] == s.configs ? "met" : "missed") << ".** Within 3% in "
            << share(s.within) << ", within 5% in " << share(s.within_pct[2])
            << ".\n\n**Target: AUTO-ALL faster than every fixed policy on average** "
               "(geometric mean over configurations of AUTO-ALL / policy [95% interval over "
               "configurations]; < 1: AUTO-ALL faster; surely: the whole interval below 1):\n\n"
            << md_header({{"policy"},
                          md_right("configurations"),
                          md_right("AUTO-ALL / policy"),
                          {"below 1"}});
  for (const auto& p : policies_of(configs)) {
    const auto it = s.vs.find(p);
    if (it == s.vs.end()) continue;
    const auto& e = it->second;
    std::cout << md_row({p, std::to_string(e.n), format_estimate(e),
                         e.high < 1.0       ? "surely"
                         : e.geo_mean < 1.0 ? "not surely"
                                            : "no"});
  }
  std::cout << "\nWhat AUTO-ALL committed to (runs; TRFD: each loop):";
  for (const auto& [p, n] : s.commitments) std::cout << " " << p << " " << n << ";";
  std::cout << "\n\n";
}

// What the choice section counts over the configurations under load.
struct choice_tally {
  int n = 0, within = 0;
  std::vector<std::string> auto_misses;
  std::vector<double> adaptive_vs_auto;
  std::vector<std::string> worse, better;
};

// One configuration's row of the choice table (nothing for one without load, a best fixed
// strategy or AUTO), counted into `t`.
void choice_row(const config_runs& c, bool adaptive, choice_tally& t) {
  if (c.ml == 0) return;
  const auto best = best_of(c, paper_strategies());
  if (!best || !has(c, "AUTO")) return;
  const auto auto_best = paired_ratio(c, "AUTO", *best);
  std::cout << "| " << c.config << " | " << *best << " | " << format_estimate(auto_best) << " |";
  if (auto_best) {
    ++t.n;
    if (auto_best->geo_mean <= 1.03) {
      ++t.within;
    } else {
      // Why: what AUTO committed to, seed by seed, against the best fixed strategy.
      std::string chose;
      if (const auto it = c.chose.find("AUTO"); it != c.chose.end())
        for (const auto& [seed, x] : it->second) chose += (chose.empty() ? "" : ", ") + x;
      t.auto_misses.push_back(c.config + ": AUTO / " + *best + " " +
                              format_fixed(auto_best->geo_mean) + "; AUTO committed to " +
                              (chose.empty() ? "-" : chose) + " (seed by seed)");
    }
  }
  if (adaptive) {
    const auto a_best = paired_ratio(c, "ADAPTIVE", *best);
    const auto a_auto = paired_ratio(c, "ADAPTIVE", "AUTO");
    std::cout << " " << format_estimate(a_best) << " | " << format_estimate(a_auto) << " |";
    if (a_auto) {
      t.adaptive_vs_auto.push_back(a_auto->geo_mean);
      if (a_auto->n >= 2 && a_auto->low > 1.0) {
        std::string seq;
        if (const auto it = c.chose.find("ADAPTIVE"); it != c.chose.end() && !it->second.empty())
          seq = "; ADAPTIVE's choices on seed " + it->second.begin()->first + ": " +
                it->second.begin()->second;
        t.worse.push_back(c.config + ": " + format_estimate(a_auto) + seq);
      }
      if (a_auto->n >= 2 && a_auto->high < 1.0) t.better.push_back(c.config);
    }
  }
  std::cout << "\n";
}

// The choice section's two targets, from its tally.
void choice_targets(const choice_tally& t, bool adaptive) {
  std::cout << "\nRatios of total times paired by load seed (< 1: the first is faster). The best "
               "fixed strategy is the fastest of the four by median.\n\n";
  std::cout << "**Target: the customized choice within 3% of the best fixed strategy in >= 90% "
               "of configurations.** AUTO's geometric-mean ratio is <= 1.03 in "
            << t.within << " of " << t.n << " configurations under load ("
            << (t.n ? format_fixed(100.0 * t.within / t.n, 0) : "-") << "%).";
  if (!t.auto_misses.empty()) {
    std::cout << " Missed on:\n\n";
    for (const auto& m : t.auto_misses) std::cout << "- " << m << "\n";
  }
  std::cout << "\n\n";
  if (!adaptive) return;
  const auto overall = ratio_of(t.adaptive_vs_auto);
  std::cout << "**Target: ADAPTIVE at least as good as the customized choice on average.** "
               "ADAPTIVE / AUTO over the "
            << t.adaptive_vs_auto.size()
            << " configurations (geometric mean of the per-configuration ratios [95% interval "
               "over configurations]): "
            << format_estimate(overall) << ". ADAPTIVE is surely slower (interval above 1) in "
            << t.worse.size() << " and surely faster in " << t.better.size() << ".";
  if (!t.worse.empty()) {
    std::cout << " Slower in:\n\n";
    for (const auto& w : t.worse) std::cout << "- " << w << "\n";
  }
  std::cout << "\n";
}

void choice_section(const std::vector<config_runs>& configs) {
  const bool adaptive = std::any_of(configs.begin(), configs.end(),
                                    [](const config_runs& c) { return has(c, "ADAPTIVE"); });
  std::vector<md_column> head{{"configuration"}, {"best fixed"}, md_right("AUTO / best")};
  if (adaptive) head.insert(head.end(), {md_right("ADAPTIVE / best"), md_right("ADAPTIVE / AUTO")});
  std::cout << md_header(head);
  choice_tally t;
  for (const auto& c : configs) choice_row(c, adaptive, t);
  choice_targets(t, adaptive);
  auto_all_part(configs);
}

void baselines_section(const std::vector<config_runs>& configs) {
  std::cout << md_header({{"configuration"},
                          {"paper's best"},
                          {"best self-scheduling"},
                          md_right("paper / self-scheduling"),
                          {"faster"}});
  int n = 0, paper_wins = 0, ss_wins = 0;
  for (const auto& c : configs) {
    std::vector<std::string> ss;
    for (const auto& p : c.policies)
      if (is_self_scheduling(p)) ss.push_back(p);
    const auto a = best_of(c, paper_strategies());
    const auto b = best_of(c, ss);
    if (!a || !b) continue;
    const auto r = paired_ratio(c, *a, *b);
    std::string verdict = "-";
    if (r) {
      ++n;
      if (r->n >= 2 && r->high < 1.0) {
        verdict = "paper's (surely)", ++paper_wins;
      } else if (r->n >= 2 && r->low > 1.0) {
        verdict = "self-scheduling (surely)", ++ss_wins;
      } else {
        verdict = r->geo_mean < 1.0 ? "paper's (not sure)" : "self-scheduling (not sure)";
      }
    }
    std::cout << "| " << c.config << " | " << *a << " " << cell(median_time(c, *a)) << " s | " << *b
              << " " << cell(median_time(c, *b)) << " s | " << format_estimate(r) << " | "
              << verdict << " |\n";
  }
  std::cout << "\nBest of each family by median; the ratio paired by load seed (< 1: the paper's "
               "strategy is faster). Of "
            << n << " configurations, the paper's best is surely faster in " << paper_wins
            << ", the best self-scheduling baseline surely faster in " << ss_wins
            << ", the rest within the seeds' noise.\n";
}

// A policy's cell of the scale table: its time over the oracle, "> N s" where the sweep
// stopped it at its time bound, "not run" where it was stopped at a smaller P, else "-".
std::string scale_cell(const std::vector<config_runs>& configs,
                       const std::map<std::string, std::string>& labels, const config_runs& c,
                       const std::string& p) {
  if (const auto r = median_over_oracle(c, p)) return format_fixed(*r);
  if (const auto it = c.timed_out.find(p); it != c.timed_out.end())
    return "> " + format_fixed(it->second, 0) + " s";
  if (const auto it = c.failed.find(p); it != c.failed.end()) return it->second;
  if (skipped_after_timeout(configs, labels, c, p)) return "not run";
  return "-";
}

// What the scale tables' cells other than times mean, where the results have such cells.
void unfinished_legend(const std::vector<config_runs>& configs) {
  bool stopped = false;
  for (const auto& c : configs) stopped = stopped || !c.timed_out.empty() || !c.failed.empty();
  if (stopped) {
    std::cout
        << "\n`> N s`: the run did not finish within the sweep's time bound (stopped after "
           "N s of wall time, no result); `not run`: that policy was stopped at a smaller "
           "P of the same workload, and the sweep did not run it at this P "
           "(`dlb_sweep --skip-after-timeout`); `failed`, `unverified`: the run ended without a "
           "verified result (its log is in the results folder); `-`: no run recorded (not "
           "in the configuration, or not run yet: the sweep resumes where it stopped).\n";
  }
}

void simulation_cost_section(const std::vector<config_runs>& configs);

void scale_section(const std::vector<config_runs>& configs) {
  const auto labels = workload_labels(configs);
  for (const auto& w : workloads_in_order(configs, labels)) {
    std::vector<config_runs> rows;
    for (const auto& c : configs)
      if (labels.at(c.config) == w) rows.push_back(c);
    std::sort(rows.begin(), rows.end(),
              [](const config_runs& a, const config_runs& b) { return a.procs < b.procs; });
    const auto policies = policies_of(rows);
    std::vector<md_column> head{md_right("P")};
    for (const auto& p : policies) head.push_back(md_right(p));
    head.push_back(md_right("best"));
    std::cout << "\n**" << w << "**: time / oracle\n\n" << md_header(head);
    for (const auto& c : rows) {
      std::cout << "| " << c.procs << " |";
      std::optional<std::string> best;
      double best_r = 0;
      for (const auto& p : policies) {
        const auto r = median_over_oracle(c, p);
        std::cout << " " << scale_cell(configs, labels, c, p) << " |";
        if (r && (!best || *r < best_r)) best = p, best_r = *r;
      }
      std::cout << " " << (best ? *best : "-") << " |\n";
    }
  }
  unfinished_legend(configs);
  simulation_cost_section(configs);
}

// The simulation's own cost per P, and its targets.
void simulation_cost_section(const std::vector<config_runs>& configs) {
  std::cout << "\n**The simulation itself** (wall seconds of one run as the driver measured it, "
               "two runs at a time on the machine; peak resident memory of the simulation "
               "process)\n\n"
            << md_header({md_right("P"),
                          md_right("runs"),
                          md_right("median wall (s)"),
                          md_right("slowest run (s)"),
                          {"slowest"},
                          md_right("largest peak memory (MB)")});
  for (const auto& cost : simulation_costs(configs)) {
    std::cout << md_row({std::to_string(cost.procs), std::to_string(cost.runs),
                         format_fixed(cost.median_wall, 2), format_fixed(cost.slowest_wall, 2),
                         cost.slowest, format_fixed(cost.peak_rss_mb, 0)});
  }
  std::cout << "\n**Targets: GCDLB, LCDLB and LDDLB at P = 4096 and GDDLB at P = 1024, 20 "
               "iterations per slave, each run within 60 s of wall time and 4 GB** (every "
               "synthetic workload above; the wall times as the driver measured them, two runs "
               "at a time):\n\n"
            << md_header({{"policy"},
                          md_right("P"),
                          md_right("workloads run"),
                          md_right("within both"),
                          md_right("slowest (s)"),
                          md_right("largest peak (MB)"),
                          {"target"}});
  for (const auto& [policy, P] : std::vector<std::pair<std::string, int>>{
           {"GCDLB", 4096}, {"LCDLB", 4096}, {"LDDLB", 4096}, {"GDDLB", 1024}}) {
    const auto r = judge(configs, {policy, P});
    std::cout << "| " << policy << " | " << P << " | " << r.workloads << " of "
              << r.workloads + r.missing << " | " << r.within << " | "
              << (r.workloads ? format_fixed(r.worst_wall, 1) : "-") << " | "
              << (r.workloads ? format_fixed(r.worst_rss, 0) : "-") << " | "
              << (r.met()       ? "met"
                  : r.workloads ? "missed"
                                : "not run")
              << " |\n";
  }
}

std::string range(const std::optional<spread>& s) {
  if (!s) return "-";
  return format_fixed(s->median) + " (" + format_fixed(s->min) + "-" + format_fixed(s->max) + ")";
}

std::string number_or_dash(const std::optional<double>& v) {
  return v ? sweep::format_sig(*v, 6) : "-";
}

// The policies of the uneven study in the driver's order, NONE first.
std::vector<std::string> uneven_policies(const uneven::cells& c) {
  std::vector<std::string> p = c.policies();
  std::stable_sort(p.begin(), p.end(), [](const std::string& a, const std::string& b) {
    return report::strategy_rank(a) < report::strategy_rank(b);
  });
  return p;
}

void uneven_units_table(const uneven::cells& c) {
  std::cout << "## Block start: work against iterations\n\n"
               "Synchronizations without external load (ml = 0; median over the seeds: work | "
               "iterations); with load (ml = 5), each strategy's time under *work* over its time "
               "under *iterations* (same seed; median, min-max over seeds); AUTO's predicted total "
               "over its measured one (ml = 5).\n\n"
            << md_header({{"shape"},
                          {"strategy"},
                          {"syncs ml=0, work \\| iterations"},
                          {"time ml=5, work / iterations"},
                          {"AUTO predicted / measured, work \\| iterations"}});
  for (const auto& shape : c.shapes()) {
    for (const auto& p : uneven_policies(c)) {
      const auto row = uneven::compare_units(c, shape, p);
      std::cout << "| " << shape << " | " << p << " | " << number_or_dash(row.syncs_work) << " \\| "
                << number_or_dash(row.syncs_iterations) << " | "
                << range(row.time_work_over_iterations) << " | ";
      if (p == "AUTO")
        std::cout << range(row.predicted_over_measured_work) << " \\| "
                  << range(row.predicted_over_measured_iterations);
      std::cout << " |\n";
    }
  }
}

// Time over NONE's under `base_start` for each start, shape, load and policy, balancing by unit.
void uneven_starts_table(const uneven::cells& c, const std::string& unit,
                         const std::vector<std::string>& starts, const std::string& base_start) {
  auto policies = uneven_policies(c);
  if (starts.size() == 1) std::erase(policies, std::string("NONE"));
  std::vector<md_column> head{{"shape"}, {"ml"}};
  if (starts.size() > 1) head.push_back({"start"});
  for (const auto& p : policies) head.push_back({p});
  std::cout << md_header(head);
  for (const auto& shape : c.shapes()) {
    for (int ml : {0, 5}) {
      for (const auto& start : starts) {
        std::cout << "| " << shape << " | " << ml << " |";
        if (starts.size() > 1) std::cout << " " << start << " |";
        for (const auto& p : policies)
          std::cout << " " << range(uneven::over_none(c, shape, ml, start, unit, p, base_start))
                    << " |";
        std::cout << "\n";
      }
    }
  }
}

void uneven_section(const std::vector<uneven::run>& runs, std::size_t rows) {
  const uneven::cells c(runs);
  std::cout << "# Loops whose iterations cost different amounts\n\n"
               "The synthetic loop on the simulated backend, P = 4 (K = 2), 400 iterations of "
               "50 ms mean, without load (ml = 0) and under ml = 5 with the tl of "
               "experiments/configs/uneven.conf; "
            << rows << " runs, " << rows - runs.size()
            << " not verified. Shapes: *linear* (iteration i costs 2 w (i+1)/(I+1)) and *heavy* "
               "(a seeded heavy tail: Pareto 1.1 capped at 50x the cheapest). *work*: speeds in "
               "work per second, moves sized in work, blocks of equal work (the default); "
               "*iterations*: speeds in iterations per second, equal blocks of iterations (the "
               "earlier rule).\n\n";
  uneven_units_table(c);
  std::cout << "\n## Block or cyclic start\n\nTime over NONE's on a block start (same seed; "
               "median, min-max over seeds), balancing in work.\n\n";
  uneven_starts_table(c, "work", {"block", "cyclic"}, "block");
  std::cout << "\n## Cyclic start under the earlier rule\n\nThe same with --balance-by "
               "iterations, for comparison (time over cyclic NONE).\n\n";
  uneven_starts_table(c, "iterations", {"cyclic"}, "cyclic");
}

// The runs' own wall seconds (run_wall_s, as the driver measured them), summed: what a part
// costs from scratch, whichever session ran it.
void cost_line(const std::vector<run>& runs) {
  double wall = 0;
  for (const auto& r : runs) wall += r.wall;
  std::cout << runs.size() << " runs; their wall times add up to " << format_fixed(wall, 0)
            << " s\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]).rfind("--", 0) == 0) {
    if (argc >= 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
      std::cout << kUsage;
      return 0;
    }
    std::cerr
        << "dlb_beyond: name a section (oracle, choice, baselines, scale, uneven, cost or native)\n"
        << kUsage;
    return 2;
  }
  const std::string section = argv[1];
  if (section != "oracle" && section != "choice" && section != "baselines" && section != "scale" &&
      section != "uneven" && section != "cost" && section != "native") {
    std::cerr << "dlb_beyond: unknown section '" << section
              << "' (oracle, choice, baselines, scale, uneven, cost or native)\n"
              << kUsage;
    return 2;
  }
  sweep::cli_args args(argc - 1, argv + 1, "dlb_beyond", kUsage, {"results"}, {"targets"});
  const auto files = args.values("results");
  if (files.empty()) args.usage_error("--results is required");
  std::vector<run> runs, unfinished;
  std::vector<uneven::run> uneven_runs;
  std::size_t rows = 0;
  try {
    for (const auto& f : files) {
      const auto table = sweep::read_results_table(f);
      if (section == "uneven") {
        auto more = uneven::verified_runs(table);
        uneven_runs.insert(uneven_runs.end(), more.begin(), more.end());
        rows += table.rows.size();
      } else {
        auto more = verified_runs(table);
        runs.insert(runs.end(), more.begin(), more.end());
        auto more_unfinished = unfinished_runs(table);
        unfinished.insert(unfinished.end(), more_unfinished.begin(), more_unfinished.end());
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "dlb_beyond: " << e.what() << "\n";
    return 2;
  }
  if (section == "uneven") {
    // The page is printed all the same; the exit status says whether every run counted.
    uneven_section(uneven_runs, rows);
    return uneven_runs.size() == rows ? 0 : 1;
  }
  auto configs = by_config(runs);
  if (section == "scale") add_unfinished(configs, unfinished);
  if (section == "oracle") oracle_section(configs, args.flag("targets"));
  if (section == "choice") choice_section(configs);
  if (section == "baselines") baselines_section(configs);
  if (section == "scale") scale_section(configs);
  if (section == "cost") cost_line(runs);
  if (section == "native") report::native::write_markdown(std::cout, configs, 2000);
  return 0;
}
