// The sensitivity study's aggregation: from the raw results of every design point to
// each claim's share of the region where it holds, with intervals from the seeds, the main
// effect of each parameter, how often each row of Table 1.4 comes out as the paper's, and the
// point that fits the paper best on MXM and TRFD (checked on AC).
//
// At one point a claim is judged as dlb_report judges it (report::evaluate_claims over the
// point's summary: medians over its seeds, paired with NONE). Its uncertainty comes from the
// seeds: a paired bootstrap resamples the point's seeds with replacement, every strategy and
// configuration of a drawn seed together (the pairing kept), and re-judges the claim; its
// `support` is the share of replicates in which it holds. A claim holds *surely* at a point when
// support >= 0.975 and fails surely when support <= 0.025. Over the region (the space-filling
// points), a claim's share is the fraction of points where it holds, and its interval runs from
// the share where it holds surely to the share where it does not fail surely.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "report/claims.hpp"
#include "report/paper.hpp"
#include "study/design.hpp"
#include "sweep/csv_table.hpp"

namespace dlb::study {

// One claim at one point.
struct claim_at_point {
  report::verdict outcome = report::verdict::not_measured;  // medians over every seed (strict)
  // The tendency reading at the point estimate (report::claim_result::tendency_or_strict; no
  // bootstrap support of its own).
  report::verdict tendency = report::verdict::not_measured;
  std::optional<double> support;  // share of bootstrap replicates in which it holds
  std::string tally;              // dlb_report's tally at the point estimate
};

// One row of Table 1.4 at one point: our best (by median normalized time of that loop) and
// whether it is the paper's actual best.
struct row_at_point {
  std::string key;  // "MXM P=4 n=400 r=400" (+ " L1"/" L2")
  std::string app;  // mxm, trfd, ac
  std::string paper_best;
  std::string ours;  // "" when not measured
  bool matches() const { return !ours.empty() && ours == paper_best; }
};

struct point_result {
  std::string point;                             // id
  std::map<std::string, claim_at_point> claims;  // by claim id
  std::vector<row_at_point> rows;                // Table 1.4, in the paper's order
  std::size_t runs = 0;                          // result rows of the point (any status)
  std::size_t runs_ok = 0;
  double run_wall_s = 0;  // the runs' wall seconds (run_wall_s), summed
};

// Judges one point from its raw result rows (all with the same columns as `table`): the claims
// at the point estimate, Table 1.4's rows, and, with `replicates` > 0, the bootstrap support of
// each claim (deterministic in `seed`).
point_result judge_point(const std::string& id, const sweep::csv_table& table,
                         const std::vector<report::paper_best_row>& paper_best, int replicates,
                         std::uint64_t seed);

// The share of the region in which a claim holds, with the interval from the seeds.
struct region_share {
  std::size_t measured = 0;  // points where the claim could be judged
  std::size_t holds = 0;
  double share = 0;  // holds / measured
  double low = 0;    // share where it holds surely (support >= 0.975)
  double high = 0;   // share where it does not fail surely (support > 0.025)
};
// `points` are the claim's verdicts over the region's points (not the defaults point). A point
// without support counts as sure of its verdict.
region_share share_of_region(const std::vector<claim_at_point>& points);

// The main effect of one parameter on one claim: the share of points holding at each level.
struct level_share {
  std::string level;
  std::size_t measured = 0;
  std::size_t holds = 0;
  double share() const { return measured ? static_cast<double>(holds) / measured : 0.0; }
};
struct main_effect {
  std::string parameter;
  std::vector<level_share> levels;  // in the design's level order
  // max - min of the levels' shares (levels measured at least once); 0 with fewer than two.
  double range = 0;
};
// `levels[i]`: point i's level of every parameter; `holds[i]`: the claim's verdict at point i
// (nullopt: not measured there). `parameters`: which parameters and levels, in order.
std::vector<main_effect> main_effects(const std::vector<std::map<std::string, std::string>>& levels,
                                      const std::vector<std::optional<bool>>& holds,
                                      const std::vector<parameter_levels>& parameters);

// The paper's fit of a point on the applications it is fitted to: Table 1.4 rows whose actual
// best is ours, and claims that hold, counted over the claims and rows of `apps`.
struct fit {
  std::size_t rows = 0, rows_matched = 0;
  std::size_t claims = 0, claims_hold = 0;
  std::size_t score() const { return rows_matched + claims_hold; }
};
fit fit_on(const point_result& p, const std::vector<std::string>& apps);
// The claim ids that belong to an app (M* mxm, T* trfd, A* ac).
std::string app_of_claim(const std::string& id);

// The point that fits MXM and TRFD best (highest score; the earliest in `points` on ties), or
// nullopt for no points.
std::optional<std::size_t> calibrated_point(const std::vector<point_result>& points);

// Rows of a results table that belong to a point, matched by (tl, extra_args): a tl among the
// point's (point_tls) and the point's args, as the sweep ran them.
sweep::csv_table rows_of_point(const sweep::csv_table& results, const std::vector<std::string>& tls,
                               const std::string& args);

}  // namespace dlb::study
