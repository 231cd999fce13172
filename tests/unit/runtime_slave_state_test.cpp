// Unit tests of a slave's state (lib/runtime/slave_state.hpp) without a run: what each method
// keeps consistent, table-style where there is a table.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "runtime/slave_state.hpp"

namespace {

using dlb::core::range_list;
using dlb::detail::slave_state;
using dlb::detail::slave_work;

// Work done iteration by iteration goes to the done list, once each, merged; the current range
// moves on; next_range drops the finished ranges at the front.
TEST(SlaveWork, IterationsDoneOnceInOrder) {
  slave_work w;
  w.hold({{0, 2}, {5, 6}});
  ASSERT_TRUE(w.in_progress());
  EXPECT_EQ(w.finish_iteration(), 0);
  EXPECT_EQ(w.finish_iteration(), 1);
  EXPECT_FALSE(w.in_progress());
  EXPECT_EQ(w.left(), 1);
  ASSERT_TRUE(w.next_range());
  EXPECT_EQ(w.current().begin, 5);
  EXPECT_EQ(w.finish_iteration(), 5);
  EXPECT_EQ(w.done(), (range_list{{0, 2}, {5, 6}}));
  EXPECT_FALSE(w.next_range());
  EXPECT_EQ(w.current().begin, 0);  // none: {0, 0}
  EXPECT_EQ(w.current().end, 0);
  EXPECT_EQ(w.take_done(), (range_list{{0, 2}, {5, 6}}));
}

// What a sender gives comes from the end; the current range keeps its begin, even when all of
// it goes, so the application's loop ends where it stands.
TEST(SlaveWork, TakeFromTheEndKeepsTheCurrentRangesBegin) {
  struct row {
    range_list held;
    std::int64_t n;
    range_list kept, given;
  };
  const std::vector<row> table = {
      {{{3, 10}}, 4, {{3, 6}}, {{6, 10}}},
      {{{3, 10}}, 7, {{3, 3}}, {{3, 10}}},
      {{{3, 5}, {8, 10}}, 3, {{3, 4}}, {{4, 5}, {8, 10}}},
      {{{3, 5}, {8, 10}}, 9, {{3, 3}}, {{3, 5}, {8, 10}}},  // more than it holds: all of it
      {{{3, 5}}, 0, {{3, 5}}, {}},
  };
  for (const auto& r : table) {
    slave_work w;
    w.hold(r.held);
    const range_list given = w.take_from_end(r.n);
    EXPECT_EQ(given, r.given);
    EXPECT_EQ(w.remaining(), r.kept);
    EXPECT_EQ(w.current().begin, r.held.front().begin);
  }
}

// Work received goes after what it holds; with nothing held, an empty current range first.
TEST(SlaveWork, ReceivedWorkKeepsElementZeroTheCurrentRange) {
  slave_work w;
  w.receive({{20, 25}});
  EXPECT_EQ(w.remaining(), (range_list{{0, 0}, {20, 25}}));
  EXPECT_FALSE(w.in_progress());
  w.hold({{4, 6}});
  w.receive({{30, 31}});
  EXPECT_EQ(w.remaining(), (range_list{{4, 6}, {30, 31}}));
  w.keep_started();
  EXPECT_EQ(w.remaining(), (range_list{{4, 4}}));
}

// Who is active: per member position from every slave's activity; a decision's counts after it
// (one per active member) turn members without work inactive, and what this slave knows of
// every slave follows for its members only.
TEST(SlaveState, ActivityFollowsTheDecisions) {
  slave_state s(1, 0, {0, 1, 2});
  s.start_activity({true, true, false, true});
  EXPECT_EQ(s.active(), (std::vector<bool>{true, true, false}));
  EXPECT_EQ(s.known_active(), (std::vector<bool>{true, true, false, false}));
  EXPECT_TRUE(s.others_active());
  EXPECT_EQ(s.active_other_ranks(), (std::vector<int>{1}));
  EXPECT_EQ(s.other_member_ranks(), (std::vector<int>{1, 3}));
  s.update_active({0, 12});  // slave 0 ends without work, slave 1 holds 12
  EXPECT_EQ(s.active(), (std::vector<bool>{false, true, false}));
  EXPECT_FALSE(s.others_active());
  s.join(1, {1, 3}, {true, true, true, true});
  EXPECT_EQ(s.group(), 1);
  EXPECT_EQ(s.stats().group, 1);
  EXPECT_EQ(s.active_other_ranks(), (std::vector<int>{4}));
}

// A synchronization's window: the speed measured over it (the last one when nothing was done),
// the first speed kept in the statistics; the epoch counts the completed synchronizations.
TEST(SlaveState, SpeedOverTheWindowAndTheFirstOneKept) {
  slave_state s(0, 0, {0});
  s.start_loop(10.0, false);
  for (int k = 0; k < 4; ++k) {
    s.count_iteration();
    s.count_work(0.5);
  }
  EXPECT_DOUBLE_EQ(s.measure_speed(12.0), 1.0);  // 2 units of work in 2 s
  EXPECT_DOUBLE_EQ(s.stats().first_speed, 1.0);
  EXPECT_EQ(s.window().next_epoch(), 0);
  s.count_sync(true);
  s.window().restart(12.0);
  EXPECT_EQ(s.window().epoch(), 1);
  EXPECT_DOUBLE_EQ(s.measure_speed(12.0), 1.0);  // nothing measured: the last speed
  s.count_iteration();
  s.count_work(3.0);
  EXPECT_DOUBLE_EQ(s.measure_speed(13.0), 3.0);
  EXPECT_DOUBLE_EQ(s.stats().first_speed, 1.0);
  EXPECT_EQ(s.stats().iterations_done, 5);
  EXPECT_DOUBLE_EQ(s.stats().work_done, 5.0);
  EXPECT_EQ(s.stats().syncs, 1);
  EXPECT_EQ(s.stats().redistributions, 1);
}

// The time accounting: the application's time between calls is busy, a call's own time sync
// but what it computed or waited; together they cover [start, finish].
TEST(SlaveState, BusySyncAndIdleCoverTheLoop) {
  slave_state s(0, 0, {0});
  s.start_loop(1.0, false);
  s.begin_call(3.0);  // 2 s of the body
  s.charge_busy(0.5);
  s.charge_idle(1.0);
  s.end_call(6.0);  // 1.5 s of the call its own
  EXPECT_DOUBLE_EQ(s.stats_at(7.0, 0.0).finish, 7.0);
  s.begin_call(7.0);
  EXPECT_DOUBLE_EQ(s.stats_at(7.5, 0.0).sync, 2.0);  // inside a call: its time so far is sync
  s.end_call(7.5);
  s.finish_loop(9.0);
  const auto& st = s.final_stats(0.25);
  EXPECT_DOUBLE_EQ(st.busy, 2.0 + 0.5 + 1.0 + 1.5);
  EXPECT_DOUBLE_EQ(st.idle, 1.0);
  EXPECT_DOUBLE_EQ(st.sync, 2.0);
  EXPECT_DOUBLE_EQ(st.busy + st.idle + st.sync, st.finish - st.start);
  EXPECT_DOUBLE_EQ(st.lag, 0.25);
}

// Work received in a synchronization: it has all arrived once as much came as was announced;
// a synchronization it shipped or got work in counts as a redistribution it took part in.
TEST(SlaveState, WorkArrivesAsAnnounced) {
  slave_state s(0, 0, {0, 1});
  EXPECT_FALSE(s.work_arrived(3));  // nothing came yet
  s.receive({{10, 12}}, 3, 2);
  EXPECT_FALSE(s.work_arrived(3));
  s.receive({{14, 15}}, 3, 2);
  EXPECT_TRUE(s.work_arrived(3));
  EXPECT_EQ(s.works_received(), 2);
  EXPECT_EQ(s.stats().iterations_received, 3);
  s.count_sent(64, 4, 5);
  s.count_sent(32, 2, -1);
  EXPECT_EQ(s.stats().bytes_sent, 96u);
  EXPECT_EQ(s.stats().iterations_sent, 6);
  EXPECT_EQ(s.final_stats(0.0).redistributions, 2);  // epochs 3 and 5
}

// Asked to synchronize: the interrupt implies a pending synchronization; both end with it.
TEST(SlaveState, AnInterruptIsAPendingSynchronization) {
  slave_state s(0, 0, {0, 1});
  s.interrupted();
  EXPECT_TRUE(s.interrupt());
  EXPECT_TRUE(s.sync_pending());
  s.sync_over();
  EXPECT_FALSE(s.interrupt());
  EXPECT_FALSE(s.sync_pending());
  s.ask_sync();
  EXPECT_FALSE(s.interrupt());
  EXPECT_TRUE(s.sync_pending());
}

}  // namespace
