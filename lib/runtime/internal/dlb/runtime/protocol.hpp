// protocol.hpp: the messages of the DLB calls as plain structs, and their byte format. Every
// message is packed (encode) and unpacked (decode_*) here and nowhere else; the tags are
// dlb::tag (messenger.hpp). Field order on the wire is the order of the struct's members below.
//
// Messages that carry array data (SCATTER, WORK, GATHER) end with it: `slices` is packed and
// unpacked by the array code (lib/runtime/arrays.hpp); encode appends it after the framing, and
// decode_* leaves it as a view of the rest of the message (valid while the message's bytes are).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/policy.hpp"
#include "dlb/core/redistribution.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/runtime/wire.hpp"
#include "dlb/stats.hpp"

namespace dlb::protocol {

// The master's rank; slave i (0-based) is rank i + 1.
inline constexpr int master_rank = 0;

// Every message of a loop starts with the loop's id. The messages of one synchronization of a
// group (INTERRUPT, PROFILE, DECISION, WORK) go on with the group and its epoch (the
// synchronizations the group has completed), so that messages of different synchronizations
// and loops never mix.
struct sync_header {
  int loop = 0;
  int group = 0;
  int epoch = 0;
  bool operator==(const sync_header&) const = default;
};

// The header of a delivered message, without unpacking the rest.
int peek_loop(const delivered& d);
sync_header peek_sync(const delivered& d);
int peek_loop(const bytes& body);
sync_header peek_sync(const bytes& body);
// Matchers: a message of kind t of loop `loop`; a message of kind t of synchronization h, from
// rank `from` if from >= 0.
messenger::match in_loop(tag t, int loop);
messenger::match in_sync(tag t, const sync_header& h, int from = -1);

// A member's profile at a synchronization (section 1.2).
struct member_profile {
  std::size_t slave = 0;       // 0-based slave index
  std::int64_t done = 0;       // iterations done since the last synchronization
  double elapsed = 0.0;        // seconds since the last synchronization
  double speed = 0.0;          // work per second (core::speed; context::work_cost)
  core::range_list remaining;  // the ranges it still holds, in its work order
};

// A group's decision (core::decide_balance).
struct decision {
  core::balance_reason reason = core::balance_reason::nothing_left;
  std::vector<std::int64_t> counts_after;  // per profile, in the order of the profiles
  std::vector<core::transfer> transfers;   // from/to are slave indices
};

// The master's commitment, sent with the decisions of its own synchronization: the policy the
// receiver runs next, as a core::policy (a balancing row: AUTO's pick, AUTO-ALL's, ADAPTIVE's,
// the run's own under --first-sync master-*; a chunk rule: AUTO-ALL's, and the receiver becomes
// a worker), and the receiver's group under it.
// `adaptive`: ADAPTIVE is in force from this commitment on (a re-selection's: the run's ADAPTIVE,
// or AUTO-ALL's pick of it): after the group's next synchronization the receiver comes back to
// the master's re-selection. Such a commitment also names the members of the receiver's group
// that took part (the slaves whose profiles the decision is about, in member order): a member's
// view of who is active elsewhere may be stale, and the group's next synchronization needs the
// exact set. Every other commitment carries none (its synchronization saw every slave). Nothing
// is read from the message's shape: the policy and the flag say what the receiver runs.
struct commitment {
  core::policy next;
  int group = 0;
  std::optional<std::vector<std::size_t>> members;
  bool adaptive = false;
  bool operator==(const commitment&) const = default;
};

// SCATTER, master -> slave: the slave's initial ranges, then the data of the input arrays.
// Under AUTO-ALL (carries_commitment, which both sides know from the loop's policy) one int more
// before the data: the policy it committed to before the scatter (a chunk rule: the slave starts
// as its worker), or -1: none, the paper's blocks (protocol.cpp's code of a policy). No other
// policy's scatter carries it.
struct scatter_msg {
  int loop = 0;
  std::int64_t epoch = 0;  // the master's clock::begin_loop, for the slave's join_loop
  core::range_list ranges;
  std::span<const std::byte> slices;
  bool carries_commitment = false;
  std::optional<core::policy> commit;
};

// INTERRUPT, slave -> the other active members of its group: a synchronization starts. Its
// header is all it carries (peek_sync reads it).
struct interrupt_msg {
  sync_header sync;
};

// PROFILE, member -> the balancer (the master, or every other active member of the group).
struct profile_msg {
  sync_header sync;
  member_profile profile;
};

// DECISION, master -> the members whose profiles it decided on.
struct decision_msg {
  sync_header sync;
  // On the wire: one int (-1: none; else 4 x the policy's code, protocol.cpp, + 2 if adaptive,
  // + 1 with members), group, [members].
  std::optional<commitment> commit;
  decision body;
};

// INSTRUCTION, master -> a sender (GCDLB, LCDLB): one transfer of the decision ("the load
// balancer sends instructions to the processors who have to send work to others, indicating
// the recipient and the amount of work to be moved", section 1.2), and how many transfers its
// receiver gets in this synchronization (carried on to it in the WORK message).
struct instruction_msg {
  sync_header sync;
  core::transfer transfer;  // from/to are slave indices
  int receiver_gets = 0;
};

// NOTICE, master -> a member that ran out of work and gets none (the paper's idle requester):
// it is inactive from now on, once the WORK messages still due to it have come (the transfers
// the master has instructed to it in this loop, in all).
struct notice_msg {
  sync_header sync;
  std::int64_t work_due_total = 0;
};

// WORK, sender -> receiver: the moved ranges, then the slices of the moved arrays.
struct work_msg {
  sync_header sync;
  int receiver_gets = 0;  // WORK messages the receiver gets in this synchronization
  core::range_list ranges;
  std::span<const std::byte> slices;
};

// GATHER, slave -> master: the ranges it executed, its statistics, then the slices of the output
// arrays for those ranges.
struct gather_msg {
  int loop = 0;
  core::range_list done;
  slave_stats stats;
  std::span<const std::byte> slices;
};

// LOST, master -> every surviving slave (--on-loss recover): a slave was lost; the loop it was
// lost in stops balancing (docs/design/recovery.md, "When a workstation is lost").
struct lost_msg {
  int loop = 0;
  std::size_t slave = 0;  // 0-based
  double time = 0.0;      // the master's clock when it learned of the loss
};

// RECOVER, master -> a slave that has handed in all it held (--on-loss recover): iterations to
// compute (nobody handed them in), then the moved inputs' slices of them; no ranges: the loop is
// complete.
struct recover_msg {
  int loop = 0;
  core::range_list ranges;
  std::span<const std::byte> slices;
};

// Self-scheduling (self_scheduling.cpp; beyond the paper). Their header's group is 0
// and its epoch the worker's request count: REQUEST(e) is answered by CHUNK(e).
// REQUEST, worker -> master: its chunk is done, it asks for the next; what it did of that chunk
// and its speed over it (work per second, core::speed: AWF's weight).
struct request_msg {
  sync_header sync;
  std::int64_t done = 0;
  double speed = 0.0;
};

// CHUNK, master -> worker: the answer to a REQUEST: the chunk's ranges (none: the loop is all
// handed out, the worker is done) and its index in the loop's chunk sequence (the scatter's
// chunks are 0..P-1), then the slices of the moved input arrays.
struct chunk_msg {
  sync_header sync;
  std::int64_t index = 0;
  core::range_list ranges;
  std::span<const std::byte> slices;
};

bytes encode(const lost_msg& m);
bytes encode(const recover_msg& m);
lost_msg decode_lost(reader& r);
recover_msg decode_recover(reader& r);

bytes encode(const scatter_msg& m);
bytes encode(const request_msg& m);
bytes encode(const chunk_msg& m);
bytes encode(const interrupt_msg& m);
bytes encode(const profile_msg& m);
bytes encode(const decision_msg& m);
bytes encode(const work_msg& m);
bytes encode(const instruction_msg& m);
bytes encode(const notice_msg& m);
bytes encode(const gather_msg& m);

// Each throws wire_error on a short or malformed message.
scatter_msg decode_scatter(reader& r, bool carries_commitment);
profile_msg decode_profile(reader& r);
decision_msg decode_decision(reader& r);
work_msg decode_work(reader& r);
instruction_msg decode_instruction(reader& r);
notice_msg decode_notice(reader& r);
gather_msg decode_gather(reader& r);
request_msg decode_request(reader& r);
chunk_msg decode_chunk(reader& r);

}  // namespace dlb::protocol
