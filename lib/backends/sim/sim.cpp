// sim.cpp: the simulated backend's engine and worlds (sim.hpp): one SimGrid engine per process,
// and in it each run's actors: its tasks, its network interfaces and its killer.
#include "backends/sim/sim.hpp"

#include <atomic>
#include <sstream>

#include "backends/sim/sim_transport.hpp"
#include "backends/sim/world_state.hpp"
#include "runtime/launchers.hpp"

namespace dlb::sim {

namespace {

// Each actor's stack. SimGrid's default (8 MiB) is a separate mapping per actor, and where malloc
// is asked for huge pages (glibc.malloc.hugetlb=1, as make reproduce sets it) each such mapping
// gets a 2 MiB page for the few KiB an actor's stack uses: 2 MiB of zeroed memory per task, 8 GiB
// at P = 4096. Under 2 MiB a stack gets small pages. MXM, TRFD and AC at P = 16 pass with 16 KiB
// (and fail with 4): 256 KiB is sixteen times that. A stack overflow hits SimGrid's guard page, a
// crash, never a silent one.
constexpr int kActorStackKiB = 256;

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
