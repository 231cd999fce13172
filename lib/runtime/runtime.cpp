// runtime.cpp: one task's runtime over the transport and clock its launcher gives it (launchers:
// pvm_launcher.cpp, sim.cpp; run_app: launch.cpp). The options and parameters of a run are
// option_table.cpp.
#include "dlb/runtime/runtime.hpp"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <span>
#include <sstream>
#include <stdexcept>

#include "dlb/core/auto_all.hpp"
#include "dlb/core/heterogeneous.hpp"
#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/network_profile.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/state_trace.hpp"
#include "dlb/runtime/strategy_table.hpp"

namespace dlb {

std::string to_string(backend_kind b) {
  return b == backend_kind::sim ? "sim" : b == backend_kind::mpi ? "mpi" : "pvm";
}

runtime::runtime(runtime_setup setup)
    : app_(std::move(setup.app)),
      opts_(std::move(setup.opts)),
      params_(std::move(setup.params)),
      rank_(setup.rank),
      vmid_(std::move(setup.vmid)),
      report_(setup.report ? std::move(setup.report) : report_sink(report_to_standard_streams)),
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
  // Surviving a lost slave: the master handles a slave's exit (central_balancer.cpp); a slave
  // still fails when the master is lost.
  messenger_->deliver_exits(rank_ == 0 && params_.recover);
  lost_.assign(static_cast<std::size_t>(params_.procs + 1), false);
  transport_.watch(watch);
  // The paper's master workstation also computes: the master task shares slave 1's CPU.
  if (params_.emulated && params_.balancer_on_master && rank_ <= 1) {
    if (!medium_)
      throw std::logic_error("the launcher gave no shared segment for --balancer master");
    messenger_->share_cpu(medium_, rank_ == 0, rank_ == 0 ? 1 : 0);
  }
  if (!opts_.str("trace-dir").empty()) trace_messages(opts_.str("trace-dir"));
  // Everyone starts at time 0 of the run.
  clock_.wait_until(0.0);
}

runtime::~runtime() = default;

namespace {
const char* name_of(tag t) {
  switch (t) {
    case tag::config:
      return "config";
    case tag::scatter:
      return "scatter";
    case tag::interrupt:
      return "interrupt";
    case tag::profile:
      return "profile";
    case tag::decision:
      return "decision";
    case tag::work:
      return "work";
    case tag::gather:
      return "gather";
    case tag::release:
      return "release";
    case tag::abort:
      return "abort";
    case tag::instruction:
      return "instruction";
    case tag::notice:
      return "notice";
    case tag::request:
      return "request";
    case tag::chunk:
      return "chunk";
    case tag::task_exit:
      return "task_exit";
    case tag::lost:
      return "lost";
    case tag::recover:
      return "recover";
  }
  return "other";
}
}  // namespace

void runtime::trace_messages(const std::string& dir) {
  const std::string path = dir + "/messages." + std::to_string(rank_) + ".csv";
  trace_ = std::make_unique<std::ofstream>(path);
  if (!*trace_) throw usage_error("option --trace-dir: cannot write '" + path + "'");
  *trace_ << "time,from,to,type,bytes,loop,group,epoch\n" << std::setprecision(12);
  if (rank_ != 0) states_ = std::make_unique<state_trace>(dir, rank_);
  messenger_->observe_sends([this](double t, int to, tag kind, const bytes& body) {
    // The DLB messages start with their loop and, within a synchronization, group and epoch
    // (protocol.hpp).
    int loop = -1, group = -1, epoch = -1;
    const bool in_sync = kind == tag::interrupt || kind == tag::profile || kind == tag::decision ||
                         kind == tag::work || kind == tag::instruction || kind == tag::notice ||
                         kind == tag::request || kind == tag::chunk;
    if (in_sync) {
      const protocol::sync_header h = protocol::peek_sync(body);
      loop = h.loop;
      group = h.group;
      epoch = h.epoch;
    } else if (kind == tag::scatter || kind == tag::gather || kind == tag::lost ||
               kind == tag::recover) {
      loop = protocol::peek_loop(body);
    }
    *trace_ << t << "," << rank_ << "," << to << "," << name_of(kind) << "," << body.size() << ","
            << loop << "," << group << "," << epoch << "\n";
    trace_->flush();
  });
}

const core::network_profile& runtime::model_network() {
  if (!model_network_) {
    auto p = std::make_unique<core::network_profile>();
    const bool ideal = params_.emulated && params_.network.kind == network_kind::ideal;
    if (ideal) {
      p->latency = 0.0;  // ideal: communication is free
      p->bandwidth = 1e18;
    } else if (!params_.network_profile.empty()) {
      *p = read_network_profile(params_.network_profile);
    } else {
      // The reference profile: data installed with the library, found as network_profile.hpp
      // says ($DLB_NETWORK_DIR, then <prefix>/share/dlb/network). The modelled media's were
      // measured with each broadcast kind (<network>.profile with pvm_mcast, the default;
      // <network>-unicast.profile with one send per destination).
      const std::string name = !params_.emulated ? "native-loopback"
                               : params_.broadcast == broadcast_kind::unicast
                                   ? to_string(params_.network.kind) + "-unicast"
                                   : to_string(params_.network.kind);
      *p = read_network_profile(find_network_profile(name));
    }
    if (params_.emulated && params_.network_profile.empty() && params_.network.modelled()) {
      // The reference profile was measured on the reference description of the medium; any
      // other network needs its own measurement.
      const network_params ref = default_network(params_.network.kind), &n = params_.network;
      const auto same = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::abs(b); };
      if (!same(n.latency, ref.latency) || !same(n.bandwidth, ref.bandwidth) ||
          !same(n.send_overhead, ref.send_overhead) || !same(n.recv_overhead, ref.recv_overhead) ||
          !same(n.header_bytes, ref.header_bytes) || !same(n.wire_share, ref.wire_share)) {
        throw usage_error(
            "no measured network profile for a network other than the reference " +
            to_string(n.kind) +
            " (latency, bandwidth, overheads, header bytes, wire share); measure one with "
            "dlb_netchar and "
            "pass it with --network-profile");
      }
    }
    model_network_ = std::move(p);
  }
  return *model_network_;
}

void runtime::mark_lost(int rank) {
  if (rank > 0 && static_cast<std::size_t>(rank) < lost_.size())
    lost_[static_cast<std::size_t>(rank)] = true;
}

void runtime::fault_point(bool entering_sync) {
  if (entering_sync) {
    ++syncs_entered_;
  } else {
    ++iterations_done_;
  }
  const core::fault_plan& plan = params_.fault;
  if (plan.slave != rank_) return;
  // The simulator ends a slave at --kill-at itself, wherever it is then (an alarm at that
  // virtual time, sim.cpp); every other trigger, on both backends, fires here.
  if (plan.trigger == core::fault_trigger::at_time && params_.backend == backend_kind::sim) return;
  if (!core::fault_due(plan, {rank_, clock_.now(), iterations_done_, syncs_entered_})) return;
  if (!params_.fault_mark.empty()) await_outside_fault();
  transport_.lose_self();
  throw std::logic_error("fault injection: the transport did not end " +
                         transport_.describe(rank_));
}

void runtime::await_outside_fault() {
  // Written whole, then renamed: whoever waits for the file never reads half of it.
  const std::string& mark = params_.fault_mark;
  const std::string part = mark + ".part";
  {
    std::ofstream f(part);
    f << "pid=" << ::getpid() << " rank=" << rank_ << " iterations=" << iterations_done_
      << " syncs=" << syncs_entered_ << "\n";
    if (!f) throw run_error("cannot write the fault mark " + part);
  }
  std::error_code ec;
  std::filesystem::rename(part, mark, ec);
  if (ec) throw run_error("cannot write the fault mark " + mark + ": " + ec.message());
  // Held here: the run cannot end before the fault. The wait ends on the master's exit or abort
  // (the run is over anyway) or fails after --timeout: the fault never came.
  messenger_->wait(messenger::match([](const delivered&) { return false; }),
                   "the fault from outside (--fault-mark " + mark + ")");
}

void runtime::finish() {
  if (master()) {
    messenger_->set_watched(std::vector<bool>(static_cast<std::size_t>(params_.procs + 1), false));
    std::vector<int> all;  // the slaves not lost (a lost one's exit notice has come already)
    for (int r = 1; r <= params_.procs; ++r)
      if (!lost(r)) all.push_back(r);
    messenger_->multicast(all, tag::release, {}, params_.broadcast);
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
      for (int r = 1; r <= params_.procs; ++r)
        if (!lost(r)) all.push_back(r);
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

void report_to_standard_streams(report_kind kind, const std::string& line) {
  std::ostream& os = kind == report_kind::output ? std::cout : std::cerr;
  os << line << std::endl;
}

void runtime::report(report_kind kind, const std::string& line) const { report_(kind, line); }

void runtime::compute(double base_seconds) { messenger_->compute(base_seconds); }

double runtime::now() { return clock_.now(); }

int run_task(runtime& rt, const app_spec& spec, const app_body& body) {
  const bool slave = !rt.master();
  try {
    int rc = body(rt);
    rt.finish();
    return rc;
  } catch (const usage_error& e) {
    rt.report(report_kind::error, spec.name + ": " + e.what());
    if (!slave) rt.report(report_kind::error, "see '" + spec.name + " --help'");
    rt.abort(e.what());
    return 2;
  } catch (const std::exception& e) {
    rt.report(report_kind::error, spec.name +
                                      (slave ? " (slave " + std::to_string(rt.rank()) + ")" : "") +
                                      ": error: " + e.what());
    rt.abort(e.what());
    return 1;
  }
}

}  // namespace dlb
