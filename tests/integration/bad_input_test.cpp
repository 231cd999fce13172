// Bad input, table-driven: each row runs one command-line tool on one bad input (unknown option,
// missing value, non-number, negative, zero, too large, wrong file, malformed line) and expects
// exit status 2, a message on stderr naming the input, and no output file left behind. Every
// tool refuses before it starts a virtual machine or a run, so no pvmd is involved.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "run_process.hpp"

namespace fs = std::filesystem;

namespace {

struct bad_input {
  std::string name;               // test name
  std::vector<std::string> argv;  // {fix}: the fixture directory, {out}: an empty directory
  std::string names;              // what stderr must contain: the input, by name
};

const std::map<std::string, std::string>& programs() {
  static const std::map<std::string, std::string> p{
      {"mxm", MXM_BIN},
      {"trfd", TRFD_BIN},
      {"ac", AC_BIN},
      {"synthetic", SYNTHETIC_BIN},
      {"dlb_sweep", DLB_SWEEP_BIN},
      {"dlb_summary", DLB_SUMMARY_BIN},
      {"dlb_report", DLB_REPORT_BIN},
      {"dlb_netchar", DLB_NETCHAR_BIN},
      {"dlb_plot_normalized", DLB_PLOT_NORMALIZED_BIN},
      {"dlb_plot_load", DLB_PLOT_LOAD_BIN},
      {"dlb_plot_network", DLB_PLOT_NETWORK_BIN},
      {"dlb_sensitivity", DLB_SENSITIVITY_BIN},
      {"dlb_plot_sensitivity", DLB_PLOT_SENSITIVITY_BIN}};
  return p;
}

// Shorthands for the arguments a tool needs besides the bad one.
const std::vector<std::string> sweep_ok{"--out", "{out}/results.csv", "--bin-dir", "{fix}"};
const std::vector<std::string> report_ok{"--results",       "{fix}/results.csv", "--out",
                                         "{out}/report.md", "--paper-dir",       "{fix}"};

std::vector<std::string> cat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const std::vector<bad_input> kBadInputs{
    // The applications (lib/runtime's options), on the simulated backend where a file is read.
    {"MxmUnknownOption", {"mxm", "--bogus"}, "--bogus"},
    {"MxmMissingValue", {"mxm", "--procs"}, "--procs"},
    {"MxmNonNumber", {"mxm", "--procs", "abc"}, "abc"},
    {"MxmNegative", {"mxm", "--procs", "-3"}, "-3"},
    {"MxmZero", {"mxm", "--procs", "0"}, "--procs"},
    {"SyntheticNoIterations", {"synthetic", "--iterations", "0"}, "--iterations"},
    {"MxmTooLarge", {"mxm", "--procs", "100000"}, "100000"},
    {"MxmSpeedsNonNumber", {"mxm", "--speeds", "1,abc"}, "1,abc"},
    {"MxmImprovementNonNumber", {"mxm", "--improvement", "abc"}, "--improvement"},
    // Policies, chunk sizes, speeds and the heterogeneous options.
    {"MxmUnknownPolicy", {"mxm", "--strategy", "FASTEST"}, "FASTEST"},
    {"MxmChunkZero", {"mxm", "--strategy", "CSS:0"}, "CSS:0"},
    {"MxmChunkMissing", {"mxm", "--strategy", "CSS"}, "CSS:k"},
    {"MxmChunkOnGss", {"mxm", "--strategy", "GSS:4"}, "GSS:4"},
    {"MxmSpeedsWrongLength", {"mxm", "--procs", "4", "--speeds", "1,2,3"}, "--speeds"},
    {"MxmSpeedsNonPositive", {"mxm", "--procs", "2", "--speeds", "1,0"}, "1,0"},
    {"MxmSpeedsUnknownMix", {"mxm", "--speeds", "half3x"}, "half3x"},
    {"MxmInitialUnknown", {"mxm", "--initial", "random"}, "--initial"},
    {"MxmGroupsUnknown", {"mxm", "--groups", "random"}, "--groups"},
    // AUTO-ALL's candidates and its forced commitment.
    {"MxmCandidateUnknown", {"mxm", "--strategy", "AUTO-ALL", "--candidates", "GSS FOO"}, "FOO"},
    {"MxmCandidateAuto", {"mxm", "--strategy", "AUTO-ALL", "--candidates", "GSS AUTO"}, "AUTO"},
    {"MxmCandidateTwice", {"mxm", "--strategy", "AUTO-ALL", "--candidates", "GSS gss"}, "gss"},
    {"MxmCandidatesEmpty", {"mxm", "--strategy", "AUTO-ALL", "--candidates", " "}, "--candidates"},
    {"MxmAutoForceUnknown", {"mxm", "--strategy", "AUTO-ALL", "--auto-force", "FOO"}, "FOO"},
    {"MxmAutoForceTwo",
     {"mxm", "--strategy", "AUTO-ALL", "--auto-force", "GSS SS"},
     "--auto-force"},
    {"MxmAutoForceWithoutAutoAll",
     {"mxm", "--strategy", "AUTO", "--auto-force", "GSS"},
     "AUTO-ALL"},
    {"MxmAutoAllRecover",
     {"mxm", "--strategy", "AUTO-ALL", "--on-loss", "recover"},
     "--on-loss recover"},
    {"MxmAutoAllStop",
     {"mxm", "--strategy", "AUTO-ALL", "--after-no-move", "stop"},
     "--after-no-move stop"},
    // The protocol's option columns (strategy_table.hpp).
    {"MxmFirstSyncUnknown", {"mxm", "--first-sync", "master"}, "--first-sync"},
    {"MxmBroadcastUnknown", {"mxm", "--broadcast", "multicast"}, "--broadcast"},
    {"MxmWireShareAboveOne", {"mxm", "--wire-share", "1.5"}, "--wire-share"},
    {"MxmRecoverAfterGlobalFirstSync",
     {"mxm", "--on-loss", "recover", "--first-sync", "master-global"},
     "--first-sync master-global"},
    {"TrfdProcsBeyondPvm", {"trfd", "--procs", "65"}, "--procs"},
    {"TrfdTooLarge", {"trfd", "--n", "81"}, "81"},
    {"TrfdNegative", {"trfd", "--n", "-1"}, "--n"},
    {"TrfdTransposeCostNegative", {"trfd", "--transpose-cost", "-1"}, "--transpose-cost"},
    {"AcZero", {"ac", "--n", "0"}, "--n"},
    {"AcNegativeLoad", {"ac", "--ml", "-1"}, "--ml"},
    {"AcUnknownNetwork", {"ac", "--network", "nowhere"}, "nowhere"},
    {"ProfileNonNumber",
     {"mxm", "--backend", "sim", "--network-profile", "{fix}/bad_number.profile"},
     "bad_number.profile"},
    {"ProfileMalformedLine",
     {"mxm", "--backend", "sim", "--network-profile", "{fix}/malformed.profile"},
     "malformed.profile"},
    {"ProfileMissingFile",
     {"trfd", "--backend", "sim", "--network-profile", "{fix}/missing.profile"},
     "missing.profile"},
    {"TraceDirMissing",
     {"mxm", "--backend", "sim", "--trace-dir", "{fix}/no-such-directory"},
     "no-such-directory"},
    // dlb_sweep and its configuration files.
    {"SweepUnknownOption", cat({"dlb_sweep", "--bogus"}, sweep_ok), "--bogus"},
    {"SweepMissingValue", {"dlb_sweep", "--config"}, "--config"},
    {"SweepMissingConfig", cat({"dlb_sweep", "--config", "{fix}/missing.conf"}, sweep_ok),
     "missing.conf"},
    {"ConfigMalformedLine", cat({"dlb_sweep", "--config", "{fix}/malformed.conf"}, sweep_ok),
     "malformed.conf:2"},
    {"ConfigNegative", cat({"dlb_sweep", "--config", "{fix}/negative.conf"}, sweep_ok),
     "negative.conf:1"},
    {"ConfigZero", cat({"dlb_sweep", "--config", "{fix}/zero.conf"}, sweep_ok), "zero.conf:2"},
    {"ConfigTooLarge", cat({"dlb_sweep", "--config", "{fix}/huge.conf"}, sweep_ok), "huge.conf:1"},
    {"ConfigUnknownKey", cat({"dlb_sweep", "--config", "{fix}/unknown.conf"}, sweep_ok),
     "bogus_key"},
    {"ConfigWrongFile", cat({"dlb_sweep", "--config", "{fix}/results.csv"}, sweep_ok),
     "results.csv:1"},
    {"SweepJobsZero", cat({"dlb_sweep", "--config", "{fix}/good.conf", "--jobs", "0"}, sweep_ok),
     "--jobs"},
    {"SweepJobsNonNumber",
     cat({"dlb_sweep", "--config", "{fix}/good.conf", "--jobs", "abc"}, sweep_ok), "abc"},
    // dlb_summary.
    {"SummaryUnknownOption", {"dlb_summary", "--bogus"}, "--bogus"},
    {"SummaryMissingValue", {"dlb_summary", "--results", "{fix}/results.csv", "--out"}, "--out"},
    {"SummaryMissingFile",
     {"dlb_summary", "--results", "{fix}/missing.csv", "--out", "{out}/summary.csv"},
     "missing.csv"},
    {"SummaryMalformedLine",
     {"dlb_summary", "--results", "{fix}/malformed.csv", "--out", "{out}/summary.csv"},
     "malformed.csv:2"},
    {"SummaryWrongFile",
     {"dlb_summary", "--results", "{fix}/zero.conf", "--out", "{out}/summary.csv"},
     "zero.conf"},
    // dlb_report.
    {"ReportMissingSummary", cat({"dlb_report", "--summary", "{fix}/missing.csv"}, report_ok),
     "missing.csv"},
    {"ReportWrongFile", cat({"dlb_report", "--summary", "{fix}/results.csv"}, report_ok),
     "results.csv"},
    {"ReportNonNumber",
     cat({"dlb_report", "--summary", "{fix}/summary.csv", "--lag-flag-pct", "abc"}, report_ok),
     "abc"},
    {"ReportNegative",
     cat({"dlb_report", "--summary", "{fix}/summary.csv", "--lag-flag-pct", "-1"}, report_ok),
     "-1"},
    {"ReportMissingPaperDir",
     {"dlb_report", "--summary", "{fix}/summary.csv", "--results", "{fix}/results.csv", "--out",
      "{out}/report.md", "--paper-dir", "{fix}/nowhere"},
     "nowhere"},
    // dlb_netchar.
    {"NetcharZero", {"dlb_netchar", "--procs", "0", "--out", "{out}/net"}, "--procs"},
    {"NetcharNegative", {"dlb_netchar", "--reps", "-1", "--out", "{out}/net"}, "--reps"},
    {"NetcharUnknownClock", {"dlb_netchar", "--clock", "bogus", "--out", "{out}/net"}, "bogus"},
    {"NetcharSizesNonNumber", {"dlb_netchar", "--sizes", "1,abc", "--out", "{out}/net"}, "1,abc"},
    {"NetcharOutIsAFile",
     {"dlb_netchar", "--backend", "sim", "--procs", "2", "--out", "{fix}/a_file"},
     "a_file"},
    // The plots.
    {"PlotNormalizedMissingFile",
     {"dlb_plot_normalized", "--summary", "{fix}/missing.csv", "--out-dir", "{out}/fig"},
     "missing.csv"},
    {"PlotNormalizedWrongFile",
     {"dlb_plot_normalized", "--summary", "{fix}/results.csv", "--out-dir", "{out}/fig"},
     "results.csv"},
    {"PlotNormalizedUnknownFormat",
     {"dlb_plot_normalized", "--summary", "{fix}/summary.csv", "--out-dir", "{out}/fig",
      "--formats", "gif"},
     "gif"},
    {"PlotLoadUnknownOption", {"dlb_plot_load", "--bogus"}, "--bogus"},
    {"PlotLoadMissingFile",
     {"dlb_plot_load", "--csv", "{fix}/missing.csv", "--out-dir", "{out}/fig"},
     "missing.csv"},
    {"PlotNetworkMalformedLine",
     {"dlb_plot_network", "--fit", "{fix}/malformed.csv", "--out-dir", "{out}/fig"},
     "malformed.csv:2"},
    {"PlotNetworkWrongFile",
     {"dlb_plot_network", "--fit", "{fix}/results.csv", "--out-dir", "{out}/fig"},
     "results.csv"},
    // The sensitivity study's design files and the options it added.
    {"MxmTOpFactorZero", {"mxm", "--t-op-factor", "0"}, "--t-op-factor"},
    {"MxmThresholdPctZero", {"mxm", "--threshold-pct", "0"}, "--threshold-pct"},
    {"SensitivityUnknownParameter",
     {"dlb_sensitivity", "plan", "--design", "{fix}/unknown.design", "--out-dir", "{out}/plan"},
     "unknown parameter or key 'tl_max'"},
    {"SensitivityLowAboveHigh",
     {"dlb_sensitivity", "plan", "--design", "{fix}/lohi.design", "--out-dir", "{out}/plan"},
     "range low 50 > high 0.5"},
    {"SensitivityZeroSeeds",
     {"dlb_sensitivity", "plan", "--design", "{fix}/noseeds.design", "--out-dir", "{out}/plan"},
     "zero seeds"},
    {"SensitivityMissingDesign",
     {"dlb_sensitivity", "plan", "--design", "{fix}/missing.design", "--out-dir", "{out}/plan"},
     "missing.design"},
    {"SensitivityNoSubcommand",
     {"dlb_sensitivity", "--design", "{fix}/good.design"},
     "plan or analyze"},
    {"SensitivityBaseUnreadable",
     {"dlb_sensitivity", "plan", "--design", "{fix}/nobase.design", "--out-dir", "{out}/plan"},
     "no_such.conf"},
    {"PlotSensitivityNotAHeatmap",
     {"dlb_plot_sensitivity", "--heatmap", "{fix}/results.csv", "--out-dir", "{out}/fig"},
     "no column 'claim'"},
};

const std::vector<bad_input>& table() { return kBadInputs; }

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

// The fixture directory: good and bad inputs, shared by all rows (read only).
class BadInput : public ::testing::TestWithParam<bad_input> {
 protected:
  static void SetUpTestSuite() {
    std::string tmpl = (fs::temp_directory_path() / "dlb_bad_input_XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    const fs::path fix = root_ / "fix";
    fs::create_directories(fix);
    write(fix / "good.conf", "procs = 4\nstrategies = NONE\n[app mxm]\nsizes = n=40 r=4 m=4\n");
    write(fix / "malformed.conf", "procs = 4\nthis is not a line\n");
    write(fix / "negative.conf", "procs = -4\n");
    write(fix / "zero.conf", "procs = 4\nrepetitions = 0\n");
    write(fix / "huge.conf", "procs = 99999999999999999999\n");
    write(fix / "unknown.conf", "bogus_key = 1\n");
    write(fix / "results.csv",
          "app,P,K,size,strategy,rep,seed,ml,tl,clock,scale,network,extra_args,status,total_s\n"
          "mxm,4,2,n=40 r=4 m=4,NONE,0,1,5,1,emulated,20,ethernet1996,,ok,80\n");
    write(fix / "summary.csv",
          "app,P,K,size,ml,strategy,runs,total_median,norm_median\n"
          "mxm,4,2,n=40 r=4 m=4,5,NONE,1,80,1\n");
    write(fix / "malformed.csv", "pattern,p,measured_s,fit_s,status,total_s\n\"x,1\n");
    write(fix / "bad_number.profile", "latency_s = 0.002\nbandwidth_Bps = abc\n");
    write(fix / "malformed.profile", "latency_s 0.002\n");
    write(fix / "a_file", "not a directory\n");
    const std::string design_head = "base = " + (fix / "good.conf").string() + "\npoints = 2\n";
    write(fix / "unknown.design", design_head + "seeds = 1 2\ntl_max = 1 2\n");
    write(fix / "lohi.design", design_head + "seeds = 1 2\ntl_factor = range 50 0.5 4 log\n");
    write(fix / "noseeds.design", design_head + "seeds =\ntl_factor = 1 2 5\n");
    write(fix / "good.design", design_head + "seeds = 1 2\ntl_factor = 1 2 5\n");
    write(fix / "nobase.design", "base = " + (fix / "no_such.conf").string() +
                                     "\npoints = 2\nseeds = 1\ntl_factor = 1 2 5\n");
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  static std::vector<fs::path> files_under(const fs::path& dir) {
    std::vector<fs::path> v;
    for (const auto& e : fs::recursive_directory_iterator(dir)) v.push_back(e.path());
    std::sort(v.begin(), v.end());
    return v;
  }

  static inline fs::path root_;
};

std::string expand(std::string s, const fs::path& fix, const fs::path& out) {
  for (const auto& [token, value] :
       {std::pair<std::string, std::string>{"{fix}", fix.string()}, {"{out}", out.string()}}) {
    for (std::size_t at; (at = s.find(token)) != std::string::npos;)
      s.replace(at, token.size(), value);
  }
  return s;
}

void PrintTo(const bad_input& b, std::ostream* os) { *os << b.name; }

}  // namespace

TEST_P(BadInput, ExitsTwoNamingTheInputAndWritesNothing) {
  const bad_input& b = GetParam();
  const fs::path fix = root_ / "fix";
  const fs::path out = root_ / ("out_" + b.name);
  fs::create_directories(out);
  const auto fixtures_before = files_under(fix);

  std::vector<std::string> argv{programs().at(b.argv.front())};
  for (std::size_t i = 1; i < b.argv.size(); ++i) argv.push_back(expand(b.argv[i], fix, out));
  const auto r = testing_support::run_process(argv, 60);

  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find(b.names), std::string::npos)
      << "the message should name '" << b.names << "': " << r.err;
  EXPECT_TRUE(files_under(out).empty()) << "a partial output was left in " << out;
  EXPECT_EQ(files_under(fix), fixtures_before) << "a file appeared beside the inputs";
  EXPECT_TRUE(testing_support::none_left(r.marker)) << "a process was left";
}

INSTANTIATE_TEST_SUITE_P(Tools, BadInput, ::testing::ValuesIn(table()),
                         [](const auto& info) { return info.param.name; });

TEST(BadInputTable, AtLeastThirtyRowsOverEveryTool) {
  EXPECT_GE(table().size(), 30u);
  std::map<std::string, int> per_tool;
  for (const auto& b : table()) ++per_tool[b.argv.front()];
  for (const auto& [tool, path] : programs()) EXPECT_GT(per_tool[tool], 0) << tool;
}
