// seam.hpp: the only two ways the DLB runtime reaches the world.
//
//  - a transport: send, multicast, bounded receive, non-blocking probe, identity. The PVM
//    transport (pvm_transport.hpp) implements it over real PVM tasks; a SimGrid backend can
//    implement it with actors in one process.
//  - a clock: "now", "this much work was done", "wait until". The native clock is real time;
//    the emulated clock (clocks.hpp) runs 1996 workstations in dilated wall time.
//
// Ranks: 0 is the master, 1..P the slaves. Nothing behind the seam is global or static, so
// several runtimes can share one address space.
#pragma once

#include <chrono>
#include <optional>
#include <span>
#include <string>

#include "dlb/runtime/wire.hpp"

namespace dlb {

// Tags the transport itself produces.
inline constexpr int kTaskExitTag = 1000;  // a task of the run exited; `from` is its rank

struct envelope {
  int from = -1;
  int tag = 0;
  bytes payload;
};

class transport {
 public:
  virtual ~transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;  // P + 1
  virtual void send(int to, int tag, const bytes& payload) = 0;
  virtual void multicast(std::span<const int> to, int tag, const bytes& payload) = 0;
  // Any message; empty when none arrives within `bound` (0 polls).
  virtual std::optional<envelope> receive(std::chrono::microseconds bound) = 0;
  virtual bool probe() = 0;
  // "slave 3 (PVM task t40005)": how errors name a task.
  virtual std::string describe(int rank) const = 0;
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
  // Is time emulated (messages carry arrival times to honour)?
  virtual bool emulated() const = 0;
};

}  // namespace dlb
