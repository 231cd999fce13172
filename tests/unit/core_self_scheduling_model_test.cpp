// The self-scheduling model (dlb/core/self_scheduling_model.hpp) against cases worked by hand.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "dlb/core/self_scheduling_model.hpp"

namespace {

using namespace dlb::core;

// An ideal network (every message free), an idle uniform machine of P workers of speed 1.
self_scheduling_input idle(chunk_rule rule, std::int64_t iterations, std::size_t P) {
  self_scheduling_input in;
  in.rule = rule;
  in.pool = {{0, iterations}};
  in.time_per_iteration = 1.0;
  in.base_speeds.assign(P, 1.0);
  in.load.max_load = 0;
  in.request_bytes = 0;
  in.answer_bytes = 0;
  return in;
}

struct ss_row {
  const char* what;
  self_scheduling_input in;
  double total;
  std::size_t messages;
};

// The rows where messages cost: free, latency, a shared medium or not.
std::vector<ss_row> message_rows() {
  std::vector<ss_row> rows;
  // SS, one chunk per iteration, 2 workers, 4 iterations of 1 s, free messages: 2 s; 4 chunks and
  // a final empty answer per worker, two messages each.
  rows.push_back({"SS idle uniform", idle(chunk_rule::ss, 4, 2), 2.0, 12});
  {
    // One worker, 3 iterations of SS, each request-answer round trip 2 L = 0.2 s (no overheads,
    // an infinite bandwidth): 3 x (0.2 + 1) + 0.2 for the final answer.
    auto in = idle(chunk_rule::ss, 3, 1);
    in.network.latency = 0.1;
    rows.push_back({"SS latency", in, 3.8, 8});
  }
  {
    // Two workers, CSS:1 on 2 iterations; only the wire costs (10 bytes at 100 B/s = 0.1 s per
    // message), one shared medium, taken in the order messages are ready. Both ask at 0: w0's
    // request [0, 0.1], w1's [0.1, 0.2]; the answers (ready at 0.1 and 0.2) [0.2, 0.3] and
    // [0.3, 0.4]: w0 computes to 1.3, w1 to 1.4. Final requests: w0's [1.3, 1.4]; at 1.4 w1's
    // request (queued first) [1.4, 1.5], then the answer to w0 [1.5, 1.6], to w1 [1.6, 1.7].
    auto in = idle(chunk_rule::css, 2, 2);
    in.fixed = 1;
    in.request_bytes = in.answer_bytes = 10;
    in.network.bandwidth = 100;
    rows.push_back({"CSS shared medium", in, 1.7, 8});
    // The same on a medium without a queue: w1's messages overlap w0's: both compute from 0.2
    // to 1.2 and get their final answers at 1.4.
    in.network.shared_medium = false;
    rows.push_back({"CSS no shared medium", in, 1.4, 8});
  }
  return rows;
}

// The rows where the work differs: slices with the answers, a load, a pool with holes, late
// workers.
std::vector<ss_row> work_rows() {
  std::vector<ss_row> rows;
  {
    // The answer carries its chunk's input slices: D = 10 bytes per iteration at 100 B/s.
    // One worker, GSS on 3 iterations: one chunk of 3 (answer 0.3 s of wire), 3 s of work, then
    // the final empty answer (0 s).
    auto in = idle(chunk_rule::gss, 3, 1);
    in.network.bandwidth = 100;
    in.bytes_per_iteration = 10;
    rows.push_back({"GSS slices", in, 3.3, 4});
  }
  {
    // A load of 1 halves the speed: SS on 4 iterations of 1 s on one worker takes 8 s.
    auto in = idle(chunk_rule::ss, 4, 1);
    in.load.table = {{1}};
    in.load.max_load = 1;
    rows.push_back({"SS loaded", in, 8.0, 10});
  }
  {
    // A non-contiguous pool of non-uniform iterations: [0, 10) of 1 s and [50, 60) of 2 s, GSS
    // on one worker: one chunk of 20 iterations, 30 s.
    auto in = idle(chunk_rule::gss, 0, 1);
    in.pool = {{0, 10}, {50, 60}};
    in.iteration_times.assign(60, 1.0);
    for (std::size_t k = 50; k < 60; ++k) in.iteration_times[k] = 2.0;
    rows.push_back({"GSS non-contiguous pool", in, 30.0, 4});
  }
  {
    // Workers that ask later: worker 1 asks at 5 s, when worker 0 has done all 4 iterations
    // (0 to 4 s); worker 1 gets the final empty answer at 5.
    auto in = idle(chunk_rule::ss, 4, 2);
    in.ready = {0.0, 5.0};
    rows.push_back({"SS ready", in, 5.0, 12});
  }
  return rows;
}

TEST(SelfSchedulingModel, HandWorkedTable) {
  std::vector<ss_row> rows = message_rows();
  for (auto& r : work_rows()) rows.push_back(std::move(r));
  for (const auto& r : rows) {
    const auto p = predict_self_scheduling(r.in);
    EXPECT_NEAR(p.total_time, r.total, 1e-9) << r.what;
    EXPECT_EQ(p.messages, r.messages) << r.what;
  }
}

TEST(SelfSchedulingModel, ChunksFollowTheRule) {
  // GSS, I = 100, P = 4 (as core_chunks_test): ceil(R / 4) of what is left.
  const auto gss = predict_self_scheduling(idle(chunk_rule::gss, 100, 4));
  EXPECT_EQ(gss.chunks, (std::vector<std::int64_t>{25, 19, 14, 11, 8, 6, 5, 3, 3, 2, 1, 1, 1, 1}));
  // On an idle uniform machine GSS's 100 s of work on 4 workers: the first four chunks
  // (25, 19, 14, 11) end at 25, 19, 14, 11; the finish is at least 25 and at most 25 + 1.
  EXPECT_GE(gss.total_time, 25.0);
  EXPECT_LE(gss.total_time, 26.0);
  // AWF with weights 3:1 on 8 iterations: the first batch is ceil(8 x 3 / 8) = 3 for worker 0
  // and ceil(8 x 1 / 8) = 1 for worker 1.
  auto in = idle(chunk_rule::awf, 8, 2);
  in.weights = {3.0, 1.0};
  const auto awf = predict_self_scheduling(in);
  ASSERT_GE(awf.chunks.size(), 2u);
  EXPECT_EQ(awf.chunks[0], 3);
  EXPECT_EQ(awf.chunks[1], 1);
  std::int64_t sum = 0;
  for (auto c : awf.chunks) sum += c;
  EXPECT_EQ(sum, 8);
}

// The rules that follow measurements are given the model's own chunk times: AWF-B, I = 100, two
// idle workers of speeds 1 and 3, free messages. Batch 1 (no measurement): 25 and 25. Worker 1
// is done first (at 8.33 s) with the only record (pi = 1/3); worker 0 without one counts as the
// slowest measured (awf_batch): equal weights, ceil(50 / 4) = 13. WF with weights 1 and 3 gives
// worker 0 ceil(100 / 8) = 13 first and worker 1 ceil(300 / 8) = 38.
TEST(SelfSchedulingModel, AdaptingRulesSeeTheModelledTimes) {
  auto in = idle(chunk_rule::awf_b, 100, 2);
  in.base_speeds = {1.0, 3.0};
  const auto b = predict_self_scheduling(in);
  ASSERT_GE(b.chunks.size(), 4u);
  EXPECT_EQ(b.chunks[0], 25);
  EXPECT_EQ(b.chunks[1], 25);
  EXPECT_EQ(b.chunks[2], 13);
  std::int64_t sum = 0;
  for (auto c : b.chunks) sum += c;
  EXPECT_EQ(sum, 100);
  in.rule = chunk_rule::wf;
  in.weights = {1.0, 3.0};
  const auto wf = predict_self_scheduling(in);
  ASSERT_GE(wf.chunks.size(), 2u);
  EXPECT_EQ(wf.chunks[0], 13);
  EXPECT_EQ(wf.chunks[1], 38);
  // AF, once each worker has 2 records (FAC2's 25, 25 then 13, 13), sizes its chunks by the
  // measured means: worker 1 (3 times as fast) gets the larger ones.
  in.rule = chunk_rule::af;
  in.weights.clear();
  const auto af = predict_self_scheduling(in);
  sum = 0;
  for (auto c : af.chunks) sum += c;
  EXPECT_EQ(sum, 100);
}

// Prefetch: one worker, CSS:2 on 4 iterations of 1 s, a round trip of 0.2 s. Without it: 0.2 +
// 2 + 0.2 + 2 + 0.2 = 4.6 s. With f = 0.5 the request goes when 1 s of the chunk remains: the
// first chunk [0.2, 2.2], its request at 1.2, the answer at 1.4, the second chunk [2.2, 4.2], its
// request at 3.2 answered (empty) at 3.4: 4.2 s.
TEST(SelfSchedulingModel, PrefetchHidesTheRoundTrip) {
  auto in = idle(chunk_rule::css, 4, 1);
  in.fixed = 2;
  in.network.latency = 0.1;
  EXPECT_NEAR(predict_self_scheduling(in).total_time, 4.6, 1e-9);
  in.prefetch = 0.5;
  const auto p = predict_self_scheduling(in);
  EXPECT_NEAR(p.total_time, 4.2, 1e-9);
  EXPECT_EQ(p.messages, 6u);
  in.prefetch = 1.0;
  EXPECT_THROW(predict_self_scheduling(in), std::invalid_argument);
}

// Two messages of 10 bytes at 100 B/s (0.1 s on the wire) with L = 0.1 s and no CPU overheads:
// the rest of the latency is 0.1 - 1 / 100 = 0.09 s. On a shared medium the second waits for the
// first's wire: arrivals 0.19 and 0.29, mean 0.24; without a queue both arrive at 0.19.
TEST(SelfSchedulingModel, MeanArrivalOfTheScatter) {
  message_costs net;
  net.latency = 0.1;
  net.bandwidth = 100;
  EXPECT_NEAR(mean_arrival(net, {10, 10}), 0.24, 1e-12);
  net.shared_medium = false;
  EXPECT_NEAR(mean_arrival(net, {10, 10}), 0.19, 1e-12);
  EXPECT_EQ(mean_arrival(net, {}), 0.0);
}

TEST(SelfSchedulingModel, EmptyPoolCostsOneRoundTrip) {
  auto in = idle(chunk_rule::ss, 0, 3);
  in.network.latency = 0.5;
  const auto p = predict_self_scheduling(in);
  EXPECT_NEAR(p.total_time, 1.0, 1e-9);
  EXPECT_TRUE(p.chunks.empty());
}

TEST(SelfSchedulingModel, BadInputsThrow) {
  auto none = idle(chunk_rule::ss, 4, 1);
  none.base_speeds.clear();
  EXPECT_THROW(predict_self_scheduling(none), std::invalid_argument);
  auto slow = idle(chunk_rule::ss, 4, 1);
  slow.base_speeds = {0.0};
  EXPECT_THROW(predict_self_scheduling(slow), std::invalid_argument);
  auto css = idle(chunk_rule::css, 4, 1);
  css.fixed = 0;
  EXPECT_THROW(predict_self_scheduling(css), std::invalid_argument);
  auto times = idle(chunk_rule::ss, 4, 1);
  times.iteration_times = {1.0, 1.0};
  EXPECT_THROW(predict_self_scheduling(times), std::invalid_argument);
  auto ready = idle(chunk_rule::ss, 4, 2);
  ready.ready = {0.0};
  EXPECT_THROW(predict_self_scheduling(ready), std::invalid_argument);
}

TEST(SelfSchedulingModel, MessageCostIsTheNetworksFormula) {
  message_costs net;
  net.latency = 2414.5e-6;
  net.bandwidth = 0.96e6;
  net.send_overhead = 0.4 * net.latency;
  net.recv_overhead = 0.4 * net.latency;
  net.header_bytes = 98;
  net.wire_share = 1.0;
  // A 1-byte message takes L one way; a b-byte one L + (b - 1) / B.
  const auto one = message_cost(net, 1);
  EXPECT_NEAR(one.send + one.wire + one.rest + one.receive, net.latency, 1e-12);
  const auto big = message_cost(net, 1001);
  EXPECT_NEAR(big.send + big.wire + big.rest + big.receive, net.latency + 1000 / net.bandwidth,
              1e-12);
  net.wire_share = 0.768;
  const auto split = message_cost(net, 1001);
  EXPECT_NEAR(split.send + split.wire + split.rest + split.receive,
              net.latency + 1000 / net.bandwidth, 1e-12);
}

}  // namespace
