// What an application run printed, and the status of the run it implies.
//
// The contract with the apps: on success stdout has `Verification = SUCCESSFUL` and one line
// `RESULT key=value ...`; a failed self-check prints `Verification = FAILED` and exits 1. Any
// other nonzero exit, or no RESULT line, is a failed run. A program may also print one line
// `PREDICTION key=value ...` (the synthetic loop: the cost model's prediction of its own run);
// its pairs are recorded after the RESULT ones and never replace them. A launcher that wraps the
// program (experiments/native/native-launch) may print one line `RUNINFO key=value ...` about the
// run's conditions (its external load, the machine's load average), recorded after those.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sweep/config.hpp"

namespace dlb::sweep {

enum class run_status { ok, failed, unverified, timeout };
std::string_view to_string(run_status s);

struct app_output {
  std::vector<std::pair<std::string, std::string>> result;  // the RESULT pairs, in order
  int result_lines = 0;                                     // how many RESULT lines were seen
  std::vector<std::pair<std::string, std::string>> prediction;  // the last PREDICTION line's
  std::vector<std::pair<std::string, std::string>> run_info;    // the last RUNINFO line's
  std::optional<bool> verification;                         // SUCCESSFUL / FAILED / absent
};
// Scans an app's output (stdout and stderr interleaved is fine: only whole lines starting with
// "RESULT ", "PREDICTION ", "RUNINFO " or "Verification =" count). With several RESULT (or PREDICTION) lines
// the last one wins.
app_output parse_app_output(std::string_view text);

// How the child ended.
struct child_end {
  enum class kind { exited, signaled, timed_out };
  kind how = kind::exited;
  int code = 0;  // exit status, or signal number
};
// exit_code column text: "0", "1", "SIGSEGV", "timeout".
std::string exit_text(const child_end& end);

struct run_verdict {
  run_status status = run_status::failed;
  std::string note;  // why, when not ok (or a warning)
};
// The status of a run. RESULT keys that echo the run's own parameters (P, K, size, seed, ...)
// must agree with what was asked; a disagreement makes the run failed (its row would be
// mislabeled otherwise).
run_verdict classify_run(const run_spec& run, const app_output& out, const child_end& end);

// RESULT keys that repeat a parameter column; they are checked, not stored twice.
bool is_echoed_parameter(std::string_view key);

}  // namespace dlb::sweep
