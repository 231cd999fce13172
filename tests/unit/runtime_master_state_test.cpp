// Unit tests of the master's state (lib/runtime/master_state.hpp) alone, without a transport:
// the results gathered, the balancer's tally and the loop's statistics (master_state), and a
// chunk rule's pool on the master (self_scheduling_state).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "dlb/core/chunks.hpp"
#include "dlb/core/distribution.hpp"
#include "runtime/master_state.hpp"

namespace {

namespace core = dlb::core;
using dlb::detail::master_state;
using dlb::detail::self_scheduling_state;

dlb::slave_stats slave_in(int group, std::int64_t syncs, std::int64_t moved, double lag = 0.0) {
  dlb::slave_stats s;
  s.group = group;
  s.syncs = syncs;
  s.redistributions = moved;
  s.lag = lag;
  return s;
}

// The loop's statistics begin at the scatter; a loss is recorded from the loop's start.
TEST(MasterState, BeginsTheLoopAndRecordsLossesFromItsStart) {
  master_state m;
  const core::policy p{core::balancing{core::scheme::lcdlb}};
  m.begin(p, 4, 2, 100, true, 2.5);
  EXPECT_EQ(m.start_time(), 2.5);
  EXPECT_EQ(m.stats().policy, p);
  EXPECT_EQ(m.stats().procs, 4);
  EXPECT_EQ(m.stats().group_size, 2);
  EXPECT_EQ(m.stats().iterations, 100);
  EXPECT_TRUE(m.stats().recover);
  EXPECT_DOUBLE_EQ(m.record_loss(2, 4.0), 1.5);
  ASSERT_EQ(m.stats().lost.size(), 1u);
  EXPECT_EQ(m.stats().lost[0].slave, 2u);
  EXPECT_DOUBLE_EQ(m.stats().lost[0].time, 1.5);
  m.count_recovered(7);
  m.count_recovered(5);
  EXPECT_EQ(m.stats().recovered_iterations, 12);
}

// Results come in one by one; collecting starts again when asked.
TEST(MasterState, GathersResultsUntilItStartsAgain) {
  master_state m;
  EXPECT_EQ(m.results_in(), 0u);
  for (int from : {3, 1}) {
    dlb::delivered d;
    d.from = from;
    m.take_results(std::move(d));
  }
  ASSERT_EQ(m.results_in(), 2u);
  EXPECT_EQ(m.results()[0].from, 3);
  EXPECT_EQ(m.results()[1].from, 1);
  m.start_gathering();
  EXPECT_EQ(m.results_in(), 0u);
}

// The balancer's count: synchronizations and those that moved work, per group; AUTO-ALL's
// hand-over to a chunk rule makes group 0 that one synchronization, and the requests add to it.
TEST(MasterState, TallyCountsSyncsMovesHandOverAndRequests) {
  master_state m;
  m.count_sync(0, true);
  m.count_sync(0, false);
  m.count_sync(1, true);
  EXPECT_EQ(m.tally().at(0), (std::pair<std::int64_t, std::int64_t>{2, 1}));
  EXPECT_EQ(m.tally().at(1), (std::pair<std::int64_t, std::int64_t>{1, 1}));
  m.count_handover();
  EXPECT_EQ(m.tally().at(0), (std::pair<std::int64_t, std::int64_t>{1, 0}));
  m.count_requests(9, 6);
  EXPECT_EQ(m.tally().at(0), (std::pair<std::int64_t, std::int64_t>{10, 6}));
  EXPECT_EQ(m.tally().at(1), (std::pair<std::int64_t, std::int64_t>{1, 1}));
}

// Closing: each group's count is the most any member saw, unless the balancer counted it; the
// moves and bytes are summed, the lag is the worst, the chunks' bytes are added.
TEST(MasterState, CloseAddsUpTheSlavesWithTheTallyInCharge) {
  master_state m;
  m.begin(core::policy{}, 4, 2, 40, false, 1.0);
  m.count_sync(1, true);  // the balancer served group 1 once
  std::vector<dlb::slave_stats> slaves = {slave_in(0, 3, 2, 0.1), slave_in(0, 2, 2, 0.4),
                                          slave_in(1, 5, 4), slave_in(1, 5, 3)};
  slaves[0].iterations_sent = 6;
  slaves[2].iterations_sent = 4;
  slaves[1].bytes_sent = 100;
  m.close(slaves, 0.2, {3, 2, 1}, 50, 9.0, 0.5);
  const auto& st = m.stats();
  EXPECT_EQ(st.syncs, 3 + 1);            // group 0: the most a member saw; group 1: the tally
  EXPECT_EQ(st.redistributions, 2 + 1);  // likewise
  EXPECT_EQ(st.iterations_moved, 10);
  EXPECT_EQ(st.bytes_moved, 150u);
  EXPECT_DOUBLE_EQ(st.lag, 0.4);
  EXPECT_EQ(st.chunks, (std::vector<std::int64_t>{3, 2, 1}));
  EXPECT_DOUBLE_EQ(st.total_time(), 8.0);
  EXPECT_DOUBLE_EQ(st.recovery_time, 0.5);
  EXPECT_EQ(st.slaves.size(), 4u);
  // The master's own lag counts when it is the worst.
  master_state late;
  late.close(slaves, 2.0, {}, 0, 1.0, 0.0);
  EXPECT_DOUBLE_EQ(late.stats().lag, 2.0);
  const dlb::run_stats taken = late.take_stats();
  EXPECT_EQ(taken.syncs, 3 + 5);  // no tally: each group's most
}

// The rule's chunks as the core's dispenser hands them out, from the pool's front, in order.
std::vector<std::int64_t> dispensed(const core::chunk_params& cp, std::size_t n) {
  core::chunk_dispenser d(cp);
  std::vector<std::int64_t> sizes;
  for (std::size_t k = 0; k < n; ++k) {
    const std::int64_t c = d.next(k % cp.workers);
    if (c == 0) break;
    sizes.push_back(c);
  }
  return sizes;
}

// A chunk rule's pool hands out the dispenser's chunks from its front until it is empty, each
// recorded, and each worker holds what it was handed.
TEST(SelfSchedulingState, HandsOutTheRulesChunksInOrderUntilThePoolIsEmpty) {
  for (const auto rule : {core::chunk_rule::gss, core::chunk_rule::tss, core::chunk_rule::fac2}) {
    const core::chunk_params cp(rule, 100, 4);
    self_scheduling_state ss;
    EXPECT_FALSE(ss.started());
    ss.start(cp, {{0, 100}}, std::vector<double>(4, 0.0), 0.0);
    ASSERT_TRUE(ss.started());
    EXPECT_EQ(ss.rule(), rule);
    core::range_list handed;
    std::size_t k = 0;
    for (;; ++k) {
      const auto chunk = ss.next_chunk(k % 4);
      if (chunk.empty()) break;
      ASSERT_EQ(chunk.front().begin, handed.empty() ? 0 : handed.back().end);
      handed.insert(handed.end(), chunk.begin(), chunk.end());
    }
    EXPECT_EQ(ss.chunks(), dispensed(cp, 1000)) << core::to_string(rule);
    EXPECT_EQ(core::iteration_count(handed), 100);
    EXPECT_TRUE(ss.pool().empty());
    // Worker 1 holds chunks 1, 5, 9, ... (no request reported any done).
    std::int64_t held = 0;
    for (std::size_t c = 1; c < ss.chunks().size(); c += 4) held += ss.chunks()[c];
    EXPECT_EQ(core::iteration_count(ss.outstanding()[1]), held);
  }
}

// A pool of what the slaves reported remaining (AUTO-ALL's commitment) goes in that order; a
// restart forgets the chunks and bytes of the last.
TEST(SelfSchedulingState, StartsOverAGivenPool) {
  self_scheduling_state ss;
  ss.start(core::chunk_params(core::chunk_rule::css, 20, 2, 4), {{0, 30}}, {0.0, 0.0}, 0.0);
  ss.next_chunk(0);
  ss.count_shipped(64);
  ASSERT_EQ(ss.chunk_bytes(), 64u);
  ss.start(core::chunk_params(core::chunk_rule::css, 6, 2, 4), {{40, 43}, {10, 13}}, {0.0, 0.0},
           1.0);
  EXPECT_TRUE(ss.chunks().empty());
  EXPECT_EQ(ss.chunk_bytes(), 0u);
  EXPECT_EQ(ss.next_chunk(1), (core::range_list{{40, 43}, {10, 11}}));
  EXPECT_EQ(ss.next_chunk(0), (core::range_list{{11, 13}}));
  EXPECT_TRUE(ss.next_chunk(0).empty());
  EXPECT_EQ(ss.chunks(), (std::vector<std::int64_t>{4, 2}));
}

// The chunk into a list of the caller's (rank 0's own chunks, chunk_link) is the one returned,
// pool, records and held work alike, over one range and over a pool of several, the list's
// earlier contents replaced and its storage kept while the pool is one range.
TEST(SelfSchedulingState, ChunkIntoAListIsTheChunkReturned) {
  const std::vector<core::range_list> pools = {{{0, 100}}, {{40, 43}, {10, 30}, {60, 90}}};
  for (const auto& pool : pools) {
    for (const auto rule : {core::chunk_rule::ss, core::chunk_rule::gss, core::chunk_rule::fac2}) {
      const core::chunk_params cp(rule, core::iteration_count(pool), 2);
      self_scheduling_state a, b;
      a.start(cp, pool, {0.0, 0.0}, 0.0);
      b.start(cp, pool, {0.0, 0.0}, 0.0);
      core::range_list out = {{7, 9}, {11, 12}};
      out.reserve(8);
      const auto* storage = out.data();
      for (std::size_t k = 0;; ++k) {
        const core::range_list chunk = a.next_chunk(k % 2);
        b.next_chunk(k % 2, out);
        ASSERT_EQ(out, chunk) << core::to_string(rule) << ", chunk " << k;
        ASSERT_EQ(b.pool(), a.pool());
        if (pool.size() == 1) {
          EXPECT_EQ(out.data(), storage);
        }
        if (chunk.empty()) break;
      }
      EXPECT_EQ(b.chunks(), a.chunks());
      EXPECT_EQ(b.outstanding(), a.outstanding());
    }
  }
}

// AWF: a request's speed becomes its worker's weight, so the next batch follows the speeds.
TEST(SelfSchedulingState, AwfWeighsEachWorkerByItsRequestsSpeed) {
  const core::chunk_params cp(core::chunk_rule::awf, 1000, 2);
  self_scheduling_state ss;
  ss.start(cp, {{0, 1000}}, {0.0, 0.0}, 0.0);
  // The first batch: equal weights (no speed yet).
  const auto a0 = ss.next_chunk(0), a1 = ss.next_chunk(1);
  EXPECT_EQ(core::iteration_count(a0), core::iteration_count(a1));
  ss.take_request(0, core::iteration_count(a0), 3.0, 1.0, {});
  ss.take_request(1, core::iteration_count(a1), 1.0, 1.0, {});
  const auto b0 = ss.next_chunk(0), b1 = ss.next_chunk(1);
  EXPECT_GT(core::iteration_count(b0), 2 * core::iteration_count(b1));
  // The same from the core's dispenser with those weights.
  core::chunk_dispenser d(cp);
  d.set_weights({0.0, 0.0});
  d.next(0);
  d.next(1);
  d.set_weights({3.0, 1.0});
  EXPECT_EQ(core::iteration_count(b0), d.next(0));
}

// The rules that adapt measure each worker from what it reported done of what it holds; a rule
// that does not keeps all it was handed.
TEST(SelfSchedulingState, RequestsReportWhatAWorkerHeld) {
  self_scheduling_state af;
  af.start(core::chunk_params(core::chunk_rule::af, 100, 2), {{0, 100}}, {0.0, 0.0}, 0.0);
  const auto held = af.next_chunk(0);
  const std::int64_t n = core::iteration_count(held);
  ASSERT_GT(n, 1);
  af.take_request(0, n - 1, 2.0, 1.0, {});
  EXPECT_EQ(core::iteration_count(af.outstanding()[0]), 1);
  self_scheduling_state gss;
  gss.start(core::chunk_params(core::chunk_rule::gss, 100, 2), {{0, 100}}, {0.0, 0.0}, 0.0);
  const auto g = gss.next_chunk(0);
  gss.take_request(0, core::iteration_count(g), 2.0, 1.0, {});
  EXPECT_EQ(gss.outstanding()[0], g);
}

}  // namespace
