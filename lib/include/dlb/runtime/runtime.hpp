// runtime.hpp: one task of a DLB program (the master, rank 0, or a slave, ranks 1..P), given
// its transport, clock and parameters by a launcher, one per backend:
//
//  - PVM (pvm_launcher.cpp): the program the user starts is the master; it starts a private
//    PVM virtual machine (unless --join-vm), spawns P copies of its own executable as slaves and
//    sends each the run's configuration; each task builds a PVM transport and a native or
//    emulated clock.
//  - simulated (sim.hpp, --backend sim): one process; SimGrid actors, one per workstation, each
//    with a simulated transport and clock, in virtual time.
//  - MPI (lib/mpi, --backend mpi, where the build found MPI): mpirun or srun starts P+1 copies,
//    MPI rank 0 the master; each builds an MPI transport and a native or emulated clock.
//
// The runtime itself builds neither; it runs the application's loops through the DLB calls
// (dlb.hpp) over what it is given. run_app() wraps main(): usage errors exit 2, a failed run
// exits 1 with one line naming what failed (the master aborts and kills the slaves; the
// private virtual machine is halted), and nothing is left running.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dlb/runtime/errors.hpp"
#include "dlb/runtime/options.hpp"
#include "dlb/runtime/params.hpp"

namespace dlb {

// What a launcher gives a runtime, and what it builds on them (internal headers: seam.hpp,
// clocks.hpp, network.hpp, messenger.hpp).
class transport;
class clock;
class shared_medium;
class messenger;
class state_trace;
namespace core {
struct network_profile;  // dlb/core/cost_model.hpp
}
namespace detail {
struct runtime_internals;  // the library's own access (internal header runtime_internals.hpp)
}

// Where the library's words go. The library never writes to a stream itself: every line it has
// for the user (the help text, the HOSTS line, AUTO's notice, PVM's root notice, errors) goes to
// the sink the program gives run_app, which defaults to report_to_standard_streams.
enum class report_kind {
  output,  // what the user asked for: --help, the HOSTS line of a run on several hosts
  notice,  // what the run tells along the way: AUTO's choice, the root notice
  error    // why a run failed or an input was refused
};
using report_sink = std::function<void(report_kind, const std::string& line)>;
// The default sink: output to stdout, notices and errors to stderr, each line flushed.
void report_to_standard_streams(report_kind kind, const std::string& line);

struct app_spec {
  std::string name;                  // "mxm"
  std::string summary;               // one line for --help
  std::vector<option_spec> options;  // the application's own (sizes, t_op)
  // Checks the application's options on the master before any task is started; throws
  // usage_error naming the bad option.
  std::function<void(const dlb::options&)> validate;
};

// The options every DLB program has, and what they mean.
std::vector<option_spec> common_options();

// The run's parameters from its options; `policy`, when given (dlb::mpi::session_params'), is
// the run's policy as it is, in --strategy's place, AUTO-ALL's candidates from --candidates
// unless it has its own.
run_params read_params(const options& o, const std::optional<core::policy>& policy = {});

// What a launcher hands a runtime. The transport and clock outlive the runtime.
struct runtime_setup {
  std::string app;
  options opts;
  run_params params;
  int rank = 0;
  dlb::transport* link = nullptr;
  dlb::clock* time = nullptr;
  // The run's shared segment (network.hpp): the emulated ethernet1996 medium of a PVM run and
  // the ledger of the master's CPU under --balancer master; null when neither is needed.
  std::shared_ptr<shared_medium> medium;
  // The private PVM virtual machine's id, if the launcher started one.
  std::string vmid;
  // The program's sink (run_app's; empty: report_to_standard_streams).
  report_sink report;
};

class runtime {
 public:
  explicit runtime(runtime_setup setup);
  ~runtime();
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  bool master() const { return rank_ == 0; }
  int rank() const { return rank_; }
  int slaves() const { return params_.procs; }
  const options& opts() const { return opts_; }
  const run_params& params() const { return params_; }
  const std::string& app_name() const { return app_; }
  std::string vmid() const { return vmid_; }
  // The task's clock now (seconds: emulated, simulated or real, as the run's clock is).
  double now();
  // A slave's computation, synchronization and idle intervals under --trace-dir (internal
  // header state_trace.hpp); null without it, and on the master.
  state_trace* states() { return states_.get(); }
  // The network as the cost model sees it: --network-profile, or the reference profile measured
  // for the network in use (<network>.profile; native-loopback.profile under the native clock),
  // found by find_network_profile (network_profile.hpp). Read once, on first use.
  const core::network_profile& model_network();
  // The loop body's report of its own cost, for a loop without a work function (loop_spec): the
  // emulated clock and the simulated backend advance by `base_seconds` of the base workstation,
  // stretched by the load (under the native clock, work is real time: nothing to report).
  void compute(double base_seconds);
  // A line for the user, through the program's sink (run_app's).
  void report(report_kind kind, const std::string& line) const;
  // Loops are numbered in program order, the same on every task.
  int next_loop_id() { return ++loops_; }
  // --on-loss recover: the slaves (by rank) known to be lost, for the rest of the run (the
  // master learns it from the task-exit notice, a slave from the master's LOST).
  bool lost(int rank) const {
    return rank >= 0 && static_cast<std::size_t>(rank) < lost_.size() &&
           lost_[static_cast<std::size_t>(rank)];
  }
  void mark_lost(int rank);
  // Fault injection: a slave calls this at each iteration boundary (after the iteration) and as
  // it enters each synchronization; when core::fault_due says the run's fault is due here, the
  // slave ends as a lost workstation would (transport::lose_self), or with --fault-mark waits to
  // be ended from outside. Counts the slave's progress over the run's loops.
  void fault_point(bool entering_sync);

  // Master: the run is over; release the slaves (they exit 0). Slave: wait for the release.
  void finish();
  // Master: tell the slaves why the run failed and kill them. Slave: tell the master. Never
  // throws.
  void abort(const std::string& why) noexcept;

 private:
  // The messages, the clock and the transport under them: the library's own (and two tools',
  // apps/synthetic and dlb_netchar), through the internal header runtime_internals.hpp.
  friend struct detail::runtime_internals;
  std::string app_;
  options opts_;
  run_params params_;
  int rank_ = 0;
  int loops_ = 0;
  std::vector<bool> lost_;
  std::int64_t iterations_done_ = 0;  // this slave's, over the run's loops (fault_point)
  std::int64_t syncs_entered_ = 0;
  // --fault-mark: writes the mark and waits, bounded by --timeout, for the fault from outside.
  void await_outside_fault();
  std::string vmid_;
  report_sink report_;
  dlb::transport& transport_;
  dlb::clock& clock_;
  std::shared_ptr<shared_medium> medium_;
  std::unique_ptr<messenger> messenger_;
  std::unique_ptr<core::network_profile> model_network_;
  // --trace-dir: every message this task sends, one line each; a slave's intervals too.
  void trace_messages(const std::string& dir);
  std::unique_ptr<std::ofstream> trace_;
  std::unique_ptr<state_trace> states_;
};

using app_body = std::function<int(runtime&)>;

// Runs `body` on every task under the backend of --backend; returns the process exit code (0,
// 1 on a failed run, 2 on a usage error). The body's return value is the master's exit code.
// Every line the library has for the user goes to `report` (empty: report_to_standard_streams;
// in the simulated backend every task calls it from the one process).
int run_app(int argc, char** argv, const app_spec& spec, const app_body& body,
            const report_sink& report = {});

// One task's life on a runtime: body, then finish; a usage error returns 2, a failure 1 after
// aborting the run (the error is printed, naming the task). Every launcher ends in it.
int run_task(runtime& rt, const app_spec& spec, const app_body& body);

}  // namespace dlb
