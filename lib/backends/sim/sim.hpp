// sim.hpp: the simulated backend (--backend sim). The same runtime and application code run as
// SimGrid 3.32 actors in virtual time, in one process:
//
//  - one host per workstation: the master's (speed 1) and one per slave (S_i), in flop/s of
//    kFlopsPerBaseSecond per base second, so that w base seconds of work take w / S_i seconds
//    on an unloaded host;
//  - the external load is each slave host's speed profile, generated lazily from the same pure
//    load function as the PVM backend (dlb::core::load_in_block): S_i / (load + 1), held for tl;
//  - the network of the run's parameters as SimGrid links, model CM02 without cross-traffic (so
//    a message of b bytes takes latency + b / B alone; docs/simgrid-notes.md):
//      ethernet1996  one shared link that every message crosses (the paper's Ethernet);
//      switched      one private link per sender;
//      ideal         one link of 1 TB/s and no latency.
//    The sender spends the send overhead o of its own time first (the messenger, as under PVM)
//    and hands the message to its network interface: a transmitter actor per medium (one for
//    the Ethernet, one per switched port) puts the queued messages one at a time, first come
//    first served, each a SimGrid communication through the medium's link (latency L - o, so
//    one-way time is L + b / B, as in the emulated network). Mailboxes have a permanent
//    receiver, so a transfer starts as soon as its transmitter serves it.
//  - computation costs virtual time by execute() of the iteration's work; the applications
//    still compute (and verify) their real results, which costs wall time but no virtual time.
//
// A run whose actors all wait for each other is SimGrid's deadlock: the run fails with every
// task's state (what it was waiting for), never hangs.
//
// With the environment variable DLB_SIM_STATS=FILE, a run appends one line to FILE when it ends:
// what it cost the simulator (messages, their bytes, virtual and wall seconds of the engine);
// experiments/bench/sim_speed_bench.cpp reads it.
//
// Several worlds can share one engine (nothing here is global): each has its own hosts, links
// and mailboxes, named after the world.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dlb/runtime/clocks.hpp"
#include "dlb/runtime/runtime.hpp"
#include "dlb/runtime/seam.hpp"

namespace dlb::sim {

inline constexpr double kFlopsPerBaseSecond = 1e9;

// Creates the process's SimGrid engine with the network model above (once per process).
class engine {
 public:
  engine();
  ~engine();
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;
  // Runs every world started in it to its end; returns the virtual time at the end.
  double run();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

// One task of a world: its rank, transport and clock; returns its exit code.
using task_fn = std::function<int(int rank, transport& t, dlb::clock& c)>;

// One simulated run: P + 1 hosts, their links and mailboxes, and their actors.
class world {
 public:
  // Builds the run's platform in `e` (before e.run()); `name` must be unique in the engine.
  world(engine& e, std::string name, const run_params& params);
  ~world();
  world(const world&) = delete;
  world& operator=(const world&) = delete;
  // Starts one actor per rank (the slaves first, so that their mailboxes have receivers before
  // the master sends), each running `task`.
  void start(task_fn task);
  // After engine::run(): the exit code of each rank (-1: it did not finish).
  const std::vector<int>& exit_codes() const;
  // Was this rank killed by the run's fault injection (--kill-slave)? Its exit code stays -1.
  bool killed(int rank) const;
  // The run's shared segment (the master's CPU ledger), handed to every task's runtime.
  std::shared_ptr<shared_medium> segment() const;
  // Did the simulation end with tasks of this world still waiting? Then: their states, one
  // line each ("slave 3: waiting for the master's decision (loop 1, group 0, ...)").
  bool deadlocked() const;
  std::string deadlock_report() const;
  // Messages handed to the network so far (one per destination), and the bytes charged for them.
  std::uint64_t messages() const;
  std::uint64_t message_bytes() const;

  struct state;

 private:
  std::shared_ptr<state> state_;
};

}  // namespace dlb::sim
