// params.hpp: the run's parameters as every task reads them from the options (run_params,
// runtime::params()): the backend, the strategy, the load, the workstations, the network's
// description and the protocol's variants. Values only: what runs the network is internal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dlb/core/fault.hpp"
#include "dlb/core/load.hpp"
#include "dlb/core/load_estimate.hpp"
#include "dlb/core/paper.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/core/strategy.hpp"

namespace dlb {

enum class network_kind { ethernet1996, switched, ideal };

// How a message to several tasks (the distributed strategies' all-to-all profiles, interrupts,
// the balancer's DECISION) is sent (--broadcast; messenger::multicast):
enum class broadcast_kind {
  unicast,  // one send per destination, each paying the sender's overhead o_s
  mcast     // PVM 3's pvm_mcast: the task hands the message once to its pvmd (one o_s), which
            // sends one copy to each destination host (each on the wire, each receiver's o_r)
};
std::string to_string(network_kind k);
std::optional<network_kind> parse_network(const std::string& s);

// The share of a byte's time on the wire that the period's evidence gives: the paper's
// end-to-end B = 0.96 MB/s over 10 Mb/s Ethernet's raw 1.25 MB/s (network.cpp).
inline constexpr double kPeriodWireShare = 0.96 / 1.25;

struct network_params {
  network_kind kind = network_kind::ethernet1996;
  double latency = paper::latency_s;        // L, seconds: the one-way time of a 1-byte message
  double bandwidth = paper::bandwidth_Bps;  // B, bytes per second, end to end
  double send_overhead = 0.0;               // o_s, seconds of the sender's CPU per message
  double recv_overhead = 0.0;               // o_r, seconds of the receiver's CPU per message
  double header_bytes = 0.0;                // h, bytes on the wire per message besides the payload
  // The share of a byte's end-to-end time 1/B spent on the wire (in (0, 1]); the rest is the
  // hosts' (packing on the sender, unpacking on the receiver, half each). 1: every byte holds
  // the medium for 1/B.
  double wire_share = 1.0;
  // A bulk rate (experiments/regime/bulk.md; off by default): a message whose payload exceeds
  // bulk_bytes (array data) is charged at bulk_bandwidth instead of `bandwidth` for each of its
  // payload bytes, on the wire and on the hosts alike. 0: no bulk rate.
  double bulk_bytes = 0.0;
  double bulk_bandwidth = 0.0;
  // The simulated backend: the transport itself carries the wire (SimGrid transfers of h + b
  // bytes) and stamps each message's arrival (sim.hpp); the messenger charges the overheads.
  bool carried_by_transport = false;
  // Is there a 1996 network to honour (not ideal)?
  bool modelled() const { return kind != network_kind::ideal; }
  // The wire's own rate, B / wire_share.
  double wire_bandwidth() const { return bandwidth / wire_share; }
  // Seconds of the hosts' CPU per payload byte, sender and receiver together: (1 - share)/B.
  double host_per_byte() const { return (1.0 - wire_share) / bandwidth; }
  // l = L - o_s - o_r - (h + 1)/B_wire - host_per_byte: a 1-byte message takes L one way and a
  // b-byte one L + (b - 1)/B; negative means an inconsistent description.
  double wire_latency() const {
    return latency - send_overhead - recv_overhead - (header_bytes + 1.0) / wire_bandwidth() -
           host_per_byte();
  }
  // The payload bytes a message is charged for: its own, scaled by B / bulk_bandwidth when the
  // bulk rate applies to it.
  double charged_payload(std::size_t payload) const {
    const auto b = static_cast<double>(payload);
    return bulk_bytes > 0 && bulk_bandwidth > 0 && b > bulk_bytes ? b * bandwidth / bulk_bandwidth
                                                                  : b;
  }
  // Seconds the medium is held by a message of `payload` bytes.
  double transmission(std::size_t payload) const {
    return (header_bytes + charged_payload(payload)) / wire_bandwidth();
  }
  // The sender's and the receiver's CPU for a message of `payload` bytes.
  double send_cost(std::size_t payload) const {
    return send_overhead + 0.5 * host_per_byte() * charged_payload(payload);
  }
  double recv_cost(std::size_t payload) const {
    return recv_overhead + 0.5 * host_per_byte() * charged_payload(payload);
  }
};

// Who owns a loop's first synchronization (section 1.4.2; docs/design/protocol.md, "The first
// synchronization").
enum class first_sync_owner {
  strategy,      // the strategy's own protocol, in its groups
  master_group,  // the master: every slave's profile to it; it decides within the strategy's groups
  master_global  // the master: every slave's profile to it; it decides over all P slaves
};

// Which backend runs the tasks (--backend).
// mpi: one MPI rank per task, started by mpirun or srun (built where MPI is found).
enum class backend_kind { pvm, sim, mpi };
std::string to_string(backend_kind b);

// The run's parameters, read from the options (identically on master and slaves).
struct run_params {
  backend_kind backend = backend_kind::pvm;
  // What --strategy named, its one owner (core::policy: no balancing, a balancing row, customized
  // mode with AUTO-ALL's candidates from --candidates and its --auto-force, or a
  // self-scheduling rule); core::to_string(policy) is the name the RESULT line echoes. Read at
  // DLB_init only: the loop's runner holds it from there.
  core::policy policy;
  // Self-scheduling rules (--prefetch): a worker sends its request for the next chunk when this
  // fraction of its current chunk's iterations remains; 0 (default): when the chunk is done.
  double prefetch = 0.0;
  int procs = 4;  // P
  int group = 4;  // K (resolved: --group, or P/2); global strategies run as one group of P
  core::load_function load;
  std::vector<double> speeds;  // S_i per slave (--speeds: a list or a named mix)
  // Heterogeneous workstations (--initial speed, --groups power): lambda_i(0) proportional to
  // S_i for a BLOCK loop, and local strategies' groups of equal total power
  // (core/heterogeneous.hpp). Both default off: the paper's equal blocks and K-block groups.
  bool initial_by_speed = false;
  bool power_groups = false;
  bool emulated = true;
  double scale = 10.0;
  network_params network;
  double delta = 0.0;           // seconds the balancer spends on one decision
  std::int64_t threshold = -1;  // move threshold in iterations; -1: threshold_pct of the loop
  double threshold_pct = 1.0;   // move threshold in percent of the loop's iterations (at least 1)
  double min_improvement = paper::min_improvement;
  core::after_no_move after_no_move = core::after_no_move::idle;
  // What the balancer splits in proportion to the speeds (--balance-by): the iterations' costs,
  // with speeds in work per second, or the iterations, with speeds in iterations per second.
  core::balance_unit balance_unit = core::balance_unit::work;
  // The master task on slave 1's workstation (sharing its CPU), or on one of its own.
  bool balancer_on_master = true;
  // MPI (--master-rank computes): every rank a worker, rank 0 the master and slave P at once
  // (lib/backends/mpi/mpi_port.hpp); false: the master's rank balances only.
  bool master_computes = false;
  // Centralized strategies: instructions to the senders only (the paper), or the decision to
  // every member, who waits for it.
  bool instructions_to_senders = true;
  // Who owns a loop's first synchronization (--first-sync) and how a message to several tasks
  // is sent (--broadcast): columns of the protocol (strategy_table.hpp).
  first_sync_owner first_sync = first_sync_owner::master_group;
  broadcast_kind broadcast = broadcast_kind::mcast;
  // The load the cost model assumes (--model-load): the run's own load function, or ml and tl
  // estimated from the speeds seen up to the first synchronization (core/load_estimate.hpp).
  core::model_load model_load = core::model_load::run;
  double timeout_s = 120.0;  // wall-clock bound on every wait
  // --on-loss recover: a lost slave's unfinished iterations are computed by the survivors (the
  // run fails only if the master or every slave is lost); abort: a lost slave ends the run.
  bool recover = false;
  // Fault injection (--kill-slave with --kill-at, --kill-after-iters or --kill-at-sync): which
  // slave dies, and when (core/fault.hpp).
  core::fault_plan fault;
  // --fault-mark FILE (PVM): at the fault point the slave writes FILE and waits to be killed from
  // outside (kill -9, its host deleted, the master's loss) instead of killing itself.
  std::string fault_mark;
  bool quiet = false;
  std::string network_profile;  // file for the cost model; empty: the reference profile
};
}  // namespace dlb
