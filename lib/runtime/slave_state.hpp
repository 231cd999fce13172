// slave_state.hpp (internal): what a slave knows of its loop, behind methods that keep it
// consistent (slave_session owns one; slave_sync.cpp, dlb.cpp, self_scheduling.cpp and
// recovery.cpp change it only through these). Its parts:
//  - slave_work: the ranges it holds (element 0: the range the application's loop is in) and the
//    iterations it executed, each once, in order;
//  - sync_window: the synchronization it is at (its epoch) and what it did since the last one,
//    from which its speed is measured;
//  - poll_pacer: when, under paced polls, the next poll is due;
//  - slave_state: who it is, its group and who in it is active, whether it is asked to
//    synchronize, whether balancing has ended for it, and its statistics with the time
//    accounting of its DLB calls (busy, sync, idle: each measured, together covering the loop).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/core/poll_pacing.hpp"
#include "dlb/stats.hpp"

namespace dlb::detail {

// Appends [i, i+1) to a list, merging with its last range.
inline void append_iteration(core::range_list& list, std::int64_t i) {
  if (!list.empty() && list.back().end == i) {
    ++list.back().end;
  } else {
    list.push_back({i, i + 1});
  }
}

// The work a slave holds and has done.
class slave_work {
 public:
  // What it holds now replaced (the scatter, a chunk, recovered work).
  void hold(core::range_list ranges) { remaining_ = std::move(ranges); }
  // The same, the list it held given back in `ranges` (its storage reused, no allocation).
  void hold_swapped(core::range_list& ranges) { remaining_.swap(ranges); }
  void clear() { remaining_.clear(); }
  const core::range_list& remaining() const { return remaining_; }
  const core::range_list& done() const { return done_; }
  core::range_list take_done() { return std::move(done_); }
  std::int64_t left() const { return core::iteration_count(remaining_); }
  // The range the application's loop is in ({0, 0}: none).
  core::iteration_range current() const {
    return remaining_.empty() ? core::iteration_range{0, 0} : remaining_.front();
  }
  // The current range has an iteration (the application is in one).
  bool in_progress() const {
    return !remaining_.empty() && remaining_.front().begin < remaining_.front().end;
  }
  // The current iteration is done: it goes to the done list and the current range moves on.
  // Only when in_progress().
  std::int64_t finish_iteration() {
    const std::int64_t i = remaining_.front().begin++;
    append_iteration(done_, i);
    return i;
  }
  // The finished ranges at the front dropped: whether a range is left to work through.
  bool next_range() {
    while (!remaining_.empty() && remaining_.front().begin >= remaining_.front().end)
      remaining_.erase(remaining_.begin());
    return !remaining_.empty();
  }
  // Removes the last n iterations (fewer if it holds fewer) and returns them in work order; the
  // current range keeps its begin (empty if all of it goes).
  core::range_list take_from_end(std::int64_t n);
  // Work received: appended after what it holds (element 0 stays the current range).
  void receive(const core::range_list& ranges);
  // What it has not started dropped: the current range ends where the application's loop is.
  void keep_started() {
    const std::int64_t at = remaining_.empty() ? 0 : remaining_.front().begin;
    remaining_ = remaining_.empty() ? core::range_list{} : core::range_list{{at, at}};
  }

 private:
  core::range_list remaining_;
  core::range_list done_;
};

// The synchronization a slave is at and what it did since its last one.
class sync_window {
 public:
  int epoch() const { return epoch_; }
  // This synchronization completed: returns its epoch.
  int next_epoch() { return epoch_++; }
  // A new window from `now`: nothing done yet.
  void restart(double now) {
    done_ = 0;
    work_ = 0.0;
    start_ = now;
  }
  void count_iteration() { ++done_; }
  void count_work(double u) { work_ += u; }
  std::int64_t done() const { return done_; }
  // Its speed at `now` (core::speed; without a measurement, the last one), remembered.
  double measure(double now);
  double start() const { return start_; }

 private:
  int epoch_ = 0;          // synchronizations completed in this group
  std::int64_t done_ = 0;  // iterations since the last synchronization
  double work_ = 0.0;      // in the balancer's unit (work_cost)
  double start_ = 0.0;     // when the last synchronization ended
  double last_speed_ = 0.0;
};

// Paced polls (DLB_slave_sync): under the native clock, with no tracing, no fault injected in
// this slave and no recovery, an iteration between polls costs a counter and a check; the
// messages (interrupts, instructions, work) are polled once per count_ iterations, about every
// pacing_.target_ns (core::next_poll_count). Under the emulated clock and the simulator every
// iteration polls, so that every decision stays the same.
class poll_pacer {
 public:
  void start(bool paced, double now) {
    paced_ = paced;
    last_poll_ = now;
  }
  bool paced() const { return paced_; }
  // An iteration done: whether it is one between polls (no poll due).
  bool between_polls() { return paced_ && --countdown_ > 0; }
  // A poll made at `now`: the count to the next one.
  void polled(double now);

 private:
  bool paced_ = false;
  std::int64_t count_ = 1;      // iterations between the last two polls
  std::int64_t countdown_ = 1;  // iterations until the next poll
  double last_poll_ = 0.0;      // the clock at the last poll
  core::poll_pacing pacing_;
};

// A slave's side of the loop.
class slave_state {
 public:
  // Slave `me` (0-based) in group `group` of those members.
  slave_state(std::size_t me, int group, std::vector<std::size_t> members);

  // Who: this slave, its group and, per member position, who is active.
  std::size_t me() const { return me_; }
  int group() const { return group_; }
  const std::vector<std::size_t>& members() const { return members_; }
  const std::vector<bool>& active() const { return active_; }
  // ADAPTIVE: per slave, active as far as this slave knows (exact for its own group's members;
  // others may have finished since: an interrupt to them is ignored).
  const std::vector<bool>& known_active() const { return known_active_; }
  // The loop's start: who of all slaves is active (active[s], for every slave s).
  void start_activity(const std::vector<bool>& active);
  // Into group `group` of those members, with who of all slaves was active.
  void join(int group, std::vector<std::size_t> members, const std::vector<bool>& was_active);
  // A decision's counts after it, one per active member in member order: who is still active.
  void update_active(const std::vector<std::int64_t>& counts_after);
  bool others_active() const;
  // The ranks (slave index + 1) of the other active members, and of all other members.
  std::vector<int> active_other_ranks() const;
  std::vector<int> other_member_ranks() const;

  slave_work& work() { return work_; }
  const slave_work& work() const { return work_; }
  sync_window& window() { return window_; }
  const sync_window& window() const { return window_; }
  poll_pacer& pacer() { return pacer_; }

  // Whether the application's loop goes on (DLB.more_work()).
  bool more_work() const { return more_work_; }
  void set_more_work(bool more) { more_work_ = more; }
  // Interrupted: a synchronization of its group is on; the application's next call takes part.
  bool interrupt() const { return interrupt_; }
  bool sync_pending() const { return sync_pending_; }
  void interrupted() { interrupt_ = sync_pending_ = true; }
  // It asks for a synchronization (or a worker for its next chunk) itself.
  void ask_sync() { sync_pending_ = true; }
  void sync_over() { interrupt_ = sync_pending_ = false; }
  // Balancing has ended for it (a decision not to move under stop, a loss, a worker).
  bool closed() const { return closed_; }
  void close() { closed_ = true; }
  void set_closed(bool closed) { closed_ = closed; }

  // Its statistics so far (stats_at: inside a DLB call, its own time so far counted as sync).
  const slave_stats& stats() const { return st_; }
  slave_stats stats_at(double now, double lag) const;
  // The loop starts at `now` (its scatter received); paced: whether polls go by count.
  void start_loop(double now, bool paced);
  // The loop ends at `now`: the application's time since its last call is busy.
  void finish_loop(double now);
  // The statistics as gathered: lag, and the redistributions it took part in.
  const slave_stats& final_stats(double lag);
  // An iteration done (before its work is known), and its work in the balancer's unit.
  void count_iteration() {
    window_.count_iteration();
    ++st_.iterations_done;
  }
  void count_work(double u) {
    window_.count_work(u);
    st_.work_done += u;
  }
  // Its speed at `now` (the first one measured kept in the statistics).
  double measure_speed(double now);
  // A synchronization (or a chunk request) taken part in; moved: it moved work.
  void count_sync(bool moved) {
    ++st_.syncs;
    if (moved) ++st_.redistributions;
  }
  // Work shipped (iterations and their bytes); in synchronization `epoch` (-1: not counted per
  // synchronization).
  void count_sent(std::uint64_t bytes, std::int64_t iterations, int epoch);
  // Work received in synchronization `epoch`, of the `due` iterations announced for it.
  void receive(const core::range_list& ranges, int epoch, std::int64_t due);
  // All the work announced for synchronization `epoch` has come (and some did).
  bool work_arrived(int epoch);
  std::int64_t works_received() const { return works_received_; }

  // Time accounting of its DLB calls: a call begins and ends at `now`; inside one, what it
  // computed (busy) and waited (idle); the rest of a call's time is sync.
  void begin_call(double now);
  void end_call(double now);
  void charge_busy(double seconds) { st_.busy += seconds; }
  void charge_idle(double seconds) { st_.idle += seconds; }
  // When the application's code last got control back from a DLB call, and when the current
  // call began.
  double body_from() const { return body_from_; }
  double call_from() const { return call_from_; }

 private:
  std::size_t me_;
  int group_;
  std::vector<std::size_t> members_;
  std::vector<bool> active_;  // per member position
  std::vector<bool> known_active_;
  slave_work work_;
  sync_window window_;
  poll_pacer pacer_;
  bool closed_ = false;
  bool more_work_ = false;
  bool interrupt_ = false;
  bool sync_pending_ = false;
  std::int64_t works_received_ = 0;         // WORK messages received in this loop
  std::map<int, int> work_got_, work_due_;  // per epoch: WORK received, and announced
  std::set<int> moved_epochs_;  // synchronizations in which this slave shipped or got work
  slave_stats st_;
  // call_from_, call_busy_, call_idle_: the current call's start and what it had charged to
  // busy and idle when it started.
  double body_from_ = 0.0;
  double call_from_ = 0.0;
  double call_busy_ = 0.0;
  double call_idle_ = 0.0;
};

}  // namespace dlb::detail
