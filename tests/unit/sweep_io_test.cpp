// Unit tests of the results-file machinery: CSV quoting, cut-short lines, app output parsing,
// run classification, progress lines and the results store.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "sweep/app_output.hpp"
#include "sweep/config.hpp"
#include "sweep/csv_table.hpp"
#include "sweep/progress.hpp"
#include "sweep/results_store.hpp"

using namespace dlb::sweep;
namespace fs = std::filesystem;

namespace {

run_spec sample_run() {
  return parse_config(
             "procs = 4\nstrategies = GDDLB\nseeds = 3\n[app mxm]\nsizes = n=400 r=400 m=400\n",
             "x")
      .runs.at(0);
}

const char* kGoodOutput =
    "starting\nVerification = SUCCESSFUL\n"
    "RESULT app=mxm strategy=GDDLB P=4 K=2 size=n=400,r=400,m=400 seed=3 ml=5 tl=1 "
    "clock=emulated scale=20.0 network=ethernet1996 verified=1 total_s=131.2 loop1_s=131.2 "
    "loop2_s=0 syncs=3 predicted_best=- wall_s=7.1 new_key=9\n";

class temp_dir {
 public:
  temp_dir() {
    std::string t = (fs::temp_directory_path() / "sweep_io_XXXXXX").string();
    path_ = ::mkdtemp(t.data());
  }
  ~temp_dir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

TEST(SweepCsv, QuotesFieldsWithCommasAndQuotes) {
  const std::vector<std::string> fields{"plain", "a,b", "say \"hi\"", "", "line\nbreak"};
  const std::string line = csv_line(fields);
  EXPECT_EQ(line, "plain,\"a,b\",\"say \"\"hi\"\"\",,line break\n");
  const auto back = split_csv_line(line.substr(0, line.size() - 1));
  EXPECT_EQ(back, (std::vector<std::string>{"plain", "a,b", "say \"hi\"", "", "line break"}));
  EXPECT_THROW(split_csv_line("\"open"), csv_error);
}

TEST(SweepCsv, DropsACutShortLastLineAndReportsWhereToResume) {
  const std::string text = "# k: v\na,b\n1,2\n# resumed: later\n3,4\n5,";
  csv_read_info info;
  const auto t = parse_csv_table(text, "r.csv", &info);
  EXPECT_TRUE(info.dropped_partial_line);
  EXPECT_EQ(info.complete_length, text.size() - 2);
  ASSERT_EQ(t.rows.size(), 2u);
  EXPECT_EQ(t.rows[1][1], "4");
  EXPECT_EQ(t.meta("k").value_or(""), "v");
  EXPECT_EQ(t.meta_all("resumed"), std::vector<std::string>{"later"});
}

TEST(SweepCsv, RejectsARowWithTheWrongFieldCountNamingTheLine) {
  try {
    parse_csv_table("a,b\n1,2,3\n", "r.csv");
    FAIL();
  } catch (const csv_error& e) {
    EXPECT_NE(std::string(e.what()).find("r.csv:2: 3 fields, the header has 2"), std::string::npos);
  }
}

TEST(SweepOutput, ParsesResultAndVerification) {
  const auto out = parse_app_output(kGoodOutput);
  EXPECT_EQ(out.result_lines, 1);
  ASSERT_TRUE(out.verification.has_value());
  EXPECT_TRUE(*out.verification);
  EXPECT_EQ(out.result[4].first, "size");
  EXPECT_EQ(out.result[4].second, "n=400,r=400,m=400");  // '=' inside a value is kept
}

TEST(SweepOutput, ClassifiesRuns) {
  const run_spec run = sample_run();
  const auto good = parse_app_output(kGoodOutput);
  using k = child_end::kind;
  EXPECT_EQ(classify_run(run, good, {k::exited, 0}).status, run_status::ok);
  EXPECT_EQ(classify_run(run, good, {k::exited, 3}).status, run_status::failed);
  EXPECT_EQ(classify_run(run, good, {k::signaled, 11}).status, run_status::failed);
  EXPECT_EQ(classify_run(run, good, {k::timed_out, 0}).status, run_status::timeout);
  EXPECT_EQ(classify_run(run, parse_app_output("Verification = SUCCESSFUL\n"), {k::exited, 0}).note,
            "no RESULT line");
  const auto failed = parse_app_output("Verification = FAILED\nRESULT verified=0 total_s=1\n");
  EXPECT_EQ(classify_run(run, failed, {k::exited, 1}).status, run_status::unverified);
  const auto silent = parse_app_output("RESULT total_s=1\n");
  EXPECT_EQ(classify_run(run, silent, {k::exited, 0}).status, run_status::unverified);
  // An app that ran something other than what was asked is a failed run.
  std::string wrong = kGoodOutput;
  wrong.replace(wrong.find("P=4"), 3, "P=8");
  const auto v = classify_run(run, parse_app_output(wrong), {k::exited, 0});
  EXPECT_EQ(v.status, run_status::failed);
  EXPECT_EQ(v.note, "RESULT P=8 but the run asked for 4");
  EXPECT_EQ(exit_text({k::signaled, 9}), "SIGKILL");
  EXPECT_EQ(exit_text({k::timed_out, 0}), "timeout");
}

// A PREDICTION line's pairs are kept after the RESULT ones, and never replace them.
TEST(SweepStore, RecordsThePredictionLineWithoutOverridingResult) {
  temp_dir dir;
  const fs::path file = dir.path() / "r.csv";
  const run_spec run = sample_run();
  run_record rec;
  rec.output = parse_app_output(std::string(kGoodOutput) +
                                "PREDICTION predicted_run_s=12.5 total_s=99 new_key=7\n");
  ASSERT_EQ(rec.output.prediction.size(), 3u);
  rec.verdict = classify_run(run, rec.output, {});
  {
    results_store store(file, {}, "resumed: x");
    store.record(run, rec);
  }
  const auto t = read_csv_table(file);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.field(t.rows[0], "predicted_run_s"), "12.5");
  EXPECT_EQ(t.field(t.rows[0], "total_s"), "131.2");
  EXPECT_EQ(t.field(t.rows[0], "new_key"), "9");
}

TEST(SweepProgress, FormatsElapsedAndEta) {
  EXPECT_EQ(format_hms(0), "0:00:00");
  EXPECT_EQ(format_hms(3725.4), "1:02:05");
  EXPECT_EQ(format_hms(-3), "0:00:00");
  EXPECT_FALSE(estimate_remaining(0, 0, 10, 1).has_value());
  EXPECT_DOUBLE_EQ(*estimate_remaining(30, 3, 5, 1), 50);  // mean 10 s x 5 left
  EXPECT_DOUBLE_EQ(*estimate_remaining(30, 3, 5, 2), 25);
  EXPECT_EQ(progress_line(3, 40, 65, std::nullopt, "mxm P=4"),
            "run 3 of 40, elapsed 0:01:05, ETA ?: mxm P=4");
  const std::string line = progress_line(12, 105, 4000, 750.0, "");
  EXPECT_TRUE(std::regex_match(line, std::regex(R"(run 12 of 105, elapsed 1:06:40, ETA 0:12:30)")))
      << line;
}

TEST(SweepStore, RecordsResumesAndDropsACutShortLine) {
  temp_dir dir;
  const fs::path file = dir.path() / "r.csv";
  const run_spec run = sample_run();
  run_record rec;
  rec.output = parse_app_output(kGoodOutput);
  rec.verdict = classify_run(run, rec.output, {});
  {
    results_store store(file, {"revision: test"}, "resumed: x");
    EXPECT_FALSE(store.resumed());
    EXPECT_EQ(store.status_of(run.key()), "");
    store.record(run, rec);
    EXPECT_EQ(store.status_of(run.key()), "ok");
  }
  // The new RESULT key widened the header; the row survived the rewrite.
  auto t = read_csv_table(file);
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.field(t.rows[0], "new_key"), "9");
  EXPECT_EQ(t.field(t.rows[0], "total_s"), "131.2");
  EXPECT_EQ(t.field(t.rows[0], "size"), "n=400 r=400 m=400");
  EXPECT_EQ(t.meta("revision").value_or(""), "test");
  // A crash while appending the next row leaves a cut-short line.
  {
    std::ofstream f(file, std::ios::app);
    f << "mxm,4,2,n=800";
  }
  {
    results_store store(file, {}, "resumed: again");
    EXPECT_TRUE(store.resumed());
    EXPECT_TRUE(store.dropped_partial_line());
    EXPECT_EQ(store.status_of(run.key()), "ok");
    EXPECT_EQ(store.row_count(), 1u);
  }
  csv_read_info info;
  t = read_csv_table(file, &info);
  EXPECT_FALSE(info.dropped_partial_line);
  EXPECT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.meta_all("resumed"), (std::vector<std::string>{"again"}));
}

TEST(SweepStore, RefusesAFileThatIsNotAResultsFile) {
  temp_dir dir;
  const fs::path file = dir.path() / "other.csv";
  std::ofstream(file) << "a,b\n1,2\n";
  EXPECT_THROW(results_store(file, {}, "resumed"), csv_error);
}

TEST(SweepOutput, TheEchoedBackendMustBeTheOneAsked) {
  run_spec run = sample_run();
  run.backend = "sim";
  const std::string line =
      "Verification = SUCCESSFUL\nRESULT app=mxm strategy=GDDLB P=4 K=2 size=n=400,r=400,m=400 "
      "seed=3 ml=5 tl=1 clock=emulated scale=20 network=ethernet1996 backend=";
  auto out = parse_app_output(line + "sim verified=1 total_s=1\n");
  EXPECT_EQ(classify_run(run, out, {}).status, run_status::ok);
  out = parse_app_output(line + "pvm verified=1 total_s=1\n");
  const auto v = classify_run(run, out, {});
  EXPECT_EQ(v.status, run_status::failed);
  EXPECT_EQ(v.note, "RESULT backend=pvm but the run asked for sim");
  EXPECT_TRUE(is_echoed_parameter("backend"));
}

TEST(SweepStore, AFileFromBeforeTheBackendColumnIsUpgradedAsPvm) {
  temp_dir dir;
  const fs::path file = dir.path() / "old.csv";
  // A results file as written before the backend column: every column but backend.
  std::vector<std::string> cols;
  for (const auto& c : standard_results_columns()) {
    if (c != "backend") cols.push_back(c);
  }
  run_spec pvm_run = sample_run();
  std::map<std::string, std::string> v;
  const auto keys = run_spec::key_columns();
  for (std::size_t i = 0; i < keys.size(); ++i) v[keys[i]] = pvm_run.key_values()[i];
  v["status"] = "ok";
  v["total_s"] = "100";
  std::vector<std::string> row;
  for (const auto& c : cols) row.push_back(v[c]);
  {
    csv_table old;
    old.comments = {"revision: old"};
    old.columns = cols;
    old.rows = {row};
    std::ofstream(file) << format_csv_table(old);
  }
  // Read as is (e.g. by dlb_summary), its rows are pvm runs.
  const auto before = read_csv_table(file);
  EXPECT_EQ(key_field(before, before.rows[0], "backend"), "pvm");
  EXPECT_EQ(row_key(before, before.rows[0]), pvm_run.key());
  {
    results_store store(file, {}, "resumed: now");
    EXPECT_TRUE(store.upgraded());
    EXPECT_EQ(store.status_of(pvm_run.key()), "ok");
    run_spec sim_run = pvm_run;
    sim_run.backend = "sim";
    EXPECT_EQ(store.status_of(sim_run.key()), "");  // another run
  }
  const auto after = read_csv_table(file);
  ASSERT_TRUE(after.column("backend"));
  EXPECT_EQ(*after.column("backend"), *after.column("network") + 1);
  EXPECT_EQ(after.field(after.rows[0], "backend"), "pvm");
  EXPECT_EQ(after.field(after.rows[0], "total_s"), "100");
  EXPECT_FALSE(after.meta_all("upgraded").empty());
  // Opening it again changes nothing more.
  results_store again(file, {}, "resumed: later");
  EXPECT_FALSE(again.upgraded());
}
