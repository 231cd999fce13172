// recovery.cpp: --on-loss recover's hooks on both sides of a loop (recovery.hpp).
//
// The master knows what each slave handed in, since results carry their iterations. Once every
// surviving slave has handed in all it held (it waits for the answer, holding nothing), what no
// one handed in is exactly what is left to compute, wherever it was when a slave was lost: in
// the lost slave's hands, on its way to or from it, or computed by it and never handed in. That
// is shared out among the survivors, with its input data from the master's own copy; they hand
// it in and wait again, until nothing is missing. A survivor never takes balancing work after
// it has handed in, so nothing is computed twice.
#include "recovery.hpp"

#include <string>
#include <utility>

#include "arrays.hpp"
#include "dlb/core/profile.hpp"
#include "dlb/core/recovery.hpp"
#include "dlb/runtime/protocol.hpp"
#include "loop_session.hpp"

namespace dlb::detail {

void slave_recovery::at_scatter(slave_session& s) { take_losses(s); }

void slave_recovery::take_losses(slave_session& s) {
  if (!on_) return;
  while (auto d = s.net_.poll(with_tag(tag::lost))) take_lost(s, *d);
}

delivered slave_recovery::wait(slave_session& s, const messenger::match& m,
                               const std::string& what) {
  if (!on_) return s.net_.wait(m, what);
  const messenger::match either([&m](const delivered& d) { return d.kind == tag::lost || m(d); });
  for (;;) {
    delivered d = s.net_.wait(either, what);
    if (d.kind != tag::lost) return d;
    take_lost(s, d);
    if (s.slave_.closed()) throw sync_abandoned();
    // A loss of an earlier loop: keep waiting.
  }
}

void slave_recovery::take_lost(slave_session& s, const delivered& d) {
  reader r = d.body();
  const protocol::lost_msg m = protocol::decode_lost(r);
  s.rt_.mark_lost(static_cast<int>(m.slave) + 1);
  // Balancing in the loop of the loss ends (the master stopped balancing it too).
  if (m.loop == s.loop_id_) s.slave_.close();
}

void slave_recovery::hand_in(slave_session& s) {
  auto& net = s.net_;
  writer slices;
  pack_arrays(slices, s.arrays_, unhanded_, output_array);
  net.send(
      protocol::master_rank, tag::gather,
      protocol::encode(protocol::gather_msg{s.loop_id_, unhanded_, s.stats_now(), slices.data()}));
  unhanded_.clear();
  handed_in_ = true;
  finishing_ = false;
  const int loop = s.loop_id_;
  const messenger::match answer([loop](const delivered& d) {
    return d.kind == tag::lost || (d.kind == tag::recover && protocol::peek_loop(d) == loop);
  });
  const double t0 = net.clock().now();
  delivered d =
      net.wait(answer, "the master's answer to the results of loop " + std::to_string(loop));
  while (d.kind == tag::lost) {
    take_lost(s, d);
    d = net.wait(answer, "the master's answer to the results of loop " + std::to_string(loop));
  }
  auto& me = s.slave_;
  me.charge_idle(net.clock().now() - t0);
  s.trace_in_call(t0, net.clock().now(), slave_activity::idle);
  reader r = d.body();
  protocol::recover_msg m = protocol::decode_recover(r);
  if (m.ranges.empty()) {  // the loop is complete
    me.work().clear();
    me.set_more_work(false);
    return;
  }
  reader in(m.slices);
  unpack_arrays(in, s.arrays_, m.ranges, moved_array);
  me.work().hold(std::move(m.ranges));
  me.close();  // no balancing of recovered work
  me.set_more_work(true);
}

void master_recovery::at_scatter(master_session& m) {
  if (!on_) return;
  while (auto d = m.net_.poll(with_tag(tag::task_exit)))
    if (m.note_loss(d->from)) closed_at_scatter_ = true;
}

void master_recovery::hand_in(master_session& m, const delivered& d) {
  reader r = d.body();
  auto g = protocol::decode_gather(r);
  reader slices(g.slices);
  unpack_arrays(slices, m.arrays_, g.done, output_array);
  const auto s = static_cast<std::size_t>(d.from - 1);
  auto& mine = handed_in_ranges_[s];
  mine.insert(mine.end(), g.done.begin(), g.done.end());
  handed_in_stats_[s] = g.stats;
}

bool master_recovery::reassign(master_session& m, const std::vector<std::size_t>& survivors,
                               std::vector<bool>& waiting) {
  auto& net = m.net_;
  const int loop = m.loop_id_;
  const auto missing = core::missing_iterations(m.loop_.iterations, handed_in_ranges_);
  if (missing.empty()) {
    for (std::size_t s : survivors)
      net.send(static_cast<int>(s) + 1, tag::recover,
               protocol::encode(protocol::recover_msg{loop, {}, {}}));
    return false;
  }
  // In proportion to the speed each survivor showed (core::speed: work per busy second, in the
  // balancer's unit), pieces sized by that unit.
  std::vector<double> weights;
  for (std::size_t s : survivors) {
    const auto& st = handed_in_stats_[s];
    weights.push_back(core::speed({st.iterations_done, st.busy, 0, st.work_done}));
  }
  const auto shares = core::share_out(missing, weights, m.work_cost());
  if (recovery_from_ < 0) recovery_from_ = net.clock().now();
  for (std::size_t k = 0; k < survivors.size(); ++k) {
    if (shares[k].empty()) continue;
    writer slices;
    pack_arrays(slices, m.arrays_, shares[k], moved_array);
    net.send(static_cast<int>(survivors[k]) + 1, tag::recover,
             protocol::encode(protocol::recover_msg{loop, shares[k], slices.data()}));
    m.master_.count_recovered(core::iteration_count(shares[k]));
    waiting[survivors[k]] = false;
  }
  return true;
}

void master_recovery::at_gather(std::vector<slave_stats>& slaves,
                                core::distribution& executed) const {
  if (!on_) return;
  // Handed in piece by piece, results unpacked on arrival; a lost slave keeps what it handed
  // in before it was lost.
  slaves = handed_in_stats_;
  for (std::size_t s = 0; s < executed.slaves.size(); ++s)
    executed.slaves[s] = core::normalized(handed_in_ranges_[s]);
}

}  // namespace dlb::detail
