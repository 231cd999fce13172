// The library reports through the sink a program gives run_app, never to a stream of its own:
// the help text, AUTO's notice, a usage error and a failed run's error all reach the sink, and
// nothing reaches stdout or stderr (simulated backend: every task in this process).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "dlb/dlb.hpp"

namespace {

struct captured {
  std::vector<std::pair<dlb::report_kind, std::string>> lines;
  dlb::report_sink sink() {
    return [this](dlb::report_kind k, const std::string& line) { lines.emplace_back(k, line); };
  }
  bool has(dlb::report_kind k, const std::string& part) const {
    for (const auto& [kind, line] : lines)
      if (kind == k && line.find(part) != std::string::npos) return true;
    return false;
  }
};

int small_loop(dlb::runtime& rt) {
  std::vector<double> y(64, 0.0);
  auto Y = dlb::DLB_array::of("y", y.data(), 64, 1, dlb::data_distribution::block);
  Y.input = false;
  Y.output = true;
  dlb::loop_spec loop{64, [](std::int64_t i) { return 0.01 * static_cast<double>(1 + i % 7); }};
  dlb::parallel_for(rt, loop, {&Y}, [&](std::int64_t i) { y[static_cast<std::size_t>(i)] = 1.0; });
  if (rt.master())
    for (double v : y)
      if (v != 1.0) throw dlb::run_error("a result is missing");
  return 0;
}

// Runs `args` in-process with a capturing sink; returns the exit code and what reached the
// standard streams.
int run(const std::vector<std::string>& args, captured& c, std::string& out, std::string& err,
        const dlb::app_body& body = small_loop) {
  std::vector<std::string> argv_s{"sinktest"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int rc =
      dlb::run_app(static_cast<int>(argv.size()), argv.data(),
                   {"sinktest", "a loop for the report sink", {}, nullptr}, body, c.sink());
  out = testing::internal::GetCapturedStdout();
  err = testing::internal::GetCapturedStderr();
  return rc;
}

TEST(ReportSink, HelpGoesToTheSinkAsOutput) {
  captured c;
  std::string out, err;
  EXPECT_EQ(run({"--help"}, c, out, err), 0);
  EXPECT_TRUE(c.has(dlb::report_kind::output, "usage: sinktest"));
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
}

TEST(ReportSink, AutoNoticeGoesToTheSink) {
  captured c;
  std::string out, err;
  EXPECT_EQ(
      run({"--backend", "sim", "--procs", "4", "--strategy", "AUTO", "--seed", "2"}, c, out, err),
      0);
  EXPECT_TRUE(c.has(dlb::report_kind::notice, "AUTO at t ="));
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
}

TEST(ReportSink, UsageErrorGoesToTheSink) {
  captured c;
  std::string out, err;
  EXPECT_EQ(run({"--backend", "sim", "--procs", "0"}, c, out, err), 2);
  EXPECT_TRUE(c.has(dlb::report_kind::error, "--procs"));
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "");
}

TEST(ReportSink, FailedRunGoesToTheSink) {
  captured c;
  std::string out, err;
  const dlb::app_body failing = [](dlb::runtime& rt) -> int {
    if (rt.master()) throw dlb::run_error("the master gives up");
    return 0;
  };
  EXPECT_NE(run({"--backend", "sim", "--procs", "2"}, c, out, err, failing), 0);
  EXPECT_TRUE(c.has(dlb::report_kind::error, "the master gives up"));
  EXPECT_EQ(err, "");
}

}  // namespace

namespace {

// SimGrid allows one engine per process: a second simulated run in the same process is a clear
// error through the sink (exit 1), not an abort.
TEST(ReportSink, SecondSimulatedRunInOneProcessIsAClearError) {
  captured first, second;
  std::string out, err;
  ASSERT_EQ(run({"--backend", "sim", "--procs", "2"}, first, out, err), 0);
  EXPECT_EQ(run({"--backend", "sim", "--procs", "2"}, second, out, err), 1);
  EXPECT_TRUE(second.has(dlb::report_kind::error, "once per process"));
  EXPECT_EQ(err, "");
}

}  // namespace
