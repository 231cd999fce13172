// pvm_launcher.cpp: starting a DLB run on real PVM tasks.
//
// The program the user starts is the master: it starts a private virtual machine (unless
// --join-vm; of the hosts of --hostfile if given), spawns P copies of its own executable with
// --dlb-slave (spread over the hosts when there are several), and sends each the run's
// configuration (epoch, rank, the emulated medium's name, every task id, the options). Each
// task then builds its PVM transport and its clock (emulated or native), hands them to a
// runtime, and runs the application's body through run_task. A failure to start the slaves
// kills the ones that started; the private virtual machine is halted when the master returns.
// A virtual machine joined with --join-vm is never halted: only the run's own tasks are stopped.
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "backends/pvm/pvm_transport.hpp"
#include "pvm/pvm.hpp"
#include "runtime/launchers.hpp"

namespace dlb::detail {

namespace {

constexpr int kConfigTag = static_cast<int>(tag::config);

// The configuration message a slave receives from the master.
struct slave_config {
  std::int64_t epoch_ns = 0;
  int rank = 0;
  std::string medium;
  std::vector<pvm::tid> tids;
  std::map<std::string, std::string> values;
};

bytes encode(const slave_config& c) {
  writer w;
  w.put(c.epoch_ns).put(c.rank).put_string(c.medium);
  w.put<std::uint64_t>(c.tids.size());
  for (auto t : c.tids) w.put(t.value);
  w.put<std::uint64_t>(c.values.size());
  for (const auto& [k, v] : c.values) w.put_string(k).put_string(v);
  return w.take();
}

slave_config decode_config(const bytes& b) {
  reader r(b);
  slave_config c;
  c.epoch_ns = r.get<std::int64_t>();
  c.rank = r.get<int>();
  c.medium = r.get_string();
  const auto n = r.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < n; ++i) c.tids.push_back(pvm::tid{r.get<int>()});
  const auto nv = r.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < nv; ++i) {
    std::string k = r.get_string();
    c.values[k] = r.get_string();
  }
  return c;
}

std::span<const unsigned char> as_uchar(const bytes& b) {
  return {reinterpret_cast<const unsigned char*>(b.data()), b.size()};
}

// Everything but the spawning, shared by master and slaves: transport, clock, runtime, body.
int run_pvm_task(pvm::session& s, const launch_spec& spec, options opts, run_params params,
                 int rank, const std::vector<pvm::tid>& tids, std::int64_t epoch_ns,
                 std::shared_ptr<shared_medium> medium, std::string vmid, const app_body& body) {
  pvm_transport t(s, tids, rank);
  auto clk = make_clock(params, rank, epoch_ns);
  runtime_setup setup{spec.name, std::move(opts),   std::move(params), rank,       &t,
                      clk.get(), std::move(medium), std::move(vmid),   spec.report};
  runtime rt(std::move(setup));
  return run_task(rt, spec, body);
}

// Where slave r (1-based) goes: the virtual machine's hosts in turn, the master's host first.
struct placement {
  std::string host;                  // empty: PVM chooses (one host)
  const pvm::hostfile_entry* entry;  // its hostfile line, if any
};

std::vector<placement> place_slaves(const std::vector<pvm::host_info>& hosts,
                                    const pvm::private_vm* vm, int procs) {
  std::vector<placement> v(static_cast<std::size_t>(procs), placement{"", nullptr});
  if (hosts.size() < 2) return v;
  for (int r = 0; r < procs; ++r) {
    const auto& h = hosts[static_cast<std::size_t>(r) % hosts.size()];
    v[static_cast<std::size_t>(r)] = {h.name, vm ? vm->hosts_file().find(h.name) : nullptr};
  }
  return v;
}

// "option --hostfile: hostfile F, line N, host H" or "host H" (a joined virtual machine).
std::string where(const placement& p, const pvm::private_vm* vm) {
  if (!p.entry) return "host " + p.host;
  return "option --hostfile: hostfile " + vm->hosts_file().source + ", line " +
         std::to_string(p.entry->line) + ", host " + p.host;
}

// Starts the P slaves; on any failure kills those that started and throws: usage_error when a
// host has no executable (the hostfile or the installation is wrong), run_error otherwise.
std::vector<pvm::tid> spawn_slaves(pvm::session& s, const std::string& exe,
                                   const std::vector<placement>& places,
                                   const pvm::private_vm* vm) {
  std::vector<pvm::tid> started;
  auto fail = [&](const std::string& what, bool usage) {
    for (auto t : started) {
      try {
        s.kill(t);
      } catch (const pvm::error&) {
      }
    }
    if (usage) throw usage_error(what);
    throw run_error(what);
  };
  if (places.empty() || places[0].host.empty()) {
    auto sp = s.spawn(exe, {kSlaveFlag}, static_cast<int>(places.size()));
    started = sp.started;
    if (!sp.complete()) fail("could not start the slaves: " + sp.summary(), false);
    return started;
  }
  for (std::size_t r = 0; r < places.size(); ++r) {
    const auto& p = places[r];
    // A host with ep= in the hostfile looks for the executable's name there; the others need
    // the executable at the master's path.
    pvm::spawn_options o;
    o.where = p.host;
    o.search_ep = p.entry && p.entry->options.count("ep") > 0;
    const std::string file = o.search_ep ? std::filesystem::path(exe).filename().string() : exe;
    auto sp = s.spawn(file, {kSlaveFlag}, 1, o);
    if (!sp.complete()) {
      const auto& f = sp.failed.front();
      const bool missing = pvm::code_symbol(f.code) == "PvmNoFile";
      std::string what =
          where(p, vm) + ": could not start slave " + std::to_string(r + 1) + " there: " + f.reason;
      if (missing)
        what += o.search_ep
                    ? " (no " + file + " in that host's ep=" + p.entry->options.at("ep") + ")"
                    : " (every host needs the executable at the same path, or an ep= "
                      "directory holding it in the hostfile)";
      fail(what, missing);
    }
    started.push_back(sp.started.front());
  }
  return started;
}

// The run's private virtual machine (of --hostfile's hosts if given); null under --join-vm.
std::unique_ptr<pvm::private_vm> start_private_vm(const launch_spec& spec, const options& opts,
                                                  const run_params& params) {
  const std::string hostfile = opts.str("hostfile");
  const bool join = opts.flag("join-vm");
  if (!hostfile.empty() && join)
    throw usage_error(
        "options --hostfile and --join-vm exclude each other: --hostfile starts a private virtual "
        "machine of its hosts, --join-vm runs in yours as it is (add hosts with the pvm console)");
  if (!hostfile.empty() && params.emulated)
    throw usage_error(
        "option --hostfile needs --clock native: the emulated clock is shared by the tasks of one "
        "host");
  std::unique_ptr<pvm::private_vm> vm;
  if (!join) {
    pvm::private_vm_options vo;
    vo.notice = nullptr;
    if (!params.quiet)
      vo.notice = [&spec](const std::string& line) { report_of(spec)(report_kind::notice, line); };
    vo.hostfile = hostfile;
    vo.add_hosts_timeout = std::chrono::milliseconds(
        static_cast<std::int64_t>(std::min(params.timeout_s, 600.0) * 1000));
    try {
      vm = std::make_unique<pvm::private_vm>(vo);
    } catch (const pvm::hostfile_error& e) {
      throw usage_error(std::string("option --hostfile: ") + e.what());
    }
  }
  return vm;
}

}  // namespace

int launch_pvm_master(const launch_spec& spec, options opts, run_params params,
                      const app_body& body) {
  std::unique_ptr<pvm::private_vm> vm = start_private_vm(spec, opts, params);
  pvm::session s;
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const auto hosts = s.hosts();
  const auto places = place_slaves(hosts, vm.get(), params.procs);
  const auto started = spawn_slaves(s, exe, places, vm.get());
  if (hosts.size() > 1) {
    // Where every task runs, as PVM reports it (one line, also under --quiet).
    std::ostringstream os;
    os << "HOSTS hosts=" << hosts.size() << " master=" << s.host_of(s.self());
    for (std::size_t r = 0; r < started.size(); ++r)
      os << " slave" << r + 1 << "=" << s.host_of(started[r]);
    report_of(spec)(report_kind::output, os.str());
  }
  std::vector<pvm::tid> tids{s.self()};
  tids.insert(tids.end(), started.begin(), started.end());
  std::shared_ptr<shared_medium> medium;
  std::string medium_name;
  if (params.emulated &&
      (params.network.kind == network_kind::ethernet1996 || params.balancer_on_master)) {
    remove_stale_segments();
    medium_name = "dlb-medium-" + std::to_string(getpid()) + "-" + std::to_string(s.self().value);
    medium = std::make_shared<shared_medium>(medium_name, true);
  }
  // Time 0 of the run: far enough ahead for every slave to have its configuration.
  const std::int64_t epoch_ns = monotonic_ns() + 50'000'000 + 5'000'000LL * params.procs;
  for (int r = 1; r <= params.procs; ++r) {
    const bytes b = encode(slave_config{epoch_ns, r, medium_name, tids, opts.values()});
    auto buf = s.buffer(pvm::encoding::raw);
    buf.pack(static_cast<std::uint64_t>(b.size()), as_uchar(b));
    s.send(tids[static_cast<std::size_t>(r)], pvm::tag{kConfigTag}, buf);
  }
  const std::string vmid = vm ? vm->vmid() : std::string();
  return run_pvm_task(s, spec, std::move(opts), std::move(params), 0, tids, epoch_ns,
                      std::move(medium), vmid, body);
}

int launch_pvm_slave(const launch_spec& spec, const app_body& body) {
  pvm::session s;
  if (!s.parent())
    throw usage_error(std::string(kSlaveFlag) + " is for tasks spawned by a DLB master");
  auto m = s.recv_for(std::chrono::seconds(30), *s.parent(), pvm::tag{kConfigTag});
  if (!m) throw run_error("no configuration from the master within 30 s");
  bytes b(static_cast<std::size_t>(m->get<std::uint64_t>()));
  std::span<unsigned char> into(reinterpret_cast<unsigned char*>(b.data()), b.size());
  m->unpack(into);
  slave_config c = decode_config(b);
  options opts(all_options(spec), c.values);
  run_params params = read_params(opts);
  std::shared_ptr<shared_medium> medium;
  if (!c.medium.empty()) medium = std::make_shared<shared_medium>(c.medium, false);
  return run_pvm_task(s, spec, std::move(opts), std::move(params), c.rank, c.tids, c.epoch_ns,
                      std::move(medium), std::string(), body);
}

// The PVM backend registers itself: the master's launcher and the spawned slave's.
const backend_registrar pvm_backend{{"pvm", launch_pvm_master, launch_pvm_slave}};

}  // namespace dlb::detail
