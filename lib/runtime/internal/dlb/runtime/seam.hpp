// seam.hpp: the only two ways the DLB runtime reaches the world.
//
//  - a transport: send, multicast, bounded receive, non-blocking probe, identity, task-exit
//    notices and killing a task. The PVM transport (pvm_transport.hpp) implements it over real
//    PVM tasks; the simulated transport (sim.hpp) with SimGrid actors in one process; the MPI
//    transport (lib/mpi, internal: no MPI header here) over the ranks of an MPI job.
//  - a clock: "now", "this much work was done", "wait until". The native clock is real time;
//    the emulated clock (clocks.hpp) runs 1996 workstations in dilated wall time; the simulated
//    clock (sim.hpp) is SimGrid's virtual time.
//
// A launcher per backend (pvm_launcher.cpp, sim.cpp, lib/mpi/mpi_launcher.cpp) creates them and hands them to the
// runtime (runtime.hpp), which never builds either itself.
//
// Ranks: 0 is the master, 1..P the slaves. Nothing behind the seam is global or static, so
// several runtimes can share one address space.
#pragma once

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>

#include "dlb/core/distribution.hpp"
#include "dlb/runtime/wire.hpp"

namespace dlb {

// Tags the transport itself produces.
inline constexpr int kTaskExitTag = 1000;  // a task of the run exited; `from` is its rank

struct envelope {
  int from = -1;
  int tag = 0;
  bytes payload;
  // When the backend's own network delivered it (the simulator stamps it); negative: not
  // stamped, the messenger's arrival stamp holds.
  double arrival = -1.0;
};

// Two tasks of one run on one thread of one process (MPI rank 0 whose master computes: the
// master and slave P): the slave's next chunk of a self-scheduled loop is a function call on the
// master's dispenser, no message (self_scheduling.cpp). The master's self scheduler sets `serve`
// for its loop while it runs; the slave first has the other tasks' requests that have come
// served (serve_others: one probe of the backend, and the master run only if one has come), then
// calls serve: REQUEST(done, speed) at `now` of slave `worker` (0-based), its chunk into `out`
// (empty: the loop is all handed out). `ranges`: the list the chunk goes in and the slave's last
// one comes back in (swapped), so that a chunk allocates nothing.
struct chunk_link {
  int loop = -1;  // the loop whose self scheduler serves (-1: none now)
  core::range_list ranges;
  std::function<void(std::size_t worker, std::int64_t done, double speed, double now,
                     core::range_list& out)>
      serve;
  std::function<bool()> serve_others;  // whether one had come
  bool others = false;                 // whether the run has other tasks than these two
};

class transport {
 public:
  virtual ~transport() = default;
  // The link between this task and the other task of its process (chunk_link), if it has one.
  virtual chunk_link* link() { return nullptr; }
  virtual int rank() const = 0;
  virtual int size() const = 0;  // P + 1
  // `charged_bytes`: the bytes a simulated network charges for (the message's body; the
  // timing header the messenger adds is not part of the paper's message).
  virtual void send(int to, int tag, const bytes& payload, std::size_t charged_bytes) = 0;
  // The same message sent to each of `to` in turn, as that many send()s (a backend may hold one
  // copy of the payload for all: the simulator does, so that a decision of O(P) bytes to P
  // slaves is not P copies in memory).
  virtual void send_each(std::span<const int> to, int tag, const bytes& payload,
                         std::size_t charged_bytes) {
    for (int r : to) send(r, tag, payload, charged_bytes);
  }
  virtual void multicast(std::span<const int> to, int tag, const bytes& payload) = 0;
  // Any message; empty when none arrives within `bound` (0 polls). A backend that detects
  // deadlock itself (below) may block past `bound` until a message comes.
  virtual std::optional<envelope> receive(std::chrono::microseconds bound) = 0;
  virtual bool probe() = 0;
  // "slave 3 (PVM task t40005)": how errors name a task.
  virtual std::string describe(int rank) const = 0;
  // Deliver a kTaskExitTag envelope when one of these tasks exits.
  virtual void watch(std::span<const int> ranks) = 0;
  // End a task of a failed run at once. Never throws.
  virtual void kill(int rank) noexcept = 0;
  // Fault injection: end this task as a lost workstation ends, at once and without a word to
  // anyone (the others learn it from its exit notice). A process per task (PVM): SIGKILL itself;
  // the simulator kills the actor. Never returns.
  virtual void lose_self() { std::raise(SIGKILL); }
  // Master at the end of a run: wait (bounded) until these tasks have exited, so that nothing
  // is still finishing when the backend is torn down.
  virtual void await_exit(std::span<const int> ranks) = 0;
  // True when the backend itself ends a wait that can never complete (the simulator's deadlock
  // detection): waits then need no wall-clock bound.
  virtual bool detects_deadlock() const { return false; }
  // What this task is about to wait for, for the report of a deadlock.
  virtual void waiting_for(const std::string& /*what*/) {}
};

class clock {
 public:
  virtual ~clock() = default;
  // This task's time, seconds since the run's epoch.
  virtual double now() = 0;
  // `base_seconds` of work (seconds on the unloaded base workstation) were just done.
  virtual void compute(double base_seconds) = 0;
  // Advance to t (no-op if already past): a message delivered at t.
  virtual void wait_until(double t) = 0;
  // How far behind its deadlines this task ran, at worst (seconds of this clock).
  virtual double lag() const = 0;
  // When, on this clock, the task observes an event outside the run's model (a task's exit
  // notice): now(), but for the emulated clock, whose now() stands still while its task waits:
  // the wall time now, in emulated seconds.
  virtual double observed() { return now(); }
  // Is time the run's own (emulated or simulated: waiting advances it), not real time?
  virtual bool emulated() const = 0;
  // A loop starts (DLB_scatter_data). On the master: what the task did before, outside the
  // runtime's accounting (the application's set-up), becomes neither time of this clock nor
  // lag; returns what the slaves' clocks must adopt (join_loop), 0 if nothing. On a slave, on
  // the loop's data: adopt it. Lag counts from here. Only the emulated clock, whose time is
  // dilated wall time from one shared epoch, has anything to do.
  virtual std::int64_t begin_loop() { return 0; }
  virtual void join_loop(std::int64_t /*epoch*/) {}
};

}  // namespace dlb
