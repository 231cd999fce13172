// world_state.hpp: what the actors of one simulated run share (sim.hpp): its hosts, mailboxes and
// network interfaces, the tasks' exit codes and states, the fault injection, and what the run
// cost the simulator. Internal to the simulated backend: sim.cpp builds and runs it,
// sim_transport.cpp sends and receives through it.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "backends/sim/sim.hpp"
#include "dlb/runtime/network.hpp"

namespace dlb::sim {

namespace sg = simgrid::s4u;

// A message in flight: what the transport was given, and who sent it.
struct message {
  int from = -1;
  int tag = 0;
  std::shared_ptr<bytes> payload;  // one copy for all the destinations of send_each
  double arrival = -1.0;  // stamped by the network interface; -1: the messenger's stamp holds
};

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

}  // namespace dlb::sim
