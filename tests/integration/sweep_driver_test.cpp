// End-to-end tests of dlb_sweep, dlb_summary, the plots and dlb_report against a fake app
// (tests/fixtures/fake_dlb_app.sh, a test fixture following the apps' contract): progress lines,
// paired seeds, failed / unverified / timed-out runs, resume after SIGINT, SIGKILL or a cut-short
// line, usage errors. No pvmd is involved.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "sweep/csv_table.hpp"
#include "sweep/results_store.hpp"
#include "sweep/sha256.hpp"

namespace fs = std::filesystem;
using dlb::sweep::csv_table;

namespace {

using env_list = std::vector<std::pair<std::string, std::string>>;

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// Is a process still running (not gone, not a zombie)?
bool alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return false;
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

struct run_result {
  int code = -1;
  std::string out;
  std::string err;
};

const char* kTwentyRuns = R"(procs = 4
group = 4:2
strategies = NONE GCDLB GDDLB LCDLB LDDLB
repetitions = 2
seeds = 5 6
timeout = 30

[app mxm]
sizes = n=400 r=400 m=400

[app trfd]
sizes = n=30
)";

// Progress: one start line per run, "run i of N, elapsed H:MM:SS, ETA H:MM:SS: what"; the ETA
// is unknown ("?") until a run has finished.
void expect_progress(const std::string& err) {
  const std::regex start(R"(run (\d+) of 20, elapsed \d+:\d\d:\d\d, ETA (\?|\d+:\d\d:\d\d): .+)");
  int starts = 0;
  for (const auto& line : lines_of(err)) {
    std::smatch m;
    if (!std::regex_match(line, m, start)) continue;
    ++starts;
    EXPECT_EQ(std::stoi(m[1]), starts);
    EXPECT_EQ(m[2] == "?", starts == 1) << line;
  }
  EXPECT_EQ(starts, 20);
  EXPECT_NE(err.find("run 20 of 20: ok total_s="), std::string::npos);
}

// Each run's status by "app strategy seed".
std::map<std::string, std::string> statuses(const csv_table& t) {
  std::map<std::string, std::string> status;
  for (const auto& row : t.rows) {
    status[std::string(t.field(row, "app")) + " " + std::string(t.field(row, "strategy")) + " " +
           std::string(t.field(row, "seed"))] = std::string(t.field(row, "status"));
  }
  return status;
}

// A summary's runs used, by "app strategy".
std::map<std::string, std::string> runs_used(const csv_table& st) {
  std::map<std::string, std::string> runs;
  for (const auto& row : st.rows) {
    runs[std::string(st.field(row, "app")) + " " + std::string(st.field(row, "strategy"))] =
        std::string(st.field(row, "runs"));
  }
  return runs;
}

// The runs' intervals per app (from the wrappers' log): a trfd (emulated PVM) run overlaps no other
// run, sim runs overlap.
void expect_only_sims_overlap(const fs::path& times) {
  struct span {
    std::string app;
    long long start = 0, end = 0;
  };
  std::vector<span> spans;
  std::map<std::string, std::vector<long long>> open;
  for (const auto& l : lines_of(slurp(times))) {
    std::istringstream in(l);
    std::string what, app;
    long long ns = 0;
    in >> what >> app >> ns;
    if (what == "start") {
      open[app].push_back(ns);
    } else {
      // Runs of one app may overlap: pair the end with the earliest open start (a bound that is
      // enough here: the checks below are on overlaps between different apps and among sims).
      ASSERT_FALSE(open[app].empty());
      spans.push_back({app, open[app].front(), ns});
      open[app].erase(open[app].begin());
    }
  }
  ASSERT_EQ(spans.size(), 9u);
  int sim_overlaps = 0;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    for (std::size_t j = i + 1; j < spans.size(); ++j) {
      const bool overlap = spans[i].start < spans[j].end && spans[j].start < spans[i].end;
      if (!overlap) continue;
      EXPECT_FALSE(spans[i].app == "trfd" || spans[j].app == "trfd")
          << "an emulated PVM run overlapped another run";
      ++sim_overlaps;
    }
  }
  EXPECT_GT(sim_overlaps, 0) << "sim runs never ran side by side with --jobs 2";
}

class SweepDriver : public ::testing::Test {
 protected:
  // dlb_expected's bad input: exit 2 naming it.
  void expect_bad_input_refused(const std::string& input, const std::string& expected) {
    struct bad {
      std::vector<std::string> argv;
      std::string message;
    };
    const std::vector<bad> table = {
        {{"--sweep", input, "--expected", (dir_ / "none.csv").string()}, "none.csv"},
        {{"--sweep", input, "--expected",
          write("bad.csv", "key,kind,expected,lo,hi,verdicts\nx,number,a,0,1,\n").string()},
         "bad.csv"},
        {{"--sweep", "s=" + (dir_ / "missing.csv").string(), "--expected", expected},
         "missing.csv"},
        {{"--sweep", "nameless", "--expected", expected}, "--sweep must be NAME=FILE"},
        {{"--sweep", input, "--subset", "9", "--out", (dir_ / "e2.csv").string()},
         "subsets of 9 of 3"},
        {{"--sweep", input, "--subset", "2", "--out", results_.string()}, "is the same file as"},
        {{"--sweep", input}, "--out"},
    };
    for (const auto& b : table) {
      std::vector<std::string> argv{DLB_EXPECTED_BIN};
      argv.insert(argv.end(), b.argv.begin(), b.argv.end());
      const auto r = run(argv);
      EXPECT_EQ(r.code, 2) << b.message << ": " << r.err;
      EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
    }
  }

  // The report of the sim summary: the backend of every number, and the cross-check section
  // against the pvm one.
  void expect_report_with_crosscheck(const fs::path& sim, const fs::path& pvm) {
    const fs::path paper = dir_ / "paper";
    fs::create_directories(paper);
    std::ofstream(paper / "table1_1_mxm_nodlb.csv") << "P,n,r,m,time_s\n4,400,400,400,143.7\n";
    std::ofstream(paper / "table1_2_trfd_nodlb.csv") << "P,n,array,time_s\n4,30,465,31.4\n";
    std::ofstream(paper / "table1_3_ac_nodlb.csv") << "P,n,time_s\n4,100,58.1\n";
    std::ofstream(paper / "table1_4_best.csv")
        << "app,P,size,loop,actual_best,predicted_best,diff_s,"
           "diff_pct\nMXM,4,n=400 r=400,,GDDLB,GDDLB,,\n";
    const fs::path report = dir_ / "report.md";
    auto r = run({DLB_REPORT_BIN, "--summary", sim.string() + ".summary.csv", "--results",
                  sim.string(), "--paper-dir", paper.string(), "--out", report.string(),
                  "--crosscheck", pvm.string() + ".summary.csv"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = slurp(report);
    EXPECT_NE(text.find("Backend of the numbers below: sim"), std::string::npos) << text;
    EXPECT_NE(text.find("| 4 | n=400 r=400 m=400 | 143.7 |"), std::string::npos) << text;
    EXPECT_NE(text.find(" | sim |\n"), std::string::npos) << text;
    EXPECT_NE(text.find("## Cross-check on another backend"), std::string::npos) << text;
    EXPECT_NE(text.find("Some configurations run again on pvm"), std::string::npos) << text;
    // Paired seed for seed: with --crosscheck-base the cross-check is set beside that summary.
    r = run({DLB_REPORT_BIN, "--summary", sim.string() + ".summary.csv", "--results", sim.string(),
             "--paper-dir", paper.string(), "--out", report.string(), "--crosscheck",
             pvm.string() + ".summary.csv", "--crosscheck-base", pvm.string() + ".summary.csv"});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string paired = slurp(report);
    EXPECT_NE(paired.find("beside the same configurations and seeds on pvm"), std::string::npos)
        << paired;
    EXPECT_NE(paired.find("max 0.00%"), std::string::npos)
        << "a summary against itself: " << paired;
    r = run({DLB_REPORT_BIN, "--summary", sim.string() + ".summary.csv", "--results", sim.string(),
             "--paper-dir", paper.string(), "--out", report.string(), "--crosscheck",
             pvm.string() + ".summary.csv", "--crosscheck-base", (dir_ / "nobase.csv").string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("nobase.csv"), std::string::npos) << r.err;
    r = run({DLB_REPORT_BIN, "--summary", sim.string() + ".summary.csv", "--results", sim.string(),
             "--paper-dir", paper.string(), "--out", report.string(), "--crosscheck",
             (dir_ / "nope.csv").string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("nope.csv"), std::string::npos) << r.err;
  }

  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "sweep_driver_XXXXXX").string();
    dir_ = ::mkdtemp(t.data());
    bin_ = dir_ / "bin";
    fs::create_directories(bin_);
    // Wrappers named like the apps; `bash script` does not depend on the fixture's exec bit.
    for (const std::string app : {"mxm", "trfd", "ac"}) {
      const fs::path w = bin_ / app;
      std::ofstream(w) << "#!/bin/sh\nexec bash '" SWEEP_FIXTURES_DIR "/fake_dlb_app.sh' " << app
                       << " \"$@\"\n";
      fs::permissions(w, fs::perms::owner_all);
    }
    results_ = dir_ / "results.csv";
    invocations_ = dir_ / "invocations.log";
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name) << text;
    return dir_ / name;
  }

  std::vector<std::string> sweep_args(const fs::path& config) {
    return {DLB_SWEEP_BIN, "--config",    config.string(), "--out", results_.string(),
            "--bin-dir",   bin_.string(), "--grace",       "1"};
  }

  pid_t spawn(const std::vector<std::string>& argv, const env_list& env, const std::string& tag) {
    const std::string out = (dir_ / (tag + ".out")).string();
    const std::string err = (dir_ / (tag + ".err")).string();
    const pid_t pid = ::fork();
    if (pid == 0) {
      for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      ::setenv("FAKE_APP_LOG", invocations_.c_str(), 1);
      std::freopen(out.c_str(), "w", stdout);
      std::freopen(err.c_str(), "w", stderr);
      std::vector<char*> a;
      for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
      a.push_back(nullptr);
      ::execv(a[0], a.data());
      ::_exit(127);
    }
    return pid;
  }

  run_result finish(pid_t pid, const std::string& tag) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    run_result r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    r.out = slurp(dir_ / (tag + ".out"));
    r.err = slurp(dir_ / (tag + ".err"));
    return r;
  }

  run_result run(const std::vector<std::string>& argv, const env_list& env = {}) {
    const std::string tag = "run" + std::to_string(++runs_);
    return finish(spawn(argv, env, tag), tag);
  }

  csv_table results() const { return dlb::sweep::read_csv_table(results_); }

  std::map<std::string, int> key_counts(const csv_table& t) const {
    std::map<std::string, int> n;
    for (const auto& row : t.rows) ++n[dlb::sweep::row_key(t, row)];
    return n;
  }

  std::vector<std::string> invocations() const { return lines_of(slurp(invocations_)); }

  // Waits until the results file holds at least n rows.
  bool wait_rows(std::size_t n, std::chrono::seconds limit) {
    const auto end = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < end) {
      try {
        if (fs::exists(results_) && results().rows.size() >= n) return true;
      } catch (const std::exception&) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  // Waits until no process of this test's fake apps is left (each carries FAKE_APP_LOG, naming
  // this test's own log, in its environment).
  bool wait_orphans_gone(std::chrono::seconds limit) const {
    const std::string needle = "FAKE_APP_LOG=" + invocations_.string();
    const auto end = std::chrono::steady_clock::now() + limit;
    for (;;) {
      bool any = false;
      for (const auto& e : fs::directory_iterator("/proc")) {
        const std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        const pid_t pid = static_cast<pid_t>(std::stol(name));
        if (pid == ::getpid()) continue;
        std::ifstream env(e.path() / "environ", std::ios::binary);
        for (std::string var; std::getline(env, var, '\0');)
          if (var == needle && alive(pid)) any = true;
      }
      if (!any) return true;
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  fs::path dir_, bin_, results_, invocations_;
  int runs_ = 0;
};

}  // namespace

TEST_F(SweepDriver, RunsEveryRunOnceWithProgressAndPairedSeeds) {
  const auto r = run(sweep_args(write("t.conf", kTwentyRuns)), {{"FAKE_APP_SLEEP", "0.02"}});
  ASSERT_EQ(r.code, 0) << r.err;
  const csv_table t = results();
  ASSERT_EQ(t.rows.size(), 20u);
  for (const auto& [k, n] : key_counts(t)) EXPECT_EQ(n, 1) << k;
  for (const auto& row : t.rows) EXPECT_EQ(t.field(row, "status"), "ok");
  EXPECT_EQ(invocations().size(), 20u);

  expect_progress(r.err);

  // Paired runs: within a (configuration, repetition) every strategy ran with one load seed,
  // and each repetition has its own.
  std::map<std::string, std::set<std::string>> seeds;
  std::set<std::string> per_rep;
  for (const auto& row : t.rows) {
    const std::string config =
        std::string(t.field(row, "app")) + " " + std::string(t.field(row, "size"));
    seeds[config + " rep" + std::string(t.field(row, "rep"))].insert(
        std::string(t.field(row, "seed")));
    per_rep.insert(config + " seed" + std::string(t.field(row, "seed")));
  }
  EXPECT_EQ(seeds.size(), 4u);
  for (const auto& [k, s] : seeds) EXPECT_EQ(s.size(), 1u) << k;
  EXPECT_EQ(per_rep.size(), 4u);
  // ... and the seed really reached the app: every strategy was invoked with seeds 5 and 6.
  for (const std::string s : {"NONE", "GCDLB", "GDDLB", "LCDLB", "LDDLB"}) {
    for (const std::string seed : {"seed=5", "seed=6"}) {
      int n = 0;
      for (const auto& l : invocations())
        n += l.find("mxm " + s + " ") == 0 && l.find(seed) != std::string::npos;
      EXPECT_EQ(n, 1) << s << " " << seed;
    }
  }

  // The header describes the file.
  for (const std::string key : {"revision", "compiler", "pvm_version", "host", "date", "command",
                                "clock", "scale", "network", "units", "columns"}) {
    EXPECT_TRUE(t.meta(key).has_value()) << key;
  }
  EXPECT_EQ(*t.meta("clock"), "emulated");
  EXPECT_NE(std::find(t.comments.begin(), t.comments.end(), "config| seeds = 5 6"),
            t.comments.end());

  // Everything recorded: running again runs nothing.
  const auto again = run(sweep_args(dir_ / "t.conf"));
  EXPECT_EQ(again.code, 0);
  EXPECT_NE(again.err.find("20 already recorded"), std::string::npos) << again.err;
  EXPECT_EQ(results().rows.size(), 20u);
  EXPECT_EQ(invocations().size(), 20u);
}

TEST_F(SweepDriver, ParallelJobsStillRecordEachRunOnce) {
  auto args = sweep_args(write("t.conf", kTwentyRuns));
  args.insert(args.end(), {"--jobs", "2"});
  const auto r = run(args, {{"FAKE_APP_SLEEP", "0.05"}});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto counts = key_counts(results());
  EXPECT_EQ(counts.size(), 20u);
  for (const auto& [k, n] : counts) EXPECT_EQ(n, 1) << k;
}

TEST_F(SweepDriver, FailedUnverifiedAndTimedOutRunsAreRecordedAndExcludedFromTheSummary) {
  std::string conf = kTwentyRuns;
  conf += "timeout = 1\n";  // in the trfd section
  const fs::path pidfile = dir_ / "sleeper.pid";
  const auto r = run(sweep_args(write("t.conf", conf)), {{"FAKE_APP_SLEEP", "0.02"},
                                                         {"FAKE_APP_FAIL", "mxm:GCDLB:*"},
                                                         {"FAKE_APP_UNVERIFIED", "mxm:LCDLB:5"},
                                                         {"FAKE_APP_HANG", "trfd:LDDLB:6"},
                                                         {"FAKE_APP_PIDFILE", pidfile.string()}});
  ASSERT_EQ(r.code, 0) << r.err;
  const csv_table t = results();
  ASSERT_EQ(t.rows.size(), 20u);
  std::map<std::string, std::string> status = statuses(t);  // "app strategy seed" -> status
  EXPECT_EQ(status["mxm GCDLB 5"], "failed");
  EXPECT_EQ(status["mxm GCDLB 6"], "failed");
  EXPECT_EQ(status["mxm LCDLB 5"], "unverified");
  EXPECT_EQ(status["mxm LCDLB 6"], "ok");
  EXPECT_EQ(status["trfd LDDLB 6"], "timeout");
  EXPECT_EQ(status["trfd LDDLB 5"], "ok");
  for (const auto& row : t.rows) {
    if (t.field(row, "status") == "timeout") {
      EXPECT_EQ(t.field(row, "exit"), "timeout");
    }
    if (t.field(row, "status") == "failed") {
      EXPECT_EQ(t.field(row, "note"), "exit status 3");
    }
  }
  // The hung run's whole process group was ended, including the sleeper it started.
  const pid_t sleeper = std::stoi(slurp(pidfile));
  for (int i = 0; i < 100 && alive(sleeper); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(alive(sleeper));

  const fs::path summary = dir_ / "summary.csv";
  const auto s = run({DLB_SUMMARY_BIN, "--results", results_.string(), "--out", summary.string()});
  ASSERT_EQ(s.code, 0) << s.err;
  const csv_table st = dlb::sweep::read_csv_table(summary);
  EXPECT_EQ(st.meta("excluded").value_or(""), "2 failed, 1 timeout, 1 unverified");
  EXPECT_EQ(st.meta("used").value_or(""), "16 ok runs");
  std::map<std::string, std::string> runs = runs_used(st);
  EXPECT_EQ(runs.count("mxm GCDLB"), 0u);
  EXPECT_EQ(runs["mxm LCDLB"], "1");
  EXPECT_EQ(runs["trfd LDDLB"], "1");
  EXPECT_EQ(runs["mxm GDDLB"], "2");

  // --retry-failed runs the non-ok runs again (here they now succeed); their last row counts.
  auto retry = sweep_args(dir_ / "t.conf");
  retry.push_back("--retry-failed");
  const auto again = run(retry, {{"FAKE_APP_SLEEP", "0.01"}});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("16 already recorded"), std::string::npos) << again.err;
  EXPECT_EQ(results().rows.size(), 24u);
  ASSERT_EQ(run({DLB_SUMMARY_BIN, "--results", results_.string(), "--out", summary.string()}).code,
            0);
  const csv_table st2 = dlb::sweep::read_csv_table(summary);
  EXPECT_EQ(st2.meta("excluded").value_or(""), "none");
  EXPECT_EQ(st2.meta("used").value_or(""), "20 ok runs");
}

// --skip-after-timeout: a policy that ran out of time at one P is not run at a larger P of the
// same program (in this call, and when the sweep is resumed); other policies and programs run.
TEST_F(SweepDriver, SkipsLargerRunsOfAPolicyThatRanOutOfTime) {
  const fs::path conf = write("t.conf", R"(procs = 4 8 16
group = 4:2 8:4 16:8
strategies = NONE LDDLB
seeds = 5
timeout = 0.3

[app trfd]
sizes = n=30

[app mxm]
sizes = n=400 r=400 m=400
)");
  auto args = sweep_args(conf);
  args.push_back("--skip-after-timeout");
  const env_list env{{"FAKE_APP_SLEEP", "0.01"}, {"FAKE_APP_HANG", "trfd:LDDLB:*"}};
  const auto r = run(args, env);
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, std::string> status;  // "app strategy P" -> status
  for (const auto& row : results().rows) {
    status[std::string(results().field(row, "app")) + " " +
           std::string(results().field(row, "strategy")) + " " +
           std::string(results().field(row, "P"))] = std::string(results().field(row, "status"));
  }
  EXPECT_EQ(status.size(), 10u);
  EXPECT_EQ(status["trfd LDDLB 4"], "timeout");
  EXPECT_EQ(status.count("trfd LDDLB 8"), 0u);
  EXPECT_EQ(status.count("trfd LDDLB 16"), 0u);
  EXPECT_EQ(status["trfd NONE 16"], "ok");
  EXPECT_EQ(status["mxm LDDLB 16"], "ok");
  EXPECT_NE(r.err.find("not run (trfd P=8 K=4 n=30 LDDLB"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("LDDLB at P = 4 did not finish within its time bound"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("2 not run (after a timeout)"), std::string::npos) << r.err;
  // Resumed, the recorded timeout still keeps them out; nothing else is left to run.
  const auto again = run(args, env);
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.err.find("2 not run (after a timeout)"), std::string::npos) << again.err;
  EXPECT_EQ(results().rows.size(), 10u);
}

// cpu_timeout: a run that computes past its CPU seconds is stopped and recorded as timeout long
// before its wall-time bound, whatever else the machine runs.
TEST_F(SweepDriver, StopsARunAtItsCpuTimeBound) {
  const fs::path conf = write("t.conf", R"(procs = 4
group = 4:2
strategies = NONE LDDLB
seeds = 5
timeout = 60
cpu_timeout = 0.2

[app trfd]
sizes = n=30
)");
  const auto start = std::chrono::steady_clock::now();
  const auto r =
      run(sweep_args(conf), {{"FAKE_APP_SLEEP", "0.01"}, {"FAKE_APP_SPIN", "trfd:LDDLB:*"}});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(50));
  std::map<std::string, std::string> status;
  for (const auto& row : results().rows)
    status[std::string(results().field(row, "strategy"))] =
        std::string(results().field(row, "status"));
  EXPECT_EQ(status["NONE"], "ok");
  EXPECT_EQ(status["LDDLB"], "timeout");
}

TEST_F(SweepDriver, ResumesAfterSigintWithoutRepeatingOrLosingRuns) {
  const auto args = sweep_args(write("t.conf", kTwentyRuns));
  const pid_t pid = spawn(args, {{"FAKE_APP_SLEEP", "0.25"}}, "first");
  ASSERT_TRUE(wait_rows(3, std::chrono::seconds(30)));
  ::kill(pid, SIGINT);
  const auto first = finish(pid, "first");
  EXPECT_EQ(first.code, 130) << first.err;
  EXPECT_NE(first.err.find("interrupted"), std::string::npos);
  EXPECT_NE(first.err.find("run the same command again to resume"), std::string::npos);

  dlb::sweep::csv_read_info info;
  const csv_table before = dlb::sweep::read_csv_table(results_, &info);
  EXPECT_FALSE(info.dropped_partial_line);
  const std::size_t recorded = before.rows.size();
  ASSERT_GE(recorded, 3u);
  ASSERT_LT(recorded, 20u);
  const std::size_t started = invocations().size();
  EXPECT_LE(started - recorded, 1u);  // at most the run that was interrupted

  const auto second = run(args, {{"FAKE_APP_SLEEP", "0.01"}});
  ASSERT_EQ(second.code, 0) << second.err;
  EXPECT_NE(second.err.find(std::to_string(recorded) + " already recorded"), std::string::npos);
  const csv_table after = results();
  EXPECT_EQ(after.rows.size(), 20u);
  for (const auto& [k, n] : key_counts(after)) EXPECT_EQ(n, 1) << k;
  // Finished runs were kept as they were and not run again.
  for (std::size_t i = 0; i < recorded; ++i) EXPECT_EQ(after.rows[i], before.rows[i]);
  EXPECT_EQ(invocations().size(), started + (20 - recorded));
  EXPECT_EQ(after.meta_all("resumed").size(), 1u);
}

TEST_F(SweepDriver, ResumesAfterTheDriverIsKilledOutright) {
  const auto args = sweep_args(write("t.conf", kTwentyRuns));
  const pid_t pid = spawn(args, {{"FAKE_APP_SLEEP", "0.2"}}, "first");
  ASSERT_TRUE(wait_rows(2, std::chrono::seconds(30)));
  ::kill(pid, SIGKILL);
  finish(pid, "first");
  // The orphaned run (the fake app the killed driver had started) ends by itself: wait until it
  // has, bounded, rather than for a fixed time that a loaded machine may overrun.
  ASSERT_TRUE(wait_orphans_gone(std::chrono::seconds(30))) << "the orphaned run is still running";
  const std::size_t recorded = results().rows.size();
  const auto second = run(args, {{"FAKE_APP_SLEEP", "0.01"}});
  ASSERT_EQ(second.code, 0) << second.err;
  const csv_table after = results();
  EXPECT_EQ(after.rows.size(), 20u);
  for (const auto& [k, n] : key_counts(after)) EXPECT_EQ(n, 1) << k;
  EXPECT_GE(recorded, 2u);
}

TEST_F(SweepDriver, DropsACutShortLastLineAndRerunsOnlyThatRun) {
  const auto args = sweep_args(write("t.conf", kTwentyRuns));
  ASSERT_EQ(run(args, {{"FAKE_APP_SLEEP", "0.01"}}).code, 0);
  // A crash while the last row was being written: cut it short.
  const auto size = fs::file_size(results_);
  fs::resize_file(results_, size - 25);
  const auto r = run(args, {{"FAKE_APP_SLEEP", "0.01"}});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("dropped a cut-short last line"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("19 already recorded"), std::string::npos) << r.err;
  dlb::sweep::csv_read_info info;
  const csv_table t = dlb::sweep::read_csv_table(results_, &info);
  EXPECT_FALSE(info.dropped_partial_line);
  EXPECT_EQ(t.rows.size(), 20u);
  for (const auto& [k, n] : key_counts(t)) EXPECT_EQ(n, 1) << k;
  EXPECT_EQ(invocations().size(), 21u);
}

TEST_F(SweepDriver, DryRunPrintsThePlanAndWritesNothing) {
  auto args = sweep_args(write("t.conf", kTwentyRuns));
  args.push_back("--dry-run");
  const auto r = run(args);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(results_));
  const auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 20u);
  EXPECT_NE(lines[0].find("run 1 of 20 [to run, timeout 30 s] " + bin_.string() +
                          "/mxm --strategy NONE --procs 4 --group 2 --seed 5"),
            std::string::npos)
      << lines[0];
  EXPECT_TRUE(invocations().empty());
}

TEST_F(SweepDriver, UsageAndConfigErrorsExitTwoWithAClearMessage) {
  auto r = run(sweep_args(write("bad.conf", "procs = 4\ncolour = red\n")));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.conf:2: unknown key 'colour'"), std::string::npos) << r.err;

  r = run({DLB_SWEEP_BIN, "--config", (dir_ / "t.conf").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--out is required"), std::string::npos);

  r = run({DLB_SWEEP_BIN, "--config", write("t.conf", kTwentyRuns).string(), "--out",
           results_.string(), "--bin-dir", dir_.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is not an executable file"), std::string::npos) << r.err;

  r = run({DLB_SWEEP_BIN, "--frobnicate"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown option '--frobnicate'"), std::string::npos);

  r = run({DLB_SUMMARY_BIN, "--out", "x.csv"});
  EXPECT_EQ(r.code, 2);
  r = run({DLB_REPORT_BIN, "--summary", "s.csv", "--results", "r.csv", "--out", "x.md",
           "--paper-dir", (dir_ / "nowhere").string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("paper directory"), std::string::npos);
  r = run({DLB_PLOT_LOAD_BIN, "--out-dir", dir_.string(), "--seed", "1"});
  EXPECT_EQ(r.code, 2);
}

// dlb_expected: expected values derived from a sweep of 3 seeds (every subset of 2), a run of
// the same results checked within them, a moved band reported OUTSIDE (exit 1), and bad input
// refused naming it (exit 2) with nothing written over an input.
TEST_F(SweepDriver, ExpectedValuesDerivedAndChecked) {
  const char* config = R"(procs = 4
group = 4:2
strategies = NONE GCDLB GDDLB
repetitions = 3
seeds = 1 2 3
timeout = 30

[app mxm]
sizes = n=400 r=400 m=400
)";
  auto r = run(sweep_args(write("t.conf", config)), {{"FAKE_APP_SLEEP", "0"}});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string expected = (dir_ / "expected.csv").string();
  const std::string input = "s=" + results_.string();
  r = run({DLB_EXPECTED_BIN, "--sweep", input, "--subset", "2", "--out", expected, "--markdown",
           (dir_ / "expected.md").string()});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto rows = dlb::sweep::read_csv_table(expected);
  ASSERT_GE(rows.rows.size(), 3u);  // GCDLB's and GDDLB's normalized time, NONE's time, runs
  EXPECT_NE(rows.meta("command")->find("--subset 2"), std::string::npos);
  EXPECT_NE(slurp(dir_ / "expected.md").find("| s norm MXM P=4 n=400 r=400 m=400 GCDLB |"),
            std::string::npos);

  r = run({DLB_EXPECTED_BIN, "--sweep", input, "--expected", expected});
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto out = lines_of(r.out);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.back(), "expected results: " + std::to_string(rows.rows.size()) + " of " +
                            std::to_string(rows.rows.size()) + " within tolerance");

  // A band that excludes the run (in a file sealed again as dlb_expected seals it: its last
  // line, the row count and the SHA-256 of the rest): the check says OUTSIDE and exits 1.
  std::string text = slurp(expected);
  text.erase(text.rfind("# integrity: "));
  text = std::regex_replace(text, std::regex(R"(,number,([^,]*),[^,]*,[^,]*,)"),
                            ",number,$1,100,200,");
  const auto moved =
      write("moved.csv", text + "# integrity: rows=" + std::to_string(rows.rows.size()) +
                             " sha256=" + dlb::sweep::sha256_hex(text) + "\n");
  r = run({DLB_EXPECTED_BIN, "--sweep", input, "--expected", moved.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("OUTSIDE s norm MXM"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("expected results: 0 of"), std::string::npos) << r.out;

  expect_bad_input_refused(input, expected);
  EXPECT_EQ(dlb::sweep::read_csv_table(results_).rows.size(), 9u);  // the input is intact
}

TEST_F(SweepDriver, ShippedConfigsParse) {
  for (const std::string name : {"quick.conf", "full.conf", "paper.conf", "crosscheck.conf",
                                 "quick-check.conf", "quick-mpi.conf"}) {
    auto r = run({DLB_SWEEP_BIN, "--config", std::string(SWEEP_CONFIGS_DIR) + "/" + name, "--out",
                  results_.string(), "--bin-dir", bin_.string(), "--dry-run"});
    EXPECT_EQ(r.code, 0) << name << ": " << r.err;
    const std::size_t at_least = name == "quick-mpi.conf"    ? 1u
                                 : name == "crosscheck.conf" ? 10u
                                                             : 50u;
    EXPECT_GT(lines_of(r.out).size(), at_least) << name;
    const bool sim = name == "paper.conf" || name == "quick-check.conf";
    for (const auto& l : lines_of(r.out)) {
      EXPECT_NE(l.find(sim ? "--backend sim" : "--backend pvm"), std::string::npos) << l;
    }
  }
  // paper.conf: all 28 rows of Table 1.4 (22 configurations under load), 6 strategies, 5 seeds.
  auto r = run({DLB_SWEEP_BIN, "--config", std::string(SWEEP_CONFIGS_DIR) + "/paper.conf", "--out",
                results_.string(), "--bin-dir", bin_.string(), "--dry-run"});
  std::size_t loaded = 0;
  for (const auto& l : lines_of(r.out)) loaded += l.find("--ml 5 ") != std::string::npos;
  EXPECT_EQ(loaded, 22u * 6u * 5u);
}

TEST_F(SweepDriver, SimRunsShareTheMachineAndEmulatedPvmRunsRunAlone) {
  // Wrappers that log when each run starts and ends (nanoseconds).
  const fs::path times = dir_ / "times.log";
  for (const std::string app : {"mxm", "trfd"}) {
    std::ofstream(bin_ / app) << "#!/bin/sh\necho \"start " << app << " $(date +%s%N)\" >>'"
                              << times.string() << "'\nbash '" SWEEP_FIXTURES_DIR
                              << "/fake_dlb_app.sh' " << app << " \"$@\"\nrc=$?\necho \"end " << app
                              << " $(date +%s%N)\" >>'" << times.string() << "'\nexit $rc\n";
  }
  // mxm on sim, trfd on PVM (emulated clock), interleaved in the plan.
  const std::string conf =
      "procs = 4\nstrategies = NONE GDDLB LDDLB\nseeds = 1\n"
      "[app mxm]\nbackend = sim\nsizes = n=400 r=400 m=400\n"
      "[app trfd]\nsizes = n=30\n"
      "[app mxm]\nbackend = sim\nsizes = n=800 r=400 m=400\n";
  auto args = sweep_args(write("b.conf", conf));
  args.insert(args.end(), {"--jobs", "2"});
  const auto r = run(args, {{"FAKE_APP_SLEEP", "0.4"}});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto t = results();
  ASSERT_EQ(t.rows.size(), 9u);
  std::map<std::string, int> by_backend;
  for (const auto& row : t.rows) {
    EXPECT_EQ(t.field(row, "status"), "ok") << t.field(row, "note");
    ++by_backend[std::string(t.field(row, "app")) + ":" + std::string(t.field(row, "backend"))];
  }
  EXPECT_EQ(by_backend["mxm:sim"], 6);
  EXPECT_EQ(by_backend["trfd:pvm"], 3);
  for (const auto& l : invocations()) {
    EXPECT_NE(l.find(l.rfind("mxm", 0) == 0 ? "backend=sim" : "backend=pvm"), std::string::npos)
        << l;
  }
  expect_only_sims_overlap(times);
}

TEST_F(SweepDriver, BackendOptionOverridesTheConfigAndTheEchoIsChecked) {
  const fs::path conf = write("t.conf", kTwentyRuns);
  auto args = sweep_args(conf);
  args.insert(args.end(), {"--backend", "sim", "--dry-run"});
  auto r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  for (const auto& l : lines_of(r.out)) EXPECT_NE(l.find("--backend sim"), std::string::npos) << l;

  args = sweep_args(conf);
  args.insert(args.end(), {"--backend", "simgrid"});
  r = run(args);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--backend must be pvm, sim or mpi, got 'simgrid'"), std::string::npos)
      << r.err;

  // An app that ran on another backend than asked: the run is failed, with the reason.
  args = sweep_args(
      write("one.conf", "procs = 4\nstrategies = NONE\nbackend = sim\n[app ac]\nsizes = n=10\n"));
  r = run(args, {{"FAKE_APP_ECHO_BACKEND", "pvm"}});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto t = results();
  ASSERT_EQ(t.rows.size(), 1u);
  EXPECT_EQ(t.field(t.rows[0], "status"), "failed");
  EXPECT_EQ(t.field(t.rows[0], "note"), "RESULT backend=pvm but the run asked for sim");
  // The same run on the other backend is another run: resuming with --backend pvm runs it.
  args.insert(args.end(), {"--backend", "pvm"});
  r = run(args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("1 runs planned, 0 already recorded"), std::string::npos) << r.err;
  EXPECT_EQ(results().rows.size(), 2u);
}

TEST_F(SweepDriver, AgreementAndCrossCheckCompareTwoBackends) {
  const fs::path conf = write("t.conf", kTwentyRuns);
  const fs::path sim = dir_ / "sim.csv", pvm = dir_ / "pvm.csv";
  for (const auto& [backend, out] : {std::pair{"sim", sim}, std::pair{"pvm", pvm}}) {
    auto args = sweep_args(conf);
    args[4] = out.string();
    args.insert(args.end(), {"--backend", backend, "--jobs", "2"});
    ASSERT_EQ(run(args, {{"FAKE_APP_SLEEP", "0.01"}, {"FAKE_APP_SIM_FACTOR", "1.02"}}).code, 0);
    const fs::path summary = out.string() + ".summary.csv";
    ASSERT_EQ(run({DLB_SUMMARY_BIN, "--results", out.string(), "--out", summary.string()}).code, 0);
  }
  // dlb_agreement lives next to dlb_summary.
  const std::string agreement =
      (fs::path(DLB_SUMMARY_BIN).parent_path() / "dlb_agreement").string();
  ASSERT_TRUE(fs::exists(agreement)) << agreement;
  const fs::path md = dir_ / "agreement.md";
  auto r = run({agreement, "--a", sim.string() + ".summary.csv", "--b",
                pvm.string() + ".summary.csv", "--out", md.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  // The fake app's sim times are 2% longer for DLB strategies: 0.65 -> 0.663 etc.
  EXPECT_NE(r.out.find("Agreement of sim"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pairs compared: 8 (unmatched: 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("**met**"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(md), r.out);
  r = run(
      {agreement, "--a", (dir_ / "missing.csv").string(), "--b", pvm.string() + ".summary.csv"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("missing.csv"), std::string::npos) << r.err;
  r = run({agreement, "--a", sim.string(), "--b", pvm.string() + ".summary.csv"});
  EXPECT_EQ(r.code, 2);  // a results file is not a summary
  EXPECT_NE(r.err.find("not a dlb_summary file"), std::string::npos) << r.err;

  expect_report_with_crosscheck(sim, pvm);
}

TEST_F(SweepDriver, PipelineProducesSummaryFiguresAndReport) {
  std::string conf = kTwentyRuns;
  conf +=
      "\n[app trfd]\nsizes = n=40\n\n[app mxm]\nml = 0\nrepetitions = 1\nsizes = n=400 r=400 "
      "m=400\n";
  ASSERT_EQ(run(sweep_args(write("t.conf", conf)), {{"FAKE_APP_SLEEP", "0.01"}}).code, 0);
  const fs::path summary = dir_ / "summary.csv";
  const fs::path figures = dir_ / "out" / "figures";
  ASSERT_EQ(run({DLB_SUMMARY_BIN, "--results", results_.string(), "--out", summary.string()}).code,
            0);
  auto p =
      run({DLB_PLOT_NORMALIZED_BIN, "--summary", summary.string(), "--out-dir", figures.string()});
  ASSERT_EQ(p.code, 0) << p.err;
  p = run({DLB_PLOT_LOAD_BIN, "--out-dir", figures.string(), "--seed", "3", "--slave", "0", "--tl",
           "1", "--ml", "5", "--duration", "20", "--write-csv", (dir_ / "load.csv").string()});
  ASSERT_EQ(p.code, 0) << p.err;
  p = run({DLB_PLOT_LOAD_BIN, "--out-dir", figures.string(), "--csv", (dir_ / "load.csv").string(),
           "--name", "load_from_csv", "--formats", "png"});
  ASSERT_EQ(p.code, 0) << p.err;
  for (const std::string f :
       {"fig1_7_mxm.png", "fig1_7_mxm.svg", "fig1_9_trfd.png", "fig1_9_trfd.svg", "fig1_3_load.png",
        "fig1_3_load.svg", "load_from_csv.png"}) {
    EXPECT_GT(fs::file_size(figures / f), 1000u) << f;
  }
  const std::string png = slurp(figures / "fig1_7_mxm.png");
  EXPECT_EQ(png.substr(1, 3), "PNG");
  EXPECT_EQ(lines_of(slurp(dir_ / "load.csv")).size(), 22u);  // comment, header, 20 blocks

  const fs::path paper = dir_ / "paper";
  fs::create_directories(paper);
  std::ofstream(paper / "table1_1_mxm_nodlb.csv") << "P,n,r,m,time_s\n4,400,400,400,143.7\n";
  std::ofstream(paper / "table1_2_trfd_nodlb.csv")
      << "P,n,array,time_s\n4,30,465,31.4\n4,40,820,111.6\n";
  std::ofstream(paper / "table1_3_ac_nodlb.csv") << "P,n,time_s\n4,100,58.1\n";
  std::ofstream(paper / "table1_4_best.csv") << "app,P,size,loop,actual_best,predicted_best,diff_s,"
                                                "diff_pct\nMXM,4,n=400 r=400,,GDDLB,GDDLB,,\n";
  const fs::path report = dir_ / "out" / "report.md";
  const auto rep =
      run({DLB_REPORT_BIN, "--summary", summary.string(), "--results", results_.string(),
           "--paper-dir", paper.string(), "--figures", figures.string(), "--out", report.string(),
           "--command", "dlb_plot_normalized ..."});
  ASSERT_EQ(rep.code, 0) << rep.err;
  const std::string md = slurp(report);
  EXPECT_NE(md.find("| 4 | n=400 r=400 m=400 | 143.7 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| M1 | **holds** |"), std::string::npos);  // the fake app: GDDLB, GCDLB
  EXPECT_NE(md.find("| T1 | **does not hold** |"), std::string::npos);  // GDDLB best at every n
  EXPECT_NE(md.find("| O1 | **holds** |"), std::string::npos);          // ml=0 runs: one sync
  EXPECT_NE(md.find("](figures/fig1_7_mxm.png)"), std::string::npos);
  EXPECT_NE(md.find("dlb_plot_normalized ...\n"), std::string::npos);
  EXPECT_NE(md.find("no run lagged more than 1%"), std::string::npos);
  // Each claim judged over the seeds: one line per claim on stdout, a section in the report.
  EXPECT_NE(rep.out.find("M1 reproduced (halves -): strict holds (1)"), std::string::npos)
      << rep.out;
  EXPECT_NE(rep.out.find("T1 refuted (halves -): strict does not hold (0)"), std::string::npos)
      << rep.out;
  EXPECT_NE(md.find("## Each claim judged by the symmetric rule"), std::string::npos);
}

TEST_F(SweepDriver, PlotsAHandMadeSummaryWithErrorBars) {
  const fs::path figures = dir_ / "figures";
  const auto r = run({DLB_PLOT_NORMALIZED_BIN, "--summary",
                      std::string(SWEEP_FIXTURES_DIR) + "/sweep_summary_example.csv", "--out-dir",
                      figures.string(), "--formats", "svg"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string svg = slurp(figures / "fig1_7_mxm.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  for (const std::string text :
       {"P=4, K=2, r=400 m=400", "P=16, K=8, r=400 m=400", "GDDLB", "no DLB = 1", "n=1600"}) {
    EXPECT_NE(svg.find(text), std::string::npos) << text;
  }
  EXPECT_FALSE(fs::exists(figures / "fig1_9_trfd.svg"));  // no TRFD in the summary: no figure
  const auto none = run({DLB_PLOT_NORMALIZED_BIN, "--summary",
                         std::string(SWEEP_FIXTURES_DIR) + "/sweep_summary_example.csv",
                         "--out-dir", figures.string(), "--apps", "ac"});
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.find("no ac runs under external load"), std::string::npos) << none.err;
}
