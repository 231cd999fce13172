// sim.cpp: the simulated backend (sim.hpp): engine, platform, transport, clock and launcher.
#include "backends/sim/sim.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <limits>
#include <optional>
#include <simgrid/kernel/ProfileBuilder.hpp>
#include <simgrid/s4u.hpp>
#include <sstream>

#include "runtime/launchers.hpp"

namespace sg = simgrid::s4u;

namespace dlb::sim {

namespace {

// Blocks of the load function generated per call of a host's speed-profile callback.
constexpr std::int64_t kLoadBlocksPerCall = 64;
// The ideal network: fast enough that no message of the applications costs a measurable time.
constexpr double kIdealBandwidth = 1e12;
// Each actor's stack. SimGrid's default (8 MiB) is a separate mapping per actor, and where malloc
// is asked for huge pages (glibc.malloc.hugetlb=1, as make reproduce sets it) each such mapping
// gets a 2 MiB page for the few KiB an actor's stack uses: 2 MiB of zeroed memory per task, 8 GiB
// at P = 4096. Under 2 MiB a stack gets small pages. MXM, TRFD and AC at P = 16 pass with 16 KiB
// (and fail with 4): 256 KiB is sixteen times that. A stack overflow hits SimGrid's guard page, a
// crash, never a silent one.
constexpr int kActorStackKiB = 256;

// A message in flight: what the transport was given, and who sent it.
struct message {
  int from = -1;
  int tag = 0;
  std::shared_ptr<bytes> payload;  // one copy for all the destinations of send_each
  double arrival = -1.0;  // stamped by the network interface; -1: the messenger's stamp holds
};

}  // namespace

struct engine::impl {
  std::unique_ptr<sg::Engine> e;
  sg::NetZone* root = nullptr;
};

engine::engine() : impl_(std::make_unique<impl>()) {
  // SimGrid 3.32 aborts the process when a second engine is created, even after the first one
  // is gone (and Engine::is_initialized() is false again); say so instead. The flag mirrors
  // SimGrid's own process-wide state, the one static in the library, and holds no run's data.
  static std::atomic<bool> created{false};
  if (created.exchange(true))
    throw run_error(
        "the simulated backend runs once per process (SimGrid allows one engine): start a new "
        "process for another simulated run, or run several worlds in one engine (sim.hpp)");
  // SimGrid's own log lines (configuration changes, its deadlock listing) would only repeat
  // what the runtime reports itself.
  // (its CRITICAL deadlock line cannot be thresholded away: the appender is dropped instead).
  std::vector<std::string> args{"dlb-sim", "--log=root.thresh:critical", "--log=ker_engine.add:0",
                                "--log=ker_engine.thresh:critical"};
  if (DLB_SANITIZED) {
    args.emplace_back("--cfg=contexts/factory:thread");  // ASan: no stack swaps
  } else {
    args.emplace_back("--cfg=contexts/stack-size:" + std::to_string(kActorStackKiB));
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  impl_->e = std::make_unique<sg::Engine>(&argc, argv.data());
  // The paper's latency and bandwidth come back exactly with CM02 and no cross-traffic; the
  // default model (LV08) multiplies latency by about 13 and gives about 97% of the bandwidth
  // (measured with SimGrid 3.32: a 1-byte half round trip of 31,414 us against 2,415.5 us).
  sg::Engine::set_config("network/model:CM02");
  sg::Engine::set_config("network/crosstraffic:0");
  impl_->root = sg::create_full_zone("dlb");
}

engine::~engine() = default;

double engine::run() {
  impl_->root->seal();
  impl_->e->run();
  return sg::Engine::get_clock();
}

struct world::state {
  std::string name;
  std::vector<sg::Host*> hosts;         // by rank
  std::vector<sg::Mailbox*> mailboxes;  // by rank
  // By rank; not owning: an ActorPtr here would close a cycle (the actor's code holds this
  // state) that kept every world until exit. A task's actor is alive while it is not done.
  std::vector<sg::Actor*> actors;
  std::vector<int> exit_codes;             // -1 until the task returns
  std::vector<bool> done;                  // the task returned (or was killed by the run)
  std::vector<std::vector<int>> watchers;  // watchers[r]: ranks told when r exits
  std::vector<std::string> waiting;        // what each task waits for
  // Fault injection (--kill-slave): the slave the killer ends, at --kill-at's virtual time (an
  // alarm) or when the slave itself found the fault due at one of its fault points (it releases
  // kill_now, runtime::fault_point); and who was killed so.
  int kill_rank = 0;
  bool kill_by_alarm = false;
  double kill_at = 0.0;
  sg::SemaphorePtr kill_now = sg::Semaphore::create(0);
  sg::SemaphorePtr never = sg::Semaphore::create(0);  // where a slave waits for its killer
  std::vector<bool> killed;
  // The network interfaces: a message leaves its sender after the send overhead and queues on
  // its medium, which a transmitter actor serves first come first served, one blocking put at
  // a time (the emulated network's medium, with SimGrid carrying the transfer). The Ethernet
  // has one transmitter for all; a switched network one per sender's port; the ideal network
  // none (the sender puts directly, at no cost). One flow at a time on a link also keeps P^2
  // messages cheap to simulate (no fair sharing among up to P flows).
  struct transmitter {
    struct item {
      int to;
      message* m;
      std::uint64_t bytes;
    };
    sg::Host* host = nullptr;
    double bandwidth = 0.0;     // B: a message of b bytes on the wire holds the medium b / B
    double wire_latency = 0.0;  // l: from the end of its transmission to its arrival
    std::deque<item> queue;
    sg::SemaphorePtr ready = sg::Semaphore::create(0);
  };
  std::vector<std::unique_ptr<transmitter>> transmitters;
  // The run's shared segment (the master's CPU ledger, --balancer master), and whether the
  // master and slave 1 share a workstation: their messages then cross no network.
  std::shared_ptr<shared_medium> segment = std::make_shared<shared_medium>();
  bool master_on_slave1 = false;
  bool local(int a, int b) const { return master_on_slave1 && a + b == 1; }
  std::vector<int> transmitter_of;  // by rank; -1: none
  // What the run cost the simulator (DLB_SIM_STATS): messages handed to the network, one per
  // destination, and the bytes they were charged.
  std::uint64_t messages = 0;
  std::uint64_t message_bytes = 0;
  void count(std::uint64_t bytes) {
    ++messages;
    message_bytes += bytes;
  }
  // The master's and the slaves' hosts (speeds, load profiles), their routes and mailboxes.
  void add_hosts(sg::NetZone* zone, const run_params& params, sg::Link* shared);
  // The network interfaces of the medium (one for the Ethernet, one per port when switched).
  void add_transmitters(sg::NetZone* zone, const network_params& net, sg::Link* shared, int n);
  ~state() {
    for (auto& t : transmitters)
      for (auto& i : t->queue) delete i.m;
  }

  std::string describe(int rank) const {
    std::string who = rank == 0 ? "the master" : "slave " + std::to_string(rank);
    return who + " (simulated host " + hosts.at(static_cast<std::size_t>(rank))->get_name() + ")";
  }
  // A message that must never block its sender (abort, exit notices): detached.
  void post(int from, int to, int tag) {
    if (done[static_cast<std::size_t>(to)]) return;
    count(0);
    auto* m = new message{from, tag, {}};
    mailboxes[static_cast<std::size_t>(to)]->put_init(m, 0)->detach(
        [](void* p) { delete static_cast<message*>(p); });
  }
};

namespace {

class sim_transport final : public transport {
 public:
  sim_transport(world::state& w, int rank) : w_(w), rank_(rank) {}
  ~sim_transport() override = default;
  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(w_.hosts.size()); }

  void send(int to, int tag, const bytes& payload, std::size_t charged_bytes) override {
    send_shared(to, tag, std::make_shared<bytes>(payload), charged_bytes);
  }

  void send_each(std::span<const int> to, int tag, const bytes& payload,
                 std::size_t charged_bytes) override {
    const auto shared = std::make_shared<bytes>(payload);
    for (int r : to) send_shared(r, tag, shared, charged_bytes);
  }

  void send_shared(int to, int tag, const std::shared_ptr<bytes>& payload,
                   std::size_t charged_bytes) {
    if (w_.done[static_cast<std::size_t>(to)]) return;  // as PVM drops messages to exited tasks
    w_.count(charged_bytes);
    auto* m = new message{rank_, tag, payload};
    // The receiver's mailbox has a permanent receiver, so a transfer starts at once.
    const int k = w_.transmitter_of[static_cast<std::size_t>(rank_)];
    if (w_.local(rank_, to)) {  // the same workstation: no wire
      mailbox(to)->put(m, 0);
      return;
    }
    if (k < 0) {
      mailbox(to)->put(m, static_cast<std::uint64_t>(charged_bytes));
      return;
    }
    // The message is handed to the network interface; the sender goes on.
    auto& tx = *w_.transmitters[static_cast<std::size_t>(k)];
    tx.queue.push_back({to, m, static_cast<std::uint64_t>(charged_bytes)});
    tx.ready->release();
  }

  void multicast(std::span<const int> to, int tag, const bytes& payload) override {
    // Only aborts and unmodelled networks come here: detached, never blocking the sender.
    for (int r : to) {
      if (w_.done[static_cast<std::size_t>(r)]) continue;
      w_.count(payload.size());
      auto* m = new message{rank_, tag, std::make_shared<bytes>(payload)};
      mailbox(r)->put_init(m, payload.size())->detach([](void* p) {
        delete static_cast<message*>(p);
      });
    }
  }

  std::optional<envelope> receive(std::chrono::microseconds bound) override {
    if (ready_) return take_ready();
    // A poll takes only a message that has fully arrived; a wait blocks with no wall-clock
    // bound (virtual time: a wait that can never end is the engine's deadlock, which ends the
    // run; detects_deadlock()).
    if (bound.count() == 0 && !mailbox(rank_)->ready()) return std::nullopt;
    std::unique_ptr<message> m(mailbox(rank_)->get<message>());
    w_.waiting[static_cast<std::size_t>(rank_)].clear();
    // The last (or only) destination of a payload takes it; the others copy it.
    bytes payload;
    if (m->payload) payload = m->payload.use_count() == 1 ? std::move(*m->payload) : *m->payload;
    return envelope{m->from, m->tag, std::move(payload), m->arrival};
  }

  bool probe() override {
    if (!ready_) ready_ = receive(std::chrono::microseconds(0));
    return ready_.has_value();
  }

  std::string describe(int rank) const override { return w_.describe(rank); }

  void watch(std::span<const int> ranks) override {
    for (int r : ranks) w_.watchers.at(static_cast<std::size_t>(r)).push_back(rank_);
  }

  void kill(int rank) noexcept override {
    auto& a = w_.actors.at(static_cast<std::size_t>(rank));
    if (!w_.done[static_cast<std::size_t>(rank)] && a) {
      w_.done[static_cast<std::size_t>(rank)] = true;
      a->kill();
    }
  }

  void lose_self() override {
    // The killer (world::start) ends this actor as it ends one at an alarm: the same kill, exit
    // notices and dropped messages. At the same virtual time; this actor waits for it.
    w_.kill_now->release();
    w_.never->acquire();
  }

  void await_exit(std::span<const int> ranks) override {
    // Every watched task that exits posts a notice; wait until all of these have exited.
    const auto all_done = [&] {
      for (int r : ranks)
        if (!w_.done[static_cast<std::size_t>(r)]) return false;
      return true;
    };
    while (!all_done()) {
      waiting_for("the slaves' exit at the end of the run");
      receive(std::chrono::microseconds::max());
    }
  }

  bool detects_deadlock() const override { return true; }
  void waiting_for(const std::string& what) override {
    w_.waiting[static_cast<std::size_t>(rank_)] = what;
  }

 private:
  sg::Mailbox* mailbox(int r) const { return w_.mailboxes.at(static_cast<std::size_t>(r)); }
  std::optional<envelope> take_ready() {
    auto e = std::move(ready_);
    ready_.reset();
    return e;
  }

  world::state& w_;
  int rank_;
  std::optional<envelope> ready_;
};

class sim_clock final : public dlb::clock {
 public:
  double now() override { return sg::Engine::get_clock(); }
  void compute(double base_seconds) override {
    if (base_seconds > 0) sg::this_actor::execute(base_seconds * kFlopsPerBaseSecond);
  }
  void wait_until(double t) override {
    if (t > now()) sg::this_actor::sleep_until(t);
  }
  double lag() const override { return 0.0; }
  bool emulated() const override { return true; }
};

// The speed profile of slave `slave`: S_i / (load + 1) in each persistence block, as the
// scale factor 1 / (load + 1) of the host's speed, generated a few blocks at a time.
simgrid::kernel::profile::Profile* load_profile(const std::string& name,
                                                const core::load_function& load,
                                                std::size_t slave) {
  auto next_block = std::make_shared<std::int64_t>(0);
  return simgrid::kernel::profile::ProfileBuilder::from_callback(
      name,
      [load, slave, next_block](std::vector<simgrid::kernel::profile::DatedValue>& values) {
        for (std::int64_t k = 0; k < kLoadBlocksPerCall; ++k) {
          const std::int64_t b = (*next_block)++;
          // Each value holds from the previous event's date plus `date` (0 for the first).
          const double delay = b == 0 ? 0.0 : load.persistence;
          values.emplace_back(delay, 1.0 / (core::load_in_block(load, slave, b) + 1));
        }
      },
      -1);
}

}  // namespace

void world::state::add_hosts(sg::NetZone* zone, const run_params& params, sg::Link* shared) {
  auto& s = *this;
  const auto& net = params.network;
  const int n = params.procs + 1;
  const bool loaded = params.load.max_load > 0;
  s.master_on_slave1 = params.balancer_on_master && params.procs >= 1;
  for (int r = 0; r < n; ++r) {
    const std::string host = s.name + (r == 0 ? ":master" : ":ws" + std::to_string(r));
    const double speed = r == 0 ? 1.0 : params.speeds[static_cast<std::size_t>(r - 1)];
    const auto slave = static_cast<std::size_t>(std::max(0, r - 1));
    // A load that never changes (tl infinite) is a slower host; otherwise a speed profile.
    const bool constant = r > 0 && loaded && std::isinf(params.load.persistence);
    const double divisor = constant ? core::load_in_block(params.load, slave, 0) + 1 : 1;
    auto* h = zone->create_host(host, speed * kFlopsPerBaseSecond / divisor);
    if (r > 0 && loaded && !constant)
      h->set_speed_profile(load_profile(host + ":load", params.load, slave));
    h->seal();
    sg::Link* l = shared;
    if (!l) {
      l = zone->create_link(host + ":port", net.wire_bandwidth())
              ->set_latency(0)
              ->set_sharing_policy(sg::Link::SharingPolicy::SHARED)
              ->seal();
    }
    // Star zone: the links of a host's outgoing messages (duplicates along a route are
    // removed, so two hosts on the one Ethernet share exactly one link).
    zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg::LinkInRoute(l)},
                    shared != nullptr);
    // A private port carries its host's outgoing messages only: incoming ones cross nothing
    // more.
    if (!shared) zone->add_route(nullptr, h->get_netpoint(), nullptr, nullptr, {}, false);
    s.hosts.push_back(h);
    s.mailboxes.push_back(sg::Mailbox::by_name(s.name + ":" + std::to_string(r)));
  }
}

void world::state::add_transmitters(sg::NetZone* zone, const network_params& net, sg::Link* shared,
                                    int n) {
  auto& s = *this;
  // The links carry the transmissions (h + b bytes at B) only; the rest of the latency, l,
  // follows the end of a transmission without holding the medium: the interface stamps each
  // message's arrival (network.hpp).
  const double wire_latency = net.modelled() ? net.wire_latency() : 0.0;
  if (net.kind == network_kind::ethernet1996) {
    // The Ethernet's interface: on a host of its own whose only route is the shared link.
    auto* h = zone->create_host(s.name + ":ethernet", kFlopsPerBaseSecond);
    h->seal();
    zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg::LinkInRoute(shared)}, true);
    s.transmitters.push_back(std::make_unique<state::transmitter>());
    s.transmitters.back()->host = h;
    s.transmitters.back()->bandwidth = net.wire_bandwidth();
    s.transmitters.back()->wire_latency = wire_latency;
    s.transmitter_of.assign(static_cast<std::size_t>(n), 0);
  } else if (net.kind == network_kind::switched) {
    // Each sender's port: its own interface on its own host.
    for (int r = 0; r < n; ++r) {
      s.transmitters.push_back(std::make_unique<state::transmitter>());
      s.transmitters.back()->host = s.hosts[static_cast<std::size_t>(r)];
      s.transmitters.back()->bandwidth = net.wire_bandwidth();
      s.transmitters.back()->wire_latency = wire_latency;
      s.transmitter_of.push_back(r);
    }
  } else {
    s.transmitter_of.assign(static_cast<std::size_t>(n), -1);
  }
}

world::world(engine& e, std::string name, const run_params& params)
    : state_(std::make_shared<state>()) {
  (void)e;
  auto& s = *state_;
  s.name = std::move(name);
  const auto& net = params.network;
  auto* zone = sg::create_star_zone(s.name);
  zone->set_parent(sg::Engine::get_instance()->get_netzone_root());
  const int n = params.procs + 1;
  sg::Link* shared = nullptr;
  if (net.kind == network_kind::ethernet1996) {
    shared = zone->create_link(s.name + ":ethernet", net.wire_bandwidth())
                 ->set_latency(0)
                 ->set_sharing_policy(sg::Link::SharingPolicy::SHARED)
                 ->seal();
  } else if (net.kind == network_kind::ideal) {
    shared = zone->create_link(s.name + ":ideal", kIdealBandwidth)
                 ->set_latency(0)
                 ->set_sharing_policy(sg::Link::SharingPolicy::FATPIPE)
                 ->seal();
  }
  s.add_hosts(zone, params, shared);
  s.add_transmitters(zone, net, shared, n);
  zone->seal();
  s.actors.resize(static_cast<std::size_t>(n));
  s.exit_codes.assign(static_cast<std::size_t>(n), -1);
  s.done.assign(static_cast<std::size_t>(n), false);
  s.watchers.resize(static_cast<std::size_t>(n));
  s.waiting.resize(static_cast<std::size_t>(n));
  s.killed.assign(static_cast<std::size_t>(n), false);
  s.kill_rank = params.fault.slave;
  s.kill_by_alarm = params.fault.trigger == core::fault_trigger::at_time;
  s.kill_at = params.fault.at_time;
}

world::~world() = default;

namespace {

// Each network interface's actor: sends its queue's messages in order, each arriving after its
// bytes' time on the link and the wire's latency (to an exited task: dropped).
void start_interfaces(const std::shared_ptr<world::state>& st) {
  for (std::size_t k = 0; k < st->transmitters.size(); ++k) {
    auto* tx = st->transmitters[k].get();
    sg::Actor::create(st->name + ":interface" + std::to_string(k), tx->host, [st, tx] {
      for (;;) {
        tx->ready->acquire();
        auto i = tx->queue.front();
        tx->queue.pop_front();
        if (st->done[static_cast<std::size_t>(i.to)]) {
          delete i.m;  // as PVM drops messages to exited tasks
          continue;
        }
        i.m->arrival = sg::Engine::get_clock() + static_cast<double>(i.bytes) / tx->bandwidth +
                       tx->wire_latency;
        st->mailboxes[static_cast<std::size_t>(i.to)]->put(i.m, i.bytes);
      }
    })->daemonize();
  }
}

// A workstation lost at a virtual time (--kill-at): its task ends wherever it is (computing,
// waiting, sending), as kill -9 would end it; at a point of its progress, where it found the
// fault due. Its watchers get the exit notice, as PVM's task-exit notify. A daemon: a run that
// ends first is not kept waiting for it.
void start_killer(const std::shared_ptr<world::state>& st) {
  sg::Actor::create(st->name + ":killer", st->hosts[0], [st] {
    if (st->kill_by_alarm) {
      sg::this_actor::sleep_until(st->kill_at);
    } else {
      st->kill_now->acquire();
    }
    const auto r = static_cast<std::size_t>(st->kill_rank);
    if (st->done[r] || !st->actors[r]) return;
    st->done[r] = true;
    st->killed[r] = true;
    st->waiting[r].clear();
    st->actors[r]->kill();
    for (int w : st->watchers[r]) st->post(st->kill_rank, w, kTaskExitTag);
    // What was on its way to the lost task when it died, or still comes (a transmission that
    // had started), is dropped here, as PVM drops messages to an exited task, and freed.
    auto* mb = st->mailboxes[r];
    mb->set_receiver(sg::Actor::self());
    for (;;) delete mb->get<message>();
  })->daemonize();
}

}  // namespace

void world::start(task_fn task) {  // NOLINT(performance-unnecessary-value-param): copied per actor
  auto st = state_;
  const int n = static_cast<int>(st->hosts.size());
  start_interfaces(st);
  for (int i = 1; i <= n; ++i) {
    const int r = i % n;  // slaves 1..P first, the master last
    const sg::ActorPtr actor =
        sg::Actor::create(st->name + (r == 0 ? ":master" : ":slave" + std::to_string(r)),
                          st->hosts[static_cast<std::size_t>(r)], [st, r, task] {
                            auto* mb = st->mailboxes[static_cast<std::size_t>(r)];
                            mb->set_receiver(sg::Actor::self());
                            int rc = 1;
                            {
                              sim_transport t(*st, r);
                              sim_clock c;
                              rc = task(r, t, c);
                            }
                            st->exit_codes[static_cast<std::size_t>(r)] = rc;
                            st->done[static_cast<std::size_t>(r)] = true;
                            st->waiting[static_cast<std::size_t>(r)].clear();
                            for (int w : st->watchers[static_cast<std::size_t>(r)])
                              st->post(r, w, kTaskExitTag);
                          });
    st->actors[static_cast<std::size_t>(r)] = actor.get();
  }
  if (st->kill_rank > 0 && st->kill_rank < n) start_killer(st);
}

bool world::killed(int rank) const {
  return rank >= 0 && static_cast<std::size_t>(rank) < state_->killed.size() &&
         state_->killed[static_cast<std::size_t>(rank)];
}

const std::vector<int>& world::exit_codes() const { return state_->exit_codes; }

std::shared_ptr<shared_medium> world::segment() const { return state_->segment; }

bool world::deadlocked() const {
  for (std::size_t r = 0; r < state_->done.size(); ++r)
    if (!state_->done[r]) return true;
  return false;
}

std::uint64_t world::messages() const { return state_->messages; }
std::uint64_t world::message_bytes() const { return state_->message_bytes; }

std::string world::deadlock_report() const {
  const auto& s = *state_;
  std::ostringstream os;
  std::size_t shown = 0, stuck = 0;
  for (std::size_t r = 0; r < s.done.size(); ++r) {
    if (s.done[r]) continue;
    ++stuck;
    if (shown++ >= 16) continue;
    os << "\n  " << s.describe(static_cast<int>(r)) << ": "
       << (s.waiting[r].empty() ? std::string("blocked") : "waiting for " + s.waiting[r]);
  }
  if (shown > 16) os << "\n  ... and " << (stuck - 16) << " more";
  return os.str();
}

}  // namespace dlb::sim

namespace dlb::detail {

namespace {

// DLB_SIM_STATS=FILE: one line appended per run (sim.hpp). A file that cannot be written is
// said on the error stream; the run's result stands.
void append_sim_stats(const launch_spec& spec, const sim::world& w, double virtual_s,
                      double engine_wall_s) {
  const char* path = std::getenv("DLB_SIM_STATS");
  if (path == nullptr || *path == '\0') return;
  std::ofstream out(path, std::ios::app);
  out << "SIMSTATS app=" << spec.name << " messages=" << w.messages()
      << " message_bytes=" << w.message_bytes() << " virtual_s=" << virtual_s
      << " engine_wall_s=" << engine_wall_s << '\n';
  if (!out)
    report_of(spec)(report_kind::notice, "DLB_SIM_STATS: cannot append to " + std::string(path));
}

}  // namespace

int launch_sim(const launch_spec& spec, options opts, run_params params, const app_body& body) {
  sim::engine e;
  sim::world w(e, spec.name, params);
  // A usage error while a task sets up (an unwritable --trace-dir file) must not escape its
  // actor, where SimGrid would abort the process: it ends that task, and the run reports it as
  // the other backends do (exit 2 naming the input), whatever the others then wait for.
  std::optional<usage_error> setup_error;
  w.start([&spec, &opts, &params, &body, &setup_error, seg = w.segment()](int rank, transport& t,
                                                                          dlb::clock& c) {
    runtime_setup setup{spec.name, opts, params, rank, &t, &c, seg, std::string(), spec.report};
    std::optional<runtime> rt;
    try {
      rt.emplace(std::move(setup));
    } catch (const usage_error& err) {
      if (!setup_error) setup_error.emplace(err);
      return 2;
    }
    return run_task(*rt, spec, body);
  });
  const auto engine_start = std::chrono::steady_clock::now();
  const double end = e.run();
  append_sim_stats(
      spec, w, end,
      std::chrono::duration<double>(std::chrono::steady_clock::now() - engine_start).count());
  if (setup_error) throw *setup_error;
  if (w.deadlocked()) {
    std::ostringstream os;
    os << spec.name << ": error: the simulated run deadlocked at t = " << end
       << " s (every remaining task waits for a message that will never come):"
       << w.deadlock_report();
    report_of(spec)(report_kind::error, os.str());
    return 1;
  }
  const int rc = w.exit_codes()[0];
  if (rc != 0) return rc;
  for (std::size_t r = 1; r < w.exit_codes().size(); ++r)
    if (w.exit_codes()[r] != 0 && !w.killed(static_cast<int>(r))) return 1;
  return 0;
}

// The simulated backend registers itself.
const backend_registrar sim_backend{{"sim", launch_sim, {}}};

}  // namespace dlb::detail
