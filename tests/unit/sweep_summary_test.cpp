// Unit tests of dlb_summary's computation on a hand-made results table: medians, paired
// normalization by seed, exclusion of failed / unverified / timed-out runs.
#include <gtest/gtest.h>

#include <map>

#include "report/agreement.hpp"
#include "report/stats.hpp"
#include "report/summary.hpp"
#include "sweep/results_store.hpp"

using namespace dlb;

namespace {

struct results_builder {
  sweep::csv_table t;
  results_builder() { t.columns = sweep::standard_results_columns(); }
  void add(const std::string& strategy, int seed, const std::string& status,
           const std::string& total, const std::string& loop2 = "0") {
    std::map<std::string, std::string> f{{"app", "mxm"},
                                         {"P", "4"},
                                         {"K", "2"},
                                         {"size", "n=400 r=400 m=400"},
                                         {"strategy", strategy},
                                         {"rep", std::to_string(seed - 1)},
                                         {"seed", std::to_string(seed)},
                                         {"ml", "5"},
                                         {"tl", "1"},
                                         {"clock", "emulated"},
                                         {"scale", "20"},
                                         {"network", "ethernet1996"},
                                         {"status", status},
                                         {"total_s", total},
                                         {"loop1_s", total},
                                         {"loop2_s", loop2},
                                         {"syncs", "3"},
                                         {"lag_pct", "0.1"},
                                         {"predicted_best", "GDDLB"}};
    std::vector<std::string> row;
    for (const auto& c : t.columns) row.push_back(f.count(c) ? f[c] : "");
    t.rows.push_back(row);
  }
};

const report::summary_row* find(const std::vector<report::summary_row>& rows,
                                const std::string& s) {
  for (const auto& r : rows) {
    if (r.strategy() == s) return &r;
  }
  return nullptr;
}

}  // namespace

TEST(SweepStats, MedianOfOddAndEvenSamples) {
  EXPECT_DOUBLE_EQ(*report::median({3, 1, 2}), 2);
  EXPECT_DOUBLE_EQ(*report::median({4, 1, 3, 2}), 2.5);
  EXPECT_FALSE(report::median({}).has_value());
  const auto s = *report::describe({5, 1, 9});
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 9);
  EXPECT_EQ(s.count, 3u);
}

TEST(SweepSummary, MediansAndPairedNormalizationExcludingBadRuns) {
  results_builder b;
  // Out of order on purpose: pairing goes by seed, not by position.
  b.add("GDDLB", 2, "ok", "100");
  b.add("NONE", 1, "ok", "100");
  b.add("GDDLB", 1, "failed", "");
  b.add("NONE", 3, "ok", "120");
  b.add("GDDLB", 3, "ok", "84");
  b.add("NONE", 2, "ok", "200");
  b.add("GDDLB", 1, "ok", "60");  // the same run recorded again (e.g. --retry-failed): last wins
  b.add("GCDLB", 1, "ok", "70");
  b.add("GCDLB", 2, "timeout", "");
  b.add("GCDLB", 3, "failed", "");
  b.add("LDDLB", 1, "unverified", "55");
  b.add("LDDLB", 2, "ok", "150");
  b.add("LDDLB", 4, "ok", "90");  // no no-DLB run with seed 4: not paired

  const auto s = report::summarize({b.t});
  EXPECT_EQ(s.counts.used, 9u);
  EXPECT_EQ(s.counts.superseded, 1u);
  EXPECT_EQ(s.counts.excluded.at("failed"), 1u);
  EXPECT_EQ(s.counts.excluded.at("timeout"), 1u);
  EXPECT_EQ(s.counts.excluded.at("unverified"), 1u);

  const auto rows = report::load_summary(s.table);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].strategy(), "NONE");  // strategy order: NONE GCDLB GDDLB LCDLB LDDLB
  EXPECT_EQ(rows[1].strategy(), "GCDLB");

  const auto* none = find(rows, "NONE");
  EXPECT_EQ(none->text("runs"), "3");
  EXPECT_DOUBLE_EQ(*none->number("total_median"), 120);
  EXPECT_DOUBLE_EQ(*none->number("norm_median"), 1);

  const auto* gd = find(rows, "GDDLB");
  EXPECT_EQ(gd->text("runs"), "3");
  EXPECT_EQ(gd->text("paired"), "3");
  EXPECT_DOUBLE_EQ(*gd->number("total_median"), 84);
  EXPECT_DOUBLE_EQ(*gd->number("total_min"), 60);
  EXPECT_DOUBLE_EQ(*gd->number("total_max"), 100);
  EXPECT_DOUBLE_EQ(*gd->number("norm_median"), 0.6);  // 60/100, 100/200, 84/120
  EXPECT_DOUBLE_EQ(*gd->number("norm_min"), 0.5);
  EXPECT_DOUBLE_EQ(*gd->number("norm_max"), 0.7);
  EXPECT_DOUBLE_EQ(*gd->number("norm_loop1_median"), 0.6);
  EXPECT_FALSE(gd->number("norm_loop2_median").has_value());  // no-DLB loop2 is 0: undefined
  EXPECT_EQ(gd->text("predicted_best"), "GDDLB");
  EXPECT_EQ(gd->text("predicted_best_votes"), "3/3");

  const auto* gc = find(rows, "GCDLB");
  EXPECT_EQ(gc->text("runs"), "1");
  EXPECT_DOUBLE_EQ(*gc->number("norm_median"), 0.7);

  const auto* ld = find(rows, "LDDLB");
  EXPECT_EQ(ld->text("runs"), "2");
  EXPECT_EQ(ld->text("paired"), "1");
  EXPECT_DOUBLE_EQ(*ld->number("total_median"), 120);  // even count: mean of 90 and 150
  EXPECT_DOUBLE_EQ(*ld->number("norm_median"), 0.75);
}

TEST(SweepSummary, SeparatesConfigurationsAndOrdersSizesNaturally) {
  results_builder b;
  b.add("NONE", 1, "ok", "10");
  b.t.rows.push_back(b.t.rows.back());
  b.t.rows.back()[*b.t.column("size")] = "n=1600 r=400 m=400";
  b.t.rows.push_back(b.t.rows.front());
  b.t.rows.back()[*b.t.column("size")] = "n=800 r=400 m=400";
  b.t.rows.push_back(b.t.rows.front());
  b.t.rows.back()[*b.t.column("ml")] = "0";
  const auto rows = report::load_summary(report::summarize({b.t}).table);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].text("size"), "n=400 r=400 m=400");
  EXPECT_EQ(rows[0].ml(), 5);  // loaded before unloaded
  EXPECT_EQ(rows[1].ml(), 0);
  EXPECT_EQ(rows[2].text("size"), "n=800 r=400 m=400");
  EXPECT_EQ(rows[3].text("size"), "n=1600 r=400 m=400");
}

namespace {

// The rows of `b` moved to another backend.
sweep::csv_table on_backend(sweep::csv_table t, const std::string& backend) {
  for (auto& row : t.rows) row[*t.column("backend")] = backend;
  return t;
}

}  // namespace

TEST(SweepSummary, GroupsByBackendAndPairsWithinIt) {
  results_builder b;
  b.add("NONE", 1, "ok", "100");
  b.add("GDDLB", 1, "ok", "80");
  sweep::csv_table sim = on_backend(b.t, "sim");
  sim.rows[0][*sim.column("total_s")] = "200";  // pairing must not cross backends
  sim.rows[1][*sim.column("total_s")] = "150";
  const auto rows = report::load_summary(report::summarize({b.t, sim}).table);
  ASSERT_EQ(rows.size(), 4u);
  std::map<std::string, double> norm;
  for (const auto& r : rows) {
    if (r.strategy() == "GDDLB") norm[r.backend()] = *r.number("norm_median");
  }
  // Rows without a backend value (results from before the column) are pvm runs.
  EXPECT_DOUBLE_EQ(norm.at("pvm"), 0.8);
  EXPECT_DOUBLE_EQ(norm.at("sim"), 0.75);
  EXPECT_EQ(rows[0].backend(), "pvm");  // pvm before sim within a configuration
  EXPECT_EQ(rows[0].strategy(), "NONE");
  EXPECT_EQ(rows[1].backend(), "pvm");
}

TEST(SweepAgreement, ComparesNormalizedTimesAcrossBackends) {
  results_builder b;
  for (int seed : {1, 2}) {
    b.add("NONE", seed, "ok", "100");
    b.add("GDDLB", seed, "ok", "80");
    b.add("LDDLB", seed, "ok", "90");
  }
  sweep::csv_table sim = on_backend(b.t, "sim");
  // Sim: GDDLB 0.82 (+2 points), LDDLB 0.89 (-1 point); echoed clock/scale differ: ignored.
  for (auto& row : sim.rows) {
    auto& total = row[*sim.column("total_s")];
    if (total == "80") total = "82";
    if (total == "90") total = "89";
    row[*sim.column("scale")] = "10";
  }
  const auto pvm_rows = report::load_summary(report::summarize({b.t}).table);
  const auto sim_rows = report::load_summary(report::summarize({sim}).table);
  const auto r = report::compare_summaries(sim_rows, pvm_rows);
  EXPECT_EQ(r.backend_a, "sim");
  EXPECT_EQ(r.backend_b, "pvm");
  ASSERT_EQ(r.rows.size(), 2u);  // NONE is 1 on both: left out
  EXPECT_EQ(r.only_a, 0u);
  EXPECT_EQ(r.only_b, 0u);
  ASSERT_TRUE(r.abs_diff_pct);
  EXPECT_NEAR(r.abs_diff_pct->median, 1.5, 1e-9);
  EXPECT_NEAR(r.abs_diff_pct->max, 2.0, 1e-9);
  EXPECT_NEAR(*r.mean_diff_pct, 0.5, 1e-9);
  const std::string md = report::render_agreement(r, 2.0, 5.0);
  EXPECT_NE(md.find("median 1.50%, max 2.00%"), std::string::npos) << md;
  EXPECT_NE(md.find("**met**"), std::string::npos) << md;
  EXPECT_NE(md.find("| mxm | 4 | 2 | n=400 r=400 m=400 | GDDLB | 0.82 | 0.8 | +2.00 | 2/2 |"),
            std::string::npos)
      << md;
  EXPECT_NE(report::render_agreement(r, 1.0, 5.0).find("**not met**"), std::string::npos);
  // A configuration only one side has is counted, not compared.
  auto more = sim;
  for (auto& row : more.rows) row[*more.column("P")] = "16";
  const auto r2 = report::compare_summaries(
      report::load_summary(report::summarize({sim, more}).table), pvm_rows);
  EXPECT_EQ(r2.rows.size(), 2u);
  EXPECT_EQ(r2.only_a, 2u);
}

TEST(SweepSummary, TimeOverTheOracleBoundIsSummarizedPerRun) {
  results_builder b;
  b.add("NONE", 1, "ok", "120");
  b.add("GDDLB", 1, "ok", "110");
  b.add("GDDLB", 2, "ok", "90");
  b.add("GDDLB", 3, "ok", "100");
  // The oracle bound is a further RESULT key: a column after the standard ones.
  b.t.columns.push_back("oracle_s");
  const std::vector<std::string> oracle{"100", "100", "60", "100"};
  for (std::size_t i = 0; i < b.t.rows.size(); ++i) b.t.rows[i].push_back(oracle[i]);
  const auto rows = report::load_summary(report::summarize({b.t}).table);
  const auto* g = find(rows, "GDDLB");
  ASSERT_NE(g, nullptr);
  // 110/100, 90/60, 100/100: median 1.1, min 1, max 1.5.
  EXPECT_DOUBLE_EQ(*g->number("over_oracle_median"), 1.1);
  EXPECT_DOUBLE_EQ(*g->number("over_oracle_min"), 1.0);
  EXPECT_DOUBLE_EQ(*g->number("over_oracle_max"), 1.5);
  EXPECT_DOUBLE_EQ(*find(rows, "NONE")->number("over_oracle_median"), 1.2);
}

// The predictions as the programs print them (TRFD: loop1_predicted_best...; every balanced run:
// predicted_best_run and predicted_best_estimated) are voted into their summary columns.
TEST(SweepSummary, PredictionsPerLoopAndPerLoadAssumptionAreVoted) {
  results_builder b;
  std::vector<std::string> extra = {"loop1_predicted_best", "loop2_predicted_best",
                                    "predicted_best_run", "predicted_best_estimated",
                                    "loop1_predicted_best_estimated"};
  for (const auto& c : extra) b.t.columns.push_back(c);
  b.add("GDDLB", 1, "ok", "60");
  b.add("GDDLB", 2, "ok", "70");
  b.add("GDDLB", 3, "ok", "80");
  // Per row: loop1, loop2, run, estimated, loop1 estimated.
  const std::vector<std::vector<std::string>> values = {
      {"LDDLB", "GDDLB", "GDDLB", "GCDLB", "-"},
      {"LDDLB", "GCDLB", "GDDLB", "GCDLB", "LCDLB"},
      {"GDDLB", "GDDLB", "GDDLB", "LDDLB", ""}};
  for (std::size_t r = 0; r < values.size(); ++r) {
    for (std::size_t k = 0; k < extra.size(); ++k)
      b.t.rows[r][*b.t.column(extra[k])] = values[r][k];
  }
  const auto rows = report::load_summary(report::summarize({b.t}).table);
  const auto* gd = find(rows, "GDDLB");
  ASSERT_NE(gd, nullptr);
  EXPECT_EQ(gd->text("predicted_best_loop1"), "LDDLB");
  EXPECT_EQ(gd->text("predicted_best_loop2"), "GDDLB");
  EXPECT_EQ(gd->text("predicted_best_run"), "GDDLB");
  EXPECT_EQ(gd->text("predicted_best_estimated"), "GCDLB");
  EXPECT_EQ(gd->text("predicted_best_estimated_loop1"), "LCDLB");  // "-" and "" do not vote
  EXPECT_EQ(gd->text("predicted_best_run_loop2"), "");             // not in the results
}
