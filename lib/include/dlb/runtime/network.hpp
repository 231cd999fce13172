// network.hpp: when an emulated message arrives.
//
// Profiles (--network):
//   ethernet1996  the paper's PVM on 10 Mbit/s Ethernet: latency L = 2414.5 us, bandwidth
//                 B = 0.96 MB/s, one shared medium on which transmissions queue: a message of
//                 b bytes sent at t starts when the medium is free (no earlier than t), holds it
//                 for b/B, and arrives L after its transmission ends.
//   switched      the same L and B without the shared medium: each sender's transmissions queue
//                 on its own port only.
//   ideal         zero cost: a message arrives when it is sent.
// A message of b bytes handed over at t leaves at t + o (o = send_overhead, the sender's time),
// is transmitted for b/B, and arrives at the end of its transmission; with o = L a ping-pong
// measures back L + b/B one way.
// The shared medium is one word in shared memory (a file in /dev/shm that the master creates
// and unlinks), updated with compare-and-swap, so all tasks of a run on one host see one
// medium. Reservations are made in wall-clock order, which follows emulated order up to the lag.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace dlb {

enum class network_kind { ethernet1996, switched, ideal };
std::string to_string(network_kind k);
std::optional<network_kind> parse_network(const std::string& s);

struct network_params {
  network_kind kind = network_kind::ethernet1996;
  double latency = 2414.5e-6;  // seconds
  double bandwidth = 0.96e6;   // bytes per second
  // Seconds of the sender's own time per message (its clock advances by this before the
  // message leaves). The paper's cost model charges a sender L per message (psi = beta L,
  // kappa = beta L + alpha D / B), so the default is L; one-way time stays L + b/B.
  double send_overhead = 2414.5e-6;
  // The simulated backend: the transport itself carries the wire's cost (SimGrid
  // communications on a platform of this kind, latency and bandwidth), so the messenger charges
  // the sender its overhead and stamps no arrival time (sim.hpp).
  bool carried_by_transport = false;
  // Is there a 1996 network to honour (not ideal)?
  bool modelled() const { return kind != network_kind::ideal; }
};

// The shared-memory segment of a run: the medium's next free time, as the bits of a double.
class shared_medium {
 public:
  // Creates (owner) or opens the segment /dev/shm/<name>.
  shared_medium(const std::string& name, bool owner);
  ~shared_medium();
  shared_medium(const shared_medium&) = delete;
  shared_medium& operator=(const shared_medium&) = delete;
  // Reserves the medium for `duration` from no earlier than `ready`; returns the start.
  double reserve(double ready, double duration);
  const std::string& name() const { return name_; }

 private:
  std::string name_;
  bool owner_;
  std::atomic<std::uint64_t>* word_ = nullptr;
};

class network_model {
 public:
  network_model(network_params params, std::shared_ptr<shared_medium> medium);
  // Arrival time of a message of `payload_bytes` sent at `sent`.
  double arrival(double sent, std::size_t payload_bytes);
  const network_params& params() const { return params_; }

 private:
  network_params params_;
  std::shared_ptr<shared_medium> medium_;
  double port_free_ = 0.0;  // switched: this sender's own port
};

}  // namespace dlb
