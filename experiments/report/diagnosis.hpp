// Each of the paper's claims diagnosed from the runs (issue 46), and the rows of Table 1.4 where
// our best differs from the paper's.
//
// A claim (claims.hpp) is a pattern checked in configurations; each check here has a margin in
// normalized time (time / no-DLB time of the same load seed, medians over seeds as claims.hpp
// ranks them): the worse side's value minus the better side's, so that a positive margin is the
// paper's pattern and a margin <= 0 breaks it. The seeds' spread comes from a paired bootstrap
// (the seeds drawn with replacement, a drawn seed bringing every run of every strategy and
// configuration, as study/aggregate.hpp does): each check's margin gets a 95 % percentile
// interval, and each reading of a claim its support (the share of replicates in which it holds).
//
// A claim is then *reproduced* (its reading holds at the medians), *refuted* (it fails and holds
// in at most 2.5 % of the replicates: outside the seeds' spread) or *not resolved* (it fails at
// the medians but holds in more than 2.5 % of the replicates). The reading is the tendency one
// where the paper's sentence allows it (claims.hpp), else the strict one. Each breaking check
// names its mechanism from the two sides' runs (mechanism_of): inside the spread; the better
// side's synchronizations (the cost structure); its data movement; or the balance it left, its
// time over the oracle bound (the time line).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/claims.hpp"
#include "report/paper.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::report {

// What the runs say about one side of a check (a strategy's summary row).
struct side_stats {
  std::string name;        // strategy, "" when the side is not one strategy's row
  double syncs = 0;        // syncs_median
  double mb_moved = 0;     // bytes_moved_median / 1e6
  double over_oracle = 0;  // over_oracle_median: time / oracle bound (0: unknown)
};

// One check of one claim in one configuration (or pair of configurations).
struct claim_check {
  std::string claim;         // "M2"
  std::string where;         // "mxm P=4 n=400 r=400 m=400" (+ " L1" / " L2")
  std::string what;          // "LDDLB before LCDLB"
  double margin = 0;         // worse side - better side, normalized time: > 0 the paper's pattern
  side_stats better, worse;  // the side the claim puts first, and the other
  std::string key() const { return claim + "|" + where + "|" + what; }
};
// Every claim's checks over the configurations (claims.hpp's predicates, as margins).
std::vector<claim_check> claim_checks(const std::vector<config_view>& configs);

struct interval {
  double lo = 0, hi = 0;
};
// The central `level` percentile interval of `values` (linear interpolation); {0, 0} if empty.
interval percentile_interval(std::vector<double> values, double level);

// A check that breaks its claim at the medians, with its interval and mechanism.
struct breaking_check {
  claim_check check;
  interval ci;
  std::string mechanism;  // the name (mechanism_names())
  std::string detail;     // the numbers behind it
};
// The mechanism of a breaking check: the pure rule documented at the top of this file.
breaking_check diagnose_check(const claim_check& c, const interval& ci);
const std::vector<std::string>& mechanism_names();

enum class claim_class { reproduced, refuted, not_resolved, not_measured };
std::string to_string(claim_class c);
// `holds`: the reading's verdict at the medians (nullopt: not measured); `support`: the share of
// bootstrap replicates in which it holds.
claim_class classify(std::optional<bool> holds, double support);

struct claim_diagnosis {
  claim_result point;           // claims.hpp's verdicts at the medians
  double strict_support = 0;    // share of replicates: strict reading holds
  double tendency_support = 0;  // the same, tendency reading (strict where none)
  claim_class outcome = claim_class::not_measured;
  std::size_t checks = 0;  // its checks at the medians
  std::vector<breaking_check> breaking;
  std::string mechanism;  // the claim's: the most frequent outside the spread, or the spread
};

// One row of Table 1.4 where our best is not the paper's actual best.
struct row_gap {
  std::string label;       // "MXM P=4 n=400 r=400 m=400" (+ " L1")
  std::string paper_best;  // the paper's actual best
  std::string ours;        // our best at the medians
  double gap = 0;          // paper's best - ours, normalized time (>= 0)
  interval ci;             // its 95 % bootstrap interval
  double paper_wins = 0;   // share of replicates in which the paper's scheme beats ours
  bool outside_spread() const { return ci.lo > 0; }
};

struct diagnosis {
  int replicates = 0;
  std::vector<claim_diagnosis> claims;
  std::size_t table_rows = 0, table_same = 0;  // Table 1.4 rows measured, ours = paper's
  std::vector<row_gap> rows;
};

// Seeds of some results tables in order of first appearance.
std::vector<std::string> seeds_of(const std::vector<sweep::csv_table>& results);
// A table with the runs of the drawn seeds, the seed in slot i relabelled as its slot (rep i,
// seed 1000000 + i) so that a seed drawn twice counts twice. A table without seed and rep
// columns is returned as is.
sweep::csv_table resample_seeds(const sweep::csv_table& table,
                                const std::vector<std::string>& drawn);

// The diagnosis from raw results (deterministic in `seed`).
diagnosis diagnose(const std::vector<sweep::csv_table>& results,
                   const std::vector<paper_best_row>& paper_best, int replicates,
                   std::uint64_t seed);

// Markdown: the per-claim table, each claim's breaking checks, Table 1.4's differing rows.
std::string render_diagnosis(const diagnosis& d);
// One line per claim ("M2 reproduced: ..."), for a terminal.
std::string verdict_lines(const diagnosis& d);

}  // namespace dlb::report
