// Unit tests of --on-loss recover's objects (lib/runtime/recovery.hpp) on both sides of a loop,
// on and off: what a slave keeps to hand in and when it stays in the loop, how it takes a loss,
// and what the master records of a loss and hands the survivors. The sessions run in a world of
// fake tasks (runtime_fake_world.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "dlb/core/policy.hpp"
#include "dlb/core/recovery.hpp"
#include "dlb/runtime/protocol.hpp"
#include "runtime/loop_session.hpp"
#include "runtime/recovery.hpp"
#include "runtime_fake_world.hpp"

namespace {

namespace core = dlb::core;
namespace protocol = dlb::protocol;
using dlb::detail::master_session;
using dlb::detail::slave_recovery;
using dlb::detail::slave_session;

// A world of P slaves, each with its session of one loop of I iterations under GDDLB, and the
// master's.
struct recovery_world {
  fake::world w;
  dlb::run_params prm;
  std::vector<std::unique_ptr<fake::task>> tasks;  // rank 0 the master
  std::unique_ptr<master_session> master;
  std::vector<std::unique_ptr<slave_session>> slaves;

  recovery_world(int P, std::int64_t I, bool recover)
      : w(P + 1), prm(fake::params(P, core::parse_policy("GDDLB"), recover)) {
    const dlb::loop_spec loop{I, {}, dlb::data_distribution::block};
    for (int r = 0; r <= P; ++r) tasks.push_back(std::make_unique<fake::task>(w, r, prm));
    master = std::make_unique<master_session>(tasks[0]->rt(), prm.policy, P, P, loop,
                                              std::vector<dlb::DLB_array*>{});
    for (int r = 1; r <= P; ++r)
      slaves.push_back(std::make_unique<slave_session>(tasks[static_cast<std::size_t>(r)]->rt(),
                                                       prm.policy, P, P, loop,
                                                       std::vector<dlb::DLB_array*>{}));
  }
  fake::task& task(int rank) { return *tasks[static_cast<std::size_t>(rank)]; }
  slave_session& slave(int rank) { return *slaves[static_cast<std::size_t>(rank - 1)]; }
  // The master tells slave `rank` what the master's answer to its results is.
  void answer(int rank, core::range_list ranges) {
    task(0).net().send(rank, dlb::tag::recover,
                       protocol::encode(protocol::recover_msg{1, std::move(ranges), {}}));
  }
  // The master tells slave `rank` that slave `lost` (0-based) was lost in loop `loop`.
  void tell_lost(int rank, int loop, std::size_t lost) {
    task(0).net().send(rank, dlb::tag::lost, protocol::encode(protocol::lost_msg{loop, lost, 1.0}));
  }
  // What slave `rank` handed in last, as the master receives it.
  protocol::gather_msg handed_in_by(int rank) {
    const auto d = task(0).net().wait(dlb::with_tag_from(dlb::tag::gather, rank), "results");
    dlb::reader r = d.body();
    return protocol::decode_gather(r);
  }
  // The master's RECOVER to slave `rank`.
  protocol::recover_msg recovered_by(int rank) {
    const auto d = task(rank).net().wait(dlb::with_tag(dlb::tag::recover), "recover");
    dlb::reader r = d.body();
    return protocol::decode_recover(r);
  }
  // Slave `rank` hands in `done` with `busy` seconds of computation; the master takes it in.
  void hand_in_to_master(int rank, core::range_list done, double busy) {
    dlb::slave_stats st;
    st.iterations_done = core::iteration_count(done);
    st.work_done = static_cast<double>(st.iterations_done);
    st.busy = busy;
    task(rank).net().send(protocol::master_rank, dlb::tag::gather,
                          protocol::encode(protocol::gather_msg{1, done, st, {}}));
    const auto d = task(0).net().wait(dlb::with_tag_from(dlb::tag::gather, rank), "results");
    master->recovery_.hand_in(*master, d);
  }
};

// On, the iterations a slave finishes are kept until it hands them in, then handed in once; the
// master's answer ends the loop (no ranges) or gives it work, which it holds with balancing
// closed. Off, nothing is kept.
TEST(SlaveRecovery, KeepsWhatItDidUntilItHandsItIn) {
  recovery_world x(2, 20, true);
  auto& s = x.slave(1);
  for (std::int64_t i : {0, 1, 2, 3, 7}) s.recovery_.at_iteration(i);
  x.answer(1, {{14, 16}});
  s.recovery_.hand_in(s);
  EXPECT_EQ(x.handed_in_by(1).done, (core::range_list{{0, 4}, {7, 8}}));
  EXPECT_TRUE(s.recovery_.handed_in());
  EXPECT_EQ(s.slave_.work().remaining(), (core::range_list{{14, 16}}));
  EXPECT_TRUE(s.slave_.closed());
  EXPECT_TRUE(s.slave_.more_work());
  // Only what was done since goes the second time; the empty answer ends the loop.
  s.recovery_.at_iteration(14);
  s.recovery_.at_iteration(15);
  x.answer(1, {});
  s.recovery_.hand_in(s);
  EXPECT_EQ(x.handed_in_by(1).done, (core::range_list{{14, 16}}));
  EXPECT_FALSE(s.slave_.more_work());
  EXPECT_TRUE(s.slave_.work().remaining().empty());

  recovery_world off(2, 20, false);
  auto& o = off.slave(1);
  for (std::int64_t i : {0, 1, 2}) o.recovery_.at_iteration(i);
  off.answer(1, {});
  o.recovery_.hand_in(o);
  EXPECT_TRUE(off.handed_in_by(1).done.empty());
}

// Out of work: on, the slave stays in the loop until it has handed in (finishing); off, it
// leaves. Its results are in at the gather only when on (handed in piece by piece).
TEST(SlaveRecovery, StaysWhenOutOfWorkOnlyWhenOn) {
  for (const bool on : {true, false}) {
    slave_recovery r(on);
    EXPECT_FALSE(r.finishing());
    EXPECT_EQ(r.stay_when_out(), on);
    EXPECT_EQ(r.finishing(), on);
    EXPECT_EQ(r.handed_in_all(), on);
    EXPECT_FALSE(r.handed_in());
  }
}

// A LOST of the slave's loop closes its balancing and marks the slave lost; one of an earlier
// loop marks it lost only. Off, the losses are not read at all.
TEST(SlaveRecovery, ALossOfItsLoopClosesBalancing) {
  struct row {
    bool on;
    int loop;  // 1: the slave's loop; 0: an earlier one
    bool marked, closed;
  };
  for (const row& r :
       {row{true, 0, true, false}, row{true, 1, true, true}, row{false, 1, false, false}}) {
    recovery_world x(3, 30, r.on);
    auto& s = x.slave(1);
    x.tell_lost(1, r.loop, 2);
    s.recovery_.take_losses(s);
    EXPECT_EQ(s.rt_.lost(3), r.marked) << r.on << " loop " << r.loop;
    EXPECT_EQ(s.slave_.closed(), r.closed) << r.on << " loop " << r.loop;
  }
}

// A synchronization's wait: on, a LOST of this loop abandons it; one of an earlier loop does
// not, and the awaited message comes.
TEST(SlaveRecovery, ALossAbandonsTheWaitOfItsLoop) {
  recovery_world x(2, 20, true);
  auto& s = x.slave(1);
  const auto notice = dlb::with_tag(dlb::tag::notice);
  x.tell_lost(1, 1, 1);
  EXPECT_THROW(s.recovery_.wait(s, notice, "a notice"), dlb::detail::sync_abandoned);
  recovery_world y(2, 20, true);
  auto& t = y.slave(1);
  y.tell_lost(1, 0, 1);
  y.task(0).clock().wait_until(1.0);  // the notice after the loss
  y.task(0).net().send(1, dlb::tag::notice, protocol::encode(protocol::notice_msg{{1, 0, 0}, 0}));
  EXPECT_EQ(t.recovery_.wait(t, notice, "a notice").kind, dlb::tag::notice);
  EXPECT_TRUE(t.rt_.lost(2));
}

// The master at the scatter: on, a slave lost since the last loop is recorded, the survivors are
// told (LOST), and this loop does not balance; off, the exit notice is not read.
TEST(MasterRecovery, ALossBeforeTheScatterClosesTheLoopsBalancing) {
  for (const bool on : {true, false}) {
    recovery_world x(3, 30, on);
    auto& m = *x.master;
    x.master->master_.begin(m.policy_, 3, 3, 30, on, 0.0);
    x.w.inbox[0].push_back({3, dlb::kTaskExitTag, {}, -1.0});
    m.recovery_.at_scatter(m);
    EXPECT_EQ(m.recovery_.closed_at_scatter(), on);
    EXPECT_EQ(m.rt_.lost(3), on);
    EXPECT_EQ(m.master_.stats().lost.size(), on ? 1u : 0u);
    EXPECT_EQ(x.w.to(1, dlb::tag::lost).size(), on ? 1u : 0u);
    EXPECT_EQ(x.w.to(2, dlb::tag::lost).size(), on ? 1u : 0u);
    EXPECT_TRUE(x.w.to(3, dlb::tag::lost).empty());
  }
}

// Every survivor waiting: what nobody handed in goes to the survivors in proportion to the speed
// each showed, and is counted as recovered; once everything is in, each survivor is told the
// loop is complete. The gather then has what each slave handed in.
TEST(MasterRecovery, HandsTheSurvivorsWhatNobodyHandedIn) {
  recovery_world x(3, 90, true);
  auto& m = *x.master;
  x.hand_in_to_master(1, {{0, 30}}, 1.0);   // 30 per second
  x.hand_in_to_master(2, {{30, 60}}, 3.0);  // 10 per second; slave 3's [60, 90) is missing
  std::vector<bool> waiting = {true, true, false};
  EXPECT_EQ(m.recovery_.time_to(5.0), 0.0);  // no reassignment yet
  const double first = x.task(0).clock().now();
  ASSERT_TRUE(m.recovery_.reassign(m, {0, 1}, waiting));
  const auto to1 = x.recovered_by(1), to2 = x.recovered_by(2);
  const auto shares = core::share_out({{60, 90}}, {30.0, 10.0}, {});
  EXPECT_EQ(to1.ranges, shares[0]);
  EXPECT_EQ(to2.ranges, shares[1]);
  EXPECT_GT(core::iteration_count(to1.ranges), core::iteration_count(to2.ranges));
  core::range_list both = to1.ranges;
  both.insert(both.end(), to2.ranges.begin(), to2.ranges.end());
  EXPECT_EQ(core::normalized(both), (core::range_list{{60, 90}}));
  EXPECT_EQ(waiting, (std::vector<bool>{false, false, false}));
  EXPECT_EQ(m.master_.stats().recovered_iterations, 30);
  x.hand_in_to_master(1, to1.ranges, 1.0);
  x.hand_in_to_master(2, to2.ranges, 1.0);
  EXPECT_FALSE(m.recovery_.reassign(m, {0, 1}, waiting));
  EXPECT_TRUE(x.recovered_by(1).ranges.empty());
  EXPECT_TRUE(x.recovered_by(2).ranges.empty());
  EXPECT_DOUBLE_EQ(m.recovery_.time_to(first + 5.0), 5.0);  // from the first reassignment
  std::vector<dlb::slave_stats> slaves(3);
  core::distribution executed;
  executed.iterations = 90;
  executed.slaves.resize(3);
  m.recovery_.at_gather(slaves, executed);
  EXPECT_EQ(executed.slaves[0], core::normalized(core::range_list{{0, 30}, to1.ranges.front()}));
  EXPECT_TRUE(executed.slaves[2].empty());
  EXPECT_EQ(slaves[1].iterations_done, core::iteration_count(to2.ranges));
}

// Off: the gather's statistics and executed iterations are left to the results, and there is no
// recovery time.
TEST(MasterRecovery, OffLeavesTheGatherAlone) {
  recovery_world x(2, 20, false);
  auto& m = *x.master;
  std::vector<dlb::slave_stats> slaves(2);
  slaves[0].iterations_done = 4;
  core::distribution executed;
  executed.slaves = {{{0, 10}}, {{10, 20}}};
  m.recovery_.at_gather(slaves, executed);
  EXPECT_EQ(slaves[0].iterations_done, 4);
  EXPECT_EQ(executed.slaves[1], (core::range_list{{10, 20}}));
  EXPECT_EQ(m.recovery_.time_to(7.0), 0.0);
}

}  // namespace
