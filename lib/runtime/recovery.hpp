// recovery.hpp (internal): --on-loss recover as one object per side of a loop, with a hook at
// each point of the loop where a loss matters (docs/design/recovery.md, "When a
// workstation is lost"). The sessions call the hooks; under --on-loss abort (recovery off) every
// hook does what the loop does without recovery, so no routine tests the option itself.
//
//  - slave: scatter (the losses told before the loop's data), iteration (done and not handed in;
//    then the losses told since), wait (a synchronization's wait that a loss abandons), out of work
//    (stay in the loop until handed in), hand-in (results to the master, then its answer), gather
//    (nothing left to send: handed in already);
//  - master: scatter (a loss since the last loop closes this loop's balancing), hand-in (a
//    slave's results, unpacked on arrival), wait (every survivor waiting: what nobody handed in
//    goes to the survivors), gather (what each slave handed in is what it executed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dlb/core/distribution.hpp"
#include "dlb/runtime/errors.hpp"
#include "dlb/runtime/messenger.hpp"
#include "dlb/stats.hpp"
#include "slave_state.hpp"

namespace dlb::detail {

class slave_session;
class master_session;

// The master's LOST came while a synchronization waited; the synchronization is abandoned
// (DLB_profile_send_move_work). A run_error, so that it could never pass unnoticed.
class sync_abandoned : public run_error {
 public:
  sync_abandoned() : run_error("a synchronization abandoned after a lost slave") {}
};

class slave_recovery {
 public:
  explicit slave_recovery(bool on) : on_(on) {}
  bool on() const { return on_; }

  // Scatter: the losses the master told of before this loop's data (a LOST of this loop closes
  // its balancing).
  void at_scatter(slave_session& s);
  // Iteration i done: it is not handed in yet.
  void at_iteration(std::int64_t i) {
    if (on_) append_iteration(unhanded_, i);
  }
  // After an iteration's work: the losses told since (a LOST of this loop closes its balancing).
  void take_losses(slave_session& s);
  // Wait: a wait of a synchronization that also ends on the master's LOST of this loop: then
  // the synchronization is abandoned (sync_abandoned) and balancing in this loop ends here.
  delivered wait(slave_session& s, const messenger::match& m, const std::string& what);
  // A LOST message: the slave it names is lost; one of this loop closes its balancing.
  void take_lost(slave_session& s, const delivered& d);
  // Out of work: true if the slave stays in the loop until it has handed in (at its next
  // DLB_send_interrupt), so that the master can give it a lost slave's work.
  bool stay_when_out() {
    finishing_ = on_;
    return on_;
  }
  bool finishing() const { return finishing_; }
  // Has handed in once: takes no more balancing work in this loop.
  bool handed_in() const { return handed_in_; }
  // Hand-in: the results not handed in yet to the master, then its answer: more iterations
  // (nobody handed them in) or the loop's end.
  void hand_in(slave_session& s);
  // Gather: whether the slave's results are in already (handed in piece by piece).
  bool handed_in_all() const { return on_; }

 private:
  bool on_;
  bool finishing_ = false;     // nothing left; hand in at the next DLB_send_interrupt
  bool handed_in_ = false;     // has handed in once; takes no more WORK in this loop
  core::range_list unhanded_;  // iterations done and not handed in yet
};

class master_recovery {
 public:
  master_recovery(bool on, int procs)
      : on_(on),
        handed_in_ranges_(static_cast<std::size_t>(procs)),
        handed_in_stats_(static_cast<std::size_t>(procs)) {}
  bool on() const { return on_; }

  // Scatter: a slave lost since the last loop: this loop does not balance (every slave that
  // learns of it during the loop stops balancing), and its share is recovered at the end.
  void at_scatter(master_session& m);
  bool closed_at_scatter() const { return closed_at_scatter_; }
  // Hand-in: slave `s`'s results (unpacked into the arrays on arrival) and its statistics.
  void hand_in(master_session& m, const delivered& d);
  // Wait, every survivor waiting: what nobody handed in, shared out among the survivors in
  // proportion to the speed each showed (they wait no more); false if nothing is missing (the
  // survivors are told the loop is complete).
  bool reassign(master_session& m, const std::vector<std::size_t>& survivors,
                std::vector<bool>& waiting);
  // Gather: each slave's statistics are those it handed in last, and what it handed in is what
  // it executed.
  void at_gather(std::vector<slave_stats>& slaves, core::distribution& executed) const;
  // The time from the first reassignment to `end` (0: none).
  double time_to(double end) const { return recovery_from_ >= 0 ? end - recovery_from_ : 0.0; }

 private:
  bool on_;
  std::vector<core::range_list> handed_in_ranges_;
  std::vector<slave_stats> handed_in_stats_;
  bool closed_at_scatter_ = false;
  double recovery_from_ = -1.0;  // when the first reassignment went out (-1: none)
};

}  // namespace dlb::detail
