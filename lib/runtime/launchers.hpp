// launchers.hpp (internal): one launcher per backend, called by run_app (launch.cpp). Each
// creates the transport and clock of every task it runs, hands them to a runtime and ends in
// run_task; it returns the master's exit code.
#pragma once

#include <cstdint>
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

int launch_pvm_master(const launch_spec& spec, options opts, run_params params,
                      const app_body& body);
int launch_pvm_slave(const launch_spec& spec, const app_body& body);
int launch_sim(const launch_spec& spec, options opts, run_params params, const app_body& body);
// Every rank of an MPI job runs this (lib/mpi/mpi_launcher.cpp; built where MPI is found).
int launch_mpi(const launch_spec& spec, options opts, run_params params, const app_body& body);

}  // namespace dlb::detail
