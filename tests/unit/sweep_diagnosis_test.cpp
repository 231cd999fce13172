// Unit tests of the claims' diagnosis (experiments/report/diagnosis.cpp): the interval, the
// classification, the mechanism rule, the seeds' resampling, and the checks' margins against
// the claims' own verdicts.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "report/diagnosis.hpp"

using namespace dlb::report;

namespace {

TEST(Diagnosis, PercentileInterval) {
  struct row {
    std::vector<double> values;
    double level, lo, hi;
  };
  const std::vector<row> table{
      {{}, 0.95, 0, 0},
      {{3}, 0.95, 3, 3},
      {{0, 1, 2, 3, 4}, 1.0, 0, 4},
      {{4, 3, 2, 1, 0}, 0.5, 1, 3},  // unsorted input; quartiles of 0..4
      {{0, 10}, 0.9, 0.5, 9.5},      // linear interpolation
      {{-1, -1, -1, 2}, 0.5, -1, -0.25},
  };
  for (const auto& r : table) {
    const auto i = percentile_interval(r.values, r.level);
    EXPECT_DOUBLE_EQ(i.lo, r.lo) << r.values.size() << " values, level " << r.level;
    EXPECT_DOUBLE_EQ(i.hi, r.hi) << r.values.size() << " values, level " << r.level;
  }
}

// The symmetric rule: a claim's support (share of replicates in which its reading holds) and
// effect (an ordering claim's largest |margin| at the medians) -> its verdict.
TEST(Diagnosis, ClassifySymmetric) {
  using c = claim_class;
  struct row {
    std::optional<double> support, effect;
    claim_class expected;
  };
  const std::optional<double> none;
  const std::vector<row> table{
      {none, 0.5, c::not_measured},
      {1.0, none, c::reproduced},  // O1, O1s, O2: no effect size
      {0.95, 0.05, c::reproduced},
      {0.949, 0.05, c::not_resolved},  // what the medians say decides nothing
      {0.5, 0.05, c::not_resolved},
      {0.051, 0.05, c::not_resolved},
      {0.05, 0.05, c::refuted},  // the same confidence on both sides
      {0.0, none, c::refuted},
      {1.0, 0.01, c::no_difference},  // within 1% of the normalized time: for neither side
      {0.0, 0.004, c::no_difference},
      {0.5, 0.0, c::no_difference},
      {0.5, 0.0101, c::not_resolved},
  };
  for (const auto& r : table) {
    EXPECT_EQ(to_string(classify(r.support, r.effect)), to_string(r.expected))
        << "support " << r.support.value_or(-1) << ", effect " << r.effect.value_or(-1);
  }
}

// The halves of the seeds: only a half saying the opposite decided verdict unsettles one.
TEST(Diagnosis, WithHalves) {
  using c = claim_class;
  struct row {
    claim_class full;
    std::vector<claim_class> halves;
    claim_class expected;
  };
  const std::vector<row> table{
      {c::reproduced, {}, c::reproduced},
      {c::reproduced, {c::reproduced, c::not_resolved}, c::reproduced},  // less power, no flip
      {c::reproduced, {c::reproduced, c::refuted}, c::not_resolved},
      {c::refuted, {c::not_resolved, c::reproduced}, c::not_resolved},
      {c::refuted, {c::refuted, c::no_difference}, c::refuted},
      {c::no_difference, {c::reproduced, c::refuted}, c::no_difference},
      {c::not_resolved, {c::reproduced, c::reproduced}, c::not_resolved},
  };
  for (const auto& r : table) {
    EXPECT_EQ(to_string(with_halves(r.full, r.halves)), to_string(r.expected))
        << to_string(r.full) << " with " << r.halves.size() << " halves";
  }
}

// Table 1.4 within noise: two schemes of a row, their gap at the medians and its interval.
TEST(Diagnosis, SameWithinNoise) {
  struct row {
    std::string a, b;
    double gap;
    interval ci;
    bool expected;
  };
  const std::vector<row> table{
      {"GDDLB", "GDDLB", 0.5, {0.4, 0.6}, true},       // one scheme
      {"GDDLB", "GCDLB", 0.008, {0.005, 0.02}, true},  // within 1%
      {"GDDLB", "GCDLB", -0.01, {-0.02, -0.005}, true},
      {"GDDLB", "GCDLB", 0.03, {-0.001, 0.06}, true},  // its interval holds 0
      {"GDDLB", "GCDLB", 0.03, {0.0, 0.06}, true},
      {"GDDLB", "GCDLB", 0.03, {0.001, 0.06}, false},  // separable
      {"LDDLB", "GCDLB", -0.05, {-0.08, -0.02}, false},
  };
  for (const auto& r : table) {
    EXPECT_EQ(same_within_noise(r.a, r.b, r.gap, r.ci), r.expected)
        << r.a << " " << r.b << " gap " << r.gap;
  }
}

TEST(Diagnosis, CountNoise) {
  row_noise a, b;
  a.top_gap = {0.01, 0.02};  // separable
  a.best_exact = a.best_noise = a.model_noise = true;
  b.top_gap = {-0.01, 0.02};
  b.best_noise = b.predicted_exact = b.predicted_noise = true;
  const auto n = count_noise({a, b});
  EXPECT_EQ(n.rows, 2u);
  EXPECT_EQ(n.separable, 1u);
  EXPECT_EQ(n.best_exact, 1u);
  EXPECT_EQ(n.best_noise, 2u);
  EXPECT_EQ(n.predicted_exact, 1u);
  EXPECT_EQ(n.predicted_noise, 1u);
  EXPECT_EQ(n.model_exact, 0u);
  EXPECT_EQ(n.model_noise, 1u);
}

TEST(Diagnosis, MechanismRule) {
  struct row {
    side_stats better, worse;
    interval ci;
    std::size_t name;  // index in mechanism_names()
  };
  const std::vector<row> table{
      // An interval reaching above 0: inside the spread, whatever the runs say.
      {{"GCDLB", 10, 5, 1.2}, {"LCDLB", 2, 0, 1.1}, {-0.1, 0.01}, 0},
      // More synchronizations (by 2 and by half): the cost structure.
      {{"GCDLB", 6, 0, 1.2}, {"LCDLB", 4, 0, 1.1}, {-0.1, -0.01}, 1},
      {{"GCDLB", 5, 0, 1.2}, {"LCDLB", 4, 0, 1.1}, {-0.1, -0.01}, 3},  // one more is not enough
      // More data moved: data movement.
      {{"GDDLB", 3, 2.0, 1.2}, {"LDDLB", 3, 1.0, 1.1}, {-0.1, -0.01}, 2},
      {{"GDDLB", 3, 0.05, 1.2}, {"LDDLB", 3, 0.0, 1.1}, {-0.1, -0.01}, 3},  // below 0.1 MB
      // Neither: the balance it left.
      {{"LDDLB", 3, 1.0, 1.4}, {"GDDLB", 3, 1.0, 1.1}, {-0.2, -0.05}, 3},
  };
  for (const auto& r : table) {
    claim_check c;
    c.claim = "X";
    c.margin = -0.05;
    c.better = r.better;
    c.worse = r.worse;
    const auto b = diagnose_check(c, r.ci);
    EXPECT_EQ(b.mechanism, mechanism_names()[r.name]) << r.better.name << " vs " << r.worse.name;
    EXPECT_NE(b.detail.find(r.better.name), std::string::npos);
  }
}

TEST(Diagnosis, ResampleSeedsKeepsPairsAndCountsRepeats) {
  dlb::sweep::csv_table t;
  t.columns = {"strategy", "rep", "seed", "total_s"};
  t.rows = {{"NONE", "0", "1", "10"},
            {"GDDLB", "0", "1", "8"},
            {"NONE", "1", "2", "20"},
            {"GDDLB", "1", "2", "15"}};
  EXPECT_EQ(seeds_of({t}), (std::vector<std::string>{"1", "2"}));
  const auto r = resample_seeds(t, {"2", "2"});
  ASSERT_EQ(r.rows.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    const std::string slot = std::to_string(i / 2);
    EXPECT_EQ(r.rows[i][1], slot);
    EXPECT_EQ(r.rows[i][2], std::to_string(1000000 + i / 2));
    EXPECT_EQ(r.rows[i][3], i % 2 == 0 ? "20" : "15");  // seed 2's pair, twice
  }
  dlb::sweep::csv_table no_seed;
  no_seed.columns = {"strategy"};
  no_seed.rows = {{"NONE"}};
  EXPECT_EQ(resample_seeds(no_seed, {"1"}).rows.size(), 1u);
}

// Synthetic summary rows: per configuration, NONE and the four strategies' normalized medians.
using four = std::array<double, 4>;
struct config {
  std::string app;
  int procs;
  std::string size;
  four norm;
  int ml = 5;
};

std::vector<summary_row> rows_of(const std::vector<config>& configs) {
  static const std::array<std::string, 4> names{"GCDLB", "GDDLB", "LCDLB", "LDDLB"};
  std::vector<summary_row> rows;
  for (const auto& c : configs) {
    for (int i = -1; i < 4; ++i) {
      summary_row r;
      const double norm = i < 0 ? 1.0 : c.norm[static_cast<std::size_t>(i)];
      r.fields = {{"app", c.app},
                  {"P", std::to_string(c.procs)},
                  {"K", std::to_string(c.procs / 2)},
                  {"size", c.size},
                  {"ml", std::to_string(c.ml)},
                  {"tl", "1"},
                  {"strategy", i < 0 ? "NONE" : names[static_cast<std::size_t>(i)]},
                  {"norm_median", std::to_string(norm)},
                  {"total_median", std::to_string(100 * norm)},
                  {"syncs_median", "3"},
                  {"predicted_best", "GDDLB"}};
      rows.push_back(r);
    }
  }
  return rows;
}

// Per claim, the strict verdict holds exactly when none of its checks breaks (margin <= 0), on
// summaries where each claim goes both ways.
TEST(Diagnosis, ChecksAgreeWithTheStrictVerdicts) {
  const std::vector<std::vector<config>> cases{
      {{"mxm", 4, "n=400 r=400 m=400", {0.62, 0.60, 0.70, 0.68}},
       {"mxm", 16, "n=1600 r=400 m=400", {0.66, 0.64, 0.69, 0.67}},
       {"trfd", 4, "n=30", {0.90, 0.95, 0.97, 0.93}},
       {"trfd", 4, "n=50", {0.90, 0.88, 0.97, 0.93}},
       {"trfd", 16, "n=30", {1.05, 1.02, 1.03, 1.00}},
       {"ac", 4, "n=100", {0.80, 0.78, 0.75, 0.74}},
       {"ac", 4, "n=250", {0.70, 0.69, 0.75, 0.74}},
       {"mxm", 4, "n=400 r=400 m=400", {1.01, 1.00, 1.01, 1.00}, 0}},
      {{"mxm", 4, "n=400 r=400 m=400", {0.62, 0.65, 0.60, 0.68}},
       {"mxm", 16, "n=1600 r=400 m=400", {0.66, 0.64, 0.75, 0.67}},
       {"trfd", 4, "n=30", {0.99, 0.95, 0.97, 0.93}},
       {"trfd", 4, "n=50", {0.90, 0.98, 0.97, 0.93}},
       {"trfd", 16, "n=30", {1.00, 1.02, 1.03, 1.05}},
       {"ac", 4, "n=100", {0.70, 0.78, 0.75, 0.74}},
       {"ac", 4, "n=250", {0.80, 0.79, 0.75, 0.74}},
       {"mxm", 4, "n=400 r=400 m=400", {1.05, 1.00, 1.01, 1.00}, 0}},
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto rows = rows_of(cases[k]);
    const auto configs = group_configs(rows);
    const auto checks = claim_checks(configs);
    for (const auto& c : evaluate_claims(rows)) {
      if (c.outcome == verdict::not_measured || c.id == "O2" || c.id == "T6") continue;
      bool broken = false, any = false;
      for (const auto& ch : checks) {
        if (ch.claim != c.id) continue;
        any = true;
        broken = broken || ch.margin <= 0;
      }
      EXPECT_TRUE(any) << c.id << " case " << k;
      EXPECT_EQ(c.outcome == verdict::holds, !broken) << c.id << " case " << k << ": " << c.tally;
    }
  }
}

// A check's key must not depend on which strategy wins a side (that changes between bootstrap
// replicates): the same configurations with the sides' winners swapped give the same keys.
TEST(Diagnosis, CheckKeysDoNotDependOnTheWinners) {
  const std::vector<config> a{{"ac", 16, "n=100", {0.80, 0.78, 0.75, 0.74}},
                              {"ac", 16, "n=250", {0.70, 0.69, 0.75, 0.74}}};
  const std::vector<config> b{{"ac", 16, "n=100", {0.78, 0.80, 0.74, 0.75}},
                              {"ac", 16, "n=250", {0.69, 0.70, 0.74, 0.75}}};
  const auto keys = [](const std::vector<config>& cs) {
    const auto rows = rows_of(cs);
    std::vector<std::string> k;
    for (const auto& c : claim_checks(group_configs(rows))) k.push_back(c.key());
    return k;
  };
  EXPECT_FALSE(keys(a).empty());
  EXPECT_EQ(keys(a), keys(b));
}

}  // namespace
