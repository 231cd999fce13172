// launchers.hpp (internal): the backends' side of the runtime. Each backend (lib/backends/pvm,
// sim, mpi) registers a launcher by name (register_backend, from a static object of its own
// folder); run_app (launch.cpp) looks it up by the name --backend gives, so the runtime names
// none of them and a build without one has no entry for it. A launcher creates the transport and
// clock of every task it runs, hands them to a runtime and ends in run_task; it returns the
// master's exit code.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/seam.hpp"
#include "dlb/runtime/strategy_table.hpp"

namespace dlb::detail {

// The flag that marks a PVM task spawned by a master.
inline constexpr const char* kSlaveFlag = "--dlb-slave";

// What run_app hands a launcher: the program's description and where its lines go (never
// empty: the program's sink or report_to_standard_streams).
struct launch_spec : app_spec {
  report_sink report;
};
inline const report_sink& report_of(const launch_spec& spec) { return spec.report; }

// What run_app checks of the common options before any task runs, and so does a user's
// dlb::mpi::session: a network profile it cannot read, a --trace-dir that is not a directory
// (usage_error).
void check_run_options(const options& opts, const run_params& params);

// The common options and the application's own.
std::vector<option_spec> all_options(const app_spec& spec);

// The clock of task `rank` (0: the master, unloaded): emulated or native, as params say.
std::unique_ptr<dlb::clock> make_clock(const run_params& p, int rank, std::int64_t epoch_ns);
// Removes the shared segments (/dev/shm/dlb-medium-<pid>-...) of runs whose master is gone: a
// master killed with SIGKILL cannot unlink its own. Best effort, never fails a run.
void remove_stale_segments() noexcept;

// The rank this process has in a job started by mpirun or srun (from their environment), or -1
// outside one. Read before MPI starts: only rank 0 reports a bad command line.
int launched_rank();

// One backend, as it registers itself.
struct backend {
  std::string name;  // as --backend names it: "pvm", "sim", "mpi"
  // Runs every task of the run this process starts, or is one of; the master's exit code.
  std::function<int(const launch_spec&, options, run_params, const app_body&)> launch;
  // A task the backend started itself (a PVM slave, spawned with kSlaveFlag); empty if none.
  std::function<int(const launch_spec&, const app_body&)> started_task;
};
void register_backend(backend b);
// The backend of that name, or null when this build has none.
const backend* find_backend(const std::string& name);
// A backend's registration: a static object in its own folder.
struct backend_registrar {
  explicit backend_registrar(backend b) { register_backend(std::move(b)); }
};

}  // namespace dlb::detail
