// The experiment tools never lose or corrupt a result (issue 33), table-driven like
// bad_input_test.cpp: each row runs one tool on one bad input or fault (an output over an input,
// a folder another sweep holds, /dev/zero or a binary file as input, a malformed field of a
// results file or a paper table, repetitions and seeds that disagree, an unwritable trace
// directory on the simulated backend) and expects its exit status, a message naming the input,
// no file of the results folder or of the inputs changed (hashed before and after), nothing
// written to the output folder, and no process left. Then the faults that need a live sweep:
// two sweeps on one folder, and kill -9 of a sweep with its runs going.
#include <gtest/gtest.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "run_process.hpp"

namespace fs = std::filesystem;
using namespace std::string_literals;

namespace {

#if !TOOLS_PVM_TESTS
struct tool_case {
  std::string name;
  // {R}: the results folder, {fix}: the other inputs, {out}: an empty folder for outputs,
  // {pid}: this test's pid (the holder of the folder's lock, where the row takes it).
  std::vector<std::string> argv;
  int exit_code;
  std::vector<std::string> names;  // what stderr must contain
  bool hold_lock = false;          // this test holds {R}'s lock while the tool runs
  int file_size_kib = -1;          // a file-size limit (ulimit -f) on the tool, when >= 0
};

const std::map<std::string, std::string>& programs() {
  static const std::map<std::string, std::string> p{{"dlb_sweep", DLB_SWEEP_BIN},
                                                    {"dlb_summary", DLB_SUMMARY_BIN},
                                                    {"dlb_report", DLB_REPORT_BIN},
                                                    {"dlb_agreement", DLB_AGREEMENT_BIN},
                                                    {"dlb_plot_timeline", DLB_PLOT_TIMELINE_BIN},
                                                    {"dlb_sensitivity", DLB_SENSITIVITY_BIN},
                                                    {"dlb_expected", DLB_EXPECTED_BIN},
                                                    {"dlb_nodlb_fit", DLB_NODLB_FIT_BIN},
                                                    {"dlb_plot_load", DLB_PLOT_LOAD_BIN},
                                                    {"dlb_implied", DLB_IMPLIED_BIN},
                                                    {"dlb_supervise", DLB_SUPERVISE_BIN},
                                                    {"trfd", TRFD_BIN},
                                                    {"mxm", MXM_BIN}};
  return p;
}

std::vector<std::string> cat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A sweep of the good config into the results folder, apps from the build (never started: each
// row is refused before any run).
const std::vector<std::string> sweep_into_r{"--out", "{R}/results.csv", "--bin-dir", APPS_BIN_DIR};
std::vector<std::string> sweep_conf(const std::string& conf) {
  return cat({"dlb_sweep", "--config", conf}, sweep_into_r);
}
std::vector<std::string> report_with(const std::string& results, const std::string& paper_dir,
                                     const std::string& out = "{out}/report.md") {
  return {"dlb_report",  "--summary", "{R}/summary.csv", "--results", results,
          "--paper-dir", paper_dir,   "--out",           out};
}
std::vector<std::string> summary_of(const std::string& results,
                                    const std::string& out = "{out}/summary.csv") {
  return {"dlb_summary", "--results", results, "--out", out};
}
// A check of R's results against an expected-values file of {fix} (ToolsFixture::expected_files).
std::vector<std::string> check_against(const std::string& expected) {
  return {"dlb_expected", "--sweep", "s={R}/results.csv", "--expected", expected};
}
std::vector<std::string> derive_expected(const std::string& out, const std::string& markdown) {
  return {"dlb_expected", "--sweep", "s={R}/results.csv", "--subset", "1",
          "--out",        out,       "--markdown",        markdown};
}

const std::vector<tool_case> kToolCases{
    // 1. No tool writes over its inputs (the same file by any spelling or link).
    {"SummaryOutIsResults",
     summary_of("{R}/results.csv", "{R}/results.csv"),
     2,
     {"--out {R}/results.csv", "--results {R}/results.csv"}},
    {"SummaryOutIsResultsDotSpelling",
     summary_of("{R}/results.csv", "{R}/./results.csv"),
     2,
     {"--out {R}/./results.csv", "--results {R}/results.csv"}},
    {"SummaryOutIsResultsDotDotSpelling",
     summary_of("{R}/results.csv", "{R}/../R/results.csv"),
     2,
     {"{R}/../R/results.csv", "--results {R}/results.csv"}},
    {"SummaryOutIsResultsViaSymlink",
     summary_of("{R}/results.csv", "{R}/link_results.csv"),
     2,
     {"--out {R}/link_results.csv", "--results {R}/results.csv"}},
    {"SummaryOutIsResultsViaHardLink",
     summary_of("{R}/results.csv", "{R}/hard_results.csv"),
     2,
     {"--out {R}/hard_results.csv", "--results {R}/results.csv"}},
    {"SummaryOutIsSecondResults",
     {"dlb_summary", "--results", "{R}/results.csv", "--results", "{R}/more.csv", "--out",
      "{R}/more.csv"},
     2,
     {"--out {R}/more.csv", "--results {R}/more.csv"}},
    {"ReportOutIsResults",
     report_with("{R}/results.csv", "{fix}/paper", "{R}/results.csv"),
     2,
     {"--out {R}/results.csv", "--results {R}/results.csv"}},
    {"ReportOutIsSummary",
     report_with("{R}/results.csv", "{fix}/paper", "{R}/summary.csv"),
     2,
     {"--out {R}/summary.csv", "--summary {R}/summary.csv"}},
    {"ReportOutIsSummaryViaSymlink",
     report_with("{R}/results.csv", "{fix}/paper", "{R}/link_summary.csv"),
     2,
     {"--out {R}/link_summary.csv", "--summary {R}/summary.csv"}},
    {"ReportOutIsSummaryDotSpelling",
     report_with("{R}/results.csv", "{fix}/paper", "{R}/./summary.csv"),
     2,
     {"--out {R}/./summary.csv", "--summary {R}/summary.csv"}},
    {"ReportOutIsPaperTable",
     report_with("{R}/results.csv", "{fix}/paper", "{fix}/paper/table1_1_mxm_nodlb.csv"),
     2,
     {"--out {fix}/paper/table1_1_mxm_nodlb.csv", "--paper-dir"}},
    {"ReportOutIsCrosscheck",
     cat(report_with("{R}/results.csv", "{fix}/paper", "{R}/more_summary.csv"),
         {"--crosscheck", "{R}/more_summary.csv"}),
     2,
     {"--out {R}/more_summary.csv", "--crosscheck {R}/more_summary.csv"}},
    {"AgreementOutIsAnInput",
     {"dlb_agreement", "--a", "{R}/summary.csv", "--b", "{R}/summary.csv", "--out",
      "{R}/link_summary.csv"},
     2,
     {"--out {R}/link_summary.csv", "--a {R}/summary.csv"}},
    {"SweepOutIsConfig",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{fix}/good.conf", "--bin-dir",
      APPS_BIN_DIR},
     2,
     {"--out {fix}/good.conf", "--config {fix}/good.conf"}},
    {"SweepOutIsConfigViaSymlink",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{fix}/link_good.conf", "--bin-dir",
      APPS_BIN_DIR},
     2,
     {"--out {fix}/link_good.conf", "--config {fix}/good.conf"}},
    // 2. One writer per results folder: this test holds the lock, as a live sweep would.
    {"SweepFolderLocked", sweep_conf("{fix}/good.conf"), 2, {"{R}", "pid {pid}"}, true},
    {"SweepFolderLockedAnotherResultsFile",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{R}/other.csv", "--bin-dir",
      APPS_BIN_DIR},
     2,
     {"{R}", "pid {pid}"},
     true},
    // 4. Every input checked where it is read: not a regular file, too large, binary.
    {"SweepConfigDevZero", sweep_conf("/dev/zero"), 2, {"/dev/zero", "not a regular file"}},
    {"SweepConfigBinary", sweep_conf("{fix}/binary.conf"), 2, {"binary.conf:2", "NUL"}},
    {"SweepConfigTooLarge",
     sweep_conf("{fix}/huge_file.conf"),
     2,
     {"huge_file.conf", "over the limit"}},
    {"SweepConfigFifo", sweep_conf("{fix}/fifo.conf"), 2, {"fifo.conf", "not a regular file"}},
    {"SweepConfigDirectory", sweep_conf("{fix}"), 2, {"{fix}"}},
    {"SweepHostfileDevZero",
     cat(sweep_conf("{fix}/good.conf"), {"--hostfile", "/dev/zero"}),
     2,
     {"--hostfile", "/dev/zero"}},
    {"SummaryResultsDevZero", summary_of("/dev/zero"), 2, {"/dev/zero"}},
    {"SummaryResultsBinary", summary_of("{fix}/binary.csv"), 2, {"binary.csv:3", "NUL"}},
    {"ReportSummaryDevZero",
     {"dlb_report", "--summary", "/dev/zero", "--results", "{R}/results.csv", "--paper-dir",
      "{fix}/paper", "--out", "{out}/report.md"},
     2,
     {"--summary /dev/zero"}},
    {"TimelineTraceDevZero",
     {"dlb_plot_timeline", "--trace-dir", "{fix}/trace_zero", "--out-dir", "{out}/fig", "--name",
      "t"},
     2,
     {"states.1.csv", "not a regular file"}},
    {"TimelineTraceBinary",
     {"dlb_plot_timeline", "--trace-dir", "{fix}/trace_binary", "--out-dir", "{out}/fig", "--name",
      "t"},
     2,
     {"states.1.csv:2", "NUL"}},
    {"SensitivityDesignDevZero",
     {"dlb_sensitivity", "plan", "--design", "/dev/zero", "--out-dir", "{out}/plan"},
     2,
     {"/dev/zero"}},
    // Numeric fields of results files, parsed strictly: file:line:column.
    {"SummaryResultsPIsFour",
     summary_of("{R}/p_four.csv"),
     2,
     {"p_four.csv:5:2", "column P", "'four'"}},
    {"SweepResumeResultsPIsFour",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{R}/p_four.csv", "--bin-dir",
      APPS_BIN_DIR},
     2,
     {"p_four.csv:5:2", "'four'"}},
    {"ReportResultsPIsFour",
     report_with("{R}/p_four.csv", "{fix}/paper"),
     2,
     {"p_four.csv:5:2", "'four'"}},
    {"SummaryResultsSeedNegative",
     summary_of("{R}/seed_negative.csv"),
     2,
     {"seed_negative.csv:3:7", "column seed"}},
    {"SummaryResultsTotalNotANumber",
     summary_of("{R}/total_text.csv"),
     2,
     {"total_text.csv:3:", "column total_s", "'12s'"}},
    {"SummaryResultsUnknownStatus",
     summary_of("{R}/bad_status.csv"),
     2,
     {"bad_status.csv:3:", "column status", "'maybe'"}},
    {"SweepResumeResultsUnknownStatus",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{R}/bad_status.csv", "--bin-dir",
      APPS_BIN_DIR},
     2,
     {"bad_status.csv:3:", "'maybe'"}},
    {"SummaryResultsShortRow", summary_of("{R}/short_row.csv"), 2, {"short_row.csv:3"}},
    {"SweepResumeResultsShortRow",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{R}/short_row.csv", "--bin-dir",
      APPS_BIN_DIR},
     2,
     {"short_row.csv:3"}},
    // Paper tables: a row cut short is an error, not the end of the table.
    {"ReportPaperTableCutMidRow",
     report_with("{R}/results.csv", "{fix}/paper_cut"),
     2,
     {"table1_1_mxm_nodlb.csv:5", "cut short"}},
    {"ReportPaperTablePIsFour",
     report_with("{R}/results.csv", "{fix}/paper_four"),
     2,
     {"table1_1_mxm_nodlb.csv:3:1", "column P", "'four'"}},
    {"ReportPaperTableShortRow",
     report_with("{R}/results.csv", "{fix}/paper_short"),
     2,
     {"table1_1_mxm_nodlb.csv:3"}},
    {"ReportPaperTableTimeNotANumber",
     report_with("{R}/results.csv", "{fix}/paper_time"),
     2,
     {"table1_2_trfd_nodlb.csv:4:4", "column time_s"}},
    // repetitions and seeds must agree where one scope sets both.
    {"ConfigRepetitionsFewerThanSeeds",
     sweep_conf("{fix}/reps_seeds.conf"),
     2,
     {"reps_seeds.conf:3", "repetitions = 1 (line 3)", "seeds lists 3 values (line 4)"}},
    {"ConfigSeedsFewerThanRepetitions",
     sweep_conf("{fix}/seeds_reps.conf"),
     2,
     {"seeds_reps.conf:5", "repetitions = 3 (line 6)", "seeds lists 2 values (line 5)"}},
    {"ConfigSectionRepetitionsBeyondSeeds",
     sweep_conf("{fix}/section_reps.conf"),
     2,
     {"section_reps.conf:", "seeds lists 2 values for 3 repetitions"}},
    // A simulated task's usage error: exit 2 naming the path, as on PVM.
    {"TrfdSimTraceDirUnwritable",
     {"trfd", "--backend", "sim", "--procs", "2", "--n", "10", "--trace-dir", "/proc"},
     2,
     {"--trace-dir", "/proc/messages."}},
    {"MxmSimTraceDirUnwritable",
     {"mxm", "--backend", "sim", "--procs", "2", "--n", "8", "--r", "4", "--m", "4", "--trace-dir",
      "/proc"},
     2,
     {"--trace-dir", "/proc/messages."}},
    {"TrfdSimTraceDirUnderAFile",
     {"trfd", "--backend", "sim", "--procs", "2", "--n", "10", "--trace-dir", "{fix}/good.conf/x"},
     2,
     {"--trace-dir", "{fix}/good.conf/x"}},
    {"MxmSimTraceDirMissingParent",
     {"mxm", "--backend", "sim", "--procs", "2", "--trace-dir", "{fix}/no_such/dir"},
     2,
     {"--trace-dir", "{fix}/no_such/dir"}},
    // 5. An expected-values file carries its row count and checksum: cut or edited, refused.
    {"ExpectedFileCutShort",
     check_against("{fix}/expected_cut.csv"),
     2,
     {"--expected {fix}/expected_cut.csv", "cut short", "integrity"}},
    {"ExpectedFileCutInHalf",
     check_against("{fix}/expected_half.csv"),
     2,
     {"--expected {fix}/expected_half.csv", "no integrity line"}},
    {"ExpectedFileEdited",
     check_against("{fix}/expected_edited.csv"),
     2,
     {"--expected {fix}/expected_edited.csv", "checksum"}},
    {"ExpectedFileLastRowRemoved",
     check_against("{fix}/expected_row_gone.csv"),
     2,
     {"--expected {fix}/expected_row_gone.csv", "checksum"}},
    // 6. Two outputs naming one file, by any spelling: refused before anything is written.
    {"ExpectedOutAndMarkdownOneFile",
     derive_expected("{out}/E.csv", "{out}/./E.csv"),
     2,
     {"--out {out}/E.csv", "--markdown {out}/./E.csv", "name one file"}},
    {"ExpectedOutAndMarkdownOneFileDotDot",
     derive_expected("{out}/E.csv", "{out}/no_such/../E.csv"),
     2,
     {"--out {out}/E.csv", "--markdown {out}/no_such/../E.csv", "name one file"}},
    {"ExpectedOutAndMarkdownOneFileViaSymlink",
     derive_expected("{fix}/expected_target.csv", "{fix}/link_expected.csv"),
     2,
     {"--out {fix}/expected_target.csv", "--markdown {fix}/link_expected.csv", "name one file"}},
    {"NodlbFitOutAndCsvOneFile",
     {"dlb_nodlb_fit", "--bin-dir", APPS_BIN_DIR, "--paper-dir", "{fix}/paper", "--out",
      "{out}/fit.md", "--csv", "{out}/./fit.md"},
     2,
     {"--out {out}/fit.md", "--csv {out}/./fit.md", "name one file"}},
    {"PlotLoadWriteCsvIsTheFigure",
     {"dlb_plot_load", "--out-dir", "{out}", "--seed", "1", "--slave", "1", "--ml", "5", "--tl",
      "5", "--duration", "10", "--write-csv", "{out}/fig1_3_load.svg"},
     2,
     {"--write-csv {out}/fig1_3_load.svg", "name one file"}},
    // 8. Outputs that are not regular files (issue 55): a device (as /dev/null or /dev/full
    // would be, run as root), a FIFO, a socket, a directory or a symlink to one is refused
    // before any work, naming the option and the path, and is still what it was.
    {"SummaryOutIsADevice",
     summary_of("{R}/results.csv", "{fix}/null_device"),
     2,
     {"--out {fix}/null_device is a device"}},
    {"SummaryOutIsASymlinkToADevice",
     summary_of("{R}/results.csv", "{fix}/link_device"),
     2,
     {"--out {fix}/link_device is a device (through a symlink)"}},
    {"SummaryOutIsASocket",
     summary_of("{R}/results.csv", "{fix}/sock"),
     2,
     {"--out {fix}/sock is a socket"}},
    {"SummaryOutIsADirectory",
     summary_of("{R}/results.csv", "{fix}/paper"),
     2,
     {"--out {fix}/paper is a directory"}},
    {"ReportDiagnosisOutIsADevice",
     cat(report_with("{R}/results.csv", "{fix}/paper"), {"--diagnosis-out", "{fix}/null_device"}),
     2,
     {"--diagnosis-out {fix}/null_device is a device"}},
    {"ReportOutIsAFifo",
     report_with("{R}/results.csv", "{fix}/paper", "{fix}/link_fifo"),
     2,
     {"--out {fix}/link_fifo is a named pipe (FIFO) (through a symlink)"}},
    {"ExpectedOutIsADevice",
     derive_expected("{fix}/null_device", "{out}/E.md"),
     2,
     {"--out {fix}/null_device is a device"}},
    {"ExpectedMarkdownIsAFifo",
     derive_expected("{out}/E.csv", "{fix}/fifo.conf"),
     2,
     {"--markdown {fix}/fifo.conf is a named pipe"}},
    {"SweepOutIsAFifo",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{fix}/fifo.conf", "--bin-dir",
      APPS_BIN_DIR},
     2,
     {"--out {fix}/fifo.conf is a named pipe"}},
    {"AgreementOutIsADevice",
     {"dlb_agreement", "--a", "{R}/summary.csv", "--b", "{R}/more_summary.csv", "--out",
      "{fix}/null_device"},
     2,
     {"--out {fix}/null_device is a device"}},
    {"ImpliedOutIsAFifo",
     {"dlb_implied", "--paper-dir", "{fix}/paper", "--out", "{fix}/fifo.conf"},
     2,
     {"--out {fix}/fifo.conf is a named pipe"}},
    {"PlotLoadWriteCsvIsADevice",
     {"dlb_plot_load", "--out-dir", "{out}", "--seed", "1", "--slave", "1", "--ml", "5", "--tl",
      "5", "--duration", "10", "--write-csv", "{fix}/null_device"},
     2,
     {"--write-csv {fix}/null_device is a device"}},
    // 9. Speeds and costs the simulator cannot honour (issue 55: 1e308 aborted it, 1e-9 grew
    // it without end): refused before the run, naming the options.
    {"MxmSimSpeedHuge",
     {"mxm", "--backend", "sim", "--procs", "4", "--speeds", "1e308,1,1,1"},
     2,
     {"--speeds needs numbers in [0.001, 1000]", "1e308"}},
    {"TrfdSimSpeedTiny",
     {"trfd", "--backend", "sim", "--procs", "4", "--speeds", "1e-9,1,1,1"},
     2,
     {"--speeds needs numbers in [0.001, 1000]", "1e-9"}},
    {"MxmSimSlowSpeedShortTl",
     {"mxm", "--backend", "sim", "--procs", "2", "--speeds", "0.001,1", "--tl", "0.01"},
     2,
     {"--speeds and --tl", "0.001 x 0.01"}},
    {"MxmSimTOpOverSlowSpeed",
     {"mxm", "--backend", "sim", "--procs", "2", "--speeds", "0.001,1", "--t-op", "1e-3"},
     2,
     {"--t-op, --speeds and --tl", "0.001 / (0.001 x 5)"}},
    // "-" is not standard output for an option that names a file, and an empty name is not
    // a missing option.
    {"SummaryOutIsADash", summary_of("{R}/results.csv", "-"), 2, {"--out -: this option names"}},
    {"SummaryOutIsEmpty",
     summary_of("{R}/results.csv", ""),
     2,
     {"--out needs a value, got an empty one"}},
    {"SuperviseGraceNotANumber",
     {"dlb_supervise", "--grace", "soon", "--", "/bin/true"},
     2,
     {"--grace", "'soon'"}},
    // dlb_report's two pages on one file (by any spelling).
    {"ReportOutAndDiagnosisOutOneFile",
     cat(report_with("{R}/results.csv", "{fix}/paper", "{out}/x.md"),
         {"--diagnosis-out", "{out}/./x.md"}),
     2,
     {"--out {out}/x.md", "--diagnosis-out {out}/./x.md", "name one file"}},
    // 7. I/O errors exit 1 naming the file: a file-size limit (no SIGXFSZ death, no temporary
    // file left), an unwritable results folder or output folder.
    {"SummaryFileSizeLimit",
     summary_of("{R}/results.csv"),
     1,
     {"cannot write {out}/summary.csv", "File too large"},
     false,
     0},
    {"SweepFileSizeLimit",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "{R}/new.csv", "--bin-dir",
      APPS_BIN_DIR},
     1,
     {"{R}/new.csv", "File too large"},
     false,
     1},
    {"SweepResultsFolderUnwritable",
     {"dlb_sweep", "--config", "{fix}/good.conf", "--out", "/proc/dlb_results.csv", "--bin-dir",
      APPS_BIN_DIR},
     1,
     {"/proc/.dlb_sweep.lock"}},
    {"ImpliedOutUnwritable",
     {"dlb_implied", "--paper-dir", "{fix}/paper", "--out", "/proc/implied.csv"},
     1,
     {"/proc"}},
    {"ImpliedPaperDirMissing",
     {"dlb_implied", "--paper-dir", "{fix}/no_such_paper", "--out", "{out}/implied.csv"},
     2,
     {"{fix}/no_such_paper"}},
};

const std::vector<tool_case>& table() { return kToolCases; }

#endif

// The table of exit statuses in experiments/README.md ("## Exit statuses"): for each program
// named in a row's first cell (`name`, several per cell allowed), the cells by column label ("0",
// "1", "2", "128 + signal"); "-" is a status the program never exits with.
std::map<std::string, std::map<std::string, std::string>> exit_status_table() {
  std::ifstream in(DLB_SOURCE_DIR "/experiments/README.md");
  std::map<std::string, std::map<std::string, std::string>> table;
  std::vector<std::string> labels;
  bool in_section = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Exit statuses";
    if (!in_section || line.rfind("|", 0) != 0 || line.rfind("|---", 0) == 0) continue;
    std::vector<std::string> cells;
    for (std::size_t at = 1; at < line.size();) {
      const auto bar = line.find('|', at);
      if (bar == std::string::npos) break;
      std::string cell = line.substr(at, bar - at);
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      cells.push_back(cell);
      at = bar + 1;
    }
    if (labels.empty()) {
      labels = cells;
      continue;
    }
    for (std::size_t at = 0; (at = cells[0].find('`', at)) != std::string::npos;) {
      const auto end = cells[0].find('`', at + 1);
      const std::string name = cells[0].substr(at + 1, end - at - 1);
      for (std::size_t i = 1; i < cells.size() && i < labels.size(); ++i)
        table[name][labels[i]] = cells[i];
      at = end + 1;
    }
  }
  return table;
}

// Does the README's table say that `program` may exit with `status`?
[[maybe_unused]] bool exit_status_documented(const std::string& program, int status) {
  static const auto table = exit_status_table();
  const auto row = table.find(program);
  if (row == table.end()) return false;
  const std::string label = status > 128 ? "128 + signal" : std::to_string(status);
  const auto cell = row->second.find(label);
  if (cell == row->second.end() || cell->second.empty() || cell->second == "-") return false;
  return status <= 128 || cell->second.find(std::to_string(status)) != std::string::npos;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// The results columns of dlb_sweep (results_store.cpp), and rows of a small sweep on sim.
const char* kResultsHeader =
    "app,P,K,size,strategy,rep,seed,ml,tl,clock,scale,network,backend,extra_args,status,exit,"
    "started_utc,run_wall_s,note,log,verified,total_s,loop1_s,loop2_s,syncs,redistributions,"
    "iterations_moved,bytes_moved,lag_s,lag_pct,predicted_best,wall_s\n";
std::string results_row(const std::string& strategy, const std::string& p = "2",
                        const std::string& seed = "1", const std::string& status = "ok",
                        const std::string& total = "80") {
  return "mxm," + p + ",1,n=8 r=4 m=4," + strategy + ",0," + seed +
         ",5,1,emulated,20,ethernet1996,sim,," + status +
         ",0,2026-11-26T00:00:00Z,0.1,,x.log,yes," + total + "," + total +
         ",,1,1,10,100,0,0,NONE,0.1\n";
}
std::string results_file(const std::string& rows) {
  return "# dlb_sweep results (test fixture)\n" + std::string(kResultsHeader) + rows;
}

// Every file under the folders, by path, with a hash of its content (symlinks as their
// target's name); the folder's lock file is left out: it holds the last sweep's pid.
[[maybe_unused]] std::map<std::string, std::string> snapshot(const std::vector<fs::path>& dirs) {
  std::map<std::string, std::string> m;
  for (const auto& dir : dirs) {
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
      const std::string p = e.path().string();
      if (e.path().filename() == ".dlb_sweep.lock") continue;
      if (e.is_symlink()) {
        m[p] = "-> " + fs::read_symlink(e.path()).string();
      } else if (e.is_regular_file()) {
        if (e.file_size() > (1u << 20)) {
          m[p] = "size " + std::to_string(e.file_size());
          continue;
        }
        std::ifstream in(e.path(), std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        std::uint64_t h = 1469598103934665603ULL;
        for (unsigned char c : ss.str()) h = (h ^ c) * 1099511628211ULL;
        m[p] = std::to_string(h) + " " + std::to_string(ss.str().size());
      } else {
        m[p] = e.is_directory() ? "dir" : "other";
      }
    }
  }
  return m;
}

[[maybe_unused]] std::string expand(std::string s,
                                    const std::map<std::string, std::string>& tokens) {
  for (const auto& [token, value] : tokens) {
    for (std::size_t at; (at = s.find(token)) != std::string::npos;)
      s.replace(at, token.size(), value);
  }
  return s;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh folder per test: R (a results folder), fix (the other inputs), out (empty).
class ToolsFixture {
 public:
  ToolsFixture() {
    std::string tmpl = (fs::temp_directory_path() / "dlb_tools_bad_input_XXXXXX").string();
    root_ = ::mkdtemp(tmpl.data());
    R_ = root_ / "R";
    fix_ = root_ / "fix";
    out_ = root_ / "out";
    for (const auto& d : {R_, fix_, out_}) fs::create_directories(d);
    write_results();
    write_configs();
    write_paper_copies();
    write_traces();
  }
  ~ToolsFixture() {
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

#if !TOOLS_PVM_TESTS
  // fix/expected.csv derived by dlb_expected from R's results, and copies of it cut or edited
  // as a careless copy or a hand would: the last 40 bytes cut, the first half of its lines, one
  // digit changed, its last row taken out. And fix/expected_target.csv with a symlink to it.
  void expected_files() const {
    const auto r = testing_support::run_process(
        {DLB_EXPECTED_BIN, "--sweep", "s=" + (R_ / "results.csv").string(), "--subset", "1",
         "--out", (fix_ / "expected.csv").string()},
        60);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = slurp(fix_ / "expected.csv");
    ASSERT_GT(text.size(), 40u);
    write(fix_ / "expected_cut.csv", text.substr(0, text.size() - 40));
    std::vector<std::size_t> ends;  // the end of each line
    for (std::size_t at = 0; (at = text.find('\n', at)) != std::string::npos; ++at)
      ends.push_back(at + 1);
    ASSERT_GE(ends.size(), 4u);
    write(fix_ / "expected_half.csv", text.substr(0, ends[ends.size() / 2 - 1]));
    std::string edited = text;
    const auto digit = edited.find_first_of("123456789", edited.find(",number,"));
    ASSERT_NE(digit, std::string::npos);
    edited[digit] = edited[digit] == '9' ? '8' : '9';
    write(fix_ / "expected_edited.csv", edited);
    const std::size_t last_row = ends[ends.size() - 3], seal = ends[ends.size() - 2];
    write(fix_ / "expected_row_gone.csv", text.substr(0, last_row) + text.substr(seal));
    write(fix_ / "expected_target.csv", "a file an output may replace\n");
    fs::create_symlink("expected_target.csv", fix_ / "link_expected.csv");
  }
#endif

  // R: results and summaries, good, linked and with one fault each.
  void write_results() {
    const std::string rows = results_row("NONE") + results_row("GDDLB", "2", "1", "ok", "60");
    write(R_ / "results.csv", results_file(rows));
    write(R_ / "more.csv", results_file(results_row("NONE", "2", "2")));
    write(R_ / "summary.csv",
          "# dlb_summary (test fixture)\napp,P,K,size,ml,strategy,runs,total_median,norm_median\n"
          "mxm,2,1,n=8 r=4 m=4,5,NONE,1,80,1\nmxm,2,1,n=8 r=4 m=4,5,GDDLB,1,60,0.75\n");
    fs::copy_file(R_ / "summary.csv", R_ / "more_summary.csv");
    fs::create_symlink("results.csv", R_ / "link_results.csv");
    fs::create_symlink("summary.csv", R_ / "link_summary.csv");
    fs::create_hard_link(R_ / "results.csv", R_ / "hard_results.csv");
    write(R_ / "p_four.csv",
          results_file(rows + results_row("LDDLB", "four")));  // line 5: comment, header, 2 rows
    write(R_ / "seed_negative.csv", results_file(results_row("NONE", "2", "-1")));
    write(R_ / "total_text.csv", results_file(results_row("NONE", "2", "1", "ok", "12s")));
    write(R_ / "bad_status.csv", results_file(results_row("NONE", "2", "1", "maybe")));
    write(R_ / "short_row.csv",
          results_file("mxm,2,1\n" + results_row("GDDLB")));  // a short row, then a whole one
  }
  // fix: configurations, good and bad.
  void write_configs() {
    const std::string good =
        "backend = sim\nprocs = 2\nstrategies = NONE\n[app mxm]\nsizes = n=8 r=4 m=4\n";
    write(fix_ / "good.conf", good);
    fs::create_symlink("good.conf", fix_ / "link_good.conf");
    write(fix_ / "binary.conf", "procs = 2\nstr\0\x01\x02ategies = NONE\n"s);
    write(fix_ / "binary.csv", "# x\napp,P\nmxm,\0\0\n"s);
    {
      std::ofstream(fix_ / "huge_file.conf") << "procs = 2\n";
      fs::resize_file(fix_ / "huge_file.conf", 5u << 20);  // sparse: no disk used
    }
    ::mkfifo((fix_ / "fifo.conf").c_str(), 0644);
    write_special_outputs();
    write(fix_ / "reps_seeds.conf",
          "procs = 2\nstrategies = NONE\nrepetitions = 1\nseeds = 1 2 3\n[app mxm]\n"
          "sizes = n=8 r=4 m=4\n");
    write(fix_ / "seeds_reps.conf",
          "procs = 2\nstrategies = NONE\n[app mxm]\nsizes = n=8 r=4 m=4\nseeds = 1 2\n"
          "repetitions = 3\n");
    write(fix_ / "section_reps.conf",
          "procs = 2\nstrategies = NONE\nseeds = 1 2\nrepetitions = 2\n[app mxm]\n"
          "repetitions = 3\nsizes = n=8 r=4 m=4\n");
  }
  // fix: what an output must not replace (issue 55): a character device like /dev/null (made
  // only where mknod is allowed: as root; the rows naming it skip elsewhere), a symlink to it, a
  // socket and a symlink to the FIFO.
  void write_special_outputs() {
    ::mknod((fix_ / "null_device").c_str(), S_IFCHR | 0666, makedev(1, 3));
    fs::create_symlink("null_device", fix_ / "link_device");
    fs::create_symlink("fifo.conf", fix_ / "link_fifo");
    const int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    const std::string p = (fix_ / "sock").string();
    if (p.size() < sizeof a.sun_path) {
      p.copy(a.sun_path, p.size());
      [[maybe_unused]] const int rc = ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    ::close(s);
  }
  // fix: the paper's tables, and copies with one fault each.
  void write_paper_copies() {
    for (const std::string dir :
         {"paper", "paper_cut", "paper_four", "paper_short", "paper_time"}) {
      fs::create_directories(fix_ / dir);
      for (const auto& e : fs::directory_iterator(DLB_SOURCE_DIR "/experiments/paper"))
        fs::copy_file(e.path(), fix_ / dir / e.path().filename());
    }
    const std::string t11 = slurp(fix_ / "paper" / "table1_1_mxm_nodlb.csv");
    // Cut in the middle of its 5th line (the 3rd row), as a truncated copy would be.
    std::size_t at = 0;
    for (int i = 0; i < 4; ++i) at = t11.find('\n', at) + 1;
    write(fix_ / "paper_cut" / "table1_1_mxm_nodlb.csv", t11.substr(0, at + 5));
    const auto line3 = t11.find('\n', t11.find('\n') + 1) + 1;  // the first row
    write(fix_ / "paper_four" / "table1_1_mxm_nodlb.csv",
          t11.substr(0, line3) + "four" + t11.substr(t11.find(',', line3)));
    write(fix_ / "paper_short" / "table1_1_mxm_nodlb.csv",
          t11.substr(0, line3) + "4,400\n" + t11.substr(line3));
    const std::string t12 = slurp(fix_ / "paper" / "table1_2_trfd_nodlb.csv");
    {
      std::istringstream in(t12);
      std::string l, out;
      int k = 0;
      while (std::getline(in, l)) {
        ++k;
        if (k == 4) l = l.substr(0, l.rfind(',') + 1) + "abc";
        out += l + "\n";
      }
      write(fix_ / "paper_time" / "table1_2_trfd_nodlb.csv", out);
    }
  }
  // fix: trace folders that cannot be read.
  void write_traces() {
    // Trace folders: a states file that is /dev/zero, one that is binary.
    fs::create_directories(fix_ / "trace_zero");
    fs::create_symlink("/dev/zero", fix_ / "trace_zero" / "states.1.csv");
    fs::create_directories(fix_ / "trace_binary");
    write(fix_ / "trace_binary" / "states.1.csv",
          "start,end,state,loop,iterations\n0,1,comp\0te,0,1\n"s);
  }

  std::map<std::string, std::string> tokens() const {
    return {{"{R}", R_.string()},
            {"{fix}", fix_.string()},
            {"{out}", out_.string()},
            {"{pid}", std::to_string(::getpid())}};
  }

  fs::path root_, R_, fix_, out_;
};

#if !TOOLS_PVM_TESTS
class ToolsBadInput : public ::testing::TestWithParam<tool_case> {};

void PrintTo(const tool_case& c, std::ostream* os) { *os << c.name; }

// Holds R's lock as a running sweep would: flock on R/.dlb_sweep.lock holding our pid.
class held_lock {
 public:
  explicit held_lock(const fs::path& folder) {
    fd_ = ::open((folder / ".dlb_sweep.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0) {
      const std::string pid = std::to_string(::getpid()) + "\n";
      locked_ = ::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, pid.data(), pid.size(), 0) > 0;
    }
  }
  ~held_lock() {
    if (fd_ >= 0) ::close(fd_);
  }
  bool locked() const { return locked_; }

 private:
  int fd_ = -1;
  bool locked_ = false;
};

#endif

}  // namespace

#if !TOOLS_PVM_TESTS
TEST_P(ToolsBadInput, RefusedNamingTheInputAndNothingChanges) {
  const tool_case& c = GetParam();
  ToolsFixture f;
  std::unique_ptr<held_lock> lock;
  if (c.hold_lock) {
    lock = std::make_unique<held_lock>(f.R_);
    ASSERT_TRUE(lock->locked());
  }
  const auto tokens = f.tokens();
  for (const auto& a : c.argv) {
    if (a.find("_device") != std::string::npos && !fs::exists(f.fix_ / "null_device"))
      GTEST_SKIP() << "mknod is not allowed here (not root): no device to refuse";
  }
  for (const auto& a : c.argv) {
    if (a.find("{fix}/expected") != std::string::npos) {
      ASSERT_NO_FATAL_FAILURE(f.expected_files());
      break;
    }
  }
  const auto before = snapshot({f.R_, f.fix_});

  std::vector<std::string> argv{programs().at(c.argv.front())};
  for (std::size_t i = 1; i < c.argv.size(); ++i) argv.push_back(expand(c.argv[i], tokens));
  if (c.file_size_kib >= 0) {
    // bash's ulimit -f counts KiB; the limit holds for the tool exec'ed after it.
    argv.insert(argv.begin(),
                {"/bin/bash", "-c",
                 "ulimit -f " + std::to_string(c.file_size_kib) + "; exec \"$@\"", "bash"});
  }
  const auto r = testing_support::run_process(argv, 60);

  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
  EXPECT_TRUE(exit_status_documented(c.argv.front(), c.exit_code))
      << c.argv.front() << " exiting " << c.exit_code
      << " is not in the table of exit statuses of experiments/README.md";
  for (const auto& n : c.names) {
    const std::string want = expand(n, tokens);
    EXPECT_NE(r.err.find(want), std::string::npos)
        << "the message should name '" << want << "': " << r.err;
  }
  EXPECT_EQ(snapshot({f.R_, f.fix_}), before) << "a file of the results folder or the inputs "
                                                 "changed";
  EXPECT_TRUE(fs::is_empty(f.out_)) << "an output was left in " << f.out_;
  EXPECT_TRUE(testing_support::processes_with_marker(r.marker).empty()) << "a process was left";
}

INSTANTIATE_TEST_SUITE_P(Tools, ToolsBadInput, ::testing::ValuesIn(table()),
                         [](const auto& info) { return info.param.name; });

TEST(ToolsBadInputTable, AtLeastFortyRows) { EXPECT_GE(table().size(), 40u); }

// Every program the build makes under experiments/ and plots/ (add_executable(dlb_...)) and
// every driver under scripts/ (those that source scripts/common.sh) has its row in the table of
// exit statuses, each row with all four columns filled.
TEST(ToolsExitStatusTable, EveryToolAndDriverHasItsRow) {
  const auto table = exit_status_table();
  std::vector<std::string> programs;
  for (const std::string dir : {"experiments", "plots"}) {
    for (const auto& e : fs::recursive_directory_iterator(fs::path(DLB_SOURCE_DIR) / dir)) {
      if (e.path().filename() != "CMakeLists.txt") continue;
      const std::string text = slurp(e.path());
      for (std::size_t at = 0; (at = text.find("add_executable(dlb_", at)) != std::string::npos;) {
        at += std::string("add_executable(").size();
        programs.push_back(text.substr(at, text.find_first_of(" )", at) - at));
      }
    }
  }
  for (const auto& e : fs::directory_iterator(fs::path(DLB_SOURCE_DIR) / "scripts")) {
    if (slurp(e.path()).find("common.sh\" ") == std::string::npos &&
        slurp(e.path()).find("common.sh ") == std::string::npos)
      continue;
    if (e.path().filename() != "common.sh")
      programs.push_back("scripts/" + e.path().filename().string());
  }
  EXPECT_GE(programs.size(), 25u);
  for (const auto& p : programs) {
    ASSERT_TRUE(table.count(p)) << p << " has no row in the exit statuses of experiments/README.md";
    for (const std::string col : {"0", "1", "2", "128 + signal"})
      EXPECT_FALSE(table.at(p).count(col) == 0 || table.at(p).at(col).empty()) << p << ": " << col;
  }
}
#endif

// Faults that need a live sweep: fake apps (tests/fixtures/fake_dlb_app.sh) that wait to be
// killed, one of them with a background sleeper in its process group (as an app's private pvmd
// is), and a simulated run.
namespace {

const char* kTwoRuns =
    "procs = 4\nstrategies = NONE GDDLB\ntimeout = 600\n[app mxm]\n"
    "sizes = n=400 r=400 m=400\n";

class LiveSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    bin_ = f_.root_ / "bin";
    fs::create_directories(bin_);
    for (const std::string app : {"mxm", "trfd", "ac"}) {
      const fs::path w = bin_ / app;
      std::ofstream(w) << "#!/bin/sh\nexec bash '" SWEEP_FIXTURES_DIR "/fake_dlb_app.sh' " << app
                       << " \"$@\"\n";
      fs::permissions(w, fs::perms::owner_all);
    }
    write(f_.fix_ / "two.conf", kTwoRuns);
    marker_ = "tools-" + std::to_string(::getpid()) + "-" + f_.root_.filename().string();
  }
  void TearDown() override {
    // Whatever a failed test left: ended here, never left running.
    for (const pid_t p : testing_support::processes_with_marker(marker_)) ::kill(p, SIGKILL);
    for (const pid_t p : spawned_) {
      int st;
      ::waitpid(p, &st, 0);
    }
  }

  // Starts argv in the background with this test's marker and `env`; stderr to `err`.
  // `session`: in a session of its own (setsid), as a driver started from a service would be.
  pid_t spawn(const std::vector<std::string>& argv,
              const std::vector<std::pair<std::string, std::string>>& env, const fs::path& err,
              bool session = false) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      if (session) {
        ::setsid();
      } else {
        ::setpgid(0, 0);
      }
      // A driver's own supervisor (scripts/common.sh), even under make test-stress's.
      ::unsetenv("DLB_DRIVER_SUPERVISED");
      ::setenv("DLB_TEST_MARKER", marker_.c_str(), 1);
      for (const auto& [k, v] : env) ::setenv(k.c_str(), v.c_str(), 1);
      const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      ::dup2(fd, 2);
      ::dup2(fd, 1);
      std::vector<char*> a;
      for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
      a.push_back(nullptr);
      ::execv(a[0], a.data());
      ::_exit(127);
    }
    spawned_.push_back(pid);
    return pid;
  }

  int wait_exit(pid_t pid) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    spawned_.erase(std::remove(spawned_.begin(), spawned_.end(), pid), spawned_.end());
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  }

  // Polls `done` every 20 ms up to `limit_s` (a bound, not a guess at the machine's speed).
  static bool wait_for(const std::function<bool()>& done, double limit_s) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit_s);
    while (!done()) {
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
  }

  // Processes of this test (the marker) other than the ones it spawned itself.
  std::vector<pid_t> runs_left() const {
    std::vector<pid_t> v;
    for (const pid_t p : testing_support::processes_with_marker(marker_)) {
      if (std::find(spawned_.begin(), spawned_.end(), p) == spawned_.end()) v.push_back(p);
    }
    return v;
  }

  std::vector<std::string> sweep_args(const fs::path& conf, const fs::path& bin) const {
    return {DLB_SWEEP_BIN, "--config",   conf.string(), "--out", (f_.R_ / "live.csv").string(),
            "--bin-dir",   bin.string(), "--grace",     "1"};
  }

  ToolsFixture f_;
  fs::path bin_;
  std::string marker_;
  std::vector<pid_t> spawned_;
};

}  // namespace

#if !TOOLS_PVM_TESTS
TEST_F(LiveSweep, ASecondSweepOnTheFolderIsRefusedNamingTheFirst) {
  const fs::path pidfile = f_.root_ / "sleeper.pid";
  const pid_t first = spawn(sweep_args(f_.fix_ / "two.conf", bin_),
                            {{"FAKE_APP_HANG", "mxm:NONE:*"}, {"FAKE_APP_PIDFILE", pidfile}},
                            f_.root_ / "first.err");
  // The first sweep holds the folder and its first run is going.
  ASSERT_TRUE(wait_for([&] { return fs::exists(pidfile) && fs::file_size(pidfile) > 0; }, 60))
      << slurp(f_.root_ / "first.err");
  const auto before = snapshot({f_.R_});
  const auto second = testing_support::run_process(sweep_args(f_.fix_ / "two.conf", bin_), 60);
  EXPECT_EQ(second.exit_code, 2) << second.err;
  EXPECT_NE(second.err.find("pid " + std::to_string(first)), std::string::npos) << second.err;
  EXPECT_NE(second.err.find(f_.R_.string()), std::string::npos) << second.err;
  EXPECT_EQ(snapshot({f_.R_}), before) << "the second sweep changed the results folder";
  // Ctrl-C ends the first one and its run.
  ::kill(first, SIGINT);
  EXPECT_EQ(wait_exit(first), 130);
  EXPECT_TRUE(wait_for([&] { return runs_left().empty(); }, 30)) << "a run was left";
}

TEST_F(LiveSweep, KillNineOfTheSweepEndsItsRunsAndTheirGroup) {
  const fs::path pidfile = f_.root_ / "sleeper.pid";
  const pid_t sweep = spawn(sweep_args(f_.fix_ / "two.conf", bin_),
                            {{"FAKE_APP_HANG", "mxm:NONE:*"}, {"FAKE_APP_PIDFILE", pidfile}},
                            f_.root_ / "sweep.err");
  ASSERT_TRUE(wait_for([&] { return fs::exists(pidfile) && fs::file_size(pidfile) > 0; }, 60))
      << slurp(f_.root_ / "sweep.err");
  ASSERT_FALSE(runs_left().empty());
  ::kill(sweep, SIGKILL);
  EXPECT_EQ(wait_exit(sweep), 128 + SIGKILL);
  // The app (PR_SET_PDEATHSIG), the sleeper in its group and the sweep's guard all go.
  EXPECT_TRUE(wait_for([&] { return runs_left().empty(); }, 30))
      << "left: " << runs_left().size() << " processes";
  // A resume at once finds the folder free (the guard is gone) and runs what is left.
  const auto resume = testing_support::run_process(sweep_args(f_.fix_ / "two.conf", bin_), 120);
  EXPECT_EQ(resume.exit_code, 0) << resume.err;
  EXPECT_NE(resume.err.find("2 rows in"), std::string::npos) << resume.err;
}

TEST_F(LiveSweep, AResumeStartedAtOnceAfterKillNineWaitsForTheKilledRuns) {
  const fs::path pidfile = f_.root_ / "sleeper.pid";
  const pid_t sweep = spawn(sweep_args(f_.fix_ / "two.conf", bin_),
                            {{"FAKE_APP_HANG", "mxm:NONE:*"}, {"FAKE_APP_PIDFILE", pidfile}},
                            f_.root_ / "sweep.err");
  ASSERT_TRUE(wait_for([&] { return fs::exists(pidfile) && fs::file_size(pidfile) > 0; }, 60))
      << slurp(f_.root_ / "sweep.err");
  ::kill(sweep, SIGKILL);
  EXPECT_EQ(wait_exit(sweep), 128 + SIGKILL);
  // At once: the killed sweep's guard may still hold the folder while it ends the runs; the
  // resume waits for it rather than competing with them, then runs both runs.
  const auto resume = testing_support::run_process(sweep_args(f_.fix_ / "two.conf", bin_), 120);
  EXPECT_EQ(resume.exit_code, 0) << resume.err;
  EXPECT_NE(resume.err.find("2 rows in"), std::string::npos) << resume.err;
  EXPECT_TRUE(runs_left().empty()) << "the killed sweep's runs outlived the resume";
}

// A TERM or a HUP to a driver under scripts/ (scripts/quick, in a session of its own as the
// issue's `setsid bash scripts/quick` was; its apps fake ones that hang) ends what it started:
// the driver exits 128 + the signal, no process of it is left (its dlb_sweep, the sweep's guard,
// the runs and their sleepers), and a sweep into the same results folder starts at once.
class DriverTest : public LiveSweep {
 protected:
  // A build folder of the real tools (the drivers' supervisor among them) and the fake apps.
  fs::path fake_build(const std::vector<std::pair<std::string, std::string>>& more = {}) {
    const fs::path build = f_.root_ / "build";
    fs::create_directories(build / "experiments");
    std::vector<std::pair<std::string, std::string>> tools{{"dlb_sweep", DLB_SWEEP_BIN},
                                                           {"dlb_summary", DLB_SUMMARY_BIN},
                                                           {"dlb_expected", DLB_EXPECTED_BIN},
                                                           {"dlb_supervise", DLB_SUPERVISE_BIN}};
    tools.insert(tools.end(), more.begin(), more.end());
    for (const auto& [name, bin] : tools) fs::create_symlink(bin, build / "experiments" / name);
    fs::create_directory_symlink(bin_, build / "apps");
    return build;
  }
  // scripts/quick on the fake build, its apps hanging, waited for until a run has started (its
  // sleeper wrote its pid: the driver is inside its first sweep). Or the driver has ended, a
  // zombie: then the test fails at once with its messages.
  pid_t quick_in_its_first_run(const fs::path& out) {
    const fs::path pidfile = f_.root_ / "sleeper.pid";
    const pid_t driver = spawn({"/bin/bash", DLB_SOURCE_DIR "/scripts/quick"},
                               {{"BUILD", fake_build().string()},
                                {"OUT", out.string()},
                                {"FAKE_APP_HANG", "*"},
                                {"FAKE_APP_PIDFILE", pidfile.string()}},
                               f_.root_ / "driver.err", true);
    const auto started = [&] { return fs::exists(pidfile) && fs::file_size(pidfile) > 0; };
    wait_for([&] { return started() || ended(driver); }, 120);
    return started() ? driver : -1;
  }
  static bool ended(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    const auto paren = text.rfind(')');
    return paren == std::string::npos || text.substr(paren + 2, 1) == "Z";
  }
  // A sweep into `out`'s folder starts at once: nothing holds it.
  void folder_is_free(const fs::path& out) {
    const auto next = testing_support::run_process(
        {DLB_SWEEP_BIN, "--config", (f_.fix_ / "two.conf").string(), "--out",
         (out / "paper" / "other.csv").string(), "--bin-dir", bin_.string()},
        120);
    EXPECT_EQ(next.exit_code, 0) << next.err;
    EXPECT_EQ(next.err.find("in use"), std::string::npos) << next.err;
  }
};

class DriverStopped : public DriverTest, public ::testing::WithParamInterface<int> {};

TEST_P(DriverStopped, EndsItsSweepAndItsRunsAndFreesTheFolder) {
  const int sig = GetParam();
  const fs::path out = f_.R_ / "quick";
  const pid_t driver = quick_in_its_first_run(out);
  ASSERT_GT(driver, 0) << slurp(f_.root_ / "driver.err");
  ASSERT_FALSE(runs_left().empty());
  ::kill(driver, sig);
  EXPECT_EQ(wait_exit(driver), 128 + sig) << slurp(f_.root_ / "driver.err");
  EXPECT_TRUE(exit_status_documented("scripts/quick", 128 + sig));
  EXPECT_TRUE(runs_left().empty())
      << runs_left().size() << " processes of the driver left; " << slurp(f_.root_ / "driver.err");
  folder_is_free(out);
}

INSTANTIATE_TEST_SUITE_P(Signals, DriverStopped, ::testing::Values(SIGTERM, SIGHUP),
                         [](const auto& info) { return info.param == SIGTERM ? "TERM" : "HUP"; });

// kill -9 of any process of a driver (issue 55): the driver's own pid (the supervisor's front),
// its supervisor, or the script it runs. Nothing of it is left within a bound (the issue's
// target is 5 s; the bound is twice that), and a sweep into its folder starts at once.
enum class victim { front, supervisor, script };

class DriverKilled : public DriverTest, public ::testing::WithParamInterface<victim> {
 protected:
  // The driver's process that is `v`, by its program (/proc/PID/exe) and its parent: the
  // supervisor is the front's child, the script (bash scripts/quick) the supervisor's.
  pid_t find(victim v, pid_t front) const {
    if (v == victim::front) return front;
    const pid_t supervisor = v == victim::script ? find(victim::supervisor, front) : -1;
    for (const pid_t p : testing_support::processes_with_marker(marker_)) {
      std::error_code ec;
      const std::string exe =
          fs::read_symlink("/proc/" + std::to_string(p) + "/exe", ec).filename().string();
      std::ifstream stat("/proc/" + std::to_string(p) + "/stat");
      std::string text;
      std::getline(stat, text);
      const auto paren = text.rfind(')');
      if (paren == std::string::npos) continue;
      const pid_t ppid = static_cast<pid_t>(std::atol(text.c_str() + paren + 4));
      if (v == victim::supervisor && exe == "dlb_supervise" && ppid == front) return p;
      if (v == victim::script && exe == "bash" && ppid == supervisor) return p;
    }
    return -1;
  }
};

TEST_P(DriverKilled, NothingOfItIsLeftAndItsFolderIsFree) {
  const fs::path out = f_.R_ / "quick";
  const pid_t driver = quick_in_its_first_run(out);
  ASSERT_GT(driver, 0) << slurp(f_.root_ / "driver.err");
  const pid_t target = find(GetParam(), driver);
  ASSERT_GT(target, 0) << "no such process of the driver";
  ::kill(target, SIGKILL);
  EXPECT_EQ(wait_exit(driver), 128 + SIGKILL) << slurp(f_.root_ / "driver.err");
  EXPECT_TRUE(exit_status_documented("scripts/quick", 128 + SIGKILL));
  EXPECT_TRUE(wait_for([&] { return runs_left().empty(); }, 10))
      << runs_left().size() << " processes of the driver left; " << slurp(f_.root_ / "driver.err");
  folder_is_free(out);
}

INSTANTIATE_TEST_SUITE_P(Victims, DriverKilled,
                         ::testing::Values(victim::front, victim::supervisor, victim::script),
                         [](const auto& info) {
                           return info.param == victim::front        ? "Front"
                                  : info.param == victim::supervisor ? "Supervisor"
                                                                     : "Script";
                         });

// A TERM to scripts/embed-bench ends its MPI job though `timeout` put the job in a process group
// of its own (issue 55): an mpirun that starts a rank-like sleeper and waits, found first on
// PATH; the driver exits 143 with nothing of it left.
TEST_F(DriverTest, EmbedBenchStoppedEndsItsTimeoutWrappedJob) {
  const fs::path fake = f_.root_ / "fake_mpi", pidfile = f_.root_ / "rank.pid";
  fs::create_directories(fake);
  std::ofstream(fake / "mpirun") << "#!/bin/sh\nsleep 1000 &\necho $! >\"$FAKE_MPIRUN_PIDFILE\"\n"
                                    "wait\n";
  fs::permissions(fake / "mpirun", fs::perms::owner_all);
  const fs::path build =
      fake_build({{"embed_loop_bench", "/bin/true"}, {"dlb_medians", "/bin/true"}});
  const pid_t driver = spawn({"/bin/bash", DLB_SOURCE_DIR "/scripts/embed-bench"},
                             {{"BUILD", build.string()},
                              {"OUT", (f_.root_ / "embed").string()},
                              {"REPS", "1"},
                              {"PATH", fake.string() + ":" + std::getenv("PATH")},
                              {"FAKE_MPIRUN_PIDFILE", pidfile.string()}},
                             f_.root_ / "driver.err", true);
  const auto started = [&] { return fs::exists(pidfile) && fs::file_size(pidfile) > 0; };
  wait_for([&] { return started() || ended(driver); }, 120);
  ASSERT_TRUE(started()) << slurp(f_.root_ / "driver.err");
  ::kill(driver, SIGTERM);
  EXPECT_EQ(wait_exit(driver), 128 + SIGTERM) << slurp(f_.root_ / "driver.err");
  EXPECT_TRUE(runs_left().empty())
      << runs_left().size() << " processes of the job left; " << slurp(f_.root_ / "driver.err");
}

TEST_F(LiveSweep, KillNineOfASimulatedSweepEndsItsRun) {
  // Simulated TRFD runs of about a second each, ten of them: the sweep is killed as soon as one
  // has started, whatever the machine's speed.
  write(f_.fix_ / "sim.conf",
        "backend = sim\nprocs = 16\nstrategies = GDDLB\nrepetitions = 10\ntimeout = 600\n"
        "[app trfd]\nsizes = n=60\n");
  const pid_t sweep =
      spawn(sweep_args(f_.fix_ / "sim.conf", APPS_BIN_DIR), {}, f_.root_ / "sweep.err");
  // The run has started: a process of this test besides the sweep (its guard, then the app).
  const auto app_running = [&] {
    for (const pid_t p : runs_left()) {
      std::error_code ec;
      if (fs::read_symlink("/proc/" + std::to_string(p) + "/exe", ec).filename() == "trfd")
        return true;
    }
    return false;
  };
  ASSERT_TRUE(wait_for(app_running, 60)) << slurp(f_.root_ / "sweep.err");
  ::kill(sweep, SIGKILL);
  EXPECT_EQ(wait_exit(sweep), 128 + SIGKILL);
  EXPECT_TRUE(wait_for([&] { return runs_left().empty(); }, 30)) << "the simulated run was left";
}
#else
// The same on PVM tasks (tools_pvm_tests, label integration): a run's app, its private pvmd and
// its slave tasks all end after kill -9 of the sweep.
TEST_F(LiveSweep, KillNineOfAPvmSweepEndsItsRunAndItsPvmd) {
  // Emulated-clock TRFD runs of several wall seconds each, ten of them.
  write(f_.fix_ / "pvm.conf",
        "backend = pvm\nprocs = 4\nstrategies = GDDLB\nrepetitions = 10\ntimeout = 600\n"
        "[app trfd]\nsizes = n=60\n");
  // The runs' PVM files in a PVM_TMP of this test's own, removed with it: a task killed while
  // PVM sets up a connection leaves its socket there (a known limit, cleanup_test.cpp).
  const fs::path pvm_tmp = f_.root_ / "pvm_tmp";
  fs::create_directories(pvm_tmp);
  const pid_t sweep = spawn(sweep_args(f_.fix_ / "pvm.conf", APPS_BIN_DIR),
                            {{"PVM_TMP", pvm_tmp.string()}}, f_.root_ / "sweep.err");
  // The run's private pvmd is up and its four slave tasks run (they carry this test's marker,
  // as the app and the pvmd do).
  const auto pvmd_running = [&] {
    bool pvmd = false;
    int slaves = 0;
    for (const pid_t p : runs_left()) {
      std::ifstream comm("/proc/" + std::to_string(p) + "/comm");
      std::string name;
      if (std::getline(comm, name) && name.rfind("pvmd", 0) == 0) pvmd = true;
      std::ifstream cmdline("/proc/" + std::to_string(p) + "/cmdline", std::ios::binary);
      std::ostringstream args;
      args << cmdline.rdbuf();
      if (args.str().find("--dlb-slave") != std::string::npos) ++slaves;
    }
    return pvmd && slaves == 4;
  };
  ASSERT_TRUE(wait_for(pvmd_running, 120)) << slurp(f_.root_ / "sweep.err");
  ::kill(sweep, SIGKILL);
  EXPECT_EQ(wait_exit(sweep), 128 + SIGKILL);
  EXPECT_TRUE(wait_for([&] { return runs_left().empty(); }, 60))
      << "left: " << runs_left().size() << " processes (the app, its pvmd or its tasks)";
}

#ifdef DLB_MPIRUN
// kill -9 of a sweep during an MPI run leaves none of Open MPI's files: the run's session
// directory and shared-memory segments are in the run's own folder under /dev/shm
// (dlb-sweep-PID-run1), which the sweep's guard removes once it has ended the job. (Before,
// each run left about 20 MiB of vader segments in /dev/shm itself.)
TEST_F(LiveSweep, KillNineOfAnMpiSweepLeavesNoSharedMemory) {
  write(f_.fix_ / "mpi.conf",
        "backend = mpi\nprocs = 4\nstrategies = GDDLB\nrepetitions = 10\ntimeout = 600\n"
        "[app trfd]\nsizes = n=60\n");
  const pid_t sweep = spawn(sweep_args(f_.fix_ / "mpi.conf", APPS_BIN_DIR),
                            {{"DLB_MPIRUN", DLB_MPIRUN}}, f_.root_ / "sweep.err");
  const fs::path dir = "/dev/shm/dlb-sweep-" + std::to_string(sweep) + "-run1";
  // The job is up: every rank has mapped its segment, in the run's folder.
  const auto segments = [&] {
    std::error_code ec;
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().filename().string().rfind("vader_segment.", 0) == 0) ++n;
    }
    return n;
  };
  ASSERT_TRUE(wait_for([&] { return segments() == 5; }, 120)) << slurp(f_.root_ / "sweep.err");
  ::kill(sweep, SIGKILL);
  EXPECT_EQ(wait_exit(sweep), 128 + SIGKILL);
  EXPECT_TRUE(wait_for([&] { return runs_left().empty(); }, 60)) << "a rank or mpirun was left";
  EXPECT_TRUE(wait_for([&] { return !fs::exists(dir); }, 30)) << dir << " was left";
}
#endif
#endif
