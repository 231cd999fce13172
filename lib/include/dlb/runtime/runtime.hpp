// runtime.hpp: one DLB program's processes. The program the user starts is the master (rank 0);
// it starts a private PVM virtual machine (unless --join-vm), spawns P copies of its own
// executable as slaves (ranks 1..P), and sends each the run's configuration. Master and slaves
// then build the same transport, clock and network model, and run the application's loops
// through the DLB calls (dlb.hpp).
//
// run_app() wraps main(): usage errors exit 2, a failed run exits 1 with one line naming what
// failed (the master aborts and kills the slaves; the private virtual machine is halted), and
// nothing is left running.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dlb/core/cost_model.hpp"
#include "dlb/core/load.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/core/strategy.hpp"
#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/options.hpp"

namespace dlb {

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

// The run's parameters, read from the options (identically on master and slaves).
struct run_params {
  core::strategy strategy = core::strategy::gddlb;
  int procs = 4;  // P
  int group = 4;  // K (resolved: P for global strategies)
  core::load_function load;
  std::vector<double> speeds;  // S_i per slave
  bool emulated = true;
  double scale = 10.0;
  network_params network;
  double send_overhead = 0.0;   // seconds of the sender's time per message
  double delta = 0.0;           // seconds the balancer spends on one decision
  std::int64_t threshold = -1;  // move threshold in iterations; -1: 1% of the loop
  double min_improvement = 0.10;
  double timeout_s = 120.0;  // wall-clock bound on every wait
  bool quiet = false;
  std::string network_profile;  // file for the cost model; empty: the reference profile
};
run_params read_params(const options& o);

class runtime {
 public:
  runtime(int argc, char** argv, const app_spec& spec);
  ~runtime();
  runtime(const runtime&) = delete;
  runtime& operator=(const runtime&) = delete;

  bool master() const { return rank_ == 0; }
  int rank() const { return rank_; }
  int slaves() const { return params_.procs; }
  const options& opts() const { return opts_; }
  const run_params& params() const { return params_; }
  messenger& net() { return *messenger_; }
  dlb::clock& clock() { return *clock_; }
  const std::string& app_name() const { return app_; }
  std::string vmid() const;
  // The network as the cost model sees it: --network-profile, or the reference profile measured
  // for the network in use (experiments/network/<network>.profile; native-loopback.profile
  // under the native clock). Read once, on first use.
  const core::network_profile& model_network();
  // Loops are numbered in program order, the same on every task.
  int next_loop_id() { return ++loops_; }

  // Master: the run is over; release the slaves (they exit 0). Slave: wait for the release.
  void finish();
  // Master: tell the slaves why the run failed and kill them. Never throws.
  void abort(const std::string& why) noexcept;

 private:
  struct pvm_parts;
  std::string app_;
  options opts_;
  run_params params_;
  int rank_ = 0;
  int loops_ = 0;
  std::unique_ptr<pvm_parts> pvm_;
  std::shared_ptr<shared_medium> medium_;
  std::unique_ptr<dlb::clock> clock_;
  std::unique_ptr<messenger> messenger_;
  std::unique_ptr<core::network_profile> model_network_;
};

// Runs `body` on every task; returns the process exit code (0, 1 on a failed run, 2 on a
// usage error). The body's return value is the master's exit code.
int run_app(int argc, char** argv, const app_spec& spec, const std::function<int(runtime&)>& body);

}  // namespace dlb
