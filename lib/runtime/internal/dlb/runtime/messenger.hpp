// messenger.hpp: the runtime's messages over the seam. Every message carries its send time and
// its arrival time (from the network model); a message is delivered only when this task's clock
// has reached its arrival, so the emulated network's costs are honoured. Messages that are
// physically here but not yet due wait in a pending list. Every blocking wait is bounded by a
// wall-clock timeout and ends at once with run_error on an abort or a task-exit notification.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "dlb/runtime/errors.hpp"
#include "dlb/runtime/network.hpp"
#include "dlb/runtime/seam.hpp"

namespace dlb {

// The protocol's tags, with each message's fields in order.
// The fields of the DLB calls' messages are packed and unpacked in one place, their codec
// (dlb/runtime/protocol.hpp); config, release and abort belong to the launchers and the runtime.
enum class tag : int {
  config = 1,   // master -> slave: run configuration (pvm_launcher.cpp)
  scatter,      // master -> slave: loop id, ranges, the inputs' slices of those ranges
  interrupt,    // slave -> group: loop id, group, epoch
  profile,      // slave -> balancer or group: loop, group, epoch, slave, done, elapsed, speed,
                // remaining ranges
  decision,     // master -> group: loop, group, epoch, customized commitment, the decision
  work,         // slave -> slave: loop, group, epoch, ranges, the moved arrays' slices
  gather,       // slave -> master: loop id, done ranges, statistics, the outputs' slices
  release,      // master -> slaves: the run is over, exit
  abort,        // master -> slaves: the run failed (reason), exit non-zero
  instruction,  // master -> a sender (centralized strategies): loop, group, epoch, one transfer
  notice,       // master -> a requester that gets no work: loop, group, epoch, WORK still due
  lost,         // master -> surviving slaves (--on-loss recover): loop, the lost slave, time
  recover,      // master -> a slave that handed in (--on-loss recover): loop, ranges (none: the
                // loop is complete), the moved inputs' slices of those ranges
  request,      // worker -> master (self-scheduling): loop, 0, request number, done, speed
  chunk,        // master -> worker (self-scheduling): loop, 0, request number, chunk index,
                // ranges, the moved inputs' slices
  task_exit = kTaskExitTag,
};

// A failure of the run: run_error (errors.hpp).

struct delivered {
  std::uint64_t seq = 0;  // order of receipt at this task
  int from = -1;
  tag kind = tag::config;
  double sent = 0.0;
  double arrival = 0.0;
  // Set by poll(): how much later than it should have been this message was delivered, because
  // it was due at an earlier poll but had not physically arrived (0 if on time).
  double late = 0.0;
  bytes payload;  // the body (after the timing header)
  reader body() const { return reader(payload); }
};

// Which messages a receive wants: those of one tag, or of a few (each looked up among that
// tag's messages alone, so a long queue of others, such as the stale interrupts a waiting
// requester never polls, is never scanned), or of any; of those, the ones for which `pred` holds.
struct message_match {
  std::optional<tag> kind;
  std::vector<tag> kinds;                      // with no `kind`: these tags only (empty: any)
  std::function<bool(const delivered&)> pred;  // empty: every message of `kind`
  message_match(tag t, std::function<bool(const delivered&)> p = {})
      : kind(t), pred(std::move(p)) {}
  message_match(std::vector<tag> ts, std::function<bool(const delivered&)> p)
      : kinds(std::move(ts)), pred(std::move(p)) {}
  template <class F>
  requires std::is_invocable_r_v<bool, const F&, const delivered&> message_match(F f)
      : pred(std::move(f)) {}
  bool operator()(const delivered& d) const {
    if (kind && d.kind != *kind) return false;
    if (!kind && !kinds.empty() && std::find(kinds.begin(), kinds.end(), d.kind) == kinds.end())
      return false;
    return !pred || pred(d);
  }
};

class messenger {
 public:
  messenger(transport& t, clock& c, network_model net, std::chrono::milliseconds wait_timeout);

  int rank() const { return transport_.rank(); }
  dlb::clock& clock() { return clock_; }
  transport& raw() { return transport_; }
  std::string describe(int rank) const { return transport_.describe(rank); }

  // Work of this task: `base_seconds` of computation on the clock, delayed by the receive
  // overheads of the messages that arrive meanwhile (an interrupt's CPU time).
  void compute(double base_seconds);
  // `seconds` of this task's CPU spent on something else than computation (the balancer's
  // decision), delayed likewise.
  void busy(double seconds);

  // Two tasks on one workstation's CPU (--balancer master): the master's task publishes every
  // interval it keeps the CPU busy (sends, receives, decisions, computation) in the run's shared
  // ledger; slave 1's task, the other, takes them like interrupts: they delay its computation,
  // not its idle time. Messages between the two do not cross the network.
  void share_cpu(std::shared_ptr<shared_medium> ledger, bool publisher, int partner);

  // Every message this task sends, as it leaves (a trace: --trace-dir); empty: none.
  using send_observer = std::function<void(double time, int to, tag kind, const bytes& body)>;
  void observe_sends(send_observer f) { observer_ = std::move(f); }

  // Returns the payload size on the wire (for statistics).
  std::size_t send(int to, tag kind, const bytes& body);
  // The same message to several tasks, sent as `how` says (broadcast_kind, network.hpp): one
  // send each, or pvm_mcast (one send overhead; the copies still cross the wire one by one,
  // each with its own arrival). Returns the payload bytes summed over the destinations.
  std::size_t multicast(const std::vector<int>& to, tag kind, const bytes& body,
                        broadcast_kind how);

  using match = message_match;
  // A due message that matches, without waiting; drains what has physically arrived first.
  std::optional<delivered> poll(const match& m);
  // Waits (bounded) for a matching message and advances the clock to its arrival. `what` names
  // the awaited message in the timeout error.
  delivered wait(const match& m, const std::string& what);
  // The same, `what` made only when needed (a timeout; the simulator's deadlock report): the
  // waits on self-scheduling's hot path build no string per chunk.
  delivered wait(const match& m, const std::function<std::string()>& what);

  // Messages this task will never take (a slave's interrupts of a loop it has left): dropped
  // from the pending lists now and on arrival from now on, their receive overhead still
  // charged. Without it an idle slave kept every later interrupt of the loop: P per slave, P^2
  // per simulated run, under the interrupt storm at P = 4096 (docs/design/scale.md).
  void discard(match m);

  // Task-exit notifications for these ranks are failures; for others they are ignored.
  void set_watched(std::vector<bool> watched) { watched_ = std::move(watched); }
  // --on-loss recover, on the master: a watched task's exit is a message (tag::task_exit, from
  // its rank, no body) for the runtime to handle, not a failure.
  void deliver_exits(bool on) { deliver_exits_ = on; }
  // Emulation error of non-blocking polls: the worst `late` of the messages the caller acted
  // on (it reports them with note_late; a stale message delivered late changes nothing).
  double late_delivery() const { return late_; }
  // A loop starts (clock::begin_loop / join_loop): late deliveries, like lag, count from here.
  std::int64_t begin_loop() {
    late_ = 0.0;
    return clock_.begin_loop();
  }
  void join_loop(std::int64_t epoch) {
    late_ = 0.0;
    clock_.join_loop(epoch);
  }
  void note_late(double late) { late_ = std::max(late_, late); }
  std::chrono::milliseconds wait_timeout() const { return timeout_; }

 private:
  // Does a 1996 network cost this task time (emulated or simulated)?
  bool modelled() const;
  void drain(std::chrono::microseconds bound);
  void accept(envelope&& e);  // takes the payload
  // Charges the receive overhead o_r of every message that has arrived by now, in order of
  // arrival, on this task's CPU: one that arrived while the task was idle (waiting) is handled
  // from its arrival, one that arrived while it was busy (computing, sending, deciding) after
  // that work; the clock moves on to when the CPU is free again.
  // `due`: a time the clock was just advanced to (a message's arrival); what is due by then is
  // charged even if the backend's clock landed a rounding error short of it.
  void absorb(double due = -1.0);
  std::optional<delivered> take(const match& m, bool due_only);

  transport& transport_;
  dlb::clock& clock_;
  network_model net_;
  std::chrono::milliseconds timeout_;
  // Messages here but not yet taken, per tag, each queue in order of receipt.
  std::map<int, std::deque<delivered>> pending_;
  std::optional<match> discard_;  // messages dropped on arrival (discard)
  std::uint64_t received_ = 0;  // receipt counter: delivered::seq
  std::vector<bool> watched_;
  bool deliver_exits_ = false;
  double last_poll_ = -1.0;
  // What will take this task's CPU and is not charged yet, earliest first: (arrival, o_r) of
  // each message, and (start, length) of the co-located master's busy intervals.
  using charge = std::pair<double, double>;
  std::priority_queue<charge, std::vector<charge>, std::greater<charge>> uncharged_;
  void note_busy(double start, double end);
  std::shared_ptr<shared_medium> cpu_;  // the ledger of a shared workstation, if any
  bool cpu_publisher_ = false;
  std::uint64_t cpu_read_ = 0;  // ledger intervals taken so far (reader)
  int partner_ = -1;            // the task sharing this workstation
  send_observer observer_;
  // Until when this task's CPU was busy (computation, send and receive overheads, decisions).
  double cpu_free_ = 0.0;
  double late_ = 0.0;
};

// Matchers.
messenger::match with_tag(tag t);
messenger::match with_tag_from(tag t, int from);

}  // namespace dlb
