// The sensitivity study's chain end to end on a 2-point design (the defaults and one Latin-
// hypercube point), with the real applications on the simulated backend and tiny sizes: plan ->
// dlb_sweep -> analyze; a resumed sweep runs nothing again and duplicates no row; an interrupted
// study's incomplete point is left out of the analysis, and finishing the sweep brings it back.
// No pvmd (backend sim), so the label unit; a few seconds.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "run_process.hpp"
#include "sweep/csv_table.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class SensitivityChain : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "dlb_sensitivity_XXXXXX").string();
    dir_ = ::mkdtemp(t.data());
    std::ofstream(dir_ / "base.conf") << "backend = sim\nprocs = 4\ngroup = 4:2\n"
                                         "strategies = NONE GCDLB GDDLB LCDLB LDDLB\n"
                                         "repetitions = 2\nseeds = 1 2\ntimeout = 120\n"
                                         "[app mxm]\nsizes = n=40 r=40 m=400\n";
    // Two rows of Table 1.4, in the paper's CSV format (experiments/paper/table1_4_best.csv).
    fs::create_directories(dir_ / "paper");
    std::ofstream(dir_ / "paper/table1_4_best.csv")
        << "app,P,size,loop,actual_best,predicted_best,diff_s,diff_pct\n"
           "MXM,4,n=40 r=40,,GDDLB,GDDLB,,\nMXM,4,n=400 r=400,,GDDLB,GDDLB,,\n";
    std::ofstream(dir_ / "study.design")
        << "base = " << (dir_ / "base.conf").string()
        << "\nseeds = 1 2\npoints = 1\ndesign_seed = 3\nbootstrap = 20\n"
           "tl_factor = 0.2 0.4 1\nbalancer = master dedicated\nafter_no_move = idle stop\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  testing_support::process_result run(std::vector<std::string> argv) {
    return testing_support::run_process(argv, 300);
  }
  testing_support::process_result sweep() {
    return run({DLB_SWEEP_BIN, "--config", (dir_ / "out/study.conf").string(), "--out",
                (dir_ / "out/results.csv").string(), "--bin-dir", APPS_DIR, "--jobs", "2"});
  }
  testing_support::process_result analyze() {
    return run({DLB_SENSITIVITY_BIN, "analyze", "--design", (dir_ / "study.design").string(),
                "--out-dir", (dir_ / "out").string(), "--results",
                (dir_ / "out/results.csv").string(), "--paper-dir", (dir_ / "paper").string()});
  }

  fs::path dir_;
};

// The analysis of the complete study in `out`: the claims at the defaults and over the region
// under both readings, per point, the Markdown page and Table 1.4's rows.
// The claims: the paper's 16, with O1's "typically a single synchronization" judged apart (O1s).
void expect_the_analysis(const fs::path& out) {
  const auto claims = dlb::sweep::read_csv_table(out / "claims.csv");
  ASSERT_EQ(claims.rows.size(), 17u);
  EXPECT_EQ(claims.field(claims.rows[0], "claim"), "M1");
  // MXM on one P: M1-M3 and M5 are judged at the one region point, M4 (needs two P) is not.
  EXPECT_EQ(claims.field(claims.rows[0], "points_measured"), "1");
  EXPECT_EQ(claims.field(claims.rows[3], "points_measured"), "0");
  EXPECT_NE(claims.field(claims.rows[0], "defaults_verdict"), "not measured");
  // Both readings: the tendency reading is counted over the same points (M4 again unmeasured).
  EXPECT_EQ(claims.field(claims.rows[0], "tendency_points_measured"), "1");
  EXPECT_EQ(claims.field(claims.rows[3], "tendency_points_measured"), "0");
  EXPECT_NE(claims.field(claims.rows[0], "defaults_tendency"), "not measured");
  const auto per_point = dlb::sweep::read_csv_table(out / "point_claims.csv");
  EXPECT_EQ(per_point.rows.size(), 34u);
  for (const auto& r : per_point.rows) {
    EXPECT_FALSE(per_point.field(r, "tendency_verdict").empty()) << per_point.field(r, "claim");
  }
  const std::string md = slurp(out / "SENSITIVITY.md");
  EXPECT_NE(md.find("## Claims: at the defaults, and over the region"), std::string::npos);
  EXPECT_NE(md.find("The calibrated point"), std::string::npos);
  EXPECT_NE(md.find("| MXM P=4 n=40 r=40 | GDDLB |"), std::string::npos);  // Table 1.4's rows
  EXPECT_NE(md.find("| MXM P=4 n=400 r=400 | GDDLB | not measured |"), std::string::npos);
  const auto rows = dlb::sweep::read_csv_table(out / "rows.csv");
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(rows.field(rows.rows[0], "points_measured"), "1");
  EXPECT_EQ(rows.field(rows.rows[1], "points_measured"), "0");
}

TEST_F(SensitivityChain, PlanSweepAnalyzeResume) {
  const auto plan = run({DLB_SENSITIVITY_BIN, "plan", "--design", (dir_ / "study.design").string(),
                         "--out-dir", (dir_ / "out").string()});
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  EXPECT_NE(plan.err.find("2 points (defaults + 1), 2 seeds, 20 runs"), std::string::npos)
      << plan.err;
  const auto points = dlb::sweep::read_csv_table(dir_ / "out/points.csv");
  ASSERT_EQ(points.rows.size(), 2u);
  EXPECT_EQ(points.field(points.rows[0], "point"), "defaults");
  EXPECT_EQ(points.field(points.rows[0], "args"), "");
  EXPECT_NE(points.field(points.rows[1], "args").find("--balancer"), std::string::npos);
  EXPECT_EQ(slurp(dir_ / "out/networks.txt"), "");  // the network is never varied here

  const auto s1 = sweep();
  ASSERT_EQ(s1.exit_code, 0) << s1.err;
  auto results = dlb::sweep::read_csv_table(dir_ / "out/results.csv");
  ASSERT_EQ(results.rows.size(), 20u);
  for (const auto& r : results.rows) EXPECT_EQ(results.field(r, "status"), "ok");

  const auto a1 = analyze();
  ASSERT_EQ(a1.exit_code, 0) << a1.err;
  EXPECT_EQ(a1.err.find("incomplete"), std::string::npos) << a1.err;
  expect_the_analysis(dir_ / "out");

  // Resume: nothing to run, no row duplicated.
  const auto s2 = sweep();
  ASSERT_EQ(s2.exit_code, 0) << s2.err;
  EXPECT_NE(s2.err.find("0 to run"), std::string::npos) << s2.err;
  EXPECT_EQ(dlb::sweep::read_csv_table(dir_ / "out/results.csv").rows.size(), 20u);

  // An interrupted study: the last 3 rows (of the second point) lost. The analysis leaves that
  // point out and says so; the sweep runs exactly those 3 again.
  results.rows.resize(17);
  // Written over the file this test read (write_atomically refuses that unless told: the tools
  // never do it).
  dlb::sweep::write_atomically(dir_ / "out/results.csv", dlb::sweep::format_csv_table(results),
                               /*rewriting_own_file=*/true);
  const auto a2 = analyze();
  ASSERT_EQ(a2.exit_code, 0) << a2.err;
  EXPECT_NE(a2.err.find("p01: 7 of 10 runs recorded"), std::string::npos) << a2.err;
  EXPECT_NE(slurp(dir_ / "out/SENSITIVITY.md").find("Incomplete points"), std::string::npos);
  EXPECT_EQ(
      dlb::sweep::read_csv_table(dir_ / "out/claims.csv")
          .field(dlb::sweep::read_csv_table(dir_ / "out/claims.csv").rows[0], "points_measured"),
      "0");
  const auto s3 = sweep();
  ASSERT_EQ(s3.exit_code, 0) << s3.err;
  EXPECT_NE(s3.err.find("3 to run"), std::string::npos) << s3.err;
  EXPECT_EQ(dlb::sweep::read_csv_table(dir_ / "out/results.csv").rows.size(), 20u);
  const auto a3 = analyze();
  ASSERT_EQ(a3.exit_code, 0) << a3.err;
  EXPECT_EQ(a3.err.find("incomplete"), std::string::npos) << a3.err;
}

}  // namespace
