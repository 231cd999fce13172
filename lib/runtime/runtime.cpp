// runtime.cpp: starting, configuring and stopping the tasks of a DLB program.
#include "dlb/runtime/runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "dlb/runtime/network_profile.hpp"
#include "dlb/runtime/pvm_transport.hpp"
#include "pvm/pvm.hpp"

namespace dlb {

namespace {
constexpr const char* kSlaveFlag = "--dlb-slave";
constexpr int kConfigTag = static_cast<int>(tag::config);

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
      {"procs", "4", "P, the number of slaves (1..64)"},
      {"group", "0", "K, group size of the local strategies; 0: P/2 as in the paper"},
      {"seed", "1", "seed of the external load function"},
      {"ml", "5", "maximum external load (load uniform in 0..ml); 0: no load"},
      {"tl", "5", "duration of persistence of the load, seconds"},
      {"speeds", "1", "normalized processor speeds S_i: one value or P, comma-separated"},
      {"clock", "emulated", "emulated (1996 workstations, dilated time) or native (real time)"},
      {"scale", "10", "emulated seconds per wall second (emulated clock)"},
      {"network", "ethernet1996",
       "emulated network: ethernet1996 (shared medium), switched or ideal"},
      {"latency-us", "2414.5", "network latency L, microseconds (emulated clock)"},
      {"bandwidth-mbps", "0.96", "network bandwidth B, MB/s (10^6 bytes/s; emulated clock)"},
      {"send-overhead", "1", "fraction of L the sender spends per message (0..1)"},
      {"delta-ms", "1", "time the balancer spends on one decision, ms"},
      {"threshold", "-1", "move threshold in iterations; -1: 1% of the loop's iterations"},
      {"improvement", "0.10", "minimum predicted improvement to move work (profitability)"},
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
  p.procs = static_cast<int>(o.integer("procs", 1, 64));
  const auto k = static_cast<int>(o.integer("group", 0, 64));
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
  p.delta = o.real("delta-ms", 0, 1e9) * 1e-3;
  p.threshold = o.integer("threshold", -1, INT64_MAX);
  p.min_improvement = o.real("improvement", 0, 1);
  p.timeout_s = o.real("timeout", 0.1, 1e7);
  p.quiet = o.flag("quiet");
  p.network_profile = o.str("network-profile");
  return p;
}

struct runtime::pvm_parts {
  std::unique_ptr<pvm::private_vm> vm;
  std::unique_ptr<pvm::session> session;
  std::unique_ptr<pvm_transport> transport;
};

runtime::runtime(int argc, char** argv, const app_spec& spec)
    : app_(spec.name), pvm_(std::make_unique<pvm_parts>()) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool slave = std::find(args.begin(), args.end(), kSlaveFlag) != args.end();
  auto specs = common_options();
  specs.insert(specs.end(), spec.options.begin(), spec.options.end());

  std::int64_t epoch_ns = 0;
  std::string medium_name;
  std::vector<pvm::tid> tids;
  if (!slave) {
    opts_ = options::parse(specs, args);
    params_ = read_params(opts_);
    if (spec.validate) spec.validate(opts_);
    if (!opts_.flag("join-vm")) {
      pvm::private_vm_options vo;
      vo.root_notice = !params_.quiet;
      pvm_->vm = std::make_unique<pvm::private_vm>(vo);
    }
    pvm_->session = std::make_unique<pvm::session>();
    auto& s = *pvm_->session;
    const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
    auto sp = s.spawn(exe, {kSlaveFlag}, params_.procs);
    if (!sp.complete()) {
      for (auto t : sp.started) {
        try {
          s.kill(t);
        } catch (const pvm::error&) {
        }
      }
      throw run_error("could not start the slaves: " + sp.summary());
    }
    tids.push_back(s.self());
    tids.insert(tids.end(), sp.started.begin(), sp.started.end());
    if (params_.emulated && params_.network.kind == network_kind::ethernet1996) {
      medium_name = "dlb-medium-" + std::to_string(getpid()) + "-" + std::to_string(s.self().value);
      medium_ = std::make_shared<shared_medium>(medium_name, true);
    }
    // Time 0 of the run: far enough ahead for every slave to have its configuration.
    epoch_ns = monotonic_ns() + 50'000'000 + 5'000'000LL * params_.procs;
    for (int r = 1; r <= params_.procs; ++r) {
      writer w;
      w.put(epoch_ns).put(r).put_string(medium_name);
      w.put<std::uint64_t>(tids.size());
      for (auto t : tids) w.put(t.value);
      w.put<std::uint64_t>(opts_.values().size());
      for (const auto& [k, v] : opts_.values()) w.put_string(k).put_string(v);
      const bytes& b = w.data();
      auto buf = s.buffer(pvm::encoding::raw);
      buf.pack(static_cast<std::uint64_t>(b.size()),
               std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(b.data()),
                                              b.size()));
      s.send(tids[static_cast<std::size_t>(r)], pvm::tag{kConfigTag}, buf);
    }
    rank_ = 0;
  } else {
    pvm_->session = std::make_unique<pvm::session>();
    auto& s = *pvm_->session;
    if (!s.parent())
      throw usage_error(std::string(kSlaveFlag) + " is for tasks spawned by a DLB master");
    auto m = s.recv_for(std::chrono::seconds(30), *s.parent(), pvm::tag{kConfigTag});
    if (!m) throw run_error("no configuration from the master within 30 s");
    bytes b(static_cast<std::size_t>(m->get<std::uint64_t>()));
    std::span<unsigned char> into(reinterpret_cast<unsigned char*>(b.data()), b.size());
    m->unpack(into);
    reader r(b);
    epoch_ns = r.get<std::int64_t>();
    rank_ = r.get<int>();
    medium_name = r.get_string();
    auto n = r.get<std::uint64_t>();
    for (std::uint64_t i = 0; i < n; ++i) tids.push_back(pvm::tid{r.get<int>()});
    std::map<std::string, std::string> values;
    auto nv = r.get<std::uint64_t>();
    for (std::uint64_t i = 0; i < nv; ++i) {
      std::string k = r.get_string();
      values[k] = r.get_string();
    }
    opts_ = options(specs, values);
    params_ = read_params(opts_);
    if (!medium_name.empty()) medium_ = std::make_shared<shared_medium>(medium_name, false);
  }

  pvm_->transport = std::make_unique<pvm_transport>(*pvm_->session, tids, rank_);
  workstation ws;
  if (rank_ > 0) {
    ws.slave = static_cast<std::size_t>(rank_ - 1);
    ws.speed = params_.speeds[ws.slave];
    ws.load = params_.load;
    ws.loaded = params_.load.max_load > 0;
  }
  if (params_.emulated) {
    clock_ = std::make_unique<emulated_clock>(epoch_ns, params_.scale, ws);
  } else {
    clock_ = std::make_unique<native_clock>(epoch_ns, ws);
  }
  messenger_ = std::make_unique<messenger>(
      *pvm_->transport, *clock_, network_model(params_.network, medium_),
      std::chrono::milliseconds(static_cast<std::int64_t>(params_.timeout_s * 1000)));
  std::vector<bool> watched(tids.size(), false);
  std::vector<int> watch;
  if (rank_ == 0) {
    for (int r = 1; r <= params_.procs; ++r) watch.push_back(r);
  } else {
    watch.push_back(0);
  }
  for (int r : watch) watched[static_cast<std::size_t>(r)] = true;
  messenger_->set_watched(watched);
  pvm_->transport->watch(watch);
  // Everyone starts at time 0 of the run.
  clock_->wait_until(0.0);
}

runtime::~runtime() {
  messenger_.reset();
  clock_.reset();
  pvm_->transport.reset();
  pvm_->session.reset();
  medium_.reset();
  pvm_->vm.reset();
}

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

std::string runtime::vmid() const { return pvm_->vm ? pvm_->vm->vmid() : std::string(); }

void runtime::finish() {
  if (master()) {
    messenger_->set_watched(std::vector<bool>(static_cast<std::size_t>(params_.procs + 1), false));
    std::vector<int> all;
    for (int r = 1; r <= params_.procs; ++r) all.push_back(r);
    messenger_->multicast(all, tag::release, {});
    // Wait (bounded) until every slave has exited, so that halting the virtual machine stops
    // nothing that was still finishing.
    int gone = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (gone < params_.procs && std::chrono::steady_clock::now() < deadline) {
      auto e = pvm_->transport->receive(std::chrono::milliseconds(50));
      if (e && e->tag == kTaskExitTag) ++gone;
    }
  } else {
    messenger_->wait(with_tag(tag::release), "the master's release at the end of the run");
  }
}

void runtime::abort(const std::string& why) noexcept {
  try {
    writer w;
    w.put(clock_ ? clock_->now() : 0.0).put(0.0).put_string(why);
    if (master()) {
      std::vector<int> all;
      for (int r = 1; r <= params_.procs; ++r) all.push_back(r);
      pvm_->transport->multicast(all, static_cast<int>(tag::abort), w.data());
      for (int r = 1; r <= params_.procs; ++r) {
        try {
          pvm_->session->kill(pvm_->transport->tids()[static_cast<std::size_t>(r)]);
        } catch (const std::exception&) {
        }
      }
    } else if (pvm_ && pvm_->transport) {
      pvm_->transport->send(0, static_cast<int>(tag::abort), w.data());
    }
  } catch (...) {
  }
}

int run_app(int argc, char** argv, const app_spec& spec, const std::function<int(runtime&)>& body) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool slave = std::find(args.begin(), args.end(), kSlaveFlag) != args.end();
  if (!slave && (std::find(args.begin(), args.end(), "--help") != args.end() ||
                 std::find(args.begin(), args.end(), "-h") != args.end())) {
    auto specs = common_options();
    specs.insert(specs.end(), spec.options.begin(), spec.options.end());
    std::cout << "usage: " << spec.name << " [options]\n"
              << spec.summary << "\n\nOptions:\n"
              << options(specs, {}).help_text();
    return 0;
  }
  std::unique_ptr<runtime> rt;
  try {
    rt = std::make_unique<runtime>(argc, argv, spec);
    int rc = body(*rt);
    rt->finish();
    return rc;
  } catch (const usage_error& e) {
    std::cerr << spec.name << ": " << e.what() << "\n";
    if (!slave) std::cerr << "see '" << spec.name << " --help'\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << spec.name << (slave ? " (slave)" : "") << ": error: " << e.what() << "\n";
    if (rt) rt->abort(e.what());
    return 1;
  }
}

}  // namespace dlb
