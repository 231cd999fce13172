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
  return {loop_id_, slave_.group(), slave_.window().epoch()};
}

bool detail::slave_session::poll_interrupt() {
  // Stale interrupts (of syncs this slave has completed) are dropped; the current one starts a
  // sync.
  for (;;) {
    auto d = net_.poll({tag::interrupt, [this](const delivered& m) {
                          const protocol::sync_header h = protocol::peek_sync(m);
                          return h.loop == loop_id_ && h.group == slave_.group() &&
                                 h.epoch <= slave_.window().epoch();
                        }});
    if (!d) return false;
    if (protocol::peek_sync(*d).epoch == slave_.window().epoch()) {
      net_.note_late(d->late);
      return true;
    }
  }
}

bool DLB_slave_sync(context& ctx) {
  return detail::slave_of(ctx, "DLB_slave_sync").iteration_done();
}

bool detail::slave_session::iteration_done() {
  if (!slave_.work().in_progress())
    throw run_error("DLB_slave_sync called with no iteration in progress");
  const std::int64_t i = slave_.work().finish_iteration();
  recovery_.at_iteration(i);
  slave_.count_iteration();
  const bool in_work = loop_.work && balance_.unit == core::balance_unit::work;
  if (slave_.pacer().between_polls()) {
    // Between polls (native clock): no clock read, no message, no accounting but the work
    // done; the body's time is busy, charged at the next DLB call (begin_call).
    slave_.count_work(in_work ? loop_.work(i) : 1.0);
    return slave_.interrupt();
  }
  // The body's time since it got control is busy (begin_call); without a work function that is
  // the cost it reported itself (runtime::compute), or real time under the native clock.
  const call_scope call(*this);
  if (loop_.work) {
    auto& clk = net_.clock();
    const double t0 = clk.now();
    const double w = loop_.work(i);
    net_.compute(w);
    slave_.charge_busy(clk.now() - t0);
    trace_in_call(t0, clk.now(), slave_activity::compute);
    slave_.count_work(in_work ? w : 1.0);
  } else {
    slave_.count_work(1.0);
  }
  // Fault injection (--kill-slave): an iteration boundary is a fault point on every backend.
  rt_.fault_point(false);
  recovery_.take_losses(*this);
  if (central_async() && !recovery_.handed_in()) take_instructions_and_work();
  if (!slave_.closed() && !slave_.interrupt() && poll_interrupt()) slave_.interrupted();
  prefetch_if_due();
  if (slave_.pacer().paced()) slave_.pacer().polled(net_.clock().now());
  return slave_.interrupt();
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
  slave_.begin_call(net_.clock().now());
  if (states_) {
    states_->record(slave_.body_from(), slave_.call_from(), slave_activity::compute, loop_id_,
                    slave_.stats().iterations_done);
    states_->begin_call(slave_.call_from());
  }
}

void detail::slave_session::end_call() {
  slave_.end_call(net_.clock().now());
  if (states_) states_->end_call(slave_.body_from(), loop_id_, slave_.stats().iterations_done);
}

void detail::slave_session::send_interrupts() {
  // A member that does not see the others' outcomes interrupts every other member; those that
  // have gone idle ignore it.
  const std::vector<int> to = proto().interrupts == interrupt_audience::every_member
                                  ? slave_.other_member_ranks()
                                  : slave_.active_other_ranks();
  net_.multicast(to, tag::interrupt, protocol::encode(protocol::interrupt_msg{current_sync()}),
                 proto().broadcast);
}

void detail::slave_session::ship(const protocol::instruction_msg& m) {
  // The instruction gives "the recipient and the amount of work to be moved" (section 1.2). The
  // sender has gone on computing from the front since its profile, so it ships that amount from
  // the end of what it holds now (all of it, if it holds less).
  const core::range_list give = slave_.work().take_from_end(m.transfer.count);
  writer slices;
  detail::pack_arrays(slices, arrays_, give, detail::moved_array);
  slave_.count_sent(slices.size(), core::iteration_count(give), m.sync.epoch);
  net_.send(static_cast<int>(m.transfer.to) + 1, tag::work,
            protocol::encode(protocol::work_msg{m.sync, m.receiver_gets, give, slices.data()}));
}

void detail::slave_session::receive_work(const delivered& d) {
  reader r = d.body();
  auto w = protocol::decode_work(r);
  reader slices(w.slices);
  detail::unpack_arrays(slices, arrays_, w.ranges, detail::moved_array);
  slave_.receive(w.ranges, w.sync.epoch, w.receiver_gets);
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
    slave_.charge_idle(net_.clock().now() - t0);
    trace_in_call(t0, net_.clock().now(), slave_activity::idle);
    return d;
  };
  while (!slave_.work_arrived(epoch)) {
    auto d = wait_idle(mine, "the master's answer or work (" + where + ")");
    reader r = d.body();
    if (d.kind == tag::instruction) {
      ship(protocol::decode_instruction(r));
    } else if (d.kind == tag::work) {
      receive_work(d);
    } else {
      // No work for this requester: it goes idle, once the work still due to it has come.
      slave_.close();
      due = protocol::decode_notice(r).work_due_total;
      break;
    }
  }
  while (slave_.works_received() < due)
    receive_work(
        wait_idle(protocol::in_loop(tag::work, loop_id_), "work still due (" + where + ")"));
  // Still active with nothing to do (its senders had computed what they were told to ship): it
  // asks again, at the next synchronization.
  if (slave_.closed() && slave_.work().left() == 0) {
    out_of_work();
  } else {
    slave_.set_more_work(true);
    if (slave_.work().left() == 0) slave_.work().clear();
  }
}

void DLB_send_interrupt(context& ctx) {
  detail::slave_of(ctx, "DLB_send_interrupt").ask_for_work();
}

void detail::slave_session::ask_for_work() {
  const call_scope call(*this);
  if (slave_.work().next_range()) return;  // the next local range; nothing to ask for
  if (self_scheduled()) {                  // a worker asks the master for its next chunk
    slave_.ask_sync();
    return;
  }
  // (A member of a centralized group does not see the others' outcomes: it asks the balancer
  // unless it is alone in its group.)
  if (recovery_.finishing() || slave_.closed() || slave_.members().size() == 1 ||
      (proto().interrupts == interrupt_audience::active_members && !slave_.others_active())) {
    if (recovery_.on()) {
      recovery_.hand_in(*this);
    } else {
      slave_.set_more_work(false);
    }
    return;
  }
  // Someone else may have run out first and asked already: join that sync.
  if (!slave_.sync_pending() && !poll_interrupt()) send_interrupts();
  slave_.ask_sync();
}

void DLB_profile_send_move_work(context& ctx) {
  detail::slave_of(ctx, "DLB_profile_send_move_work").take_part();
}

void detail::slave_session::take_part() {
  const call_scope call(*this);
  if (!slave_.sync_pending()) return;
  if (self_scheduled()) {
    request_chunk();
  } else if (recovery_.on() && slave_.closed()) {
    // --on-loss recover: a slave that knows of a loss in this loop takes part in no more
    // synchronizations; the others, told too, abandon theirs (sync_abandoned).
    if (slave_.work().left() == 0) out_of_work();
  } else {
    try {
      run_sync();
    } catch (const sync_abandoned&) {
      // What it holds now (work received before the LOST included) it computes; what was on its
      // way to or from it and never arrived, the master finds missing and reassigns.
      if (slave_.work().left() == 0) out_of_work();
    }
  }
  slave_.sync_over();
}

void detail::slave_session::out_of_work() {
  slave_.work().clear();
  // Under recovery it stays in the loop until it has handed in (DLB_send_interrupt), so that
  // the master can give it a lost slave's work.
  slave_.set_more_work(recovery_.stay_when_out());
}

slave_stats detail::slave_session::stats_now() {
  const double now = net_.clock().now();
  return slave_.stats_at(now, std::max(net_.clock().lag(), net_.late_delivery()));
}

protocol::member_profile detail::slave_session::measure(double now) {
  protocol::member_profile mine;
  mine.slave = slave_.me();
  mine.done = slave_.window().done();
  mine.elapsed = now - slave_.window().start();
  mine.speed = slave_.measure_speed(now);
  mine.remaining = nonempty(slave_.work().remaining());
  return mine;
}

void detail::slave_session::run_sync() {
  const sync_protocol& row = proto();
  auto& clk = net_.clock();
  // Fault injection (--kill-at-sync): entering a synchronization, before its profile is sent.
  rt_.fault_point(true);
  const double t_enter = clk.now();
  const std::string where = "loop " + std::to_string(loop_id_) + ", group " +
                            std::to_string(slave_.group()) + ", synchronization " +
                            std::to_string(slave_.window().epoch());
  const protocol::member_profile mine = measure(t_enter);
  const bytes profile = protocol::encode(protocol::profile_msg{current_sync(), mine});
  if (central_async()) {
    // The paper's centralized protocol: the profile goes to the balancer; a member with work
    // goes on (its instructions and work come between iterations); a requester waits.
    net_.send(protocol::master_rank, tag::profile, profile);
    const int e = slave_.window().next_epoch();
    slave_.count_sync(false);
    if (slave_.work().left() == 0) await_outcome(e, where);
    slave_.window().restart(clk.now());
    return;
  }
  switch (row.profiles_to) {
    case profile_destination::to_master:
      net_.send(protocol::master_rank, tag::profile, profile);
      break;
    case profile_destination::to_other_members:
      net_.multicast(slave_.active_other_ranks(), tag::profile, profile, row.broadcast);
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
  slave_.count_sync(d.reason == core::balance_reason::moved);
  slave_.window().next_epoch();
  slave_.window().restart(clk.now());
  // ADAPTIVE: a re-selection has epoch 2s, the committed strategy's synchronization 2s + 1.
  if (adaptive() && slave_.window().epoch() % 2 == 0) return_to_reselection();
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
  set_in_force(c.adaptive ? core::policy{core::customized{core::customized_mode::adaptive}}
                          : c.next);
  if (self_scheduled()) {
    become_worker();  // customized mode committed to a chunk rule
    return std::move(msg.body);
  }
  const auto row = c.next.row();
  if (!row)
    throw run_error("a commitment to " + core::to_string(c.next) +
                    ", which is neither a balancing row nor a chunk rule");
  adopt(*row, c.group, slave_.active(), c.members);
  return std::move(msg.body);
}

void detail::slave_session::apply(const protocol::decision& d, const protocol::sync_header& at) {
  ship_decided(d, at);
  // Receivers: wait for each transfer addressed to them.
  for (const auto& t : d.transfers) {
    if (t.to != slave_.me()) continue;
    const int from = static_cast<int>(t.from) + 1;
    receive_work(recovery_.wait(*this, protocol::in_sync(tag::work, at, from),
                                "work from " + net_.describe(from)));
  }
  // Who is still active, as every member sees it.
  slave_.update_active(d.counts_after);
  // A decision not to move: under the stop rule balancing in the group ends here; under the
  // idle rule the members left without work (the requester) went inactive above and the others
  // go on, the next to run out synchronizing again among them.
  if (d.reason != core::balance_reason::moved && balance_.no_move == core::after_no_move::stop)
    slave_.close();
  // A worker (AUTO-ALL took up self-scheduling) asks for its first chunk next.
  if (slave_.work().left() > 0 || self_scheduled()) {
    slave_.set_more_work(true);
  } else {
    out_of_work();
  }
}

void detail::slave_session::ship_decided(const protocol::decision& d,
                                         const protocol::sync_header& at) {
  // Senders: ship the end of their remaining work (take_from_end: the current range keeps its
  // begin).
  std::int64_t n = 0;
  core::range_list given;
  for (const auto& t : d.transfers) {
    if (t.from != slave_.me()) continue;
    n += t.count;
    given.insert(given.end(), t.ranges.begin(), t.ranges.end());
  }
  const int me = static_cast<int>(slave_.me()) + 1;
  if (n > slave_.work().left())
    throw run_error("decision asks " + net_.describe(me) + " for more work than it holds");
  const core::range_list taken = slave_.work().take_from_end(n);
  if (core::normalized(taken) != core::normalized(given))
    throw run_error("decision and remaining work of " + net_.describe(me) + " disagree");
  for (const auto& t : d.transfers) {
    if (t.from != slave_.me()) continue;
    writer slices;
    detail::pack_arrays(slices, arrays_, t.ranges, detail::moved_array);
    slave_.count_sent(slices.size(), t.count, -1);
    net_.send(static_cast<int>(t.to) + 1, tag::work,
              protocol::encode(protocol::work_msg{at, core::transfers_to(d.transfers, t.to),
                                                  t.ranges, slices.data()}));
  }
}

}  // namespace dlb
