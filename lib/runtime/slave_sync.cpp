// slave_sync.cpp: a synchronization as a slave lives it (DLB_slave_sync, DLB_send_interrupt,
// DLB_profile_send_move_work). One synchronization of group g (all slaves for the global
// strategies), epoch e:
//  1. The first slave to run out of work sends INTERRUPT(e) to the other active members.
//  2. Each member, at its next iteration boundary, sends its PROFILE (iterations done and time
//     since the last synchronization, its remaining ranges) where the protocol in force
//     (strategy_table.hpp, loop_session::proto()) says: to the balancer on the master, or to every
//     other active member.
//  3. The decision is computed where the row says: by the master, who sends it as DECISION(e)
//     (central_balancer.cpp), or by every member from the same profiles
//     (distributed_balancer.cpp); both with dlb::core::decide_balance.
//  4. Senders ship WORK(e) (ranges and their array slices) to receivers, who wait for it.
//  5. Members left without work become inactive. After a decision not to move, the requester
//     idles and the others go on until the next runs out (--after-no-move idle, the paper's
//     "cancelling work redistribution would lead to an idle processor"), or balancing in the
//     group ends and its members finish what they hold (--after-no-move stop).
#include <algorithm>
#include <string>

#include "arrays.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/dlb.hpp"
#include "dlb/runtime/protocol.hpp"
#include "dlb/runtime/strategy_table.hpp"
#include "loop_session.hpp"

namespace dlb {

namespace {

core::range_list nonempty(const core::range_list& l) {
  core::range_list out;
  for (const auto& r : l) {
    if (r.end > r.begin) out.push_back(r);
  }
  return out;
}

}  // namespace

protocol::sync_header detail::slave_session::current_sync() const {
  return {loop_id_, slave_.group_, slave_.epoch_};
}

bool detail::slave_session::others_active() const {
  for (std::size_t p = 0; p < slave_.members_.size(); ++p) {
    if (slave_.active_[p] && slave_.members_[p] != slave_.me_) return true;
  }
  return false;
}

std::vector<int> detail::slave_session::active_other_ranks() const {
  std::vector<int> r;
  for (std::size_t p = 0; p < slave_.members_.size(); ++p) {
    if (slave_.active_[p] && slave_.members_[p] != slave_.me_)
      r.push_back(static_cast<int>(slave_.members_[p]) + 1);
  }
  return r;
}

bool detail::slave_session::poll_interrupt() {
  // Stale interrupts (of syncs this slave has completed) are dropped; the current one starts a
  // sync.
  for (;;) {
    auto d = net_.poll({tag::interrupt, [this](const delivered& m) {
                          const protocol::sync_header h = protocol::peek_sync(m);
                          return h.loop == loop_id_ && h.group == slave_.group_ &&
                                 h.epoch <= slave_.epoch_;
                        }});
    if (!d) return false;
    if (protocol::peek_sync(*d).epoch == slave_.epoch_) {
      net_.note_late(d->late);
      return true;
    }
  }
}

bool DLB_slave_sync(context& ctx) {
  auto& DLB = detail::slave_of(ctx, "DLB_slave_sync");
  if (DLB.slave_.remaining_.empty() ||
      DLB.slave_.remaining_.front().begin >= DLB.slave_.remaining_.front().end) {
    throw run_error("DLB_slave_sync called with no iteration in progress");
  }
  auto& cur = DLB.slave_.remaining_.front();
  const std::int64_t i = cur.begin++;
  detail::append_iteration(DLB.slave_.done_, i);
  DLB.recovery_.at_iteration(i);
  ++DLB.slave_.done_since_sync_;
  ++DLB.slave_.st_.iterations_done;
  auto& me = DLB.slave_;
  if (me.paced_ && --me.poll_countdown_ > 0) {
    // Between polls (native clock): no clock read, no message, no accounting but the work
    // done; the body's time is busy, charged at the next DLB call (begin_call).
    const double u =
        DLB.loop_.work && DLB.balance_.unit == core::balance_unit::work ? DLB.loop_.work(i) : 1.0;
    me.work_since_sync_ += u;
    me.st_.work_done += u;
    return me.interrupt_;
  }
  // The body's time since it got control is busy (begin_call); without a work function that is
  // the cost it reported itself (runtime::compute), or real time under the native clock.
  const detail::call_scope call(DLB);
  if (DLB.loop_.work) {
    auto& clk = DLB.net_.clock();
    const double t0 = clk.now();
    const double w = DLB.loop_.work(i);
    DLB.net_.compute(w);
    DLB.slave_.st_.busy += clk.now() - t0;
    DLB.trace_in_call(t0, clk.now(), slave_activity::compute);
    const bool in_work = DLB.balance_.unit == core::balance_unit::work;
    DLB.slave_.work_since_sync_ += in_work ? w : 1.0;
    DLB.slave_.st_.work_done += in_work ? w : 1.0;
  } else {
    DLB.slave_.work_since_sync_ += 1.0;
    DLB.slave_.st_.work_done += 1.0;
  }
  // Fault injection (--kill-slave): an iteration boundary is a fault point on every backend.
  DLB.rt_.fault_point(false);
  DLB.recovery_.take_losses(DLB);
  if (DLB.central_async() && !DLB.recovery_.handed_in()) DLB.take_instructions_and_work();
  if (!DLB.slave_.closed_ && !DLB.slave_.interrupt_ && DLB.poll_interrupt()) {
    DLB.slave_.interrupt_ = true;
    DLB.slave_.sync_pending_ = true;
  }
  DLB.prefetch_if_due();
  if (me.paced_) {
    const double now = DLB.net_.clock().now();
    me.poll_count_ = core::next_poll_count(
        me.poll_count_, static_cast<std::int64_t>((now - me.last_poll_) * 1e9), me.pacing_);
    me.poll_countdown_ = me.poll_count_;
    me.last_poll_ = now;
  }
  return DLB.slave_.interrupt_;
}

bool detail::slave_session::paced_polls() const {
  // Only where time is real: under the emulated clock and the simulator a poll's timing is part
  // of the result. Tracing records every iteration; a fault injected in this slave counts them;
  // recovery hands in per iteration.
  const auto& prm = rt_.params();
  return !net_.clock().emulated() && states_ == nullptr && !prm.recover &&
         prm.fault.slave != rt_.rank();
}

namespace detail {
call_scope::call_scope(slave_session& c) : c_(c) { c_.begin_call(); }
call_scope::~call_scope() { c_.end_call(); }
}  // namespace detail

void detail::slave_session::begin_call() {
  slave_.call_from_ = net_.clock().now();
  slave_.st_.busy += slave_.call_from_ - slave_.body_from_;
  slave_.call_busy_ = slave_.st_.busy;
  slave_.call_idle_ = slave_.st_.idle;
  if (states_) {
    states_->record(slave_.body_from_, slave_.call_from_, slave_activity::compute, loop_id_,
                    slave_.st_.iterations_done);
    states_->begin_call(slave_.call_from_);
  }
}

void detail::slave_session::end_call() {
  slave_.body_from_ = net_.clock().now();
  const double own = (slave_.body_from_ - slave_.call_from_) -
                     (slave_.st_.busy - slave_.call_busy_) - (slave_.st_.idle - slave_.call_idle_);
  // Rounding leaves a call that only computed at a few ulps either side of 0; anything larger
  // below 0 is an accounting error, kept so that the statistics' checks see it.
  slave_.st_.sync += (own < 0 && own > -1e-9) ? 0.0 : own;
  if (states_) states_->end_call(slave_.body_from_, loop_id_, slave_.st_.iterations_done);
}

void detail::slave_session::send_interrupts() {
  std::vector<int> to = active_other_ranks();
  if (proto().interrupts == interrupt_audience::every_member) {
    // A member does not see the others' outcomes: it interrupts every other member; those that
    // have gone idle ignore it.
    to.clear();
    for (std::size_t m : slave_.members_)
      if (m != slave_.me_) to.push_back(static_cast<int>(m) + 1);
  }
  net_.multicast(to, tag::interrupt, protocol::encode(protocol::interrupt_msg{current_sync()}),
                 proto().broadcast);
}

core::range_list detail::slave_session::take_from_end(std::int64_t n) {
  // The current range (element 0, where the application's loop stands at the begin) keeps its
  // begin, empty if all of it goes.
  const core::iteration_range current =
      slave_.remaining_.empty() ? core::iteration_range{0, 0} : slave_.remaining_.front();
  core::range_split split = core::split_back(slave_.remaining_, n);
  if (split.front.empty() || split.front.front().begin != current.begin)
    split.front.insert(split.front.begin(), {current.begin, current.begin});
  slave_.remaining_ = std::move(split.front);
  return std::move(split.back);
}

void detail::slave_session::ship(const protocol::instruction_msg& m) {
  // The instruction gives "the recipient and the amount of work to be moved" (section 1.2). The
  // sender has gone on computing from the front since its profile, so it ships that amount from
  // the end of what it holds now (all of it, if it holds less).
  const core::range_list give = take_from_end(m.transfer.count);
  writer slices;
  detail::pack_arrays(slices, arrays_, give, detail::moved_array);
  slave_.st_.bytes_sent += slices.size();
  slave_.st_.iterations_sent += core::iteration_count(give);
  slave_.moved_epochs_.insert(m.sync.epoch);
  net_.send(static_cast<int>(m.transfer.to) + 1, tag::work,
            protocol::encode(protocol::work_msg{m.sync, m.receiver_gets, give, slices.data()}));
}

void detail::slave_session::receive_work(const delivered& d) {
  reader r = d.body();
  auto w = protocol::decode_work(r);
  reader slices(w.slices);
  detail::unpack_arrays(slices, arrays_, w.ranges, detail::moved_array);
  slave_.st_.iterations_received += core::iteration_count(w.ranges);
  ++slave_.works_received_;
  ++slave_.work_got_[w.sync.epoch];
  slave_.work_due_[w.sync.epoch] = w.receiver_gets;
  slave_.moved_epochs_.insert(w.sync.epoch);
  if (slave_.remaining_.empty())
    slave_.remaining_.push_back({0, 0});  // keep element 0 as the current range
  slave_.remaining_.insert(slave_.remaining_.end(), w.ranges.begin(), w.ranges.end());
}

void detail::slave_session::take_instructions_and_work() {
  while (auto d = net_.poll(protocol::in_loop(tag::instruction, loop_id_))) {
    reader r = d->body();
    ship(protocol::decode_instruction(r));
  }
  while (auto d = net_.poll(protocol::in_loop(tag::work, loop_id_))) receive_work(*d);
}

void detail::slave_session::await_outcome(int epoch, const std::string& where) {
  std::int64_t due = -1;
  const int loop = loop_id_;
  const messenger::match mine(
      {tag::instruction, tag::work, tag::notice}, [loop, epoch](const delivered& d) {
        const protocol::sync_header h = protocol::peek_sync(d);
        return h.loop == loop && (d.kind != tag::notice || h.epoch == epoch);
      });
  // A requester with no work of its own: the time it waits for the balancer's answer or for its
  // work is idle (the paper's idle processor); handling what comes is synchronization.
  const auto wait_idle = [this](const auto& match, const std::string& what) {
    const double t0 = net_.clock().now();
    delivered d = recovery_.wait(*this, match, what);
    slave_.st_.idle += net_.clock().now() - t0;
    trace_in_call(t0, net_.clock().now(), slave_activity::idle);
    return d;
  };
  while (!(slave_.work_got_[epoch] > 0 && slave_.work_got_[epoch] >= slave_.work_due_[epoch])) {
    auto d = wait_idle(mine, "the master's answer or work (" + where + ")");
    reader r = d.body();
    if (d.kind == tag::instruction) {
      ship(protocol::decode_instruction(r));
    } else if (d.kind == tag::work) {
      receive_work(d);
    } else {
      // No work for this requester: it goes idle, once the work still due to it has come.
      slave_.closed_ = true;
      due = protocol::decode_notice(r).work_due_total;
      break;
    }
  }
  while (slave_.works_received_ < due)
    receive_work(
        wait_idle(protocol::in_loop(tag::work, loop_id_), "work still due (" + where + ")"));
  // Still active with nothing to do (its senders had computed what they were told to ship): it
  // asks again, at the next synchronization.
  if (slave_.closed_ && core::iteration_count(slave_.remaining_) == 0) {
    out_of_work();
  } else {
    slave_.more_work_ = true;
    if (core::iteration_count(slave_.remaining_) == 0) slave_.remaining_.clear();
  }
}

void DLB_send_interrupt(context& ctx) {
  auto& DLB = detail::slave_of(ctx, "DLB_send_interrupt");
  const detail::call_scope call(DLB);
  auto& rem = DLB.slave_.remaining_;
  while (!rem.empty() && rem.front().begin >= rem.front().end) rem.erase(rem.begin());
  if (!rem.empty()) return;    // the next local range; nothing to ask for
  if (DLB.self_scheduled()) {  // a worker asks the master for its next chunk
    DLB.slave_.sync_pending_ = true;
    return;
  }
  // (A member of a centralized group does not see the others' outcomes: it asks the balancer
  // unless it is alone in its group.)
  if (DLB.recovery_.finishing() || DLB.slave_.closed_ || DLB.slave_.members_.size() == 1 ||
      (DLB.proto().interrupts == interrupt_audience::active_members && !DLB.others_active())) {
    if (DLB.recovery_.on()) {
      DLB.recovery_.hand_in(DLB);
    } else {
      DLB.slave_.more_work_ = false;
    }
    return;
  }
  // Someone else may have run out first and asked already: join that sync.
  if (!DLB.slave_.sync_pending_ && !DLB.poll_interrupt()) DLB.send_interrupts();
  DLB.slave_.sync_pending_ = true;
}

void DLB_profile_send_move_work(context& ctx) {
  auto& DLB = detail::slave_of(ctx, "DLB_profile_send_move_work");
  const detail::call_scope call(DLB);
  if (!DLB.slave_.sync_pending_) return;
  if (DLB.self_scheduled()) {
    DLB.request_chunk();
  } else {
    // --on-loss recover: a slave that knows of a loss in this loop takes part in no more
    // synchronizations; the others, told too, abandon theirs (sync_abandoned).
    if (DLB.recovery_.on() && DLB.slave_.closed_) {
      DLB.slave_.sync_pending_ = false;
      DLB.slave_.interrupt_ = false;
      if (core::iteration_count(DLB.slave_.remaining_) == 0) DLB.out_of_work();
      return;
    }
    try {
      DLB.run_sync();
    } catch (const detail::sync_abandoned&) {
      // What it holds now (work received before the LOST included) it computes; what was on its
      // way to or from it and never arrived, the master finds missing and reassigns.
      if (core::iteration_count(DLB.slave_.remaining_) == 0) DLB.out_of_work();
    }
  }
  DLB.slave_.sync_pending_ = false;
  DLB.slave_.interrupt_ = false;
}

void detail::slave_session::out_of_work() {
  slave_.remaining_.clear();
  // Under recovery it stays in the loop until it has handed in (DLB_send_interrupt), so that
  // the master can give it a lost slave's work.
  slave_.more_work_ = recovery_.stay_when_out();
}

slave_stats detail::slave_session::stats_now() {
  slave_stats s = slave_.st_;
  const double now = net_.clock().now();
  s.sync += (now - slave_.call_from_) - (slave_.st_.busy - slave_.call_busy_) -
            (slave_.st_.idle - slave_.call_idle_);
  s.finish = now;
  s.lag = std::max(net_.clock().lag(), net_.late_delivery());
  if (!slave_.moved_epochs_.empty())
    s.redistributions = std::max<std::int64_t>(
        s.redistributions, static_cast<std::int64_t>(slave_.moved_epochs_.size()));
  return s;
}

protocol::member_profile detail::slave_session::measure(double now) {
  protocol::member_profile mine;
  mine.slave = slave_.me_;
  mine.done = slave_.done_since_sync_;
  mine.elapsed = now - slave_.sync_start_;
  mine.speed = core::speed({slave_.done_since_sync_, mine.elapsed, 0, slave_.work_since_sync_},
                           slave_.last_speed_);
  slave_.last_speed_ = mine.speed;
  if (slave_.st_.syncs == 0) slave_.st_.first_speed = mine.speed;
  mine.remaining = nonempty(slave_.remaining_);
  return mine;
}

void detail::slave_session::run_sync() {
  const sync_protocol& row = proto();
  auto& clk = net_.clock();
  // Fault injection (--kill-at-sync): entering a synchronization, before its profile is sent.
  rt_.fault_point(true);
  const double t_enter = clk.now();
  const std::string where = "loop " + std::to_string(loop_id_) + ", group " +
                            std::to_string(slave_.group_) + ", synchronization " +
                            std::to_string(slave_.epoch_);
  const protocol::member_profile mine = measure(t_enter);
  const bytes profile = protocol::encode(protocol::profile_msg{current_sync(), mine});
  if (central_async()) {
    // The paper's centralized protocol: the profile goes to the balancer; a member with work
    // goes on (its instructions and work come between iterations); a requester waits.
    net_.send(protocol::master_rank, tag::profile, profile);
    const int e = slave_.epoch_++;
    ++slave_.st_.syncs;
    slave_.done_since_sync_ = 0;
    slave_.work_since_sync_ = 0.0;
    if (core::iteration_count(slave_.remaining_) == 0) await_outcome(e, where);
    slave_.sync_start_ = clk.now();
    return;
  }
  switch (row.profiles_to) {
    case profile_destination::to_master:
      net_.send(protocol::master_rank, tag::profile, profile);
      break;
    case profile_destination::to_other_members:
      net_.multicast(active_other_ranks(), tag::profile, profile, row.broadcast);
      break;
  }
  // The synchronization this is (a commitment changes the member's group before the work
  // moves; the WORK messages still name this synchronization).
  const protocol::sync_header at = current_sync();
  protocol::decision d;
  switch (row.decided_by) {
    case decision_maker::by_master:  // who tells the group
      d = await_decision(where);
      break;
    case decision_maker::by_every_member:
      d = decide_in_group(mine, where);
      break;
  }
  apply(d, at);
  ++slave_.st_.syncs;
  if (d.reason == core::balance_reason::moved) ++slave_.st_.redistributions;
  ++slave_.epoch_;
  slave_.done_since_sync_ = 0;
  slave_.work_since_sync_ = 0.0;
  slave_.sync_start_ = clk.now();
  // ADAPTIVE: a re-selection has epoch 2s, the committed strategy's synchronization 2s + 1.
  if (adaptive() && slave_.epoch_ % 2 == 0) return_to_reselection();
}

protocol::decision detail::slave_session::await_decision(const std::string& where) {
  auto m =
      recovery_.wait(*this, protocol::in_sync(tag::decision, current_sync(), protocol::master_rank),
                     "the master's decision (" + where + ")");
  reader r = m.body();
  protocol::decision_msg msg = protocol::decode_decision(r);
  if (!msg.commit) return std::move(msg.body);
  // The policy in force is the commitment's, taken up as the master committed it.
  const protocol::commitment& c = *msg.commit;
  popts_.adaptive = c.adaptive;
  if (std::holds_alternative<core::self_scheduled>(c.next.value)) {
    become_worker();  // customized mode committed to a chunk rule
    return std::move(msg.body);
  }
  const auto row = c.next.row();
  if (!row)
    throw run_error("a commitment to " + core::to_string(c.next) +
                    ", which is neither a balancing row nor a chunk rule");
  adopt(*row, c.group, slave_.active_, c.members);
  return std::move(msg.body);
}

void detail::slave_session::apply(const protocol::decision& d, const protocol::sync_header& at) {
  // Senders: ship the end of their remaining work (take_from_end: the current range keeps its
  // begin).
  std::int64_t n = 0;
  core::range_list given;
  for (const auto& t : d.transfers) {
    if (t.from != slave_.me_) continue;
    n += t.count;
    given.insert(given.end(), t.ranges.begin(), t.ranges.end());
  }
  if (n > core::iteration_count(slave_.remaining_))
    throw run_error("decision asks " + net_.describe(static_cast<int>(slave_.me_) + 1) +
                    " for more work than it holds");
  const core::range_list taken = take_from_end(n);
  if (core::normalized(taken) != core::normalized(given)) {
    throw run_error("decision and remaining work of " +
                    net_.describe(static_cast<int>(slave_.me_) + 1) + " disagree");
  }
  for (const auto& t : d.transfers) {
    if (t.from != slave_.me_) continue;
    writer slices;
    detail::pack_arrays(slices, arrays_, t.ranges, detail::moved_array);
    slave_.st_.bytes_sent += slices.size();
    slave_.st_.iterations_sent += t.count;
    net_.send(static_cast<int>(t.to) + 1, tag::work,
              protocol::encode(protocol::work_msg{at, core::transfers_to(d.transfers, t.to),
                                                  t.ranges, slices.data()}));
  }
  // Receivers: wait for each transfer addressed to them.
  for (const auto& t : d.transfers) {
    if (t.to != slave_.me_) continue;
    const int from = static_cast<int>(t.from) + 1;
    receive_work(recovery_.wait(*this, protocol::in_sync(tag::work, at, from),
                                "work from " + net_.describe(from)));
  }
  // Who is still active, as every member sees it.
  std::size_t k = 0;
  for (std::size_t p = 0; p < slave_.members_.size(); ++p) {
    if (!slave_.active_[p]) continue;
    if (k < d.counts_after.size() && d.counts_after[k] == 0) slave_.active_[p] = false;
    ++k;
  }
  for (std::size_t p = 0;
       p < slave_.members_.size() && slave_.members_[p] < slave_.known_active_.size(); ++p)
    slave_.known_active_[slave_.members_[p]] = slave_.active_[p];
  // A decision not to move: under the stop rule balancing in the group ends here; under the
  // idle rule the members left without work (the requester) went inactive above and the others
  // go on, the next to run out synchronizing again among them.
  if (d.reason != core::balance_reason::moved && balance_.no_move == core::after_no_move::stop)
    slave_.closed_ = true;
  // A worker (AUTO-ALL took up self-scheduling) asks for its first chunk next.
  if (core::iteration_count(slave_.remaining_) > 0 || self_scheduled()) {
    slave_.more_work_ = true;
  } else {
    out_of_work();
  }
}

}  // namespace dlb
