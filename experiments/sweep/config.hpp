// The sweep configuration format and the run plan it expands to.
//
// A config is `key = value` lines; '#' starts a comment. Lines before the first section set
// defaults; each `[app NAME]` section (NAME: mxm, trfd or ac) is one block of runs and may
// override any default. The same app may have several sections (e.g. other sizes for P=16, or
// runs without external load). Every section expands to
//   procs x sizes x repetitions x strategies
// in that nesting order, so the strategies of one (configuration, repetition) run back to back
// and share one load seed (paired runs). See experiments/README.md for the key list.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dlb/core/paper.hpp"

namespace dlb::sweep {

class config_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The strategies an app accepts, in report order; NONE is the unbalanced baseline, AUTO the
// customized mode, SS..AWF the self-scheduling baselines (CSS:k, any k >= 1, is accepted too).
const std::vector<std::string>& known_strategies();
// Why a config's strategy name is refused (unknown, CSS without k or with k < 1, not spelled as
// the programs echo it), or empty if it is accepted.
std::string strategy_error(const std::string& name);
const std::vector<std::string>& known_apps();
// The runtime's backends: pvm (real PVM tasks; the default) and sim (SimGrid).
const std::vector<std::string>& known_backends();

// One data size: ordered name=value parameters, e.g. n=400 r=400 m=400.
struct size_spec {
  std::vector<std::pair<std::string, std::int64_t>> params;
  // "n=400 r=400 m=400": the `size` column of results files.
  std::string label() const;
};
// Parses a size label ("n=400 r=400 m=400"; commas accepted as separators too).
// Throws config_error on malformed text.
size_spec parse_size(std::string_view text);

// One run: every parameter that identifies it.
struct run_spec {
  std::string app;
  int procs = 0;
  int group = 0;  // K
  size_spec size;
  std::string strategy;
  int rep = 0;  // 0-based repetition
  std::uint64_t seed = 0;
  int ml = dlb::paper::max_load;
  double tl = 1.0;
  std::string clock = "emulated";
  double scale = 20.0;
  std::string network = "ethernet1996";
  std::string backend = "pvm";  // pvm (real PVM tasks), sim (SimGrid, virtual time) or mpi
                                // (MPI ranks: the app under mpirun, $DLB_MPIRUN or mpirun)
  std::string extra_args;       // passed through to the app after the standard options
  double timeout_s = 600.0;     // not part of the identity: a longer timeout is the same run
  double cpu_timeout_s = 0.0;   // CPU seconds of the run's process before it is stopped (0: no
                                // bound); not part of the identity either

  // Column names of the identity, in results-file order, and this run's values for them.
  static const std::vector<std::string>& key_columns();
  std::vector<std::string> key_values() const;
  // One string identifying the run (the key values joined by a unit separator).
  std::string key() const;
  // The app's command line (under mpi: mpirun --oversubscribe -np P+1 APP ...).
  std::vector<std::string> argv(const std::filesystem::path& bin_dir) const;
  // Short human label for progress lines.
  std::string describe() const;
  // Must this run have the machine to itself? Emulated-clock runs on real PVM tasks sleep
  // to emulated deadlines in wall time: sharing the cores inflates their times (lag). Simulated
  // runs (virtual time) and native-clock runs may run side by side (dlb_sweep --jobs).
  bool needs_machine_alone() const {
    return (backend == "pvm" || backend == "mpi") && clock == "emulated";
  }
};

struct sweep_plan {
  std::vector<run_spec> runs;
  std::string text;  // the config file's text, recorded in the results header
};

// Is `later` the same policy as `earlier` on the same program (app, extra arguments), network,
// backend, clock and load maximum at a larger P (size, K, tl and seed aside)? Such a run is
// expected to take longer still: `dlb_sweep --skip-after-timeout` does not make it once
// `earlier` ran out of time.
bool grows_from(const run_spec& later, const run_spec& earlier);

// Parses a config. `source` names it in errors ("FILE:LINE: message"). Throws config_error on
// any bad key, value or combination, and if two sections plan the same run.
sweep_plan parse_config(std::string_view text, std::string_view source);
sweep_plan read_config(const std::filesystem::path& path);

}  // namespace dlb::sweep
