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
// A claim is then judged by one symmetric rule on its reading (the tendency one where the
// paper's sentence allows it, claims.hpp, else the strict one) and its support (the share of
// replicates in which the reading holds): *no difference* when every check of an ordering claim
// is within kNoDifference (1 % of the normalized time) at the medians, whichever side wins;
// else *reproduced* when the support is at least kDecided (0.95), *refuted* when it is at most
// 1 - kDecided (0.05), *not resolved* otherwise (classify). The medians' verdict alone decides
// nothing. Its stability: the same rule on K random splits of the seeds into two disjoint halves
// (diagnose's `halves`); a decided verdict one half of which says the opposite one (reproduced
// against refuted) is reported as not resolved. Each breaking check names its mechanism from the
// two sides' runs (mechanism_of): inside the spread; the better side's synchronizations (the
// cost structure); its data movement; or the balance it left, its time over the oracle bound
// (the time line).
//
// Table 1.4 within noise: per row, our best, the model's choice (given the load seen so far) and
// the paper's actual and predicted best; two schemes of a row are the same within noise when
// they are one, or their gap in our runs is within kNoDifference or its 95 % interval holds 0.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/claims.hpp"
#include "report/paper.hpp"
#include "report/runs.hpp"
#include "report/stats.hpp"
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

// The rule's constants: decided at this share of replicates (either side), and the effect below
// which an ordering claim is "no difference" (normalized time).
inline constexpr double kDecided = 0.95;
inline constexpr double kNoDifference = 0.01;

enum class claim_class { reproduced, refuted, no_difference, not_resolved, not_measured };
std::string to_string(claim_class c);
// `support`: the share of bootstrap replicates in which the reading holds (nullopt: not
// measured); `effect`: the largest |margin| of an ordering claim's checks at the medians
// (nullopt: a claim that is no ordering, O1, O1s, O2, or without checks).
claim_class classify(std::optional<double> support, std::optional<double> effect);
// A decided verdict that some half of the seeds contradicts (reproduced against refuted) is not
// resolved; others stay.
claim_class with_halves(claim_class full, const std::vector<claim_class>& halves);
// Two schemes of a Table 1.4 row are the same within noise: one scheme, or their gap (normalized
// time, at the medians) within kNoDifference, or its interval holding 0.
bool same_within_noise(const std::string& a, const std::string& b, double gap, interval ci);

struct claim_diagnosis {
  claim_result point;            // claims.hpp's verdicts at the medians
  double strict_support = 0;     // share of replicates: strict reading holds
  double tendency_support = 0;   // the same, tendency reading (strict where none)
  std::optional<double> effect;  // largest |margin| at the medians, ordering claims only
  claim_class full = claim_class::not_measured;     // the rule on all the seeds
  std::vector<claim_class> halves;                  // the rule on each half of each split
  claim_class outcome = claim_class::not_measured;  // full, checked against the halves
  std::size_t checks = 0;                           // its checks at the medians
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

// One row of Table 1.4 read within noise.
struct row_noise {
  std::string label;
  std::string paper_best, paper_predicted;  // the paper's columns
  std::string ours, second, model;          // our best, second best, the model's choice
  interval top_gap;                         // our second - our best, 95 % interval
  bool separable() const { return top_gap.lo > 0; }
  bool best_exact = false, best_noise = false;            // ours = the paper's best
  bool predicted_exact = false, predicted_noise = false;  // model = the paper's predicted
  bool model_exact = false, model_noise = false;          // model = ours
};

struct noise_counts {
  std::size_t rows = 0, separable = 0, best_exact = 0, best_noise = 0, predicted_exact = 0,
              predicted_noise = 0, model_exact = 0, model_noise = 0;
};
noise_counts count_noise(const std::vector<row_noise>& rows);

struct diagnosis {
  int replicates = 0;
  int seeds = 0;   // seeds in the results
  int splits = 0;  // half-splits of the seeds (0: no stability check)
  std::vector<claim_diagnosis> claims;
  std::size_t table_rows = 0, table_same = 0;  // Table 1.4 rows measured, ours = paper's
  std::vector<row_gap> rows;
  std::vector<row_noise> noise;  // every measured row of Table 1.4
};

// The diagnosis from raw results (deterministic in `seed`); `halves` random splits of the seeds
// into two disjoint halves, each half judged by the same rule with half the replicates (0: none).
diagnosis diagnose(const std::vector<sweep::csv_table>& results,
                   const std::vector<paper_best_row>& paper_best, int replicates,
                   std::uint64_t seed, int halves = 0);

// Markdown: the per-claim table, each claim's breaking checks, Table 1.4's differing rows.
std::string render_diagnosis(const diagnosis& d);
// One line per claim ("M2 reproduced: ..."), for a terminal.
std::string verdict_lines(const diagnosis& d);

}  // namespace dlb::report
