// network.hpp: what a message costs on the emulated or simulated 1996 network, and whom.
//
// The paper gives only totals: PVM latency L = 2414.5 us (a 1-byte message, one way) and
// bandwidth B = 0.96 MB/s (section 1.5.1). A message of b bytes costs, in order:
//   o_s        the sender's CPU (packing, system calls, its pvmd): the sender's clock advances;
//   (h + b)/B  the wire: the message and its headers (h bytes: Ethernet framing, IP/UDP, PVM's
//              packet and message headers) at the bandwidth, on the medium;
//   l          the rest of the latency (propagation, interfaces, the daemons' scheduling);
//   o_r        the receiver's CPU (interrupt, its pvmd, unpacking): it delays whatever the
//              receiver is doing, its computation included, as an interrupt would (messenger).
// with l = L - o_s - o_r - (h + 1)/B, so a 1-byte ping-pong gives back L one way and large
// messages B. The split (o_s, o_r, h) is ours to choose and to vary; the defaults and their
// sources are in default_network() (network.cpp) and docs/design/clocks.md.
//
// Media (--network):
//   ethernet1996  one shared medium that every transmission (headers and payload) holds in turn;
//   switched      each sender's transmissions queue on its own port only;
//   ideal         zero cost: a message arrives when it is sent.
// The emulated PVM backend keeps the shared medium as one word in shared memory (a file in
// /dev/shm that the master creates and unlinks), updated with compare-and-swap, so all tasks of
// a run on one host see one medium; reservations are made in wall-clock order, which follows
// emulated order up to the lag. The simulated backend carries the wire as SimGrid transfers.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>

#include "dlb/core/paper.hpp"
#include "dlb/runtime/options.hpp"
#include "dlb/runtime/params.hpp"

namespace dlb {

// The emulated or simulated network of --network-file, or of --network and its knobs
// (network.cpp; read_params calls it).
network_params read_network_options(const options& o);

// The reference description of a medium: the paper's L and B with our default split (sources in
// network.cpp); ideal: all zero.
network_params default_network(network_kind kind);

// Throws std::invalid_argument naming the field when a description is inconsistent: a negative
// or non-finite field, a bandwidth that is not positive, or overheads and header time whose sum
// exceeds the latency (l < 0).
void validate(const network_params& p);

// A network description file: "key = value" lines, '#' comments. Keys: medium (ethernet1996,
// switched or ideal), latency_us, bandwidth_MBps, send_overhead_us, recv_overhead_us,
// header_bytes, all required, and wire_share (optional; absent: the reference medium's). Throws
// std::runtime_error naming the source, line and field.
network_params parse_network_description(const std::string& text, const std::string& source);
network_params read_network_description(const std::string& path);

// The shared memory of a run's tasks: the medium's next free time (the emulated ethernet1996)
// and the ledger of the master task's busy intervals on the workstation it shares with slave 1
// (--balancer master: the paper's balancer "located at one master processor, which also takes
// part in computation"). The emulated PVM backend maps it from /dev/shm (the master creates and
// unlinks it, the slaves open it by name); the simulated backend keeps one in memory per run.
class shared_medium {
 public:
  // Creates (owner) or opens the segment /dev/shm/<name>.
  shared_medium(const std::string& name, bool owner);
  // A segment private to this process (the simulated backend: all tasks in one address space).
  shared_medium();
  ~shared_medium();
  shared_medium(const shared_medium&) = delete;
  shared_medium& operator=(const shared_medium&) = delete;
  // Reserves the medium for `duration` from no earlier than `ready`; returns the start.
  double reserve(double ready, double duration);
  const std::string& name() const { return name_; }
  // Owner: removes the segment's name now (every task has it mapped: the mappings stay), so
  // that nothing is left in /dev/shm however the run ends, a killed task included.
  void unlink_name();

  // The ledger (one writer, the master's task; one reader, slave 1's). Intervals are numbered
  // from 0 in the order they were published.
  void publish_busy(double start, double end);
  std::uint64_t busy_published() const;
  // Interval i; throws std::runtime_error if the writer has overwritten it (the reader fell more
  // than kLedgerSlots behind). In a segment private to the process (the simulated backend) the
  // ledger is not a ring: it keeps every interval not yet read, however far behind the reader
  // is (slave 1 computing a long block while the master sends to thousands of slaves), and the
  // reader reads in order (reading interval i forgets those before it).
  std::pair<double, double> busy_interval(std::uint64_t i);
  static constexpr std::uint64_t kLedgerSlots = 16384;

 private:
  struct layout;
  std::string name_;
  bool owner_;
  bool in_process_ = false;
  bool unlinked_ = false;
  layout* seg_ = nullptr;
  std::deque<std::pair<double, double>> unread_;  // in process: intervals first_unread_, ...
  std::uint64_t first_unread_ = 0;
};

class network_model {
 public:
  network_model(network_params params, std::shared_ptr<shared_medium> medium);
  // Arrival time of a message of `payload_bytes` that leaves its sender (after o_s) at `leaves`:
  // its turn on the medium, (h + b)/B on it, then l. The receiver's o_r comes after.
  double arrival(double leaves, std::size_t payload_bytes);
  const network_params& params() const { return params_; }

 private:
  network_params params_;
  std::shared_ptr<shared_medium> medium_;
  double port_free_ = 0.0;  // switched: this sender's own port
};

}  // namespace dlb
