// runtime.cpp: the options and parameters of a run, and one task's runtime over the transport
// and clock its launcher gives it (launchers: pvm_launcher.cpp, sim.cpp; run_app: launch.cpp).
#include "dlb/runtime/runtime.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "dlb/runtime/network_profile.hpp"

namespace dlb {

namespace {
// Slaves a PVM run may have on this kind of machine; the simulator goes further.
constexpr int kMaxPvmSlaves = 64;
constexpr int kMaxSimSlaves = 4096;

std::vector<double> parse_speeds(const std::string& text, int procs) {
  std::vector<double> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    try {
      std::size_t used = 0;
      double x = std::stod(item, &used);
      if (used != item.size() || !(x > 0) || !std::isfinite(x)) throw std::invalid_argument(item);
      v.push_back(x);
    } catch (const std::exception&) {
      throw usage_error("option --speeds needs positive numbers separated by commas, got '" + text +
                        "'");
    }
  }
  if (v.size() == 1) v.assign(static_cast<std::size_t>(procs), v[0]);
  if (v.size() != static_cast<std::size_t>(procs)) {
    throw usage_error("option --speeds needs 1 or P = " + std::to_string(procs) + " values, got " +
                      std::to_string(v.size()));
  }
  return v;
}
}  // namespace

std::vector<option_spec> common_options() {
  return {
      {"strategy", "GDDLB",
       "NONE, GCDLB, GDDLB, LCDLB, LDDLB or AUTO (customized: the model chooses)"},
      {"backend", "pvm",
       "pvm (real PVM tasks) or sim (simulated workstations in virtual time, one process)"},
      {"procs", "4", "P, the number of slaves (1..64 under pvm, 1..4096 under sim)"},
      {"group", "0", "K, group size of the local strategies; 0: P/2 as in the paper"},
      {"seed", "1", "seed of the external load function"},
      {"ml", "5", "maximum external load (load uniform in 0..ml); 0: no load"},
      {"tl", "5", "duration of persistence of the load, seconds"},
      {"speeds", "1", "normalized processor speeds S_i: one value or P, comma-separated"},
      {"clock", "emulated",
       "emulated (1996 workstations, dilated time) or native (real time); pvm backend only"},
      {"scale", "10", "emulated seconds per wall second (emulated clock)"},
      {"network", "ethernet1996",
       "emulated network: ethernet1996 (shared medium), switched or ideal"},
      {"latency-us", "2414.5", "network latency L, microseconds (emulated clock)"},
      {"bandwidth-mbps", "0.96", "network bandwidth B, MB/s (10^6 bytes/s; emulated clock)"},
      {"send-overhead", "1", "fraction of L the sender spends per message (0..1)"},
      {"delta-ms", "1", "time the balancer spends on one decision, ms"},
      {"threshold", "-1", "move threshold in iterations; -1: 1% of the loop's iterations"},
      {"improvement", "0.10", "minimum predicted improvement to move work (profitability)"},
      {"after-no-move", "idle",
       "after a decision not to move: idle (the requester idles, the others go on and the next "
       "to run out synchronizes again) or stop (balancing in the group ends)"},
      {"model-load", "run",
       "the external load the cost model assumes: run (the run's own load function: seed, ml, "
       "tl) or estimated (ml and tl estimated from the speeds seen up to the first "
       "synchronization)"},
      {"timeout", "120", "wall-clock bound on every wait, seconds"},
      {"network-profile", "",
       "network profile for the cost model (default: experiments/network/<network>.profile)"},
      {"join-vm", "", "join the PVM virtual machine of the environment instead of a private one",
       true},
      {"quiet", "", "print only the result lines", true},
  };
}

run_params read_params(const options& o) {
  run_params p;
  auto s = core::parse_strategy(o.str("strategy"));
  if (!s) {
    throw usage_error("option --strategy must be NONE, GCDLB, GDDLB, LCDLB, LDDLB or AUTO, got '" +
                      o.str("strategy") + "'");
  }
  p.strategy = *s;
  const std::string& b = o.str("backend");
  if (b != "pvm" && b != "sim")
    throw usage_error("option --backend must be pvm or sim, got '" + b + "'");
  p.backend = b == "sim" ? backend_kind::sim : backend_kind::pvm;
  const bool sim = p.backend == backend_kind::sim;
  p.procs = static_cast<int>(o.integer("procs", 1, kMaxSimSlaves));
  if (!sim && p.procs > kMaxPvmSlaves)
    throw usage_error("option --procs: at most " + std::to_string(kMaxPvmSlaves) +
                      " slaves under --backend pvm (use --backend sim for more), got " +
                      std::to_string(p.procs));
  const auto k = static_cast<int>(o.integer("group", 0, kMaxSimSlaves));
  if (k > p.procs)
    throw usage_error("option --group must not exceed --procs (" + std::to_string(p.procs) +
                      "), got " + std::to_string(k));
  // AUTO keeps K for the case that the model picks a local strategy.
  const bool uses_groups = core::is_local(p.strategy) || p.strategy == core::strategy::automatic;
  p.group = uses_groups ? (k == 0 ? std::max(1, p.procs / 2) : k) : p.procs;
  p.load.seed = static_cast<std::uint64_t>(o.integer("seed", 0, INT64_MAX));
  p.load.max_load = static_cast<int>(o.integer("ml", 0, 1000));
  p.load.persistence = o.real("tl", 1e-6, 1e12);
  p.speeds = parse_speeds(o.str("speeds"), p.procs);
  const std::string& c = o.str("clock");
  if (c != "emulated" && c != "native")
    throw usage_error("option --clock must be emulated or native, got '" + c + "'");
  p.emulated = c == "emulated";
  if (sim && !p.emulated)
    throw usage_error(
        "option --clock native needs --backend pvm (the simulator's time is virtual)");
  p.scale = o.real("scale", 1e-3, 1e6);
  auto net = parse_network(o.str("network"));
  if (!net)
    throw usage_error("option --network must be ethernet1996, switched or ideal, got '" +
                      o.str("network") + "'");
  p.network.kind = *net;
  p.network.latency = o.real("latency-us", 0, 1e9) * 1e-6;
  p.network.bandwidth = o.real("bandwidth-mbps", 1e-9, 1e9) * 1e6;
  p.network.send_overhead = o.real("send-overhead", 0, 1) * p.network.latency;
  // Under the native clock the network is the real one: nothing is modelled.
  if (!p.emulated) p.network.kind = network_kind::ideal;
  if (p.network.kind == network_kind::ideal) p.network.send_overhead = 0;
  p.network.carried_by_transport = sim;
  p.delta = o.real("delta-ms", 0, 1e9) * 1e-3;
  p.threshold = o.integer("threshold", -1, INT64_MAX);
  p.min_improvement = o.real("improvement", 0, 1);
  const auto rule = core::parse_after_no_move(o.str("after-no-move"));
  if (!rule)
    throw usage_error("option --after-no-move must be idle or stop, got '" +
                      o.str("after-no-move") + "'");
  p.after_no_move = *rule;
  const auto model = core::parse_model_load(o.str("model-load"));
  if (!model)
    throw usage_error("option --model-load must be run or estimated, got '" + o.str("model-load") +
                      "'");
  p.model_load = *model;
  p.timeout_s = o.real("timeout", 0.1, 1e7);  // wall time; the simulator detects deadlock
  p.quiet = o.flag("quiet");
  p.network_profile = o.str("network-profile");
  return p;
}

std::string to_string(backend_kind b) { return b == backend_kind::sim ? "sim" : "pvm"; }

runtime::runtime(runtime_setup setup)
    : app_(std::move(setup.app)),
      opts_(std::move(setup.opts)),
      params_(std::move(setup.params)),
      rank_(setup.rank),
      vmid_(std::move(setup.vmid)),
      transport_(*setup.link),
      clock_(*setup.time),
      medium_(std::move(setup.medium)) {
  messenger_ = std::make_unique<messenger>(
      transport_, clock_, network_model(params_.network, medium_),
      std::chrono::milliseconds(static_cast<std::int64_t>(params_.timeout_s * 1000)));
  // The master watches every slave; a slave, the master.
  std::vector<int> watch;
  if (rank_ == 0) {
    for (int r = 1; r <= params_.procs; ++r) watch.push_back(r);
  } else {
    watch.push_back(0);
  }
  std::vector<bool> watched(static_cast<std::size_t>(params_.procs + 1), false);
  for (int r : watch) watched[static_cast<std::size_t>(r)] = true;
  messenger_->set_watched(watched);
  transport_.watch(watch);
  // Everyone starts at time 0 of the run.
  clock_.wait_until(0.0);
}

runtime::~runtime() = default;

const core::network_profile& runtime::model_network() {
  if (!model_network_) {
    std::string path = params_.network_profile;
    if (path.empty()) {
      const std::string name =
          params_.emulated ? to_string(params_.network.kind) : "native-loopback";
      path = std::string(DLB_NETWORK_PROFILE_DIR) + "/" + name + ".profile";
    }
    auto p = std::make_unique<core::network_profile>();
    if (!params_.emulated || params_.network.kind != network_kind::ideal) {
      *p = read_network_profile(path);
    } else {
      p->latency = 0.0;  // ideal: communication is free
      p->bandwidth = 1e18;
    }
    if (params_.emulated && params_.network_profile.empty()) {
      // The reference profile was measured at the paper's L and B; other values scale it.
      const double l = params_.network.latency / p->latency,
                   b = p->bandwidth / params_.network.bandwidth;
      if (params_.network.kind != network_kind::ideal &&
          (std::abs(l - 1) > 1e-3 || std::abs(b - 1) > 1e-3)) {
        throw usage_error(
            "no measured network profile for --latency-us/--bandwidth-mbps other than the paper's; "
            "measure one with dlb_netchar and pass it with --network-profile");
      }
    }
    model_network_ = std::move(p);
  }
  return *model_network_;
}

void runtime::finish() {
  if (master()) {
    messenger_->set_watched(std::vector<bool>(static_cast<std::size_t>(params_.procs + 1), false));
    std::vector<int> all;
    for (int r = 1; r <= params_.procs; ++r) all.push_back(r);
    messenger_->multicast(all, tag::release, {});
    transport_.await_exit(all);
  } else {
    messenger_->wait(with_tag(tag::release), "the master's release at the end of the run");
  }
}

void runtime::abort(const std::string& why) noexcept {
  try {
    writer w;
    w.put(clock_.now()).put(0.0).put_string(why);
    if (master()) {
      std::vector<int> all;
      for (int r = 1; r <= params_.procs; ++r) all.push_back(r);
      transport_.multicast(all, static_cast<int>(tag::abort), w.data());
      for (int r : all) transport_.kill(r);
    } else {
      transport_.send(0, static_cast<int>(tag::abort), w.data(), w.size());
    }
  } catch (const std::exception&) {
    // Aborting is best effort: the run has failed already. (Not catch (...): the simulator
    // unwinds a killed actor with an exception that must pass.)
  }
}

int run_task(runtime& rt, const app_spec& spec, const app_body& body) {
  const bool slave = !rt.master();
  try {
    int rc = body(rt);
    rt.finish();
    return rc;
  } catch (const usage_error& e) {
    std::cerr << spec.name << ": " << e.what() << "\n";
    if (!slave) std::cerr << "see '" << spec.name << " --help'\n";
    rt.abort(e.what());
    return 2;
  } catch (const std::exception& e) {
    std::cerr << spec.name << (slave ? " (slave " + std::to_string(rt.rank()) + ")" : "")
              << ": error: " << e.what() << "\n";
    rt.abort(e.what());
    return 1;
  }
}

}  // namespace dlb
