// The analysis behind `make uneven` (experiments/report/uneven.hpp) on small results tables whose
// answers are worked by hand.
#include <gtest/gtest.h>

#include <string>

#include "report/uneven.hpp"
#include "sweep/csv_table.hpp"

namespace {

using namespace dlb::report::uneven;

const char* kHeader = "strategy,seed,ml,extra_args,status,verified,total_s,syncs,predicted_run_s\n";

std::string row(const std::string& shape, const std::string& start, const std::string& unit,
                int ml, int seed, const std::string& policy, double total, int syncs,
                const std::string& predicted = "", const std::string& status = "ok") {
  return policy + "," + std::to_string(seed) + "," + std::to_string(ml) + ",--work-ms 50 --shape " +
         shape + " --distribution " + start + " --balance-by " + unit + "," + status + ",1," +
         std::to_string(total) + "," + std::to_string(syncs) + "," + predicted + "\n";
}

cells cells_of(const std::string& rows) {
  return cells(verified_runs(dlb::sweep::parse_csv_table(kHeader + rows, "test")));
}

TEST(Uneven, ComparesUnitsPairedBySeed) {
  const auto c = cells_of(
      row("linear", "block", "work", 0, 1, "AUTO", 10, 3) +
      row("linear", "block", "work", 0, 2, "AUTO", 10, 5) +
      row("linear", "block", "iterations", 0, 1, "AUTO", 10, 8) +
      // With load: work/iterations = 0.9 (seed 1) and 0.5 (seed 2); seed 3 has no pair.
      row("linear", "block", "work", 5, 1, "AUTO", 9, 4, "9.9") +
      row("linear", "block", "iterations", 5, 1, "AUTO", 10, 4, "8") +
      row("linear", "block", "work", 5, 2, "AUTO", 5, 4, "5.5") +
      row("linear", "block", "iterations", 5, 2, "AUTO", 10, 4) +
      row("linear", "block", "work", 5, 3, "AUTO", 7, 4) +
      // Another start or shape never enters the block comparison.
      row("linear", "cyclic", "iterations", 5, 3, "AUTO", 1, 4) +
      row("heavy", "block", "iterations", 5, 3, "AUTO", 1, 4));
  const auto r = compare_units(c, "linear", "AUTO");
  ASSERT_TRUE(r.syncs_work && r.syncs_iterations);
  EXPECT_DOUBLE_EQ(*r.syncs_work, 4);  // median of 3 and 5
  EXPECT_DOUBLE_EQ(*r.syncs_iterations, 8);
  ASSERT_TRUE(r.time_work_over_iterations);
  EXPECT_EQ(r.time_work_over_iterations->count, 2u);
  EXPECT_DOUBLE_EQ(r.time_work_over_iterations->median, 0.7);
  EXPECT_DOUBLE_EQ(r.time_work_over_iterations->min, 0.5);
  EXPECT_DOUBLE_EQ(r.time_work_over_iterations->max, 0.9);
  ASSERT_TRUE(r.predicted_over_measured_work);
  EXPECT_DOUBLE_EQ(r.predicted_over_measured_work->min, 1.1);  // 9.9/9 and 5.5/5
  EXPECT_DOUBLE_EQ(r.predicted_over_measured_work->max, 1.1);
  ASSERT_TRUE(r.predicted_over_measured_iterations);
  EXPECT_EQ(r.predicted_over_measured_iterations->count, 1u);
  EXPECT_DOUBLE_EQ(r.predicted_over_measured_iterations->median, 0.8);
  EXPECT_FALSE(compare_units(c, "heavy", "AUTO").time_work_over_iterations);
}

TEST(Uneven, TimeOverNoneOfTheBaseStart) {
  const auto c = cells_of(row("heavy", "block", "work", 5, 1, "NONE", 20, 0) +
                          row("heavy", "block", "work", 5, 2, "NONE", 40, 0) +
                          row("heavy", "cyclic", "work", 5, 1, "GDDLB", 10, 2) +
                          row("heavy", "cyclic", "work", 5, 2, "GDDLB", 30, 2) +
                          row("heavy", "cyclic", "work", 5, 1, "NONE", 100, 0));
  const auto r = over_none(c, "heavy", 5, "cyclic", "work", "GDDLB", "block");
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->min, 0.5);
  EXPECT_DOUBLE_EQ(r->max, 0.75);
  EXPECT_DOUBLE_EQ(r->median, 0.625);
  // Against the cyclic NONE: only seed 1 has one.
  const auto cyc = over_none(c, "heavy", 5, "cyclic", "work", "GDDLB", "cyclic");
  ASSERT_TRUE(cyc);
  EXPECT_EQ(cyc->count, 1u);
  EXPECT_DOUBLE_EQ(cyc->median, 0.1);
  EXPECT_FALSE(over_none(c, "heavy", 0, "cyclic", "work", "GDDLB", "block"));
}

TEST(Uneven, CountsOnlyVerifiedRunsAndNamesWhatIsMissing) {
  const auto runs = verified_runs(dlb::sweep::parse_csv_table(
      std::string(kHeader) + row("linear", "block", "work", 5, 1, "NONE", 20, 0) +
          row("linear", "block", "work", 5, 2, "NONE", 20, 0, "", "failed"),
      "test"));
  EXPECT_EQ(runs.size(), 1u);
  EXPECT_FALSE(runs[0].predicted);
  try {
    verified_runs(dlb::sweep::parse_csv_table(
        std::string(kHeader) + "NONE,1,5,--shape linear,ok,1,20,0,\n", "test"));
    FAIL() << "a run without --distribution was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("--distribution"), std::string::npos);
  }
  try {
    verified_runs(dlb::sweep::parse_csv_table("strategy,seed\nNONE,1\n", "test"));
    FAIL() << "a table without the ml column was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'ml'"), std::string::npos);
  }
}

}  // namespace
